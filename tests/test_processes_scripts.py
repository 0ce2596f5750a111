"""Processes of Python and JavaScript/TypeScript repositories, on in-memory repositories: console
scripts, ``bin`` entries, start scripts, Procfile lines and spawned modules that start different servers
become one component per process; a CLI calling a server on a loopback URL, and a process spawning
another, are linked.  Negative cases: an admin CLI, a migration, two scripts for one server."""

from __future__ import annotations

from rules_harness import edge_set, resolve_files

SHOP = {
    "pyproject.toml": ('[project]\nname = "shop"\nversion = "1"\ndependencies = ["fastapi", "requests", "kafka-python"]\n\n'
                       '[project.scripts]\nshop = "shop.cli:main"\nshop-api = "shop.api.app:main"\n'
                       'shop-worker = "shop.worker.main:main"\n'),
    "shop/__init__.py": "",
    "shop/cli.py": 'import requests\n\ndef main():\n    r = requests.get("http://localhost:8000/orders")\n    print(r.json())\n',
    "shop/api/__init__.py": "",
    "shop/api/app.py": ('import uvicorn\nfrom fastapi import FastAPI\nfrom shop.db import models\napp = FastAPI()\n\n'
                        '@app.get("/orders")\ndef orders():\n    return []\n\ndef main():\n    uvicorn.run(app, port=8000)\n'),
    "shop/worker/__init__.py": "",
    "shop/worker/main.py": ('from kafka import KafkaConsumer\nfrom shop.db import models\n\ndef main():\n'
                            '    c = KafkaConsumer("orders", bootstrap_servers="kafka:9092")\n    for m in c:\n        print(m)\n'),
    "shop/db/__init__.py": "",
    "shop/db/models.py": "X = 1\n",
}


def services(model) -> set[str]:
    return {c.id for c in model.components.values() if c.kind == "service"}


def test_python_console_scripts_that_serve_different_things_are_processes() -> None:
    model = resolve_files({"shop": SHOP})
    assert services(model) == {"shop", "shop-api", "shop-worker"}
    api = model.components["shop-api"]
    assert api.attributes["part_of"] == "shop" and model.components["shop"].attributes["process"] == "shop"
    assert ("pyproject.toml", 8) in {(e.path, e.line) for e in api.evidence}
    assert {ep.path for ep in api.ports["http"].endpoints} == {"/orders"}
    assert "http" not in model.components["shop"].ports
    # the consumer follows the code that subscribes
    assert ("shop-worker", "kafka") in edge_set(model) and ("shop", "kafka") not in edge_set(model)
    parent = {p.name: p.parent for p in model.parts.values()}
    assert parent["shop/api"] == "shop-api" and parent["shop/worker"] == "shop-worker"
    assert parent["shop/db"] == "shop"  # both servers import it: shared


def test_python_cli_calling_the_server_on_localhost_is_linked_to_it() -> None:
    model = resolve_files({"shop": SHOP})
    call = model.connections[("shop", "shop-api", "http")]
    assert call.kind == "calls" and call.attributes["endpoints"] == "GET /orders"
    assert {(e.path, e.line) for e in call.evidence} == {("shop/cli.py", 4)}


def test_python_subprocess_of_a_module_is_a_spawned_process_and_an_admin_cli_is_not() -> None:
    files = {
        "pyproject.toml": ('[project]\nname = "engine"\nversion = "1"\n\n[project.scripts]\n'
                           'engine = "engine.server:main"\nengine-admin = "engine.admin:main"\n'),
        "engine/__init__.py": "",
        "engine/server.py": ('import subprocess\nimport sys\nfrom fastapi import FastAPI\nimport uvicorn\n\napp = FastAPI()\n\n'
                             '@app.post("/generate")\ndef generate():\n    return {}\n\ndef start_runner(port):\n'
                             '    return subprocess.Popen([sys.executable, "-m", "engine.runner", "--port", str(port)])\n\n'
                             'def main():\n    uvicorn.run(app)\n'),
        "engine/runner.py": ('from http.server import HTTPServer, BaseHTTPRequestHandler\n\ndef main():\n'
                             '    HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler).serve_forever()\n\n'
                             'if __name__ == "__main__":\n    main()\n'),
        "engine/admin.py": 'import sqlite3\n\ndef main():\n    sqlite3.connect("engine.db").execute("VACUUM")\n',
    }
    model = resolve_files({"engine": files})
    assert services(model) == {"engine", "runner"}
    spawn = model.connections[("engine", "runner", "process")]
    assert spawn.kind == "spawns" and spawn.attributes["via"] == "starts 'engine.runner'"
    assert {(e.path, e.line) for e in spawn.evidence} == {("engine/server.py", 13)}
    assert {(e.path, e.line) for e in model.components["runner"].evidence} == {("engine/runner.py", 6)}
    assert {ep.path for ep in model.components["engine"].ports["http"].endpoints} == {"/generate"}


