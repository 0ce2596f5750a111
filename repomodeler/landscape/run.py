"""``analyze --inputs/--discover``: a whole organisation as one landscape.

The driver (this module) only plans, streams and publishes; the work runs as tasks on an engine
(:mod:`repomodeler.landscape.engine`):

1. every repository is scanned (acquired, listed, extracted unless the shared store has it) as one
   task; the driver keeps a :class:`~repomodeler.landscape.tasks.RepoScan` per repository (its
   identity and references, never its facts);
2. repositories are grouped into systems, as the inputs say or inferred
   (:mod:`repomodeler.landscape.systems`);
3. each system whose inputs changed is resolved as one task, and published as it arrives into
   ``OUT/<system>/`` (a model folder like ``analyze`` writes: staged, audited, swapped into place);
   a system whose repositories did not move keeps its published model and is not resolved again;
4. the landscape (:mod:`repomodeler.landscape.links`) is written last, ``OUT/landscape.json`` and
   ``OUT/landscape.sysml``, each replaced whole.

A repository that fails (twice) is listed and its system is resolved without it; a system that
fails keeps its previous model.  A killed driver leaves every published model as it was: each
system's folder and each landscape file is replaced in one rename.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from repomodeler import __version__
from repomodeler import publish as _publish
from repomodeler.landscape import store
from repomodeler.landscape.engine import Failure, make_engine
from repomodeler.landscape.inputs import LandscapeInputs
from repomodeler.landscape.tasks import (
    RepoScan, RepoTask, SystemResult, SystemSummary, SystemTask, TaskOptions, resolve_system, scan_repository,
    system_fingerprint,
)
from repomodeler.records import RepomodelerError, RepoSpec

LANDSCAPE_JSON = "landscape.json"
LANDSCAPE_SYSML = "landscape.sysml"
LANDSCAPE_RUN = "landscape-run.json"


@dataclass
class LandscapeOptions:
    name: str = "landscape"
    out: Path = Path("models")
    engine: str = "local"
    scheduler: str | None = None
    jobs: int = 0
    store_dir: Path | None = None
    max_bytes: int = 1_000_000
    timeout: float = 300.0
    use_cache: bool = True
    subsystems: bool = True
    validate: bool = True
    allow_http: bool = False


@dataclass
class LandscapeResult:
    name: str
    out: Path
    systems: dict[str, list[str]]  # system -> its repositories
    resolved: list[str]  # systems resolved in this run (the others kept their model)
    failures: list[str]
    repositories: int
    parsed_files: int
    cached_files: int
    extracted: list[str]  # repositories whose files were read in this run (not taken whole from the store)
    timings: dict[str, float] = field(default_factory=dict)
    components: int = 0
    connections: int = 0


def _specs(inputs: LandscapeInputs, allow_http: bool, failures: list[str],
           remote_workers: bool = False) -> list[tuple[RepoSpec, str | None]]:
    """Parsed inputs with unique names, each with the system the user put it in.  With `remote_workers`
    (Dask) a URL holding credentials is refused: the task would carry them to the scheduler and workers."""
    from urllib.parse import urlsplit

    from repomodeler.acquire import parse_input, redact_url, unique_names

    parsed: list[tuple[RepoSpec, str | None]] = []
    for item in inputs.inputs:
        try:
            spec = parse_input(item.raw, allow_http=allow_http)
            if remote_workers and spec.kind == "url" and "://" in spec.location and urlsplit(spec.location).username:
                raise RepomodelerError(f"error: '{redact_url(item.raw)}' holds credentials, which --engine dask would "
                                       "send to its workers; drop them from the URL and give the workers "
                                       "REPOMODELER_GIT_TOKEN (or ssh keys) instead")
            parsed.append((spec, item.system))
        except RepomodelerError as exc:
            failures.append(f"{redact_url(item.origin or item.raw)}: {str(exc).removeprefix('error: ')}")
    named = unique_names([s for s, _ in parsed])
    return [(spec, system) for spec, (_, system) in zip(named, parsed)]


def _stored_scans(specs: list[RepoSpec], options: TaskOptions, jobs: int) -> dict[str, RepoScan]:
    """Name -> scan of each local git repository whose HEAD commit the store has seen (with its
    extraction), found in the driver before any engine exists.

    The commit is read from the repository's files where that is exactly git's answer
    (:mod:`repomodeler.landscape.heads`), else asked of git, a thread per call; anything unusual
    (a bad path, a ref to resolve, a git error) is left to the repository's task, which reports it.
    Remote URLs are left to their tasks too: learning whether they moved takes a fetch."""
    if not options.use_cache:
        return {}
    from concurrent.futures import ThreadPoolExecutor

    from repomodeler.acquire import acquire_one
    from repomodeler.landscape.heads import read_head
    from repomodeler.landscape.tasks import stored_scan
    from repomodeler.records import Repository

    def check(spec: RepoSpec) -> RepoScan | None:
        try:
            head = read_head(Path(spec.location)) if spec.ref is None else None
            if head is not None:
                repo = Repository(name=spec.name, spec=spec, checkout=head[0], kind="git", commit=head[1], url=None)
            else:
                repo = acquire_one(spec, timeout=options.timeout)
            return stored_scan(repo, options)
        except (RepomodelerError, OSError, TimeoutError, ValueError, KeyError, TypeError):
            return None

    local = [spec for spec in specs if spec.kind == "path"]
    if not local:
        return {}
    with ThreadPoolExecutor(max_workers=max(1, min(jobs * 2, len(local)))) as pool:
        found = list(pool.map(check, local))
    return {spec.name: scan for spec, scan in zip(local, found) if scan is not None}


def _group(scans: list[RepoScan], given: dict[str, str | None]) -> dict[str, list[RepoScan]]:
    """System -> its repositories: the systems the inputs name, the rest inferred."""
    from repomodeler.acquire import _owner_from
    from repomodeler.landscape.systems import infer_systems

    systems: dict[str, list[RepoScan]] = {}
    loose = [s for s in scans if not given.get(s.name)]
    for s in scans:
        if given.get(s.name):
            systems.setdefault(given[s.name], []).append(s)  # type: ignore[index]
    if loose:
        owners = {s.name: _owner_from(s.repository.spec.location) for s in loose}
        if len(set(owners.values())) < 2:  # one organisation: its name tells systems nothing apart
            owners = {}
        inferred = infer_systems({s.name: (s.provides, s.needs) for s in loose}, owners)
        for s in loose:
            name, n = inferred[s.name], 2
            while name in systems and given.get(systems[name][0].name):
                name, n = f"{inferred[s.name]}-{n}", n + 1
            systems.setdefault(name, []).append(s)
    return {k: sorted(v, key=lambda s: s.name) for k, v in sorted(systems.items())}


def _system_dir(out: Path, name: str) -> Path:
    from repomodeler.graph.naming import slug

    return out / (slug(name) or "system")


def _kept(folder: Path, fingerprint: str, root: Path) -> SystemSummary | None:
    """The summary of a system published from exactly these inputs (nothing to resolve), else None."""
    try:
        run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if run.get("fingerprint") != fingerprint or not (folder / "model.json").is_file() \
            or not (folder / "model.sysml").is_file():
        return None
    data = store.read_entry(root, "systems", fingerprint)
    if not isinstance(data, dict):
        return None
    try:
        return SystemSummary.from_json(data)
    except (KeyError, TypeError, ValueError):
        return None


def _publish_system(folder: Path, result: SystemResult, scans: list[RepoScan]) -> None:
    """One system's model folder, staged and swapped into place (as ``analyze`` publishes)."""
    from repomodeler.acquire import redact_url
    from repomodeler.emit.sysml import render_library

    if folder.is_dir() and any(folder.iterdir()) and _publish.owned_files(folder) is None:
        raise RepomodelerError(f"error: '{folder}' is not empty and holds no repomodeler model; move it away or "
                               "rename the system")
    with _publish.output_lock(folder):
        staging = _publish.stage_dir(folder)
        try:
            _publish.write_file(staging / "model.json", result.model_json)
            _publish.write_file(staging / "model.sysml", result.model_sysml)
            _publish.write_file(staging / "RepoModeler.sysml", render_library())
            run = {"version": __version__, "fingerprint": result.fingerprint, "system": result.name,
                   "repositories": [{"name": s.name, "commit": s.repository.commit, "kind": s.repository.kind,
                                     "input": redact_url(s.repository.spec.raw)} for s in scans]}
            _publish.write_file(staging / "run.json", json.dumps(run, indent=2) + "\n")
            _publish.swap_into_place(staging, folder)
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def analyze_landscape(inputs: LandscapeInputs, options: LandscapeOptions) -> LandscapeResult:
    from repomodeler.acquire import redact_url
    from repomodeler.extract import default_jobs

    started = time.perf_counter()
    timings: dict[str, float] = {}
    failures: list[str] = []
    out = _publish.resolve_out(options.out)
    if out.exists() and not out.is_dir():
        raise RepomodelerError(f"error: --out '{out}' exists and is not a folder; choose another path")
    out.mkdir(parents=True, exist_ok=True)
    root = (options.store_dir or store.default_store_dir()).expanduser().resolve()
    root.mkdir(parents=True, exist_ok=True)
    task_options = TaskOptions(store=str(root), max_bytes=options.max_bytes, timeout=options.timeout,
                               use_cache=options.use_cache, subsystems=options.subsystems, validate=options.validate)
    specs = _specs(inputs, options.allow_http, failures, remote_workers=options.engine == "dask")
    if not specs:
        raise RepomodelerError(f"error: none of the inputs could be read; nothing was written ({failures[0]})")
    given = {spec.name: system for spec, system in specs}
    jobs = options.jobs or default_jobs()
    from repomodeler.leftovers import clean_abandoned

    clean_abandoned()
    # 0. local repositories whose commit the store knows need no task, nor an engine
    t = time.perf_counter()
    known = _stored_scans([spec for spec, _ in specs], task_options, jobs)
    timings["check"] = time.perf_counter() - t
    t = time.perf_counter()
    engine = make_engine(options.engine, jobs, options.scheduler)
    timings["engine_start"] = time.perf_counter() - t
    try:
        # 1. scan every other repository (streamed: the driver keeps one small record per repository)
        t = time.perf_counter()
        scans: list[RepoScan] = list(known.values())
        raw_of = {spec.name: spec.raw for spec, _ in specs}
        for key, value in engine.run(scan_repository, [(spec.name, RepoTask(spec, task_options))
                                                       for spec, _ in specs if spec.name not in known]):
            if isinstance(value, Failure):
                failures.append(f"{redact_url(raw_of[key])}: {value.reason}")
            else:
                scans.append(value)
        scans.sort(key=lambda s: s.name)
        timings["scan"] = time.perf_counter() - t
        if not scans:
            raise RepomodelerError(f"error: none of the inputs could be read; nothing was written ({failures[0]})")

        # 2. systems, 3. resolve what changed and publish each system as it arrives
        t = time.perf_counter()
        systems = _group(scans, given)
        summaries: dict[str, SystemSummary] = {}
        tasks: list[tuple[str, SystemTask]] = []
        folders = {}
        for name, members in systems.items():
            folder = _system_dir(out, name)
            if folder in folders.values():
                raise RepomodelerError(f"error: two systems are named like '{folder.name}'; rename one in --inputs")
            folders[name] = folder
            fingerprint = system_fingerprint(name, members, task_options)
            kept = _kept(folder, fingerprint, root) if options.use_cache else None
            if kept is not None:
                summaries[name] = kept
            else:
                tasks.append((name, SystemTask(name, tuple(members), fingerprint, task_options)))
        resolved: list[str] = []
        for name, value in engine.run(resolve_system, tasks):
            if isinstance(value, Failure):
                failures.append(f"system '{name}': {value.reason} (its previous model, if any, was kept)")
                continue
            try:
                _publish_system(folders[name], value, systems[name])
            except RepomodelerError as exc:
                failures.append(f"system '{name}': {str(exc).removeprefix('error: ')}")
                continue
            summaries[name] = value.summary
            resolved.append(name)
        timings["resolve"] = time.perf_counter() - t
    finally:
        t = time.perf_counter()
        engine.close()
        timings["engine_close"] = time.perf_counter() - t

    # 4. the landscape, written last and whole
    t = time.perf_counter()
    from repomodeler.landscape.links import landscape_model
    from repomodeler.landscape.sysml import render_landscape
    from repomodeler.model import RepositoryRef, to_json

    repositories = [RepositoryRef(name=s.name, url=s.repository.url, commit=s.repository.commit,
                                  ref=s.repository.spec.ref, committed_at=s.repository.committed_at)
                    for name in sorted(summaries) for s in systems[name]]
    ordered = [summaries[n] for n in sorted(summaries)]
    model = landscape_model(options.name, ordered, repositories, failures)
    landscape_json = to_json(model)
    landscape_sysml = render_landscape(model, ordered)
    if options.validate:
        _validate_landscape(summaries, landscape_sysml)
    _publish.replace_file(out / LANDSCAPE_SYSML, landscape_sysml)
    _publish.replace_file(out / LANDSCAPE_JSON, landscape_json)
    timings["landscape"] = time.perf_counter() - t
    result = LandscapeResult(
        name=options.name, out=out, systems={k: [s.name for s in v] for k, v in systems.items()},
        resolved=sorted(resolved), failures=failures, repositories=len(scans),
        parsed_files=sum(s.parsed_files for s in scans), cached_files=sum(s.cached_files for s in scans),
        extracted=sorted(s.name for s in scans if not s.reused), timings=timings,
        components=sum(1 for c in model.components.values() if c.parent),
        connections=len(model.connections))
    run = {"version": __version__, "engine": options.engine, "jobs": jobs,
           "duration_s": round(time.perf_counter() - started, 3),
           "timings": {k: round(v, 3) for k, v in timings.items()},
           "systems": result.systems, "resolved": result.resolved, "extracted": result.extracted,
           "parsed_files": result.parsed_files, "cached_files": result.cached_files, "failures": failures}
    _publish.replace_file(out / LANDSCAPE_RUN, json.dumps(run, indent=2) + "\n")
    return result


