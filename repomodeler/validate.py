"""SysML v2 validation with the OpenSysML engine shipped in the ``jupyter-opensysml-kernel`` wheel.

The engine resolves names against the embedded standard library, so this catches undefined types
and features, not just syntax.  It only speaks the Jupyter protocol, so we start it as a kernel on
loopback, turn on strict mode, ``%load`` all files together and parse the diagnostics it prints.

The engine must not outlive us, even after ``kill -9`` (no ``finally`` runs then): on Linux it is
started with PR_SET_PDEATHSIG=SIGKILL (:mod:`repomodeler.proc`). That signal fires when the *thread* that started the child
ends, so the boot thread stays alive until :meth:`SysmlEngine.close`.

That thread is also the only one that talks to the engine. jupyter_client's blocking calls run an
asyncio event loop made for the calling thread and never closed; a thread that ends leaves its loop
to the garbage collector, which at interpreter exit printed a ``BaseEventLoop.__del__`` traceback
after about one successful run in forty. Every call goes through :meth:`SysmlEngine._call`, runs
on the engine's thread, and that thread closes its loop when the engine closes.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import sys
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

from repomodeler.leftovers import tmp_prefix
from repomodeler.proc import die_with_parent
from repomodeler.records import RepomodelerError

# Files above this size are checked in chunks of about this much text (~240 MB of engine memory
# each; a whole 12 MB model took 3.7 GB). See repomodeler.sysml_chunks for what a chunk holds.
CHUNK_BYTES = 200_000
CHUNK_ENGINES = 2  # engines checking chunks side by side (never more than the CPUs we may use)
_HINT = " — did you mean "
T = TypeVar("T")

_DIAG = re.compile(
    r"^(?P<path>.*?\.(?:sysml|kerml)):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[^\]]+)\]: (?P<msg>.*)$"
)


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    severity: str
    code: str
    message: str

    def format(self, relative_to: Path | None = None) -> str:
        path = self.path
        if relative_to is not None and os.path.isabs(path):
            try:
                path = os.path.relpath(path, relative_to)
            except ValueError:
                pass
        return f"{path}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]"


def _run_cell(kc, code: str, timeout: float) -> tuple[str, str]:
    msg_id = kc.execute(code, store_history=False, stop_on_error=False)
    out: list[str] = []
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=timeout)
        except queue.Empty as exc:
            raise RepomodelerError(f"error: the SysML engine gave no answer within {timeout:.0f}s") from exc
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            out.append(content["text"])
        elif kind in ("execute_result", "display_data"):
            out.append(content["data"].get("text/plain", ""))
        elif kind == "error":
            out.append(f"ERROR {content['ename']}: {content['evalue']}\n")
        elif kind == "status" and content["execution_state"] == "idle":
            break
    reply = kc.get_shell_msg(timeout=timeout)
    return reply["content"]["status"], "".join(out)


def _kernel_spec_dir() -> None:
    """Point Jupyter at this environment's kernelspec, not at another kernel also named 'sysml'."""
    os.environ["JUPYTER_PATH"] = os.path.join(sys.prefix, "share", "jupyter")


