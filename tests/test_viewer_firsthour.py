"""The viewer for someone's first hour, in Debian's chromium: the explorer at desktop, tablet and
phone sizes (graph fills the screen, filters and details become drawers, no sideways scrolling,
every tab and control reachable), readable graph labels (>= 12 px at fit, full names, protocols
told apart by colour and line pattern, legend beside the graph instead of over it), evidence
ordered code first with descriptor copies folded and the resolution steps, gallery cards in
plain words with a preview, keyboard paths, and axe-core (vendored) finding no serious or
critical violation on the gallery and the explorer. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import (  # noqa: F401 - fixtures are used by name
    ARTIFACTS,
    Watch,
    browser,
    canvas_point,
    checkouts,
    open_explorer,
    wait_until,
)

from repomodeler.serve.background import background_server  # noqa: E402

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[1]
AXE = next((ROOT / "web" / "static" / "vendor").glob("axe-core-*/axe-core-*.min.js"))
AXE_URL = f"/static/vendor/{AXE.parent.name}/{AXE.name}"
SIZES = {"desktop": (1440, 900), "tablet": (768, 1024), "phone": (390, 844)}
LONG = "shoppingassistantservice-recommendations-gateway"


def _ev(path: str, line: int, repo: str = "long") -> dict[str, Any]:
    return {"repository": repo, "path": path, "line": line}


def long_model() -> dict[str, Any]:
    """Long names, every protocol, and an edge whose evidence mixes code, config and copies."""
    nodes = [
        {"id": LONG, "name": LONG, "kind": "service", "repository": "long", "language": "python",
         "evidence": [_ev("k8s/base/deploy.yaml", 3), _ev("src/app.py", 1)], "attributes": {}, "ports": []},
        {"id": "payments", "name": "payments", "kind": "service", "repository": "long", "language": "go",
         "evidence": [_ev("payments/main.go", 1)], "attributes": {}, "ports": []},
        {"id": "db", "name": "db", "kind": "database", "repository": "", "evidence": [], "attributes": {}, "ports": []},
        {"id": "bus", "name": "bus", "kind": "broker", "repository": "", "evidence": [], "attributes": {}, "ports": []},
    ]
    edges = [
        {"id": f"{LONG}->payments:http", "source": LONG, "target": "payments", "kind": "calls", "protocol": "http",
         "evidence": [_ev("docker-compose.yml", 9), _ev("k8s/base/deploy.yaml", 12), _ev("k8s/overlays/prod/deploy.yaml", 12),
                      _ev("k8s/overlays/staging/deploy.yaml", 12), _ev("src/client.py", 40), _ev("src/config.py", 7)],
         "attributes": {"via": "env PAYMENTS_URL", "endpoints": "POST /charge"}},
        {"id": f"{LONG}->db:sql", "source": LONG, "target": "db", "kind": "uses", "protocol": "sql",
         "evidence": [_ev("src/db.py", 2)], "attributes": {"via": "env DATABASE_URL"}},
        {"id": f"{LONG}->bus:amqp", "source": LONG, "target": "bus", "kind": "publishes", "protocol": "amqp",
         "evidence": [_ev("src/events.py", 5)], "attributes": {"topic": "charged"}},
        {"id": "payments->bus:kafka", "source": "payments", "target": "bus", "kind": "publishes", "protocol": "kafka",
         "evidence": [_ev("payments/main.go", 9)], "attributes": {}},
    ]
    return {"schema": "repomodeler/model@1", "name": "long",
            "repositories": [{"name": "long", "url": "https://github.com/acme/long", "commit": "1" * 40, "ref": "main"}],
            "nodes": nodes, "edges": edges, "unresolved": [], "warnings": [], "stats": {}}


def dense_model(name: str, repo: str, nodes: dict[str, str], outside: dict[str, str], edges: list[tuple[str, str, str]]) -> dict[str, Any]:
    """A model from a few lines: components (name -> kind) in one repository, components outside
    it, and (source, target, protocol) connections."""
    made = [{"id": n, "name": n, "kind": k, "repository": repo, "language": "java", "evidence": [_ev(f"{n}/pom.xml", 1, repo)],
             "attributes": {}, "ports": []} for n, k in nodes.items()]
    made += [{"id": n, "name": n, "kind": k, "repository": "", "evidence": [], "attributes": {}, "ports": []} for n, k in outside.items()]
    return {"schema": "repomodeler/model@1", "name": name,
            "repositories": [{"name": repo, "url": f"https://github.com/acme/{repo}", "commit": "2" * 40, "ref": "main"}],
            "nodes": made, "edges": [{"id": f"{s}->{t}:{p}", "source": s, "target": t, "kind": "calls", "protocol": p,
                                      "evidence": [_ev(f"{s}/src/Client.java", 3, repo)], "attributes": {}} for s, t, p in edges],
            "unresolved": [], "warnings": [], "stats": {}}


def platform_model() -> dict[str, Any]:
    """Dense like a Spring Cloud system: a chain of eight ranks, every service on the config and
    registry hubs and a broker, its own database, and connections that skip ranks (dagre keeps
    room for them in every rank they cross)."""
    services = ["billing-service", "ledger-service", "reporting-service", "identity-service", "stream-aggregator-service", "monitoring"]
    nodes = {s: "service" for s in services} | {"gateway": "gateway", "config": "service", "registry": "service", "broker": "broker"}
    nodes |= {s.replace("-service", "") + "-mongodb": "database" for s in services[:4]}
    edges = [("user", "gateway", "http"), ("user", "api.rates.example.org", "http"), ("registry", "config", "http"),
             ("billing-service", "ledger-service", "http"), ("billing-service", "identity-service", "http"),
             ("ledger-service", "reporting-service", "http"), ("ledger-service", "identity-service", "http"),
             ("reporting-service", "identity-service", "http"), ("reporting-service", "api.rates.example.org", "http"),
             ("monitoring", "stream-aggregator-service", "http"), ("billing-service", "smtp.mail.example.com", "tcp"),
             ("monitoring", "config", "http"), ("stream-aggregator-service", "broker", "amqp")]
    edges += [("gateway", s, "http") for s in services[:4]] + [("gateway", "config", "http"), ("gateway", "registry", "http")]
    for s in services[:5]:
        edges += [(s, "config", "http"), (s, "registry", "http")]
    for s in services[:4]:
        edges += [(s, s.replace("-service", "") + "-mongodb", "mongodb")]
    edges += [(s, "broker", "amqp") for s in services[:3]]
    return dense_model("platform", "platform", nodes, {"user": "user", "smtp.mail.example.com": "external", "api.rates.example.org": "external"}, edges)


def fanout_model() -> dict[str, Any]:
    """Dense like a polyglot shop: one frontend calling ten services with long one-word names
    (no separator to wrap at), a second tier calling some of them again."""
    tier2 = ["productcatalogservice", "currencyservice", "cartservice", "shippingservice", "paymentservice", "emailservice"]
    tier1 = ["checkoutservice", "recommendationservice", "adservice", "shoppingassistantservice"]
    nodes = {n: "service" for n in ["frontend", "loadgenerator"] + tier1 + tier2} | {"redis-cart": "cache"}
    edges = [("user", "frontend", "http"), ("loadgenerator", "frontend", "http"), ("cartservice", "redis-cart", "redis")]
    edges += [("frontend", n, "grpc") for n in tier1 + tier2[:4]]
    edges += [("checkoutservice", n, "grpc") for n in tier2] + [("recommendationservice", "productcatalogservice", "grpc")]
    edges += [("shoppingassistantservice", n, "grpc") for n in ("cartservice", "currencyservice", "productcatalogservice")]
    return dense_model("fanout", "fanout", nodes, {"user": "user"}, edges)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    models = checkouts.make_models_dir(tmp_path_factory.mktemp("firsthour"))
    for name, model in [("long", long_model()), ("platform", platform_model()), ("fanout", fanout_model())]:
        folder = models / name
        folder.mkdir()
        (folder / "model.json").write_text(json.dumps(model), encoding="utf-8")
        (folder / "run.json").write_text(json.dumps({"analysed_at": "2026-12-01T10:00:00Z"}), encoding="utf-8")
    return models


@pytest.fixture(scope="module")
def url(models: Path) -> Iterator[str]:
    with background_server(models, source_roots=[models.parent / "checkouts"]) as base:
        yield base


def new_page(browser: Any, size: str, scheme: str = "light") -> tuple[Any, Any, Watch]:  # noqa: F811 - browser is the fixture
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
    watch = Watch()

    def route(r: Any) -> None:
        if r.request.url.startswith(("http://127.0.0.1", "file://", "data:", "blob:")):
            r.continue_()
        else:
            watch.external.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("dialog", lambda d: (watch.dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: watch.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: watch.errors.append(m.text) if m.type == "error" and ("Content Security Policy" in m.text or "Refused" in m.text) else None)
    return context, page, watch


@pytest.fixture(params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:  # noqa: F811
    context, page, watch = new_page(browser, request.param)
    yield request.param, page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def no_sideways_scroll(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth && document.body.scrollWidth <= innerWidth")


def rect(page: Any, selector: str) -> dict[str, float]:
    return page.evaluate("s => { const r = document.querySelector(s).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height, bottom: r.bottom, right: r.right}; }", selector)


def axe_serious(page: Any, base: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(url=base + AXE_URL)
    return page.evaluate(
        """() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations
             .filter(v => v.impact === 'serious' || v.impact === 'critical')
             .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')))""")


