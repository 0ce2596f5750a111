"""The analyze pipeline: acquire -> inventory -> extract -> resolve -> graph -> emit -> publish.

Output is written to a staging folder next to ``--out``, audited (:mod:`repomodeler.audit`) and
swapped into place (:mod:`repomodeler.publish`, which holds the lock, the swap and the crash
recovery) only when every stage succeeded, so a failed, interrupted or killed run never replaces
a good model and two runs into one folder take turns.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import datetime as _dt
import json
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

from repomodeler import __version__
from repomodeler import publish as _publish
from repomodeler.acquire import (
    DEFAULT_TIMEOUT, acquire_one, allow_git, cancel_running_git, parse_input, redact_url, run_git, submodule_specs, unique_names,
)
from repomodeler.extract.cache import FactCache, default_cache_path
from repomodeler.graph.naming import slug
from repomodeler.inventory import DEFAULT_MAX_BYTES, InventoryOptions, build_inventory
from repomodeler.records import ExtractResult, RepomodelerError, Repository, RepoSpec, Warning_

if TYPE_CHECKING:
    import networkx as nx

    from repomodeler.model import Model
    from repomodeler.validate import SysmlEngine

LIBRARY_FILE = "RepoModeler.sysml"  # the library package beside model.sysml (emit.sysml.LIBRARY_FILE)


# The stages below are imported when a run needs them: a rerun whose inputs did not change (the
# common case in CI) touches none of them, and starts in a fraction of the time.
def extract_repository(*args, **kwargs):  # type: ignore[no-untyped-def]
    from repomodeler.extract import extract_repository as stage

    return stage(*args, **kwargs)


def default_jobs() -> int:
    from repomodeler.extract import default_jobs as jobs

    return jobs()


def resolve_system(*args, **kwargs):  # type: ignore[no-untyped-def]
    from repomodeler.graph.build import resolve_system as stage

    return stage(*args, **kwargs)


def build_model(*args, **kwargs):  # type: ignore[no-untyped-def]
    from repomodeler.model import from_system as stage

    return stage(*args, **kwargs)


def to_networkx(model):  # type: ignore[no-untyped-def]
    from repomodeler.model import to_networkx as stage

    return stage(model)


def render_json(model):  # type: ignore[no-untyped-def]
    from repomodeler.model import to_json as stage

    return stage(model)


def render_sysml(graph):  # type: ignore[no-untyped-def]
    from repomodeler.emit.sysml import render_sysml as stage

    return stage(graph)


def render_library() -> str:
    from repomodeler.emit.sysml import render_library as stage

    return stage()


def audit(*args, **kwargs):  # type: ignore[no-untyped-def]
    from repomodeler.audit import audit as stage

    return stage(*args, **kwargs)


def _start_engine():  # type: ignore[no-untyped-def]
    from repomodeler.validate import SysmlEngine

    return SysmlEngine.start()


class Progress(Protocol):
    def stage(self, name: str, total: int | None = None) -> None: ...
    def advance(self, n: int = 1) -> None: ...
    def done(self) -> None: ...


class NullProgress:
    def stage(self, name: str, total: int | None = None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def done(self) -> None:
        pass


@dataclass
class AnalyzeOptions:
    name: str | None = None
    out: Path | None = None
    max_bytes: int = DEFAULT_MAX_BYTES
    timeout: float = DEFAULT_TIMEOUT
    validate: bool = True
    keep_going: bool = False
    use_cache: bool = True
    formats: tuple[str, ...] = ()  # extra export formats written beside model.json/model.sysml
    submodules: bool = False  # also analyse the repositories that submodules pin
    publish: bool = True  # False: build and audit the model, publish and record nothing (drift checks)
    jobs: int = 0  # 0: one per CPU
    accept_drop: bool = False
    drop_threshold: float = 0.5  # refuse to publish when components fall below this share of the last run
    allow_http: bool = False  # accept plain http:// remotes (always allowed to loopback addresses)
    subsystems: bool = True  # also emit the subsystems inside each component (model.json nodes with a parent)
    force: bool = False  # add the model to a non-empty folder that holds no repomodeler model (its files kept)
    max_time: float | None = None  # seconds the whole run may take (repomodeler.deadline); None: no limit


class _ModelGraph:
    """The graph of a published model, made from its model on first use (a rerun that kept the
    model and only prints its summary never needs it)."""

    def __init__(self, model: "Model") -> None:
        self._model = model
        self._graph: nx.MultiDiGraph | None = None

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        if self._graph is None:
            self._graph = to_networkx(self._model)
        return getattr(self._graph, name)

    def __len__(self) -> int:
        return len(self.__getattr__("nodes"))

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.__getattr__("nodes"))

    def __contains__(self, node: object) -> bool:
        return node in self.__getattr__("nodes")

    def __getitem__(self, node: object):  # type: ignore[no-untyped-def]
        return self.__getattr__("adj")[node]


@dataclass
class AnalysisResult:
    name: str
    out: Path
    graph: nx.MultiDiGraph
    repositories: list[Repository]
    extracts: list[ExtractResult]
    failures: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    model: "Model | None" = None  # the model (read from the published model.json when the run kept it)

    @property
    def skipped(self) -> dict[str, int]:
        total: dict[str, int] = {}
        for r in self.extracts:
            for k, v in r.inventory.skipped.items():
                total[k] = total.get(k, 0) + v
        return dict(sorted(total.items()))


def default_name(repos: list[str]) -> str:
    return repos[0] if len(repos) == 1 else "system"


def _check_out_dir(out: Path, force: bool = False) -> None:
    """The model folder is the user's: analyze replaces only the files its manifest lists, and adds
    a model to a non-empty folder it did not write only when told to (``--force``)."""
    if out.exists() and not out.is_dir():
        raise RepomodelerError(f"error: --out '{out}' exists and is not a folder; choose another path")
    if out.is_dir() and not force and any(out.iterdir()) and _publish.owned_files(out) is None:
        raise RepomodelerError(
            f"error: --out '{out}' is not empty and holds no repomodeler model; choose an empty or new folder, "
            "or pass --force to add the model to it (its other files are kept)"
        )


@functools.lru_cache(maxsize=1)
def _tool_digest() -> str:
    """Digest of everything that decides the output besides the input: code, templates, query files."""
    from repomodeler.resources import grammars_dir

    h = hashlib.sha256(__version__.encode())
    package = Path(__file__).parent
    files = sorted([*package.rglob("*.py"), *package.rglob("*.j2"), *grammars_dir().rglob("*.scm"),
                    *grammars_dir().rglob("*.toml")])
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def input_fingerprint(name: str, inventories: list, options: AnalyzeOptions) -> str:
    """What a model is a pure function of: the tool, the options that shape it, and every input file's blob."""
    h = hashlib.sha256(json.dumps([_tool_digest(), name, options.max_bytes, options.subsystems], sort_keys=True).encode())
    for inv in sorted(inventories, key=lambda i: i.repository.name):
        r = inv.repository
        h.update(json.dumps([r.name, r.url, r.commit, r.spec.ref, r.committed_at]).encode())
        for f in inv.files:
            h.update(f"{f.path}\0{f.blob}\0{f.role}\n".encode())
        for link, target in sorted(inv.links.items()):  # (a folder's link may change with no file changing)
            h.update(f"link\0{link}\0{target}\n".encode())
    return h.hexdigest()


