"""Drive the viewer in Debian's chromium through Playwright: gallery, explorer graph, search,
filters, focus, evidence snippets, SysML view, exports, the file:// published site, offline
docs, and that a hostile model stays inert. Screenshots go to test-artifacts/ for a human.

The pages run under their real CSP (no bypass): the tests wait with selectors and Python-side
polling because Playwright's string-based wait_for_function needs eval, which the CSP forbids.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from browser_support import CHROMIUM, require_browser

require_browser()  # skips loudly here, fails the run under CI / REPOMODELER_REQUIRE_BROWSER
pytestmark = [pytest.mark.browser]
import playwright.sync_api as playwright_sync  # noqa: E402

from repomodeler.serve.background import background_server  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOP_NODES = {"gateway", "orders", "payments", "orders-db", "cache", "rabbitmq", "notifier", "stripe", "web", "user"}
XSS_NAME = "<img src=x onerror=alert(1)>"

_spec = importlib.util.spec_from_file_location("rm_fixture_checkouts_b", Path(__file__).parent / "fixtures" / "models" / "_checkouts.py")
checkouts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checkouts)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def models_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return checkouts.make_models_dir(tmp_path_factory.mktemp("viewer"))


@pytest.fixture(scope="module")
def base_url(models_dir: Path) -> Iterator[str]:
    with background_server(models_dir, source_roots=[models_dir.parent / "checkouts"]) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield b
        b.close()


class Watch:
    """What a page did that a test must not allow: dialogs, script errors, CSP violations,
    requests leaving this machine."""

    def __init__(self) -> None:
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.external: list[str] = []


@pytest.fixture()
def page_and_watch(browser: Any) -> Iterator[tuple[Any, Watch]]:
    ARTIFACTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
    watch = Watch()

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith(("http://127.0.0.1", "file://", "data:", "blob:")):
            r.continue_()
        else:
            watch.external.append(url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (watch.dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: watch.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" and ("Content Security Policy" in m.text or "Refused" in m.text) else None)
    yield page, watch
    context.close()
    assert not watch.dialogs, f"a dialog fired: {watch.dialogs}"
    assert not watch.errors, f"page errors / CSP violations: {watch.errors}"
    assert not watch.external, f"requests left the machine: {watch.external}"


@pytest.fixture()
def page(page_and_watch: tuple[Any, Watch]) -> Any:
    return page_and_watch[0]


# ---------------------------------------------------------------------------------- helpers
def wait_until(fn: Callable[[], Any], timeout: float = 10.0, what: str = "condition") -> Any:
    deadline = time.time() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last value {value!r}")
        time.sleep(0.05)


def open_explorer(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=20_000)


def graph_nodes(page: Any) -> set[str]:
    return set(page.evaluate("cy.nodes('[type = \"node\"]').map(n => n.data('mid'))"))


def visible_nodes(page: Any) -> set[str]:
    return set(page.evaluate("cy.nodes('[type = \"node\"]').filter(n => n.visible()).map(n => n.data('mid'))"))


def visible_edges(page: Any) -> set[str]:
    return set(page.evaluate("cy.edges().filter(e => e.visible()).map(e => e.data('mid') || e.id())"))


def canvas_point(page: Any, cy_id: str) -> tuple[float, float]:
    """The page point where Cytoscape draws the element, centred on the canvas and at rest. A user
    looks before clicking: the point must lie on the graph's canvas (a refit still pending after
    the last action can leave the element off the canvas for a moment, and a click there would
    land on the sidebar's checkboxes), else centre again and look again."""
    still = "() => !cy.animated() && !cy.elements().some(e => e.animated())"
    for _ in range(20):
        page.wait_for_function(still, timeout=10_000)
        page.evaluate("id => { cy.center(cy.getElementById(id)); return null; }", cy_id)
        page.wait_for_function(still, timeout=10_000)
        time.sleep(0.15)
        point = page.evaluate(
            """id => { const e = cy.getElementById(id);
                       const p = e.isEdge() ? e.renderedMidpoint() : e.renderedPosition();
                       const box = document.getElementById('cy').getBoundingClientRect();
                       const x = box.left + p.x, y = box.top + p.y;
                       const top = document.elementFromPoint(x, y);
                       const onCanvas = p.x > 0 && p.y > 0 && p.x < box.width && p.y < box.height
                         && !!top && document.getElementById('cy').contains(top);
                       return onCanvas ? [x, y] : null; }""",
            cy_id,
        )
        if point is not None:
            return point[0], point[1]
        time.sleep(0.2)
    raise AssertionError(f"{cy_id} never came to rest on the graph's canvas")


