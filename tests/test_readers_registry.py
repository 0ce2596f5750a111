"""The descriptor reader registry: what each reader declares, what the inventory lists, who reads what."""

from __future__ import annotations

import pkgutil
import re
from pathlib import Path

import pytest

from repomodeler import inventory
from repomodeler.extract import readers
from repomodeler.extract.readers import registry
from repomodeler.extract.readers._base import FAMILIES
from repomodeler.languages import language_for_path
from repomodeler.records import RepoSpec, Repository

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

# Names beside the samples' files: cases of every reader, look-alikes, and names no reader wants.
NAMES = [
    "Dockerfile", "Dockerfile.dev", "api.dockerfile", "dockerfile.yml", ".env", ".env.local", "prod.env", "package.json",
    "pyproject.toml", "requirements.txt", "requirements-dev.txt", "setup.py", "Setup.py", "setup.cfg", "go.mod", "pom.xml",
    "build.gradle", "build.gradle.kts", "settings.gradle", "Orders.csproj", "Procfile", "Procfile.dev", "Makefile",
    "makefile", "GNUmakefile", "CMakeLists.txt", "Cargo.toml", "Gemfile", "composer.json", "application.yml",
    "application-dev.properties", "bootstrap.yml", "Application.yml", "values.yaml", "values-prod.yml",
    "chart/templates/deployment.yaml", "logback-spring.xml", "config.json", "service-config.json", "tsconfig.json",
    "appsettings.json", "appsettings.Development.json", "appsettings.config.json", "ocelot.json", "filebeat.yml",
    "kustomization.yaml", "docker-compose.yml", "compose.override.yaml", "k8s/orders.yaml", "prometheus.yml",
    "orders.proto", "schema.graphql", "openapi.json", "swagger.yaml", "api/openapi-v1.yml", "nginx.conf",
    "nginx/default.conf", "conf.d/shop.conf", "default.conf.template", "shop.conf.template", "site.nginx", "httpd.conf",
    "deployment/nginx/shop", "sites-available/shop", "nginx/Dockerfile",
    "Caddyfile", "haproxy.cfg", "envoy.yaml", "README.md", "notes.txt", "data.json", "x.xml", "x.cfg", "x.conf",
    "image.png", "main.py", "server.go", "App.java", "index.ts",
]
HEADS = ["", "services:\n  web:\n", "apiVersion: v1\nkind: Service\n", "scrape_configs:\n", "receivers:\n",
         "datasources:\n", "spring:\n  a: 1\n", "openapi: 3.0.0\n", "x: {{ .Values.x }}\n"]


def _sample_files() -> list[tuple[str, str]]:
    """(path, head) of every file of the samples, read as the readers see it."""
    out = []
    for p in sorted(SAMPLES.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out.append((p.relative_to(SAMPLES).as_posix(), p.read_bytes()[:registry.HEAD].decode("utf-8", "replace")))
    return out


def _paths_and_heads() -> list[tuple[str, str]]:
    return _sample_files() + [(name, head) for name in NAMES for head in HEADS]


# --------------------------------------------------------------------------- declarations
def test_every_reader_declares_what_it_claims():
    ids = [r.id for r in registry.READERS]
    assert len(ids) == len(set(ids)), "reader ids are unique"
    for r in registry.READERS:
        assert r.family in FAMILIES, r.id
        assert r.names or r.patterns, f"{r.id} declares no file names or patterns"
        for pattern in r.patterns:
            re.compile(pattern)
        assert r.read is None or callable(r.read), r.id


def test_registry_order_is_fixed_and_sorted():
    keys = [(FAMILIES.index(r.family), r.order, r.id) for r in registry.READERS]
    assert keys == sorted(keys)


def test_every_reader_module_is_registered():
    modules = {m.name for m in pkgutil.iter_modules(readers.__path__) if not m.name.startswith("_")} - {"registry"}
    registered = {m.__name__.rsplit(".", 1)[-1] for m in registry.MODULES}
    assert modules == registered
    assert [m.__name__ for m in registry.MODULES] == sorted(m.__name__ for m in registry.MODULES)
    for m in registry.MODULES:
        assert m.READERS, m.__name__
        assert any(r.read is not None for r in m.READERS), f"{m.__name__} reads nothing"


def test_shadows_name_later_readers_of_the_family():
    by_id = {r.id: r for r in registry.READERS}
    for r in registry.READERS:
        for other in r.shadows:
            assert other in by_id, f"{r.id} shadows unknown reader {other}"
            o = by_id[other]
            assert o.family == r.family and (o.order, o.id) > (r.order, r.id), f"{r.id} cannot go before {other}"


def test_one_fact_helper():
    package = ROOT / "repomodeler" / "extract"
    defined = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
               if re.search(r"^def _?fact\(", p.read_text(), re.M)]
    assert defined == ["readers/_base.py"]


