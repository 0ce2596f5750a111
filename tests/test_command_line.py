"""People run the system's command-line programs (rule frontdoor.command-line), analysed end to end
from a local git repository: a CLI named so, and one registering commands with a command framework
that serves nothing, are reached by the user; a daemon parsing its flags with the same framework but
serving a health endpoint is not."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo, run_cli
from repomodeler.graph.command_line import cli_name

FILES = {
    "go.mod": "module example.com/ci\n\ngo 1.22\n",
    "server/router.go": ('package server\n\nimport "net/http"\n\nfunc Serve() error {\n'
                         '\thttp.HandleFunc("/api/repos", func(w http.ResponseWriter, r *http.Request) {})\n'
                         '\treturn http.ListenAndServe(":8000", nil)\n}\n'),
    "agent/agent.go": ('package agent\n\nimport (\n\t"net/http"\n\n\t"github.com/urfave/cli/v3"\n)\n\n'
                       'var Command = &cli.Command{Name: "agent"}\n\n'
                       'func Run() error {\n\thttp.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {})\n'
                       '\treturn http.ListenAndServe(":3000", nil)\n}\n'),
    "cmd/server/main.go": 'package main\n\nimport "example.com/ci/server"\n\nfunc main() { server.Serve() }\n',
    "cmd/agent/main.go": 'package main\n\nimport "example.com/ci/agent"\n\nfunc main() { agent.Run() }\n',
    "cmd/cli/main.go": ('package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("ci")\n}\n'),
    "cmd/backup/main.go": ('package main\n\nimport "github.com/spf13/cobra"\n\n'
                           'func main() {\n\troot := &cobra.Command{Use: "backup"}\n\troot.Execute()\n}\n'),
    "web/package.json": '{"name": "ci-web", "dependencies": {"vue": "^3.4.0"}, "devDependencies": {"vite": "^5.0.0"}}\n',
    "web/src/main.ts": "import { createApp } from 'vue';\ncreateApp({}).mount('#app');\n",
}


def test_the_user_runs_the_command_line_programs_not_the_daemons(tmp_path: Path) -> None:
    make_repo(tmp_path / "ci", FILES)
    out = tmp_path / "out"
    proc = run_cli(["analyze", "--quiet", "--no-validate", f"file://{tmp_path / 'ci'}", "--name", "ci", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    model = json.loads((out / "model.json").read_text())
    runs = {e["target"]: e for e in model["edges"] if e["source"] == "user" and e["kind"] == "spawns"}
    assert set(runs) >= {"cli", "backup"}, sorted(runs)
    assert "agent" not in runs and "ci-server" not in runs
    # the command framework's import in the program's code is the evidence of the backup tool
    assert [(ev["path"], ev["line"]) for ev in runs["backup"]["evidence"]] == [("cmd/backup/main.go", 3)]
    assert runs["cli"]["evidence"][0]["path"] == "cmd/cli/main.go"
    assert "frontdoor.command-line" in runs["backup"]["rules"]


def test_cli_names() -> None:
    assert all(cli_name(n) for n in ("cli", "woodpecker-cli", "etcdctl", "admin", "mycli", "ctl"))
    assert not any(cli_name(n) for n in ("client", "server", "mqadmin-web", "public", "agent", "clickhouse"))
