"""OpenAPI clients of servers in other repositories: generated clients named after the server's
document, and HTTP calls whose host resolves to the server and whose paths its document lists."""

from __future__ import annotations

import json
from pathlib import Path

from repomodeler.landscape.inputs import read_inputs_file
from repomodeler.landscape.run import LandscapeOptions, analyze_landscape
from repomodeler.landscape.signature import route_key, spec_keys
from tests.conftest import make_repo

PAYMENTS_SPEC = """openapi: 3.0.3
info:
  title: Payments API
  version: 1.0.0
paths:
  /payments:
    post:
      responses:
        "201":
          description: created
  /payments/{id}:
    get:
      responses:
        "200":
          description: ok
"""
PAYMENTS_API = {
    "openapi.yaml": PAYMENTS_SPEC,
    "app/main.py": ('"""Payments API."""\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n'
                    '@app.post("/payments")\ndef pay(p: dict):\n    return p\n\n\n'
                    '@app.get("/payments/{pid}")\ndef one(pid: str):\n    return {"id": pid}\n'),
    "requirements.txt": "fastapi==0.110.0\n",
    "Dockerfile": 'FROM python:3.12-slim\nCOPY . /app\nCMD ["uvicorn", "app.main:app"]\n',
}
LEDGER_API = {
    "api/openapi.yaml": ("openapi: 3.0.3\ninfo:\n  title: Ledger\n  version: '1'\npaths:\n  /entries:\n    get:\n"
                         "      responses:\n        '200':\n          description: ok\n"),
    "main.go": ('package main\n\nimport "net/http"\n\nfunc entries(w http.ResponseWriter, r *http.Request) {}\n\n'
                'func main() {\n\thttp.HandleFunc("GET /entries", entries)\n\thttp.ListenAndServe(":8080", nil)\n}\n'),
    "go.mod": "module github.com/acme/ledger-api\n\ngo 1.22\n",
    "Dockerfile": 'FROM golang:1.22\nCOPY . /src\nRUN go build -o /svc .\nCMD ["/svc"]\n',
}
SHOP_WEB = {
    "client.py": ('import os\n\nimport requests\n\nPAYMENTS_URL = os.getenv("PAYMENTS_URL", "http://payments-api:8080")\n'
                  '\n\ndef fetch(pid):\n    return requests.get(f"{PAYMENTS_URL}/payments/{pid}").json()\n\n\n'
                  'def pay(body):\n    return requests.post(PAYMENTS_URL + "/payments", json=body)\n\n\n'
                  'def refund(pid):\n    return requests.post(f"{PAYMENTS_URL}/refunds/{pid}")\n'),
    "package.json": json.dumps({"name": "shop-web", "version": "1.0.0", "scripts": {
        "gen": "openapi-generator-cli generate -i ../payments-api/openapi.yaml -g typescript-fetch -o src/gen"}},
        indent=2) + "\n",
    # a client generated from the ledger's document, fetched from its repository on GitHub
    "openapitools.json": json.dumps({"generator-cli": {"version": "7.4.0", "generators": {"ledger": {
        "generatorName": "python", "output": "gen/ledger",
        "inputSpec": "https://raw.githubusercontent.com/acme/ledger-api/main/api/openapi.yaml"}}}}, indent=2) + "\n",
    "Dockerfile": 'FROM python:3.12-slim\nCOPY . /app\nCMD ["python", "client.py"]\n',
}


def _landscape(tmp_path: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    org = tmp_path / "org"
    for name, files in {"payments-api": PAYMENTS_API, "ledger-api": LEDGER_API, "shop-web": SHOP_WEB}.items():
        make_repo(org / name, files)
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"[payments]\n{org / 'payments-api'}\n[ledger]\n{org / 'ledger-api'}\n[shop]\n{org / 'shop-web'}\n")
    out = tmp_path / "models"
    result = analyze_landscape(read_inputs_file(listing), LandscapeOptions(name="acme", out=out, jobs=1, validate=False,
                                                                          store_dir=tmp_path / "store"))
    assert result.failures == []
    return {e["id"]: e for e in json.loads((out / "landscape.json").read_text())["edges"]}


