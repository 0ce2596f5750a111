"""Issue 23, point 11: escape characters in file names never reach model.sysml or the Mermaid and
PlantUML exports raw; a run has an overall time limit (--max-time) and each file a parse budget."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT, git

CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
APP = 'from flask import Flask\napp = Flask("x")\n\n@app.route("/hello")\ndef hello():\n    return "hi"\n'


def _cli(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          env=os.environ.copy(), timeout=timeout)


def _repo_with_escape_names(root: Path) -> Path:
    root.mkdir()
    files = {"svc\x1b[31mred/requirements.txt": "flask\n", "svc\x1b[31mred/app.py": APP,
             "api/\x1b]0;pwned\x07title.py": APP.replace("/hello", "/t"), "ok/requirements.txt": "flask\n",
             "ok/app\u0085x.py": APP.replace("/hello", "/n"), "ok/main.py": APP.replace("/hello", "/ok")}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "escape names")
    return root


def test_safety_escape_characters_in_names_never_reach_the_outputs(tmp_path) -> None:
    repo = _repo_with_escape_names(tmp_path / "esc")
    out = tmp_path / "out"
    proc = _cli("analyze", f"file://{repo}", "--out", str(out), "--no-validate", "-q", "--format", "mermaid,plantuml")
    assert proc.returncode == 0, proc.stderr
    assert not CONTROL.search((proc.stdout + proc.stderr).encode())
    for path in [out / "model.sysml", out / "export" / "model.mmd", out / "export" / "model.puml"]:
        data = path.read_bytes()
        assert not CONTROL.search(data), (path, CONTROL.search(data))
    skipped = json.loads((out / "model.json").read_text())["stats"]["skipped"]
    assert skipped.get("bad_name", 0) >= 3, skipped


def test_safety_names_with_control_characters_are_escaped_by_the_emitters() -> None:
    from repomodeler.emit.exports.diagrams import _mermaid_text, _puml_text
    from repomodeler.emit.names import sysml_name

    for render in (sysml_name, _mermaid_text, _puml_text):
        assert not CONTROL.search(render("svc\x1b[31m\r\x07\u0085x").encode()), render


def test_safety_max_time_stops_the_run_in_one_line(tmp_path) -> None:
    repo = tmp_path / "big"
    repo.mkdir()
    for i in range(300):
        (repo / f"m{i}.py").write_text(APP.replace("/hello", f"/h{i}") * 40)
    (repo / "requirements.txt").write_text("flask\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "many")
    out = tmp_path / "out"
    started = time.monotonic()
    proc = _cli("analyze", str(repo), "--out", str(out), "--no-validate", "-q", "--no-cache", "--jobs", "1",
                "--max-time", "0.5")
    elapsed = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--max-time" in lines[0] and "internal error" not in lines[0], proc.stderr
    assert not out.exists() and elapsed < 30
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big"]