def _unchanged_model(out: Path, fingerprint: str, inventories: list, timings: dict[str, float], started: float,
                     jobs: int, name: str, repos: list[Repository], progress: Progress) -> AnalysisResult | None:
    """When the published model was made from exactly these inputs, keep it: nothing to parse or write
    but a fresh run.json (replaced atomically) and the run history entry."""
    try:
        previous = json.loads((out / "run.json").read_text(encoding="utf-8"))
        if previous.get("fingerprint") != fingerprint or not (out / "model.sysml").is_file() \
                or not (out / LIBRARY_FILE).is_file():  # a model from before the library had its own file
            return None
        cache = FactCache(default_cache_path())
        try:
            if not cache.is_published(fingerprint):  # `cache clear` forgets it: the next run is a full one
                return None
        finally:
            cache.close()
        from repomodeler.model import read_file

        model = read_file(out / "model.json")
        graph = _ModelGraph(model)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError, RepomodelerError):
        return None
    extracts = [ExtractResult(repository=inv.repository, inventory=inv, facts=[], warnings=[], parsed_files=0,
                              cached_files=sum(1 for f in inv.files if f.role == "source")) for inv in inventories]
    previous.update(
        analysed_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        duration_s=round(time.perf_counter() - started, 3), timings={k: round(v, 4) for k, v in timings.items()},
        parsed_files=0, cached_files=sum(r.cached_files for r in extracts), jobs=jobs, unchanged=True)
    _publish.replace_file(out / "run.json", json.dumps(previous, indent=2) + "\n")
    try:  # run history, as for any published run
        from repomodeler.store import record_published_run
        record_published_run(out)
    except Exception:  # noqa: BLE001
        pass
    progress.done()
    return AnalysisResult(name=name, out=out, graph=graph, repositories=repos, extracts=extracts, failures=[],
                          timings=timings, model=model)


