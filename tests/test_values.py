"""The small reading rules the resolver relies on (graph/values.py, graph/naming.py)."""

from __future__ import annotations

import pytest

from repomodeler.graph.naming import dependency_key, slug, unit_name
from repomodeler.graph.values import HostRef, client_path, grpc_service_name, http_verb, parse_hosts, route_of
from repomodeler.records import Fact


@pytest.mark.parametrize("value,refs", [
    ("postgresql://shop:secret@orders-db:5432/orders", [HostRef("orders-db", 5432, "postgresql", "orders")]),
    ("jdbc:postgresql://db:5432/x", [HostRef("db", 5432, "postgresql", "x")]),
    ("jdbc:mysql://mysql:3306/orders?useSSL=false", [HostRef("mysql", 3306, "mysql", "orders")]),
    ("mongodb://m:27017/users", [HostRef("m", 27017, "mongodb", "users")]),
    ("jdbc:sqlserver://db:1433;databaseName=orders", [HostRef("db", 1433, "sqlserver", "orders")]),
    ("redis://r:6379/0", [HostRef("r", 6379, "redis")]),
    ("postgres://db:5432/${DB_NAME}", [HostRef("db", 5432, "postgres")]),
    ("user:pw@tcp(catalogue-db:3306)/socks", [HostRef("catalogue-db", 3306, "mysql", "socks")]),
    # a name under the operator's domain, filled in at install time, or interpolated empty: no host
    ("wss://broker.${NM_DOMAIN}", []),
    ("https://api.", []),
    ("https://api.example.com./v1", [HostRef("api.example.com.", None, "https")]),
    ("Server=sqldata;Database=Ordering.Db;User Id=sa", [HostRef("sqldata", None, None, "Ordering.Db")]),
    ("Host=postgres;Port=5432;Database=catalogdb", [HostRef("postgres", 5432, None, "catalogdb")]),
    ("kafka:9092,kafka2:9093", [HostRef("kafka", 9092, None), HostRef("kafka2", 9093, None)]),
    ("http://[::1]:8080/x", [HostRef("::1", 8080, "http")]),
    ("lb://orders", [HostRef("orders", None, "lb")]),
    ("${ORDERS_URL}/x", []),
    ("just words", []),
    # a URL whose path holds a stand-in for the reader's own value is a template, not an address
    ("https://sqs.us-east-1.amazonaws.com/your-account-id", []),
    ("https://hooks.slack.com/services/YOUR/WEBHOOK/URL", []),
    ("https://storage.example-cdn.net/<bucket>/k", []),
    ("http://api:8080/yourself", [HostRef("api", 8080, "http")]),
    ("http://a:80/x http://b/your-token", [HostRef("a", 80, "http")]),
    # a literal cut inside the user's part, a password joined on next: no host (root is the user)
    ("mysql://root:", []),
    ("http://db:${PORT}/x", [HostRef("db", None, "http")]),
])
def test_parse_hosts(value: str, refs: list[HostRef]) -> None:
    assert parse_hosts(value) == refs


@pytest.mark.parametrize("word,verb", [
    ("POST", "POST"), ("http.MethodPost", "POST"), ("HttpGet", "GET"), ("getForObject", "GET"),
    ("postForEntity", "POST"), ("MapDelete", "DELETE"), ("route", None), ("exchange", None),
])
def test_http_verb(word: str, verb: str | None) -> None:
    assert http_verb(word) == verb


@pytest.mark.parametrize("raw,strip,name", [
    ("pb.RegisterCartServiceServer", None, "cartservice"), ("add_CartServiceServicer_to_server", None, "cartservice"),
    ("CartServiceGrpc.CartServiceImplBase", None, "cartservice"), ("NewCartServiceClient", None, "cartservice"),
    ("CartServiceCoroutineStub", None, "cartservice"), ("hipstershop.CartService", None, "cartservice"),
    ("CartServiceHandler", "Handler$", "cartservice"),
])
def test_grpc_service_name(raw: str, strip: str | None, name: str) -> None:
    assert grpc_service_name(raw, strip) == name


@pytest.mark.parametrize("expr,path", [
    ('f"{BASE}/orders"', "/orders"), ("`${URL}/orders/${id}`", "/orders/{}"), ('"http://orders:8080/a/b?x=1"', "/a/b"),
    ('BASE + "/pay"', "/pay"), ("client", ""),
])
def test_client_path(expr: str, path: str) -> None:
    assert client_path(expr) == path


def _route(**attrs: str) -> Fact:
    return Fact("http.route", "r", "f", 1, "x", tuple(sorted(attrs.items())))


@pytest.mark.parametrize("attrs,prefix,expected", [
    ({"method": "GetMapping", "path": "/{sku}", "prefix": "/inventory"}, "", ("GET", "/inventory/{sku}")),
    ({"method": "HandleFunc", "path": "GET /payments/{id}"}, "", ("GET", "/payments/{id}")),
    ({"method": "get", "path": "{id}", "prefix": "api/[controller]", "controller": "InvoicesController"}, "",
     ("GET", "/api/invoices/{id}")),
    ({"method": "post", "path": ""}, "/orders", ("POST", "/orders")),
    ({"method": "ANY", "path": ":products", "prefix": ":api", "framework": "rails"}, "", ("ANY", "/api/products")),
])
def test_route_of(attrs: dict[str, str], prefix: str, expected: tuple[str, str]) -> None:
    assert route_of(_route(**attrs), prefix) == expected


def test_names() -> None:
    assert slug("Orders Service!") == "orders-service"
    assert dependency_key("Acme_Auth.Lib") == "acme-auth-lib"
    assert unit_name("shop", "src/cartservice/src", None, ["src/cartservice/src/cartservice.csproj"]) == "cartservice"
    assert unit_name("shop", "orders/src", "@acme/orders", ["orders/src/package.json"]) == "orders"
    assert unit_name("shop", "", None, []) == "shop"


def test_compose_required_and_alternate_forms_have_no_default() -> None:
    from repomodeler.graph.values import expand_placeholders
    unset = lambda name: None  # noqa: E731
    assert expand_placeholders("${CI_IMAGE:?error}", unset) == "${CI_IMAGE:?error}"
    assert expand_placeholders("${TLS:+https}", unset) == "${TLS:+https}"
    assert expand_placeholders("${HOST:-db}:5432", unset) == "db:5432"
    assert expand_placeholders("${server.port:8080}", unset) == "8080"
    assert expand_placeholders("${CI_IMAGE:?error}", lambda n: "zulip:1") == "zulip:1"


def test_a_name_under_the_operators_domain_is_listed_unresolved() -> None:
    """`BROKER_ENDPOINT=wss://broker.${NM_DOMAIN}` names no container `broker` and no system outside: the
    value is listed as unresolved, with its line, never dropped silently."""
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory

    files = {"docker-compose.yml": ("services:\n  server:\n    image: acme/server:1\n    environment:\n"
                                    "      - BROKER_ENDPOINT=wss://broker.${NM_DOMAIN}\n"
                                    "  broker:\n    image: eclipse-mosquitto:2\n")}
    model = resolve_system("mesh", extract_in_memory({"mesh": files}))
    assert ("server", "broker") not in {(c.source, c.target) for c in model.connections.values()}
    listed = [(u.component, u.value, u.evidence.line) for u in model.unresolved]
    assert ("server", "wss://broker.${NM_DOMAIN}", 5) in listed