def test_procfile_web_and_worker_are_processes() -> None:
    files = {
        "requirements.txt": "flask\ncelery\n",
        "Procfile": "web: gunicorn app.web:app\nworker: celery -A app.jobs worker\nrelease: python manage.py migrate\n",
        "manage.py": 'import sys\n\nif __name__ == "__main__":\n    print(sys.argv)\n',
        "app/__init__.py": "",
        "app/web.py": 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/send")\ndef send():\n    return "ok"\n',
        "app/jobs.py": 'from celery import Celery\ncelery = Celery("app", broker="redis://redis:6379/0")\n',
    }
    model = resolve_files({"mailer": files})
    assert services(model) == {"web", "worker"}
    assert {(e.path, e.line) for e in model.components["worker"].evidence} == {("Procfile", 2)}
    assert {ep.path for ep in model.components["web"].ports["http"].endpoints} == {"/send"}
    assert model.components["mailer"].kind == "library"  # the code both run


def test_python_cli_subcommands_that_start_servers_are_roles_linked_by_calls_and_spawns() -> None:
    files = {
        "pyproject.toml": '[project]\nname = "shop"\nversion = "1"\n\n[project.scripts]\nshop = "shop.cli:cli"\n',
        "shop/__init__.py": "",
        "shop/cli.py": ('import subprocess\nimport sys\n\nimport click\nimport requests\nfrom shop.worker import run_worker\n\n\n'
                        '@click.group()\ndef cli():\n    pass\n\n\n'
                        '@cli.command()\ndef serve():\n    from shop.api import app\n    app.main()\n\n\n'
                        '@cli.command("worker")\ndef worker_cmd():\n    run_worker()\n\n\n'
                        '@cli.command("list")\ndef list_orders():\n    print(requests.get("http://127.0.0.1:8000/orders").json())\n\n\n'
                        '@cli.command()\ndef up():\n    subprocess.Popen([sys.executable, "-m", "shop", "worker"])\n'),
        "shop/api.py": ('import uvicorn\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/orders")\ndef orders():\n'
                        '    return []\n\n\ndef main():\n    uvicorn.run(app, port=8000)\n'),
        "shop/worker.py": ('from kafka import KafkaConsumer\n\n\ndef run_worker():\n'
                           '    for m in KafkaConsumer("orders", bootstrap_servers="kafka:9092"):\n        print(m)\n'),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"shop", "shop-serve", "shop-worker"}
    serve = model.components["shop-serve"]
    assert serve.attributes["command"] == "serve" and {(e.path, e.line) for e in serve.evidence} == {("shop/cli.py", 14)}
    assert {ep.path for ep in serve.ports["http"].endpoints} == {"/orders"}
    assert ("shop-worker", "kafka") in edge_set(model)
    call = model.connections[("shop", "shop-serve", "http")]  # `shop list` calls the server
    assert {(e.path, e.line) for e in call.evidence} == {("shop/cli.py", 27)}
    spawn = model.connections[("shop", "shop-worker", "process")]  # `shop up` starts `shop worker`
    assert spawn.attributes["via"] == "starts the 'worker' subcommand"
    assert {(e.path, e.line) for e in spawn.evidence} == {("shop/cli.py", 32)}


