"""`query callers`, `impact` and `path` on two real systems, against answers checked by hand.

The models are fixtures (tests/fixtures/query/README.md says how they were made). The expected
answers were checked against the repositories, not against the tool's output:

Online Boutique (README "Architecture"; each service reads its peers' addresses from
``*_SERVICE_ADDR`` in kubernetes-manifests/*.yaml and calls them through generated gRPC clients):
frontend calls ad, cart, checkout, currency, productcatalog, recommendation and shipping (and the
shopping assistant over HTTP); checkout calls cart, currency, email, payment, productcatalog and
shipping; recommendation calls productcatalog; cart keeps carts in redis-cart (``REDIS_ADDR``);
the load generator drives the frontend.

PiggyMetrics (README; config/src/main/resources/shared/gateway.yml routes /uaa, /accounts,
/statistics and /notifications; ``@FeignClient`` interfaces): account-service calls auth-service
and statistics-service, notification-service calls account-service, every service checks tokens
with auth-service (``security.oauth2.resource.user-info-uri``), each service has its own MongoDB.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repomodeler.query import QueryIndex, callers, impact, load, path

FIXTURES = Path(__file__).parent / "fixtures" / "query"


@pytest.fixture(scope="module")
def boutique() -> QueryIndex:
    return QueryIndex(load(str(FIXTURES / "online-boutique")).model, "online-boutique")


@pytest.fixture(scope="module")
def piggy() -> QueryIndex:
    return QueryIndex(load(str(FIXTURES / "piggymetrics")).model, "piggymetrics")


def _callers(index: QueryIndex, name: str) -> dict[str, tuple[str, ...]]:
    return {n.component.id: tuple(e for link in n.links for e in link.evidence) for n in callers(index, name).neighbours}


# ------------------------------------------------------------------------------- Online Boutique
def test_boutique_callers_of_the_product_catalog(boutique):
    got = _callers(boutique, "productcatalogservice")
    assert sorted(got) == ["checkoutservice", "frontend", "recommendationservice"]
    # PRODUCT_CATALOG_SERVICE_ADDR = productcatalogservice:3550 in each caller's manifest
    assert "microservices-demo:kubernetes-manifests/frontend.yaml:69" in got["frontend"]
    assert "microservices-demo:kubernetes-manifests/checkoutservice.yaml:57" in got["checkoutservice"]
    assert "microservices-demo:kubernetes-manifests/recommendationservice.yaml:60" in got["recommendationservice"]


def test_boutique_callers_of_the_cart(boutique):
    assert sorted(_callers(boutique, "cartservice")) == ["checkoutservice", "frontend"]


def test_boutique_impact_of_redis_cart(boutique):
    answer = impact(boutique, "redis-cart")
    assert [(r.component.id, r.distance) for r in answer.impacted] == [
        ("cartservice", 1), ("checkoutservice", 2), ("frontend", 2), ("loadgenerator", 3), ("user", 3)]
    assert answer.impacted[0].path == ("cartservice->redis-cart:redis",)
    cart = {link.id: link for link in answer.links}["cartservice->redis-cart:redis"]
    assert "microservices-demo:src/cartservice/src/Startup.cs:29" in cart.evidence  # Configuration["REDIS_ADDR"]
    user = answer.impacted[-1]
    assert list(user.path) == ["user->frontend:http", "frontend->cartservice:grpc",
                                               "cartservice->redis-cart:redis"]


def test_boutique_impact_of_the_product_catalog(boutique):
    answer = impact(boutique, "productcatalogservice")
    assert [(r.component.id, r.distance) for r in answer.impacted] == [
        ("checkoutservice", 1), ("frontend", 1), ("recommendationservice", 1), ("loadgenerator", 2), ("user", 2)]


def test_boutique_path_from_the_user_to_payment(boutique):
    answer = path(boutique, "user", "paymentservice")
    assert [r.through for r in answer.routes] == [("user", "frontend", "checkoutservice", "paymentservice")]
    charge = answer.routes[0].hops[-1]
    assert charge.id == "checkoutservice->paymentservice:grpc"
    # pb.NewPaymentServiceClient(cs.paymentSvcConn).Charge(...)
    assert "microservices-demo:src/checkoutservice/main.go:370" in charge.evidence


def test_boutique_paths_to_the_cart_store(boutique):
    answer = path(boutique, "loadgenerator", "redis-cart")
    assert [r.through for r in answer.routes] == [
        ("loadgenerator", "frontend", "cartservice", "redis-cart"),
        ("loadgenerator", "frontend", "checkoutservice", "cartservice", "redis-cart")]


# ------------------------------------------------------------------------------- PiggyMetrics
def test_piggy_callers_of_the_account_service(piggy):
    got = _callers(piggy, "account-service")
    assert sorted(got) == ["gateway", "notification-service"]
    assert "piggymetrics:config/src/main/resources/shared/gateway.yml:28" in got["gateway"]  # serviceId: account-service
    assert ("piggymetrics:notification-service/src/main/java/com/piggymetrics/notification/client/"
            "AccountServiceClient.java:9") in got["notification-service"]  # @FeignClient(name = "account-service")


def test_piggy_callers_of_the_auth_service(piggy):
    got = _callers(piggy, "auth-service")
    assert sorted(got) == ["account-service", "gateway", "notification-service", "statistics-service"]
    assert "piggymetrics:config/src/main/resources/shared/gateway.yml:22" in got["gateway"]  # url: http://auth-service:5000


def test_piggy_impact_of_the_statistics_service(piggy):
    answer = impact(piggy, "statistics-service")
    assert [(r.component.id, r.distance) for r in answer.impacted] == [
        ("account-service", 1), ("gateway", 1), ("notification-service", 2), ("user", 2)]
    assert answer.impacted[0].path == ("account-service->statistics-service:http",)
    feign = {link.id: link for link in answer.links}["account-service->statistics-service:http"]
    assert feign.evidence == ("piggymetrics:account-service/src/main/java/com/piggymetrics/account/client/"
                              "StatisticsServiceClient.java:10",)


def test_piggy_impact_of_the_auth_database(piggy):
    answer = impact(piggy, "auth-mongodb")
    assert [(r.component.id, r.distance) for r in answer.impacted] == [
        ("auth-service", 1), ("account-service", 2), ("gateway", 2), ("notification-service", 2),
        ("statistics-service", 2), ("user", 3)]


def test_piggy_paths_from_the_gateway_to_the_statistics_store(piggy):
    answer = path(piggy, "gateway", "statistics-mongodb")
    assert [r.through for r in answer.routes] == [
        ("gateway", "statistics-service", "statistics-mongodb"),
        ("gateway", "account-service", "statistics-service", "statistics-mongodb"),
        ("gateway", "notification-service", "account-service", "statistics-service", "statistics-mongodb")]


def test_piggy_path_from_the_user_to_the_account_store(piggy):
    answer = path(piggy, "user", "account-mongodb")
    assert [r.through for r in answer.routes] == [
        ("user", "gateway", "account-service", "account-mongodb"),
        ("user", "gateway", "notification-service", "account-service", "account-mongodb")]
    assert answer.routes[0].hops[0].id == "user->gateway:http"
