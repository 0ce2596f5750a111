"""A small organisation of git repositories for the landscape tests (built locally, never downloaded)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import make_repo

PAY_API = {
    "app/main.py": (
        '"""Payments API."""\nimport os\n\nimport pika\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n'
        '@app.post("/payments")\ndef pay(p: dict):\n'
        '    channel = pika.BlockingConnection(pika.URLParameters(os.getenv("AMQP_URL"))).channel()\n'
        '    channel.basic_publish(exchange="", routing_key="payments.done", body=str(p))\n    return p\n'),
    "app/__init__.py": "",
    "requirements.txt": "fastapi==0.110.0\npika==1.3.2\n",
    "Dockerfile": 'FROM python:3.12-slim\nCOPY . /app\nCMD ["uvicorn", "app.main:app"]\n',
    "docker-compose.yml": ("services:\n  pay-api:\n    build: .\n    environment:\n"
                           "      LEDGER_URL: http://ledger-api:8080\n"
                           "      AMQP_URL: amqp://guest:guest@rabbitmq:5672/\n"
                           "  rabbitmq:\n    image: rabbitmq:3-management\n"),
}
PAY_LIB = {
    "package.json": json.dumps({"name": "@acme/pay-lib", "version": "1.0.0", "main": "src/index.js"}, indent=2) + "\n",
    "src/index.js": "exports.cents = (x) => Math.round(x * 100);\n",
}
LEDGER_API = {
    "main.go": ('package main\n\nimport "net/http"\n\nfunc entries(w http.ResponseWriter, r *http.Request) {\n'
                '\tw.Write([]byte("[]"))\n}\n\nfunc main() {\n\thttp.HandleFunc("GET /entries", entries)\n'
                '\thttp.ListenAndServe(":8080", nil)\n}\n'),
    "go.mod": "module github.com/acme/ledger-api\n\ngo 1.22\n",
    "Dockerfile": 'FROM golang:1.22\nCOPY . /src\nRUN go build -o /svc .\nCMD ["/svc"]\n',
}
LEDGER_WORKER = {
    "worker.py": ('"""Books payments."""\nimport os\n\nimport pika\n\n\ndef handle(ch, method, properties, body):\n'
                  '    pass\n\n\ndef main():\n'
                  '    channel = pika.BlockingConnection(pika.URLParameters(os.getenv("AMQP_URL"))).channel()\n'
                  '    channel.basic_consume(queue="payments.done", on_message_callback=handle)\n'
                  '    channel.start_consuming()\n\n\nif __name__ == "__main__":\n    main()\n'),
    "package.json": json.dumps({"name": "ledger-worker", "version": "1.0.0", "main": "index.js",
                                "scripts": {"start": "node index.js"},
                                "dependencies": {"@acme/pay-lib": "^1.0.0"}}, indent=2) + "\n",
    "index.js": 'const { cents } = require("@acme/pay-lib");\nconsole.log(cents(1));\n',
    "docker-compose.yml": ("services:\n  ledger-worker:\n    build: .\n    command: python worker.py\n"
                           "    environment:\n      AMQP_URL: amqp://guest:guest@rabbitmq:5672/\n"
                           "  rabbitmq:\n    image: rabbitmq:3-management\n"),
}
REPOS = {"pay-api": PAY_API, "pay-lib": PAY_LIB, "ledger-api": LEDGER_API, "ledger-worker": LEDGER_WORKER}


def make_org(root: Path) -> dict[str, Path]:
    """The four repositories under root/org; returns name -> path."""
    paths = {}
    for name, files in REPOS.items():
        paths[name] = root / "org" / name
        make_repo(paths[name], files)
    return paths


def inputs_yaml(root: Path, paths: dict[str, Path], extra: list[str] = ()) -> Path:  # type: ignore[assignment]
    text = ("systems:\n  payments:\n"
            f"    - {paths['pay-api']}\n    - {paths['pay-lib']}\n"
            "  ledger:\n"
            f"    - {paths['ledger-api']}\n    - {paths['ledger-worker']}\n" + "".join(f"    - {e}\n" for e in extra))
    path = root / "inputs.yml"
    path.write_text(text, encoding="utf-8")
    return path