RELAY = {
    "package.json": ('{\n  "name": "relay",\n  "bin": {\n    "relay": "./dist/cli.js"\n  },\n  "scripts": {\n'
                     '    "start": "node dist/server.js",\n    "start:worker": "node dist/worker.js",\n'
                     '    "build": "tsc",\n    "test": "jest",\n    "seed": "ts-node scripts/seed.ts"\n  },\n'
                     '  "dependencies": {\n    "express": "4"\n  }\n}\n'),
    "src/cli.ts": ('import axios from "axios";\nexport async function main() {\n'
                   '  const r = await axios.get("http://localhost:3000/api/jobs");\n  console.log(r.data);\n}\nmain();\n'),
    "src/server.ts": ('import express from "express";\nimport { fork } from "child_process";\nimport { queue } from "./queue";\n'
                      'const app = express();\napp.get("/api/jobs", (req, res) => res.json(queue));\napp.listen(3000);\n'
                      'fork("./dist/worker.js");\n'),
    "src/worker.ts": ('import { queue } from "./queue";\nimport { Worker } from "bullmq";\n'
                      'const w = new Worker("jobs", async job => { queue.push(job); });\n'),
    "src/queue.ts": "export const queue: unknown[] = [];\n",
    "scripts/seed.ts": 'import { queue } from "../src/queue";\nqueue.push(1);\n',
}


def test_js_bin_entry_and_start_scripts_that_serve_different_things_are_processes() -> None:
    model = resolve_files({"relay": RELAY})
    assert services(model) == {"relay", "relay-server", "worker"}
    assert {(e.path, e.line) for e in model.components["worker"].evidence} == {("package.json", 8)}
    assert {ep.path for ep in model.components["relay-server"].ports["http"].endpoints} == {"/api/jobs"}
    call = model.connections[("relay", "relay-server", "http")]  # the bin CLI calls the server's API
    assert call.attributes["endpoints"] == "GET /api/jobs"
    assert {(e.path, e.line) for e in call.evidence} == {("src/cli.ts", 3)}


def test_js_child_process_fork_of_another_program_is_spawns() -> None:
    model = resolve_files({"relay": RELAY})
    spawn = model.connections[("relay-server", "worker", "process")]
    assert spawn.kind == "spawns" and {(e.path, e.line) for e in spawn.evidence} == {("src/server.ts", 7)}


def test_one_server_with_an_admin_cli_stays_one_component() -> None:
    files = {
        "pyproject.toml": ('[project]\nname = "notes"\nversion = "1"\n\n[project.scripts]\n'
                           'notes = "notes.main:run"\nnotes-admin = "notes.admin:main"\nnotes-dev = "notes.dev:main"\n'),
        "notes/__init__.py": "",
        "notes/main.py": ('from flask import Flask\napp = Flask(__name__)\n\n@app.route("/notes")\ndef notes():\n'
                          '    return []\n\ndef run():\n    app.run(port=5000)\n'),
        "notes/dev.py": "from notes.main import app\n\ndef main():\n    app.run(debug=True)\n",
        "notes/admin.py": 'import sqlite3\n\ndef main():\n    sqlite3.connect("notes.db").execute("VACUUM")\n',
    }
    model = resolve_files({"notes": files})
    assert services(model) == {"notes"}
    assert "processes" not in model.components["notes"].attributes


def test_start_and_dev_scripts_of_one_server_are_one_process() -> None:
    files = {
        "package.json": ('{\n  "name": "api",\n  "scripts": {\n    "start": "node dist/server.js",\n'
                         '    "dev": "nodemon src/server.ts",\n    "migrate": "node dist/migrate.js"\n  }\n}\n'),
        "src/server.ts": 'import express from "express";\nconst app = express();\napp.get("/x", h);\napp.listen(3000);\n',
        "src/migrate.ts": 'import { Pool } from "pg";\nnew Pool().query("select 1");\n',
    }
    model = resolve_files({"api": files})
    assert services(model) == {"api"}


