"""Issue 23, point 2: the lock file beside --out never follows a planted link."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from repomodeler import publish
from repomodeler.records import RepomodelerError

from conftest import ROOT


def test_safety_lock_refuses_a_planted_symlink(tmp_path) -> None:
    out = tmp_path / "models" / "x"
    out.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, publish.lock_path(out))
    with pytest.raises(RepomodelerError) as info:
        with publish.output_lock(out):
            pass
    message = str(info.value)
    assert "\n" not in message and str(publish.lock_path(out)) in message and "link" in message
    assert victim.read_text() == "precious\n"
    assert publish.lock_path(out).is_symlink()  # not ours to delete


def test_safety_lock_refuses_a_planted_hard_link(tmp_path) -> None:
    out = tmp_path / "models" / "x"
    out.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    os.link(victim, publish.lock_path(out))
    with pytest.raises(RepomodelerError):
        with publish.output_lock(out):
            pass
    assert victim.read_text() == "precious\n"


def test_safety_lock_symlink_through_the_cli(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "models" / "shop"
    out.parent.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    os.symlink(victim, publish.lock_path(out))
    proc = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", str(repo), "--out", str(out),
                           "--no-validate", "-q"], capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert victim.read_text() == "precious\n" and not out.exists()


def test_safety_stale_lock_file_of_a_dead_run_is_reused(tmp_path) -> None:
    out = tmp_path / "models" / "x"
    out.parent.mkdir(parents=True)
    publish.lock_path(out).write_text("12345\n")  # left by a crash: a plain file of ours
    with publish.output_lock(out):
        assert publish.lock_path(out).read_text() == f"{os.getpid()}\n"
    assert not publish.lock_path(out).exists()
