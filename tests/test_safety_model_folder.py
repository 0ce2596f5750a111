"""Issue 23, point 1: the model folder belongs to the user.

analyze owns only the files it lists in the folder's manifest and replaces only those; everything
else (targets/next.sysml, notes, export/ files of `repomodeler export`, a .git folder) survives a
re-analysis and a kill at every step of publish. A non-empty folder that holds no manifest and no
repomodeler model is refused unless --force.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from repomodeler import publish
from repomodeler.pipeline import AnalyzeOptions, analyze

from conftest import ROOT, git
from test_publish_safety import _crash_child, _steps, two_models, which_model  # noqa: F401 (fixture)

USER_FILES = {
    "targets/next.sysml": "package Next { part a; }\n",
    "notes.md": "my notes\n",
    "export/model.puml": "@startuml\n@enduml\n",
}


def _add_user_files(out: Path) -> None:
    for rel, text in USER_FILES.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)


def _user_files_intact(out: Path) -> bool:
    return all((out / rel).is_file() and (out / rel).read_text() == text for rel, text in USER_FILES.items())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=180)


def test_safety_reanalysis_keeps_the_users_files(two_models, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    out = tmp_path / "models" / "shop"
    analyze([f"{two_models['repo']}@{two_models['old']}"], AnalyzeOptions(out=out, validate=False, jobs=1))
    manifest = json.loads((out / publish.MANIFEST).read_text())
    assert sorted(manifest["files"]) == ["RepoModeler.sysml", "model.json", "model.sysml", "run.json"]
    _add_user_files(out)
    git(out, "init", "-q")  # the user versions their models
    git(out, "add", "-A")
    git(out, "commit", "-q", "-m", "models")
    analyze([f"{two_models['repo']}@{two_models['new']}"], AnalyzeOptions(out=out, validate=False, jobs=1,
                                                                          formats=("mermaid",)))
    assert which_model(out, two_models["refs"]) == "new"
    assert _user_files_intact(out)
    assert git(out, "log", "--format=%s") == "models"  # .git survived
    assert (out / "export" / "model.mmd").is_file()  # analyze's own export beside the user's
    owned = json.loads((out / publish.MANIFEST).read_text())["files"]
    assert "export/model.mmd" in owned and "export/model.puml" not in owned and "notes.md" not in owned
    # a third run without --format removes what analyze wrote there before, and nothing else
    analyze([f"{two_models['repo']}@{two_models['old']}"], AnalyzeOptions(out=out, validate=False, jobs=1))
    assert which_model(out, two_models["refs"]) == "old"
    assert not (out / "export" / "model.mmd").exists() and _user_files_intact(out)
    assert sorted(p.name for p in out.parent.iterdir()) == ["shop"]


def test_safety_foreign_folder_is_refused_unless_force(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    proc = _cli("analyze", str(repo), "--out", str(out), "--no-validate", "-q")
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"'{out}'" in lines[0] and "--force" in lines[0], proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    proc = _cli("analyze", str(repo), "--out", str(out), "--no-validate", "-q", "--force")
    assert proc.returncode == 0, proc.stderr
    assert (out / "notes.txt").read_text() == "keep me" and (out / "model.json").is_file()
    assert "notes.txt" not in json.loads((out / publish.MANIFEST).read_text())["files"]
    # now it is ours: a rerun needs no --force
    assert _cli("analyze", str(repo), "--out", str(out), "--no-validate", "-q").returncode == 0
    assert (out / "notes.txt").read_text() == "keep me"


def test_safety_model_of_an_older_version_without_manifest_is_updated(two_models, tmp_path, monkeypatch) -> None:
    """A model folder written before the manifest existed: its model files are replaced, the rest kept."""
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    out = tmp_path / "models" / "shop"
    shutil.copytree(two_models["template"], out)
    (out / publish.MANIFEST).unlink()
    _add_user_files(out)
    analyze([f"{two_models['repo']}@{two_models['new']}"], AnalyzeOptions(out=out, validate=False, jobs=1))
    assert which_model(out, two_models["refs"]) == "new" and _user_files_intact(out)


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_safety_kill_at_every_step_keeps_the_users_files(two_models, tmp_path, monkeypatch, exchange) -> None:
    monkeypatch.setattr(publish, "exchange_enabled", exchange)
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    refs = two_models["refs"]
    template = tmp_path / "template"
    shutil.copytree(two_models["template"], template)
    _add_user_files(template)
    data = {**two_models, "template": template}
    steps = _steps(data, tmp_path)
    assert any(s.startswith("keep ") for s in steps), steps
    for step in range(1, len(steps) + 1):
        out = tmp_path / f"s{step}" / "out"
        shutil.copytree(template, out)
        status = _crash_child(data, out, step)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (step, steps[step - 1])
        if exchange:
            assert which_model(out, refs) in ("old", "new"), (step, steps[step - 1])
        with publish.output_lock(out):
            pass
        assert which_model(out, refs) in ("old", "new"), (step, steps[step - 1])
        assert _user_files_intact(out), (step, steps[step - 1], sorted(str(p) for p in out.rglob("*")))
        assert sorted(p.name for p in out.parent.iterdir()) == ["out"], (step, steps[step - 1])
