"""The two units of work of a landscape run, the same whichever engine runs them.

* :func:`scan_repository`: acquire one repository (clone or fetch, pin the commit), list its files,
  and extract their facts unless the shared store already holds them for exactly these blobs; it
  returns a small :class:`RepoScan` (never the facts: the driver's memory must not grow with files).
* :func:`resolve_system`: read the extracts of one system's repositories from the store, resolve
  them into the system's model, audit it, and render model.json and model.sysml; it returns a
  :class:`SystemResult` with those texts and the references the landscape links systems by.

Both are pure functions of their task (plus the store, which only ever saves work), so a local
process pool and a Dask cluster give the same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from repomodeler.landscape import store
from repomodeler.landscape.signature import Ref, repository_refs
from repomodeler.records import Evidence, ExtractResult, RepomodelerError, Repository, RepoSpec


@dataclass(frozen=True)
class TaskOptions:
    """What shapes a repository's extraction and a system's model (the analyze options that matter)."""

    store: str  # the shared store folder (see repomodeler.landscape.store)
    max_bytes: int = 1_000_000
    timeout: float = 300.0
    use_cache: bool = True
    subsystems: bool = True
    validate: bool = True


@dataclass(frozen=True)
class RepoTask:
    spec: RepoSpec
    options: TaskOptions


@dataclass(frozen=True)
class RepoScan:
    """One acquired repository: its pinned identity, the fingerprint of its files, and its references."""

    name: str
    repository: Repository
    fingerprint: str
    files: int
    parsed_files: int
    cached_files: int
    reused: bool  # the store held its extraction: nothing was read or parsed
    provides: tuple[Ref, ...]
    needs: tuple[Ref, ...]


@dataclass(frozen=True)
class SystemTask:
    name: str
    repositories: tuple[RepoScan, ...]
    fingerprint: str
    options: TaskOptions


@dataclass(frozen=True)
class SystemSummary:
    """What the landscape needs of a resolved system: its top-level components (id, name, kind,
    repository, language, first evidence), the names its SysML package gives them, and the
    references of its components that other systems may answer."""

    name: str
    components: tuple[tuple[str, str, str, str, str, Evidence], ...]
    package: str
    system_def: str
    parts: tuple[tuple[str, str], ...]  # component id -> part name in the system def
    provides: tuple[Ref, ...]
    needs: tuple[Ref, ...]

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "components": [[*c[:5], c[5].repository, c[5].path, c[5].line]
                                                  for c in self.components],
                "package": self.package, "system_def": self.system_def, "parts": [list(p) for p in self.parts],
                "provides": [r.to_json() for r in self.provides], "needs": [r.to_json() for r in self.needs]}

    @classmethod
    def from_json(cls, d: dict) -> "SystemSummary":  # type: ignore[type-arg]
        return cls(name=d["name"], components=tuple((c[0], c[1], c[2], c[3], c[4], Evidence(c[5], c[6], int(c[7])))
                                                    for c in d["components"]),
                   package=d["package"], system_def=d["system_def"], parts=tuple((a, b) for a, b in d["parts"]),
                   provides=tuple(Ref.from_json(r) for r in d["provides"]),
                   needs=tuple(Ref.from_json(r) for r in d["needs"]))


@dataclass(frozen=True)
class SystemResult:
    name: str
    fingerprint: str
    model_json: str  # "" when the published model was kept (the store had this system)
    model_sysml: str
    summary: SystemSummary
    parsed_files: int = 0
    cached_files: int = 0


def repo_fingerprint(repo: Repository, files: list, options: TaskOptions) -> str:
    """A digest of the tool, the options that shape facts, the repository's identity and every
    file's blob id: the key of its extraction in the store."""
    from repomodeler.pipeline import _tool_digest

    h = hashlib.sha256(json.dumps([_tool_digest(), options.max_bytes, repo.name, repo.url, repo.commit,
                                   repo.spec.ref, repo.committed_at]).encode())
    for f in files:
        h.update(f"{f.path}\0{f.blob}\0{f.role}\n".encode())
    return h.hexdigest()


def _commit_key(repo: Repository, options: TaskOptions) -> str:
    """The store key of a pinned commit as this tool lists it (name, remote, ref, commit, options)."""
    from repomodeler.pipeline import _tool_digest

    return hashlib.sha256(json.dumps(["commit", _tool_digest(), options.max_bytes, repo.name, repo.url,
                                      repo.spec.ref, repo.commit]).encode()).hexdigest()


def system_fingerprint(name: str, scans: list[RepoScan], options: TaskOptions) -> str:
    h = hashlib.sha256(json.dumps([name, options.subsystems, options.validate]).encode())
    for s in sorted(scans, key=lambda s: s.name):
        h.update(f"{s.name}\0{s.fingerprint}\n".encode())
    return h.hexdigest()


