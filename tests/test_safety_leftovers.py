"""Issue 23, point 9: partial clones (.clone-*) and temporary folders a killed run left are removed
by the next run and by `cache clear`; those of live processes are left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _plant(home: Path, tmpdir: Path, pid: int, tag: str) -> list[Path]:
    made = [home / "repos" / f".clone-{pid}-{tag}", tmpdir / f"repomodeler-askpass-{pid}-{tag}",
            tmpdir / f"repomodeler-sysml-cache-{pid}-{tag}"]
    for path in made:
        (path / "r.git").mkdir(parents=True)
        (path / "r.git" / "HEAD").write_text("ref: refs/heads/main\n")
    return made


def _cli(args: list[str], tmpdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(tmpdir)}, timeout=180)


def test_safety_next_run_removes_what_a_killed_run_left(shop_repo, tmp_path, _isolated_home) -> None:
    repo, _ = shop_repo
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        dead = _plant(_isolated_home, tmpdir, _dead_pid(), "a1")
        live = _plant(_isolated_home, tmpdir, sleeper.pid, "b2")
        legacy = _isolated_home / "repos" / ".clone-x7k2p9"  # named before the pid was in the name
        legacy.mkdir()
        old = time.time() - 3 * 86400
        os.utime(legacy, (old, old))
        proc = _cli(["analyze", f"file://{repo}", "--out", str(tmp_path / "out"), "--no-validate", "-q"], tmpdir)
        assert proc.returncode == 0, proc.stderr
        assert not [p for p in dead if p.exists()] and not legacy.exists()
        assert all(p.is_dir() for p in live)
    finally:
        sleeper.send_signal(signal.SIGKILL)
        sleeper.wait()
    proc = _cli(["cache", "clear"], tmpdir)
    assert proc.returncode == 0, proc.stderr
    assert not [p for p in live if p.exists()]
    assert "abandoned" in proc.stdout


def test_safety_a_real_kill_during_a_clone_is_cleaned(shop_repo, tmp_path, _isolated_home) -> None:
    """kill -9 during the clone (git held by a pre-receive-like sleep): `cache clear` removes the half clone."""
    repo, _ = shop_repo
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "repomodeler", "analyze", f"file://{repo}", "--out",
                             str(tmp_path / "out"), "--no-validate", "-q"], cwd=ROOT,
                            env={**os.environ, "TMPDIR": str(tmpdir)}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    repos = _isolated_home / "repos"
    deadline = time.time() + 60
    while time.time() < deadline and not (repos.is_dir() and any(p.name.startswith(".clone-") for p in repos.iterdir())):
        time.sleep(0.002)
    proc.kill()
    proc.wait()
    half = [p for p in repos.iterdir() if p.name.startswith(".clone-")] if repos.is_dir() else []
    if not half:  # the clone finished before the kill: plant what it would have left
        half = _plant(_isolated_home, tmpdir, proc.pid, "k")[:1]
    assert _cli(["cache", "clear"], tmpdir).returncode == 0
    assert not [p for p in half if p.exists()]