def test_openapi_clients_of_servers_in_other_repositories(tmp_path: Path) -> None:
    edges = _landscape(tmp_path)
    pay = edges["shop/shop-web->payments/payments-api:http"]
    assert pay["kind"] == "calls"
    attrs = pay["attributes"]
    assert attrs["openapi"] == "payments-api:openapi.yaml"  # the generated client's document
    assert attrs["operations"] == "GET /payments/{}, POST /payments"  # the calls its document lists
    assert attrs["via"] == "host payments-api"
    evidence = {(e["repository"], e["path"], e["line"]) for e in pay["evidence"]}
    assert {("shop-web", "package.json", 5),  # the generator's command naming the document
            ("shop-web", "client.py", 9), ("shop-web", "client.py", 13),  # the two calls
            ("payments-api", "openapi.yaml", 6), ("payments-api", "openapi.yaml", 11),  # the operations
            ("payments-api", "openapi.yaml", 1)} <= evidence  # the document
    assert not any(e[2] == 17 for e in evidence if e[1] == "client.py")  # /refunds is no operation of it
    ledger = edges["shop/shop-web->ledger/ledger-api:http"]  # no call, only a client of its document
    assert ledger["attributes"] == {"openapi": "ledger-api:api/openapi.yaml"}
    assert {(e["repository"], e["path"], e["line"]) for e in ledger["evidence"]} == {
        ("shop-web", "openapitools.json", 8), ("ledger-api", "api/openapi.yaml", 1)}


def test_operation_paths_alone_link_nothing(tmp_path: Path) -> None:
    """A call to /payments whose host resolves nowhere is no link, however well its path matches."""
    org = tmp_path / "org"
    make_repo(org / "payments-api", PAYMENTS_API)
    make_repo(org / "stranger", {"c.py": ('import requests\n\n\ndef f(base):\n'
                                          '    return requests.get(base + "/payments")\n')})
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"[payments]\n{org / 'payments-api'}\n[other]\n{org / 'stranger'}\n")
    out = tmp_path / "models"
    analyze_landscape(read_inputs_file(listing), LandscapeOptions(out=out, jobs=1, validate=False,
                                                                  store_dir=tmp_path / "store"))
    assert json.loads((out / "landscape.json").read_text())["edges"] == []


def test_route_and_spec_keys() -> None:
    assert route_key("get", "/payments/{id}") == route_key("GET", "/payments/${pid}") == "GET /payments/{}"
    assert route_key("", "/orders/:id/items/?x=1") == "ANY /orders/{}/items"
    assert spec_keys("../payments-api/openapi.yaml") == ["payments-api/openapi.yaml"]
    assert spec_keys("https://raw.githubusercontent.com/acme/Ledger-API/main/api/openapi.yaml") == \
        ["ledger-api/api/openapi.yaml"]
    assert spec_keys("https://github.com/acme/ledger-api/blob/main/api/openapi.yaml") == ["ledger-api/api/openapi.yaml"]
    assert spec_keys("https://gitlab.com/acme/ledger-api/-/raw/main/api/openapi.yaml") == ["ledger-api/api/openapi.yaml"]
    assert spec_keys("http://payments-api:8080/openapi.json") == ["payments-api/*"]


def test_generator_configurations_name_their_documents() -> None:
    from repomodeler.extract.readers.openapi import read_openapi_clients

    def specs(path: str, text: str) -> list[tuple[str, int, str]]:
        return [(f.get("spec") or "", f.line, f.get("generator") or "") for f in read_openapi_clients("r", path, text)]

    nswag = json.dumps({"runtime": "Net80", "documentGenerator": {"fromDocument": {
        "url": "http://payments-api:8080/swagger/v1/swagger.json"}}, "codeGenerators": {}}, indent=2)
    assert specs("src/Client/payments.nswag", nswag) == [("http://payments-api:8080/swagger/v1/swagger.json", 5, "nswag")]
    scripts = json.dumps({"name": "x", "scripts": {
        "a": "swagger-codegen generate -i specs/orders.yaml -l typescript-angular",
        "b": "openapi-typescript ../ledger-api/api/openapi.yaml -o src/ledger.ts && tsc",
        "c": "openapi-generator-cli generate -i ${SPEC_URL} -g go",  # templated at build time: unknown
        "d": "tsc -p ."}}, indent=2)
    assert specs("package.json", scripts) == [("specs/orders.yaml", 4, "swagger-codegen"),
                                               ("../ledger-api/api/openapi.yaml", 5, "openapi-typescript")]
    assert specs("package.json", json.dumps({"name": "plain", "scripts": {"build": "tsc"}})) == []
