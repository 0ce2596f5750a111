"""A development-named settings file (`.env.dev`) that the compose file the repository runs names in
`env_file:` is what Compose hands that service: the inventory reads it as source, from a git commit and
from a plain folder alike; one no compose file names stays a developer's."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import commit_all, git, local_repository
from repomodeler.inventory import InventoryOptions, build_inventory, env_file_refs

COMPOSE = ("services:\n  web:\n    build: ./app\n    env_file:\n      - ./.env.dev\n  worker:\n    build: ./app\n"
           "    env_file: [.env.worker.dev]\n  db:\n    image: postgres:15\n")



@pytest.mark.parametrize("kind", ["git", "dir"])
def test_env_files_the_compose_file_names_are_source(tmp_path: Path, kind: str) -> None:
    root = tmp_path / "hello"
    (root / "app").mkdir(parents=True)
    (root / "docker-compose.yml").write_text(COMPOSE)
    (root / ".env.dev").write_text("SQL_HOST=db\n")
    (root / ".env.test").write_text("SQL_HOST=localhost\n")
    (root / "app" / "manage.py").write_text("import os\n")
    if kind == "git":
        git(root, "init", "-q")
        commit_all(root, "initial")
    roles = {f.path: f.role for f in build_inventory(local_repository(root, kind), InventoryOptions()).files}
    assert roles[".env.dev"] == "source"
    assert roles[".env.test"] == "development"


def test_env_file_refs_forms() -> None:
    assert env_file_refs(COMPOSE) == {"./.env.dev", ".env.worker.dev"}
    assert env_file_refs("services:\n  a:\n    env_file: .env.local\n  b:\n    env_file:\n      - path: ./b.env\n"
                         "        required: false\n    image: x\n") == {".env.local", "./b.env"}
