"""PM2 process files: one program a listed app, run in its folder; a framework's installed command is that command."""

from repomodeler.extract.readers.pm2 import read_pm2

ECOSYSTEM = """module.exports = {
  apps: [
    {
      name: "back-end",
      script: "dist/server.js",
      cwd: "./packages/back-end",
    },
    {
      name: "front-end",
      script: "node_modules/next/dist/bin/next",
      args: "start",
      cwd: "./packages/front-end",
    },
    {
      name: "cleanup",
      script: "jobs/cleanup.py",
    },
  ],
};
"""


def test_apps_of_an_ecosystem_file() -> None:
    facts = read_pm2("flags", "deploy/ecosystem.config.js", ECOSYSTEM)
    got = [(f.line, f.get("owner"), f.get("command"), f.get("context")) for f in facts]
    assert got == [
        (4, "back-end", "node dist/server.js", "deploy/packages/back-end"),
        (9, "front-end", "next start", "deploy/packages/front-end"),  # the framework's own command line
        (15, "cleanup", "python jobs/cleanup.py", "deploy"),
    ]


def test_apps_of_a_json_process_file() -> None:
    text = '{"apps": [{"name": "worker", "script": "worker.js", "cwd": "svc"}]}'
    facts = read_pm2("shop", "pm2.json", text)
    assert [(f.get("owner"), f.get("command"), f.get("context")) for f in facts] == [("worker", "node worker.js", "svc")]
    assert read_pm2("shop", "pm2.json", "{not json") == []
