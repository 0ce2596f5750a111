"""A repository publishing one image often keeps no compose file: its README prints one for users to
copy.  That block is the deployment (its services, links and lines); beside real deployment files a
printed snippet only illustrates them and adds nothing."""

import pytest

from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory

README = """# notes-docker

Run it with SQLite:

```
docker run -p 80:80 acme/notes
```

## Docker Compose

An example of a complete setup:

```yaml
version: '3'
services:
  notes:
    image: acme/notes
    environment:
      - DATABASE_HOST=db
      - REDIS_HOST=redis
    ports:
      - "80:80"
    depends_on:
      - db
      - redis
  db:
    image: mariadb
  redis:
    image: redis:alpine
```

With PostgreSQL instead:

```yaml
services:
  postgres:
    image: postgres:16
```
"""

DOCKERFILE = "FROM php:8-fpm\nCOPY root /\nCMD [\"/entrypoint.sh\"]\n"


def _edges(model) -> set[tuple[str, str]]:
    return {(c.source, c.target) for c in model.connections.values()}


def test_printed_compose_is_the_deployment_of_a_repository_without_one() -> None:
    model = resolve_system("notes", extract_in_memory({"notes": {"README.md": README, "Dockerfile": DOCKERFILE}}))
    assert {"notes", "db", "redis"} <= set(model.components)
    assert "postgres" not in model.components  # a later block is a variation, not read
    assert {("notes", "db"), ("notes", "redis")} <= _edges(model)
    line = README.split("\n").index("  db:") + 1
    assert ("README.md", line) in {(ev.path, ev.line) for ev in model.components["db"].evidence}


BESIDE = {
    "a compose file": ("docker-compose.yml", "services:\n  app:\n    build: .\n    environment:\n      CACHE: memcached\n"
                                             "  memcached:\n    image: memcached:1.6\n", "memcached"),
    "Kubernetes manifests": ("k8s/app.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: notes-web\nspec:\n"
                                             "  template:\n    spec:\n      containers:\n      - name: web\n"
                                             "        image: acme/notes:1\n", "notes-web"),
}


@pytest.mark.parametrize("beside", sorted(BESIDE))
def test_printed_compose_beside_deployment_files_adds_nothing(beside: str) -> None:
    path, text, kept = BESIDE[beside]
    files = {"README.md": README, "Dockerfile": DOCKERFILE, path: text}
    model = resolve_system("notes", extract_in_memory({"notes": files}))
    assert kept in model.components
    assert not {"db", "redis"} & set(model.components)