def _print_notes(notes: list[str]) -> None:
    """What recovery did next to --out (a dead run's leftovers), one line each on stderr."""
    for note in notes:
        print(f"note: {note}", file=sys.stderr)


def _with_commit_date(repo: Repository) -> Repository:
    """Record the committer date of the pinned commit (used for the kpar `created` field)."""
    if repo.kind != "git" or not repo.commit:
        return repo
    proc = run_git(["show", "-s", "--format=%cI", repo.commit], cwd=repo.checkout)
    date = proc.stdout.decode().strip() if proc.returncode == 0 else ""
    return dataclasses.replace(repo, committed_at=date or None)


def analyze(inputs: list[str], options: AnalyzeOptions, progress: Progress | None = None,
            before_publish: Callable[[Path], None] | None = None) -> AnalysisResult:
    progress = progress or NullProgress()
    started = time.perf_counter()
    timings: dict[str, float] = {}
    if not inputs:
        raise RepomodelerError("error: no repositories given; pass git URLs or local folders")
    failures: list[str] = []
    parsed_specs = []
    for raw in inputs:
        try:
            parsed_specs.append(parse_input(raw, allow_http=options.allow_http))
        except RepomodelerError as exc:  # a malformed input is one more failure under --keep-going
            if not options.keep_going:
                raise
            failures.append(str(exc))
    if not parsed_specs:
        raise RepomodelerError(f"error: none of the inputs could be read; nothing was written ({failures[0]})")
    specs = unique_names(parsed_specs)
    name = options.name or default_name([s.name for s in specs])
    if not slug(name) or name.strip() == "":
        raise RepomodelerError(f"error: --name '{name}' is empty; give a system name")
    out = _publish.resolve_out(options.out or Path("models") / slug(name))
    _check_out_dir(out, options.force)

    # Boot the SysML engine now, so it starts while we clone and parse, unless a previous model
    # exists: then the structure is probably unchanged, its check is cached, and the engine is
    # started only if it is needed.
    from repomodeler import deadline

    deadline.arm(options.max_time)
    try:
        engine = _start_engine() if options.validate and not (out / "model.sysml").exists() else None
        try:
            t = time.perf_counter()
            repos = _acquire_all(specs, options, progress, failures)
            timings["clone"] = time.perf_counter() - t

            return _analyze_repositories(name, out, repos, failures, options, progress, before_publish, started,
                                         timings, engine)
        finally:
            if engine is not None:
                engine.close()
    finally:
        deadline.disarm()