def stored_scan(repo: Repository, options: TaskOptions) -> RepoScan | None:
    """The scan of a pinned git commit the store has seen and still holds the extraction of, read
    from the store alone (no git, no listing), else None.  The driver asks it of every local
    repository before any engine starts, so an unmoved repository costs no task."""
    if repo.kind != "git" or not repo.commit or not options.use_cache:
        return None
    return _scan_of_seen(repo, store.read_entry(Path(options.store), "commits", _commit_key(repo, options)), options)


def _scan_of_seen(repo: Repository, seen: object, options: TaskOptions) -> RepoScan | None:
    if not isinstance(seen, dict):
        return None
    root = Path(options.store)
    fingerprint, files = str(seen["fingerprint"]), int(seen["files"])
    saved = store.read_entry(root, "signatures", fingerprint)
    if not isinstance(saved, dict) or not store.has_entry(root, "repos", fingerprint):
        return None
    return RepoScan(name=repo.name, repository=dataclasses.replace(repo, committed_at=seen.get("committed_at")),
                    fingerprint=fingerprint, files=files, parsed_files=0, cached_files=files, reused=True,
                    provides=tuple(Ref.from_json(r) for r in saved["provides"]),
                    needs=tuple(Ref.from_json(r) for r in saved["needs"]))


def scan_repository(task: RepoTask) -> RepoScan:
    """Acquire, list and (unless the store has them) extract one repository."""
    from repomodeler.acquire import acquire_one, allow_git
    from repomodeler.inventory import InventoryOptions, build_inventory
    from repomodeler.pipeline import _with_commit_date

    options = task.options
    root = Path(options.store)
    allow_git()
    repo = acquire_one(task.spec, timeout=options.timeout)
    # A git commit's tree never changes: a commit seen before needs no listing, only its saved fingerprint.
    pinned = _commit_key(repo, options) if repo.kind == "git" and repo.commit and options.use_cache else None
    seen = store.read_entry(root, "commits", pinned) if pinned else None
    known = _scan_of_seen(repo, seen, options)
    if known is not None:
        return known
    if isinstance(seen, dict):
        repo = dataclasses.replace(repo, committed_at=seen.get("committed_at"))
        fingerprint, files = str(seen["fingerprint"]), int(seen["files"])
    else:
        repo = _with_commit_date(repo)
        inventory = build_inventory(repo, InventoryOptions(max_bytes=options.max_bytes))
        fingerprint = repo_fingerprint(repo, inventory.files, options)
        files = sum(1 for f in inventory.files if f.role == "source")
    saved = store.read_entry(root, "signatures", fingerprint) if options.use_cache else None
    if isinstance(saved, dict) and store.has_entry(root, "repos", fingerprint):
        if pinned and not isinstance(seen, dict):
            store.write_entry(root, "commits", pinned, {"fingerprint": fingerprint, "files": files,
                                                        "committed_at": repo.committed_at})
        return RepoScan(name=repo.name, repository=repo, fingerprint=fingerprint, files=files, parsed_files=0,
                        cached_files=files, reused=True,
                        provides=tuple(Ref.from_json(r) for r in saved["provides"]),
                        needs=tuple(Ref.from_json(r) for r in saved["needs"]))
    if isinstance(seen, dict):  # the store lost the extraction: list the files again
        repo = _with_commit_date(repo)
        inventory = build_inventory(repo, InventoryOptions(max_bytes=options.max_bytes))
    from repomodeler.extract import extract_repository
    from repomodeler.extract.cache import FactCache, default_cache_path

    cache = FactCache(default_cache_path()) if options.use_cache else None
    try:
        result = extract_repository(inventory, cache=cache, jobs=1)
    finally:
        if cache is not None:
            cache.close()
    provides, needs = repository_refs(result.facts, repo.name)
    store.write_entry(root, "repos", fingerprint, store.extract_to_json(result))
    store.write_entry(root, "signatures", fingerprint, {"provides": [r.to_json() for r in provides],
                                                        "needs": [r.to_json() for r in needs]})
    if pinned:
        store.write_entry(root, "commits", pinned, {"fingerprint": fingerprint, "files": files,
                                                    "committed_at": repo.committed_at})
    return RepoScan(name=repo.name, repository=repo, fingerprint=fingerprint, files=files,
                    parsed_files=result.parsed_files, cached_files=result.cached_files, reused=False,
                    provides=tuple(provides), needs=tuple(needs))


