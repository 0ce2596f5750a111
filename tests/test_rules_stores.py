"""Data stores: what a connection string says about the store it names."""

from __future__ import annotations

import pytest

from tests.rules_harness import edge_set, resolve_files, via


def test_two_databases_on_one_server_are_two_stores_inside_it() -> None:
    files = {
        "docker-compose.yml": (
            "services:\n  mysql:\n    image: mysql:8\n"
            "  orders:\n    build: ./orders\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/orders\n"
            "  users:\n    build: ./users\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/users\n"
            "  audit:\n    build: ./audit\n    environment:\n      DB_URL: jdbc:mysql://mysql:3306/users\n"),
        **{f"{s}/Dockerfile": "FROM python:3.12\nCMD python app.py\n" for s in ("orders", "users", "audit")},
        **{f"{s}/app.py": "import os\nURL = os.environ['DB_URL']\n" for s in ("orders", "users", "audit")},
    }
    model = resolve_files({"shop": files})
    assert {c.id for c in model.components.values() if c.kind == "database"} == {"mysql"}
    stores = {p.id: p for p in model.parts.values() if p.kind == "database"}
    assert set(stores) == {"mysql/orders", "mysql/users"}
    assert all(p.parent == "mysql" for p in stores.values())
    links = {(c.source, c.target) for c in model.part_links.values() if c.target in stores}
    assert links == {("orders", "mysql/orders"), ("users", "mysql/users"), ("audit", "mysql/users")}
    line = {(e.path, e.line) for c in model.part_links.values() if c.target == "mysql/orders" for e in c.evidence}
    assert line == {("docker-compose.yml", 7), ("orders/app.py", 2)}  # the value, and the code that reads it
    assert model.connections[("users", "mysql", "sql")].attributes["databases"] == "users"


STORE_CALLS = {
    "csharp": ("worker/Program.cs", 'class P {\n  static void Main() {\n    var r = OpenRedisConnection("redis");\n'
               '    var x = OpenRedisConnection("vote");\n    var y = Connect("redis");\n  }\n}\n', 3),
    "python": ("worker/app.py", 'import os\nclient = connect_redis("redis")\nother = connect_redis("vote")\n'
               'plain = connect("redis")\n', 2),
    "javascript": ("worker/index.js", 'const c = createRedisClient("redis");\nconst d = createRedisClient("vote");\n'
                   'const e = open("redis");\n', 1),
    "go": ("worker/main.go", 'package main\n\nfunc main() {\n\tp := newRedisPool("redis")\n\tq := newRedisPool("vote")\n'
           '\t_ = open("redis")\n\t_, _ = p, q\n}\n', 4),
    "java": ("worker/src/main/java/com/acme/Worker.java", 'package com.acme;\npublic class Worker {\n'
             '  void run() {\n    Object r = connectRedis("redis");\n    Object v = connectRedis("vote");\n  }\n}\n', 4),
}


@pytest.mark.parametrize("language", sorted(STORE_CALLS))
def test_literal_host_handed_to_a_store_client_call(language: str) -> None:
    path, code, line = STORE_CALLS[language]
    files = {
        "docker-compose.yml": ("services:\n  redis:\n    image: redis:7\n  vote:\n    image: acme/vote:1\n"
                               "  worker:\n    build: ./worker\n"),
        "worker/Dockerfile": "FROM scratch\nCMD [\"/worker\"]\n",
        path: code,
    }
    model = resolve_files({"voting": files})
    worker = {(c.target, c.protocol): c for c in model.connections.values() if c.source == "worker"}
    assert set(worker) == {("redis", "redis")}  # not vote (not a Redis), not a call naming no technology
    assert (path, line) in {(e.path, e.line) for e in worker[("redis", "redis")].evidence}
    assert worker[("redis", "redis")].attributes["via"] == "literal host of a store client"


