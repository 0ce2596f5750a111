"""The explorer as ES modules: the server page loads web/static/js/explorer/main.js with
<script type="module">; a published site (opened from file://, where Chromium refuses module
scripts) gets the same modules joined into one classic script by repomodeler/serve/bundle.py.
These tests check the join and its rules offline, and that the modules import one another
without a cycle; the browser tests run both forms (test_viewer_browser.py and test_viewer_ports.py
open the published site from file://)."""

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
EXPECTED = {"state.js", "data.js", "graph.js", "graphstyle.js", "compact.js", "filters.js", "visible.js", "details.js", "compare.js",
            "overlay.js", "ports.js", "drill.js", "ui.js", "views.js", "place.js", "keyboard.js", "main.js"}
#: The modules that show something and follow the store's events: none may import another.
VIEWS = {"graph.js", "details.js", "filters.js", "compare.js", "views.js"}


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
    imports = _imports_of(STATIC / MODULES)
    for i, name in enumerate(order):  # every module after the modules it imports
        assert imports[name] <= set(order[:i]), f"{name} is joined before {sorted(imports[name] - set(order[:i]))}"
    assert not re.search(r"^(import|export)\b", text, re.M)
    assert text.count('"use strict";') == 1 and text.rstrip().endswith("})();")
    assert bundle(STATIC) == text  # deterministic
    if shutil.which("node"):  # a syntax check when node happens to be installed (not required)
        done = subprocess.run(["node", "--check", "-"], input=text, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


_IMPORT_LINE = re.compile(r'^\s*import\b[^;]*?\bfrom\s*["\']\./([^"\']+)["\']', re.M | re.S)


def _imports_of(folder: Path) -> dict[str, set[str]]:
    """module file name -> the sibling modules it imports (every `import ... from "./x.js"`)."""
    return {p.name: set(_IMPORT_LINE.findall(p.read_text(encoding="utf-8"))) for p in sorted(folder.glob("*.js"))}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, and the modules importing
    themselves (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph.get(succ, ())))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))
    return sorted(found)


def test_cycle_finder() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}) == [["a", "b", "c"], ["e"]]
    assert _cycles({"m": {"x", "y"}, "x": {"y"}, "y": {"z"}, "z": {"x"}}) == [["x", "y", "z"]]
    assert _IMPORT_LINE.findall('import { a, b } from "./x.js";\nimport {\n  c\n} from \'./y.js\';\nimport "./z.js";\n') == ["x.js", "y.js"]


def test_explorer_modules_import_no_cycle() -> None:
    imports = _imports_of(STATIC / MODULES)
    assert set(imports) == EXPECTED
    for name, deps in imports.items():
        assert deps <= EXPECTED, f"{name} imports a module that does not exist: {sorted(deps - EXPECTED)}"
        mutual = sorted(d for d in deps if name in imports.get(d, ()))
        assert not mutual, f"{name} and {mutual} import each other"
    assert _cycles(imports) == [], "the explorer's modules import one another in a circle"
    assert not any("main.js" in deps for deps in imports.values()), "nothing imports the entry module"
    assert imports["state.js"] == set(), "the store is the bottom layer"
    for name in VIEWS:  # views talk through the store's events, never to each other
        assert not imports[name] & VIEWS, f"{name} imports the view(s) {sorted(imports[name] & VIEWS)}"


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