def _load_extract(root: Path, scan: RepoScan) -> ExtractResult:
    data = store.read_entry(root, "repos", scan.fingerprint)
    if not isinstance(data, dict):
        raise RepomodelerError(f"error: the extraction of '{scan.name}' is missing from the store '{root}'; "
                               "every worker must reach the same --cache-dir (rerun to extract it again)")
    return store.extract_from_json(data, scan.repository)


def _component_refs(refs: tuple[Ref, ...], owner, fallback: dict[str, str]) -> list[Ref]:  # type: ignore[no-untyped-def]
    """The references of a repository moved onto the component holding the file they were read in."""
    out = set()
    for r in refs:
        component = (owner(r.evidence.repository, r.evidence.path) if r.evidence.path else None) \
            or fallback.get(r.evidence.repository)
        if component:
            out.add(dataclasses.replace(r, component=component))
    return sorted(out)


def resolve_system(task: SystemTask) -> SystemResult:
    """Resolve one system from the store, audit it, render its files and summarise it."""
    import tempfile

    from repomodeler import audit as _audit
    from repomodeler.emit.sysml import render_library, render_sysml, system_names
    from repomodeler.graph.build import Resolver
    from repomodeler.model import from_system, to_json, to_networkx

    root = Path(task.options.store)
    extracts = [_load_extract(root, s) for s in sorted(task.repositories, key=lambda s: s.name)]
    resolver = Resolver(task.name, extracts)
    system = resolver.resolve()
    warnings = sorted({w for r in extracts for w in r.warnings})
    stats: dict[str, object] = {
        "files": sum(len(r.inventory.files) for r in extracts),
        "skipped": dict(sorted({k: sum(r.inventory.skipped.get(k, 0) for r in extracts)
                                for r in extracts for k in r.inventory.skipped}.items())),
    }
    model = from_system(system, [r.repository for r in extracts], warnings, stats, nested=task.options.subsystems)
    graph = to_networkx(model)
    _audit.check_graph(graph, extracts)
    model_json = to_json(model)
    model_sysml = render_sysml(graph)
    if task.options.validate:
        with tempfile.TemporaryDirectory(prefix="repomodeler-system-") as tmp:
            (Path(tmp) / "model.sysml").write_text(model_sysml, encoding="utf-8")
            (Path(tmp) / "RepoModeler.sysml").write_text(render_library(), encoding="utf-8")
            _audit.check_sysml(Path(tmp), _ValidateOnly(task.options.use_cache), None)  # type: ignore[arg-type]
    names = system_names(graph)
    top = model.top_level()
    # a repository's references that no file of a component holds go to its first component
    fallback: dict[str, str] = {}
    for c in top:
        if c.repository and c.repository not in fallback and c.kind in ("service", "library", "gateway"):
            fallback[c.repository] = c.id
    # a repository that is only a published package (a library no component of its system uses) is
    # no component of the system model; the landscape shows it as a library, at its manifest
    extra: list[tuple[str, str, str, str, str, Evidence]] = []
    for s in sorted(task.repositories, key=lambda s: s.name):
        if s.name in fallback or any(c.repository == s.name for c in top):
            continue
        packages = sorted(r for r in s.provides if r.kind == "package")
        if packages and s.name not in model.components:
            fallback[s.name] = s.name
            extra.append((s.name, s.name, "library", s.name, "", packages[0].evidence))
    provides = _component_refs(tuple(r for s in task.repositories for r in s.provides), resolver.owner_of, fallback)
    # a host the system itself answers (one of its components) is no need of the landscape
    own_hosts = {c.id.lower() for c in model.components.values()} | {c.name.lower() for c in top}
    provides = sorted(set(provides) | {Ref("host", c.name.lower(), c.id, "", c.evidence[0])
                                       for c in top if c.evidence and c.kind in ("service", "gateway", "library")})
    needs = [r for r in _component_refs(tuple(r for s in task.repositories for r in s.needs), resolver.owner_of,
                                        fallback)
             if not (r.kind == "host" and r.key in own_hosts)]
    summary = SystemSummary(
        name=task.name,
        components=tuple(sorted([*((c.id, c.name, c.kind, c.repository or "", c.language or "",
                                    c.evidence[0] if c.evidence else Evidence("", "", 0)) for c in top), *extra])),
        package=names.package, system_def=names.system_def,
        parts=tuple(sorted((cid, part) for cid, part in names.components.items() if cid in model.components)),
        provides=tuple(provides), needs=tuple(needs))
    store.write_entry(root, "systems", task.fingerprint, summary.to_json())
    return SystemResult(name=task.name, fingerprint=task.fingerprint, model_json=model_json, model_sysml=model_sysml,
                        summary=summary)


@dataclass(frozen=True)
class _ValidateOnly:
    """The two options audit.check_sysml reads."""

    use_cache: bool
    validate: bool = True
