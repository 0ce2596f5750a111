"""Resolver behaviour on small systems: each test builds a repository the way real projects look and
checks the components and connections a user would expect (and that the SysML still validates:
the pipeline's audit runs the strict check before publishing)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import make_repo
from model_views import top_level
from repomodeler.pipeline import AnalyzeOptions, analyze


def model_of(tmp_path: Path, repos: dict[str, dict[str, str]], validate: bool = True) -> dict:
    inputs = []
    for name, files in repos.items():
        make_repo(tmp_path / name, files)
        inputs.append(f"file://{tmp_path / name}")
    out = tmp_path / "out"
    analyze(inputs, AnalyzeOptions(out=out, name="sys", validate=validate))
    return top_level(json.loads((out / "model.json").read_text()))


def edges(model: dict) -> set[tuple[str, str, str]]:
    return {(e["source"], e["target"], e["protocol"]) for e in model["edges"]}


def node(model: dict, nid: str) -> dict:
    return next(n for n in model["nodes"] if n["id"] == nid)


def test_library_repository_used_by_a_service(tmp_path) -> None:
    model = model_of(tmp_path, {
        "common": {"package.json": '{"name": "@acme/common", "version": "1.0.0"}\n', "index.js": "module.exports = {};\n"},
        "web": {"package.json": '{"name": "web", "dependencies": {"@acme/common": "^1.0.0"}}\n',
                "server.js": 'const app = require("express")();\napp.get("/x", (q, r) => r.send("x"));\n'},
    })
    assert node(model, "common")["kind"] == "library"
    edge = next(e for e in model["edges"] if e["target"] == "common")
    assert (edge["source"], edge["protocol"], edge["kind"]) == ("web", "library", "depends_on")
    assert edge["evidence"] == [{"repository": "web", "path": "package.json", "line": 1}]


GRPC_PROTO = """syntax = "proto3";
package shop;

service CartService {
  rpc AddItem(AddItemRequest) returns (Empty) {}
  rpc GetCart(GetCartRequest) returns (Cart) {}
}
"""


def test_grpc_server_registration_and_client_stub_across_repositories(tmp_path) -> None:
    model = model_of(tmp_path, {
        "cart": {
            "go.mod": "module example.com/cart\n\ngo 1.22\n",
            "proto/cart.proto": GRPC_PROTO,
            "main.go": ('package main\n\nimport (\n\t"google.golang.org/grpc"\n\tpb "example.com/cart/proto"\n)\n\n'
                        'func main() {\n\ts := grpc.NewServer()\n\tpb.RegisterCartServiceServer(s, &server{})\n}\n'),
        },
        "frontend": {
            "go.mod": "module example.com/frontend\n\ngo 1.22\n",
            "main.go": ('package main\n\nimport (\n\t"os"\n\t"google.golang.org/grpc"\n\tpb "example.com/cart/proto"\n)\n\n'
                        'func main() {\n\tconn, _ := grpc.Dial(os.Getenv("CART_SERVICE_ADDR"))\n'
                        '\tclient := pb.NewCartServiceClient(conn)\n\t_ = client\n}\n'),
        },
    })
    cart = node(model, "cart")
    rpcs = {(e["method"], e["path"]) for p in cart["ports"] if p["protocol"] == "grpc" for e in p["endpoints"]}
    assert rpcs == {("RPC", "CartService/AddItem"), ("RPC", "CartService/GetCart")}
    assert ("frontend", "cart", "grpc") in edges(model)
    edge = next(e for e in model["edges"] if (e["source"], e["target"]) == ("frontend", "cart"))
    assert {"repository": "frontend", "path": "main.go", "line": 11} in edge["evidence"]


def test_kubernetes_manifests_configmap_and_ingress(tmp_path) -> None:
    manifests = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
spec:
  template:
    metadata:
      labels:
        app: orders
    spec:
      containers:
        - name: orders
          image: acme/orders:1.0
          envFrom:
            - configMapRef:
                name: orders-config
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: orders-config
data:
  DB_URL: postgres://orders-db:5432/orders
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: orders-db
spec:
  template:
    spec:
      containers:
        - name: pg
          image: postgres:15
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: public
spec:
  rules:
    - http:
        paths:
          - path: /
            backend:
              service:
                name: orders
"""
    model = model_of(tmp_path, {"deploy": {"k8s/all.yaml": manifests}})
    assert {n["id"]: n["kind"] for n in model["nodes"]} == {
        "orders": "service", "orders-db": "database", "user": "user"}  # an Ingress routes; it does not run
    assert edges(model) == {("orders", "orders-db", "sql"), ("user", "orders", "http")}
    db_edge = next(e for e in model["edges"] if e["target"] == "orders-db")
    assert {"repository": "deploy", "path": "k8s/all.yaml", "line": 23} in db_edge["evidence"]