def test_grpc_client_of_a_service_no_code_here_serves_reaches_the_service_named_for_it() -> None:
    files = {
        "docker-compose.yml": "services:\n  currency:\n    image: acme/currency:1\n  checkout:\n    build: ./checkout\n"
                              "  ledger:\n    image: acme/ledger:1\n  ledger-service:\n    image: acme/ledger2:1\n",
        "checkout/Dockerfile": "FROM golang:1.22\nCMD [\"/checkout\"]\n",
        "checkout/go.mod": "module example.com/checkout\n\ngo 1.22\n",
        "checkout/main.go": ('package main\n\nimport pb "example.com/checkout/genproto"\n\nfunc main() {\n'
                             '\tc := pb.NewCurrencyServiceClient(conn)\n\tl := pb.NewLedgerServiceClient(conn)\n\t_, _ = c, l\n}\n'),
    }
    model = resolve_files({"shop": files})
    out = {(c.target, c.protocol) for c in model.connections.values() if c.source == "checkout"}
    assert out == {("currency", "grpc")}  # ledger is ambiguous (ledger, ledger-service): listed, not guessed
    assert any(u.value == "gRPC client of ledgerservice" for u in model.unresolved)


def test_cassandra_contact_points_and_neo4j_bolt_urls_name_their_stores() -> None:
    """``spring.data.cassandra.contact-points: cassandra`` holds a Cassandra host and
    ``spring.neo4j.uri: bolt://graph:7687`` a Neo4j one: both link to the store (introduced when the
    system does not deploy it), and a Neo4j image is a Neo4j store."""
    from tests.test_rules_platform import java_module
    files = {
        **java_module("orders", "spring-boot-starter-data-cassandra", "spring-boot-starter-data-neo4j",
                      props="spring.data.cassandra.contact-points=cassandra\nspring.neo4j.uri=bolt://graph:7687\n"),
        **java_module("stock", props="spring.cassandra.contact-points=cassandra:9042\nspring.data.neo4j.uri=bolt://neo:7687\n"),
        "docker-compose.yml": "services:\n  cassandra:\n    image: cassandra:4\n  neo:\n    image: neo4j:5\n",
    }
    model = resolve_files({"r": files})
    edges = {(c.source, c.target): c.protocol for c in model.connections.values()}
    assert edges[("orders", "cassandra")] == "tcp" and ("stock", "cassandra") in edges
    assert model.components["graph"].attributes["technology"] == "neo4j" and edges[("orders", "graph")] == "bolt"
    assert model.components["neo"].attributes["technology"] == "neo4j" and edges[("stock", "neo")] == "bolt"
    assert "orders-database" not in model.components


DOTNET_API = ('var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\n'
              'app.MapGet("/customers", () => "[]");\napp.Run();\n')


def test_aspnet_appsettings_name_the_stores_brokers_and_services_a_dotnet_service_reaches() -> None:
    """appsettings.json and appsettings.Production.json (the environment a deployed ASP.NET Core
    service runs in unless told otherwise) are read like Spring's application.yml: comments,
    trailing commas and a byte-order mark included; other environments only link to what exists."""
    files = {
        "docker-compose.yml": (
            "services:\n  rabbitmq:\n    image: rabbitmq:3-management\n"
            "  sqlserver:\n    image: mcr.microsoft.com/mssql/server:2022-latest\n"
            "  customers:\n    build: Customers\n    environment:\n      - ASPNETCORE_ENVIRONMENT=Production\n"
            "  web:\n    build: Web\n    ports:\n      - \"7005:7005\"\n"),
        "Customers/Customers.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "Customers/Program.cs": DOTNET_API,
        "Customers/appsettings.json": '{\n  "Logging": { "LogLevel": { "Default": "Information" } }\n}\n',
        "Customers/appsettings.Production.json": (
            '\ufeff{\n  // where the events go\n  "RabbitMQPublisher": {\n    "Host": "rabbitmq",\n  },\n'
            '  "ConnectionStrings": {\n    "CustomersDb": "server=sqlserver;user id=sa;database=Customers;"\n  },\n}\n'),
        "Customers/appsettings.Development.json": '{ "Search": { "Url": "http://localhost:9200" },\n'
                                                  '  "Cache": { "Url": "http://cache.dev.example.com" } }\n',
        "Web/Web.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "Web/Program.cs": DOTNET_API.replace("/customers", "/"),
        "Web/appsettings.Production.json": '{\n  "ApiServiceLocations": {\n    "Customers": "customers:5100"\n  }\n}\n',
    }
    model = resolve_files({"garage": files})
    links = {(c.source, c.target): c for c in model.connections.values()}
    assert {("customers", "rabbitmq"), ("customers", "sqlserver"), ("web", "customers")} <= set(links)
    lines = {(e.path, e.line) for e in links[("customers", "rabbitmq")].evidence}
    assert ("Customers/appsettings.Production.json", 4) in lines
    assert {(e.path, e.line) for e in links[("customers", "sqlserver")].evidence} >= {
        ("Customers/appsettings.Production.json", 7)}
    # a host:port naming a service that serves HTTP routes is an HTTP call
    assert links[("web", "customers")].protocol == "http"
    # the Development environment introduces nothing new (no cache.dev.example.com external)
    assert not any("example.com" in c.id for c in model.components.values())


