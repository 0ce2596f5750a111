"""Issue 23, point 7: an unparsable submodule URL is an error of that submodule only: with
--keep-going the run goes on (the good submodule is analysed, the bad ones listed), without it the
one-line error names the submodule."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, git, make_repo

BAD = {"ext": "ext::sh -c touch% /tmp/repomodeler-pwned", "fd": "fd::17", "upload": "--upload-pack=touch /tmp/x",
       "tilde": "~/x"}


def _parent_with_submodules(tmp_path: Path) -> tuple[Path, Path]:
    sub = tmp_path / "billing"
    make_repo(sub, {"requirements.txt": "flask\n",
                    "app.py": 'from flask import Flask\napp = Flask("billing")\n\n@app.route("/invoices")\ndef i():\n'
                              '    return ""\n'})
    parent = tmp_path / "shop"
    make_repo(parent, {"requirements.txt": "requests\n",
                       "app.py": 'import requests\nrequests.get("http://billing:8080/invoices")\n'})
    git(parent, "-c", "protocol.file.allow=always", "submodule", "add", "-q", f"file://{sub}", "vendor-billing")
    sha = git(sub, "rev-parse", "HEAD")
    with open(parent / ".gitmodules", "a") as handle:
        for name, url in BAD.items():
            handle.write(f'[submodule "{name}"]\n\tpath = bad-{name}\n\turl = {url}\n')
            git(parent, "update-index", "--add", "--cacheinfo", f"160000,{sha},bad-{name}")
    git(parent, "add", ".gitmodules")
    git(parent, "commit", "-q", "-m", "add submodules")  # not add -A: the bad gitlinks have no folder
    return parent, sub


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          env=os.environ.copy(), timeout=180)


def test_safety_bad_submodule_urls_do_not_stop_keep_going(tmp_path) -> None:
    parent, _ = _parent_with_submodules(tmp_path)
    out = tmp_path / "o"
    proc = _cli("analyze", f"file://{parent}", "--submodules", "--keep-going", "--out", str(out), "--no-validate", "-q")
    assert proc.returncode == 0, proc.stderr
    model = json.loads((out / "model.json").read_text())
    assert [r["name"] for r in model["repositories"]] == ["billing", "shop"]
    failures = json.loads((out / "run.json").read_text())["failures"]
    assert len(failures) == len(BAD), failures
    for name in BAD:
        assert any(f"submodule 'bad-{name}'" in f for f in failures), failures
    assert not Path("/tmp/repomodeler-pwned").exists()


def test_safety_bad_submodule_url_without_keep_going_names_the_submodule(tmp_path) -> None:
    parent, _ = _parent_with_submodules(tmp_path)
    out = tmp_path / "o"
    proc = _cli("analyze", f"file://{parent}", "--submodules", "--out", str(out), "--no-validate", "-q")
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "submodule 'bad-" in lines[0] and "--keep-going" in lines[0], proc.stderr
    assert not out.exists()
