"""A normal (non-editable) install must carry grammars/ and web/ inside the package."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT


def test_wheel_contains_grammars_web_and_templates(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("repomodeler-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in ("python", "javascript", "typescript", "tsx", "go", "java"):
        assert f"repomodeler/_data/grammars/{lang}/language.toml" in names
    assert any(n.startswith("repomodeler/_data/web/") for n in names)
    assert "repomodeler/emit/templates/system.sysml.j2" in names


def test_installed_layout_is_preferred(tmp_path: Path, monkeypatch) -> None:
    """resources.data_dir finds repomodeler/_data/<name> first (the wheel layout)."""
    import repomodeler.resources as res

    fake_pkg = tmp_path / "repomodeler"
    (fake_pkg / "_data" / "grammars").mkdir(parents=True)
    monkeypatch.setattr(res, "_PACKAGE_DIR", fake_pkg)
    res.data_dir.cache_clear()
    try:
        assert res.data_dir("grammars") == fake_pkg / "_data" / "grammars"
    finally:
        res.data_dir.cache_clear()