def test_store_drivers_of_more_technologies_link_to_the_one_store_of_that_kind() -> None:
    """Cassandra (gocql), Elasticsearch (olivere/elastic), SQL Server and memcached clients imported by a
    service that names no address of them reach the one deployed store of that technology."""
    compose = ("services:\n  history:\n    build: ./history\n  cassandra:\n    image: cassandra:4\n"
               "  search:\n    image: elasticsearch:8.11.0\n  cache:\n    image: memcached:1.6\n")
    history = ('package main\n\nimport (\n\t"github.com/gocql/gocql"\n\t"github.com/olivere/elastic/v7"\n'
               '\t"github.com/bradfitz/gomemcache/memcache"\n)\n\nfunc main() {\n\t_ = gocql.NewCluster\n'
               '\t_ = elastic.NewClient\n\t_ = memcache.New\n}\n')
    model = resolve_files({"r": {"docker-compose.yml": compose, "history/go.mod": "module example.com/history\n",
                                 "history/main.go": history}})
    edges = edge_set(model)
    assert {("history", "cassandra"), ("history", "search"), ("history", "cache")} <= edges
    assert via(model, "history", "cassandra") == {"driver github.com/gocql/gocql"}


def test_a_compose_file_in_a_ci_folder_is_the_pipelines_stack_not_the_system() -> None:
    """``develop/github/docker-compose.yml`` starts the stores a CI pipeline tests against (several search
    engines, one per version); the system's own compose file names the one it runs with, so the driver
    the code imports links to that one instead of to none among many."""
    from repomodeler.inventory import classify_role
    assert classify_role("develop/github/docker-compose.yml") == "ci"
    assert classify_role("ci/compose.yaml") == "ci"
    assert classify_role("internal/github/client.go") == "source"  # a package wrapping GitHub's API
    files = {
        "go.mod": "module example.com/tmp\n\ngo 1.22\n\nrequire github.com/olivere/elastic/v7 v7.0.32\n",
        "cmd/server/main.go": ('package main\n\nimport (\n\t"net/http"\n\t_ "example.com/tmp/store"\n)\n\n'
                               'func main() { http.ListenAndServe(":7233", nil) }\n'),
        "store/es.go": 'package store\n\nimport "github.com/olivere/elastic/v7"\n\nvar _ = elastic.NewClient\n',
        "develop/docker-compose/docker-compose.yml": ("services:\n  elasticsearch:\n"
                                                      "    image: elasticsearch:7.17.0\n"),
        "develop/github/docker-compose.yml": ("services:\n  elasticsearch8:\n    image: elasticsearch:8.5.0\n"
                                              "  opensearch2:\n    image: opensearchproject/opensearch:2.5.0\n"),
    }
    model = resolve_files({"tmp": files})
    assert "elasticsearch8" not in model.components and "opensearch2" not in model.components
    assert ("tmp", "elasticsearch") in edge_set(model)


def test_folders_named_for_a_kind_of_tests_are_test_code() -> None:
    """``unittests/``, ``api_tests/``, ``rest-api-tests/``: a test suite's fixtures, stacks and clients
    are not the system (a Kubernetes manifest among scan fixtures is no deployment)."""
    from repomodeler.inventory import classify_role
    assert classify_role("unittests/scans/conftest/clean.yaml") == "test"
    assert classify_role("api_tests/src/shared.ts") == "test"
    assert classify_role("quickwit/rest-api-tests/docker-compose.yml") == "test"
    assert classify_role("ops/e2e-runner/Dockerfile") == "test"
    assert classify_role("installation-testing/builds/deploy.yaml") == "test"
    assert classify_role("src/contests/handler.go") == "source"
    assert classify_role("latest/config.yaml") == "source"