class SysmlEngine:
    """One OpenSysML kernel.  `start()` returns at once; the kernel boots in a background thread so
    the pipeline can parse while it starts, and `validate()` waits for it."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._km = None
        self._kc = None
        self._error: BaseException | None = None
        self._ready = threading.Event()  # boot finished (engine up, or _error set)
        # Work for the engine's thread: (function, future) pairs; None asks it to shut down and end.
        self._requests: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        # The engine writes an index of every file it loads to its cache folder, about ten times the
        # file's size, keyed by content and path. Models are checked in fresh staging folders, so no
        # entry is ever read again: each engine gets a folder of its own, removed by close().
        self._cache_dir: str | None = None

    @property
    def pid(self) -> int | None:
        """The engine's process id once it runs (tests check it dies with us)."""
        self._ready.wait()
        process = getattr(getattr(self._km, "provisioner", None), "process", None)
        return getattr(process, "pid", None)

    @classmethod
    def start(cls) -> "SysmlEngine":
        engine = cls()
        engine._thread = threading.Thread(target=engine._boot, name="sysml-engine", daemon=True)
        engine._thread.start()
        return engine

    def _boot(self) -> None:
        try:
            try:
                self._start_kernel()
            finally:
                self._ready.set()
            if self._km is None:
                return
            # Stay alive while the engine runs (PR_SET_PDEATHSIG is tied to this thread), doing the
            # calls other threads hand over, until close() asks for the end.
            while (request := self._requests.get()) is not None:
                function, future = request
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(function())
                    except BaseException as exc:  # noqa: BLE001 - handed to the caller
                        future.set_exception(exc)
            self._shutdown()
        finally:
            _close_thread_loop()

    def _call(self, function: Callable[[], T]) -> T:
        """Run `function` on the engine's thread and return its result (see the module docstring)."""
        if self._thread is None or not self._thread.is_alive():
            raise RepomodelerError("error: the SysML engine is not running")
        future: Future[T] = Future()
        self._requests.put((function, future))
        return future.result()

    def _cell(self, code: str, timeout: float) -> tuple[str, str]:
        return self._call(lambda: _run_cell(self._kc, code, timeout))

    def _start_kernel(self) -> None:
        try:
            import jupyter_opensysml_kernel
            from jupyter_client.kernelspec import KernelSpec
            from jupyter_client.manager import KernelManager, start_new_kernel
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            self._error = RepomodelerError("error: the SysML engine is missing; run 'pip install jupyter-opensysml-kernel'")
            self._error.__cause__ = exc
            return
        binary = Path(jupyter_opensysml_kernel.__file__).parent / "bin" / "sysml-jupyter-kernel"
        try:
            if binary.is_file() and os.access(binary, os.X_OK):
                # Start the engine binary directly: the kernelspec goes through a Python launcher first,
                # which doubles the start-up time.
                km = KernelManager()
                km._kernel_spec = KernelSpec(argv=[str(binary), "-connection-file", "{connection_file}"],
                                             display_name="SysML v2 (OpenSysML)", language="sysml",
                                             interrupt_mode="message")
                km.start_kernel(**self._launch_options())
                kc = km.client()
                kc.start_channels()
                try:
                    kc.wait_for_ready(timeout=120)
                except RuntimeError:
                    kc.stop_channels()
                    km.shutdown_kernel(now=True)
                    raise
                self._km, self._kc = km, kc
            else:
                _kernel_spec_dir()
                self._km, self._kc = start_new_kernel(kernel_name="sysml", startup_timeout=120,
                                                      **self._launch_options())
        except Exception as exc:
            self._error = RepomodelerError(f"error: could not start the SysML engine: {exc}")

    def validate(self, paths: list[Path], *, strict: bool = True, timeout: float = 300.0,
                 chunk_bytes: int | None = None) -> list[Diagnostic]:
        """Load `paths` together and return the engine's diagnostics. A file larger than
        `chunk_bytes` (default :data:`CHUNK_BYTES`; 0: never) is checked in chunks, one session
        each, with the other files beside every chunk (see :mod:`repomodeler.sysml_chunks`)."""
        self._ready.wait()
        if self._error is not None:
            raise self._error
        limit = CHUNK_BYTES if chunk_bytes is None else chunk_bytes
        abs_paths = [Path(p).resolve() for p in paths]
        big = max(abs_paths, key=lambda p: p.stat().st_size, default=None) if limit else None
        if big is not None and big.stat().st_size > limit:
            from repomodeler.sysml_chunks import plan_check

            text = big.read_text(encoding="utf-8")
            context = tuple(p.read_text(encoding="utf-8") for p in abs_paths if p != big)
            plan = plan_check(text, limit, dedup=True, context=context)
            if plan is not None:
                found = self._validate_chunks(abs_paths, big, plan.texts, strict, timeout)
                if not found or not plan.skipped:
                    return found
                # Something to report: check every member, so each repeat is reported at its line.
                plan = plan_check(text, limit, context=context)
                if plan is not None:
                    return self._validate_chunks(abs_paths, big, plan.texts, strict, timeout)
        if strict:
            self._cell("%strict on", timeout)
        status, out = self._cell("%load " + " ".join(shlex.quote(str(p)) for p in abs_paths), timeout)
        return _parse_diagnostics(status, out)

    def _validate_chunks(self, paths: list[Path], big: Path, chunks: list[str], strict: bool,
                         timeout: float) -> list[Diagnostic]:
        """Each chunk in a fresh session (an engine keeps the memory of the largest chunk it saw),
        in place of `big`, on this engine and up to CHUNK_ENGINES - 1 more side by side; the
        diagnostics name `big`, at the same lines and columns, without repeats."""
        import tempfile

        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        helpers = [SysmlEngine.start() for _ in range(min(CHUNK_ENGINES, cpus, len(chunks)) - 1)]
        pending: queue.SimpleQueue[int] = queue.SimpleQueue()
        for i in range(len(chunks)):
            pending.put(i)
        found: list[list[Diagnostic]] = [[] for _ in chunks]
        failures: list[BaseException] = []

        def work(engine: SysmlEngine, tmp: str) -> None:
            engine._ready.wait()
            if engine._error is not None:
                return  # a helper that did not start: the others take its chunks
            try:
                while not failures:
                    try:
                        i = pending.get_nowait()
                    except queue.Empty:
                        return
                    found[i] = engine._check_chunk(paths, big, Path(tmp) / str(i), chunks[i], strict, timeout)
            except BaseException as exc:  # noqa: BLE001 - re-raised below, in the caller's thread
                failures.append(exc)

        try:
            with tempfile.TemporaryDirectory(prefix=tmp_prefix("repomodeler-chunks-")) as tmp:
                threads = [threading.Thread(target=work, args=(h, tmp), name="sysml-chunks", daemon=True)
                           for h in helpers]
                for t in threads:
                    t.start()
                work(self, tmp)
                for t in threads:
                    t.join()
        finally:
            for h in helpers:
                h.close()
        if failures:
            raise failures[0]
        seen = dict.fromkeys(d for ds in found for d in ds)
        return sorted(seen, key=lambda d: (d.path, d.line, d.col, d.severity, d.code, d.message))

    def _check_chunk(self, paths: list[Path], big: Path, folder: Path, text: str, strict: bool,
                     timeout: float) -> list[Diagnostic]:
        piece = folder / big.name
        folder.mkdir()
        piece.write_text(text, encoding="utf-8")
        try:
            self._cell("%clear", timeout)
            if strict:
                self._cell("%strict on", timeout)
            load = [piece if p == big else p for p in paths]
            status, out = self._cell("%load " + " ".join(shlex.quote(str(p)) for p in load), timeout)
            self._cell("%clear", timeout)
        finally:
            piece.unlink()
        # A hint ("did you mean X?") names what this chunk holds, not the whole model: dropped.
        return [Diagnostic(str(big) if d.path == str(piece) else d.path, d.line, d.col, d.severity, d.code,
                           d.message.split(_HINT, 1)[0]) for d in _parse_diagnostics(status, out)]

    def _launch_options(self) -> dict[str, object]:
        import tempfile

        self._cache_dir = tempfile.mkdtemp(prefix=tmp_prefix("repomodeler-sysml-cache-"))
        from repomodeler.credentials import child_env

        # no token variables: the engine never needs a credential (issue 23)
        options: dict[str, object] = {"env": child_env({"XDG_CACHE_HOME": self._cache_dir})}
        preexec = die_with_parent()
        if preexec is not None:
            options["preexec_fn"] = preexec
        return options

    def close(self) -> None:
        """Stop the engine (its thread kills it and ends) and remove its cache folder."""
        if self._thread is not None:
            self._ready.wait()
            if self._thread.is_alive():
                self._requests.put(None)
            self._thread.join()
        self._km = self._kc = None
        if self._cache_dir is not None:
            import shutil

            shutil.rmtree(self._cache_dir, ignore_errors=True)
            self._cache_dir = None

    def _shutdown(self) -> None:
        """On the engine's thread: stop the channels and the engine."""
        if self._kc is not None:
            self._kc.stop_channels()
        if self._km is not None:
            # The engine keeps no state worth a polite shutdown (which costs ~0.1 s): kill it and
            # remove its connection file; fall back to the manager's shutdown if that is not possible.
            process = getattr(getattr(self._km, "provisioner", None), "process", None)
            try:
                process.kill()
                process.wait(timeout=10)
                self._km.cleanup_resources(restart=False)
            except Exception:  # noqa: BLE001 - any failure: let jupyter_client do it its way
                self._km.shutdown_kernel(now=True)
        self._km = self._kc = None


