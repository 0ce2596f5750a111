"""A default-named compose file kept as a symlink to one of several variants (``compose.yaml ->
docker-compose_v3_alpine_mysql_latest.yaml``) says which variant Docker Compose runs: that one is the
system, the others beside the link are opt-in variants.  The link is read from the repository
(git's tree or the folder), never followed out of it, and its target is read under its own path."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import commit_all, git, local_repository, run_cli
from repomodeler.inventory import InventoryOptions, build_inventory, link_target

MYSQL = ("services:\n"
         "  server:\n    image: example/monitor-server-mysql:7.0\n    environment:\n      DB_SERVER_HOST: mysql-server\n"
         "  mysql-server:\n    image: mysql:8.0\n")
PGSQL = ("services:\n"
         "  server:\n    image: example/monitor-server-pgsql:7.0\n    environment:\n      DB_SERVER_HOST: postgres-server\n"
         "  postgres-server:\n    image: postgres:16\n")


def _tree(root: Path, outside: Path) -> None:
    root.mkdir(parents=True)
    (root / "docker-compose_mysql.yaml").write_text(MYSQL)
    (root / "docker-compose_pgsql.yaml").write_text(PGSQL)
    os.symlink("docker-compose_mysql.yaml", root / "compose.yaml")
    # compose-named links that lead out of the repository or nowhere: skipped and counted, never read
    outside.mkdir(parents=True)
    (outside / "compose.yml").write_text("services:\n  secret-store:\n    image: redis:7\n")
    os.symlink(str(outside / "compose.yml"), root / "docker-compose.override.yml")
    os.symlink("../" * 8 + str(outside / "compose.yml").lstrip("/"), root / "compose.prod.yaml")
    os.symlink("missing.yaml", root / "compose.dev.yaml")



@pytest.mark.parametrize("kind", ["git", "dir"])
def test_inventory_keeps_a_compose_link_inside_the_repository(tmp_path: Path, kind: str) -> None:
    root = tmp_path / "monitor"
    _tree(root, tmp_path / "outside")
    if kind == "git":
        git(root, "init", "-q")
        commit_all(root, "initial")
    inv = build_inventory(local_repository(root, kind), InventoryOptions())
    assert inv.links == {"compose.yaml": "docker-compose_mysql.yaml"}
    assert inv.skipped.get("symlink") == 3  # the override out by absolute path, prod out by '..', dev to nothing
    assert "compose.yaml" not in {f.path for f in inv.files}  # the target is read under its own path


def test_link_targets_stay_inside() -> None:
    assert link_target("deploy/compose.yaml", "../compose/prod.yaml") == "compose/prod.yaml"
    assert link_target("compose.yaml", "../x.yaml") is None
    assert link_target("compose.yaml", "/etc/passwd") is None
    assert link_target("a/compose.yaml", "b/../../..") is None


def test_analysis_runs_the_variant_the_default_link_names(tmp_path: Path) -> None:
    root = tmp_path / "monitor"
    _tree(root, tmp_path / "outside")
    git(root, "init", "-q")
    commit_all(root, "initial")
    out = tmp_path / "out"
    proc = run_cli(["analyze", str(root), "--out", str(out), "--no-validate", "-q"])
    assert proc.returncode == 0, proc.stderr
    model = json.loads((out / "model.json").read_text())
    names = {n["id"] for n in model["nodes"]}
    assert {"server", "mysql-server"} <= names
    assert "postgres-server" not in names and "secret-store" not in names
    edges = {(e["source"], e["target"]) for e in model["edges"]}
    assert ("server", "mysql-server") in edges
    server = next(n for n in model["nodes"] if n["id"] == "server")
    assert {e["path"] for e in server["evidence"]} == {"docker-compose_mysql.yaml"}
    assert "secret-store" not in (out / "model.sysml").read_text()


def test_docker_hub_test_service_is_not_the_system() -> None:
    """Docker Hub's automated tests run the `sut` ("system under test") service of a test compose file:
    the test suite, calling the system; it is no component of the system."""
    from repomodeler.extract.readers.compose import read_compose
    text = ("services:\n"
            "  zipkin:\n    image: openzipkin/zipkin:test\n    ports: ['9411:9411']\n"
            "  sut:\n    image: appropriate/curl\n    entrypoint: curl\n"
            "    command: -s http://zipkin:9411/api/v2/services\n    depends_on: [zipkin]\n")
    names = {f.get("name") for f in read_compose("zipkin", "build-bin/docker-compose-zipkin.yml", text)
             if f.kind == "compose.service"}
    assert names == {"zipkin"}