def test_manifests_and_deployments_declare_programs_with_their_lines() -> None:
    from repomodeler.extract.descriptors import extract_descriptor

    def programs(path: str, text: str) -> set[tuple[str, int, tuple]]:
        facts, warnings = extract_descriptor("r", path, text.encode())
        assert not warnings
        return {(f.kind, f.line, f.attrs) for f in facts if f.kind.startswith("program.")}

    assert programs("setup.cfg", "[metadata]\nname = x\n\n[options.entry_points]\nconsole_scripts =\n"
                                 "    x-serve = x.server:main\n") == {
        ("program.entry", 6, (("name", "x-serve"), ("source", "console_scripts"), ("target", "x.server:main")))}
    assert programs("setup.py", 'setup(\n    entry_points={\n        "console_scripts": ["x = x.cli:run"],\n    },\n)\n') == {
        ("program.entry", 3, (("name", "x"), ("source", "console_scripts"), ("target", "x.cli:run")))}
    assert programs("pyproject.toml", '[tool.poetry]\nname = "x"\n\n[tool.poetry.scripts]\nx-worker = "x.worker:main"\n') == {
        ("program.entry", 5, (("name", "x-worker"), ("source", "console_scripts"), ("target", "x.worker:main")))}
    assert programs("Procfile", "web: gunicorn x.wsgi\nworker: celery -A x worker\n") == {
        ("program.command", 1, (("command", "gunicorn x.wsgi"), ("owner", "web"), ("source", "procfile"))),
        ("program.command", 2, (("command", "celery -A x worker"), ("owner", "worker"), ("source", "procfile")))}
    compose = ('services:\n  api:\n    build: ./api\n    entrypoint: ["python3", "-m", "x.api"]\n'
               '    command: ["--port", "80"]\n')
    assert programs("docker-compose.yml", compose) == {
        ("program.command", 4, (("command", "python3 -m x.api --port 80"), ("context", "./api"), ("owner", "api"),
                                ("source", "compose")))}
    package = '{\n  "name": "x",\n  "bin": "./cli.js",\n  "scripts": {\n    "start": "node server.js",\n    "lint": "eslint ."\n  }\n}\n'
    assert programs("package.json", package) == {
        ("program.entry", 3, (("name", "x"), ("source", "bin"), ("target", "./cli.js"))),
        ("program.command", 5, (("command", "node server.js"), ("owner", "start"), ("source", "npm-script")))}


def test_compose_services_sharing_one_build_context_each_get_the_code_their_command_runs() -> None:
    files = {
        "docker-compose.yml": ("services:\n  web:\n    build: ./project\n    command: uvicorn main:app --host 0.0.0.0\n"
                               "    ports:\n      - 8004:8000\n    environment:\n      - BROKER=redis://redis:6379/0\n"
                               "  consumer:\n    build: ./project\n    command: celery -A worker.celery worker\n"
                               "  redis:\n    image: redis:7\n"),
        "project/Dockerfile": "FROM python:3.12\nCOPY . .\n",
        "project/requirements.txt": "fastapi\ncelery\n",
        "project/main.py": ('from fastapi import FastAPI\nfrom worker import create_task\n\napp = FastAPI()\n\n\n'
                            '@app.post("/tasks")\ndef run_task():\n    create_task.delay()\n'),
        "project/worker.py": ('import os\nfrom celery import Celery\n\ncelery = Celery(__name__, broker=os.environ.get("BROKER"))\n\n\n'
                              '@celery.task\ndef create_task():\n    return True\n'),
    }
    model = resolve_files({"tasks": files})
    assert services(model) == {"web", "consumer"}
    assert {ep.path for ep in model.components["web"].ports["http"].endpoints} == {"/tasks"}
    assert "http" not in model.components["consumer"].ports  # it shares the folder, not the server
    assert not any(c.attributes.get("part_of") for c in model.components.values())  # deployed siblings, not processes


def test_makefile_recipes_that_start_servers_are_processes_even_one_named_user() -> None:
    """`make launch` starts each Flask service in the background; the users service calls the
    bookings service on its loopback port.  A process named `user` is not the people-and-clients
    actor (which keeps that name)."""
    flask = ('from flask import Flask\nimport requests\napp = Flask(__name__)\n\n@app.route("/{r}")\n'
             'def {r}():\n    return "[]"\n\nif __name__ == "__main__":\n    app.run(port={port})\n')
    files = {
        "setup.py": "from setuptools import setup\nsetup(name='cinema')\n",
        "services/__init__.py": "",
        "services/bookings.py": flask.format(r="bookings", port=5003),
        "services/user.py": flask.format(r="users", port=5000).replace(
            'return "[]"', 'return requests.get("http://127.0.0.1:5003/bookings").text'),
        "makefile": ("test:\n\tpython -m pytest tests\n\nlaunch:\n"
                     "\t. venv/bin/activate; python services/bookings.py &\n"
                     "\t. venv/bin/activate; python services/user.py &\n"),
    }
    model = resolve_files({"cinema": files})
    comps = {c.id: c for c in model.components.values()}
    assert comps["bookings"].kind == "service" and comps["user"].kind == "user"
    user_service = next(c for c in comps.values() if c.name == "user" and c.kind == "service")
    assert ("makefile", 6) in {(e.path, e.line) for e in user_service.evidence}
    call = next(c for c in model.connections.values() if (c.source, c.target) == (user_service.id, "bookings"))
    assert ("services/user.py", 7) in {(e.path, e.line) for e in call.evidence}