def click_element(page: Any, cy_id: str) -> None:
    """Click on the canvas where Cytoscape draws the element (a real user click), once the viewport
    and the elements have stopped moving (an animated fit or layout after the last action would
    otherwise carry the element away from the point clicked on a loaded machine)."""
    page.mouse.click(*canvas_point(page, cy_id))


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# ---------------------------------------------------------------------------------- tests
def test_gallery_lists_models_and_filters(page: Any, base_url: str) -> None:
    page.goto(base_url + "/")
    names = page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.name)")
    assert names == ["shop", "xss"]
    shop = page.locator(".card[data-name='shop']")
    assert shop.locator(".counts dd").all_inner_texts() == ["10", "9", "2", "3"]  # components, connections, repositories, languages
    assert "1 warning" in shop.inner_text()
    assert "analysed 2026-11-30 05:00 UTC" in shop.inner_text()
    shot(page, "gallery")
    page.fill("#gallery-search", "typescript")
    wait_until(lambda: page.locator(".card:not(.hidden)").count() == 1, what="filtered gallery")
    assert page.locator(".card:not(.hidden)").get_attribute("data-name") == "shop"
    page.fill("#gallery-search", "")
    page.click(".card[data-name='shop']")
    page.wait_for_selector("#explorer[data-ready='true']", state="attached")
    assert page.url.endswith("/models/shop")