# --------------------------------------------------------------------------- claims
def test_no_two_readers_claim_a_file_unless_declared():
    undeclared = set()
    for path, head in _paths_and_heads():
        for family in FAMILIES:
            first, *others = registry.claimants(path, head, family) or [None]
            for other in others:
                if other.id not in first.shadows:
                    undeclared.add((first.id, other.id, path))
    assert not undeclared, sorted(undeclared)[:20]


def _claimed(path: str) -> bool:
    return language_for_path(path) is not None or any(r.lists and r.claims(path) for r in registry.READERS)


def test_inventory_lists_exactly_what_the_registry_claims():
    for path, _head in _paths_and_heads():
        assert inventory._wanted(path) == _claimed(path), path
    assert all(inventory._wanted(p) for p in ("Dockerfile", "deploy/k8s.yaml", "shop/settings.gradle", "main.py"))
    assert not any(inventory._wanted(p) for p in ("notes.txt", "data.json", "image.png"))
    assert inventory._wanted("README.md")  # its `helm install` commands say how the charts are deployed


def test_inventory_of_a_folder_follows_the_registry(tmp_path):
    for name in NAMES:
        f = tmp_path / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text("x\n")
    spec = RepoSpec(raw=str(tmp_path), kind="path", location=str(tmp_path), ref=None, name="t")
    repo = Repository(name="t", spec=spec, checkout=tmp_path, kind="dir", commit=None, url=None)
    listed = {f.path for f in inventory.build_inventory(repo).files}
    assert listed == {n for n in NAMES if _claimed(n)}


def test_the_first_recognising_reader_reads():
    for path, head in _paths_and_heads():
        for family in FAMILIES:
            found = registry.claimants(path, head, family)
            reader = registry.reader_for(path, head, family)
            assert reader is (found[0] if found and found[0].read is not None else None), (path, family)


