"""The sample systems under samples/ analysed end to end: one per extraction family.

Each sample's README.md holds a table of the components and connections a reader of its code
expects.  These tests analyse the sample folder in-process (strict SysML check on) and compare the
model with that table as exact sets, so a regression that drops a connection or adds noise fails.
Every connection must carry at least one evidence line that really names its target.

Where repomodeler cannot yet see something the framework clearly expresses, the sample stays
realistic: the passing test states what is found today, and a strict ``xfail`` test states what the
README expects, naming the missing rule.  When the rule lands the xfail test passes, pytest reports it
as XPASS(strict) and fails, and the gap moves into the main expectation.
"""

from __future__ import annotations

import json

import pytest

from conftest import SAMPLES
from model_views import top_level
from repomodeler.pipeline import AnalyzeOptions, analyze

Edge = tuple[str, str, str]


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Each sample analysed once per module (validate=True: the strict SysML check must pass)."""
    out = tmp_path_factory.mktemp("samples")
    done: dict[str, dict] = {}
    with pytest.MonkeyPatch.context() as mp:  # module scope: no clone/fact cache outside tmp
        mp.setenv("REPOMODELER_HOME", str(out / "home"))
        for name in ("spring-cloud", "grpc-mesh", "polyglot-events", "node-python"):
            analyze([str(SAMPLES / name)], AnalyzeOptions(out=out / name, validate=True, use_cache=False))
            done[name] = top_level(json.loads((out / name / "model.json").read_text(encoding="utf-8")))
    return done


# ------------------------------------------------------------------ helpers
def components(model: dict) -> dict[str, tuple[str, str | None]]:
    return {n["id"]: (n["kind"], n["language"]) for n in model["nodes"]}


def edges(model: dict) -> set[Edge]:
    return {(e["source"], e["target"], e["protocol"]) for e in model["edges"]}


def edge(model: dict, source: str, target: str) -> dict:
    return next(e for e in model["edges"] if (e["source"], e["target"]) == (source, target))


def endpoints(model: dict, cid: str) -> set[tuple[str, str]]:
    node = next(n for n in model["nodes"] if n["id"] == cid)
    return {(ep["method"], ep["path"]) for p in node["ports"] for ep in p["endpoints"]}


def topics(model: dict, source: str, target: str) -> tuple[str, str]:
    attrs = edge(model, source, target)["attributes"]
    return attrs.get("publishes", ""), attrs.get("subscribes", "")


def evidence_of(model: dict, source: str, target: str) -> set[tuple[str, int]]:
    return {(ev["path"], ev["line"]) for ev in edge(model, source, target)["evidence"]}


def evidence_line(sample: str, ev: dict) -> str:
    lines = (SAMPLES / sample / ev["path"]).read_text(encoding="utf-8").splitlines()
    return lines[ev["line"] - 1]


def assert_evidence_names_targets(sample: str, model: dict, names: dict[str, tuple[str, ...]] | None = None) -> None:
    """Every connection has an evidence line that names its target (the id, or a name the code uses)."""
    names = names or {}
    for e in model["edges"]:
        words = (e["target"].lower(), *names.get(e["target"], ()))
        lines = [evidence_line(sample, ev) for ev in e["evidence"]]
        assert any(w in line.lower() for line in lines for w in words), (
            f"{e['source']} -> {e['target']}: no evidence line names the target: {lines}")


# ------------------------------------------------------------------ spring-cloud
SPRING_COMPONENTS = {
    "config-server": ("service", "java"), "registry": ("service", "java"), "gateway": ("gateway", "java"),
    "orders": ("service", "java"), "inventory": ("service", "kotlin"), "notifications": ("service", "kotlin"),
    "orders-db": ("database", None), "kafka": ("broker", None), "user": ("user", None),
}
SPRING_EDGES = {
    ("gateway", "orders", "http"), ("gateway", "inventory", "http"),
    ("orders", "inventory", "http"), ("orders", "orders-db", "sql"),
    ("orders", "kafka", "kafka"), ("inventory", "kafka", "kafka"), ("notifications", "kafka", "kafka"),
    *{(c, "config-server", "http") for c in ("gateway", "orders", "inventory", "notifications")},
    *{(c, "registry", "http") for c in ("gateway", "orders", "inventory", "notifications")},
    ("user", "gateway", "http"),
}


def test_spring_cloud_components_and_connections(models) -> None:
    model = models["spring-cloud"]
    assert components(model) == SPRING_COMPONENTS
    assert edges(model) == SPRING_EDGES
    assert model["unresolved"] == [] and model["warnings"] == []
    assert_evidence_names_targets("spring-cloud", model)


def test_spring_cloud_endpoints_topics_and_where_they_are_written(models) -> None:
    model = models["spring-cloud"]
    assert endpoints(model, "orders") == {("GET", "/orders/{id}"), ("POST", "/orders")}
    assert endpoints(model, "inventory") == {("GET", "/inventory/{sku}"), ("PUT", "/inventory/{sku}")}
    assert topics(model, "orders", "kafka") == ("orders.created", "")
    assert topics(model, "inventory", "kafka") == ("stock.reserved", "orders.created")
    assert topics(model, "notifications", "kafka") == ("", "orders.created, stock.reserved")
    lines = lambda s, t: evidence_of(model, s, t)  # noqa: E731
    shared = "config-server/src/main/resources/shared"
    assert (f"{shared}/gateway.yml", 8) in lines("gateway", "orders")          # uri: lb://orders
    assert (f"{shared}/orders.yml", 5) in lines("orders", "orders-db")         # spring.datasource.url
    assert (f"{shared}/application.yml", 5) in lines("inventory", "registry")  # eureka defaultZone
    assert ("orders/src/main/resources/bootstrap.yml", 6) in lines("orders", "config-server")
    assert ("orders/src/main/java/com/acme/orders/InventoryClient.java", 7) in lines("orders", "inventory")
    assert ("orders/src/main/java/com/acme/orders/OrderController.java", 41) in lines("orders", "kafka")
    # Shared Kafka settings reach only clients with a Kafka library: not the gateway.
    assert not any(e[0] == "gateway" and e[1] == "kafka" for e in edges(model))


def test_spring_cloud_gateway_is_a_gateway(models) -> None:
    assert components(models["spring-cloud"])["gateway"][0] == "gateway"


def test_spring_cloud_feign_endpoint_on_the_connection(models) -> None:
    assert edge(models["spring-cloud"], "orders", "inventory")["attributes"].get("endpoints") == "GET /inventory/{sku}"


# ------------------------------------------------------------------ grpc-mesh
def test_grpc_mesh_components_and_connections(models) -> None:
    model = models["grpc-mesh"]
    assert components(model) == {
        "frontend": ("service", "javascript"), "checkout": ("service", "python"), "cart": ("service", "go"),
        "redis-cart": ("cache", None), "user": ("user", None)}
    assert edges(model) == {
        ("frontend", "cart", "grpc"), ("frontend", "checkout", "grpc"), ("checkout", "cart", "grpc"),
        ("cart", "redis-cart", "redis"), ("user", "frontend", "http")}  # the Ingress is a route, not a part
    assert model["unresolved"] == [] and model["warnings"] == []


def test_grpc_mesh_rpcs_routes_and_evidence(models) -> None:
    model = models["grpc-mesh"]
    assert endpoints(model, "cart") == {("RPC", "CartService/AddItem"), ("RPC", "CartService/GetCart"),
                                        ("RPC", "CartService/EmptyCart")}
    assert endpoints(model, "checkout") == {("RPC", "CheckoutService/PlaceOrder")}
    assert endpoints(model, "frontend") == {("GET", "/cart/:user"), ("POST", "/cart/:user/items"),
                                            ("POST", "/checkout/:user")}
    lines = lambda s, t: evidence_of(model, s, t)  # noqa: E731
    assert {("checkout/server.py", 16), ("k8s/checkout.yaml", 22)} <= lines("checkout", "cart")  # stub + CART_ADDR
    assert ("frontend/server.js", 10) in lines("frontend", "checkout")
    assert ("k8s/cart.yaml", 32) in lines("cart", "redis-cart")          # ConfigMap REDIS_ADDR via envFrom
    # the LoadBalancer Service, the Ingress and its rule routing / to frontend
    assert lines("user", "frontend") == {("k8s/frontend.yaml", 40), ("k8s/frontend.yaml", 53), ("k8s/frontend.yaml", 63)}


def test_grpc_mesh_ingress_entry_evidence_names_the_ingress(models) -> None:
    assert ("k8s/frontend.yaml", 53) in evidence_of(models["grpc-mesh"], "user", "frontend")
    entry = edge(models["grpc-mesh"], "user", "frontend")
    assert entry["attributes"]["via"] == "ingress shop-ingress" and entry["attributes"]["routes"] == "/"


# ------------------------------------------------------------------ polyglot-events
POLYGLOT_EDGES = {
    ("proxy", "orders", "http"), ("proxy", "catalog", "http"), ("proxy", "billing", "http"),
    ("proxy", "shipping", "http"), ("orders", "catalog", "http"), ("catalog", "shipping", "http"),
    ("orders", "mongo", "mongodb"), ("catalog", "mongo", "mongodb"),
    ("orders", "rabbitmq", "amqp"), ("billing", "rabbitmq", "amqp"), ("shipping", "rabbitmq", "amqp"),
    ("billing", "api.sendgrid.com", "http"), ("shipping", "api.easypost.com", "http"),
    ("user", "proxy", "http"),
}
POLYGLOT_MISSING: set[tuple[str, str, str]] = set()


def test_polyglot_events_components_and_connections(models) -> None:
    model = models["polyglot-events"]
    assert components(model) == {
        "proxy": ("gateway", None), "orders": ("service", "csharp"), "catalog": ("service", "ruby"),
        "billing": ("service", "php"), "shipping": ("service", "rust"), "mongo": ("database", None),
        "rabbitmq": ("broker", None), "api.sendgrid.com": ("external", None),
        "api.easypost.com": ("external", None), "user": ("user", None)}
    assert edges(model) == POLYGLOT_EDGES - POLYGLOT_MISSING
    assert model["unresolved"] == []
    assert model["warnings"] == []
    assert_evidence_names_targets("polyglot-events", model, {"rabbitmq": ("orders.placed", "invoices.created")})


def test_polyglot_events_topics_routes_and_evidence(models) -> None:
    model = models["polyglot-events"]
    assert topics(model, "orders", "rabbitmq") == ("orders.placed", "invoices.created")
    assert topics(model, "billing", "rabbitmq") == ("invoices.created", "orders.placed")
    assert topics(model, "shipping", "rabbitmq") == ("", "orders.placed")
    rabbit = next(n for n in model["nodes"] if n["id"] == "rabbitmq")
    assert rabbit["attributes"]["topics"] == "invoices.created, orders.placed"
    assert endpoints(model, "shipping") == {("GET", "/api/quotes"), ("GET", "/api/shipments/:id")}
    lines = lambda s, t: evidence_of(model, s, t)  # noqa: E731
    assert ("nginx/nginx.conf", 5) in lines("proxy", "orders")      # server orders:8080 in an upstream
    assert ("nginx/nginx.conf", 25) in lines("proxy", "billing")    # proxy_pass http://billing:80
    assert ("catalog/app/services/shipping_client.rb", 6) in lines("catalog", "shipping")
    assert ("billing/config/services.php", 5) in lines("billing", "api.sendgrid.com")
    assert {("orders/Program.cs", 42), ("orders/Program.cs", 51)} <= lines("orders", "rabbitmq")
    assert {("shipping/src/main.rs", 48)} <= lines("shipping", "rabbitmq")


def test_polyglot_events_faraday_instance_variable_call(models) -> None:
    model = models["polyglot-events"]
    assert edge(model, "catalog", "shipping")["attributes"].get("endpoints") == "GET /api/quotes"
    assert ("catalog/app/services/shipping_client.rb", 12) in evidence_of(model, "catalog", "shipping")


def test_polyglot_events_external_api_through_a_constant(models) -> None:
    assert ("shipping", "api.easypost.com", "http") in edges(models["polyglot-events"])


def test_polyglot_events_minimal_api_group_prefix(models) -> None:
    assert endpoints(models["polyglot-events"], "orders") == {("GET", "/api/orders/{id}"), ("POST", "/api/orders")}


def test_polyglot_events_rails_namespace(models) -> None:
    assert endpoints(models["polyglot-events"], "catalog") == {
        ("ANY", "/api/products"), ("GET", "/api/products/:id/shipping"), ("GET", "/up")}


def test_polyglot_events_laravel_api_prefix(models) -> None:
    assert endpoints(models["polyglot-events"], "billing") == {
        ("GET", "/api/invoices/{id}"), ("POST", "/api/invoices/{id}/resend")}


def test_polyglot_events_aspnet_configuration_key(models) -> None:
    assert ("orders/Program.cs", 11) in evidence_of(models["polyglot-events"], "orders", "catalog")


def test_polyglot_events_listen_address_is_not_a_reference(models) -> None:
    assert models["polyglot-events"]["unresolved"] == []


# ------------------------------------------------------------------ node-python
def test_node_python_components_libraries_and_connections(models) -> None:
    model = models["node-python"]
    assert components(model) == {
        "web": ("service", "javascript"), "api": ("service", "python"), "notifier": ("service", "typescript"),
        "reports": ("service", "python"), "db": ("database", None), "redis": ("cache", None),
        "acme-auth": ("library", "python"), "user": ("user", None)}  # events: a part of notifier, its only user
    assert edges(model) == {
        ("web", "api", "http"), ("web", "notifier", "http"), ("api", "db", "sql"), ("api", "redis", "redis"),
        ("notifier", "redis", "redis"), ("reports", "db", "sql"),
        ("api", "acme-auth", "library"), ("reports", "acme-auth", "library"),
        ("user", "web", "http"), ("user", "reports", "http")}
    assert model["unresolved"] == [] and model["warnings"] == []
    assert_evidence_names_targets("node-python", model)
    lib = {e["kind"] for e in model["edges"] if e["protocol"] == "library"}
    assert lib == {"depends_on"}


def test_node_python_endpoints_and_calls(models) -> None:
    model = models["node-python"]
    assert endpoints(model, "web") == {("GET", "/"), ("GET", "/orders/:id"), ("POST", "/orders"),
                                       ("GET", "/notifications/:user")}
    assert endpoints(model, "notifier") == {("GET", "/notifications/:user")}
    assert endpoints(model, "reports") == {("ANY", "/reports/daily/"), ("ANY", "/reports/customers/<int:customer_id>/")}
    assert edge(model, "web", "api")["attributes"]["endpoints"] == "GET /orders/{}, POST /orders"
    assert edge(model, "web", "notifier")["attributes"]["endpoints"] == "GET /notifications/{}"
    assert topics(model, "notifier", "redis") == ("", "orders.created")


def test_node_python_fastapi_router_prefix(models) -> None:
    assert endpoints(models["node-python"], "api") == {
        ("GET", "/orders/{order_id}"), ("POST", "/orders"), ("GET", "/health")}


def test_node_python_redis_publish_through_a_named_client(models) -> None:
    assert topics(models["node-python"], "api", "redis") == ("orders.created", "")
