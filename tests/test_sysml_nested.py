"""Issue #12, SysML: parts inside components (subsystems, a store's logical databases) are nested part
usages with their evidence, the links that start or end at them are connectors (an ``ImportLink``
between subsystems of one component, a ``PartLink`` for the rest), each component with parts has a
``TreeView``; every reader accepts the text and the SysML reader reads the parts back as model.json has them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repomodeler.diff.load import model_from_dict
from repomodeler.emit.model_json import graph_to_dict
from repomodeler.emit.sysml import render_library, render_system
from repomodeler.graph.network import top_level
from repomodeler.sysml_chunks import plan_check
from repomodeler.diff.load import read_sysml_text
from tests.sysml_check import assert_valid_sysml, make_graph, sysml_diagnostics, tree_sitter_errors

IMPORTS = [("shop", "orders/api/handlers.py", 3 + i) for i in range(8)]


def nested_graph():
    """A shop whose orders service has subsystems (one inside another), payments has parts named like
    its port, an inherited feature and a library definition, and mysql holds a logical database."""
    comps = [
        {"id": "orders", "kind": "service", "repository": "shop", "language": "python",
         "ports": {"http": [("GET", "/orders")]}},
        {"id": "payments", "kind": "service", "repository": "shop", "ports": {"http": [("POST", "/pay")]}},
        {"id": "mysql", "kind": "database", "attributes": {"technology": "mysql"},
         "evidence": [("shop", "docker-compose.yml", 20)]},
        {"id": "api.stripe.com", "kind": "external"},
        {"id": "orders/api", "name": "api", "kind": "subsystem", "repository": "shop", "language": "python",
         "parent": "orders", "evidence": [("shop", "orders/api/__init__.py", 1)],
         "attributes": {"path": "orders/api", "files": "4", "purpose": "HTTP handlers for orders.",
                        "endpoints": "GET /orders", "resolved_by": "subsystems"}},
        {"id": "orders/api/v2", "name": "api/v2", "kind": "subsystem", "repository": "shop", "parent": "orders/api",
         "evidence": [("shop", "orders/api/v2/routes.py", 1)], "attributes": {"path": "orders/api/v2", "files": "2"}},
        {"id": "orders/store", "name": "store", "kind": "subsystem", "repository": "shop", "parent": "orders",
         "evidence": [("shop", "orders/store/db.py", 1)], "attributes": {"path": "orders/store", "files": "3"}},
        {"id": "orders/.", "name": ".", "kind": "subsystem", "repository": "shop", "parent": "orders",
         "evidence": [("shop", "main.py", 1)], "attributes": {"path": ".", "files": "1"}},
        {"id": "payments/http", "name": "http", "kind": "subsystem", "repository": "shop", "parent": "payments",
         "evidence": [("shop", "payments/http/server.py", 1)], "attributes": {"path": "payments/http", "files": "2"}},
        {"id": "payments/kind", "name": "kind", "kind": "subsystem", "repository": "shop", "parent": "payments",
         "evidence": [("shop", "payments/kind/enum.py", 1)], "attributes": {"path": "payments/kind", "files": "1"}},
        {"id": "payments/Subsystem", "name": "Subsystem", "kind": "subsystem", "repository": "shop",
         "parent": "payments", "evidence": [("shop", "payments/Subsystem/x.py", 1)],
         "attributes": {"path": "payments/Subsystem", "files": "1"}},
        {"id": "payments/client", "name": "client", "kind": "subsystem", "repository": "shop", "parent": "payments",
         "evidence": [("shop", "payments/client/stripe.py", 1)], "attributes": {"path": "payments/client", "files": "1"}},
        # the part at a component's root is named after the component (a C# project 'payments')
        {"id": "payments/payments", "name": "payments", "kind": "subsystem", "repository": "shop",
         "parent": "payments", "evidence": [("shop", "payments/Program.cs", 1)],
         "attributes": {"path": "payments", "files": "1"}},
        {"id": "mysql/ordersdb", "name": "ordersdb", "kind": "database", "parent": "mysql",
         "attributes": {"database": "ordersdb", "technology": "mysql"}, "evidence": [("shop", "orders/settings.py", 9)]},
    ]
    edges = [
        {"source": "orders", "target": "payments", "protocol": "http", "attributes": {"subsystems": "api"}},
        {"source": "orders", "target": "mysql", "protocol": "sql", "kind": "uses"},
        {"source": "payments", "target": "api.stripe.com", "protocol": "http"},
        {"source": "orders/api", "target": "orders/store", "protocol": "import", "kind": "depends_on",
         "evidence": IMPORTS, "attributes": {"imports": "12", "via": "imports"}},
        {"source": "orders/api/v2", "target": "orders/store", "protocol": "import", "kind": "depends_on",
         "evidence": [("shop", "orders/api/v2/routes.py", 2)], "attributes": {"imports": "1"}},
        {"source": "orders/api", "target": "orders/api/v2", "protocol": "import", "kind": "depends_on",
         "evidence": [("shop", "orders/api/handlers.py", 30)], "attributes": {"imports": "1"}},
        {"source": "orders/api", "target": "payments", "protocol": "http",
         "evidence": [("shop", "orders/api/handlers.py", 40)], "attributes": {"endpoints": "POST /pay"}},
        {"source": "payments/client", "target": "api.stripe.com", "protocol": "http",
         "evidence": [("shop", "payments/client/stripe.py", 7)]},
        {"source": "orders", "target": "mysql/ordersdb", "protocol": "sql", "kind": "uses",
         "evidence": [("shop", "orders/settings.py", 9)], "attributes": {"database": "ordersdb"}},
    ]
    return make_graph("shop", comps, edges)


def _block(text: str, header: str) -> str:
    """The text of the element declared on the line holding `header`, down to its closing brace."""
    start = text.index(header)
    line_start = text.rindex("\n", 0, start) + 1
    line = text[line_start:start]
    indent = len(line) - len(line.lstrip(" "))
    end = text.index("\n" + " " * indent + "}", start)
    return text[line_start:end + indent + 2]


def test_subsystems_are_nested_parts_with_evidence_attributes_and_purpose() -> None:
    text = render_system(nested_graph())
    orders = _block(text, "part orders : Service {")
    api = _block(orders, "part <'orders/api'> api : Subsystem {")
    assert "doc /* Subsystem 'api' of orders: HTTP handlers for orders. */" in api
    assert '@SourceRef { repository = "shop"; path = "orders/api/__init__.py"; line = 1; }' in api
    for line in ('attribute :>> path = "orders/api";', "attribute :>> files = 4;", "attribute :>> 'language' = \"python\";",
                 'attribute :>> endpoints = "GET /orders";'):
        assert line in api
    # a subsystem inside a subsystem is nested one level deeper
    assert "\n                part <'orders/api/v2'> api_v2 : Subsystem {" in api
    assert "part <'orders/.'> root : Subsystem {" in orders and "the code in the root folder" in orders
    # the logical database sits in its server's part, typed like a database component
    mysql = _block(text, "part mysql : Database {")
    assert "part <'mysql/ordersdb'> ordersdb : Database {" in mysql
    assert '@SourceRef { repository = "shop"; path = "orders/settings.py"; line = 9; }' in mysql
    assert 'attribute :>> technology = "mysql";' in _block(mysql, "part <'mysql/ordersdb'>")


def test_nested_names_never_clash_with_ports_inherited_features_or_library_definitions() -> None:
    payments = _block(render_system(nested_graph()), "part payments : Service {")
    assert "port http : PaymentsHttpApi {" in payments
    assert "part <'payments/http'> http_subsystem : Subsystem {" in payments
    assert "part <'payments/kind'> kind_subsystem : Subsystem {" in payments
    assert "part <'payments/Subsystem'> Subsystem_subsystem : Subsystem {" in payments
    # never the name of the part holding it: `expose ShopSystem::payments::**` would see two 'payments'
    assert "part <'payments/payments'> payments_subsystem : Subsystem {" in payments


def test_imports_between_subsystems_are_import_links_inside_their_component() -> None:
    text = render_system(nested_graph())
    orders = _block(text, "part orders : Service {")
    link = _block(orders, "connection <'orders/api-orders/store-import'> api_to_store : ImportLink connect api to store {")
    assert "doc /* api imports store: 12 import statements, 11 more not listed. */" in link
    assert link.count("@SourceRef") == 1 and 'path = "orders/api/handlers.py"; line = 3;' in link
    assert "attribute :>> imports = 12;" in link
    # ends deeper down are dotted paths; a link into a part's own child is declared one level up
    assert "ImportLink connect api.api_v2 to store {" in orders
    assert "ImportLink connect api to api.api_v2 {" in orders


def test_a_subsystem_reaches_another_component_through_its_component_port() -> None:
    """Port delegation: orders/api calls payments through orders' client port, payments/client calls
    stripe through payments' port; each holder connects its part's port to its own."""
    text = render_system(nested_graph())
    orders = _block(text, "part orders : Service {")
    api = _block(orders, "part <'orders/api'> api : Subsystem {")
    assert "port to_payments_http : ~PaymentsHttpApi;" in api
    assert "\n            port to_payments_http : ~PaymentsHttpApi {" in orders  # the component's own client port
    assert "connection api_to_payments_http_delegation : Delegation connect api.to_payments_http to to_payments_http;" \
        in orders
    payments = _block(text, "part payments : Service {")
    assert "connection client_to_api_stripe_com_http_delegation : Delegation connect client.to_api_stripe_com_http " \
           "to to_api_stripe_com_http;" in payments
    # the reader reads no connection from a delegation: the links are the PartLinks and the component's
    assert read_sysml_text(text, "model.sysml").notes == []


def test_links_to_other_components_are_part_links_in_the_system_def() -> None:
    text = render_system(nested_graph())
    system = _block(text, "part def ShopSystem :> System {")
    call = _block(system, "PartLink connect orders.api to payments {")
    assert "doc /* orders/api calls payments over HTTP: POST /pay. */" in call
    assert 'attribute :>> protocol = "http";' in call and 'path = "orders/api/handlers.py"; line = 40;' in call
    assert "PartLink connect payments.client to api_stripe_com {" in system
    db = _block(system, "PartLink connect orders to mysql.ordersdb {")
    assert 'attribute :>> protocol = "sql";' in db and "orders uses mysql/ordersdb over SQL" in db
    # the component-level connection stays, traced to the subsystem that makes it
    top = _block(system, "interface <'orders-payments-http'>")
    assert "; made in subsystem api." in top
    assert "6 components" not in text and "4 components and 3 connections" in text


def test_a_tree_view_per_component_with_parts() -> None:
    text = render_system(nested_graph())
    view = _block(text, "view orders_tree : TreeView {")
    assert "doc /* orders and the parts inside it (4 subsystems), as a tree. */" in view
    assert "expose ShopSystem::orders::**;" in view
    assert "filter @SysML::PartUsage and not @SysML::ConnectionUsage;" in view
    assert "view mysql_tree : TreeView {" in text and "(1 database)" in text
    assert "view api_stripe_com_tree" not in text  # no parts, no tree


def test_nested_output_is_deterministic_and_the_top_level_alone_is_unchanged() -> None:
    g = nested_graph()
    text = render_system(g)
    shuffled = g.__class__()
    shuffled.graph.update(g.graph)
    for n in reversed(list(g.nodes)):
        shuffled.add_node(n, **g.nodes[n])
    for u, v, k, d in reversed(list(g.edges(keys=True, data=True))):
        shuffled.add_edge(u, v, key=k, **d)
    assert render_system(shuffled) == text
    plain = render_system(top_level(g))
    assert "Subsystem" not in plain and "TreeView" not in plain and "PartLink" not in plain
    # without its nested parts, connectors and tree views (and the note naming the subsystem that makes
    # a connection) the text is the top-level text, byte for byte: no top-level name moved
    assert re.sub(r"; made in subsystems? [\w/, ()]+\.", ".", _without_nested(text)) == plain


def _without_nested(text: str) -> str:
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        depth = len(line) - len(line.lstrip(" "))
        if ": Delegation connect" in line:  # a one-line port delegation to a nested part
            i += 1
            continue
        if (depth >= 12 and line.lstrip().startswith("part ")) or ": ImportLink connect" in line \
                or ": PartLink connect" in line or ": TreeView {" in line:
            while not lines[i].startswith(" " * depth + "}"):
                i += 1
            i += 1
            if out and out[-1] == "\n" and depth <= 8:
                out.pop()  # the blank line before a system-level connector or a view
            continue
        out.append(line)
        i += 1
    return "".join(out)


def test_every_reader_accepts_the_nested_model(tmp_path: Path) -> None:
    text, library = render_system(nested_graph()), render_library()
    assert_valid_sysml([library, text])
    assert [d.format() for d in sysml_diagnostics([library, text]) if d.severity == "warning"] == []
    assert tree_sitter_errors(text) == [] and tree_sitter_errors(library) == []
    (tmp_path / "RepoModeler.sysml").write_text(library, encoding="utf-8")
    (tmp_path / "model.sysml").write_text(text, encoding="utf-8")
    longeron = pytest.importorskip("longeron", reason="longeron is not installed")
    from longeron.validation import validate

    for name in ("RepoModeler.sysml", "model.sysml"):
        longeron.parse_file(tmp_path / name)
    assert [str(d) for d in validate(longeron.load(str(tmp_path), cache=False), strict=True)
            if d.severity == "error"] == []
    core = pytest.importorskip("mercurio._core", reason="mercurio-sysml is not installed")
    compiled = core.ModelBuilder.from_sysml_files({"RepoModeler.sysml": library, "model.sysml": text}, True).compile_model()
    names = {e.get_str("qualified_name") or "" for e in compiled.elements()}
    assert {"shop.ShopSystem.orders.api", "shop.ShopSystem.orders.api.api_v2", "shop.ShopSystem.mysql.ordersdb"} <= names


def test_the_reader_reads_the_parts_and_their_links_back_as_model_json_has_them() -> None:
    g = nested_graph()
    from_sysml = read_sysml_text(render_system(g), "model.sysml")
    from_json = model_from_dict(graph_to_dict(g), "model.json")
    assert from_sysml.notes == []
    assert set(from_sysml.components) == set(from_json.components) == {"orders", "payments", "mysql", "api.stripe.com"}
    assert {p: (m.parent, m.kind) for p, m in from_sysml.parts.items()} == \
        {p: (m.parent, m.kind) for p, m in from_json.parts.items()}
    assert from_sysml.parts["orders/api/v2"].parent == "orders/api"
    assert from_sysml.parts["mysql/ordersdb"].kind == "database"
    api = from_sysml.parts["orders/api"]
    assert {k: api.attributes[k] for k in ("path", "files", "language", "endpoints")} == \
        {"path": "orders/api", "files": "4", "language": "python", "endpoints": "GET /orders"}
    assert api.evidence == ["shop:orders/api/__init__.py:1"]
    assert {c.id for c in from_sysml.part_links} == {c.id for c in from_json.part_links}
    assert "orders/api->orders/store:import" in {c.id for c in from_sysml.part_links}
    assert "orders->mysql/ordersdb:sql" in {c.id for c in from_sysml.part_links}
    assert from_sysml.connection_ids() == from_json.connection_ids()  # the top level is untouched


def test_hand_written_nested_parts_and_connectors_are_read() -> None:
    text = """package Plan { part system {
        part shop : Service {
            part web : Subsystem;
            part core : Subsystem { part rules : Subsystem; }
            connection : ImportLink connect web to core.rules;
            connect web to nowhere;
        }
        part bank : ExternalSystem;
        connection connect shop.web to bank { attribute protocol = "http"; }
    } }"""
    model = read_sysml_text(text, "plan.sysml")
    assert set(model.components) == {"shop", "bank"}
    assert {p: m.parent for p, m in model.parts.items()} == {"shop/web": "shop", "shop/core": "shop",
                                                             "shop/core/rules": "shop/core"}
    assert {c.id for c in model.part_links} == {"shop/web->shop/core/rules:import", "shop/web->bank:http"}
    assert [str(n) for n in model.notes] == [
        "plan.sysml:6: 'connect' end 'nowhere' is not a part of 'shop'; connection not mapped"]


def test_a_big_nested_model_is_checked_in_chunks_once_per_shape(tmp_path: Path) -> None:
    """Subsystems and import links differ only in names, strings and integer values: the chunked
    check keeps one of each shape, and still finds a broken one."""
    comps = [{"id": "app", "kind": "service", "repository": "r"}, {"id": "web", "kind": "service", "repository": "r"}]
    edges = []
    for i in range(120):
        comps.append({"id": f"app/pkg{i:03d}", "name": f"pkg{i:03d}", "kind": "subsystem", "repository": "r",
                      "parent": "app", "evidence": [("r", f"pkg{i:03d}/a.go", 1)],
                      "attributes": {"path": f"pkg{i:03d}", "files": str(1 + i % 7)}})
        if i:
            edges.append({"source": f"app/pkg{i:03d}", "target": f"app/pkg{i - 1:03d}", "protocol": "import",
                          "kind": "depends_on", "evidence": [("r", f"pkg{i:03d}/a.go", 3 + i % 5)],
                          "attributes": {"imports": str(1 + i % 9)}})
    text, library = render_system(make_graph("big", comps, edges)), render_library()
    plan = plan_check(text, len(text) // 5, dedup=True, context=(library,))
    assert plan is not None and len(plan.texts) == 1 and plan.skipped > 100
    (tmp_path / "RepoModeler.sysml").write_text(library, encoding="utf-8")
    broken = text.replace("connect pkg050 to pkg049", "connect pkg050 to pkg49", 1)
    (tmp_path / "model.sysml").write_text(broken, encoding="utf-8")
    from repomodeler.validate import SysmlEngine

    engine = SysmlEngine.start()
    try:
        found = engine.validate([tmp_path / "RepoModeler.sysml", tmp_path / "model.sysml"], chunk_bytes=len(text) // 5)
    finally:
        engine.close()
    line = broken.splitlines().index(next(x for x in broken.splitlines() if "connect pkg050 to pkg49" in x)) + 1
    assert {d.line for d in found if d.severity == "error"} == {line}


def test_analyze_writes_nested_subsystems_that_pass_the_strict_check(tmp_path: Path) -> None:
    from conftest import make_repo

    from repomodeler.pipeline import AnalyzeOptions, analyze
    from repomodeler.diff.load import read_sysml_file
    from tests.test_subsystems import go_shop

    make_repo(tmp_path / "shop", go_shop())
    analyze([str(tmp_path / "shop")], AnalyzeOptions(out=tmp_path / "out", use_cache=False))  # audit: strict check
    text = (tmp_path / "out" / "model.sysml").read_text(encoding="utf-8")
    shop = _block(text, "part shop : Service {")
    assert "part <'shop/internal/web'> internal_web : Subsystem {" in shop
    assert "doc /* Subsystem 'internal/web' of shop: Package web serves the shop's HTTP API. */" in shop
    link = _block(shop, "ImportLink connect internal_web to internal_orders {")
    assert 'path = "internal/web/router.go"; line = 7;' in link or "line = 6;" in link
    assert "view shop_tree : TreeView {" in text
    model = read_sysml_file(tmp_path / "out" / "model.sysml")
    assert model.notes == [] and model.parts["shop/internal/web"].parent == "shop"


def test_a_protocol_the_library_has_no_port_for_reads_back_as_itself() -> None:
    """A process starting another (model.json protocol 'process') is an OtherLink between OtherApi
    ports; the reader takes the protocol from the connector's short name and the port's name."""
    g = make_graph("cli", [{"id": "cli", "kind": "service", "repository": "r"},
                           {"id": "server", "kind": "service", "repository": "r"}],
                   [{"source": "cli", "target": "server", "protocol": "process", "kind": "spawns"}])
    model = read_sysml_text(render_system(g), "model.sysml")
    assert model.notes == []
    assert model.connection_ids() == {"cli->server:process"}
    assert model.components["server"].ports["process"].protocol == "process"