def test_constants_spring_value_and_feign_resolve_calls(tmp_path) -> None:
    model = model_of(tmp_path, {
        "shop": {
            "docker-compose.yml": ("services:\n  web:\n    build: ./web\n  billing:\n    build: ./billing\n"
                                   "  stock:\n    image: acme/stock\n  catalog:\n    image: acme/catalog\n"),
            "web/requirements.txt": "requests\n",
            "web/app.py": ('import requests\n\nBILLING_URL = "http://billing:9000"\n\n\n'
                           'def pay():\n    return requests.post(BILLING_URL + "/charges")\n'),
            "billing/pom.xml": "<project><artifactId>billing</artifactId></project>\n",
            "billing/src/main/resources/application.properties": "stock.url=http://stock:8081\n",
            "billing/src/main/java/Billing.java": (
                'import org.springframework.beans.factory.annotation.Value;\n'
                'import org.springframework.cloud.openfeign.FeignClient;\n\n'
                'class Billing {\n    @Value("${stock.url}")\n    private String stockUrl;\n}\n\n'
                '@FeignClient(name = "catalog")\ninterface CatalogClient {}\n'),
        },
    })
    got = edges(model)
    assert {("web", "billing", "http"), ("billing", "stock", "http"), ("billing", "catalog", "http")} <= got
    web_billing = next(e for e in model["edges"] if (e["source"], e["target"]) == ("web", "billing"))
    assert web_billing["attributes"]["endpoints"] == "POST /charges"
    lines = {(ev["path"], ev["line"]) for ev in web_billing["evidence"]}
    assert ("web/app.py", 3) in lines and ("web/app.py", 7) in lines  # constant, then the call


def test_kafka_topics_link_producer_and_consumer_through_the_broker(tmp_path) -> None:
    model = model_of(tmp_path, {
        "shop": {
            "docker-compose.yml": ("services:\n  orders:\n    build: ./orders\n  shipping:\n    build: ./shipping\n"
                                   "  kafka:\n    image: bitnami/kafka:3\n"),
            "orders/requirements.txt": "kafka-python\n",
            "orders/main.py": ('from kafka import KafkaProducer\n\nproducer = KafkaProducer(bootstrap_servers="kafka:9092")\n'
                               'producer.send("orders.created", b"{}")\n'),
            "shipping/package.json": '{"name": "shipping", "main": "index.js"}\n',
            "shipping/index.js": ('const { Kafka } = require("kafkajs");\nconst kafka = new Kafka({ brokers: ["kafka:9092"] });\n'
                                  'const consumer = kafka.consumer({ groupId: "shipping" });\n'
                                  'consumer.subscribe({ topic: "orders.created" });\n'),
        },
    })
    by = {(e["source"], e["target"]): e for e in model["edges"]}
    assert by[("orders", "kafka")]["protocol"] == "kafka" and by[("orders", "kafka")]["kind"] == "publishes"
    assert by[("orders", "kafka")]["attributes"]["publishes"] == "orders.created"
    assert by[("shipping", "kafka")]["kind"] == "subscribes"
    assert by[("shipping", "kafka")]["attributes"]["subscribes"] == "orders.created"
    assert node(model, "kafka")["attributes"]["topics"] == "orders.created"


def test_openapi_document_describes_the_service_that_holds_it(tmp_path) -> None:
    model = model_of(tmp_path, {
        "api": {
            "package.json": '{"name": "api", "main": "server.js"}\n',
            "server.js": 'const app = require("express")();\napp.listen(80);\n',
            "openapi.yaml": ("openapi: 3.0.0\ninfo:\n  title: Orders\n  version: '1'\npaths:\n  /orders:\n"
                             "    get:\n      responses: {}\n    post:\n      responses: {}\n"),
        },
    })
    eps = {(e["method"], e["path"], e["evidence"][0]["line"]) for p in node(model, "api")["ports"] for e in p["endpoints"]}
    assert eps == {("GET", "/orders", 6), ("POST", "/orders", 6)}


