"""The explorer as ES modules: the server page loads web/static/js/explorer/main.js with
<script type="module">; a published site (opened from file://, where Chromium refuses module
scripts) gets the same modules joined into one classic script by repomodeler/serve/bundle.py.
These tests check the join and its rules offline; the browser tests run both forms
(test_viewer_browser.py and test_viewer_ports.py open the published site from file://)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from repomodeler.records import RepomodelerError
from repomodeler.serve.app import create_app
from repomodeler.serve.bundle import BUNDLE, MODULES, bundle
from repomodeler.serve.publish import publish_site

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "web" / "static"
EXPECTED = {"state.js", "data.js", "graph.js", "compact.js", "filters.js", "details.js", "compare.js", "ports.js", "drill.js", "views.js", "main.js"}


def test_explorer_is_split_into_modules() -> None:
    found = {p.name for p in (STATIC / MODULES).glob("*.js")}
    assert found == EXPECTED
    assert not (STATIC / "js" / "explorer.js").exists()  # the old single file is gone
    for name in found:
        text = (STATIC / MODULES / name).read_text()
        assert text.startswith("/*"), f"{name} starts with a comment saying what it holds"
        assert len(text.splitlines()) < 450, f"{name} is getting large"
        assert "window.__MODEL__" not in text or name == "data.js"


def test_bundle_joins_every_module_once_in_dependency_order() -> None:
    text = bundle(STATIC)
    order = re.findall(r"^// ==== (\S+)$", text, re.M)
    assert sorted(order) == sorted(EXPECTED) and order[0] == "state.js" and order[-1] == "main.js"
    assert not re.search(r"^(import|export)\b", text, re.M)
    assert text.count('"use strict";') == 1 and text.rstrip().endswith("})();")
    assert bundle(STATIC) == text  # deterministic
    if shutil.which("node"):  # a syntax check when node happens to be installed (not required)
        done = subprocess.run(["node", "--check", "-"], input=text, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def _static(tmp_path: Path, files: dict[str, str]) -> Path:
    static = tmp_path / "static"
    folder = static / MODULES
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return static


@pytest.mark.parametrize(
    "files,message",
    [
        ({"main.js": 'import { a as b } from "./x.js";\n', "x.js": "export function a() {}\n"}, "renamed imports"),
        ({"main.js": 'import * as x from "./x.js";\n', "x.js": "export function a() {}\n"}, "on one line can be bundled"),
        ({"main.js": "export default function () {}\n"}, "only `export function/let/const`"),
        ({"main.js": "const a = 1;\nexport { a };\n"}, "only `export function/let/const`"),
        ({"main.js": 'import { a } from "./x.js";\nfunction a() {}\n', "x.js": "export function a() {}\n"},
         "a is declared at the top of both"),
        ({"main.js": 'import { b } from "./x.js";\n', "x.js": "export function a() {}\nfunction b() {}\n"},
         "main.js imports b from x.js, which does not export it"),
        ({"main.js": 'import { a } from "./y.js";\n'}, "imports ./y.js, which does not exist"),
        ({"x.js": "export function a() {}\n"}, "main.js is missing"),
    ],
)
def test_bundle_refuses_what_a_plain_join_would_break(tmp_path: Path, files: dict[str, str], message: str) -> None:
    with pytest.raises(RepomodelerError) as info:
        bundle(_static(tmp_path, files))
    assert message in str(info.value)


def test_bundle_keeps_module_bodies_and_strips_only_module_syntax(tmp_path: Path) -> None:
    static = _static(tmp_path, {
        "main.js": '/* entry */\nimport { a, b } from "./x.js";\nexport const c = a() + b;\n  // import is fine in a comment\n',
        "x.js": 'import { c } from "./main.js";\nexport function a() { return 1; }\nexport let b = 2, d = [1, 2];\n',
    })
    text = bundle(static)
    assert "function a() { return 1; }" in text and "let b = 2, d = [1, 2];" in text and "const c = a() + b;" in text
    assert text.index("// ==== x.js") < text.index("// ==== main.js")
    assert "// import is fine in a comment" in text and "import {" not in text


def test_server_loads_modules_and_published_site_loads_the_bundle(tmp_path: Path) -> None:
    models = tmp_path / "models"
    (models / "m").mkdir(parents=True)
    (models / "m" / "model.json").write_text(json.dumps({"schema": "repomodeler/model@1", "name": "m", "repositories": [],
                                                         "nodes": [{"id": "a", "name": "a", "kind": "service"}], "edges": []}))
    page = TestClient(create_app(models, allowed_hosts=["testserver"])).get("/models/m").text
    assert '<script type="module" src="/static/js/explorer/main.js"></script>' in page
    assert "explorer.bundle.js" not in page
    module = TestClient(create_app(models, allowed_hosts=["testserver"])).get("/static/js/explorer/main.js")
    assert module.status_code == 200 and "javascript" in module.headers["content-type"]
    site = tmp_path / "site"
    publish_site(models, site)
    html = (site / "models" / "m.html").read_text()
    assert '<script src="../static/js/explorer.bundle.js"></script>' in html and 'type="module"' not in html
    assert (site / "static" / BUNDLE).read_text() == bundle(STATIC)
