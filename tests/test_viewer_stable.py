"""A map that holds still, in Debian's chromium (issue 27 point 4, issue 22's viewer): opening and
closing a component happens in place (every other component keeps its position, the zoom stays,
labels stay readable with two components open), turning a comparison on overlays the current
layout, parts are named relative to the component they are drawn in (the full name stays in the
tooltip and the details), and the actor never shares a label with a component. The viewer learns
what is inside what from the server (repomodeler.model.nesting), never from `parent` itself."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, models_dir, open_explorer, wait_until  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, new_page

from repomodeler.serve.background import background_server

pytestmark = [pytest.mark.browser]

ENDPOINTS = [("GET", "/api/accounts"), ("GET", "/api/accounts/{id}"), ("POST", "/api/accounts"), ("GET", "/api/ledger/entries"),
             ("GET", "/api/ledger/{id}"), ("GET", "/health")]
JAVA = ["com.example.account.controller", "com.example.account.service", "com.example.account.repository"]


def _ev(name: str) -> list[dict[str, Any]]:
    return [{"repository": "bank", "path": name.replace("/", "_").replace(".", "_") + ".java", "line": 1}]


def _node(nid: str, kind: str, parent: str | None = None, repo: str = "bank", name: str | None = None) -> dict[str, Any]:
    node: dict[str, Any] = {"id": nid, "name": name or nid, "kind": kind, "repository": repo, "language": "java" if repo else "",
                            "evidence": _ev(nid), "attributes": {}, "ports": []}
    if parent:
        node["parent"] = parent
    return node


def _edge(source: str, target: str, protocol: str, kind: str = "calls") -> dict[str, Any]:
    return {"id": f"{source}->{target}:{protocol}", "source": source, "target": target, "kind": kind,
            "protocol": protocol, "evidence": _ev(source), "attributes": {}}


def bank_model() -> dict[str, Any]:
    """Eight components around two that hold parts: Java packages in account-service, folders in
    ledger; a `user` service beside the actor the resolver also names `user`."""
    nodes = [_node(n, "service") for n in ("gateway", "account-service", "ledger", "user", "notify", "audit", "report")]
    nodes[0]["ports"] = [{"name": "http", "protocol": "http", "direction": "provided", "evidence": _ev("gateway"),
                          "endpoints": [{"method": m, "path": p, "evidence": _ev("gateway")} for m, p in ENDPOINTS]}]
    nodes += [_node("user-actor", "user", repo="", name="user"), _node("bank-db", "database", repo="")]
    nodes += [_node(f"account-service/{p.rsplit('.', 1)[1]}", "subsystem", parent="account-service", name=p) for p in JAVA]
    nodes += [_node(f"ledger/{p}", "subsystem", parent="ledger", name=f"ledger/{p}") for p in ("api", "book", "store", "export")]
    edges = [_edge("user-actor", "gateway", "http"), _edge("gateway", "account-service", "http"), _edge("gateway", "user", "http"),
             _edge("account-service", "ledger", "http"), _edge("ledger", "bank-db", "sql", "uses"), _edge("account-service", "notify", "http"),
             _edge("ledger", "audit", "http"), _edge("report", "ledger", "http"), _edge("user", "bank-db", "sql", "uses"),
             _edge("account-service/controller", "account-service/service", "import", "depends_on"),
             _edge("account-service/service", "account-service/repository", "import", "depends_on"),
             _edge("account-service/service", "ledger", "http"), _edge("ledger/api", "ledger/book", "import", "depends_on"),
             _edge("ledger/store", "bank-db", "sql", "uses")]
    return {"schema": "repomodeler/model@1", "name": "bank",
            "repositories": [{"name": "bank", "url": "https://github.com/acme/bank", "commit": "3" * 40, "ref": "main"}],
            "nodes": nodes, "edges": edges, "unresolved": [], "warnings": [], "stats": {}}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    models = tmp_path_factory.mktemp("stable") / "models"
    (models / "bank").mkdir(parents=True)
    (models / "bank" / "model.json").write_text(json.dumps(bank_model()), encoding="utf-8")
    with background_server(models) as base:
        yield base


@pytest.fixture(params=["desktop", "phone"])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:  # noqa: F811
    context, page, watch = new_page(browser, request.param)
    yield request.param, page
    context.close()
    assert not (watch.dialogs or watch.external), vars(watch)
    assert all("404" in e for e in watch.errors), watch.errors  # the folder has no model.sysml


def positions(page: Any) -> dict[str, tuple[float, float]]:
    """Every drawn component that is not a part and not open: its position on the canvas (model coordinates)."""
    return {k: (round(v[0], 1), round(v[1], 1)) for k, v in page.evaluate(
        "Object.fromEntries(cy.nodes('[type = \"node\"]').filter(n => !n.isParent() && n.visible()).map(n => [n.id(), [n.position('x'), n.position('y')]]))").items()}


def label_px(page: Any) -> float:
    return float(page.evaluate("cy.zoom() * 14"))


def test_expanding_and_collapsing_moves_no_other_component(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/bank")
    before, zoom = positions(page), page.evaluate("cy.zoom()")
    assert "n:account-service" in before and "n:account-service/controller" not in before
    page.evaluate("explorer.toggleOpen('account-service')")
    wait_until(lambda: "n:account-service/controller" in positions(page), what="account-service opened")
    after = positions(page)
    moved = {k: (before[k], after[k]) for k in before if k != "n:account-service" and after.get(k) != before[k]}
    assert not moved, moved
    assert page.evaluate("cy.zoom()") == zoom, "opening keeps the zoom"
    # its parts sit around where it stood
    box = page.evaluate("(() => { const b = cy.getElementById('n:account-service').boundingBox(); return [b.x1, b.x2, b.y1, b.y2]; })()")
    x, y = before["n:account-service"]
    assert box[0] - 1 <= x <= box[1] + 1 and box[2] - 1 <= y <= box[3] + 1, (box, x, y)

    # a second one open: still nothing else moved, labels as large as before
    page.evaluate("explorer.toggleOpen('ledger')")
    wait_until(lambda: "n:ledger/book" in positions(page), what="ledger opened")
    both = positions(page)
    moved = {k: (before[k], both[k]) for k in before if k not in ("n:account-service", "n:ledger") and both.get(k) != before[k]}
    assert not moved, moved
    assert label_px(page) == pytest.approx(14 * zoom) and (size == "phone" or label_px(page) >= 12), label_px(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"stable-two-open-{size}.png"))
    # the canvas shows what was opened
    on_screen = page.evaluate("""(() => { const b = cy.getElementById('n:ledger').renderedBoundingBox();
        return b.x1 >= -1 && b.y1 >= -1 && b.x2 <= cy.width() + 1 && b.y2 <= cy.height() + 1; })()""")
    assert on_screen

    # closing puts each component back where it stood
    page.evaluate("explorer.toggleOpen('ledger')")
    page.evaluate("explorer.toggleOpen('account-service')")
    wait_until(lambda: "n:ledger/book" not in positions(page) and "n:account-service/service" not in positions(page), what="both closed")
    assert positions(page) == before
    assert page.evaluate("explorer.timings.layout") == "kept"


def test_parts_are_named_relative_to_their_component_and_the_actor_apart(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/bank#open=account-service,ledger")
    labels = page.evaluate("Object.fromEntries(cy.nodes('[type = \"node\"]').map(n => [n.data('mid'), n.data('label')]))")
    assert {labels[f"account-service/{p}"] for p in ("controller", "service", "repository")} == {"controller", "service", "repository"}
    assert {labels[f"ledger/{p}"] for p in ("api", "book", "store", "export")} == {"api", "book", "store", "export"}
    assert labels["user"] == "user" and labels["user-actor"] == "user (actor)"
    assert len(set(labels.values())) == len(labels), labels  # no two drawn nodes share a label
    # the full name stays: the tooltip's data and the details title
    assert page.evaluate("cy.getElementById('n:account-service/controller').data('name')") == JAVA[0]
    page.evaluate("explorer.select('n:account-service/controller')")
    wait_until(lambda: page.text_content("#details-title") == JAVA[0], what="full name in the details")


def test_the_viewer_reads_nesting_from_the_server(url: str) -> None:
    import urllib.request

    with urllib.request.urlopen(url + "/api/models/bank/nesting") as r:  # noqa: S310 - the local test server
        placed = json.loads(r.read())
    assert placed["ledger/api"] == {"top": "ledger", "depth": 1, "ancestors": ["ledger"]}
    assert placed["gateway"] == {"top": "gateway", "depth": 0, "ancestors": []}


def test_compare_overlays_the_current_layout(browser: Any, models_dir: Path) -> None:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    try:
        with background_server(models_dir) as base:
            open_explorer(page, base + "/models/shop")
            before = positions(page)
            page.select_option("#compare", "target:targets/shop-next.sysml")
            page.wait_for_selector("#explorer[data-compared='target:targets/shop-next.sysml']", state="attached", timeout=15_000)
            time.sleep(0.3)
            after = positions(page)
            assert after.get("n:payments-db"), "the ghost is drawn"
            kept = {k: v for k, v in after.items() if k in before}
            assert kept == before, {k: (before[k], kept.get(k)) for k in before if kept.get(k) != before[k]}
            # the ghost covers no component
            overlaps = page.evaluate("""(() => { const g = cy.getElementById('n:payments-db').boundingBox();
                return cy.nodes('[type = "node"]').filter(n => n.id() !== 'n:payments-db' && !n.isParent() && n.visible()).filter(n => {
                  const b = n.boundingBox(); return b.x1 < g.x2 && g.x1 < b.x2 && b.y1 < g.y2 && g.y1 < b.y2; }).map(n => n.id()); })()""")
            assert not overlaps, overlaps
            page.screenshot(path=str(ARTIFACTS / "stable-compare.png"))
            page.click("#compare-clear")
            wait_until(lambda: "n:payments-db" not in positions(page), what="comparison removed")
            assert positions(page) == before
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_endpoints_are_listed_by_path_prefix(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/bank#sel=n%3Agateway")
    page.wait_for_selector("#details .ep-group", state="attached")
    groups = page.evaluate("""Array.from(document.querySelectorAll('#details .ep-group')).map(g =>
        [g.dataset.prefix, Array.from(g.querySelectorAll('li code')).map(c => c.textContent)])""")
    assert groups == [["/api/accounts", ["/api/accounts", "/api/accounts/{id}", "/api/accounts"]],
                      ["/api/ledger", ["/api/ledger/entries", "/api/ledger/{id}"]], ["/health", ["/health"]]]
    if size == "phone":
        page.click("#btn-details")
    page.wait_for_selector("#details .ep-group", state="visible")
    page.screenshot(path=str(ARTIFACTS / f"stable-endpoints-{size}.png"))


def test_opening_in_the_ports_view_keeps_the_parts_and_their_ports(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/bank#view=ports")
    before = positions(page)
    port_at = page.evaluate("cy.getElementById('p:gateway#0').position()")
    page.evaluate("explorer.toggleOpen('ledger')")
    wait_until(lambda: "n:ledger/api" in positions(page), what="ledger opened in the ports view")
    after = positions(page)
    assert {k: v for k, v in after.items() if k in before and k != "n:ledger"} == {k: v for k, v in before.items() if k != "n:ledger"}
    assert page.evaluate("cy.getElementById('p:gateway#0').position()") == port_at
    assert page.evaluate("cy.getElementById('n:ledger/api').data('label')").startswith("api\n")