# --------------------------------------------------------------------------- one fixture per reader module
FIXTURES = {
    "alloy": ("alloy/config.alloy", 'loki.write "default" {\n  endpoint {\n    url = "http://loki:3100/loki/api/v1/push"\n'
              "  }\n}\n", "monitoring.target"),
    "appsettings": ("appsettings.json", '{"ConnectionStrings": {"Orders": "Host=db"}}\n', "config.property"),
    "beats": ("filebeat.yml", 'output.logstash:\n  hosts: ["logstash:5044"]\n', "monitoring.target"),
    "caddy": ("proxy/Caddyfile.prod", "shop.example.com {\n  reverse_proxy /api/* orders:8080\n}\n", "proxy.route"),
    "firebase": ("web/firebase.json", '{"hosting": {"public": "dist", "rewrites": [{"source": "/api/**", '
                 '"run": {"serviceId": "api"}}]}}\n', "hosting.rewrite"),
    "cdk": ("payments/lib/payments-stack.ts", 'import * as dynamodb from "aws-cdk-lib/aws-dynamodb";\n'
            'const table = new dynamodb.Table(this, "Table", {});\n', "cfn.resource"),
    "cloudformation": ("orders/template.yaml", "Transform: AWS::Serverless-2016-10-31\nResources:\n  Table:\n"
                       "    Type: AWS::DynamoDB::Table\n", "cfn.resource"),
    "cmake": ("CMakeLists.txt", "add_executable(UserService main.cpp)\n", "program.binary"),
    "compose": ("docker-compose.yml", "services:\n  web:\n    image: nginx\n", "compose.service"),
    "compose_launch": ("start.sh", "#!/bin/sh\ndocker compose -f docker-compose.yml -f docker-compose.worker.yml up -d\n",
                       "compose.launch"),
    "config_json": ("config.json", '{"MongoAddress": "mongodb:27017"}\n', "config.document"),
    "dockerfile": ("Dockerfile", "FROM python:3.12\nEXPOSE 8000\n", "docker.from"),
    "dotenv": (".env", "DB_HOST=db\n", "config.env"),
    "dotnet_project": ("Orders.csproj", '<Project><ItemGroup><PackageReference Include="Npgsql" /></ItemGroup></Project>\n',
                       "manifest.dependency"),
    "kong": ("kong.yml", '_format_version: "3.0"\nservices:\n  - name: api\n    url: http://api:8000\n'
             '    routes:\n      - paths: [/api]\n', "proxy.route"),
    "envoy": ("envoy.yaml", "address: orders\nport_value: 8080\n", "proxy.route"),
    "traefik": ("traefik/dynamic.yml", "http:\n  routers:\n    api:\n      rule: PathPrefix(`/api`)\n      service: api\n"
                "  services:\n    api:\n      loadBalancer:\n        servers:\n          - url: http://api:8000\n",
                "proxy.route"),
    "go_mod": ("go.mod", "module example.com/shop\n\nrequire github.com/lib/pq v1.10.0\n", "manifest.dependency"),
    "goreleaser": (".goreleaser.yaml", "builds:\n  - main: ./cli\n    binary: shopctl\n", "program.build"),
    "gradle": ("build.gradle", "dependencies {\n  implementation 'org.springframework:spring-web:6.1'\n}\n",
               "manifest.dependency"),
    "grafana": ("grafana/datasources.yml", "datasources:\n  - type: prometheus\n    url: http://prometheus:9090\n",
                "monitoring.target"),
    "graphql": ("schema.graphql", "type Query {\n  orders: [Order]\n}\n", "http.route"),
    "haproxy": ("haproxy.cfg", "backend api\n    server s1 orders:8080 check\n", "proxy.route"),
    "helm": ("chart/values.yaml", "image:\n  repository: shop/orders\n", "config.property"),
    "helm_install": ("README.md", "Install:\n\n```bash\nhelm install orders ./chart --set db.host=postgres\n```\n",
                     "helm.install"),
    "hjson": ("config/forum.hjson", "{\n  database: {\n    host: postgres\n  }\n}\n", "config.property"),
    "kubernetes": ("k8s/orders.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n"
                   "  template:\n    spec:\n      containers:\n        - image: shop/orders\n", "k8s.workload"),
    "launchers": ("distribution/bin/mqnamesrv", "#!/bin/sh\nsh ${HOME}/bin/runserver.sh org.acme.namesrv.NamesrvStartup $@\n",
                  "program.launch"),
    "logback": ("logback.xml", "<configuration><appender><destination>logstash:5000</destination></appender>"
                "</configuration>\n", "monitoring.target"),
    "makefile": ("Makefile", "run:\n\tpython services/movies.py &\n", "program.command"),
    "maven": ("pom.xml", "<project><artifactId>orders</artifactId><dependencies><dependency>"
              "<artifactId>spring-web</artifactId></dependency></dependencies></project>\n", "manifest.dependency"),
    "mix": ("mix.exs", 'defmodule Shop.MixProject do\n  def project, do: [app: :shop, deps: deps()]\n'
            '  defp deps do\n    [\n      {:postgrex, ">= 0.0.0"},\n      {:credo, "~> 1.7", only: [:dev], runtime: false}\n'
            '    ]\n  end\nend\n', "manifest.dependency"),
    "nacos": ("sql/nacos_config.sql", "CREATE TABLE config_info (id bigint, data_id varchar(255), content longtext);\n"
              "insert into config_info(id, data_id, content) values (1,'orders-dev.yml','server:\\n  port: 8080\\n');\n",
              "config.property"),
    "nginx": ("nginx.conf", "server {\n  location /api/ {\n    proxy_pass http://orders:8080;\n  }\n}\n", "proxy.route"),
    "npm": ("package.json", '{"name": "web", "dependencies": {"express": "^4"}}\n', "manifest.dependency"),
    "openapi": ("openapi.yaml", "openapi: 3.0.0\ninfo:\n  title: Orders\npaths:\n  /orders:\n    get: {}\n", "http.route"),
    "otel_collector": ("otel-collector.yaml", "receivers:\n  otlp: {}\nexporters:\n  otlp/jaeger:\n"
                       "    endpoint: jaeger:4317\n", "monitoring.target"),
    "rails_storage": ("config/storage.yml", "local:\n  service: Disk\namazon:\n  service: S3\n  bucket: b\n",
                      "storage.service"),
    "heroku_app": ("app.json", '{"name": "shop", "addons": ["heroku-postgresql:in-dyno", {"plan": "cloudamqp", "as": "AMQP"}]}\n',
                   "platform.addon"),
    "composer": ("composer.json", '{"name": "acme/shop", "require": {"php": "^8.2", "predis/predis": "^2"}}\n',
                 "manifest.dependency"),
    "bundler": ("Gemfile", 'source "https://rubygems.org"\ngem "rails"\ngem "pg"\ngroup :test do\n  gem "rspec"\nend\n',
                "manifest.dependency"),
    "cargo": ("Cargo.toml", '[package]\nname = "shop"\n\n[dependencies]\nshop_utils = { path = "../utils" }\n',
              "manifest.dependency"),
    "azd": ("azure.yaml", "name: todo\nservices:\n  api:\n    project: ./src/api\n    language: js\n    host: appservice\n",
            "compose.service"),
    "entrypoints": ("docker/files/nginx-entrypoint.sh", "#!/bin/sh\nexport BACKEND_URI=${BACKEND_URI:-http://backend:6060}\n",
                    "config.env"),
    "ansible": ("deploy/roles/orders/tasks/main.yml", "- name: start orders\n  docker_container:\n"
                "    name: orders\n    image: acme/orders:1.0\n    state: started\n", "k8s.workload"),
    "laravel_config": ("config/services.php", "<?php\n\nreturn [\n    'geo' => ['endpoint' => 'https://geo.example.net'],\n];\n",
                       "config.default"),
    "nomad": ("deploy/orders.nomad.hcl", 'job "orders" {\n  group "api" {\n    task "orders" {\n      driver = "docker"\n'
              '      config {\n        image = "acme/orders:1.0"\n      }\n    }\n  }\n}\n', "k8s.workload"),
    "pm2": ("ecosystem.config.js", 'module.exports = {apps: [{\n  name: "api",\n  script: "dist/server.js",\n}]};\n',
            "program.command"),
    "procfile": ("Procfile", "web: gunicorn app:app\n", "program.command"),
    "start_scripts": ("scripts/run.sh", "#!/bin/sh\nnginx -g 'daemon off;' &\nnode server.js\n", "program.command"),
    "prisma": ("api/prisma/schema.prisma", 'datasource db {\n  provider = "postgresql"\n  url = env("DATABASE_URL")\n}\n',
               "orm.datasource"),
    "terraform": ("infra/main.tf", 'resource "google_cloud_run_service" "api" {\n  name = "api"\n}\n', "iac.block"),
    "bicep": ("deploy/main.bicep", "resource app 'Microsoft.App/containerApps@2022-03-01' = {\n  name: 'api'\n}\n",
              "iac.block"),
    "prometheus": ("prometheus.yml", "scrape_configs:\n  - job_name: orders\n    static_configs:\n"
                   "      - targets: ['orders:8080']\n", "monitoring.target"),
    "proto": ("orders.proto", 'syntax = "proto3";\npackage shop;\nservice Orders {\n'
              "  rpc Get (GetRequest) returns (Order);\n}\n", "grpc.rpc"),
    "pyproject": ("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["flask"]\n', "manifest.dependency"),
    "requirements": ("requirements.txt", "flask==3.0\n", "manifest.dependency"),
    "settings_files": ("distribution/conf/broker.conf", "brokerName = broker-a\nnamesrvAddr=127.0.0.1:9876\n",
                       "config.setting"),
    "setup_cfg": ("setup.cfg", "[options.entry_points]\nconsole_scripts =\n    shop = shop.cli:main\n", "program.entry"),
    "azure_functions": ("app/Orders/function.json", '{"bindings": [{"type": "queueTrigger", "direction": "in", '
                        '"queueName": "orders"}]}\n', "functions.binding"),
    "setup_py": ("setup.py", 'setup(entry_points={"console_scripts": ["shop = shop.cli:main"]})\n', "program.entry"),
    "skaffold": ("skaffold.yaml", "apiVersion: skaffold/v4beta5\nkind: Config\nmanifests:\n  rawYaml:\n"
                 "    - k8s/*.yaml\n", "skaffold.manifests"),
    "spring": ("src/main/resources/application.yml", "spring:\n  application:\n    name: orders\n", "config.property"),
    "tye": ("tye.yaml", "name: shop\nservices:\n- name: orders\n  project: src/Orders/Orders.csproj\n", "compose.service"),
    "crontab": ("docker/cronjobs", "# nightly\n0 1 * * * /usr/local/bin/php /var/www/html/cron/run.php >> /var/log/run.log 2>&1\n",
                "program.command"),
    "workflows": (".github/workflows/publish.yml", "jobs:\n  push:\n    strategy:\n      matrix:\n        repos:\n"
                  "          - image: acme/notes-sync\n            file: ./Notes.API/Dockerfile\n    steps:\n"
                  "      - uses: docker/metadata-action@v5\n        id: meta\n        with:\n"
                  "          images: ${{ matrix.repos.image }}\n      - uses: docker/build-push-action@v6\n        with:\n"
                  "          file: ${{ matrix.repos.file }}\n          tags: ${{ steps.meta.outputs.tags }}\n",
                  "manifest.image"),
    "build_scripts": ("deploy/scripts/build_images.sh", "#!/bin/sh\ndocker build -t orders-api \\\n"
                      "  -f ../../src/Orders/Dockerfile ../../src/\n", "manifest.image"),
    "consul_template": ("docker/apache/000-default.ctmpl", "<VirtualHost *:80>\n{{range services}}\n"
                        "  ProxyPass /{{.Name}} balancer://{{.Name}}\n{{end}}\n</VirtualHost>\n", "proxy.catalog"),
}


def test_every_reader_module_has_a_fixture():
    assert set(FIXTURES) == {m.__name__.rsplit(".", 1)[-1] for m in registry.MODULES}


@pytest.mark.parametrize("module", sorted(FIXTURES))
def test_reader_module_reads_its_fixture(module):
    path, text, kind = FIXTURES[module]
    head = text[:registry.HEAD]
    readers_of_file = [registry.reader_for(path, head, family) for family in FAMILIES]
    mine = [r for r in readers_of_file if r is not None and r.id.split(".")[0] == module]
    assert mine, f"no reader of {module} reads {path}"
    assert inventory._wanted(path)
    facts, warnings = registry.read_file("repo", path, text.encode())
    assert not warnings, warnings
    found = [f for f in facts if f.kind == kind and f.rule == mine[0].rule]
    assert found, f"{module}: no {kind} fact from {path}: {facts}"
    assert all(f.repository == "repo" and f.path == path and f.language == "config" for f in facts)


def test_a_site_file_with_no_extension_in_an_nginx_folder_is_read_as_nginx():
    """Debian's sites-available/shop and a project's deployment/nginx/shop are nginx sites; a Dockerfile
    or a README beside them is not."""
    claims = {p: [r.id for r in registry.READERS if r.claims(p)] for p in
              ("deployment/nginx/shop", "sites-available/shop", "nginx/Dockerfile", "nginx/README")}
    assert "nginx" in claims["deployment/nginx/shop"] and "nginx" in claims["sites-available/shop"]
    assert "nginx" not in claims["nginx/Dockerfile"] and "nginx" not in claims["nginx/README"]


def test_a_dockerfile_named_service_dot_dockerfile_is_read_whatever_its_case():
    for path in ("docker/reader_service.Dockerfile", "build/api.dockerfile", "Dockerfile.prod"):
        assert "dockerfile" in [r.id for r in registry.READERS if r.claims(path)], path


def test_an_openapi_document_named_like_a_spring_bootstrap_file_is_read_as_an_api_not_settings():
    head = "openapi: 3.0.1\ninfo:\n  title: Bootstrap service\n  license:\n    url: https://example.org/LICENSE\n"
    readers = [r.id for r in registry.READERS if r.recognises("api/openapi/bootstrap.yml", head)]
    assert "spring.name" not in readers and "openapi.content" in readers
    assert "spring.name" in [r.id for r in registry.READERS if r.recognises("src/main/resources/bootstrap.yml",
                                                                         "spring:\n  application:\n    name: orders\n")]


def test_a_message_catalogue_whose_keys_read_like_spring_settings_is_no_settings_file():
    """Symfony's translations/messages.da.yml starts with `security:` as a Spring file may, and its values hold
    sample addresses (`http://website.dk`); it is the interface's text, not configuration.  A Spring file of
    the same keys elsewhere (and a profile file named with a short word, config.dev.yml) still is."""
    head = "security:\n  login:\n    page_title: Velkommen\nconfig:\n  form_rss:\n    rss_link: http://website.dk\n"
    for path in ("translations/messages.da.yml", "config/locales/da.yml", "app/Resources/translations/validators.pt_BR.yml"):
        assert "spring.content" not in [r.id for r in registry.READERS if r.recognises(path, head)], path
    for path in ("config/application.yml", "config/config.dev.yml"):
        assert "spring.content" in [r.id for r in registry.READERS if r.recognises(path, head)], path


def test_another_tools_list_of_services_is_no_compose_file():
    """A coding agent's `.amp/services.yaml` (commands, a `port:` and a `portal:` under a top-level `services:`)
    carries none of compose's keys: not a compose file.  A compose file under another name (a Swarm `stack.yml`,
    an override fragment publishing a port, `webserver.port.yml`) still is."""
    agent = "services:\n  dev:\n    command: mise run dev\n    port: 10350\n  api:\n    command: go run ./tools/proxy 7070\n"
    assert "compose" not in [r.id for r in registry.READERS if r.recognises(".amp/services.yaml", agent)]
    stack = "version: '3.8'\nservices:\n  web:\n    image: acme/web:1.0\n    ports: ['80:80']\n"
    assert "compose" in [r.id for r in registry.READERS if r.recognises("deploy/stack.yml", stack)]
    fragment = "services:\n  webserver:\n    ports:\n      - \"${MOODLE_DOCKER_WEB_HOST}:80\"\n"
    assert "compose" in [r.id for r in registry.READERS if r.recognises("webserver.port.yml", fragment)]


def test_pip_tools_inputs_are_requirements() -> None:
    """requirements.in (pip-tools' list of direct dependencies, compiled into requirements.txt) names the packages the
    project chose: read like a requirements file; a look-alike that is no requirements list is not."""
    from repomodeler.extract.readers.registry import reader_for
    from repomodeler.extract.readers.requirements import read_requirements
    assert reader_for("requirements.in", "flask\n").id == "requirements"
    assert reader_for("docs/requirements-docs.in", "sphinx\n").id == "requirements"
    facts = read_requirements("indico", "requirements.in", "celery[redis]\npsycopg2\nredis[hiredis]  # cache\n")
    assert sorted(f.get("name") for f in facts if f.kind == "manifest.dependency") == ["celery", "psycopg2", "redis"]


def test_cmake_root_build_is_a_unit_and_a_subfolder_build_is_not() -> None:
    """The repository's root CMakeLists.txt naming a project and its programs is a build unit (its test and benchmark
    programs left out); one in a folder of a polyglot repository (a native tool beside Python code) is not."""
    from repomodeler.extract.readers.cmake import read_cmake
    text = "project(searchd)\nadd_executable(searchd-server main.cpp)\nadd_executable(searchd-test t.cpp)\n"
    root = [f for f in read_cmake("s", "CMakeLists.txt", text) if f.kind == "manifest"]
    assert [(f.get("name"), f.get("commands")) for f in root] == [("searchd", "searchd-server")]
    assert not [f for f in read_cmake("s", "cpp/CMakeLists.txt", text) if f.kind == "manifest"]
    assert [f.get("name") for f in read_cmake("s", "cpp/CMakeLists.txt", text) if f.kind == "program.binary"] == [
        "searchd-server", "searchd-test"]


def test_a_prisma_schema_names_its_datasource_engine_and_url_variable():
    """The datasource block's provider and the variable its URL comes from, at the provider's line; the
    generator's provider (prisma-client-js) and a commented-out block are not a datasource."""
    text = ('generator client {\n  provider = "prisma-client-js"\n}\n\n// datasource old {\n//   provider = "mysql"\n// }\n'
            'datasource db {\n  provider = "sqlite" // a file\n  url      = env("DATABASE_URL")\n}\n')
    facts, warnings = registry.read_file("repo", "backend/prisma/schema.prisma", text.encode())
    assert not warnings
    assert [(f.kind, f.line, f.get("engine"), f.get("env")) for f in facts] == [
        ("orm.datasource", 9, "sqlite", "DATABASE_URL")]


def test_a_start_script_names_the_web_server_and_store_it_runs_beside_the_application():
    """`nginx -g 'daemon off;' &`, `caddy start ... &` and `redis-server ... &` are programs of the container
    (named nginx, caddy, redis); the application's own `node server.js &`, an `&&` chain and a comment are not."""
    text = ("#!/usr/bin/env bash\n# nginx &\nmkdir -p /data && chown app /data\nnginx -g 'daemon off;' &\n"
            "NGINX_PID=$!\nredis-server /app/redis.conf &\nnode apps/nextjs/server.js &\nwait $NGINX_PID\n")
    facts, warnings = registry.read_file("repo", "scripts/run.sh", text.encode())
    assert not warnings
    assert [(f.line, f.get("owner"), f.get("command"), f.get("source")) for f in facts] == [
        (4, "nginx", "nginx -g 'daemon off;'", "script"), (6, "redis", "redis-server /app/redis.conf", "script")]
    # an entrypoint script's background web server too, beside the defaults it exports
    entry = ('#!/bin/sh\nexport API_URL=${API_URL:-http://localhost:8080}\n'
             'if [ "$CADDY_DISABLED" != "true" ]; then\n  caddy start --adapter caddyfile --config /app/Caddyfile &\nfi\n'
             'PORT=3333 node frontend/server.js &\ncd backend && npm run prod\n')
    facts, _ = registry.read_file("repo", "scripts/docker/entrypoint.sh", entry.encode())
    assert [(f.kind, f.get("owner") or f.get("name")) for f in facts] == [("config.env", "API_URL"), ("program.command", "caddy")]


def test_traefik_dynamic_configuration_routes_to_its_services_servers():
    """Traefik's file provider: each HTTP service's server URLs (with the path of the router naming the
    service) and each TCP service's addresses are where the proxy forwards; its static configuration
    (entry points, providers) and a compose file in a traefik/ folder route nothing."""
    from repomodeler.extract.readers.traefik import read_traefik
    text = ("http:\n"
            "  routers:\n"
            "    backend:\n"
            "      rule: \"PathPrefix(`/api`) && !PathPrefix(`/rtunnel`)\"\n"
            "      service: backend\n"
            "  services:\n"
            "    backend:\n"
            "      loadBalancer:\n"
            "        servers:\n"
            "          - url: \"http://backend:8000\"\n"
            "tcp:\n"
            "  services:\n"
            "    db:\n"
            "      loadBalancer:\n"
            "        servers:\n"
            "          - address: \"postgres:5432\"\n")
    routes = [(f.line, f.get("upstream"), f.get("location")) for f in read_traefik("r", "traefik/dynamic.yml", text)]
    assert routes == [(10, "http://backend:8000", "/api"), (16, "tcp://postgres:5432", None)]
    static = "entryPoints:\n  web:\n    address: \":80\"\nproviders:\n  file:\n    filename: /etc/traefik/dynamic.yml\n"
    assert registry.reader_for("traefik/traefik.yml", static, "proxy") is None
    assert read_traefik("r", "traefik/traefik.yml", static) == []
