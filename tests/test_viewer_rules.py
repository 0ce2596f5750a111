"""The details panel's "How it was resolved", in Debian's chromium, on a hand-made model.json
where every component and connection names the rules that made it (`rules`: rule ids) and the
model carries the catalogue of those rules (top-level `rules`: [{id, message}]): the panel shows
each rule id with its message, for a component and for a connection, from the server and from a
published site. Elements without `rules` keep today's display: the resolver's steps for a
connection, the pass and patterns in the attributes table, no section for a component."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, open_explorer, wait_until  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, new_page

from repomodeler.serve.background import background_server
from repomodeler.serve.publish import publish_site

pytestmark = [pytest.mark.browser]

CATALOGUE = [
    {"id": "compose.service", "message": "A docker-compose service is a component"},
    {"id": "http.env-url", "message": "An HTTP client whose base URL comes from a setting reaches the service the setting names"},
    {"id": "compose.depends_on", "message": "depends_on between compose services"},
]


def _ev(path: str, line: int = 1) -> list[dict[str, Any]]:
    return [{"repository": "shop", "path": path, "line": line}]


def rules_model() -> dict[str, Any]:
    nodes = [
        {"id": "orders", "name": "orders", "kind": "service", "repository": "shop", "language": "python",
         "evidence": _ev("docker-compose.yml", 3), "attributes": {"resolved_by": "compose"},
         "rules": ["compose.service", "compose.service", "java.unknown-rule"]},
        {"id": "payments", "name": "payments", "kind": "service", "repository": "shop", "language": "go",
         "evidence": _ev("docker-compose.yml", 9), "attributes": {"resolved_by": "compose"}, "rules": ["compose.service"]},
        # made before rules were recorded: no `rules`, today's display
        {"id": "legacy", "name": "legacy", "kind": "service", "repository": "shop", "language": "python",
         "evidence": _ev("legacy/app.py"), "attributes": {"resolved_by": "services", "patterns": "python/services.scm:4"}},
    ]
    edges = [
        {"id": "orders->payments:http", "source": "orders", "target": "payments", "kind": "calls", "protocol": "http",
         "evidence": _ev("orders/client.py", 12), "attributes": {"via": "env PAYMENTS_URL", "resolved_by": "http"},
         "rules": ["http.env-url"]},
        {"id": "legacy->payments:http", "source": "legacy", "target": "payments", "kind": "calls", "protocol": "http",
         "evidence": _ev("legacy/app.py", 7), "attributes": {"via": "env PAY", "resolved_by": "http", "patterns": "python/http.scm:2"}},
    ]
    return {"schema": "repomodeler/model@1", "name": "ruled",
            "repositories": [{"name": "shop", "url": "https://github.com/acme/shop", "commit": "3" * 40, "ref": "main"}],
            "nodes": nodes, "edges": edges, "unresolved": [], "warnings": [], "stats": {}, "rules": CATALOGUE}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = tmp_path_factory.mktemp("rules") / "models"
    folder = models / "ruled"
    folder.mkdir(parents=True)
    (folder / "model.json").write_text(json.dumps(rules_model()), encoding="utf-8")
    return models


@pytest.fixture(scope="module")
def url(models: Path) -> Iterator[str]:
    with background_server(models) as base:
        yield base


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    # no model.sysml and no checkout: their 404s are the only console errors allowed
    assert not (watch.dialogs or watch.external), vars(watch)
    assert all("404" in e for e in watch.errors), watch.errors


def shown_rules(page: Any) -> list[list[str]]:
    return page.evaluate("Array.from(document.querySelectorAll('#details-body #rules li')).map(li =>"
                         " [li.querySelector('.rule-id').textContent, (li.querySelector('.rule-msg') || {}).textContent || ''])")


def select(page: Any, sel: str, title: str) -> str:
    page.evaluate("sel => explorer.select(sel)", sel)
    wait_until(lambda: page.inner_text("#details-title") == title, what=f"details of {sel}")
    return page.text_content("#details-body")  # as written (the headings are upper-cased by CSS)


def check_rules(page: Any) -> None:
    text = select(page, "n:orders", "orders")
    assert "How it was resolved" in text
    # each rule once, with its message; a rule missing from the catalogue keeps its id
    assert shown_rules(page) == [["compose.service", "A docker-compose service is a component"], ["java.unknown-rule", ""]]
    text = select(page, "e:orders->payments:http", "orders → payments")
    assert shown_rules(page) == [["http.env-url", CATALOGUE[1]["message"]]]
    assert "http.env-url" in text and CATALOGUE[1]["message"] in text
    assert "to the address in the setting PAYMENTS_URL" in text  # the resolver's steps stay below the rules


def test_rules_and_their_messages_in_how_it_was_resolved(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/ruled")
    check_rules(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "rules-edge.png"))
    # without `rules`: no section for a component, the steps for a connection, the attributes as before
    text = select(page, "n:legacy", "legacy")
    assert "How it was resolved" not in text and shown_rules(page) == []
    assert "python/services.scm:4" in text and "services" in text
    text = select(page, "e:legacy->payments:http", "legacy → payments")
    assert "How it was resolved" in text and "to the address in the setting PAY" in text and shown_rules(page) == []
    assert "python/http.scm:2" in text


def test_rules_on_the_published_site(desk: Any, models: Path, tmp_path: Path) -> None:
    page = desk
    publish_site(models, tmp_path / "site")
    open_explorer(page, (tmp_path / "site" / "models" / "ruled.html").as_uri())
    check_rules(page)