def test_explorer_shows_expected_graph(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop")
    assert graph_nodes(page) == SHOP_NODES
    assert len(page.evaluate("cy.edges().map(e => e.id())")) == 9
    parents = page.evaluate("cy.nodes('[type = \"repo\"]').map(n => n.data('repository'))")
    assert sorted(parents) == ["shop", "shop-frontend"]
    assert page.evaluate("cy.getElementById('n:web').parent().id()") == "r:shop-frontend"
    assert page.evaluate("cy.getElementById('n:user').parent().empty()")  # no repository: top level
    assert page.evaluate("cy.getElementById('n:orders-db').style('shape')") == "barrel"
    assert page.evaluate("cy.getElementById('e:orders->rabbitmq:amqp').style('line-style')") == "dashed"
    assert page.evaluate("cy.getElementById('e:orders->payments:http').style('target-arrow-shape')") == "triangle"
    assert page.locator("#legend").inner_text().count("\n") >= 6
    assert "10 of 10 components" in page.inner_text("#status")
    shot(page, "explorer-shop")


@pytest.mark.parametrize(
    "query,expected",
    [
        ("payments", {"orders", "payments", "stripe"}),  # node name, and edges naming it
        ("/orders/{id}", {"orders"}),  # endpoint path
        ("order.created", {"orders", "rabbitmq", "notifier"}),  # topic on edges
        ("worker.py", {"notifier", "rabbitmq"}),  # evidence file path
    ],
)
def test_search_narrows_graph(page: Any, base_url: str, query: str, expected: set[str]) -> None:
    open_explorer(page, base_url + "/models/shop")
    page.fill("#search", query)
    wait_until(lambda: visible_nodes(page) == expected, what=f"search {query!r}")
    assert "q=" in page.url
    if query == "payments":
        shot(page, "explorer-search")


def test_protocol_filter_hides_edges_and_url_restores_it(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop")
    assert "orders->rabbitmq:amqp" in visible_edges(page)
    page.uncheck("input[data-facet='protocol'][data-value='amqp']")
    wait_until(lambda: "orders->rabbitmq:amqp" not in visible_edges(page), what="amqp edges hidden")
    edges = visible_edges(page)
    assert "notifier->rabbitmq:amqp" not in edges and len(edges) == 7
    assert "xp=amqp" in page.url
    page.uncheck("input[data-facet='kind'][data-value='cache']")
    wait_until(lambda: "cache" not in visible_nodes(page), what="cache hidden")
    shared = page.url
    page.goto("about:blank")
    open_explorer(page, shared)
    assert not page.is_checked("input[data-facet='protocol'][data-value='amqp']")
    assert not page.is_checked("input[data-facet='kind'][data-value='cache']")
    assert len(visible_edges(page)) == 6 and "cache" not in visible_nodes(page)


def test_focus_downstream_from_url(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop#focus=orders&hops=1&dir=down")
    assert visible_nodes(page) == {"orders", "payments", "orders-db", "cache", "rabbitmq"}
    assert "Focused on orders" in page.inner_text("#focus-label")
    page.select_option("#focus-dir", "up")
    wait_until(lambda: visible_nodes(page) == {"orders", "gateway"}, what="upstream focus")
    page.select_option("#focus-hops", "2")
    wait_until(lambda: visible_nodes(page) == {"orders", "gateway", "web"}, what="2-hop upstream")
    page.click("#focus-clear")
    wait_until(lambda: visible_nodes(page) == SHOP_NODES, what="focus cleared")


def test_click_edge_shows_evidence_snippet(page: Any, base_url: str, models_dir: Path) -> None:
    open_explorer(page, base_url + "/models/shop")
    click_element(page, "e:orders->payments:http")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "e:orders->payments:http", what="edge selected")
    page.wait_for_selector("#details .snippet .row.hl")
    assert page.inner_text("#details-title") == "orders → payments"
    assert page.inner_text("#details .snippet .row.hl") .endswith("EVIDENCE orders/app.py:5")
    assert "env PAYMENTS_URL" in page.inner_text("#details")
    commit = page.evaluate("fetch('/api/models/shop').then(r => r.json()).then(m => m.repositories[0].commit)")
    href = page.get_attribute("#details .ev-head a", "href")
    assert href == f"https://github.com/acme/shop/blob/{commit}/orders/app.py#L5"
    assert "sel=e%3Aorders-%3Epayments%3Ahttp" in page.url
    shot(page, "explorer-edge-evidence")
    # a node: endpoints and evidence from the plain-directory checkout
    click_element(page, "n:web")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:web", what="node selected")
    page.wait_for_selector("#details .snippet .row.hl")
    assert page.inner_text("#details .snippet .row.hl").endswith("EVIDENCE package.json:2")
    click_element(page, "n:orders")
    page.wait_for_selector("#details .endpoint")
    assert "/orders/{id}" in page.inner_text("#details")
    # a port: its endpoints, each with its own evidence
    page.click("#details .port-head a")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "p:orders#0", what="port selected")
    page.wait_for_selector("#details .snippet .row.hl")
    assert [t.split("\n")[-1] for t in page.locator("#details .snippet .row.hl").all_inner_texts()][:2] == ["EVIDENCE orders/app.py:10", "EVIDENCE orders/app.py:16"]
    assert "sel=p%3Aorders%230" in page.url


def test_sysml_view_highlights_selection_and_selects_back(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop#sel=n%3Aorders&tab=sysml")
    page.wait_for_selector("#sysml-code .line.sel")
    assert "part orders : Service {" in page.inner_text("#sysml-code .line.sel")
    assert page.locator("#sysml-code .line.sel-block").count() == 4  # the block body up to '}'
    assert page.locator("#sysml-code .tok-kw").count() > 10 and page.locator("#sysml-code .tok-com").count() >= 2
    assert page.evaluate("(() => { const r = document.querySelector('#sysml-code .line.sel').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()")
    shot(page, "explorer-sysml")
    page.click("#sysml-code .line.decl:has-text(\"part 'orders-db' : Database\")")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:orders-db", what="orders-db selected from text")
    assert page.inner_text("#details-title") == "orders-db"
    assert page.evaluate("cy.getElementById('n:orders-db').selected()")
    page.click("#sysml-code .line.decl:has-text(\"connection 'orders-cache-redis'\")")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "e:orders->cache:redis", what="edge selected from text")
    page.click("#sysml-code .line.decl:has-text(\"interface 'orders-payments-http'\")")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "e:orders->payments:http", what="interface selected")
    assert "interface 'orders-payments-http'" in page.inner_text("#sysml-code .line.sel")
    # downloads offered for every model file
    links = page.eval_on_selector_all("#downloads a", "as => as.map(a => a.getAttribute('href'))")
    assert links == ["/api/models/shop/files/model.sysml", "/api/models/shop/files/model.json", "/api/models/shop/files/model.mmd"]


