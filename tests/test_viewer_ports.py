"""The explorer's ports view in Debian's chromium: on the grpc-mesh sample (analysed here), every
component becomes a SysML part with its API ports on its border, every provided port of
model.json is a port element, connections end on the provider's port exactly as model.sysml's
interfaces connect them, a port shows its endpoints, the view is in the URL (server and file://
site), toggling back restores the component view, and axe finds no serious violation."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, canvas_point, models_dir, open_explorer, wait_until  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, axe_serious, new_page

from repomodeler.serve.background import background_server
from repomodeler.serve.publish import publish_site

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def mesh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The grpc-mesh sample analysed into MODELS/grpc-mesh; returns MODELS."""
    from repomodeler.pipeline import AnalyzeOptions, analyze

    models = tmp_path_factory.mktemp("ports") / "models"
    analyze([str(ROOT / "samples" / "grpc-mesh")], AnalyzeOptions(name="grpc-mesh", out=models / "grpc-mesh", validate=False, jobs=1))
    return models


@pytest.fixture(scope="module")
def url(mesh: Path) -> Iterator[str]:
    with background_server(mesh, source_roots=[ROOT / "samples"]) as base:
        yield base


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def model_of(models: Path) -> dict[str, Any]:
    return json.loads((models / "grpc-mesh" / "model.json").read_text())