# ------------------------------------------------------------------------------ responsive
def test_explorer_fits_every_screen_and_every_control_is_reachable(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    width, height = SIZES[size]
    open_explorer(page, url + "/models/shop")
    time.sleep(0.3)
    box = rect(page, "#cy")
    assert page.evaluate("cy.width()") > 0 and page.evaluate("cy.height()") > 0
    if size == "desktop":
        assert box["w"] >= 700 and box["h"] >= 600, box
    else:  # the graph takes the screen: full width, most of the height
        assert box["w"] >= width - 2 and box["h"] >= 0.55 * height, box
    assert no_sideways_scroll(page), page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    shot(page, f"responsive-{size}")

    # the filters: a panel on desktop, a drawer below 900 px
    if size != "desktop":
        assert not page.is_visible("#filters input[data-facet='kind']")
        page.click("#btn-filters")
        page.wait_for_selector("#filters .drawer-close", state="visible")
        assert page.get_attribute("#btn-filters", "aria-expanded") == "true"
        time.sleep(0.3)
        shot(page, f"responsive-{size}-filters")
    page.uncheck("input[data-facet='kind'][data-value='cache']")
    wait_until(lambda: "cache" not in page.evaluate("explorer.visibleNodeIds()"), what="cache hidden")
    page.fill("#search", "orders")
    wait_until(lambda: "q=orders" in page.evaluate("location.hash"), what="search applied")
    page.fill("#search", "")
    page.select_option("#focus-hops", "1")
    assert page.is_enabled("#compare")
    assert no_sideways_scroll(page)
    if size != "desktop":
        page.keyboard.press("Escape")
        page.wait_for_selector("#filters .drawer-close", state="hidden")
        assert page.get_attribute("#btn-filters", "aria-expanded") == "false"

    # a tap on a component opens its details (a drawer on small screens)
    page.mouse.click(*canvas_point(page, "n:orders"))
    page.wait_for_selector("#details-title", state="visible")
    assert page.inner_text("#details-title") == "orders"
    assert no_sideways_scroll(page)
    time.sleep(0.3)  # the drawer's slide-in
    shot(page, f"responsive-{size}-details")
    if size != "desktop":
        page.click("#details .drawer-close")
        page.wait_for_selector("#details-title", state="hidden")

    # every toolbar button can be scrolled to and clicked; every tab works
    for button in ["#btn-fit", "#btn-layout", "#btn-collapse", "#btn-expand", "#btn-labels"]:
        page.locator(button).scroll_into_view_if_needed()
        page.click(button)
    assert page.get_attribute("#btn-labels", "aria-pressed") == "true"
    for tab, pane in [("#tab-list", "#pane-list"), ("#tab-sysml", "#pane-sysml"), ("#tab-graph", "#pane-graph")]:
        page.click(tab)
        page.wait_for_selector(pane, state="visible")
        assert page.get_attribute(tab, "aria-selected") == "true"
        assert no_sideways_scroll(page)
    page.click("#tab-list")
    page.click("#complist .comp-link:text-is('payments')")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:payments", what="selected from the list")
    shot(page, f"responsive-{size}-list")
    assert no_sideways_scroll(page)


# ------------------------------------------------------------------------------ readable graph
def test_labels_readable_at_fit_and_names_never_truncated(desk: Any, url: str) -> None:
    page = desk
    for name in ("shop", "long"):
        open_explorer(page, url + f"/models/{name}")
        on_screen = page.evaluate("""() => Math.min(...cy.nodes('[type = "node"]').map(n => parseFloat(n.style('font-size')) * cy.zoom()))""")
        assert on_screen >= 12, f"{name}: smallest label {on_screen:.1f}px on screen at fit"
        # the fit uses the canvas: the graph's box fills one of its two directions
        fill = page.evaluate("""() => { const b = cy.elements(':visible').renderedBoundingBox(); return Math.max(b.w / cy.width(), b.h / cy.height()); }""")
        assert fill > 0.8 or page.evaluate("cy.zoom()") >= 1.29, f"{name}: graph fills {fill:.2f} of the canvas"
    # the long name is drawn whole (wrapped over lines, never cut with an ellipsis)
    label = page.evaluate(f"cy.getElementById('n:{LONG}').data('label')")
    assert label.replace("\n", "") == LONG and "…" not in label and "\n" in label
    assert page.evaluate(f"cy.getElementById('n:{LONG}').style('text-wrap')") == "wrap"
    # hover shows the full name; the details panel too
    p = canvas_point(page, f"n:{LONG}")
    page.mouse.move(p[0], p[1])
    page.wait_for_selector("#tip:not(.hidden)")
    assert LONG in page.inner_text("#tip")
    shot(page, "readable-hover")
    page.mouse.click(p[0], p[1])
    page.wait_for_selector("#details-title")
    assert page.inner_text("#details-title") == LONG
    # the legend sits beside the graph and never covers it
    legend, canvas = rect(page, "#legend"), rect(page, "#cy")
    assert legend["h"] > 0 and (legend["y"] >= canvas["bottom"] - 0.5 or legend["bottom"] <= canvas["y"] + 0.5), (legend, canvas)


LABELS_AT_FIT = """() => {
  const nodes = cy.nodes('[type = "node"]').filter(n => n.visible());
  const boxes = nodes.map(n => n.renderedBoundingBox({includeLabels: false}));
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.x1 < b.x2 - 1 && b.x1 < a.x2 - 1 && a.y1 < b.y2 - 1 && b.y1 < a.y2 - 1) overlaps++;
  }
  // a component outside the repositories never sits inside a repository's box
  const repos = cy.nodes('[type = "repo"]').map(r => r.renderedBoundingBox());
  const inside = nodes.filter(n => !n.parent().length).filter(n => { const p = n.renderedPosition();
    return repos.some(r => p.x > r.x1 && p.x < r.x2 && p.y > r.y1 && p.y < r.y2); }).map(n => n.id());
  // connections drawn across a component they do not end at
  let across = 0;
  cy.edges().filter(e => e.visible()).forEach(e => {
    const p = e.source().renderedPosition(), q = e.target().renderedPosition();
    nodes.forEach((n, i) => {
      if (n === e.source() || n === e.target()) return;
      const b = boxes[i]; let t0 = 0, t1 = 1; const dx = q.x - p.x, dy = q.y - p.y;
      const ok = [[-dx, p.x - b.x1], [dx, b.x2 - p.x], [-dy, p.y - b.y1], [dy, b.y2 - p.y]].every(([a, c]) => {
        if (a === 0) return c >= 0; const r = c / a;
        if (a < 0) { if (r > t1) return false; t0 = Math.max(t0, r); } else { if (r < t0) return false; t1 = Math.min(t1, r); }
        return true; });
      if (ok && t1 - t0 > 1e-6) across++;
    });
  });
  const bb = nodes.renderedBoundingBox();
  return { across: across, edges: cy.edges().filter(e => e.visible()).length, px: Math.min(...nodes.map(n => parseFloat(n.style('font-size')) * cy.zoom())), n: nodes.length, overlaps: overlaps,
           inside: inside, fill: Math.max(bb.w / cy.width(), bb.h / cy.height()),
           onCanvas: bb.x1 >= -1 && bb.y1 >= -1 && bb.x2 <= cy.width() + 1 && bb.y2 <= cy.height() + 1,
           note: !document.getElementById('small-labels').classList.contains('hidden') };
}"""


@pytest.mark.parametrize("name,components", [("platform", 17), ("fanout", 14)])
def test_dense_graph_labels_readable_at_fit_on_desktop(desk: Any, url: str, name: str, components: int) -> None:
    """What a user sees on a 1440x900 screen right after opening a dense model: every component
    on the canvas, names drawn at >= 12 px, no two components on top of each other."""
    page = desk
    open_explorer(page, url + f"/models/{name}")
    seen = page.evaluate(LABELS_AT_FIT)
    shot(page, f"dense-{name}-desktop")
    assert seen["n"] == components
    assert seen["px"] >= 12, f"{name}: labels {seen['px']:.1f}px on screen at fit ({page.evaluate('JSON.stringify(window.__timings)')})"
    assert seen["overlaps"] == 0 and seen["inside"] == [] and seen["onCanvas"], seen
    assert seen["fill"] > 0.8 and not seen["note"], seen
    # packing the graph tighter must not send connections across components: dagre alone, with
    # labels at 6.4 and 10.2 px, drew 22 and 6 such crossings
    assert seen["across"] <= {"platform": 22, "fanout": 8}[name], seen
    # names are whole: one-word names longer than a line are not cut
    assert page.evaluate("cy.getElementById('n:shoppingassistantservice').data('label')") == "shoppingassistantservice" or name != "fanout"
    # Re-layout gives the same picture (the layout is deterministic)
    before = page.evaluate("cy.nodes('[type = \"node\"]').map(n => [n.id(), Math.round(n.position('x')), Math.round(n.position('y'))])")
    page.click("#btn-layout")
    assert page.evaluate("cy.nodes('[type = \"node\"]').map(n => [n.id(), Math.round(n.position('x')), Math.round(n.position('y'))])") == before


def test_compaction_rules(desk: Any, url: str) -> None:
    """The pieces of compact.js on small cases: a rank packed in order with the least movement,
    a connection meeting a box, and which of two layout variants wins."""
    page = desk
    open_explorer(page, url + "/models/shop")
    got = page.evaluate("""() => import('/static/js/explorer/compact.js').then(m => ({
      apart: m.packLine([{want: 0, size: 10, gap: 0}, {want: 0, size: 10, gap: 10}]),
      free: m.packLine([{want: 0, size: 10, gap: 0}, {want: 100, size: 10, gap: 10}]),
      chain: m.packLine([{want: 0, size: 10, gap: 0}, {want: 5, size: 10, gap: 2}, {want: 100, size: 20, gap: 2}, {want: 101, size: 20, gap: 2}]),
      through: m.segmentMeetsBox({x: 0, y: 0}, {x: 100, y: 100}, {x1: 40, x2: 60, y1: 40, y2: 60}),
      beside: m.segmentMeetsBox({x: 0, y: 0}, {x: 100, y: 0}, {x1: 40, x2: 60, y1: 5, y2: 25}),
      readableWins: m.betterLayout({zoom: 0.9, cross: 9}, {zoom: 0.8, cross: 0}, 0.857, 0.03),
      fewerCrossings: m.betterLayout({zoom: 0.9, cross: 2}, {zoom: 1.2, cross: 5}, 0.857, 0.03),
      biggerUntilReadable: m.betterLayout({zoom: 0.7, cross: 9}, {zoom: 0.5, cross: 0}, 0.857, 0.03),
      milderKept: m.betterLayout({zoom: 0.51, cross: 0}, {zoom: 0.5, cross: 9}, 0.857, 0.03)}))""")
    assert got["apart"] == [-10, 10]  # two on one spot: each moves half the distance
    assert got["free"] == [0, 100]
    assert got["chain"] == [-3.5, 8.5, 89.5, 111.5]
    assert got["through"] and not got["beside"]
    assert got["readableWins"] and got["fewerCrossings"] and got["biggerUntilReadable"] and not got["milderKept"]


@pytest.mark.parametrize("name", ["platform", "fanout"])
def test_dense_graph_on_a_phone_is_readable_or_offers_the_list(browser: Any, url: str, name: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, "phone")
    try:
        open_explorer(page, url + f"/models/{name}")
        seen = page.evaluate(LABELS_AT_FIT)
        shot(page, f"dense-{name}-phone")
        assert seen["overlaps"] == 0 and seen["inside"] == [] and seen["onCanvas"], seen
        assert seen["px"] >= 12 or seen["note"], seen
        assert seen["px"] >= 8, seen  # the layout still uses the tall screen (was 2.8 px for a graph like platform)
        if seen["note"]:
            assert no_sideways_scroll(page)
            assert axe_serious(page, url) == []
            # the note takes a strip above the graph, never covering it
            note, canvas = rect(page, "#small-labels"), rect(page, "#cy")
            assert note["bottom"] <= canvas["y"] + 0.5, (note, canvas)
            page.click("#btn-as-list")
            page.wait_for_selector("#pane-list", state="visible")
            assert page.get_attribute("#tab-list", "aria-selected") == "true"
            assert page.locator("#complist .comp-link").count() == seen["n"]
            # the list fits the phone: no column cut off, kinds on one line
            assert page.evaluate("(() => { const c = document.getElementById('complist'); return c.scrollWidth <= c.clientWidth; })()")
            heights = page.evaluate("[...document.querySelectorAll('#complist .badge')].map(b => b.getBoundingClientRect().height)")
            assert heights and max(heights) < 24, heights
            shot(page, f"dense-{name}-phone-list")
            # zooming in until the names are readable takes the note away
            page.click("#tab-graph")
            page.evaluate("() => { cy.zoom({level: 1, renderedPosition: {x: cy.width() / 2, y: cy.height() / 2}}); return null; }")
            wait_until(lambda: not page.is_visible("#small-labels"), what="note gone at a readable zoom")
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_gallery_previews_in_the_published_site(browser: Any, models: Path, tmp_path: Path) -> None:  # noqa: F811
    """The published gallery (opened from file://, no server to fetch from) draws each card's
    diagram: one box per top-level component, one line per connection between them."""
    from repomodeler.serve.publish import publish_site

    site = tmp_path / "site"
    publish_site(models, site, [models.parent / "checkouts"])
    context, page, watch = new_page(browser, "desktop")
    try:
        page.goto((site / "index.html").as_uri())
        page.wait_for_selector(".card[data-name='platform'] .preview svg rect")
        for name, model in [("platform", platform_model()), ("fanout", fanout_model()), ("long", long_model())]:
            card = page.locator(f".card[data-name='{name}']")
            assert card.locator(".preview svg rect").count() == len(model["nodes"]), name
            assert card.locator(".preview svg line").count() == len({(e["source"], e["target"], e["protocol"]) for e in model["edges"]}), name
        assert page.locator(".card[data-name='shop'] .preview svg rect").count() == 10
        shot(page, "gallery-static-previews")
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_protocols_differ_in_colour_and_line_pattern(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/long")
    looks = page.evaluate("Object.keys(RM.PROTOCOLS).map(p => [p, RM.PROTOCOLS[p].color, JSON.stringify(RM.PROTOCOLS[p].dash)])")
    assert len({colour for _, colour, _ in looks}) == len(looks), "two protocols share a colour"
    assert len({dash for _, _, dash in looks}) == len(looks), "two protocols share a line pattern"
    drawn = page.evaluate("""() => cy.edges().map(e => [e.data('protocol'), e.style('line-style'), JSON.stringify(e.style('line-dash-pattern')), e.style('line-color')])""")
    by_protocol = {d[0]: d[1:] for d in drawn}
    assert by_protocol["http"][0] == "solid"
    assert by_protocol["amqp"][0] == "dashed" and by_protocol["kafka"][0] == "dashed" and by_protocol["sql"][0] == "dashed"
    assert len({(style, dash) for style, dash, _ in by_protocol.values()}) == len(by_protocol)
    # the legend draws the same patterns
    assert page.locator("#legend svg line[stroke-dasharray]").count() >= 3
    # optional protocol labels on the edges, kept in the URL
    assert page.evaluate(f"cy.getElementById('e:{LONG}->db:sql').style('label')") == ""
    page.click("#btn-labels")
    wait_until(lambda: page.evaluate(f"cy.getElementById('e:{LONG}->db:sql').style('label')") == "sql", what="edge labels")
    assert "labels=1" in page.evaluate("location.hash")
    shot(page, "readable-edge-labels")
    open_explorer(page, page.evaluate("location.href"))
    assert page.evaluate(f"cy.getElementById('e:{LONG}->payments:http').style('label')") == "http"
    assert page.get_attribute("#btn-labels", "aria-pressed") == "true"


# ------------------------------------------------------------------------------ evidence
def test_evidence_code_first_copies_folded_and_resolution_steps(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/long#sel=" + f"e:{LONG}->payments:http".replace(">", "%3E").replace(":", "%3A"))
    page.wait_for_selector("#details .steps")
    locations = page.locator("#details .evidence .loc").all_inner_texts()
    assert locations == ["long: src/client.py:40", "long: src/config.py:7", "long: docker-compose.yml:9", "long: k8s/base/deploy.yaml:12"]
    headings = page.locator("#details h4").all_inner_texts()
    assert headings == ["In code · 2", "In configuration and descriptors · 2"]
    copies = page.locator("#details details.copies")
    assert copies.count() == 1 and copies.locator("summary").inner_text().startswith("and 2 copies")
    copies.locator("summary").click()
    assert copies.locator("li").all_inner_texts() == ["long: k8s/overlays/prod/deploy.yaml:12", "long: k8s/overlays/staging/deploy.yaml:12"]
    steps = page.locator("#details .steps > li").all_inner_texts()
    assert len(steps) == 4
    assert "src/client.py:40" in steps[0] and "PAYMENTS_URL" in steps[1]
    assert "docker-compose.yml:9" in steps[2] and "payments" in steps[3] and "POST /charge" in steps[3]
    shot(page, "evidence-steps")


# ------------------------------------------------------------------------------ gallery
def test_gallery_cards_speak_plainly(desk: Any, url: str) -> None:
    page = desk
    page.goto(url + "/")
    card = page.locator(".card[data-name='shop']")
    labels = card.locator(".counts dt").all_inner_texts()
    assert labels == ["components", "connections", "repositories", "languages"]
    assert card.locator(".counts dd").all_inner_texts() == ["10", "9", "2", "3"]
    text = card.inner_text()
    assert "part def" not in text.lower() and "Last analysed" in text.title().replace("Analysed", "analysed") or "LAST ANALYSED" in text
    assert "analysed 2026-11-30 05:00 UTC" in text and "at commit" in text
    page.wait_for_selector(".card[data-name='shop'] .preview svg rect")
    assert card.locator(".preview svg rect").count() == 10
    shot(page, "gallery-cards")
    # the facets say what "(none)" stands for
    open_explorer(page, url + "/models/shop")
    none_repo = page.locator("#f-repository label:has(input[data-value='(none)'])")
    assert none_repo.inner_text().startswith("outside the repositories")
    assert "users, external services" in none_repo.get_attribute("title")
    assert page.locator("#f-language label:has(input[data-value='(none)'])").inner_text().startswith("no language")


# ------------------------------------------------------------------------------ keyboard and axe
def test_keyboard_reaches_controls_and_components(desk: Any, url: str) -> None:
    page = desk
    open_explorer(page, url + "/models/shop")
    page.focus("#tab-graph")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#pane-list", state="visible")
    assert page.evaluate("document.activeElement.id") == "tab-list"
    # the focused control shows a visible outline
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none"), outline
    # Tab from the tab list reaches the toolbar, then the components table
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.textContent.trim() + '|' + (document.activeElement.className || '')"))
        if "comp-link" in seen[-1] and seen[-1].startswith("orders|"):
            break
    assert any(s.startswith("orders|") for s in seen), seen
    page.keyboard.press("Enter")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:orders", what="keyboard selection")
    assert page.inner_text("#details-title") == "orders"
    # links that run script in the details are reachable and work from the keyboard
    page.focus("#details .port-head a")
    page.keyboard.press("Enter")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "p:orders#0", what="port selected with the keyboard")
    # facet all/none are buttons
    assert page.locator("#f-kind").locator("xpath=..").locator("button:text-is('none')").count() == 1


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_finds_no_serious_violations(browser: Any, url: str, size: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size)
    try:
        found = {}
        page.goto(url + "/")
        page.wait_for_selector(".card")
        found["gallery"] = axe_serious(page, url)
        for name, target in [("explorer", "/models/shop"), ("selection", "/models/shop#sel=e%3Aorders-%3Epayments%3Ahttp"),
                             ("node", "/models/long#sel=n%3A" + LONG), ("list", "/models/shop#tab=list"),
                             ("sysml", "/models/shop#tab=sysml&sel=n%3Aorders")]:
            open_explorer(page, url + target)
            time.sleep(0.3)
            if size == "phone" and name == "selection":
                page.click("#btn-details")
                page.wait_for_selector("#details .drawer-close", state="visible")
            found[name] = axe_serious(page, url)
        if size == "phone":
            open_explorer(page, url + "/models/shop")
            page.click("#btn-filters")
            page.wait_for_selector("#filters .drawer-close", state="visible")
            found["filters"] = axe_serious(page, url)
        (ARTIFACTS / f"axe-{size}.json").write_text(json.dumps(found, indent=2))
        assert not any(found.values()), found
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_axe_is_vendored_not_downloaded() -> None:
    assert AXE.stat().st_size > 100_000 and (AXE.parent / "LICENSE").exists()
    assert "axe-core" in (ROOT / "web" / "static" / "vendor" / "README.md").read_text()
    assert shutil.which("chromium") or Path("/usr/bin/chromium").exists()
