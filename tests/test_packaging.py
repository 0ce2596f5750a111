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


def test_gallery_build_without_a_list_works_from_a_non_editable_install(tmp_path: Path) -> None:
    """`pip install .` (not editable) then `repomodeler gallery build` with no list: the bundled
    samples' list and the samples it names are in the wheel, found beside the installed package
    (run from a folder outside the source checkout, with the installed copy first on the path)."""
    import json
    import os

    wheels, target, work = tmp_path / "wheels", tmp_path / "site", tmp_path / "work"
    work.mkdir()
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                           "-w", str(wheels), str(ROOT)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    wheel = next(wheels.glob("repomodeler-*.whl"))
    assert "repomodeler/_data/samples/gallery.yml" in zipfile.ZipFile(wheel).namelist()
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    env = {**os.environ, "PYTHONPATH": str(target), "REPOMODELER_HOME": str(tmp_path / "home")}
    where = subprocess.run([sys.executable, "-c", "import repomodeler; print(repomodeler.__file__)"], cwd=work,
                           env=env, capture_output=True, text=True)
    assert where.stdout.strip().startswith(str(target)), where  # the installed copy, not the checkout
    done = subprocess.run([sys.executable, "-m", "repomodeler", "gallery", "build", "--only", "shop", "--no-validate",
                           "--models", "models"], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "[1/1] shop:" in done.stderr and "error" not in done.stderr.lower(), done.stderr
    model = json.loads((work / "models" / "shop" / "model.json").read_text(encoding="utf-8"))
    assert {"orders", "payments"} <= {n["id"] for n in model["nodes"]}
