"""Drill-down into components in Debian's chromium, on a hand-made model.json whose components hold
subsystems (nodes of kind `subsystem` with a `parent`): closed, subsystems are folded into their
component and their connections re-routed to it (no duplicates, nothing inside a component);
opened (double-click, the details button, or the URL), they are drawn inside it and the
component-level connections they refine give way to theirs; closing restores the component view;
a search finds subsystems (opening their component while it lasts); selecting a hidden subsystem
opens its component; axe finds no serious violation on the opened view."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, canvas_point, open_explorer, wait_until  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, axe_serious, new_page

from repomodeler.serve.background import background_server
from repomodeler.serve.publish import publish_site

pytestmark = [pytest.mark.browser]


def _ev(name: str, line: int = 1) -> list[dict[str, Any]]:
    return [{"repository": "shop", "path": name.replace("/", "_") + ".py", "line": line}]


def _node(nid: str, kind: str, parent: str | None = None, repo: str = "shop", lang: str = "python", **attrs: str) -> dict[str, Any]:
    node = {"id": nid, "name": nid, "kind": kind, "repository": repo, "language": lang, "evidence": _ev(nid),
            "attributes": attrs, "ports": []}
    if parent:
        node["parent"] = parent
    return node


def _edge(source: str, target: str, protocol: str, kind: str = "calls", **attrs: str) -> dict[str, Any]:
    return {"id": f"{source}->{target}:{protocol}", "source": source, "target": target, "kind": kind, "protocol": protocol,
            "evidence": _ev(source, 3), "attributes": attrs}


def drill_model() -> dict[str, Any]:
    """Two components with subsystems, as the subsystem pass writes them: imports between the
    subsystems of one component, and a component's connections repeated from the subsystem whose
    code makes them."""
    nodes = [
        _node("gateway", "gateway", lang="javascript"),
        _node("orders", "service"),
        _node("orders/api", "subsystem", parent="orders", path="orders/api", endpoints="GET /orders"),
        _node("orders/domain", "subsystem", parent="orders", path="orders/domain"),
        _node("orders/store", "subsystem", parent="orders", path="orders/store"),
        _node("payments", "service", lang="go"),
        _node("payments/api", "subsystem", parent="payments", lang="go", path="payments/api"),
        _node("payments/charge", "subsystem", parent="payments", lang="go", path="payments/charge", doc="card charges"),
        _node("orders-db", "database", repo="", lang=""),
    ]
    edges = [
        _edge("gateway", "orders", "http"),
        _edge("orders", "payments", "http", subsystems="domain"),
        _edge("orders", "orders-db", "sql", kind="uses", subsystems="store"),
        _edge("orders/api", "orders/domain", "import", kind="depends_on"),
        _edge("orders/domain", "orders/store", "import", kind="depends_on"),
        _edge("orders/domain", "payments", "http"),
        _edge("orders/store", "orders-db", "sql", kind="uses"),
        _edge("payments/api", "payments/charge", "import", kind="depends_on"),
    ]
    return {"schema": "repomodeler/model@1", "name": "orders-system",
            "repositories": [{"name": "shop", "url": "https://github.com/acme/shop", "commit": "2" * 40, "ref": "main"}],
            "nodes": nodes, "edges": edges, "unresolved": [], "warnings": [], "stats": {}}


COMPONENT_VIEW = [["n:gateway", "n:orders"], ["n:orders", "n:orders-db"], ["n:orders", "n:payments"]]
ORDERS_OPEN = [["n:gateway", "n:orders"], ["n:orders/api", "n:orders/domain"], ["n:orders/domain", "n:orders/store"],
               ["n:orders/domain", "n:payments"], ["n:orders/store", "n:orders-db"]]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = tmp_path_factory.mktemp("drill") / "models"
    folder = models / "orders-system"
    folder.mkdir(parents=True)
    (folder / "model.json").write_text(json.dumps(drill_model()), encoding="utf-8")
    (folder / "run.json").write_text(json.dumps({"analysed_at": "2026-12-02T10:00:00Z"}), encoding="utf-8")
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
    # the model folder has no model.sysml: its 404 is the only console error allowed
    assert not (watch.dialogs or watch.external), vars(watch)
    assert all("404" in e for e in watch.errors), watch.errors


def drawn_edges(page: Any) -> list[list[str]]:
    return sorted(page.evaluate("cy.edges().filter(e => e.visible()).map(e => [e.source().id(), e.target().id()])"))


def drawn_nodes(page: Any) -> set[str]:
    return set(page.evaluate("cy.nodes('[type = \"node\"]').filter(n => n.visible()).map(n => n.data('mid'))"))


def double_click(page: Any, cy_id: str) -> None:
    page.mouse.dblclick(*canvas_point(page, cy_id))


def test_open_and_close_a_component(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/orders-system")
    # closed: subsystems folded in, their connections re-routed and not doubled
    assert drawn_nodes(page) == {"gateway", "orders", "payments", "orders-db"}
    assert drawn_edges(page) == COMPONENT_VIEW
    assert "5 subsystems" in page.inner_text("#status") and "4 of 4 components" in page.inner_text("#status")
    assert page.evaluate("cy.getElementById('n:orders').hasClass('has-inside')")

    # open by double-click: the subsystems inside, the refined connections instead of the component's
    double_click(page, "n:orders")
    wait_until(lambda: "orders/api" in drawn_nodes(page), what="orders opened")
    assert drawn_nodes(page) == {"gateway", "orders", "orders/api", "orders/domain", "orders/store", "payments", "orders-db"}
    assert page.evaluate("cy.getElementById('n:orders/api').parent().id()") == "n:orders"
    assert page.evaluate("cy.getElementById('n:orders').isParent()")
    assert drawn_edges(page) == ORDERS_OPEN
    assert "open=orders" in page.evaluate("location.hash")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "drill-open.png"))
    # a subsystem's details say where it is; its component lists its subsystems
    page.evaluate("explorer.select('n:orders/domain')")
    wait_until(lambda: page.inner_text("#details-title") == "orders/domain", what="subsystem details")
    assert "in\norders" in page.inner_text("#details .sub") or "in orders" in page.inner_text("#details .sub")
    page.evaluate("explorer.select('n:orders')")
    page.wait_for_selector("#subsystems li")
    assert page.locator("#subsystems li").count() == 3
    assert page.get_attribute("#btn-open", "aria-pressed") == "true"

    # the URL reopens it; closing (details button) restores the component view
    open_explorer(page, page.evaluate("location.href"))
    assert drawn_edges(page) == ORDERS_OPEN
    page.evaluate("explorer.select('n:orders')")
    page.click("#btn-open")
    wait_until(lambda: drawn_edges(page) == COMPONENT_VIEW, what="orders closed")
    assert drawn_nodes(page) == {"gateway", "orders", "payments", "orders-db"} and "open=" not in page.evaluate("location.hash")

    # both open at once; the ports view keeps working with subsystems inside
    open_explorer(page, url + "/models/orders-system#open=orders,payments&view=ports")
    assert {"orders/api", "payments/charge"} <= drawn_nodes(page)
    assert ["n:payments/api", "n:payments/charge"] in drawn_edges(page)


def test_search_finds_subsystems_and_selection_opens_them(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/orders-system")
    page.fill("#search", "card charges")  # a subsystem's own text (its doc)
    wait_until(lambda: "payments/charge" in drawn_nodes(page), what="search opened payments")
    assert drawn_nodes(page) == {"payments", "payments/charge"}
    assert page.evaluate("cy.getElementById('n:payments/charge').parent().id()") == "n:payments"
    page.screenshot(path=str(ARTIFACTS / "drill-search.png"))
    page.fill("#search", "")
    wait_until(lambda: drawn_edges(page) == COMPONENT_VIEW, what="search cleared closes it again")
    # the Components list reaches a subsystem; choosing it opens its component
    page.click("#tab-list")
    page.click("#complist .comp-link:text-is('orders/store')")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:orders/store", what="subsystem selected")
    page.click("#tab-graph")
    wait_until(lambda: "orders/store" in drawn_nodes(page), what="selection opened orders")
    assert page.evaluate("cy.getElementById('n:orders/store').selected()")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_drill_down_axe(browser: Any, url: str, size: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size)
    try:
        open_explorer(page, url + "/models/orders-system#open=orders&sel=n%3Aorders")
        time.sleep(0.3)
        page.screenshot(path=str(ARTIFACTS / f"drill-{size}.png"))
        found = axe_serious(page, url)
        assert not found, found
    finally:
        context.close()
    assert all("404" in e for e in watch.errors), watch.errors


def test_drill_down_on_the_published_site(desk: Any, models: Path, tmp_path: Path) -> None:
    page = desk
    publish_site(models, tmp_path / "site")
    page.goto((tmp_path / "site" / "models" / "orders-system.html").as_uri() + "#open=orders")
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=20_000)
    assert drawn_edges(page) == ORDERS_OPEN
