"""Names a compose service answers to: hostname, container_name and network aliases, each of which a
URL may name instead of the service (graph/service_names.py, compose.services)."""

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

SERVER = 'const app = require("express")();\napp.get("/items", (q, r) => r.send("[]"));\n'


def _package(name: str) -> str:
    return '{"name": "%s", "main": "server.js", "dependencies": {"express": "^4"}}' % name


def test_hostname_container_name_and_network_alias_all_reach_the_service() -> None:
    compose = """services:
  web:
    build: ./web
    environment:
      - API_URL=https://api.shop.local:5000
      - AUTH_URL=http://auth-box:5001
      - FILES_URL=http://files.shop.internal:9000
  gateway:
    build: ./gateway
    hostname: api.shop.local
  identity:
    build: ./identity
    container_name: auth-box
  files:
    build: ./files
    networks:
      backend:
        aliases: [files.shop.internal]
      default:
"""
    web = ('const app = require("express")();\n'
           'app.get("/", async (q, r) => r.send(await (await fetch(process.env.API_URL + "/items")).text()));\n')
    repos = {"shop": {"docker-compose.yml": compose, "web/package.json": _package("web"), "web/server.js": web,
                      **{f"{n}/package.json": _package(n) for n in ("gateway", "identity", "files")},
                      **{f"{n}/server.js": SERVER for n in ("gateway", "identity", "files")}}}
    model = resolve_system("shop", extract_in_memory(repos))
    assert {"web", "gateway", "identity", "files"} <= set(model.components)
    assert not {"api.shop.local", "auth-box", "files.shop.internal"} & set(model.components)  # no external hosts
    links = {(s, t) for s, t, _p in model.connections}
    assert {("web", "gateway"), ("web", "identity"), ("web", "files")} <= links
    # the alias's own line is evidence of the component
    assert any(e.path == "docker-compose.yml" and e.line == 18 for e in model.components["files"].evidence)
