"""Issue #13, stable identity: the name of a generated element depends on that element alone, so a
hand-written ``satisfy``/``allocate`` or a target that names generated elements keeps resolving after
the model is regenerated from another commit with other components around it."""

from __future__ import annotations

import re

import pytest

from repomodeler.emit.names import IdentAllocator, short_name_ok, sysml_ident
from repomodeler.emit.sysml import render_library, render_system
from tests.sysml_check import assert_valid_sysml, make_graph


def test_identifiers_are_basic_names_derived_from_the_text() -> None:
    assert sysml_ident("orders") == "orders"
    assert sysml_ident("api.stripe.com") == "api_stripe_com"
    assert sysml_ident("to-api.stripe.com-http") == "to_api_stripe_com_http"
    assert sysml_ident("192.168.99.100") == "_192_168_99_100"
    assert sysml_ident("GET /orders/{order_id}") == "GET_orders_order_id"
    assert sysml_ident("part") == "part_" and sysml_ident("end") == "end_"
    assert sysml_ident("---") == "x"
    assert short_name_ok("api.stripe.com", "api_stripe_com")
    assert not short_name_ok("my service", "my_service")  # mercurio: no white space in short names
    assert not short_name_ok("start", "start_service")  # an inherited feature name, even as a short name


def test_collisions_are_resolved_by_the_text_itself_not_by_order() -> None:
    # Two ids that map to one identifier: an id that already is an identifier keeps it, the others get a
    # suffix computed from their own text, so the order they come in (and any third element) changes nothing.
    one = IdentAllocator({"Service"}).take_all([("orders-db", "c"), ("orders_db", "c"), ("start", "service")])
    two = IdentAllocator({"Service"}).take_all([("orders_db", "c"), ("start", "service"), ("orders-db", "c"),
                                               ("orders.db", "c"), ("a", "c")])
    assert one == {k: two[k] for k in one}
    assert one["orders_db"] == "orders_db" and one["start"] == "start_service"
    assert re.fullmatch(r"orders_db_[0-9a-f]{6}", one["orders-db"]) and two["orders.db"] != two["orders-db"]


def _graph(extra: bool):
    comps = [{"id": "orders", "kind": "service", "repository": "shop", "ports": {"http": [("GET", "/orders")]}},
             {"id": "orders-db", "kind": "database", "repository": "shop"},
             {"id": "api.stripe.com", "kind": "external"}]
    edges = [{"source": "orders", "target": "orders-db", "protocol": "sql", "kind": "uses"},
             {"source": "orders", "target": "api.stripe.com", "protocol": "http"}]
    if extra:  # a later commit: new components that sort first and last, new connections and endpoints
        comps += [{"id": "aaa", "kind": "service", "repository": "shop"},
                  {"id": "orders.archive", "kind": "database", "repository": "shop"},
                  {"id": "zz-top", "kind": "external"}]
        comps[0]["ports"] = {"http": [("GET", "/orders"), ("DELETE", "/orders"), ("GET", "/a")]}
        edges += [{"source": "aaa", "target": "orders", "protocol": "http"},
                  {"source": "orders", "target": "orders.archive", "protocol": "sql", "kind": "uses"},
                  {"source": "orders", "target": "zz-top", "protocol": "grpc"}]
    return make_graph("shop", comps, edges)


def _declarations(text: str) -> dict[str, str]:
    """short name (or name) -> declared name, for every part, port, connector and endpoint."""
    found = {}
    for m in re.finditer(r"\b(part|port|interface|connection|ref item) (?:<'([^']+)'> )?(\w+) :", text):
        found[f"{m.group(1)} {m.group(2) or m.group(3)}"] = m.group(3)
    return found


def test_names_survive_regeneration_with_other_components_around() -> None:
    before, after = render_system(_graph(False)), render_system(_graph(True))
    old, new = _declarations(before), _declarations(after)
    assert old and all(new[k] == v for k, v in old.items()), {k: (v, new.get(k)) for k, v in old.items()}
    assert len(new) > len(old)
    # a hand-written requirement and allocation naming generated elements resolve in both versions
    extra = """package handwritten {
    private import shop::*;
    requirement def PaymentsAudited { doc /* Calls to the payment provider are audited. */ }
    requirement paymentsAudited : PaymentsAudited;
    satisfy paymentsAudited by system.orders;
    allocation def Deploys;
    part cluster;
    allocate system.orders_api_stripe_com_http to cluster;
}
"""
    for text in (before, after):
        assert_valid_sysml([render_library(), text, extra])


def test_a_target_specialises_the_typed_system_def() -> None:
    """The typed top-level system def lets a target inherit every generated part and connector."""
    text = render_system(_graph(False))
    assert "\n    part def ShopSystem :> System {" in text and "\n    part system : ShopSystem {" in text
    target = """package shopTarget {
    private import RepoModeler::*;
    part def ShopTarget :> shop::ShopSystem {
        doc /* The intended state: everything generated, plus an audit service the orders service calls. */
        part audit : Service { port http : HttpApi; }
        part :>> orders { port to_audit_http : ~HttpApi; }
        interface orders_audit_http : HttpLink connect client ::> orders.to_audit_http to server ::> audit.http;
    }
    part target : ShopTarget;
}
"""
    assert_valid_sysml([render_library(), text, target])
    core = pytest.importorskip("mercurio._core", reason="mercurio-sysml is not installed")
    files = {"RepoModeler.sysml": render_library(), "model.sysml": text, "target.sysml": target}
    compiled = core.ModelBuilder.from_sysml_files(files, True).compile_model()
    assert "shopTarget" in {(e.get_str("qualified_name") or "").split(".")[0] for e in compiled.elements()}
