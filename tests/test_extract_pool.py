"""The extraction pool must not inherit a lock another thread holds (the SysML engine boots in a
thread, importing modules, while extraction starts its workers)."""

import importlib
import sys
import threading
import time

from repomodeler.extract import _pool


def _import(path: str, name: str) -> str:
    sys.path.insert(0, path)
    importlib.import_module(name)
    return "imported"


def test_workers_start_cleanly_while_another_thread_is_importing(tmp_path) -> None:
    # A module whose import blocks until released: a thread importing it holds its import lock.
    (tmp_path / "slow_to_import.py").write_text(
        "import builtins\nevent = getattr(builtins, '_repomodeler_test_gate', None)\n"
        "if event is not None:\n    event.wait(30)\n")
    import builtins
    gate = threading.Event()
    builtins._repomodeler_test_gate = gate  # type: ignore[attr-defined]
    sys.path.insert(0, str(tmp_path))
    importer = threading.Thread(target=importlib.import_module, args=("slow_to_import",), daemon=True)
    importer.start()
    while "slow_to_import" not in sys.modules:  # the thread is inside the import, holding its lock
        time.sleep(0.01)
    try:
        pool = _pool(1)
        try:
            # A forked worker would wait forever for the lock the importing thread holds.
            assert pool.submit(_import, str(tmp_path), "slow_to_import").result(timeout=60) == "imported"
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    finally:
        gate.set()
        importer.join(10)
        sys.path.remove(str(tmp_path))
        del builtins._repomodeler_test_gate  # type: ignore[attr-defined]
        sys.modules.pop("slow_to_import", None)
