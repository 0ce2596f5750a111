"""`repomodeler export` and write_exports: every format read back with a real reader."""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.emit.exports import FORMATS, write_exports
from repomodeler.emit.graph_io import graph_from_model_json, load_model_dir
from repomodeler.emit.model_json import render_json
from repomodeler.emit.sysml import render_sysml
from repomodeler.pipeline import AnalyzeOptions, analyze
from tests.sysml_check import assert_valid_sysml, make_graph, tree_sitter_errors
from model_views import top_level


@pytest.fixture
def shop_dir(shop_repo: tuple[Path, str], tmp_path: Path) -> Path:
    repo, _sha = shop_repo
    return analyze([str(repo)], AnalyzeOptions(out=tmp_path / "models" / "shop", validate=False)).out


@pytest.fixture
def exported(shop_dir: Path, tmp_path: Path, runner: CliRunner) -> Path:
    out = tmp_path / "export"
    result = runner.invoke(cli, ["export", str(shop_dir), "--format", "all", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _model(shop_dir: Path) -> dict:
    return top_level(json.loads((shop_dir / "model.json").read_text(encoding="utf-8")))  # what diagrams draw


def test_model_json_rebuilds_the_same_graph(shop_dir: Path) -> None:
    g = load_model_dir(shop_dir)
    assert render_json(g) == (shop_dir / "model.json").read_text(encoding="utf-8")
    assert render_sysml(g) == (shop_dir / "model.sysml").read_text(encoding="utf-8")


def test_export_lists_every_file_it_wrote(shop_dir: Path, tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "x"
    result = runner.invoke(cli, ["export", str(shop_dir), "-f", "mermaid,graphml", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [str(out / "model.graphml"), str(out / "model.mmd")]


def test_sysml_export_is_one_file_per_package_and_parses(exported: Path, shop_dir: Path) -> None:
    assert not (exported / "sysml").exists()
    for name in ("model.sysml", "RepoModeler.sysml"):  # as in the model folder
        assert (exported / name).read_bytes() == (shop_dir / name).read_bytes()
        assert tree_sitter_errors((exported / name).read_text(encoding="utf-8")) == [], name
    assert_valid_sysml([exported / "RepoModeler.sysml", exported / "model.sysml"])  # loaded together


def test_json_export_is_model_json(exported: Path, shop_dir: Path) -> None:
    assert (exported / "model.json").read_bytes() == (shop_dir / "model.json").read_bytes()


def test_kpar_is_an_interchange_project_whose_files_validate(exported: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(exported / "RepoModeler.kpar") as zf:
        assert zf.namelist() == [".meta.json", ".project.json", "RepoModeler.sysml"]
        library = {"RepoModeler.sysml": zf.read("RepoModeler.sysml")}
        assert json.loads(zf.read(".meta.json"))["index"] == {"RepoModeler": "RepoModeler.sysml"}
    with zipfile.ZipFile(exported / "shop.kpar") as zf:
        names = zf.namelist()
        assert names == sorted(names) == [".meta.json", ".project.json", "shop.sysml"]
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        project = json.loads(zf.read(".project.json"))
        meta = json.loads(zf.read(".meta.json"))
        sources = {n: zf.read(n) for n in names if n.endswith(".sysml")}
    assert project["name"] == "shop" and project["version"].startswith("0.0.0+")
    assert "shop" in project["description"]
    assert "https://www.omg.org/spec/SysML/20250201/Systems-Library.kpar" in [u["resource"] for u in project["usage"]]
    assert {"resource": "urn:kpar:repomodeler-library", "versionConstraint": "2.2.0"} in project["usage"]
    assert meta["index"] == {"shop": "shop.sysml"}
    assert meta["metamodel"] == "https://www.omg.org/spec/SysML/20250201"
    assert meta["created"] == "2024-01-01T00:00:00Z"  # the newest commit date (fixed in the test repositories)
    assert meta["checksum"] == {n: {"value": hashlib.sha256(b).hexdigest(), "algorithm": "SHA256"}
                                for n, b in sources.items()}
    folder = tmp_path / "unzipped"
    folder.mkdir()
    for n, b in {**sources, **library}.items():
        (folder / n).write_bytes(b)
    assert_valid_sysml(folder)


def test_kpar_bundle_is_one_archive_with_the_library_inside(shop_dir: Path, tmp_path: Path, runner: CliRunner) -> None:
    """``export --format kpar --bundle``: one self-contained project (sysand reads and locks it offline with
    no mapping of the library usage), instead of the system archive and RepoModeler.kpar."""
    import os
    import shutil
    import subprocess

    out = tmp_path / "bundle"
    result = runner.invoke(cli, ["export", str(shop_dir), "--format", "kpar", "--bundle", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["shop.kpar"]
    with zipfile.ZipFile(out / "shop.kpar") as zf:
        assert zf.namelist() == [".meta.json", ".project.json", "RepoModeler.sysml", "shop.sysml"]
        project = json.loads(zf.read(".project.json"))
        meta = json.loads(zf.read(".meta.json"))
        sources = {n: zf.read(n) for n in zf.namelist() if n.endswith(".sysml")}
    assert meta["index"] == {"shop": "shop.sysml", "RepoModeler": "RepoModeler.sysml"}
    assert all(not u["resource"].startswith("urn:kpar:") for u in project["usage"])  # standard libraries only
    assert sources["RepoModeler.sysml"] == (shop_dir / "RepoModeler.sysml").read_bytes()
    assert meta["checksum"]["shop.sysml"]["value"] == hashlib.sha256(sources["shop.sysml"]).hexdigest()
    again = runner.invoke(cli, ["export", str(shop_dir), "--format", "kpar", "--bundle", "--out", str(tmp_path / "b2")])
    assert again.exit_code == 0 and (tmp_path / "b2" / "shop.kpar").read_bytes() == (out / "shop.kpar").read_bytes()
    folder = tmp_path / "unzipped"
    folder.mkdir()
    with zipfile.ZipFile(out / "shop.kpar") as zf:
        zf.extractall(folder)
    assert_valid_sysml([folder / "RepoModeler.sysml", folder / "shop.sysml"])
    wrong = runner.invoke(cli, ["export", str(shop_dir), "--format", "json", "--bundle", "--out", str(tmp_path / "b3")])
    assert wrong.exit_code == 1 and "--bundle applies to the kpar format" in wrong.output
    if shutil.which("sysand") is None:
        pytest.skip("sysand is not installed (pip install sysand): the archive's contents were checked")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYSAND_")}  # --no-index: nothing remote
    info = subprocess.run(["sysand", "info", "--no-index", "-p", str(out / "shop.kpar")], capture_output=True,
                          text=True, env=env, timeout=120)
    assert info.returncode == 0 and "Name: shop" in info.stdout and "repomodeler-library" not in info.stdout
    lock = subprocess.run(["sysand", "lock", "--no-index"], cwd=folder, capture_output=True, text=True, env=env,
                          timeout=120)
    assert lock.returncode == 0, lock.stderr
    locked = (folder / "sysand-lock.toml").read_text(encoding="utf-8")
    assert re.search(r'name = "shop"\s+version = "[^"]+"\s+exports = \[\s*"RepoModeler",\s*"shop",\s*\]', locked)


def test_graphml_reads_back_with_networkx(exported: Path, shop_dir: Path) -> None:
    model = _model(shop_dir)
    g = nx.read_graphml(exported / "model.graphml", force_multigraph=True)
    assert sorted(g.nodes) == sorted(n["id"] for n in model["nodes"])
    assert sorted((u, v, d["protocol"]) for u, v, d in g.edges(data=True)) == \
        sorted((e["source"], e["target"], e["protocol"]) for e in model["edges"])
    orders = g.nodes["orders"]
    assert orders["kind"] == "service" and orders["language"] == "python"
    assert "POST /orders" in orders["endpoints"].splitlines()
    assert "shop:orders/main.py:" in g.edges["orders", "payments", "http"]["evidence"]


def test_mermaid_has_every_node_and_edge_grouped_by_repository(exported: Path, shop_dir: Path) -> None:
    text = (exported / "model.mmd").read_text(encoding="utf-8")
    model = _model(shop_dir)
    assert text.startswith("flowchart LR\n")
    assert '  subgraph repo_0["shop"]' in text
    for n in model["nodes"]:
        assert f"c_{n['id'].replace('.', '_').replace('-', '_')}" in text
    drawn = sorted((m.group(1), m.group(3), m.group(2).split(":")[0])
                   for m in re.finditer(r'^  (\w+) -\.?->\|"([^"]*)"\| (\w+)$', text, re.M))
    ids = {n["id"]: f"c_{n['id'].replace('.', '_').replace('-', '_')}" for n in model["nodes"]}
    assert drawn == sorted((ids[e["source"]], ids[e["target"]], e["protocol"]) for e in model["edges"])
    # externals (no repository) stay outside the repository group
    group = text.split('subgraph repo_0["shop"]')[1].split("  end")[0]
    assert "c_api_stripe_com" not in group and "c_orders_db" in group


def test_plantuml_has_every_node_and_edge(exported: Path, shop_dir: Path) -> None:
    text = (exported / "model.puml").read_text(encoding="utf-8")
    model = _model(shop_dir)
    assert text.startswith("@startuml\n") and text.endswith("@enduml\n")
    assert 'database "orders-db" as c_orders_db' in text and 'package "shop" {' in text
    for n in model["nodes"]:
        assert f'"{n["name"]}" as c_' in text
    for e in model["edges"]:
        src, dst = (f"c_{x.replace('.', '_').replace('-', '_')}" for x in (e["source"], e["target"]))
        assert f"{src} --> {dst} : {e['protocol']}" in text


def test_exports_are_byte_identical_across_runs(shop_dir: Path, tmp_path: Path) -> None:
    a = write_exports(load_model_dir(shop_dir), tmp_path / "a", list(FORMATS))
    b = write_exports(load_model_dir(shop_dir), tmp_path / "b", list(FORMATS))
    assert [p.relative_to(tmp_path / "a") for p in a] == [p.relative_to(tmp_path / "b") for p in b]
    for pa, pb in zip(a, b):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


def test_library_dependencies_and_topics_in_every_format(tmp_path: Path) -> None:
    comps = [{"id": "api", "kind": "service", "repository": "r"}, {"id": "lib", "kind": "library", "repository": "r"},
             {"id": "bus", "kind": "broker"}]
    edges = [{"source": "api", "target": "lib", "protocol": "library", "kind": "depends_on"},
             {"source": "api", "target": "bus", "protocol": "nats", "kind": "publishes", "attributes": {"topic": "a.b"}}]
    g = make_graph("deps", comps, edges)
    data = json.loads(render_json(g))
    write_exports(graph_from_model_json(data), tmp_path, ["all"])
    assert "c_api -.->|\"library\"| c_lib" in (tmp_path / "model.mmd").read_text(encoding="utf-8")
    assert 'c_api -->|"nats: a.b"| c_bus' in (tmp_path / "model.mmd").read_text(encoding="utf-8")
    assert "c_api ..> c_lib : library" in (tmp_path / "model.puml").read_text(encoding="utf-8")
    assert_valid_sysml([tmp_path / "RepoModeler.sysml", tmp_path / "model.sysml"])


def test_bad_inputs_are_one_line_errors(tmp_path: Path, shop_dir: Path, runner: CliRunner) -> None:
    result = runner.invoke(cli, ["export", str(tmp_path / "empty")])
    assert result.exit_code == 1 and "holds no model.json" in result.output
    result = runner.invoke(cli, ["export", str(shop_dir), "--format", "xmi"])
    assert result.exit_code == 1 and "unknown export format 'xmi'" in result.output