def test_parallel_runners_name_each_command_they_start() -> None:
    from repomodeler.graph.scripts import parallel_commands
    assert parallel_commands(["concurrently", "-n", "api,jobs", "-c", "blue,green", "node api.js", "npm:start:jobs"]) == [
        ("api", "node api.js"), ("jobs", "npm run start:jobs")]
    assert parallel_commands(["npx", "concurrently", "--kill-others", "yarn:web", "yarn:worker"]) == [
        ("", "npm run web"), ("", "npm run worker")]
    assert parallel_commands(["run-p", "start:*"]) == [("", "npm run start:*")]
    assert parallel_commands(["npm-run-all", "--parallel", "api", "worker"]) == [("", "npm run api"), ("", "npm run worker")]
    assert parallel_commands(["yarn", "start"]) is None and parallel_commands(["node", "server.js"]) is None


def test_run_p_glob_over_start_scripts_starts_each_file_in_the_folder_it_cds_to() -> None:
    """`run-p start:*` (npm-run-all) starts every start:* script; a script that cds into a folder runs
    that folder's file, so the worker's queue link is the worker's, not the API's."""
    repo = {
        "package.json": ('{"name": "board", "scripts": {"start": "run-p start:*", "start:api": "node server.js",\n'
                         ' "start:jobs": "cd jobs && node main.js"}, "dependencies": {"express": "4", "amqplib": "0.10"}}\n'),
        "server.js": 'const express = require("express");\nconst app = express();\napp.get("/boards", (q, r) => r.json([]));\napp.listen(8080);\n',
        "jobs/main.js": ('const amqp = require("amqplib");\nasync function main() {\n'
                         '  const conn = await amqp.connect("amqp://rabbitmq:5672");\n  const ch = await conn.createChannel();\n'
                         '  await ch.consume("card-events", (m) => console.log(m));\n}\nmain();\n'),
        "Dockerfile": 'FROM node:20\nCOPY . .\nCMD ["npm", "start"]\n',
    }
    model = resolve_files({"board": repo})
    assert "jobs" in services(model)
    assert ("jobs", "rabbitmq") in edge_set(model) and ("board", "rabbitmq") not in edge_set(model)


def test_workspace_selectors_name_a_package_and_its_script() -> None:
    from repomodeler.graph.scripts import workspace_script
    assert workspace_script(["yarn", "workspace", "@acme/web", "start"]) == ("@acme/web", "start")
    assert workspace_script(["dotenv", "--", "yarn", "workspace", "@acme/worker", "run", "start"]) == ("@acme/worker", "start")
    assert workspace_script(["npm", "run", "start", "-w", "api"]) == ("api", "start")
    assert workspace_script(["npm", "--workspace=api", "start"]) == ("api", "start")
    assert workspace_script(["pnpm", "--filter", "jobs", "dev"]) == ("jobs", "dev")
    assert workspace_script(["yarn", "start"]) is None and workspace_script(["npm", "run", "build"]) is None


def test_framework_server_script_is_a_program_only_where_another_command_runs_it() -> None:
    """`"start": "nuxt start"` in a front end the Python server serves as built files is development
    tooling: the package alone does not make it a process of the image (only a runner naming it does)."""
    from repomodeler.extract.readers.npm import read_package_json
    facts = read_package_json("r", "frontend/package.json",
                              '{"name": "ui", "scripts": {"start": "nuxt start", "serve": "node server.js"}}\n')
    by_owner = {f.get("owner"): f for f in facts if f.kind == "program.command"}
    assert by_owner["start"].get("when_named") == "true" and by_owner["serve"].get("when_named") is None


def test_shell_branches_and_timeouts_start_the_program_they_wrap() -> None:
    from repomodeler.graph.scripts import Launch, parse_launch, split_command
    line = ("node /app/validate-env.mjs && if command -v timeout >/dev/null 2>&1; then timeout 300 node "
            "packages/db/dist/migrate.js; else node packages/db/dist/migrate.js; fi")
    launches = [parse_launch(w) for w in split_command(line)]
    assert Launch("file", "packages/db/dist/migrate.js") in launches
    assert launches.count(Launch("file", "packages/db/dist/migrate.js")) == 2