def _validate_landscape(summaries: dict[str, SystemSummary], text: str) -> None:
    """The strict check of landscape.sysml with the library and, for each system, a stand-in package
    declaring its system def with the part names the landscape uses (the system packages passed their
    own check when they were resolved).  Loading every system's model.sysml instead would hold the
    whole organisation in one engine: 200-300 bytes of memory per byte of SysML."""
    import tempfile

    from repomodeler.emit.names import sysml_doc
    from repomodeler.emit.sysml import render_library
    from repomodeler.validate import validate_files

    stubs = []
    for name in sorted(summaries):
        s = summaries[name]
        parts = "".join(f"        part {part};\n" for _cid, part in s.parts)
        stubs.append(f"package {s.package} {{\n    doc /* Stand-in for system {sysml_doc(name)}. */\n"
                     f"    part def {s.system_def} {{\n{parts}    }}\n}}\n")
    with tempfile.TemporaryDirectory(prefix="repomodeler-landscape-") as tmp:
        files = [Path(tmp) / "RepoModeler.sysml", Path(tmp) / "systems.sysml", Path(tmp) / LANDSCAPE_SYSML]
        files[0].write_text(render_library(), encoding="utf-8")
        files[1].write_text("".join(stubs), encoding="utf-8")
        files[2].write_text(text, encoding="utf-8")
        errors = [d for d in validate_files(files) if d.severity == "error" and d.path.endswith(LANDSCAPE_SYSML)]
        if errors:
            raise RepomodelerError(f"error: the landscape SysML failed the check ({errors[0].format(Path(tmp))}); "
                                   "the previous landscape was kept")
