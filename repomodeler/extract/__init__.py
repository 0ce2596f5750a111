"""Extract: read every selected file of a repository into facts (tree-sitter sources, descriptor readers).

Per-file extraction is a pure function of (bytes, path, language), so its results are cached by
git blob (see :mod:`repomodeler.extract.cache`) and computed in a process pool for cache misses.
Results are merged in path order, so the output is identical for any ``--jobs``.
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Callable

from repomodeler.extract.cache import FactCache, FileOutcome
from repomodeler.proc import die_with_parent_now
from repomodeler.records import ExtractResult, Fact, Inventory, Repository, SourceFile, Warning_

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

ProgressFn = Callable[[int], None]
POOL_THRESHOLD = 24  # below this many files a process pool costs more than it saves
MAX_CHUNK = 64  # files per task: large enough to amortise IPC, small enough to balance the workers


def extract_file(repository: str, f: SourceFile, content: bytes) -> tuple[list[Fact], list[Warning_], bool]:
    """Facts of one file; the bool says whether tree-sitter parsed it.  Pure: same bytes, same facts."""
    # The readers load parsers and YAML on first use (a rerun that keeps its model never extracts).
    from repomodeler.extract.engine import extract_source
    from repomodeler.extract.readers.registry import read_file

    if b"\0" in content[:8192]:
        return [], [Warning_(repository, f.path, 0, "binary content; skipped")], False
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    parsed = False
    if f.language is not None:
        source = content
        try:
            content.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = content.count(b"\n", 0, exc.start) + 1
            warnings.append(Warning_(repository, f.path, line,
                                     f"not valid UTF-8 near line {line}; read with replacement characters"))
            # tree-sitter's predicates (#match?, #eq?) fail with SystemError on invalid UTF-8 in a
            # node; replacing the bad bytes keeps every line number and lets the queries run.
            source = content.decode("utf-8", "replace").encode("utf-8")
        fs, ws = extract_source(repository, f.path, f.language, source)
        facts.extend(fs)
        warnings.extend(ws)
        parsed = True
    fs, ws = read_file(repository, f.path, content)  # descriptors, API descriptions, proxy configuration
    facts.extend(fs)
    warnings.extend(ws)
    return facts, warnings, parsed


def file_outcome(repository: str, f: SourceFile, content: bytes) -> FileOutcome:
    """Extract one file, turning every failure into a warning: one bad file never sinks a run."""
    from repomodeler.inventory import is_lfs_pointer

    lines = content.count(b"\n") + (1 if content and not content.endswith(b"\n") else 0)
    if is_lfs_pointer(content):  # the real file lives on an LFS server: data, not source
        return FileOutcome([], [Warning_(repository, f.path, 0, "Git LFS pointer (content not fetched); skipped")],
                           False, lines)
    try:
        fs, ws, did_parse = extract_file(repository, f, content)
    except RecursionError:
        fs, ws, did_parse = [], [Warning_(repository, f.path, 0, "nested too deeply to read; skipped")], False
    except Exception as exc:  # an extractor bug becomes a warning naming the file
        from repomodeler import deadline

        deadline.check()  # (unless it is the run's time limit, turned into an error by a C extension)
        detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
        fs, ws, did_parse = [], [Warning_(repository, f.path, 0,
                                          f"internal error while reading ({type(exc).__name__}: {detail}); "
                                          "skipped, please report")], False
    return FileOutcome(sorted(set(fs), key=Fact.order), sorted(set(ws)), did_parse, lines)


def _work(batch: list[tuple[str, SourceFile, bytes]]) -> list[tuple[str, str]]:
    """Pool worker: outcomes as JSON (cheap to send back, same form as the cache stores)."""
    return [(f.path, file_outcome(repo, f, content).to_json()) for repo, f, content in batch]


def _init_worker(parent: int | None) -> None:
    """Pool workers leave Ctrl-C to the parent: a worker interrupted mid-task could leave the pool
    waiting forever for its result (seen as a hang on Ctrl-C). And they die with the parent: after
    a kill -9 no shutdown runs, and orphaned workers would hold their memory (Linux). A worker
    forked by the fork server dies with the fork server, which ends when the run ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent_now(parent if parent is not None else os.getppid())