def _acquire_all(specs: list[RepoSpec], options: AnalyzeOptions, progress: Progress,
                 failures: list[str]) -> list[Repository]:
    """Clone or fetch every input (concurrently), then the submodules they pin if asked."""
    progress.stage("clone", len(specs))
    from repomodeler.leftovers import clean_abandoned

    clean_abandoned()  # partial clones and temporary folders of killed runs (issue 23)
    repos: list[Repository] = []
    # Clones and fetches run concurrently (they wait on the network and on git, not on Python);
    # results are taken in input order so names, failures and output stay deterministic.
    allow_git()
    try:
        with ThreadPoolExecutor(max_workers=max(1, min(4, len(specs)))) as pool:
            futures = [pool.submit(acquire_one, spec, timeout=options.timeout) for spec in specs]
            try:
                for future in futures:
                    try:
                        repos.append(future.result())
                    except RepomodelerError as exc:
                        if not options.keep_going:
                            raise
                        failures.append(str(exc))
                    progress.advance()
            except BaseException:
                for future in futures:
                    future.cancel()
                # Ctrl-C (or a failure) reaches this thread only: stop the clones still running in
                # the workers, or leaving this block would wait for them until --timeout.
                cancel_running_git()
                raise
    finally:
        allow_git()
    if not repos:
        raise RepomodelerError(f"error: none of the inputs could be read; nothing was written ({failures[0]})")
    if options.submodules:
        for repo in list(repos):
            for spec in submodule_specs(repo, {r.name for r in repos}, allow_http=options.allow_http,
                                        errors=failures if options.keep_going else None):
                try:
                    repos.append(acquire_one(spec, timeout=options.timeout))
                except RepomodelerError as exc:
                    if not options.keep_going:
                        raise
                    failures.append(str(exc))
    repos = [_with_commit_date(r) for r in repos]
    return repos