def test_unknown_hosts_are_unresolved_never_guessed_and_externals_need_a_client_call(tmp_path) -> None:
    model = model_of(tmp_path, {
        "svc": {
            "requirements.txt": "requests\n",
            "app.py": ('import requests\n\nSCHEMA = "http://www.w3.org/2001/XMLSchema"\n'
                       'requests.get("https://api.github.com/repos")\nrequests.get("http://mystery:8080/x")\n'),
        },
    }, validate=False)
    # (the lone program of a system that deploys nothing is what people use: rule frontdoor.entry-points)
    assert {n["id"] for n in model["nodes"]} == {"svc", "api.github.com", "user"}
    assert edges(model) == {("svc", "api.github.com", "http"), ("user", "svc", "http")}
    assert [(u["value"], u["evidence"]["line"]) for u in model["unresolved"]] == [("http://mystery:8080/x", 5)]


def test_unknown_protocol_edge_folds_into_the_known_one(tmp_path) -> None:
    model = model_of(tmp_path, {
        "shop": {
            "docker-compose.yml": ("services:\n  web:\n    build: ./web\n    environment:\n      CART_ADDR: cart:7070\n"
                                   "    depends_on:\n      - cart\n  cart:\n    build: ./cart\n"),
            "web/requirements.txt": "grpcio\n",
            "web/main.py": 'import os\nimport grpc\nimport cart_pb2_grpc\n\nstub = cart_pb2_grpc.CartServiceStub(grpc.insecure_channel(os.getenv("CART_ADDR")))\n',
            "cart/requirements.txt": "grpcio\n",
            "cart/main.py": 'import grpc\nimport cart_pb2_grpc\n\nserver = grpc.server(None)\ncart_pb2_grpc.add_CartServiceServicer_to_server(Cart(), server)\n',
        },
    })
    web_cart = [e for e in model["edges"] if (e["source"], e["target"]) == ("web", "cart")]
    assert [e["protocol"] for e in web_cart] == ["grpc"]
    lines = {(ev["path"], ev["line"]) for ev in web_cart[0]["evidence"]}
    assert {("docker-compose.yml", 5), ("docker-compose.yml", 7), ("web/main.py", 5)} <= lines


def test_nginx_reverse_proxy_routes_to_upstreams(tmp_path) -> None:
    model = model_of(tmp_path, {
        "site": {
            "docker-compose.yml": ("services:\n  proxy:\n    image: nginx:1.27\n    ports:\n      - \"80:80\"\n"
                                   "    volumes:\n      - ./nginx/nginx.conf:/etc/nginx/nginx.conf\n"
                                   "  api:\n    build: ./api\n  web:\n    build: ./web\n"),
            "nginx/nginx.conf": ("upstream api_pool {\n    server api:8000;\n}\nserver {\n    listen 80;\n"
                                 "    location /api/ {\n        proxy_pass http://api_pool;\n    }\n"
                                 "    location / {\n        proxy_pass http://web:3000/;\n    }\n}\n"),
            "api/requirements.txt": "fastapi\n",
            "api/main.py": 'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/api/items")\ndef items():\n    return []\n',
            "web/package.json": '{"name": "web", "main": "server.js"}\n',
            "web/server.js": 'const app = require("express")();\napp.get("/", (q, r) => r.send("hi"));\n',
            "web/Dockerfile": "FROM node:20\nEXPOSE 3000\n",
        },
    })
    assert node(model, "proxy")["kind"] == "gateway"
    assert {("proxy", "api", "http"), ("proxy", "web", "http"), ("user", "proxy", "http")} <= edges(model)
    api_edge = next(e for e in model["edges"] if (e["source"], e["target"]) == ("proxy", "api"))
    assert {"repository": "site", "path": "nginx/nginx.conf", "line": 2} in api_edge["evidence"]
    assert node(model, "web")["attributes"]["exposed"] == "3000"


