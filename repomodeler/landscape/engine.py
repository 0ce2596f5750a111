"""Where the tasks of a landscape run execute: a local process pool or a Dask cluster.

Both engines take a list of ``(key, task)`` and yield ``(key, result)`` as tasks finish (the driver
streams: it never holds more than a finished task's result), where a result is either the task
function's value or a :class:`Failure`.  A task that raises, or whose worker dies, is run once
more; a second failure is reported with its reason and the other tasks carry on.  The task
functions are the same for both (:mod:`repomodeler.landscape.tasks`), so the model does not
depend on the engine.

Dask is an optional dependency (``pip install "repomodeler[dask]"``): ``--engine dask`` connects to
``--scheduler ADDRESS``, or starts a local cluster (up to ``--jobs`` workers, one thread each) when
the first tasks are submitted, with as many workers as they can use.
Workers of a remote cluster need repomodeler installed, git, and the shared store folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol

ATTEMPTS = 2  # a failed task is retried once


@dataclass(frozen=True)
class Failure:
    """A task that failed twice: the reason of the last attempt."""

    key: str
    reason: str


def call(fn: Callable[[Any], Any], task: Any) -> tuple[bool, Any]:
    """Run `fn(task)` in a worker; an exception comes back as its one-line reason (exceptions do
    not always survive pickling, and a traceback is no message for a user)."""
    from repomodeler.credentials import redact
    from repomodeler.records import RepomodelerError

    try:
        return True, fn(task)
    except RepomodelerError as exc:
        return False, redact(str(exc).removeprefix("error: "))
    except Exception as exc:  # noqa: BLE001 - a bug in one repository's task must not stop the others
        detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
        return False, redact(f"internal error ({type(exc).__name__}: {detail})")


class Engine(Protocol):
    name: str

    def run(self, fn: Callable[[Any], Any], tasks: list[tuple[str, Any]]) -> Iterator[tuple[str, Any]]: ...
    def close(self) -> None: ...


def _init_worker(parent: int) -> None:
    from repomodeler.extract import _init_worker as init

    init(parent)


class LocalEngine:
    """A process pool on this machine (``jobs`` processes; with one job the tasks run in this process)."""

    name = "local"

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self._pool = None

    def _new_pool(self):  # type: ignore[no-untyped-def]
        from concurrent.futures import ProcessPoolExecutor

        return ProcessPoolExecutor(max_workers=self.jobs, initializer=_init_worker, initargs=(os.getpid(),))

    def run(self, fn: Callable[[Any], Any], tasks: list[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
        if self.jobs == 1 or len(tasks) <= 1:
            for key, task in tasks:
                ok, value = call(fn, task)
                if not ok:
                    ok, value = call(fn, task)
                yield key, value if ok else Failure(key, value)
            return
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        attempts = {key: 0 for key, _ in tasks}
        by_key = dict(tasks)
        todo = [key for key, _ in tasks]
        while todo:
            if self._pool is None:
                self._pool = self._new_pool()
            pending = {}
            for key in todo:
                attempts[key] += 1
                pending[self._pool.submit(call, fn, by_key[key])] = key
            todo = []
            broken = False
            while pending:
                done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for future in done:
                    key = pending.pop(future)
                    try:
                        ok, value = future.result()
                    except BrokenProcessPool:  # a worker died (killed, out of memory, a crash in native code)
                        broken = True
                        ok, value = False, "the worker running it died"
                    if ok:
                        yield key, value
                    elif attempts[key] < ATTEMPTS:
                        todo.append(key)
                    else:
                        yield key, Failure(key, value)
                if broken:
                    for key in pending.values():  # they die with the pool: run them again
                        if attempts[key] < ATTEMPTS:
                            todo.append(key)
                        else:
                            yield key, Failure(key, "the worker running it died")
                    pending = {}
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                    break

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


# What the tasks import: a local cluster's workers are forked from a server that imported them once,
# instead of each new worker process importing them again (seconds per worker, and a rerun of a few
# moved repositories is mostly that).
_WORKER_MODULES = ("distributed", "repomodeler.landscape.tasks", "repomodeler.extract", "repomodeler.inventory",
                   "repomodeler.graph.build", "repomodeler.model", "repomodeler.emit.sysml", "repomodeler.audit")


def _fork_workers_warm() -> None:
    """Have this process's local Dask workers start from a fork server that preloaded the task
    modules (Dask's ``forkserver`` method; its default, ``spawn``, starts each worker from nothing).
    A fork server is a clean single-threaded process, unlike this driver, so forking it is safe."""
    import multiprocessing

    import dask
    from distributed.utils import get_mp_context

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return
    dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
    get_mp_context()  # Dask sets its own preload list once; ours replaces it before the server starts
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(_WORKER_MODULES))


class DaskEngine:
    """Dask distributed: a local cluster of ``jobs`` single-threaded worker processes, or the cluster
    whose scheduler is at ``scheduler``."""

    name = "dask"

    def __init__(self, jobs: int, scheduler: str | None = None) -> None:
        try:
            import distributed
        except ImportError:
            from repomodeler.records import RepomodelerError

            raise RepomodelerError('error: --engine dask needs Dask distributed; install it with '
                                   'pip install "repomodeler[dask]"') from None
        self._jobs = max(1, jobs)
        self._cluster = None
        self._client = None
        if scheduler:
            try:
                self._client = distributed.Client(scheduler, timeout=10)
            except (OSError, TimeoutError) as exc:
                from repomodeler.records import RepomodelerError

                raise RepomodelerError(f"error: cannot reach the Dask scheduler at '{scheduler}' ({exc}); "
                                       "check the address (tcp://host:8786) and that it runs") from None
        self._round = 0

    def _start(self, needed: int) -> None:
        """Start the local cluster, or grow it, to the workers `needed` tasks can use (at most ``jobs``).

        It starts at the first round that has work: a rerun whose repositories did not move submits
        nothing and pays no cluster; five moved repositories on a 32-job run start five workers."""
        import distributed

        workers = min(self._jobs, max(1, needed))
        if self._client is None:
            import logging

            _fork_workers_warm()
            import dask

            # Extraction is CPU-bound on a few cores: the workers' statistical profiler (a sample every
            # 10 ms) and twice-a-second system monitors cost a worker about a fifth of its time there,
            # and nothing here reads them (no dashboard).
            dask.config.set({"distributed.worker.profile.enabled": False,
                             "distributed.admin.system-monitor.interval": "5s",
                             "distributed.worker.memory.monitor-interval": "1s"})
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                     dashboard_address=None, silence_logs=logging.ERROR,
                                                     host="127.0.0.1")
            self._client = distributed.Client(self._cluster)
        elif self._cluster is not None and workers > len(self._cluster.workers):
            self._cluster.scale(workers)  # the queued tasks start on the workers there are meanwhile

    @property
    def client(self):  # type: ignore[no-untyped-def]
        """The Dask client (starting a local cluster of ``jobs`` workers if none runs yet)."""
        if self._client is None:
            self._start(self._jobs)
        return self._client

    @property
    def workers(self) -> list[str]:
        return sorted(self.client.scheduler_info()["workers"])

    def run(self, fn: Callable[[Any], Any], tasks: list[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
        from distributed import as_completed

        if not tasks:
            return
        if self._client is None or self._cluster is not None:
            self._start(len(tasks))
        self._round += 1
        attempts = {key: 1 for key, _ in tasks}
        by_key = dict(tasks)
        futures = {self.client.submit(call, fn, task, key=f"{fn.__name__}-{self._round}-{i}-1", pure=False): key
                   for i, (key, task) in enumerate(tasks)}
        index = {key: i for i, (key, _) in enumerate(tasks)}
        queue = as_completed(list(futures))
        for future in queue:
            key = futures.pop(future)
            try:
                ok, value = future.result()
            except Exception as exc:  # noqa: BLE001 - KilledWorker, a lost connection...
                ok, value = False, f"its worker failed ({type(exc).__name__})"
            future.release()
            if ok:
                yield key, value
            elif attempts[key] < ATTEMPTS:
                attempts[key] += 1
                again = self.client.submit(call, fn, by_key[key], pure=False,
                                           key=f"{fn.__name__}-{self._round}-{index[key]}-{attempts[key]}")
                futures[again] = key
                queue.add(again)
            else:
                yield key, Failure(key, value)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_engine(name: str, jobs: int, scheduler: str | None = None) -> Engine:
    if name == "dask":
        return DaskEngine(jobs, scheduler)
    return LocalEngine(jobs)