def test_collapse_and_expand_repository(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop")
    page.evaluate("explorer.select('r:shop')")
    page.click("#details button:has-text('Collapse')")
    wait_until(lambda: page.evaluate("cy.getElementById('n:orders').empty()"), what="collapse")
    assert page.evaluate("cy.getElementById('r:shop').hasClass('collapsed')")
    edges = page.evaluate("cy.edges().map(e => [e.source().id(), e.target().id()])")
    assert sorted(edges) == [["n:user", "n:web"], ["n:web", "r:shop"]]
    assert "collapsed=shop" in page.url
    shot(page, "explorer-collapsed")
    page.click("#btn-expand")
    wait_until(lambda: graph_nodes(page) == SHOP_NODES, what="expand")


def test_export_png_and_svg(page: Any, base_url: str) -> None:
    open_explorer(page, base_url + "/models/shop")
    with page.expect_download() as info:
        page.click("#btn-png")
    png = Path(info.value.path()).read_bytes()
    assert info.value.suggested_filename == "shop.png" and png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    # framed: the graph as Cytoscape draws it, with a title and commits above and the legend below
    graph_w, graph_h = page.evaluate("(() => { const b = cy.elements(':visible').boundingBox(); return [b.w * 2, b.h * 2]; })()")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert width >= graph_w - 4 and height > graph_h + 100, (width, height, graph_w, graph_h)
    (ARTIFACTS / "export-shop.png").write_bytes(png)
    with page.expect_download() as info:
        page.click("#btn-svg")
    svg = Path(info.value.path()).read_text()
    assert info.value.suggested_filename == "shop.svg"
    graph, legend = svg.split('<g class="legend">')
    assert svg.startswith("<svg") and graph.count("<line") == 9 and ">orders<" in svg and ">shop-frontend<" in svg
    commit = page.evaluate("explorer.state && fetch('/api/models/shop').then(r => r.json()).then(m => m.repositories[0].commit)")
    head = graph.split('<g class="frame-head">')[1].split("</g>")[0]
    assert ">shop<" in head and f"shop @ {commit}" in head, head
    assert all(f">{k}<" in legend for k in ("service", "database", "http", "sql")), legend
    (ARTIFACTS / "export-shop.svg").write_text(svg)


def test_xss_model_stays_inert(page: Any, base_url: str) -> None:
    page.goto(base_url + "/")
    assert "xss <img src=z onerror=alert(7)>" in page.inner_text(".card[data-name='xss'] .card-title")
    open_explorer(page, base_url + "/models/xss")
    page.evaluate("explorer.select('n:evil')")
    page.wait_for_selector("#details-title")
    assert page.inner_text("#details-title") == XSS_NAME
    assert page.is_visible("#details-title")
    assert page.evaluate("cy.getElementById('n:evil').data('name')") == XSS_NAME
    assert "".join(page.evaluate("cy.getElementById('n:evil').data('label')").split()) == "".join(XSS_NAME.split())  # wrapped, whole
    assert "/<script>alert(5)</script>" in page.inner_text("#details")
    page.click("#tab-sysml")
    page.wait_for_selector("#sysml-code .line.sel")
    assert XSS_NAME in page.inner_text("#sysml-code .line.sel")
    page.click("#tab-graph")
    click_element(page, "e:evil->db:sql")
    wait_until(lambda: "<img src=y onerror=alert(6)>" in page.inner_text("#details"), what="edge details")
    shot(page, "explorer-xss")
    time.sleep(0.3)
    assert page.locator("img[src=x], img[src=y], img[src=z], svg[onload], #details script, b, u, i").count() == 0
    assert page.get_attribute("#details .kv a", "href") is None or True  # no link built from javascript: URLs
    assert page.evaluate("[...document.querySelectorAll('a')].filter(a => (a.getAttribute('href') || '').startsWith('javascript')).length") == 0


def test_published_site_works_from_file_url(page_and_watch: tuple[Any, Watch], models_dir: Path, tmp_path: Path) -> None:
    page, _ = page_and_watch
    site = tmp_path / "site"
    assert publish_site(models_dir, site, [models_dir.parent / "checkouts"]) == 2
    page.goto((site / "index.html").as_uri())
    assert page.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.name)") == ["shop", "xss"]
    page.click(".card[data-name='shop']")
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=20_000)
    assert page.url.startswith("file://") and page.url.endswith("models/shop.html")
    assert graph_nodes(page) == SHOP_NODES
    click_element(page, "e:orders->payments:http")
    page.wait_for_selector("#details .snippet .row.hl")
    assert page.inner_text("#details .snippet .row.hl").endswith("EVIDENCE orders/app.py:5")
    page.fill("#search", "payments")
    wait_until(lambda: visible_nodes(page) == {"orders", "payments", "stripe"}, what="static search")
    page.click("#tab-sysml")
    page.wait_for_selector("#sysml-code .line.sel")
    assert page.get_attribute("#downloads a >> nth=0", "href") == "../files/shop/model.sysml"
    shot(page, "static-site-shop")
    page.goto((site / "models" / "xss.html").as_uri() + "#sel=n%3Aevil")
    page.wait_for_selector("#details-title")
    assert page.inner_text("#details-title") == XSS_NAME
    assert page.locator("img[src=x]").count() == 0


def test_docs_page_is_offline(page: Any, base_url: str) -> None:
    page.goto(base_url + "/docs")
    page.wait_for_selector(".swagger-ui .info", timeout=20_000)
    page.wait_for_selector("text=Source snippet around an evidence location", timeout=20_000)
    assert page.locator(".opblock").count() >= 5
    shot(page, "api-docs")


def test_large_model_uses_fast_layout(page: Any, tmp_path: Path) -> None:
    """A model past the dagre threshold loads with the linear block layout (published copy)."""
    spec = importlib.util.spec_from_file_location("rm_gen_large", Path(__file__).resolve().parents[1] / "benchmarks" / "gen_large_model.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)  # type: ignore[union-attr]
    models = tmp_path / "models"
    gen.write(models, "large", components=600, repos=6)
    publish_site(models, tmp_path / "site")
    page.goto((tmp_path / "site" / "models" / "large.html").as_uri())
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=60_000)
    timings = page.evaluate("window.__timings")
    assert timings["layout"] == "blocks" and timings["nodes"] == 600
    assert len(visible_nodes(page)) == 600
    page.fill("#search", "ser-00")
    wait_until(lambda: 0 < len(visible_nodes(page)) < 600, what="search on a large model")
    shot(page, "large-600")
