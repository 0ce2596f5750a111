"""Damaged state heals itself and nothing outlives repomodeler (issue #14, parts 5 and 6).

A corrupt fact cache or run history is moved aside with a one-line warning and rebuilt; `cache
clear` works whatever the file holds; the SysML engine dies with a process killed by SIGKILL.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, make_repo


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


@pytest.fixture()
def shop(tmp_path: Path) -> Path:
    repo = tmp_path / "shop"
    make_repo(repo, source=SAMPLES / "shop")
    return repo


def _rows(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def _damage_pages(db: Path) -> None:
    """Keep the header (so it still opens as SQLite) and overwrite every page after the first."""
    data = bytearray(db.read_bytes())
    assert len(data) > 8192
    data[4096:] = b"\xa5" * (len(data) - 4096)
    db.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", ["garbage", "pages"])
def test_corrupt_fact_cache_is_moved_aside_and_rebuilt(shop: Path, tmp_path: Path, _isolated_home: Path,
                                                       damage: str) -> None:
    out = tmp_path / "models" / "shop"
    first = cli("analyze", str(shop), "--out", str(out), "--no-validate", "-q")
    assert first.returncode == 0, first.stderr
    cache = _isolated_home / "cache.sqlite"
    facts = _rows(cache, "facts")
    assert facts > 0
    model = (out / "model.json").read_bytes()
    if damage == "garbage":
        cache.write_bytes(b"this is not a database\n" * 500)
    else:
        _damage_pages(cache)
    (out / "run.json").unlink()  # force a full run (no "unchanged" shortcut) that reads the cache
    again = cli("analyze", str(shop), "--out", str(out), "--no-validate", "-q")
    assert again.returncode == 0, again.stderr
    warnings = [line for line in again.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "fact cache" in warnings[0] and "was corrupt; moved it to 'cache.sqlite.corrupt-" \
        in warnings[0], again.stderr
    assert "internal error" not in again.stderr
    assert (out / "model.json").read_bytes() == model  # same model, parsed afresh
    assert _rows(cache, "facts") == facts  # rebuilt
    aside = [p for p in _isolated_home.glob("cache.sqlite.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]
    assert len(aside) == 1  # kept aside (with its -wal/-shm if any), not deleted
    third = cli("analyze", str(shop), "--out", str(out), "--no-validate", "-q")
    assert third.returncode == 0 and third.stderr == ""  # healed: no more warnings


@pytest.mark.parametrize("content", [b"garbage" * 100, b"SQLite format 3\x00" + b"\xff" * 5000, b""])
def test_cache_clear_and_info_always_work(_isolated_home: Path, content: bytes) -> None:
    cache = _isolated_home / "cache.sqlite"
    cache.write_bytes(content)
    info = cli("cache", "info")
    assert info.returncode == 0, info.stderr
    assert "internal error" not in info.stderr
    cleared = cli("cache", "clear")
    assert cleared.returncode == 0, cleared.stderr
    assert cleared.stdout.startswith("cleared ")
    assert "internal error" not in cleared.stderr
    assert cli("cache", "info").stderr == ""


def test_corrupt_run_history_is_moved_aside_and_rebuilt(shop: Path, tmp_path: Path, _isolated_home: Path) -> None:
    out = tmp_path / "models" / "shop"
    assert cli("analyze", str(shop), "--out", str(out), "--no-validate", "-q").returncode == 0
    runs = _isolated_home / "runs.sqlite"
    assert _rows(runs, "runs") == 1
    runs.write_bytes(b"\x00garbage" * 1000)
    # the viewer only reads: no history, no error, the file stays as it is
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    from fastapi.testclient import TestClient

    from repomodeler.serve.app import create_app

    client = TestClient(create_app(out.parent, allowed_hosts=["testserver"]))
    r = client.get("/api/models/shop/compare-candidates")
    assert r.status_code == 200 and not [c for c in r.json() if c["kind"] == "run"]
    assert runs.read_bytes().startswith(b"\x00garbage")
    listed = cli("runs", "list")
    assert listed.returncode == 0, listed.stderr
    assert "run history" in listed.stderr and "was corrupt" in listed.stderr
    (out / "run.json").unlink()
    again = cli("analyze", str(shop), "--out", str(out), "--no-validate", "-q")
    assert again.returncode == 0 and "warning" not in again.stderr, again.stderr
    assert _rows(runs, "runs") == 1  # recorded in the new history
    assert len([p for p in _isolated_home.glob("runs.sqlite.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]) == 1


def test_locked_database_is_never_mistaken_for_corrupt(_isolated_home: Path) -> None:
    from repomodeler.sqlite import is_corruption

    assert not is_corruption(sqlite3.OperationalError("database is locked"))
    path = _isolated_home / "x.sqlite"
    path.write_bytes(b"nope" * 100)
    with pytest.raises(sqlite3.DatabaseError) as info:
        sqlite3.connect(path).execute("SELECT 1 FROM sqlite_master").fetchone()
    assert is_corruption(info.value)


# ----------------------------------------------------------------------------- child processes
ENGINE_PROBE = """
import sys, time, pathlib, tempfile
from repomodeler.validate import SysmlEngine
engine = SysmlEngine.start()
print(engine.pid, flush=True)
time.sleep(1.0)  # the engine must outlive the moment its boot finished
path = pathlib.Path(tempfile.mkdtemp()) / "a.sysml"
path.write_text("package P { part def A; }\\n")
print(len(engine.validate([path])), flush=True)
time.sleep(120)
"""


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_sysml_engine_dies_with_a_killed_parent() -> None:
    proc = subprocess.Popen([sys.executable, "-c", ENGINE_PROBE], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    engine_pid = 0
    try:
        engine_pid = int(proc.stdout.readline())  # type: ignore[union-attr]
        assert proc.stdout.readline().strip() == "0"  # type: ignore[union-attr]  # the engine works
        assert not _gone(engine_pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not _gone(engine_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(engine_pid), "the SysML engine outlived kill -9 of its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        if engine_pid and not _gone(engine_pid):
            os.kill(engine_pid, signal.SIGKILL)


def test_engine_close_still_stops_it() -> None:
    from repomodeler.validate import SysmlEngine

    engine = SysmlEngine.start()
    pid = engine.pid
    assert pid and not _gone(pid)
    engine.close()
    assert _gone(pid)
    assert engine._thread is not None and not engine._thread.is_alive()


GIT_PROBE = """
import sys
from repomodeler.acquire import run_git
print("started", flush=True)
run_git(["ls-remote", "ssh://example.invalid/repo.git"], extra_env={"GIT_SSH_COMMAND": sys.argv[1]}, timeout=120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux-only")
def test_git_and_the_helpers_it_started_die_with_a_killed_parent(tmp_path: Path) -> None:
    # An ssh that never answers stands for a remote helper blocked on the network (git-remote-https,
    # ssh, upload-pack): git's child, which the kernel's parent-death signal does not reach.
    pids = tmp_path / "pids"
    ssh = tmp_path / "stuck-ssh"
    ssh.write_text(f"#!/bin/sh\necho $PPID $$ > {pids}\nexec sleep 300\n")
    ssh.chmod(0o755)
    proc = subprocess.Popen([sys.executable, "-c", GIT_PROBE, str(ssh)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    started: list[int] = []
    try:
        assert proc.stdout.readline().strip() == "started"  # type: ignore[union-attr]
        deadline = time.monotonic() + 30
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = [int(p) for p in pids.read_text().split()]  # git, then its helper
        assert len(started) == 2 and not any(_gone(p) for p in started)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not all(_gone(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(started[0]), "git outlived kill -9 of its parent"
        assert _gone(started[1]), "git's helper outlived kill -9 of the process that started git"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in started:
            if not _gone(p):
                os.kill(p, signal.SIGKILL)


def test_git_that_finishes_leaves_no_watcher_behind(tmp_path: Path) -> None:
    from repomodeler import acquire

    before = set(os.listdir("/proc")) if sys.platform.startswith("linux") else set()
    done = acquire.run_git(["--version"])
    assert done.returncode == 0 and done.stdout.startswith(b"git version")
    if sys.platform.startswith("linux"):
        def parent(pid: str) -> str:
            try:
                return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2]
            except (OSError, IndexError):
                return ""

        children = [p for p in set(os.listdir("/proc")) - before
                    if p.isdigit() and not _gone(int(p)) and parent(p) == str(os.getpid())]
        assert children == []  # git reaped, its watcher stopped