def _close_thread_loop() -> None:
    """Close the asyncio event loop jupyter_client made for this thread, if any (it never does)."""
    import asyncio
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            loop = asyncio.get_event_loop_policy().get_event_loop()
        except RuntimeError:
            return
    if not loop.is_running() and not loop.is_closed():
        loop.close()
    asyncio.set_event_loop(None)


def run_engine(paths: list[Path], cells: list[str], *, strict: bool = True, timeout: float = 300.0) -> list[str]:
    """Load `paths` into a fresh engine session, run each extra cell (e.g. ``%render``) and return
    what each cell printed.  For tests and tools that need more than diagnostics."""
    engine = SysmlEngine.start()
    try:
        engine.validate(paths, strict=strict, timeout=timeout)
        return [engine._cell(cell, timeout)[1] for cell in cells]
    finally:
        engine.close()


def structure_digest(text: str) -> str:
    """Digest of what SysML validity depends on: string literal contents, doc comments and evidence
    line numbers are blanked, so a model that differs only in commits or lines needs no new check."""
    import hashlib

    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"/\*.*?\*/", "/**/", text, flags=re.S)
    text = re.sub(r"\bline = \d+", "line = 0", text)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def validate_files(paths: list[Path], *, strict: bool = True, timeout: float = 300.0) -> list[Diagnostic]:
    """Load all files together (so references between them resolve) and return the diagnostics."""
    if not paths:
        return []
    engine = SysmlEngine.start()
    try:
        return engine.validate(paths, strict=strict, timeout=timeout)
    finally:
        engine.close()


def _parse_diagnostics(status: str, out: str) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for line in out.splitlines():
        m = _DIAG.match(line)
        if m:
            diags.append(Diagnostic(m.group("path"), int(m.group("line")), int(m.group("col")), m.group("sev"),
                                    m.group("code"), m.group("msg")))
    if not diags and (status != "ok" or re.search(r"\berror\b|\bERROR\b", out)):
        diags.append(Diagnostic("", 0, 0, "error", "engine", out.strip()[:500]))
    return diags


def validate_text(text: str, name: str = "model.sysml") -> list[Diagnostic]:
    """Validate SysML text by writing it to a temporary file (used by the audit and tests)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix=tmp_prefix("repomodeler-validate-")) as tmp:
        path = Path(tmp) / name
        path.write_text(text, encoding="utf-8")
        diags = validate_files([path])
    return [Diagnostic(name if d.path.endswith(name) else d.path, d.line, d.col, d.severity, d.code, d.message)
            for d in diags]