def test_a_services_sqlite_file_is_its_embedded_database_and_an_in_memory_one_nothing(tmp_path) -> None:
    """The SQLite file a web service opens (create_engine("sqlite:///local.db")) is drawn as its embedded
    database, as the project's documents draw it; an in-memory H2 URL keeps nothing and draws nothing."""
    model = model_of(tmp_path, {
        "svc": {
            "requirements.txt": "flask\nsqlalchemy\n",
            "app.py": ('import os\nfrom flask import Flask\nfrom sqlalchemy import create_engine\n\n'
                       'app = Flask("svc")\nengine = create_engine("sqlite:///local.db")\n'
                       'H2 = "jdbc:h2:mem:testdb"\n\n@app.route("/x")\ndef x():\n    return "x"\n'),
        },
    }, validate=False)
    assert [n["id"] for n in model["nodes"]] == ["sqlite", "svc", "user"]
    assert [e["id"] for e in model["edges"]] == ["svc->sqlite:sql", "user->svc:http"] and model["unresolved"] == []
    sqlite = next(n for n in model["nodes"] if n["id"] == "sqlite")
    assert sqlite["kind"] == "database" and any(e["path"] == "app.py" and e["line"] == 6 for e in sqlite["evidence"])


def test_router_prefixes_controller_tokens_and_client_verbs(tmp_path) -> None:
    model = model_of(tmp_path, {
        "shop": {
            "docker-compose.yml": ("services:\n  orders:\n    build: ./orders\n  billing:\n    build: ./billing\n"
                                   "  checkout:\n    build: ./checkout\n"),
            "orders/requirements.txt": "fastapi\n",
            "orders/main.py": ('from fastapi import APIRouter, FastAPI\n\napp = FastAPI()\n'
                               'router = APIRouter(prefix="/orders")\n\n\n@router.get("/{order_id}")\n'
                               'def get_order(order_id: int):\n    return {}\n'),
            "billing/Billing.csproj": "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>\n",
            "billing/InvoicesController.cs": ('using Microsoft.AspNetCore.Mvc;\n\n[ApiController]\n[Route("api/[controller]")]\n'
                                              'public class InvoicesController : ControllerBase\n{\n'
                                              '    [HttpGet("{id}")]\n    public string Get(int id) => "x";\n}\n'),
            "checkout/go.mod": "module example.com/checkout\n\ngo 1.22\n",
            "checkout/main.go": ('package main\n\nimport "net/http"\n\nfunc main() {\n'
                                 '\treq, _ := http.NewRequest(http.MethodPost, "http://orders:8000/orders/1", nil)\n'
                                 '\t_ = req\n\thttp.HandleFunc("/checkout", nil)\n}\n'),
        },
    })
    eps = {(n["id"], e["method"], e["path"]) for n in model["nodes"] for p in n["ports"] for e in p["endpoints"]}
    assert ("orders", "GET", "/orders/{order_id}") in eps
    assert ("billing", "GET", "/api/invoices/{id}") in eps
    call = next(e for e in model["edges"] if (e["source"], e["target"]) == ("checkout", "orders"))
    assert call["attributes"]["endpoints"] == "POST /orders/1"


def test_graphql_helm_values_traefik_labels_and_connection_strings(tmp_path) -> None:
    model = model_of(tmp_path, {
        "app": {
            "docker-compose.yml": (
                "services:\n  traefik:\n    image: traefik:v3.1\n    ports:\n      - \"80:80\"\n"
                "  api:\n    build: ./api\n    labels:\n      - \"traefik.http.routers.api.rule=PathPrefix(`/graphql`)\"\n"
                "  worker:\n    build: ./worker\n  db:\n    image: postgres:16\n  cache:\n    image: redis:7\n"),
            "api/package.json": '{"name": "api", "main": "server.js"}\n',
            "api/server.js": 'const app = require("express")();\napp.listen(4000);\n',
            "api/schema.graphql": "type Query {\n  orders(first: Int): [Order]\n  order(id: ID!): Order\n}\n\n"
                                  "type Mutation {\n  placeOrder(input: OrderInput!): Order\n}\n",
            "worker/Worker.csproj": "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n",
            "worker/Program.cs": ('using Npgsql;\n\nvar conn = new NpgsqlConnection("Server=db;Username=postgres;Password=x;");\n'
                                  'conn.Open();\n'),
            "charts/api/Chart.yaml": "apiVersion: v2\nname: api\nversion: 0.1.0\n",
            "charts/api/values.yaml": "redis:\n  url: redis://cache:6379\n",
            "charts/api/templates/deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n",
        },
    })
    assert ("traefik", "api", "http") in edges(model) and node(model, "traefik")["kind"] == "gateway"
    assert ("worker", "db", "sql") in edges(model)
    assert ("api", "cache", "redis") in edges(model)
    ops = {(e["method"], e["path"]) for p in node(model, "api")["ports"] for e in p["endpoints"]}
    assert ops == {("QUERY", "Query.orders"), ("QUERY", "Query.order"), ("MUTATION", "Mutation.placeOrder")}
    assert not [w for w in model["warnings"] if "templates" in w["path"]]  # Helm templates are not YAML yet
    worker_db = next(e for e in model["edges"] if (e["source"], e["target"]) == ("worker", "db"))
    assert {"repository": "app", "path": "worker/Program.cs", "line": 3} in worker_db["evidence"]