def provided_ports(model: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """cy id of every provided port of model.json -> (component, port name)."""
    return {f"p:{n['id']}#{i}": (n["id"], p["name"]) for n in model["nodes"] for i, p in enumerate(n.get("ports") or [])
            if p.get("direction", "provided") == "provided"}


def sysml_interfaces(models: Path) -> dict[tuple[str, str], str]:
    """(client part, server part) -> server port, read from model.sysml's connectors."""
    text = (models / "grpc-mesh" / "model.sysml").read_text()
    found = {}
    name = r"('(?:[^'\\]|\\.)*'|[A-Za-z_]\w*)"
    # a part whose id is no basic name keeps it as its short name: part <'redis-cart'> redis_cart
    ids = {m.group(2): m.group(1) for m in re.finditer(r"part <'([^']*)'> ([A-Za-z_]\w*)", text)}
    for m in re.finditer(rf"connect (?:client ::> )?{name}\.{name} to (?:server ::> )?{name}\.{name}", text):
        client, _client_port, server, server_port = (g.strip("'") for g in m.groups())
        found[(ids.get(client, client), ids.get(server, server))] = server_port
    return found


def port_state(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => {
      const out = {};
      cy.nodes('[type = "port"]').forEach(p => {
        const part = cy.getElementById(p.data('part')), pp = part.position(), q = p.position();
        out[p.id()] = {name: p.data('name'), part: part.id(), visible: p.visible(), side: p.data('side'),
          left: Math.abs(q.x - (pp.x - part.width() / 2)) < 1 && Math.abs(q.y - pp.y) <= part.height() / 2,
          top: Math.abs(q.y - (pp.y - part.height() / 2)) < 1 && Math.abs(q.x - pp.x) <= part.width() / 2,
          implied: p.hasClass('implied')};
      });
      return out; }""")


def edge_ends(page: Any) -> list[list[str]]:
    return sorted(page.evaluate("cy.edges().filter(e => e.visible()).map(e => [e.id(), e.source().id(), e.target().id()])"))


def test_ports_view_draws_every_provided_port_and_links_end_on_them(desk: Any, url: str, mesh: Path) -> None:
    page = desk
    model = model_of(mesh)
    expected = provided_ports(model)
    assert len(expected) >= 3  # cart and checkout (grpc), frontend (http)
    open_explorer(page, url + "/models/grpc-mesh")
    components_view = edge_ends(page)
    assert page.evaluate("cy.nodes('[type = \"port\"]').length") == 0
    assert page.get_attribute("#view-components", "aria-pressed") == "true"

    page.click("#view-ports")
    wait_until(lambda: page.evaluate("cy.nodes('[type = \"port\"]').length") > 0, what="ports drawn")
    assert page.get_attribute("#view-ports", "aria-pressed") == "true"
    assert "view=ports" in page.evaluate("location.hash")
    ports = port_state(page)
    for cy_id, (component, name) in expected.items():
        assert cy_id in ports, f"provided port {component}.{name} is not drawn"
        drawn = ports[cy_id]
        assert drawn["name"] == name and drawn["part"] == f"n:{component}" and drawn["visible"] and not drawn["implied"]
        assert drawn["left"] if drawn["side"] == "left" else drawn["top"], f"{cy_id} is not on its part's border: {drawn}"
    # the other ports are the ones model.sysml implies (connections arrive, no endpoints found)
    assert all(p["implied"] for k, p in ports.items() if k not in expected)
    assert {k for k, p in ports.items() if p["implied"]} == {"p:redis-cart#redis"}
    # parts are SysML parts: a rectangle named "name : Kind"
    assert page.evaluate("cy.getElementById('n:cart').data('label')").endswith("\n: Service")
    assert page.evaluate("cy.getElementById('n:cart').style('shape')") == "rectangle"

    # every connection leaves its caller and ends on the provider's port that model.sysml connects
    interfaces = sysml_interfaces(mesh)
    ends = {e[0]: (e[1], e[2]) for e in edge_ends(page)}
    # (subsystems, nodes with a parent, stay folded into their component: their links are not drawn)
    inside = {n["id"] for n in model["nodes"] if n.get("parent")}
    top = [e for e in model["edges"] if e["source"] not in inside and e["target"] not in inside]
    assert len(ends) == len(top)
    names = {cy_id: name for cy_id, (_c, name) in expected.items()}
    for edge in top:
        source, target = ends["e:" + edge["id"]]
        assert source == "n:" + edge["source"]
        port = ports[target]
        assert port["part"] == "n:" + edge["target"], edge["id"]
        assert (names.get(target) or port["name"]) == interfaces[(edge["source"], edge["target"])], edge["id"]
    assert ends["e:checkout->cart:grpc"][1] == ends["e:frontend->cart:grpc"][1] == "p:cart#0"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ports-grpc-mesh.png"))

    # a port: its endpoints and who is connected to it
    page.evaluate("explorer.select('p:cart#0')")
    page.wait_for_selector("#details .endpoint")
    details = page.inner_text("#details")
    to_cart = sum(1 for e in model["edges"] if e["target"] == "cart" and e["protocol"] == "grpc" and e["source"] not in inside)
    assert to_cart >= 2 and "CartService/AddItem" in details and f"connected from · {to_cart}" in details.lower()
    assert page.evaluate("cy.getElementById('p:cart#0').selected()")
    page.evaluate("explorer.select('p:redis-cart#redis')")
    wait_until(lambda: "implied port" in page.inner_text("#details-title"), what="implied port details")
    to_redis = sum(1 for e in model["edges"] if e["target"] == "redis-cart" and e["source"] not in inside)
    assert f"connected from · {to_redis}" in page.inner_text("#details").lower()
    # a tap on a port selects it
    page.mouse.click(*canvas_point(page, "p:checkout#0"))
    wait_until(lambda: page.evaluate("explorer.state.sel") == "p:checkout#0", what="port selected by a tap")
    assert "CheckoutService/PlaceOrder" in page.inner_text("#details")
    # filters apply: hiding a component hides its ports
    page.uncheck("input[data-facet='kind'][data-value='cache']")
    wait_until(lambda: not port_state(page)["p:redis-cart#redis"]["visible"], what="cache port hidden")
    page.check("input[data-facet='kind'][data-value='cache']")

    # the view is in the URL: a reload opens the ports view
    open_explorer(page, page.evaluate("location.href"))
    assert page.evaluate("cy.nodes('[type = \"port\"]').length") == len(ports)
    assert page.get_attribute("#view-ports", "aria-pressed") == "true"
    # the SVG export draws the ports with their names
    with page.expect_download() as info:
        page.click("#btn-svg")
    svg = Path(info.value.path()).read_text()
    assert svg.count('stroke-dasharray="3 2"') == 1 and ">grpc ·3<" in svg and ">cart<" in svg
    (ARTIFACTS / "export-ports.svg").write_text(svg)

    # toggling back restores the component view
    page.click("#view-components")
    wait_until(lambda: page.evaluate("cy.nodes('[type = \"port\"]').length") == 0, what="component view")
    assert edge_ends(page) == components_view
    assert page.get_attribute("#view-components", "aria-pressed") == "true" and "view=ports" not in page.evaluate("location.hash")
    assert not page.evaluate("cy.getElementById('n:cart').data('label')").endswith(": Service")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_ports_view_axe_and_screenshots(browser: Any, url: str, size: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size)
    try:
        open_explorer(page, url + "/models/grpc-mesh#view=ports&sel=p%3Acart%230")
        time.sleep(0.3)
        page.screenshot(path=str(ARTIFACTS / f"ports-{size}.png"))
        found = {"ports": axe_serious(page, url)}
        if size == "phone":
            page.click("#btn-details")
            page.wait_for_selector("#details .drawer-close", state="visible")
            time.sleep(0.3)
            page.screenshot(path=str(ARTIFACTS / f"ports-{size}-details.png"))
            found["ports-details"] = axe_serious(page, url)
        (ARTIFACTS / f"axe-ports-{size}.json").write_text(json.dumps(found, indent=2))
        assert not any(found.values()), found
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_ports_view_on_the_published_site(desk: Any, mesh: Path, tmp_path: Path) -> None:
    page = desk
    site = tmp_path / "site"
    assert publish_site(mesh, site) == 1
    page.goto((site / "models" / "grpc-mesh.html").as_uri() + "#view=ports")
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=20_000)
    assert set(provided_ports(model_of(mesh))) <= set(port_state(page))
    page.click("#view-components")
    wait_until(lambda: page.evaluate("cy.nodes('[type = \"port\"]').length") == 0, what="component view on file://")


# What a reader of the ports view trips over, measured on the canvas: port names whose boxes
# overlap each other, a port name on another part or on its own part's name, and connections
# whose drawn path (with its turns) runs across a part it does not end at.
CLUTTER = """() => {
  const meet = (a, b) => a.x1 < b.x2 - 0.5 && b.x1 < a.x2 - 0.5 && a.y1 < b.y2 - 0.5 && b.y1 < a.y2 - 0.5;
  const ports = cy.nodes('[type = "port"]').filter(p => p.visible());
  const parts = cy.nodes('[type = "node"]').filter(n => n.visible() && !n.isParent());
  const label = p => p.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true});
  const out = {labels: [], onParts: [], onNames: [], crossings: [], namesOut: []};
  parts.forEach(n => {  // a part's own name stays inside it
    const name = n.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true}), b = n.boundingBox({includeLabels: false});
    if (name.x1 < b.x1 - 0.5 || name.x2 > b.x2 + 0.5 || name.y1 < b.y1 - 0.5 || name.y2 > b.y2 + 0.5) out.namesOut.push(n.id());
  });
  ports.forEach((a, i) => ports.forEach((b, j) => { if (i < j && meet(label(a), label(b))) out.labels.push(a.id() + ' ' + b.id()); }));
  ports.forEach(p => {
    parts.forEach(n => {
      if (n.id() === p.data('part')) {
        const name = n.boundingBox({includeNodes: false, includeEdges: false, includeLabels: true});
        if (meet(label(p), name)) out.onNames.push(p.id());
      } else if (meet(label(p), n.boundingBox({includeLabels: false}))) out.onParts.push(p.id() + ' on ' + n.id());
    });
  });
  const hits = (a, b, box) => {  // segment a-b through box (Liang-Barsky)
    let t0 = 0, t1 = 1; const dx = b.x - a.x, dy = b.y - a.y;
    const clip = (p, q) => { if (p === 0) return q >= 0; const r = q / p; if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; } else { if (r < t0) return false; if (r < t1) t1 = r; } return true; };
    return clip(-dx, a.x - box.x1) && clip(dx, box.x2 - a.x) && clip(-dy, a.y - box.y1) && clip(dy, box.y2 - a.y) && t1 - t0 > 1e-6;
  };
  cy.edges().filter(e => e.visible()).forEach(e => {
    const bends = e.style('curve-style') === 'taxi' ? (e.segmentPoints() || []) : [];
    const pts = [e.sourceEndpoint()].concat(bends, [e.targetEndpoint()]);
    const ends = [e.source(), e.target()].map(x => x.data('type') === 'port' ? x.data('part') : x.id());
    parts.forEach(n => {
      if (ends.includes(n.id())) return;
      const b = n.boundingBox({includeLabels: false}), box = {x1: b.x1 + 2, x2: b.x2 - 2, y1: b.y1 + 2, y2: b.y2 - 2};
      for (let k = 0; k + 1 < pts.length; k++) if (hits(pts[k], pts[k + 1], box)) { out.crossings.push(e.id() + ' across ' + n.id()); break; }
    });
  });
  return out;
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_port_names_do_not_overlap_and_lines_do_not_cross_parts(browser: Any, url: str, size: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size)
    try:
        open_explorer(page, url + "/models/grpc-mesh#view=ports")
        time.sleep(0.2)
        found = page.evaluate(CLUTTER)
        page.screenshot(path=str(ARTIFACTS / f"ports-clutter-{size}.png"))
        assert found == {"labels": [], "onParts": [], "onNames": [], "crossings": [], "namesOut": []}, found
        assert page.evaluate("cy.nodes('[type = \"port\"]').length") >= 4
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_port_names_and_lines_on_the_shop(browser: Any, models_dir: Path, size: str) -> None:  # noqa: F811
    """The shop sample: nine parts, ports on five, connections across two repositories."""
    context, page, watch = new_page(browser, size)
    try:
        with background_server(models_dir) as base:
            open_explorer(page, base + "/models/shop#view=ports")
            time.sleep(0.2)
            found = page.evaluate(CLUTTER)
            page.screenshot(path=str(ARTIFACTS / f"ports-clutter-shop-{size}.png"))
            print(size, {k: len(v) for k, v in found.items()}, found["crossings"])
            assert not (found["labels"] or found["onParts"] or found["onNames"] or found["namesOut"]), found
            assert len(found["crossings"]) == 0, found["crossings"]
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)