# What a fork server loads before forking workers, so each starts ready to parse.
_WORKER_PRELOAD = ("repomodeler.extract", "repomodeler.extract.engine", "repomodeler.extract.readers.registry")


def _pool(workers: int) -> "ProcessPoolExecutor":
    """A process pool whose workers come from a fork server, not from this process.

    Why: this process runs threads while it extracts (the SysML engine boots in one, importing
    modules). A worker forked while another thread held an import lock inherits the lock held and
    waits for it forever (seen: an analysis hung with its workers asleep, importing a grammar). The
    fork server is a fresh process with no other threads; it preloads the extraction modules once
    (about 0.3 s). With no other thread running, or on platforms without it, workers fork directly."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    if threading.active_count() == 1 or "forkserver" not in multiprocessing.get_all_start_methods():
        # no other thread can hold a lock across the fork: forking is safe and starts at once
        return ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(os.getpid(),))
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(_WORKER_PRELOAD))
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker, initargs=(None,))


def _isolated_outcome(repository: str, f: SourceFile, content: bytes) -> FileOutcome:
    """Extract one file in a process of its own; a crash of that process becomes a warning."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = _pool(1)
    try:
        ((_path, data),) = pool.submit(_work, [(repository, f, content)]).result()
        return FileOutcome.from_json(data, repository, f.path)
    except BrokenProcessPool:
        lines = content.count(b"\n") + 1
        return FileOutcome([], [Warning_(repository, f.path, 0, "the parser crashed on this file; skipped")],
                           False, lines)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """On Ctrl-C or an error: drop queued batches and kill the workers instead of waiting for them."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        proc.terminate()
    for proc in workers:
        proc.join(timeout=2)


def _batches(tasks: list[tuple[str, SourceFile, bytes]], jobs: int) -> list[list[tuple[str, SourceFile, bytes]]]:
    """Tasks cut into batches for the pool, one language per batch, largest first.

    A worker compiles a language's queries when it first meets one of its files, and compiling is the
    largest fixed cost of a run (0.15-0.18 s each for TypeScript and TSX, 0.07 s for JavaScript,
    0.03 s for Go).  So the files of a language with few of them go in one batch, compiled by one
    worker while the other parses; a language with many is cut into batches both workers share.
    The parent used to compile every language, serially, before any parsing started (ollama: 0.42 s).
    Batches go largest first so the last ones are small and the workers finish together.  Results
    are merged by path, so none of this changes the output.
    """
    chunk = max(1, min(MAX_CHUNK, -(-len(tasks) // (jobs * 4))))
    by_language: dict[str, list[tuple[str, SourceFile, bytes]]] = {}
    for task in sorted(tasks, key=lambda t: (t[1].language or "", t[1].path)):
        by_language.setdefault(task[1].language or "", []).append(task)
    batches: list[list[tuple[str, SourceFile, bytes]]] = []
    for language, group in by_language.items():
        step = len(group) if language and len(group) <= 2 * chunk else chunk
        batches.extend(group[i:i + step] for i in range(0, len(group), step))
    batches.sort(key=lambda b: (-sum(len(c) for _r, _f, c in b), b[0][1].path))
    return batches


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _chart_step(repo: Repository, wanted: list[SourceFile],
                installs: list[Fact]) -> tuple[list[Fact], list[Warning_]]:
    """Facts of the repository's Helm charts, rendered (see :mod:`.helm_charts`) as the documented
    ``installs`` install them.  Not cached per file: a template's facts depend on other files (values,
    helpers, the install commands), so its own blob is no key for them."""
    from repomodeler.extract.helm_charts import chart_inputs, helm_chart_facts, install_value_files
    from repomodeler.inventory import BlobReader

    needed = set(chart_inputs(f.path for f in wanted))
    if not needed:
        return [], []
    needed |= install_value_files(installs, {f.path for f in wanted})
    reader = BlobReader(repo)
    contents = reader.read_many([f for f in wanted if f.path in needed])
    texts = {path: data.decode("utf-8", "replace") for path, data in sorted(contents.items())
             if path not in reader.problems and b"\0" not in data[:8192]}
    return helm_chart_facts(repo.name, texts, installs)


def extract_repository(inventory: Inventory, progress: ProgressFn | None = None, *, cache: FactCache | None = None,
                       jobs: int = 1) -> ExtractResult:
    """Run every extractor over the source-role files of one repository (cache first, then parse)."""
    from repomodeler.inventory import BlobReader

    repo = inventory.repository
    wanted = [f for f in inventory.files if f.role == "source"]
    outcomes: dict[str, FileOutcome] = cache.get_many(wanted, repo.name) if cache is not None else {}
    cached = len(outcomes)
    if progress and cached:
        progress(cached)
    misses = [f for f in wanted if f.path not in outcomes]
    reader = BlobReader(repo)
    contents = reader.read_many(misses)
    problems: list[Warning_] = []
    tasks: list[tuple[str, SourceFile, bytes]] = []
    for f in misses:
        if f.path in reader.problems:
            problems.append(Warning_(repo.name, f.path, 0, reader.problems[f.path]))
            inventory.skipped["unreadable"] = inventory.skipped.get("unreadable", 0) + 1
            if progress:
                progress(1)
            continue
        tasks.append((repo.name, f, contents.pop(f.path, b"")))
    fresh: dict[str, FileOutcome] = {}
    if jobs > 1 and len(tasks) >= POOL_THRESHOLD:
        # Imported here: multiprocessing costs a rerun that keeps its model ~12 ms of start-up for nothing.
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        batches = _batches(tasks, jobs)
        pool = _pool(jobs)
        try:
            for results in pool.map(_work, batches):
                for path, data in results:
                    fresh[path] = FileOutcome.from_json(data, repo.name, path)
                if progress:
                    progress(len(results))
        except BrokenProcessPool:
            # A grammar crashed a worker (a segfault in native code): finish the remaining files one
            # per process, so only the file that crashes is lost, with a warning naming it.
            _stop_pool(pool)
            for name, f, content in tasks:
                if f.path not in fresh:
                    fresh[f.path] = _isolated_outcome(name, f, content)
                    if progress:
                        progress(1)
        except BaseException:
            _stop_pool(pool)
            raise
        pool.shutdown()
    else:
        for name, f, content in tasks:
            fresh[f.path] = file_outcome(name, f, content)
            if progress:
                progress(1)
    if cache is not None:
        by_path = {f.path: f for f in misses}
        cache.put_many([(by_path[p], o) for p, o in sorted(fresh.items())])
    outcomes.update(fresh)
    facts: list[Fact] = []
    warnings: list[Warning_] = [*inventory.warnings, *problems]
    line_counts: dict[str, int] = {}
    for f in wanted:
        o = outcomes.get(f.path)
        if o is None:
            continue
        line_counts[f.path] = o.lines
        facts.extend(o.facts)
        warnings.extend(o.warnings)
        for w in o.warnings:
            if w.message.startswith("binary"):
                inventory.skipped["binary"] = inventory.skipped.get("binary", 0) + 1
            elif w.message.startswith("Git LFS pointer"):
                inventory.skipped["lfs_pointer"] = inventory.skipped.get("lfs_pointer", 0) + 1
    chart_facts, chart_warnings = _chart_step(repo, wanted, [f for f in facts if f.kind == "helm.install"])
    facts.extend(chart_facts)
    warnings.extend(chart_warnings)
    return ExtractResult(repository=repo, inventory=inventory, facts=sorted(set(facts), key=Fact.order),
                         warnings=sorted(set(warnings)), parsed_files=sum(o.parsed for o in fresh.values()),
                         cached_files=cached, line_counts=line_counts)