def test_envoy_clusters_route_the_proxy(tmp_path) -> None:
    envoy = """static_resources:
  listeners:
    - address:
        socket_address:
          address: 0.0.0.0
          port_value: 8080
  clusters:
    - name: orders
      load_assignment:
        cluster_name: orders
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address:
                      address: orders
                      port_value: 9000
"""
    model = model_of(tmp_path, {
        "mesh": {
            "docker-compose.yml": ("services:\n  edge:\n    image: envoyproxy/envoy:v1.31\n    ports:\n      - \"8080:8080\"\n"
                                   "  orders:\n    build: ./orders\n"),
            "envoy/envoy.yaml": envoy,
            "orders/requirements.txt": "flask\n",
            "orders/app.py": 'from flask import Flask\napp = Flask("orders")\n\n@app.route("/orders")\ndef o():\n    return ""\n',
        },
    })
    edge = next(e for e in model["edges"] if (e["source"], e["target"]) == ("edge", "orders"))
    assert edge["protocol"] == "http" and {"repository": "mesh", "path": "envoy/envoy.yaml", "line": 16} in edge["evidence"]


def test_router_mounted_in_another_file_prefixes_its_routes(tmp_path) -> None:
    model = model_of(tmp_path, {
        "shop": {
            "docker-compose.yml": "services:\n  web:\n    build: ./web\n  api:\n    build: ./api\n",
            "web/package.json": '{"name": "web", "main": "server.js"}\n',
            "web/server.js": ('const express = require("express");\nconst ordersRouter = require("./routes/orders");\n'
                              'const app = express();\napp.use("/api/orders", ordersRouter);\n'
                              'app.use("/api/stock", require("./routes/stock"));\napp.listen(3000);\n'),
            "web/routes/orders.js": ('const router = require("express").Router();\n'
                                     'router.get("/:id", (req, res) => res.json({}));\nmodule.exports = router;\n'),
            "web/routes/stock/index.js": ('const router = require("express").Router();\n'
                                          'router.post("/reserve", (req, res) => res.json({}));\nmodule.exports = router;\n'),
            "api/requirements.txt": "fastapi\n",
            "api/app/main.py": ('from fastapi import FastAPI\nfrom .routers import invoices\n\napp = FastAPI()\n'
                                'app.include_router(invoices.router, prefix="/invoices")\n'),
            "api/app/routers/invoices.py": ('from fastapi import APIRouter\n\nrouter = APIRouter()\n\n\n'
                                            '@router.get("/{invoice_id}")\ndef get_invoice(invoice_id: int):\n    return {}\n'),
        },
    }, validate=False)
    eps = {(n["id"], e["method"], e["path"]) for n in model["nodes"] for p in n["ports"] for e in p["endpoints"]}
    assert {("web", "GET", "/api/orders/:id"), ("web", "POST", "/api/stock/reserve"),
            ("api", "GET", "/invoices/{invoice_id}")} <= eps


def test_django_include_prefixes_the_included_urls(tmp_path) -> None:
    model = model_of(tmp_path, {
        "site": {
            "requirements.txt": "django\n",
            "manage.py": "import django\n",
            "site/urls.py": ('from django.urls import include, path\n\nurlpatterns = [\n'
                             '    path("api/", include("orders.urls")),\n]\n'),
            "orders/urls.py": ('from django.urls import path\nfrom . import views\n\nurlpatterns = [\n'
                               '    path("orders/<int:id>/", views.order),\n]\n'),
        },
    }, validate=False)
    eps = {(e["method"], e["path"]) for n in model["nodes"] for p in n["ports"] for e in p["endpoints"]}
    assert eps == {("ANY", "/api/orders/<int:id>/")}
