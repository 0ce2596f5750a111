"""Query files of every language: each capability is checked on a small fixture source.

Fixtures live in tests/fixtures/grammars/<language>/<capability>.<ext>; each case lists facts that
must come out (kind, line, exact attributes) and (kind, line) pairs that must not (false positives
such as a cache's get("x") read as a route).  A file with syntax errors in every language still
yields the facts of its readable part plus a warning.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from repomodeler.extract.engine import TEST_ONLY, extract_source
from repomodeler.languages import all_languages, language_for_path, load_language

from grammar_cases_structure import structure_cases

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "grammars"

Expected = tuple[str, int, dict[str, str]]


@dataclass(frozen=True)
class Case:
    language: str
    fixture: str  # file under tests/fixtures/grammars/<language>/
    expect: tuple[Expected, ...]
    absent: tuple[tuple[str, int], ...] = ()
    path: str | None = None  # repository path to extract as (defaults to the fixture name)
    broken: bool = False
    covers: tuple[str, ...] = field(default=())  # query-file stems this case exercises (default: fixture stem)


def ICE(line: int) -> Expected:
    """A WebRTC ICE server's URI literal (Google's public STUN server)."""
    return ("string.ice_server", line, {"value": "stun:stun.l.google.com:19302"})


def R(line: int, method: str, path: str | None, framework: str, **extra: str) -> Expected:
    attrs = {"method": method, "framework": framework, **extra}
    if path is not None:
        attrs["path"] = path
    return ("http.route", line, attrs)


def C(line: int, url: str, method: str | None = None, **extra: str) -> Expected:
    attrs = {"url": url, **extra}
    if method is not None:
        attrs["method"] = method
    return ("http.client", line, attrs)


def E(line: int, name: str, default: str | None = None) -> Expected:
    return ("env.read", line, {"name": name} if default is None else {"name": name, "default": default})


def K(line: int, name: str, value: str) -> Expected:
    return ("const.string", line, {"name": name, "value": value})


def V(line: int, name: str, expr: str, scope: str | None = None) -> Expected:
    attrs = {"name": name, "expr": expr, **({"scope": scope} if scope else {})}
    return ("value.assign", line, attrs)


def I(line: int, module: str) -> Expected:
    return ("import", line, {"module": module})


def P(line: int, topic: str, technology: str | None, **extra: str) -> Expected:
    attrs = {"topic": topic, **extra}
    if technology:
        attrs["technology"] = technology
    return ("messaging.publish", line, attrs)


def S(line: int, topic: str, technology: str | None) -> Expected:
    return ("messaging.subscribe", line, {"topic": topic} | ({"technology": technology} if technology else {}))


def U(line: int, value: str) -> Expected:
    return ("string.url", line, {"value": value})


def H(line: int, value: str) -> Expected:
    return ("string.hostport", line, {"value": value})


def D(line: int, value: str) -> Expected:
    return ("string.dsn", line, {"value": value})


def G(kind: str, line: int, service: str, strip: str | None = None) -> Expected:
    return (f"grpc.{kind}", line, {"service": service} | ({"strip": strip} if strip else {}))


CASES: list[Case] = [
    # ------------------------------------------------------------------ python
    Case("python", "imports.py", (I(1, "os"), I(2, "requests"), I(2, "psycopg2"), I(3, "kafka"),
                                  ("module.var", 3, {"module": "kafka", "name": "KafkaProducer"}),
                                  ("module.var", 4, {"module": ".local", "name": "helper"}))),
    Case("python", "dto.py", (
        ("http.body", 20, {"framework": "fastapi", "request": "Order"}),
        ("http.body", 20, {"framework": "fastapi", "response": "Order"}),
        ("http.body", 25, {"framework": "fastapi", "response": "Order"}),
        ("dto.class", 7, {"name": "Line"}), ("dto.class", 12, {"name": "Order"}),
        ("dto.field", 14, {"class": "Order", "name": "total", "type": "float"}),
        ("dto.field", 16, {"class": "Order", "name": "lines", "type": "list[Line]"}),
    ), absent=(("dto.class", 4), ("dto.field", 4))),  # app = FastAPI(): no model
    Case("python", "http_routes.py", (
        ("http.mount", 25, {"prefix": "/orders", "router": "orders.router"}),
        R(7, "get", "/health", "fastapi-flask", router="app"),
        R(12, "get", "/{order_id}", "fastapi-flask", router="router"),
        ("http.router", 4, {"name": "router", "prefix": "/orders"}),
        R(17, "POST", "/legacy", "flask", router="bp"),
    ), absent=(("http.route", 13), ("http.route", 22))),
    Case("python", "django_urls.py", (
        R(4, "ANY", "orders/<int:id>/", "django"), R(5, "ANY", "^items/$", "django"),
        ("http.mount", 6, {"prefix": "api/", "module": "orders.urls"}), R(7, "ANY", "about/", "django"),
    ), absent=(("http.route", 6),), path="shop/urls.py", covers=("http_routes",)),
    Case("python", "django_urls.py", (), absent=(("http.route", 4),), path="shop/views.py", covers=()),
    Case("python", "http_clients.py", (
        C(4, "http://inventory:8080/stock", "get"), C(5, "{PAYMENTS_URL}/charge", "post"),
        C(6, "ORDERS_URL", "PATCH"), C(7, "https://example.com/feed", "GET"),
    ), absent=(("http.client", 8),)),
    Case("python", "env_reads.py", (
        E(4, "DATABASE_URL"), E(5, "REDIS_URL", "redis://cache:6379/0"), E(6, "ORDERS_URL", "http://orders:8000"),
        E(7, "TOKEN"), E(8, "LOG_LEVEL"),
        ("env.read_ref", 10, {"expr": "POSTGRES_HOST_VAR"}), ("env.read_ref", 11, {"expr": "settings.QUEUE_VAR"}),
        ("config.field", 14, {"name": "database_url"}), ("config.field", 14, {"name": "redis_host"}),
    ), absent=(("env.read", 9), ("env.read_ref", 9), ("config.field", 19))),
    Case("python", "constants.py", (K(1, "ORDERS_URL", "http://orders:8080"), K(6, "inventory_host", "inventory:9000")),
         absent=(("const.string", 10),)),
    Case("python", "grpc.py", (
        G("server", 5, "CartServiceServicer"),
        G("server", 10, "add_CartServiceServicer_to_server", "^add_|_to_server$"),
        G("client", 14, "ProductCatalogServiceStub", "Stub$"),
    )),
    Case("python", "messaging.py", (
        P(2, "orders.created", "kafka"), P(3, "payments", "kafka"), S(4, "orders.created", "kafka"),
        S(5, "shipments", "kafka"), P(6, "orders.queue", "rabbitmq"), S(7, "orders.queue", "rabbitmq"),
        P(8, "updates", "nats"), P(9, "events", "redis"), P(10, "QUEUE_URL", "sqs"),
        P(11, "arn:aws:sns:eu-west-1:1:orders", "sns"), P(13, "orders", "rabbitmq", routing_key="created"),
        P(14, "invoices", "rabbitmq"),
        ("client.var", 15, {"name": "events", "technology": "redis"}),
        ("messaging.publish", 16, {"client": "events", "topic": "orders.created", "needs_client": "true"}),
    ), absent=(("messaging.publish", 12),)),
    Case("python", "store_hosts.py", (("service.lookup", 2, {"service": "redis", "call": "connect_redis", "store_call": "true"}),
                                      ("service.lookup", 4, {"service": "mongo", "call": "get_mongo", "store_call": "true"}),
                                      ("store.client_call", 6, {"call": "redis.Redis", "key": "host", "expression": "host"}),
                                      ("store.client_call", 7, {"call": "connect_rabbit", "expression": "BROKER_URL"})),
         absent=(("service.lookup", 3), ("store.client_call", 8))),
    Case("python", "service_lookup.py", (("service.lookup", 6, {"service": "orders", "protocol": "amqp"}),
                                         ("service.lookup", 7, {"service": "products", "protocol": "amqp"})),
         absent=(("service.lookup", 8),)),
    Case("python", "urls.py", (ICE(6), D(5, "Server=db;Port=5432"), U(1, "postgresql://orders-db:5432/orders"), H(2, "redis-cart:6379")),
         absent=(("string.hostport", 3), ("string.url", 4), ("const.string", 4))),
    Case("python", "broken.py", (I(1, "requests"), C(4, "ORDERS", "get"), K(3, "ORDERS", "http://orders:8080")),
         broken=True),
    # ------------------------------------------------------------------ javascript
    Case("javascript", "imports.js", (("module.var", 4, {"module": "amqplib", "name": "amqp"}), I(1, "express"), I(2, "kafkajs"), I(3, "./helper"), I(4, "amqplib"),
                                      I(5, "ioredis"))),
    Case("javascript", "store_hosts.js", (("service.lookup", 1, {"service": "redis", "call": "createRedisClient", "store_call": "true"}),
                                          ("service.lookup", 3, {"service": "mongo", "call": "connectMongo", "store_call": "true"}),
                                          ("store.client_call", 4, {"call": "createRedisClient", "expression": "redisUrl"})),
         absent=(("service.lookup", 2), ("store.client_call", 5))),
    Case("javascript", "moleculer.js", (
        ("moleculer.service", 3, {"name": "boards"}), ("moleculer.version", 3, {"name": "boards", "version": "1"}),
        ("moleculer.call", 6, {"action": "v1.lists.**", "via": "api gateway route"}),
        ("moleculer.call", 6, {"action": "v1.cards.list", "via": "api gateway alias"}),
        ("moleculer.call", 9, {"action": "v1.lists.resolve"}), ("moleculer.call", 10, {"action": "users.get"}),
        ("moleculer.auto_aliases", 17, {}), ("moleculer.rest", 18, {}), ("moleculer.service", 18, {"name": "users"}),
    ), absent=(("moleculer.call", 11), ("moleculer.call", 12), ("moleculer.service", 16))),
    Case("javascript", "http_routes.js", (
        ("http.mount", 11, {"prefix": "/api/orders", "router": "ordersRouter"}),
        R(6, "get", "/health", "express", router="app"), R(7, "post", "/orders/:id", "express", router="router"),
        ("http.router", 4, {"name": "router", "prefix": "/api"}), R(8, "PUT", "/items", "fastify", router="fastify"),
    ), absent=(("http.route", 9), ("http.route", 10))),
    Case("javascript", "http_clients.js", (
        C(1, "${ORDERS_URL}/orders"), C(2, "http://inventory:8080/stock", "get"), C(3, "PAYMENTS_URL", "post"),
        C(4, "http://catalog:3000"), C(5, "/relative", "get"), C(7, "${this.apiUrl}/coins/${symbol}"),
        C(9, "options", "request"),  # Node's https module imported as `Https`
    ), absent=(("http.client", 6), ("http.client", 8))),
    Case("javascript", "api_paths.js", (
        ("http.relative_call", 1, {"method": "_get", "path": "/api/repos/${repoId}"}),
        ("http.relative_call", 2, {"method": "post", "path": "/documents.info"}),
        ("http.relative_call", 3, {"method": "delete", "path": "/users/me"}),
        ("http.relative_call", 7, {"path": "/projects"}),
    ), absent=(("http.relative_call", 4), ("http.relative_call", 5), ("http.relative_call", 6), ("http.relative_call", 8))),
    Case("javascript", "env_reads.js", (
        E(1, "ORDERS_URL", "http://orders:8000"), E(2, "PORT"), E(3, "API_SECRET"), E(4, "REDIS_HOST"),
        E(4, "KAFKA_BROKERS", "kafka:9092"), E(6, "CART_ADDR"),
        E(9, "REDIS_CONNECTION_URI"), E(9, "REDIS_CONNECTION_URI", "redis://localhost:6379"), E(11, "ORDERS_ORIGIN"),
        ("env.read_member", 9, {"name": "REDIS_CONNECTION_URI", "member": "REDIS_URI"}),
        ("env.read_member", 11, {"name": "ORDERS_ORIGIN", "member": "SERVER_ORIGIN"}),
        ("env.read_member", 11, {"name": "ORDERS_ORIGIN", "member": "SERVER_ORIGIN", "section": "ORDERS_SERVICE"}),
    ), absent=(("env.read", 5), ("env.read", 13), ("env.read_member", 13))),
    Case("javascript", "config_members.js", (
        ("config.member_ref", 1, {"expr": "SERVER_CONFIG.ORDERS_SERVICE"}),
        ("config.member_ref", 1, {"expr": "SERVER_CONFIG.ORDERS_SERVICE.SERVER_ORIGIN"}),
        ("config.member_ref", 2, {"expr": "config.port"}),
    ), absent=(("config.member_ref", 3),)),
    Case("javascript", "constants.js", (K(1, "ORDERS_URL", "http://orders:8080"),
                                        K(2, "templateBase", "http://catalog:3000")),
         absent=(("const.string", 3), ("const.string", 4))),
    Case("javascript", "class_constants.js", (K(2, "BASE", "http://orders:8080"),), absent=(("const.string", 3),)),
    Case("javascript", "grpc.js", (G("server", 2, "CartService"), G("client", 3, "CurrencyService", "Client$")),
         absent=(("grpc.client", 4),)),
    Case("javascript", "messaging.js", (
        P(1, "orders.created", "kafka"), S(2, "payments", "kafka"), P(3, "emails", "rabbitmq"),
        S(4, "emails", "rabbitmq"), P(5, "updates", "nats"), S(6, "updates", "nats"), P(7, "events", "redis"),
        P(8, "QUEUE_URL", "sqs"), P(9, "arn:aws:sns:eu-west-1:1:t", "sns"),
    ), absent=(("messaging.publish", 10),)),
    Case("javascript", "urls.js", (ICE(6), D(5, "Server=db;Port=5432"), U(1, "postgres://db:5432/shop"), U(2, "http://orders:8080/x"),
                                   H(3, "redis-cart:6379")), absent=(("string.url", 4),)),
    Case("javascript", "bundles.js", (("bundle.entry", 2, {"entry": "./"}), ("bundle.entry", 5, {"entry": "./app/index.tsx"}),
                                      ("bundle.entry", 8, {"entry": "./src/main.js"})), path="web/vite.config.js"),
    # the same keys in code that is not a bundler's configuration are nothing
    Case("javascript", "bundles.js", (), absent=(("bundle.entry", 2), ("bundle.entry", 5)), path="src/settings.js"),
    Case("javascript", "broken.js", (I(1, "axios"), C(2, "http://orders:8080/x", "get")), broken=True),
    # ------------------------------------------------------------------ typescript / tsx
    Case("typescript", "nest_routes.ts", (
        R(7, "Get", ":id", "nestjs", prefix="orders"), R(10, "Post", None, "nestjs", prefix="orders"),
        R(16, "Get", "health", "nestjs"),
    ), absent=(("http.route", 5),)),
    Case("typescript", "nest_microservices.ts", (G("server", 3, "CartService"),
                                                 ("messaging.subscribe", 6, {"topic": "orders.created"}))),
    Case("typescript", "class_constants.ts", (K(2, "BASE_URL", "http://orders:8080"),
                                              K(5, "INVENTORY", "http://inventory:9000")),
         absent=(("const.string", 3),)),
    Case("typescript", "http_routes.ts", (R(3, "get", "/typed", "express", router="app"),), absent=(("http.route", 4),),
         covers=()),
    Case("typescript", "broken.ts", (E(1, "ORDERS_URL", "http://orders:8080"),), broken=True),
    Case("tsx", "component.tsx", (I(1, "react"), C(4, "/api/orders"))),
    Case("tsx", "broken.tsx", (I(1, "axios"), C(2, "http://orders:8080", "get")), broken=True),
    # ------------------------------------------------------------------ go
    Case("go", "store_hosts.go", (("service.lookup", 4, {"service": "redis", "call": "newRedisPool", "store_call": "true"}),
                                  ("service.lookup", 6, {"service": "mongo", "call": "DialMongo", "store_call": "true"}),
                                  ("store.client_call", 7, {"call": "newRedisPool", "expression": "addr"})),
         absent=(("service.lookup", 5), ("store.client_call", 8))),
    Case("go", "imports.go", (I(4, "net/http"), I(5, "github.com/lib/pq"), I(8, "github.com/segmentio/kafka-go"))),
    Case("go", "http_routes.go", (
        R(4, "HandleFunc", "GET /payments/{id}", "go-http", router="mux"),
        R(5, "Handle", "/metrics", "go-http", router="http"),
        ("http.router", 6, {"name": "api", "parent": "r", "prefix": "/api"}),
        R(7, "POST", "/orders", "go-http", router="api"), R(9, "Get", "/items", "chi", prefix="/v1", router="r"),
        R(12, "HandleFunc", "/cart/{id}", "go-http", router="r"),  # gorilla/mux behind a base-path variable
    ), absent=(("http.route", 11), ("http.route", 13))),
    Case("go", "http_clients.go", (
        C(4, "http://inventory:8080/stock", "Get"), C(5, 'ordersURL+"/orders"', "http.MethodPost"),
        C(6, "catalogURL", "Get"), C(7, "http://shipping:50051/quote", "Get"),
    ), absent=(("http.client", 8),)),
    Case("go", "env_reads.go", (E(4, "CART_SERVICE_ADDR"), E(5, "PORT"), ("config.read", 6, {"expr": "orders.url"}),
                                ("env.read_ref", 8, {"expr": "constants.PostgresHost"}), ("env.read_ref", 9, {"expr": "envName"}),
                                ("config.tag", 13, {"expr": 'env:"POSTGRES_HOST" envDefault:"localhost"'}),
                                ("config.tag", 14, {"expr": 'envconfig:"KAFKA_BROKERS"'})),
         absent=(("env.read", 7), ("config.tag", 15))),
    Case("go", "constants.go", (K(3, "OrdersURL", "http://orders:8080"), K(6, "redisAddr", "redis-cart:6379"),
                                K(10, "catalogURL", "http://catalog:3550")),
         absent=(("const.string", 7), ("const.string", 13))),
    Case("go", "grpc.go", (G("server", 4, "RegisterCartServiceServer", "^Register"),
                           G("client", 5, "NewProductCatalogServiceClient", "^New|Client$"),
                           ("grpc.client", 7, {"service": "NewSearchClient", "strip": "^New|Client$",
                                               "needs_server": "true"})),
         absent=(("grpc.client", 6), ("grpc.client", 8))),
    Case("go", "config_keys.go", (("config.key", 4, {"key": "ProfileMongoAddress"}),
                                  ("config.key", 6, {"key": "memcAddr"})), absent=(("config.key", 5),)),
    Case("go", "messaging.go", (
        P(4, "orders.created", "kafka"), S(5, "payments", "kafka"), P(6, "topicName", "kafka"),
        P(7, "emails", "rabbitmq"), P(8, "orders-exchange", "rabbitmq", routing_key="created"),
        S(9, "emails", "rabbitmq"), P(10, "updates", "nats"), S(11, "updates", "nats"), P(12, "events", "redis"),
    ), absent=(("messaging.publish", 13),)),
    Case("go", "urls.go", (ICE(8), D(6, "Server=db;Port=5432"), D(7, "catalogue_user:pw@tcp(catalogue-db:3306)/socksdb"), U(3, "postgres://orders-db:5432/orders"), H(4, "redis-cart:6379")),
         absent=(("string.url", 5),)),
    Case("go", "broken.go", (I(3, "net/http"), C(6, "http://orders:8080/x", "Get")), broken=True),
    # ------------------------------------------------------------------ java
    Case("java", "imports.java", (I(3, "org.springframework.kafka.core.KafkaTemplate"),
                                  I(4, "org.junit.Assert.assertEquals"), I(5, "java.util"))),
    Case("java", "http_routes.java", (
        R(5, "GetMapping", "/{sku}", "spring", prefix="/inventory"),
        R(8, "POST", "/bulk", "spring", prefix="/inventory"),
        R(11, "GetMapping", "", "spring", prefix="/inventory"),
        R(14, "GetMapping", "/json", "spring", prefix="/inventory"),
        R(20, "GET", "/{id}", "jax-rs", prefix="/orders"),
        ("http.route", 24, {"method": "POST", "framework": "jax-rs", "prefix": "/orders"}),
    ), absent=(("http.route", 12),)),
    Case("java", "http_clients.java", (
        C(3, 'ordersUrl + "/orders/1"', "getForObject"), C(4, "http://inventory:8080/stock"), C(5, "PAYMENTS_URL"),
        C(6, "http://catalog:3550/products", "HttpGet"), C(7, "shippingUrl"),
    ), absent=(("http.client", 8),)),
    Case("java", "env_reads.java", (("config.read", 2, {"expr": "${orders.url:http://orders:8080}"}),
                                    E(5, "DATABASE_URL"), ("config.read", 6, {"expr": "payments.url"})),
         absent=(("env.read", 7),)),
    Case("java", "constants.java", (
        K(2, "ORDERS_URL", "http://orders:8080"), K(6, "CACHE", "redis-cart:6379"),
        ("const.enum", 9, {"enum": "Service", "name": "PERSISTENCE", "value": "shop.persistence"}),
        ("const.enum", 10, {"enum": "Service", "name": "AUTH", "value": "shop.auth"}),
        ("code.constant_arg", 15, {"enum": "Service", "name": "PERSISTENCE"}),
    ), absent=(("const.string", 3), ("code.constant_arg", 16))),
    Case("java", "grpc.java", (G("server", 1, "CartServiceImplBase"), G("client", 3, "CurrencyServiceGrpc")),
         absent=(("grpc.client", 4),)),
    Case("java", "messaging.java", (
        P(3, "orders.created", "kafka"), P(4, "orders-exchange", "rabbitmq", routing_key="orders.created"),
        P(5, "emails", "rabbitmq"), P(6, "payments", "kafka"), S(10, "shipments", "kafka"),
        S(13, "emails", "rabbitmq"), S(16, "invoices", "sqs"),
    ), absent=(("messaging.publish", 7),)),
    Case("java", "feign.java", (
        ("feign.client", 1, {"name": "orders"}), ("feign.client", 1, {"url": "${orders.url}"}),
        C(3, "/orders/{id}", "GetMapping", feign="orders"),
        ("feign.client", 6, {"name_ref": "ServiceNames.SYSTEM_SERVICE"}),
    ), absent=(("http.route", 3),)),
    Case("java", "micronaut.java", (
        ("feign.client", 1, {"name": "policy-service"}), ("feign.client", 4, {"name": "${pricing.url}"}),
        ("feign.client", 6, {"name": "http://orders:8080"}),
    ), absent=(("feign.client", 8),)),
    Case("java", "rpc.java", (
        ("code.implements", 1, {"class": "AlertOperatorImpl", "interface": "IAlertOperator"}),
        ("code.implements", 1, {"class": "AlertOperatorImpl", "interface": "Comparable"}),
        ("rpc.proxy", 4, {"interface": "IAlertOperator", "method": "withService"}),
        ("rpc.proxy", 6, {"interface": "Api", "method": "create"}),
        ("code.address_name", 10, {"name": "namesrvAddr"}),
        ("code.address_name", 11, {"name": "brokerAddrList"}),
        ("code.address_name", 12, {"name": "masterAddress"}),
        ("server.listen_port", 17, {"port": "9876"}), ("server.listen_port", 19, {"port": "9876"}),
        ("server.listen_port", 20, {"port": "8080"}),
    ), absent=(("rpc.proxy", 7), ("rpc.proxy", 8), ("code.address_name", 13), ("server.listen_port", 21),
               ("server.listen_port", 22))),
    Case("java", "dto.java", (
        ("http.body", 4, {"framework": "spring", "request": "OrderRequest"}),
        ("http.body", 4, {"framework": "spring", "response": "ResponseEntity<OrderResponse>"}),
        ("http.body", 6, {"framework": "spring", "response": "OrderResponse"}),
        ("dto.class", 3, {"name": "OrderController"}), ("dto.class", 12, {"name": "OrderRequest"}),
        ("dto.class", 17, {"name": "Line"}),
        ("dto.field", 13, {"class": "OrderRequest", "name": "sku", "type": "String"}),
        ("dto.field", 14, {"class": "OrderRequest", "name": "quantity", "type": "int"}),
        ("dto.field", 17, {"class": "Line", "name": "count", "type": "long"}),
    ), absent=(("http.body", 8), ("http.body", 10), ("dto.field", 15))),  # void, no mapping, static
    Case("java", "platform.java", (("annotation", 3, {"name": "SpringBootApplication"}),
                                    ("annotation", 4, {"name": "EnableDiscoveryClient"}),
                                    ("annotation", 5, {"name": "EnableFeignClients"}),
                                    ("service.lookup", 9, {"service": "CUSTOMER"}),
                                    ("service.lookup", 10, {"service": "stores"}),
                                    ("service.lookup", 12, {"service": "payment"}),
                                    ("service.lookup", 13, {"service": "shipping"}),
                                    ("service.lookup", 14, {"service": "redis", "call": "connectRedis", "store_call": "true"}),
                                    ("service.lookup", 16, {"service": "kitchen-service", "protocol": "http", "via": "dapr service invocation"})),
         absent=(("annotation", 7), ("service.lookup", 11), ("service.lookup", 15), ("service.lookup", 17))),
    Case("java", "urls.java", (ICE(7), D(5, "Server=db;Port=5432"), U(2, "jdbc:postgresql://orders-db:5432/orders"), H(3, "kafka:9092"),
                               ("string.browser_url", 6, {"value": "https://localhost:8443/login"})),
         absent=(("string.url", 4),)),
    Case("java", "broken.java", (E(2, "ORDERS_URL"),), broken=True),
    # ------------------------------------------------------------------ kotlin
    Case("kotlin", "imports.kt", (I(3, "org.springframework.kafka.core.KafkaTemplate"), I(4, "io.ktor.server.routing"))),
    Case("kotlin", "http_routes.kt", (
        R(6, "GetMapping", "/{id}", "spring", prefix="/carts"), R(9, "PostMapping", "/items", "spring", prefix="/carts"),
        R(12, "DeleteMapping", "", "spring", prefix="/carts"), R(18, "get", "/health", "ktor"),
        R(20, "post", "/orders", "ktor", prefix="/v1"),
    ), absent=(("http.route", 22),)),
    Case("kotlin", "http_clients.kt", (
        C(3, "http://inventory:8080/stock", "get"), C(4, "$ordersUrl/orders/1", "getForObject"), C(5, "PAYMENTS_URL"),
        C(6, "http://catalog:3550/products"),
    ), absent=(("http.client", 7),)),
    Case("kotlin", "env_reads.kt", (E(1, "ORDERS_URL", "http://orders:8080"), E(2, "PORT"),
                                    ("config.read", 5, {"expr": "${payments.url}"})),
         absent=(("env.read", 8),)),
    Case("kotlin", "constants.kt", (K(1, "ORDERS_URL", "http://orders:8080"), K(6, "CACHE", "redis-cart:6379")),
         absent=(("const.string", 2),)),
    Case("kotlin", "grpc.kt", (
        G("server", 1, "CartServiceCoroutineImplBase", "Coroutine(?=ImplBase$)"),
        G("server", 4, "PaymentServiceImplBase", "Coroutine(?=ImplBase$)"),
        G("client", 7, "CurrencyServiceGrpc"), G("client", 8, "ShippingServiceCoroutineStub", "CoroutineStub$"),
    ), absent=(("grpc.client", 9),)),
    Case("kotlin", "messaging.kt", (
        P(3, "orders.created", "kafka"), P(4, "orders-exchange", "rabbitmq", routing_key="created"),
        P(5, "emails", "rabbitmq"), S(9, "shipments", "kafka"), S(12, "emails", "rabbitmq"),
    ), absent=(("messaging.publish", 6),)),
    Case("kotlin", "feign.kt", (
        ("feign.client", 1, {"name": "orders"}), ("feign.client", 1, {"url": "${orders.url}"}),
        C(3, "/orders/{id}", "GetMapping", feign="orders"),
    ), absent=(("http.route", 3),)),
    Case("kotlin", "micronaut.kt", (
        ("feign.client", 1, {"name": "policy-service"}), ("feign.client", 3, {"name": "${pricing.url}"}),
    ), absent=(("feign.client", 5),)),
    Case("kotlin", "urls.kt", (ICE(6), D(5, "Server=db;Port=5432"), U(1, "jdbc:postgresql://orders-db:5432/orders"), H(2, "redis-cart:6379")),
         absent=(("string.url", 3),)),
    Case("kotlin", "platform.kt", (("annotation", 3, {"name": "SpringBootApplication"}),
                                   ("annotation", 4, {"name": "EnableEurekaServer"}),
                                   ("annotation", 7, {"name": "EnableConfigServer"}),
                                   ("service.lookup", 11, {"service": "orders"}),
                                   ("service.lookup", 12, {"service": "shipping"}))),
    Case("kotlin", "broken.kt", (E(1, "ORDERS_URL"),), broken=True),
    # ------------------------------------------------------------------ csharp
    Case("csharp", "aspire.cs", (
        ("aspire.statement", 2, {"var": "redis", "text": 'var redis = builder.AddRedis("redis");'}),
        ("aspire.statement", 3, {"var": "api", "text": 'var api = builder.AddProject<Projects.Basket_API>("basket-api")\n    .WithReference(redis);'}),
        ("aspire.statement", 5, {"text": 'builder.AddProject<Projects.OrderProcessor>("order-processor").WithReference(redis);'})),
         absent=(("aspire.statement", 1), ("aspire.statement", 6), ("aspire.statement", 7)), path="Shop.AppHost/Program.cs"),
    Case("csharp", "aspire.cs", (), absent=(("aspire.statement", 2),), path="Shop.Api/Program.cs", covers=()),
    Case("csharp", "store_hosts.cs", (("service.lookup", 3, {"service": "redis", "call": "OpenRedisConnection", "store_call": "true"}),
                                      ("service.lookup", 5, {"service": "mongo", "call": "GetMongoClient", "store_call": "true"}),
                                      ("store.client_call", 6, {"call": "RabbitHutch.CreateBus", "expression": "connectionStr"})),
         absent=(("service.lookup", 4), ("store.client_call", 7))),
    # Entity Framework Core's provider where a DbContext is configured: the engine its database runs
    Case("csharp", "orm.cs", (("orm.datasource", 2, {"engine": "UseSqlServer", "orm": "efcore"}),
                              ("orm.datasource", 3, {"engine": "UseNpgsql", "orm": "efcore"})),
         absent=(("orm.datasource", 4), ("orm.datasource", 5))),
    Case("csharp", "imports.cs", (I(1, "System.Net.Http"), I(2, "Confluent.Kafka"), I(3, "Grpc.Core"), I(4, "System"))),
    Case("csharp", "dto.cs", (
        ("http.body", 7, {"framework": "aspnet", "request": "OrderRequest"}),
        ("http.body", 7, {"framework": "aspnet", "response": "Task<ActionResult<OrderResponse>>"}),
        ("http.body", 10, {"framework": "aspnet", "response": "ActionResult<OrderResponse>"}),
        ("dto.class", 14, {"name": "OrderRequest"}), ("dto.class", 16, {"name": "OrderResponse"}),
        ("dto.field", 14, {"class": "OrderRequest", "name": "Lines", "type": "List<Line>"}),
        ("dto.field", 19, {"class": "OrderResponse", "name": "Total", "type": "decimal"}),
        ("dto.field", 21, {"class": "OrderResponse", "name": "Paid", "type": "bool"}),
    ), absent=(("dto.field", 20),)),  # static
    Case("csharp", "http_routes.cs", (
        R(5, "HttpGet", "{id}", "aspnet", prefix="api/[controller]", controller="OrdersController"),
        R(8, "HttpPost", "", "aspnet", prefix="api/[controller]", controller="OrdersController"),
        R(13, "MapGet", "/health", "aspnet-minimal", router="app"),
        ("http.router", 14, {"name": "api", "parent": "app", "prefix": "/api"}),
        R(15, "MapPost", "/carts", "aspnet-minimal", router="api"),
    ), absent=(("http.route", 6),)),
    Case("csharp", "azure_functions.cs", (
        ("functions.binding", 4, {"args": '("%TripsQueue%", Connection = "AzureWebJobsStorage")', "binding": "QueueTrigger"}),
        ("functions.binding", 5, {"args": '("rides", "trips", Connection = "CosmosConnection")', "binding": "CosmosDB"}),
        ("http.route", 11, {"framework": "azure-functions", "method": "get", "path": "trips"}),
    ), absent=(("functions.binding", 17),)),  # EF Core's [Table] on a class is no binding
    Case("csharp", "http_clients.cs", (
        C(5, "http://inventory:8080/stock", "GetStringAsync"), C(7, "CatalogUrl", "GetFromJsonAsync"),
        C(8, "http://carts:7070/cart", "Delete"), C(9, "http://payments:8080"),
    ), absent=(("http.client", 10),)),
    Case("csharp", "env_reads.cs", (
        E(1, "REDIS_ADDR", "redis-cart:6379"), E(2, "PORT"), ("config.read", 3, {"expr": "Orders:Url"}),
        ("config.read", 4, {"expr": "OrdersDb"}),
    ), absent=(("env.read", 5),)),
    Case("csharp", "constants.cs", (K(3, "OrdersUrl", "http://orders:8080"), K(4, "Cache", "redis-cart:6379")),
         absent=(("const.string", 5),)),
    Case("csharp", "grpc.cs", (G("server", 1, "CartServiceBase"), G("server", 4, "CartServiceBase"),
                               G("client", 9, "CurrencyServiceClient", "Client$")),
         absent=(("grpc.client", 10),)),
    Case("csharp", "messaging.cs", (
        P(5, "orders.created", "kafka"), S(6, "payments", "kafka"), P(7, "emails", "rabbitmq"),
        P(8, "orders-exchange", "rabbitmq", routing_key="created"), S(9, "emails", "rabbitmq"),
    ), absent=(("messaging.subscribe", 10),)),
    Case("csharp", "urls.cs", (ICE(6), D(5, "Server=db;Port=5432"), U(1, "postgres://orders-db:5432/orders"), H(2, "redis-cart:6379")),
         absent=(("string.url", 3), ("string.url", 4))),
    Case("csharp", "gateways.cs", (("gateway.code", 2, {"name": "AddReverseProxy"}),
                                   ("gateway.code", 5, {"name": "MapReverseProxy"})), absent=(("gateway.code", 3),)),
    Case("csharp", "dapr.cs", (("service.lookup", 3, {"service": "order-processor", "protocol": "http", "via": "dapr service invocation"}), ("service.lookup", 4, {"service": "checkout", "protocol": "http", "via": "dapr service invocation"}),
                               ("dapr.pubsub", 9, {"pubsub": "DAPR_PUBSUB_NAME", "role": "subscribe", "topic": "OrderPaid"}),
                               ("dapr.pubsub", 11, {"pubsub": "PubSubName", "role": "publish", "topic": "OrderPaid"}),
                               ("dapr.state", 13, {"store": "statestore"})),
         absent=(("service.lookup", 5), ("dapr.pubsub", 12), ("dapr.state", 14))),
    Case("csharp", "broken.cs", (I(1, "System.Net.Http"), E(2, "PORT")), broken=True),
    # ------------------------------------------------------------------ rust
    Case("rust", "imports.rs", (I(1, "std::env"), I(2, "actix_web"), I(3, "reqwest::Client"),
                                I(4, "rdkafka::producer"), I(5, "redis"))),
    Case("rust", "http_routes.rs", (
        R(1, "get", "/orders/{id}", "actix-rocket"), R(6, "post", "/carts", "axum"), R(7, "get", "/health", "axum"),
        R(11, "ANY", "/items", "actix"), R(12, "post", "/pay", "actix"),
    ), absent=(("http.route", 13),)),
    Case("rust", "http_clients.rs", (
        C(2, "http://inventory:8080/stock", "get"), C(3, "&orders_url", "post"),
        C(4, 'format!("{}/x", base)', "get"),
    ), absent=(("http.client", 5),)),
    Case("rust", "env_reads.rs", (E(2, "ORDERS_URL", "http://orders:8080"), E(3, "PORT"), E(4, "CARGO_PKG_NAME"),
                                  ("env.read_ref", 6, {"expr": "env::clickhouse::URL"})),
         absent=(("env.read", 5), ("env.read_ref", 5))),
    # #[cfg(test)] modules: the URL of production code is read, those of test modules are not
    # example values written for documentation (pydantic's examples=, OpenAPI's example:) are not read as addresses
    Case("python", "doc_examples.py", (("string.url", 9, {"value": "postgres://db:5432/app"}),),
         absent=(("string.url", 6),)),
    Case("javascript", "doc_examples.js", (("string.url", 7, {"value": "http://orders:8080/api"}),),
         absent=(("string.url", 4),)),
    Case("typescript", "doc_examples.ts", (("string.url", 7, {"value": "http://orders:8080/api"}),),
         absent=(("string.url", 3),)),
    Case("tsx", "doc_examples.tsx", (("string.url", 7, {"value": "http://orders:8080/api"}),),
         absent=(("string.url", 3),)),
    Case("java", "doc_examples.java", (("string.url", 5, {"value": "http://orders:8080/api"}),),
         absent=(("string.url", 3),)),
    Case("rust", "test_code.rs", (("string.url", 1, {"value": "postgres://db:5432/x"}),),
         absent=(("string.url", 6), ("string.url", 11), ("string.url", 17), ("value.assign", 6), ("code.test_only", 4)),
         covers=("test_code",)),
    Case("rust", "constants.rs", (K(1, "ORDERS_URL", "http://orders:8080"), K(2, "CACHE_ADDR", "redis-cart:6379")),
         absent=(("const.string", 3),)),
    Case("rust", "grpc.rs", (G("server", 2, "CartServiceServer"), G("client", 3, "CurrencyServiceClient", "Client$")),
         absent=(("grpc.client", 4), ("grpc.server", 4))),
    Case("rust", "messaging.rs", (
        P(2, "orders.created", "kafka"), S(3, "payments", "kafka"), P(4, "emails", "rabbitmq"),
        S(5, "emails", "rabbitmq"), P(6, "updates", "nats"),
    ), absent=(("messaging.publish", 7),)),
    Case("rust", "urls.rs", (ICE(6), D(5, "Server=db;Port=5432"), U(2, "postgres://orders-db:5432/orders"), H(3, "redis-cart:6379")),
         absent=(("string.url", 4),)),
    Case("rust", "broken.rs", (I(1, "std::env"), E(2, "PORT")), broken=True),
    Case("python", "dapr.py", (("service.lookup", 3, {"service": "order-processor", "protocol": "http", "via": "dapr service invocation"}),
                               ("dapr.pubsub", 5, {"pubsub": '(pubsub_name="pubsub", topic_name="orders", data="x")', "role": "publish"}),
                               ("dapr.pubsub", 6, {"pubsub": '(pubsub="pubsub", topic="orders")', "role": "subscribe"}),
                               ("dapr.state", 4, {"store": '("statestore", "k", "v")'})),
         absent=(("service.lookup", 4), ("dapr.pubsub", 4), ("dapr.pubsub", 8), ("dapr.state", 5))),
    Case("go", "dapr.go", (("service.lookup", 4, {"service": "order-processor", "protocol": "http", "via": "dapr service invocation"}),
                           ("dapr.pubsub", 9, {"pubsub": "pubsub", "role": "publish", "topic": "orders"}),
                           ("dapr.pubsub", 10, {"pubsub": '&common.Subscription{PubsubName: "pubsub", Topic: "orders"}', "role": "subscribe"}),
                           ("dapr.state", 5, {"store": "statestore"})),
         absent=(("service.lookup", 5), ("dapr.pubsub", 11), ("dapr.state", 9))),
    Case("javascript", "dapr.js", (("service.lookup", 1, {"service": "order-processor", "protocol": "http", "via": "dapr service invocation"}), ("service.lookup", 2, {"service": "checkout", "protocol": "http", "via": "dapr service invocation"}),
                                   ("dapr.pubsub", 4, {"pubsub": "pubsub", "role": "publish", "topic": "orders"}),
                                   ("dapr.pubsub", 5, {"pubsub": "pubsub", "role": "subscribe", "topic": "orders"}),
                                   ("dapr.state", 3, {"store": "statestore"})),
         absent=(("service.lookup", 3), ("dapr.pubsub", 6), ("dapr.state", 6))),
    # ------------------------------------------------------------------ cpp
    Case("cpp", "imports.cpp", (I(1, "utils_thrift.h"), I(2, "<thrift/Thrift.h>"), I(3, "<mongoc.h>"))),
    Case("cpp", "env_reads.cpp", (E(2, "MONGO_HOST"), E(3, "PORT")), absent=(("env.read", 4),)),
    Case("cpp", "urls.cpp", (ICE(4), U(1, "http://orders:8080/api"), H(2, "redis-cart:6379")), absent=(("string.url", 3),)),
    Case("cpp", "service_config.cpp", (
        ("service.lookup", 2, {"service": "social-graph-service", "protocol": "tcp"}),
        ("service.lookup", 4, {"service": "user-memcached", "protocol": "tcp"}),
    ), absent=(("service.lookup", 3),)),
    Case("cpp", "broken.cpp", (I(1, "utils.h"), E(3, "PORT")), broken=True),
    # ------------------------------------------------------------------ ruby
    Case("ruby", "imports.rb", (I(1, "net/http"), I(2, "bunny"), I(3, "lib/orders"))),
    Case("ruby", "routes.rb", (
        R(2, "get", "/health", "rails"), R(3, "post", "/checkout", "rails"), R(4, "ANY", ":orders", "rails"),
        R(6, "get", "items/:id", "rails", prefix="/api"),
    ), path="config/routes.rb", covers=("http_routes",)),
    Case("ruby", "routes.rb", (), absent=(("http.route", 2), ("http.route", 4)), path="app/models/order.rb",
         covers=()),
    Case("ruby", "http_routes.rb", (R(2, "get", "/hi", "sinatra"), R(6, "post", "/orders", "sinatra")),
         absent=(("http.route", 7), ("http.route", 10))),
    Case("ruby", "http_clients.rb", (
        C(1, "http://inventory:8080/stock", "get"), C(2, "ORDERS_URL", "post"), C(3, "http://payments:8080"),
        C(4, "/charges", "get"),
    ), absent=(("http.client", 5),)),
    Case("ruby", "env_reads.rb", (E(1, "DATABASE_URL"), E(2, "ORDERS_URL", "http://orders:8000"), E(3, "PORT")),
         absent=(("env.read", 4),)),
    Case("ruby", "constants.rb", (K(1, "ORDERS_URL", "http://orders:8080"), K(2, "CACHE", "redis-cart:6379")),
         absent=(("const.string", 3), ("const.string", 4))),
    Case("ruby", "grpc.rb", (G("server", 1, "CartService"), G("client", 3, "CurrencyService")),
         absent=(("grpc.client", 4),)),
    Case("ruby", "messaging.rb", (
        P(1, "orders.created", "kafka"), S(2, "payments", "kafka"), P(3, "emails", "rabbitmq"),
        S(4, "emails", "rabbitmq"), P(5, "events", "redis"),
    ), absent=(("messaging.publish", 6),)),
    Case("ruby", "urls.rb", (ICE(6), D(5, "Server=db;Port=5432"), U(1, "postgres://orders-db:5432/orders"), H(2, "redis-cart:6379")),
         absent=(("string.url", 3), ("string.url", 4))),
    Case("ruby", "broken.rb", (E(1, "ORDERS_URL"),), broken=True),
    # ------------------------------------------------------------------ elixir
    Case("elixir", "imports.ex", (I(2, "Ecto.Schema"), I(3, "Shop"), I(4, "Ecto.Query"), I(5, "Logger"),
                                  I(6, "Shop.Accounts.User")),
         absent=(("import", 7),)),  # a function named alias_of is no directive
    Case("elixir", "router.ex", (
        R(4, "get", "/health", "phoenix"), R(8, "post", "/orders", "phoenix", prefix="/api"),
        R(9, "ANY", "/users", "phoenix", prefix="/api"), R(10, "GET", "/dashboard", "phoenix", prefix="/api")),
         absent=(("http.route", 13), ("http.route", 14)), covers=("http_routes",)),
    Case("elixir", "http_clients.ex", (
        C(3, "https://api.payments.example.com"), C(6, "https://nominatim.openstreetmap.org"),
        C(9, "http://orders:8080/orders", "get"), C(10, '@stock_url <> "/reserve"'),
        C(15, "https://api.ipbase.com/v2/info", "get"),
        C(21, "https://api.magic.link/v1/admin/auth/user/get?issuer=#{issuer}", "get!"),
        C(22, "#{@ttn_url}/access_code/#{code}", "get")),
         absent=(("http.client", 11), ("http.client", 16), ("http.client", 17), ("http.client", 23))),
    Case("elixir", "env_reads.exs", (E(3, "DATABASE_HOST", "localhost"), E(4, "DATABASE_PASS"), E(5, "DATABASE_USER"),
                                     E(6, "POOL_SIZE")),
         absent=(("env.read", 7), ("env.read", 8))),  # an atom key, a lowercase literal: no variable
    Case("elixir", "constants.ex", (K(2, "orders_url", "http://orders:8080"), K(3, "cache", "redis-cart:6379")),
         absent=(("const.string", 4), ("const.string", 5))),
    Case("elixir", "urls.ex", (ICE(6), U(2, "postgres://orders-db:5432/orders"), H(3, "redis-cart:6379"),
                               D(5, "host=orders-db port=5432")),
         absent=(("string.url", 4),)),  # interpolated
    Case("elixir", "broken.ex", (E(2, "ORDERS_URL"),), broken=True),
    # ------------------------------------------------------------------ php
    Case("php", "imports.php", (I(2, "GuzzleHttp\\Client"), I(3, "Illuminate\\Support\\Facades\\Route"),
                                I(4, "vendor/autoload.php"))),
    Case("php", "http_routes.php", (
        R(2, "get", "/users/{id}", "laravel"), R(3, "post", "/orders", "laravel"),
        R(5, "get", "/items", "laravel", prefix="api"), R(7, "ANY", "photos", "laravel"), R(8, "get", "/slim", "slim"),
        R(10, "ANY", "/admin/activity", "symfony"), R(12, "ANY", "/about", "symfony"),
    ), absent=(("http.route", 9), ("http.route", 13))),
    Case("php", "http_clients.php", (
        C(2, "http://inventory:8080"), C(3, "http://catalog:3550/products", "get"),
        C(4, "$ordersUrl . '/orders'", "POST"), C(5, "http://payments:8080/charges", "get"),
    ), absent=(("http.client", 6),)),
    # PDO data source names: the driver before the colon (a concatenated path after it)
    Case("php", "databases.php", (
        ("sql.dsn", 7, {"dsn": "sqlite:"}), ("sql.dsn", 8, {"dsn": "sqlite::memory:"}),
        ("sql.dsn", 9, {"dsn": "mysql:host=db;dbname=shop"}), ("sql.dsn", 10, {"dsn": "sqlite:"}),
        # a DSN template built by sprintf or interpolated into a string, handed to PDO later
        ("sql.dsn", 16, {"dsn": "mysql:host=%s;dbname=%s;charset=%s"}), ("sql.dsn", 17, {"dsn": "pgsql:host="}),
        # a driver named in a settings array by Doctrine's name
        ("sql.dsn", 23, {"dsn": "pdo_mysql"}),
        # PHP's own SQLite and MySQL classes name their engine
        ("sql.dsn", 30, {"dsn": "SQLite3"}), ("sql.dsn", 31, {"dsn": "\\mysqli"}),
        # ... and PHP's procedural connection functions
        ("sql.dsn", 33, {"dsn": "mysqli_init"}), ("sql.dsn", 34, {"dsn": "pg_connect"}),
    ), absent=(("sql.dsn", 5), ("sql.dsn", 18), ("sql.dsn", 24), ("sql.dsn", 25), ("sql.dsn", 32), ("sql.dsn", 35))),
    Case("php", "env_reads.php", (
        E(2, "DATABASE_URL"), E(3, "ORDERS_URL", "http://orders:8000"), E(4, "APP_SECRET"),
        ("config.read", 5, {"expr": "services.payments.url"}),
    ), absent=(("env.read", 6),)),
    Case("php", "constants.php", (K(2, "ORDERS_URL", "http://orders:8080"), K(3, "CACHE_ADDR", "redis-cart:6379"),
                                  K(5, "CATALOG", "http://catalog:3550")), absent=(("const.string", 6),)),
    Case("php", "messaging.php", (
        P(2, "emails", "rabbitmq"), P(3, "orders-exchange", "rabbitmq", routing_key="created"),
        S(4, "emails", "rabbitmq"), P(5, "events", "redis"), P(6, "orders.created", "kafka"), S(7, "payments", "kafka"),
    ), absent=(("messaging.subscribe", 8),)),
    Case("php", "urls.php", (ICE(7), D(6, "Server=db;Port=5432"), U(2, "postgres://orders-db:5432/orders"), H(3, "redis-cart:6379")),
         absent=(("string.url", 4), ("string.url", 5))),
    Case("php", "broken.php", (E(2, "ORDERS_URL"),), broken=True),
]
# Names bound to values (value resolution): the expression as written, the enclosing function's lines for a
# local; a call's result (nothing a string or a name) is not read.
CASES.extend([
    Case("go", "values.go", (V(3, "stockBase", '"http://" + stockHost + ":8080"'),
                             V(6, "url", 'stockBase + "/v2/" + name', "5-9"), V(7, "url", "registry", "5-9"),
                             ("value.return", 11, {"function": "BaseURL", "expr": "&url.URL{Scheme: n.Scheme, Host: n.Host}"}),
                             ("value.field", 11, {"name": "Scheme", "expr": "n.Scheme"}),
                             ("value.field", 11, {"name": "Host", "expr": "n.Host"}),
                             ("value.params", 13, {"function": "fetch", "params": "(ctx context.Context, requestURL *url.URL)",
                                                   "scope": "13-13"}),
                             ("value.invoke", 13, {"callee": "do", "args": "(ctx, requestURL)"})),
         absent=(("value.assign", 8), ("value.invoke", 8))),
    Case("java", "values.java", (V(2, "STOCK", 'BASE + "/stock"'),
                                 V(4, "url", 'String.format("http://%s/x", HOST)', "3-6"),
                                 ("value.params", 7, {"function": "Hosts", "params": "(String baseUrl)", "scope": "7-7"}),
                                 V(7, "baseUrl", "baseUrl"),
                                 ("value.invoke", 8, {"callee": "Hosts", "args": '("http://stock:8080")'})),
         absent=(("value.assign", 5), ("value.invoke", 5))),
    Case("kotlin", "values.kt", (V(1, "STOCK", 'BASE + "/stock"'), V(3, "url", '"$STOCK/items"', "2-5")),
         absent=(("value.assign", 4),)),
    Case("python", "values.py", (V(1, "STOCK", 'BASE + "/stock"'), V(6, "base", 'f"http://{HOST}:8080"'),
                                 V(9, "url", '"http://{}/x".format(HOST)', "8-10"),
                                 ("value.params", 14, {"function": "StockClient", "params": '(self, base_url="http://stock:8080")',
                                                       "scope": "14-15"}),
                                 ("value.params", 14, {"function": "__init__", "params": '(self, base_url="http://stock:8080")',
                                                       "scope": "14-15"}),
                                 V(15, "base_url", "base_url"),
                                 ("value.invoke", 18, {"callee": "StockClient", "args": '(base_url="http://stock:9090")'})),
         absent=(("value.assign", 10), ("value.invoke", 10))),
    Case("javascript", "values.js", (
        ("import.name", 1, {"name": "STOCK_URL", "module": "./config"}),
        ("import.name", 1, {"name": "P", "imported": "PRICING", "module": "./config"}),
        V(2, "STOCK", 'BASE + "/stock"'), V(4, "url", "`${STOCK}/items/${id}`", "3-6"),
        ("value.params", 7, {"function": "StockClient", "params": "(baseUrl)", "scope": "7-7"}),
        ("value.params", 7, {"function": "constructor", "params": "(baseUrl)", "scope": "7-7"}),
        V(7, "baseUrl", "baseUrl"),
        ("value.invoke", 8, {"callee": "StockClient", "args": '("http://stock:8080")'})),
         absent=(("value.assign", 5), ("value.invoke", 5))),
    Case("csharp", "values.cs", (V(3, "Stock", 'Base + "/stock"'), V(6, "url", '$"http://{Host}/x"', "4-8"),
                                 ("value.params", 9, {"function": "Hosts", "params": "(string baseUrl)", "scope": "9-9"}),
                                 V(9, "_baseUrl", "baseUrl"),
                                 ("value.invoke", 10, {"callee": "Hosts", "args": '("http://stock:8080")'})),
         absent=(("value.assign", 7), ("value.invoke", 7))),
    Case("rust", "values.rs", (V(1, "STOCK", 'concat!("http://", "stock")'),
                               V(3, "url", 'format!("{}/items", STOCK)', "2-5")),
         absent=(("value.assign", 4),)),
])
CASES.extend(structure_cases(Case))  # code structure: tests/grammar_cases_structure.py


def _facts(case: Case):
    content = (FIXTURES / case.language / case.fixture).read_bytes()
    facts, warnings = extract_source("repo", case.path or case.fixture, case.language, content)
    return [(f.kind, f.line, dict(f.attrs)) for f in facts], warnings


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.language}/{c.fixture}@{c.path or ''}")
def test_fixture_yields_expected_facts(case: Case) -> None:
    facts, warnings = _facts(case)
    for expected in case.expect:
        assert expected in facts, f"{expected} missing; got {[f for f in facts if f[0] == expected[0]]}"
    for kind, line in case.absent:
        assert not [f for f in facts if f[0] == kind and f[1] == line], f"false positive {kind} on line {line}"
    if case.broken:
        assert warnings and "syntax error" in warnings[0].message
    else:
        assert warnings == [], warnings


@pytest.mark.parametrize("language", sorted(all_languages()))
def test_every_language_has_a_broken_file_case(language: str) -> None:
    assert any(c.language == language and c.broken for c in CASES)


def _own_query_files() -> list[tuple[str, Path]]:
    return [(name, scm) for name, spec in sorted(all_languages().items()) for scm in sorted(spec.folder.glob("*.scm"))]


@pytest.mark.parametrize("language,scm", _own_query_files(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_query_file_has_a_fixture_covering_its_fact_kinds(language: str, scm: Path) -> None:
    """Each .scm a language owns is exercised by a case that expects every fact kind it declares."""
    kinds = set(re.findall(r'\(#set!\s+fact\s+"([^"]+)"\)', scm.read_text(encoding="utf-8")))
    cases = [c for c in CASES if c.language == language and scm.stem in (c.covers or (Path(c.fixture).stem,))]
    assert cases, f"no fixture case for {scm}"
    covered = {e[0] for c in cases for e in c.expect}
    if TEST_ONLY in kinds:  # marks lines to drop: checked by facts absent from a test module's lines
        assert any(k != TEST_ONLY for c in cases for k, _line in c.absent), f"{scm.name}: no case shows test code dropped"
        kinds.discard(TEST_ONLY)
    assert kinds <= covered, f"{scm.name}: kinds {kinds - covered} are never checked"


@pytest.mark.parametrize("language", sorted(all_languages()))
def test_language_toml_module_imports_and_each_query_compiles(language: str) -> None:
    import tree_sitter

    spec = all_languages()[language]
    module = importlib.import_module(spec.module)
    assert callable(getattr(module, spec.function))
    lang = load_language(language)
    for scm in sorted(spec.folder.glob("*.scm")):
        query = tree_sitter.Query(lang, scm.read_text(encoding="utf-8"))  # raises on a broken file
        for i in range(query.pattern_count):
            assert "fact" in (query.pattern_settings(i) or {}), f"{scm.name} pattern {i} lacks (#set! fact ...)"
    for parent in spec.inherits:  # inherited query files must compile against this grammar too
        for scm in sorted(all_languages()[parent].folder.glob("*.scm")):
            if not (spec.folder / scm.name).exists():
                tree_sitter.Query(lang, scm.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path,language", [
    ("src/App.kt", "kotlin"), ("build.gradle.kts", "kotlin"), ("Controllers/OrdersController.cs", "csharp"),
    ("src/main.rs", "rust"), ("config/routes.rb", "ruby"), ("routes/web.php", "php"), ("web/app.tsx", "tsx"),
    ("api/server.ts", "typescript"), ("src/UserService/UserService.cpp", "cpp"), ("src/utils.hpp", "cpp"),
    ("lib/shop_web/router.ex", "elixir"), ("config/runtime.exs", "elixir"),
])
def test_new_languages_are_recognised_by_extension(path: str, language: str) -> None:
    assert language_for_path(path) == language


# Generated sources shaped like real route files (one router, many module-level assignments, many
# handlers).  A query that pairs siblings (assignment ... later route) is quadratic in the number of
# statements; these files took 4-16 s with such patterns and take well under a second without them.
_BIG = {
    "python": ("app.py", "\n".join(
        ["router = APIRouter(prefix='/api')"] + [f"X{i} = Settings(name='v{i}', url='http://h{i}:80')" for i in range(150)]
        + [f"@router.get('/r{i}')\ndef r{i}():\n    return requests.get('http://x/{i}')\n" for i in range(400)])),
    "javascript": ("server.js", "\n".join(
        ['const router = new Router({ prefix: "/api" });'] + [f'const c{i} = new Client({{ url: "http://h{i}" }});' for i in range(150)]
        + [f'router.get("/r{i}", async (ctx) => {{}});' for i in range(400)])),
    "csharp": ("Program.cs", "\n".join(
        ['var app = builder.Build();', 'var api = app.MapGroup("/api");']
        + [f'var v{i} = Environment.GetEnvironmentVariable("V{i}");' for i in range(150)]
        + [f'api.MapGet("/r{i}", () => Results.Ok());' for i in range(400)])),
    "go": ("main.go", "\n".join(
        ["package main", "func main() {", "r := gin.Default()", 'api := r.Group("/api")']
        + [f'v{i} := os.Getenv("V{i}")' for i in range(150)] + [f'api.GET("/r{i}", h)' for i in range(400)] + ["}"])),
}


@pytest.mark.parametrize("language", sorted(_BIG))
def test_route_files_extract_in_linear_time(language: str) -> None:
    import time

    name, text = _BIG[language]
    extract_source("repo", name, language, b"x = 1")  # compile outside the timing
    start = time.perf_counter()
    facts, warnings = extract_source("repo", name, language, text.encode())
    elapsed = time.perf_counter() - start
    routes = [f for f in facts if f.kind == "http.route"]
    assert len(routes) == 400 and warnings == []
    assert len([f for f in facts if f.kind == "http.router"]) == 1
    assert elapsed < 2.0, f"{language}: {elapsed:.2f}s for {len(text.splitlines())} lines"
