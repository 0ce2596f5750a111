"""A library folded into the one program that links it takes its links to the parts of other components along.

A workspace library (an npm package the API server depends on) whose code names a database on the system's
server makes a link to that logical database, a part of the server; when the library becomes a part of the
program linking it, that link is the program's. A link left naming the library would name a component the
model no longer has, and writing the model would fail: the whole run lost for one library."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from conftest import run_cli

CASE = Path(__file__).resolve().parent.parent / "repomodeler" / "rules" / "build" / "cases" / \
    "build.units--workspace-plugin-library.yml"
FILES = yaml.safe_load(CASE.read_text(encoding="utf-8"))["repositories"]["shop"]


def test_a_folded_library_link_to_a_logical_database_is_its_programs(tmp_path: Path) -> None:
    repo = tmp_path / "shop"
    for rel, text in FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    proc = run_cli(["analyze", str(repo), "--out", str(out), "--quiet"])
    assert proc.returncode == 0, proc.stderr
    model = json.loads((out / "model.json").read_text(encoding="utf-8"))
    ids = {n["id"] for n in model["nodes"]}
    assert "core" not in ids and "plugin-payments" not in ids  # the libraries are parts of the app
    edges = {(e["source"], e["target"]) for e in model["edges"]}
    # the core library's database URL names the `shop` database on the mongo server: the app uses it
    assert ("api", "mongo/shop") in edges
    assert all(e["source"] in ids and e["target"] in ids for e in model["edges"])