def _analyze_repositories(name: str, out: Path, repos: list[Repository], failures: list[str],
                          options: AnalyzeOptions, progress: Progress,
                          before_publish: Callable[[Path], None] | None, started: float,
                          timings: dict[str, float], engine: SysmlEngine | None) -> AnalysisResult:
    """Inventory, extract, resolve, emit, audit and publish repositories that were acquired."""
    t = time.perf_counter()
    progress.stage("inventory", len(repos))
    inventories = []
    for repo in list(repos):
        try:
            inventories.append(build_inventory(repo, InventoryOptions(max_bytes=options.max_bytes)))
        except RepomodelerError as exc:  # an unreadable repository is isolated like a failed clone
            if not options.keep_going:
                raise
            failures.append(str(exc))
            repos.remove(repo)
        progress.advance()
    if not inventories:
        raise RepomodelerError(f"error: none of the inputs could be read; nothing was written ({failures[0]})")
    timings["inventory"] = time.perf_counter() - t
    jobs = options.jobs or default_jobs()

    fingerprint = input_fingerprint(name, inventories, options)
    if options.use_cache and options.publish and before_publish is None and not failures and not options.formats:
        with _publish.output_lock(out) as notes:  # it rewrites run.json in place
            _print_notes(notes)
            from repomodeler import deadline

            deadline.check()  # (a limit that fired and was swallowed stops the run here)
            deadline.disarm()  # from here the kept model's run.json is published: no stop half-way
            unchanged = _unchanged_model(out, fingerprint, inventories, timings, started, jobs, name, repos, progress)
        if unchanged is not None:
            return unchanged

    t = time.perf_counter()
    progress.stage("parse", sum(sum(1 for f in inv.files if f.role == "source") for inv in inventories))
    cache = FactCache(default_cache_path()) if options.use_cache else None
    try:
        extracts = [extract_repository(inv, progress.advance, cache=cache, jobs=jobs) for inv in inventories]
    finally:
        if cache is not None:
            cache.close()
    timings["parse"] = time.perf_counter() - t
    # (what a README says the project is called describes nothing that runs)
    if not any(f.kind not in ("project.heading", "project.link", "project.summary") for r in extracts for f in r.facts):
        names = ", ".join(redact_url(r.repository.spec.raw) for r in extracts)
        raise RepomodelerError(f"error: no recognisable source, deployment or configuration files in {names}; "
                               "check the path or add the repository that holds the code")

    t = time.perf_counter()
    progress.stage("resolve")
    model = resolve_system(name, extracts)
    warnings: list[Warning_] = sorted({w for r in extracts for w in r.warnings})
    stats: dict[str, object] = {
        "files": sum(len(r.inventory.files) for r in extracts),
        "skipped": dict(sorted({k: sum(r.inventory.skipped.get(k, 0) for r in extracts)
                                for r in extracts for k in r.inventory.skipped}.items())),
    }
    arch = build_model(model, repos, warnings, stats, nested=options.subsystems)
    graph = to_networkx(arch)
    timings["resolve"] = time.perf_counter() - t

    t = time.perf_counter()
    progress.stage("emit")
    model_json = render_json(arch)
    model_sysml = render_sysml(graph)
    timings["emit"] = time.perf_counter() - t
    # Stage -> audit -> publish under the output lock: one writer at a time, and the audit compares
    # with the model it will really replace (see repomodeler/publish.py for the crash argument).
    lock = _publish.output_lock(out) if options.publish else contextlib.nullcontext([])
    with lock as notes:
        _print_notes(notes)
        staging = _publish.stage_dir(out)
        try:
            t = time.perf_counter()
            _publish.write_file(staging / "model.json", model_json)
            _publish.write_file(staging / "model.sysml", model_sysml)
            _publish.write_file(staging / LIBRARY_FILE, render_library())  # model.sysml imports it
            if options.formats:
                from repomodeler.emit.exports import write_exports

                write_exports(graph, staging / "export", [f for f in options.formats if f not in ("json",)])
            timings["emit"] += time.perf_counter() - t
            t = time.perf_counter()
            progress.stage("audit")
            audit(graph, extracts, staging, out, options, engine)
            timings["audit"] = time.perf_counter() - t
            run = {
                "analysed_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
                "duration_s": round(time.perf_counter() - started, 3),
                "version": __version__,
                "timings": {k: round(v, 4) for k, v in timings.items()},
                "parsed_files": sum(r.parsed_files for r in extracts),
                "cached_files": sum(r.cached_files for r in extracts),
                "jobs": jobs,
                "fingerprint": fingerprint,
                "failures": failures,
                "repositories": [{"name": r.name, "commit": r.commit, "checkout": str(r.checkout), "kind": r.kind,
                                  "input": redact_url(r.spec.raw)} for r in sorted(repos, key=lambda r: r.name)],
            }
            _publish.write_file(staging / "run.json", json.dumps(run, indent=2) + "\n")
            if not options.publish:
                progress.done()
                return AnalysisResult(name=name, out=out, graph=graph, repositories=repos, extracts=extracts,
                                      failures=failures, timings=timings, model=arch)
            if before_publish is not None:
                before_publish(staging)
            from repomodeler import deadline

            deadline.check()  # (a limit that fired and was swallowed stops the run here)
            deadline.disarm()  # the model is complete and checked: publish it whole
            _publish.swap_into_place(staging, out)
            if options.use_cache:
                try:  # the model is in place: a cache that cannot remember it only costs the next run time
                    cache = FactCache(default_cache_path())
                    try:
                        cache.mark_published(fingerprint)
                    finally:
                        cache.close()
                except RepomodelerError as exc:
                    print(f"warning: {str(exc).removeprefix('error: ').split(' and rerun')[0]} "
                          "(the model was published)", file=sys.stderr)
            try:  # run history (repomodeler.store); it warns on failure and never touches the published model
                from repomodeler.store import record_published_run
                record_published_run(out)
            except Exception:  # noqa: BLE001 - only an import failure can reach here
                pass
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    progress.done()
    return AnalysisResult(name=name, out=out, graph=graph, repositories=repos, extracts=extracts, failures=failures,
                          timings=timings, model=arch)
