"""The local container engine and the operator-chosen SQL database (rules code.container-engine and
stores.sql-drivers), analysed end to end from a local git repository: each link starts at the process
whose code imports the SDK or the drivers, with the import's line as evidence."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli

FILES = {
    "go.mod": "module example.com/ci\n\ngo 1.22\n",
    "backend/docker/docker.go": ('package docker\n\nimport "github.com/moby/moby/client"\n\n'
                                 'func New() (*client.Client, error) {\n\treturn client.New(client.FromEnv)\n}\n'),
    "agent/agent.go": 'package agent\n\nimport "example.com/ci/backend/docker"\n\nfunc Run() { docker.New() }\n',
    "store/engine.go": ('package store\n\nimport (\n\t_ "github.com/go-sql-driver/mysql"\n\t_ "github.com/lib/pq"\n'
                        '\t_ "github.com/mattn/go-sqlite3"\n\t"xorm.io/xorm"\n)\n\n'
                        'func Open(driver, dsn string) (*xorm.Engine, error) {\n\treturn xorm.NewEngine(driver, dsn)\n}\n'),
    "server/server.go": ('package server\n\nimport (\n\t"net/http"\n\n\t"example.com/ci/store"\n)\n\n'
                         'func Serve(driver, dsn string) error {\n\tstore.Open(driver, dsn)\n'
                         '\thttp.HandleFunc("/api/builds", func(w http.ResponseWriter, r *http.Request) {})\n'
                         '\treturn http.ListenAndServe(":8000", nil)\n}\n'),
    "cmd/agent/main.go": 'package main\n\nimport "example.com/ci/agent"\n\nfunc main() { agent.Run() }\n',
    "cmd/server/main.go": ('package main\n\nimport (\n\t"os"\n\n\t"example.com/ci/server"\n)\n\n'
                           'func main() { server.Serve(os.Getenv("DB_DRIVER"), os.Getenv("DB_DSN")) }\n'),
}


def test_the_agent_drives_the_docker_engine_and_the_server_keeps_its_sqlite_database(tmp_path: Path) -> None:
    make_repo(tmp_path / "ci", FILES)
    out = tmp_path / "out"
    proc = run_cli(["analyze", "--quiet", "--no-validate", f"file://{tmp_path / 'ci'}", "--name", "ci", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    model = json.loads((out / "model.json").read_text())
    nodes = {n["id"]: n for n in model["nodes"]}
    edges = {(e["source"], e["target"]): e for e in model["edges"]}
    assert nodes["docker-engine"]["kind"] == "external"
    engine = edges[("agent", "docker-engine")]
    assert [(ev["path"], ev["line"]) for ev in engine["evidence"]] == [("backend/docker/docker.go", 3)]
    assert "code.container-engine" in engine["rules"]
    assert ("ci-server", "docker-engine") not in edges
    # (SQLite among the drivers a setting picks from, and no database server deployed: the file needing no server)
    db = nodes["sqlite"]
    assert db["kind"] == "database" and db["attributes"]["technology"] == "sqlite" and "ci-database" not in nodes
    uses = edges[("ci-server", "sqlite")]
    assert uses["protocol"] == "sql"
    assert {(ev["path"], ev["line"]) for ev in uses["evidence"]} == {("store/engine.go", 6)}
    assert ("agent", "sqlite") not in edges
