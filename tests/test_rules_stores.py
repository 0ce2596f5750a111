"""Data stores: what a connection string says about the store it names."""

from __future__ import annotations

from tests.rules_harness import resolve_files


def test_two_databases_on_one_server_are_two_stores_inside_it() -> None:
    files = {
        "docker-compose.yml": (
            "services:\n  mysql:\n    image: mysql:8\n"
            "  orders:\n    build: ./orders\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/orders\n"
            "  users:\n    build: ./users\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/users\n"
            "  audit:\n    build: ./audit\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/users\n"),
        **{f"{s}/Dockerfile": "FROM python:3.12\nCMD python app.py\n" for s in ("orders", "users", "audit")},
        **{f"{s}/app.py": "import os\nURL = os.environ['DB_URL']\n" for s in ("orders", "users", "audit")},
    }
    model = resolve_files({"shop": files})
    assert {c.id for c in model.components.values() if c.kind == "database"} == {"mysql"}
    stores = {p.id: p for p in model.parts.values() if p.kind == "database"}
    assert set(stores) == {"mysql/orders", "mysql/users"}
    assert all(p.parent == "mysql" for p in stores.values())
    links = {(c.source, c.target) for c in model.part_links.values() if c.target in stores}
    assert links == {("orders", "mysql/orders"), ("users", "mysql/users"), ("audit", "mysql/users")}
    line = {(e.path, e.line) for c in model.part_links.values() if c.target == "mysql/orders" for e in c.evidence}
    assert line == {("docker-compose.yml", 7), ("orders/app.py", 2)}  # the value, and the code that reads it
    assert model.connections[("users", "mysql", "sql")].attributes["databases"] == "users"
