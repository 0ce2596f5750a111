"""Issue 23, point 6: a full disk or a file-size limit (ulimit -f) is the one-line error naming the
path, never "internal error (OperationalError: disk I/O error)"; for analyze and publish."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def _limited(kb: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (kb * 1024, kb * 1024))
    return apply


def _cli(args: list[str], home: Path, kb: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "REPOMODELER_HOME": str(home)}, timeout=180, preexec_fn=_limited(kb))


def _one_line_naming_a_path(proc: subprocess.CompletedProcess[str], *paths: Path) -> None:
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert "internal error" not in lines[0] and "Errno" not in lines[0]
    assert any(str(p) in lines[0] for p in paths), lines[0]


@pytest.mark.parametrize("kb", [16, 48, 96])
def test_safety_file_size_limit_during_analyze_is_one_line(shop_repo, tmp_path, kb) -> None:
    repo, _ = shop_repo
    home, out = tmp_path / "home", tmp_path / "models" / "shop"
    proc = _cli(["analyze", f"file://{repo}", "--out", str(out), "--no-validate", "-q"], home, kb)
    if proc.returncode == 0:  # this limit was enough for the run: nothing to check
        return
    _one_line_naming_a_path(proc, home, out.parent)
    assert not out.exists() or (out / "model.json").is_file()


def test_safety_file_size_limit_during_publish_is_one_line(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    home = tmp_path / "home"
    models = tmp_path / "models"
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", str(repo), "--out", str(models / "shop"),
                           "--no-validate", "-q"], capture_output=True, text=True, cwd=ROOT, timeout=180,
                          env={**os.environ, "REPOMODELER_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    proc = _cli(["publish", str(models), "--out", str(site)], home, 32)
    _one_line_naming_a_path(proc, site.parent)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site")) == []
