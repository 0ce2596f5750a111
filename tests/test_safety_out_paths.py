"""Issue 23, point 8: a symlinked --out stays a link (its folder gets the model); `--out .` is a
one-line error, not an internal error (EBUSY)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=180)


def test_safety_symlinked_out_stays_a_link(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    real = tmp_path / "store" / "shop"
    real.mkdir(parents=True)
    link = tmp_path / "models" / "shop"
    link.parent.mkdir()
    os.symlink(real, link)
    for _ in range(2):  # first run into the empty folder, then a re-analysis (a swap)
        proc = _cli("analyze", str(repo), "--out", str(link), "--no-validate", "-q")
        assert proc.returncode == 0, proc.stderr
        assert "note:" not in proc.stderr, proc.stderr
        assert link.is_symlink() and os.path.realpath(link) == str(real)
        assert (real / "model.json").is_file()
    assert sorted(p.name for p in link.parent.iterdir()) == ["shop"]
    assert sorted(p.name for p in real.parent.iterdir()) == ["shop"]


def test_safety_out_dot_is_a_one_line_error(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    here = tmp_path / "here"
    here.mkdir()
    for out in (".", str(here), ".."):
        proc = _cli("analyze", str(repo), "--out", out, "--no-validate", "-q", cwd=here)
        assert proc.returncode == 1
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "internal error" not in lines[0] and "current folder" in lines[0], proc.stderr
    assert list(here.iterdir()) == []


def test_safety_publish_out_dot_is_a_one_line_error(tmp_path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    proc = _cli("publish", str(models), "--out", ".", cwd=models)
    assert proc.returncode == 1 and "current folder" in proc.stderr and "internal error" not in proc.stderr
