"""Deployment constructs that decide what is a component: Kubernetes Services selecting several
workloads, app labels, kustomize overlays, Ingresses, cluster add-ons installed from their vendors'
manifests, recipes and scripts nothing deploys."""

from __future__ import annotations

from tests.rules_harness import edge_set, resolve_files, via


def deployment(name: str, image: str, labels: dict[str, str], account: str = "") -> str:
    lab = "".join(f"\n        {k}: {v}" for k, v in labels.items())
    sa = f"\n      serviceAccountName: {account}" if account else ""
    return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n"
            f"    metadata:\n      labels:{lab}\n    spec:{sa}\n      containers:\n      - name: {name}\n"
            f"        image: {image}\n        ports:\n        - containerPort: 8080\n")


def service(name: str, selector: dict[str, str], kind: str = "ClusterIP") -> str:
    sel = "".join(f"\n    {k}: {v}" for k, v in selector.items())
    return (f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  type: {kind}\n"
            f"  selector:{sel}\n  ports:\n  - port: 80\n    targetPort: 8080\n")


def services(model) -> set[str]:
    return {c.id for c in model.components.values() if c.kind in ("service", "gateway")}


def test_workloads_one_service_selects_are_versions_of_one_component() -> None:
    files = {
        "k8s/payment.yaml": deployment("payment", "acme/payment:1", {"tier": "pay", "track": "stable"})
        + "---\n" + service("payment", {"tier": "pay"}),
        "k8s/payment-canary.yaml": deployment("payment-canary", "acme/payment:2", {"tier": "pay", "track": "canary"}),
        "k8s/cart.yaml": deployment("cart", "acme/cart:1", {"tier": "cart"}) + "---\n" + service("cart", {"tier": "cart"}),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"payment", "cart"}
    payment = model.components["payment"]
    assert ("k8s/payment-canary.yaml", 4) in {(e.path, e.line) for e in payment.evidence}


def test_app_label_naming_another_component_makes_a_version_of_it() -> None:
    files = {
        "docker-compose.yml": "services:\n  payment:\n    image: acme/rs-payment:1\n    ports: ['8080:8080']\n",
        "K8s/Istio/payment-fix.yaml": deployment("payment-fix", "acme/rs-payment-fix:1",
                                                 {"service": "payment", "stage": "test"}),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"payment"}
    assert "payment-fix" in model.components["payment"].aliases


def test_selector_of_templated_labels_selects_nothing() -> None:
    files = {
        "k8s/a.yaml": deployment("a", "acme/a:1", {"app": "'{{ .Values.name }}'"}),
        "k8s/b.yaml": deployment("b", "acme/b:1", {"app": "'{{ .Values.name }}'"}),
        "k8s/svc.yaml": service("a", {"app": "'{{ .Values.name }}'"}),
    }
    assert services(resolve_files({"shop": files})) == {"a", "b"}


def test_what_only_a_kustomize_overlay_adds_is_a_variant() -> None:
    files = {
        "k8s/base/kustomization.yaml": "resources:\n- frontend.yaml\n",
        "k8s/base/frontend.yaml": deployment("frontend", "acme/frontend:1", {"app": "frontend"})
        + "---\n" + service("frontend", {"app": "frontend"}, "LoadBalancer"),
        "k8s/overlays/production/kustomization.yaml": (
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
            "resources:\n- ../../base\n- ingress.yaml\n- debug.yaml\n"),
        "k8s/overlays/production/ingress.yaml": (
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: frontend-ingress\nspec:\n"
            "  rules:\n  - http:\n      paths:\n      - path: /\n        backend:\n          service:\n"
            "            name: frontend\n"),
        "k8s/overlays/production/debug.yaml": deployment("debug-shell", "busybox:1", {"app": "debug"}),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"frontend"}
    assert ("user", "frontend") in edge_set(model)


def test_ingress_routes_people_to_the_services_it_names() -> None:
    files = {
        "k8s/frontend.yaml": deployment("frontend", "acme/frontend:1", {"app": "frontend"})
        + "---\n" + service("frontend", {"app": "frontend"}),
        "k8s/ingress.yaml": (
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop-ingress\nspec:\n"
            "  rules:\n  - http:\n      paths:\n      - path: /\n        backend:\n          service:\n"
            "            name: frontend\n"),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"frontend"}  # an Ingress is a rule the cluster's controller carries out
    assert edge_set(model) == {("user", "frontend")}
    assert via(model, "user", "frontend") == {"ingress shop-ingress"}


CLUSTER_RBAC = (
    "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {sa}\n---\n"
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: {sa}\nrules: []\n---\n"
    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: {sa}\n"
    "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: {sa}\n"
    "subjects:\n- kind: ServiceAccount\n  name: {sa}\n  namespace: ingress\n---\n")


def test_third_party_workload_with_cluster_rights_is_a_cluster_add_on() -> None:
    files = {
        "deploy/nginx-ingress/mandatory.yaml": CLUSTER_RBAC.format(sa="nginx-ingress-sa")
        + deployment("nginx-ingress-controller", "quay.io/kubernetes-ingress-controller/nginx-ingress-controller:0.24",
                     {"app": "ingress-nginx"}, account="nginx-ingress-sa"),
        "deploy/nginx-ingress/svc.yaml": service("ingress-nginx", {"app": "ingress-nginx"}, "LoadBalancer"),
        "k8s/web.yaml": deployment("web", "acme/web:1", {"app": "web"}) + "---\n"
        + service("web", {"app": "web"}, "LoadBalancer"),
    }
    model = resolve_files({"shop": files})
    assert services(model) == {"web"}
    assert edge_set(model) >= {("user", "web")}


def test_application_built_here_keeps_its_cluster_rights() -> None:
    files = {
        "discovery/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "discovery/app.py": "import os\nprint(os.environ.get('X'))\n",
        "k8s/discovery.yaml": CLUSTER_RBAC.format(sa="discovery")
        + deployment("discovery", "ghcr.io/acme/discovery:1", {"app": "discovery"}, account="discovery"),
    }
    assert services(resolve_files({"shop": files})) == {"discovery"}


def test_dockerfile_recipe_no_deployment_builds_is_not_a_component() -> None:
    files = {
        "src/docker-compose.yml": ("services:\n  web:\n    build:\n      context: ./web\n    ports: ['80:80']\n"
                                   "  db:\n    image: postgres:16\n"),
        "src/docker-compose.elk.yml": "services:\n  kibana:\n    build:\n      context: elk/kibana/\n",
        "src/web/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "src/web/app.py": "import os\nDB = os.environ.get('DB_URL', 'postgresql://db:5432/shop')\n",
        "deploy/elk/kibana/Dockerfile": "FROM docker.elastic.co/kibana/kibana:7.9.0\nCOPY kibana.yml /etc/kibana/\n",
        "deploy/elk/kibana/kibana.yml": "server.name: kibana\n",
    }
    model = resolve_files({"shop": files})
    assert {c.id for c in model.components.values() if c.kind != "user"} == {"web", "db"}


def test_dockerfile_only_folder_is_a_component_when_nothing_is_deployed() -> None:
    files = {
        "proxy/Dockerfile": "FROM nginx:1.25\nCOPY nginx.conf /etc/nginx/nginx.conf\nEXPOSE 80\n",
        "proxy/nginx.conf": "events {}\nhttp { server { listen 80; location / { proxy_pass http://api:8080; } } }\n",
        "api/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "api/app.py": "import os\nprint(os.environ.get('X'))\n",
    }
    model = resolve_files({"shop": files})
    assert "proxy" in model.components


def test_service_published_in_one_copy_and_internal_in_another_is_internal() -> None:
    files = {
        "kubernetes-manifests/frontend.yaml": deployment("frontend", "acme/frontend:1", {"app": "frontend"})
        + "---\n" + service("frontend", {"app": "frontend"}, "LoadBalancer"),
        "kubernetes-manifests/contacts.yaml": deployment("contacts", "acme/contacts:1", {"app": "contacts"})
        + "---\n" + service("contacts", {"app": "contacts"}),
        "extras/hpa/contacts.yaml": deployment("contacts", "acme/contacts:1", {"app": "contacts"})
        + "---\n" + service("contacts", {"app": "contacts"}, "NodePort"),
    }
    model = resolve_files({"bank": files})
    entries = {t for s, t in edge_set(model) if s == "user"}
    assert entries == {"frontend"}



def test_node_script_package_nothing_deploys_is_not_a_component() -> None:
    files = {
        "docker-compose.yml": "services:\n  ui:\n    build: ./ui\n    ports: ['80:8080']\n",
        "ui/Dockerfile": "FROM node:20\nCOPY . .\nCMD node server.js\n",
        "ui/package.json": '{"name": "ui", "scripts": {"start": "node server.js"}, "dependencies": {"express": "^4"}}\n',
        "ui/server.js": "const express = require('express');\nconst app = express();\napp.get('/', (q, r) => r.send('ok'));\napp.listen(8080);\n",
        "oss/attribution/package.json": ('{"name": "attribution-js", "main": "dist/main.js", "scripts": {"start": '
                                         '"node dist/main.js"}, "dependencies": {"axios": "^1", "handlebars": "^4"}}\n'),
        "oss/attribution/src/main.ts": "import axios from 'axios';\nexport async function main() { await axios.get('https://example.com'); }\n",
        "worker/package.json": '{"name": "worker", "scripts": {"start": "node index.js"}, "dependencies": {"amqplib": "^0.10"}}\n',
        "worker/index.js": "const amqp = require('amqplib');\namqp.connect('amqp://rabbitmq');\n",
        # a command-line client of the system's gRPC API (a scoped package: @grpc/grpc-js) is no script
        "risk-client/package.json": '{"name": "client", "main": "index.js", "dependencies": {"@grpc/grpc-js": "^1"}}\n',
        "risk-client/index.js": "const grpc = require('@grpc/grpc-js');\n",
    }
    model = resolve_files({"shop": files})
    assert {c.id for c in model.components.values() if c.kind == "service"} == {"ui", "worker", "risk-client"}


def test_compose_service_under_a_profile_is_opt_in() -> None:
    files = {
        "docker-compose.yml": ("services:\n  vote:\n    build: ./vote\n    ports: ['8080:80']\n"
                               "    depends_on: [redis]\n  redis:\n    image: redis:7\n"
                               "  seed:\n    build: ./seed-data\n    profiles: [\"seed\"]\n    depends_on: [vote]\n"
                               "    environment:\n      TARGET: http://vote:80/\n"),
        "vote/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "vote/app.py": "import redis\nr = redis.Redis(host='redis')\n",
        "seed-data/Dockerfile": "FROM python:3.12\nCOPY make.py /make.py\nCMD python /make.py\n",
        "seed-data/make.py": "import os, urllib.request\nurllib.request.urlopen(os.environ['TARGET'])\n",
    }
    model = resolve_files({"voting": files})
    assert {c.id for c in model.components.values() if c.kind != "user"} == {"vote", "redis"}
    assert ("vote", "redis") in edge_set(model)


def test_a_compose_file_whose_every_service_has_a_profile_runs_the_profile_most_share() -> None:
    """``profiles: ["all"]`` on every service but a schema initializer (``["schema"]``): there is no
    default set, `docker compose --profile all up` is how the file runs; the initializer stays opt-in."""
    files = {
        "deploy/docker-compose.yml": (
            "services:\n  db:\n    image: postgres:15\n    profiles: [\"all\", \"schema\"]\n"
            "  zookeeper:\n    image: zookeeper:3.8\n    profiles: [\"all\"]\n"
            "  schema-init:\n    image: acme/tools:1\n    profiles: [\"schema\"]\n"
            "  api:\n    image: acme/api:1\n    profiles: [\"all\"]\n    environment:\n"
            "      DATABASE_URL: jdbc:postgresql://db:5432/acme\n      REGISTRY_ZOOKEEPER_CONNECT_STRING: zookeeper:2181\n"),
    }
    model = resolve_files({"sched": files})
    assert {c.id for c in model.components.values() if c.kind != "user"} == {"api", "db", "zookeeper"}
    assert {("api", "db"), ("api", "zookeeper")} <= edge_set(model)


def test_compose_fills_build_and_image_from_the_env_file_beside_it() -> None:
    files = {
        ".env": ("IMAGE_NAME=ghcr.io/acme/demo\nDEMO_VERSION=1.0\nAD_DOCKERFILE=./src/ad/Dockerfile\n"
                 "ACCOUNTING_DOCKERFILE=./src/accounting/Dockerfile\n"
                 "CART_DOCKERFILE=./src/cart/Dockerfile\nDB_PASSWORD=secret   # set in db/init.sql\n"
                 "POSTGRES_HOST=astronomy-db\n"),
        "compose.yaml": ("services:\n  ad:\n    image: ${IMAGE_NAME}:${DEMO_VERSION}-ad\n    build:\n      context: ./\n"
                         "      dockerfile: ${AD_DOCKERFILE}\n"
                         "  cart:\n    build:\n      context: ./\n      dockerfile: ${CART_DOCKERFILE}\n    environment:\n"
                         "      - DB_URL=postgres://cart:${DB_PASSWORD}@${POSTGRES_HOST}/cart?sslmode=disable\n"
                         "  astronomy-db:\n    image: postgres:16\n"),
        "compose.full.yaml": ("services:\n  accounting:\n    build:\n      context: ./\n"
                              "      dockerfile: ${ACCOUNTING_DOCKERFILE}\n"),
        "src/accounting/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "src/accounting/app.py": "import os\nprint(os.environ.get('X'))\n",
        "package.json": '{"name": "demo-tooling", "private": true, "devDependencies": {"markdownlint-cli": "^0.4"}}\n',
        "src/ad/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "src/ad/app.py": "import os\nprint(os.environ.get('X'))\n",
        "src/cart/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "src/cart/app.py": "import os\nimport psycopg2\nDB = os.environ['DB_URL']\n",
    }
    model = resolve_files({"demo": files})
    assert {c.id for c in model.components.values() if c.kind != "user"} == {"ad", "cart", "astronomy-db"}
    assert ("demo", "src/ad") in model.components["ad"].source_roots
    assert ("demo", "src/cart") in model.components["cart"].source_roots
    assert ("cart", "astronomy-db") in edge_set(model)  # the password's trailing comment is not part of it


def test_compose_variable_named_without_value_comes_from_the_env_file() -> None:
    files = {
        ".env": "VALKEY_PORT=6379\nVALKEY_ADDR=valkey-cart:${VALKEY_PORT}\nAD_ADDR=ad:9555\n",
        "docker-compose.yml": ("services:\n  valkey-cart:\n    image: valkey/valkey:8\n"
                               "  cart:\n    build: ./cart\n    environment:\n      - VALKEY_ADDR\n"
                               "  ad:\n    build: ./ad\n"
                               "  web:\n    build: ./web\n    environment:\n      AD_ADDR:\n    labels:\n      - traefik.enable\n"),
        "cart/Dockerfile": "FROM python:3.12\nCMD python app.py\n",
        "cart/app.py": "import os\nimport redis\nr = redis.Redis.from_url('redis://' + os.environ['VALKEY_ADDR'])\n",
        "ad/Dockerfile": "FROM python:3.12\nCMD python server.py\n",
        "ad/server.py": ("import grpc\nfrom concurrent import futures\nimport demo_pb2_grpc\n"
                         "server = grpc.server(futures.ThreadPoolExecutor())\n"
                         "demo_pb2_grpc.add_AdServiceServicer_to_server(AdService(), server)\n"),
        "web/Dockerfile": "FROM node:20\nCMD node index.js\n",
        "web/package.json": '{"name": "web", "dependencies": {"express": "^4", "@grpc/grpc-js": "^1"}}\n',
        "web/index.js": "const { AD_ADDR = '' } = process.env;\nconst client = new AdServiceClient(AD_ADDR, creds);\n",
    }
    model = resolve_files({"demo": files})
    edges = {(c.source, c.target, c.protocol) for c in model.connections.values()}
    assert ("cart", "valkey-cart", "redis") in edges
    lines = {(e.path, e.line) for c in model.connections.values() if (c.source, c.target) == ("cart", "valkey-cart")
             for e in c.evidence}
    assert ("docker-compose.yml", 7) in lines
    # host:port with no scheme to a service whose only API is gRPC: a gRPC call
    assert ("web", "ad", "grpc") in edges


def test_code_only_a_compose_variant_builds_is_opt_in_unless_deployed_by_default() -> None:
    files = {
        "docker-compose.yml": "services:\n  web:\n    image: acme/shop-web:1\n    ports: ['80:80']\n",
        "docker-compose.dev.yml": ("services:\n  web:\n    build: ./web\n"
                                   "  load-gen:\n    build: ./load-gen\n"),
        "web/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "web/app.py": "import flask\napp = flask.Flask('web')\n@app.route('/')\ndef index():\n    return 'ok'\n",
        "load-gen/Dockerfile": "FROM python:3.12\nCOPY robot.py /robot.py\nCMD locust -f /robot.py\n",
        "load-gen/robot.py": "import locust\nclass U(locust.HttpUser):\n    pass\n",
    }
    model = resolve_files({"shop": files})
    assert {c.id for c in model.components.values() if c.kind == "service"} == {"web"}
    assert ("shop", "web") in model.components["web"].source_roots  # the dev build of the deployed image


def test_a_workshops_labs_are_exercises_not_the_system() -> None:
    # a hackfest's labs each deploy a demo to try a platform feature on (a cafe behind an ingress, a benchmark
    # pod): the learner's, beside the application the workshop builds (app/, charts/)
    files = {
        "app/flights-api/package.json": '{"name": "flights-api", "main": "server.js", "dependencies": {"express": "^4"}}',
        "app/flights-api/server.js": 'const app = require("express")();\napp.get("/flights", (q, r) => r.json([]));\n'
                                     'app.listen(3003);\n',
        "charts/flights-api/templates/deployment.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: flights-api\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: flights-api\n          image: acme/flights-api:1.0\n"),
        "labs/networking/ingress/cafe.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: coffee\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: coffee\n          image: nginxdemos/nginx-hello:plain-text\n"),
    }
    model = resolve_files({"hackfest": files})
    assert {c.id for c in model.components.values() if c.kind == "service"} == {"flights-api"}
    from repomodeler.inventory import classify_role
    assert classify_role("labs/storage/bench/pgbench.yaml") == "example"
    assert classify_role("exercises/01-compose/docker-compose.yml") == "example"
    assert classify_role("Documents/Workshop/Step3/index.js") == "example"
    assert classify_role("Documents/Workshop/Step3/package.json") == "example"


def test_contributed_code_is_not_the_systems_programs() -> None:
    # a top-level contrib/ folder's code and its packages' manifests are add-ons around the product (a CI
    # system's gRPC plug-ins, an editor extension); the deployment files kept there stay the deployment's
    from repomodeler.inventory import classify_role
    assert classify_role("contrib/grpcplugins/action/checkout/main.go") == "example"
    assert classify_role("contrib/vscode-cds/webviews/workflow-preview/package.json") == "example"
    assert classify_role("contrib/secgemini_byot/requirements.txt") == "example"
    assert classify_role("contrib/nginx.conf") == "source"
    assert classify_role("contrib/netbox-rq.service") == "source"
    assert classify_role("contrib/docker/docker-compose.yml") == "source"
    assert classify_role("shop/contrib/sites/models.py") == "source"  # a package named contrib inside the code


def test_manifests_in_documentation_or_archive_folders_are_not_the_system() -> None:
    from repomodeler.inventory import classify_role
    assert classify_role("old-docs/k8s/ts-deployment-part2.yml") == "docs"
    assert classify_role("docs_v1/compose.yml") == "docs"
    # ... but a Maven or Gradle module a product named `docs` calls docs-core is its code (Teedy's modules)
    assert classify_role("docs-core/pom.xml") == "source"
    assert classify_role("docs-core/src/main/java/com/acme/util/EmailUtil.java") == "source"
    assert classify_role("web/src/main/java/com/sismics/docs/rest/AppResource.java") == "source"  # a package
    assert classify_role("docs-web/src/main/webapp/index.html") == "source"
    assert classify_role("docs-core/README.md") == "docs"
    assert classify_role("docs/pom.xml") == "docs"  # (a folder that is documentation by its whole name stays so)
    assert classify_role("archive/k8s/login.yaml") == "retired"
    assert classify_role("src/bak/gateway/Program.cs") == "retired"  # a backup copy of an older generation
    assert classify_role("unmaintained/fix_dat/fix_dat.go") == "retired"  # tools the project keeps, runs no more
    # a Go project's build script (Mage) is how the code is built, not code the system runs
    assert classify_role("magefile.go") == "development"
    assert classify_role("magefiles/release.go") == "development"
    assert classify_role("releng/lib/check_artifacts.py") == "development"  # release engineering's scripts
    assert classify_role("web/src/__e2e__/api.servertest.ts") == "test"  # Jest's end-to-end suites, like __tests__
    assert classify_role(".examples/docker-compose-mattermost/compose.yaml") == "example"  # a hidden examples folder
    assert classify_role("_examples/chat/main.go") == "example"
    assert classify_role("src/main/java/com/acme/archive/Store.java") == "source"  # a package named archive
    # a .NET test project (dotted suffix) holds tests, whatever its first words; a project named so otherwise is code
    assert classify_role("src/NzbDrone.Core.Test/Download/DownloadServiceFixture.cs") == "test"
    assert classify_role("src/Services/Ordering/Ordering.UnitTests/OrderTests.cs") == "test"
    assert classify_role("tests/Catalog.FunctionalTests/CatalogScenarios.cs") == "test"
    assert classify_role("src/Ombi.Test.Common/DbHelper.cs") == "test"  # the tests' shared helpers
    assert classify_role("src/Acme.Testing.Tools/Helpers.cs") == "source"
    assert classify_role("src/Acme.Contests/Contest.cs") == "source"
    # an integration's sandbox stack, the third-party system it talks to, is no deployment of the program
    assert classify_role("keep/providers/kafka_provider/docker-compose.yml") == "example"
    assert classify_role("warehouse/integrations/mssql/compose.yaml") == "example"
    assert classify_role("keep/providers/kafka_provider/kafka_provider.py") == "source"  # (the integration's code)
    assert classify_role("plugins/docker-compose.yml") == "source"  # (a compose file of a folder named so, itself)
    assert classify_role(".devcontainer/Dockerfile") == "ci"  # a contributor's development container
    assert classify_role(".husky/install.mjs") == "ci"  # git hooks
    assert classify_role(".dredd/hooks/main.go") == "ci"  # an API test runner's hooks program
    assert classify_role(".build-tools/main.go") == "ci"  # the build's own helper programs in a hidden folder
    # a demo stack kept among a module's resources (a Grafana dashboard demo) is an example, not the system
    assert classify_role("metrics/src/main/resources/grafana-demo/docker-compose.yaml") == "example"
    assert classify_role("microservice-demo/orders/src/main/java/com/acme/Order.java") == "source"  # a project named demo
    # a folder named for a benchmark or load test among other words (a load generator's package)
    assert classify_role("benchmark-tool/artillery-test/package.json") == "example"
    assert classify_role("packages/shop-benchmark/docker-compose.loadtest.yml") == "example"
    assert classify_role("src/main/java/com/acme/benchmark/Timer.java") == "source"  # a package named benchmark
    # a stack in a package named for a connector starts the system the connector reaches (Flink, Pinot)
    assert classify_role("foreign/java/external-processors/iggy-connector-flink/docker-compose.yml") == "example"
    assert classify_role("connectors/pinot/docker-compose.yml") == "example"
    assert classify_role("deploy/docker-compose.yml") == "source"
    # Capistrano's deployment files: the tool shipping releases, not the program (a Kamal or Kubernetes template
    # kept in config/deploy/ is a deployment descriptor, read as source)
    assert classify_role("config/deploy.rb") == "ci"
    assert classify_role("config/deploy/production.rb") == "ci"
    assert classify_role("Capfile") == "ci"
    assert classify_role("config/deploy/web.yaml.erb") == "source"
    assert classify_role("config/initializers/devise.rb") == "source"
    # an LLM application's evaluation suite scoring its answers, run against it
    assert classify_role("shop_evals/pyproject.toml") == "example"
    assert classify_role("eval/smoke_e2e.py") == "example"
    assert classify_role("services/evaluation-service/main.py") == "source"  # a product's own evaluation service
    # a package of test fixtures (the database containers the tests start)
    assert classify_role("pkg/testfixtures/storage/mysql.go") == "fixture"
    # a package's test input files, by the folder's name (a compose plugin's status_test_files/)
    assert classify_role("pkg/libstack/compose/internal/composeplugin/status_test_files/failed.yml") == "fixture"
    assert classify_role("parser/test_files/docker-compose.yml") == "fixture"
    # the stacks an acceptance suite or a test infrastructure folder starts are harnesses
    assert classify_role("internal/acceptance/docker-compose.yml") == "test"
    assert classify_role("test-infrastructure/docker-compose.yml") == "test"
    assert classify_role("pkg/files/upload.go") == "source"  # (a package named files)
    assert classify_role("drivers/docker/test-resources/docker/Dockerfile") == "fixture"
    # a settings module for the test run names the tests' fake hosts, not the deployment's
    assert classify_role("kobo/settings/testing.py") == "test"
    assert classify_role("shop/test_settings.py") == "test"
    assert classify_role("kobo/settings/prod.py") == "source"
    assert classify_role("shop/testing.py") == "source"  # (a module named testing outside the settings)
    assert classify_role(".dev/docker-compose.yaml") == "development"  # a developer's stack in a hidden .dev/ folder
    assert classify_role("docker/devbox-bundled/manifests/complete.yaml") == "development"  # a developer's sandbox
    assert classify_role("local-dev/Dockerfile") == "development"  # the recipe of a developer's local build
    assert classify_role("enos/modules/run_workloads/jobs/docker-batch.nomad.hcl") == "test"  # Enos scenarios
    # a project template a generator copies for its users (an agent skill's scaffold) is an example, not a program
    assert classify_role("packages/agents/skills/quickstart/scaffold/package.json") == "example"
    assert classify_role("src/scaffold.go") == "source"  # (a file named so is code)
    # the stack a plugin's smoke test starts (a broker and a test ACME server), not the deployment
    assert classify_role("plugins/emqx_acme/smoke/cluster/docker-compose.yml") == "test"
    # a Bitcoin regression-test network started for the test suite (bitcoind and Lightning nodes on regtest)
    assert classify_role("docker/regtest/docker-compose.yml") == "test"
    # behaviour-driven tests (one runner per client SDK) and a suite's runner folder with the clients it drives
    assert classify_role("bdd/docker-compose.yml") == "test"
    assert classify_role("bdd/cpp/Gemfile") == "test"
    assert classify_role("test_runner/pg_clients/python/asyncpg/requirements.txt") == "test"
    assert classify_role("test-runner/Dockerfile") == "test"
    assert classify_role("runner/main.go") == "source"  # (a program named runner is code)
    # other projects' code kept under a 3rdparty/ folder (SRS's trunk/3rdparty/) is vendored, as third_party/ is
    from repomodeler.inventory import InventoryOptions, _skip_reason
    assert _skip_reason("trunk/3rdparty/httpx-static/main.go", 100, InventoryOptions()) == "vendored"
    assert _skip_reason("src/thirdparty/json/json.go", 100, InventoryOptions()) == "vendored"
    assert _skip_reason("src/party/main.go", 100, InventoryOptions()) is None
    # a contributor's local development environment (DDEV's compose fragments) is tooling
    assert classify_role(".ddev/docker-compose.redis.yaml") == "ci"
    # a Go command's test inputs in an underscore folder the Go tools skip (kubectl plugin's _testdata manifests)
    assert classify_role("cmd/cli/kubectl-acme/_testdata/apply/test-1/resources.yaml") == "fixture"
    # the inputs kept for reproducing reported issues (a monitor's tests-data/issues/issue3434/docker-compose.yml)
    assert classify_role("tests-data/issues/issue3434/docker-compose.yml") == "fixture"
    # the add-ons a Kubernetes project's developer scripts deploy into a dev cluster
    assert classify_role("operator/hack/addons_hydra.yaml") == "development"
    assert classify_role("hack/faasd-provider.service") == "source"  # a systemd unit the install script copies
    assert classify_role("hack/docgen/cli/gen.go") == "development"  # a generator the developer scripts run
    assert classify_role("docker/github_actions/docker-compose.yml") == "ci"  # the stack a CI workflow tests against
    # a project initializer (`npm init shop-app`) scaffolds a developer's project; an ordinary module stays
    assert classify_role("packages/create-shop-app/index.js") == "development"
    assert classify_role("functions/create-order/handler.js") == "source"
    # a cloud development environment's workspace image (FROM gitpod/workspace-mongodb) is no recipe of the system
    assert classify_role(".gitpod.Dockerfile") == "development"
    assert classify_role("Dockerfile.gitpod") == "development"
    # a repository's top-level integration test suite; a package named integration deeper is product code
    assert classify_role("integration/wasmic/wasmclient/main.go") == "test"
    assert classify_role("src/main/java/com/acme/integration/Flows.java") == "source"
    # a root ci/ folder: the pipeline's checks and the fixture programs its jobs deploy, not only its stack files
    assert classify_role("ci/nodeEngineCheck.js") == "ci"
    # the image's files kept under .github/docker/ (the supervisord.conf the root Dockerfile copies in) are no pipeline's
    assert classify_role(".github/docker/supervisord.conf") == "source"
    # (a workflow is listed as source for the one reader that reads which image it publishes from which recipe)
    assert classify_role(".github/workflows/build.yaml") == "source"
    assert classify_role(".github/actions/setup/action.yml") == "ci"
    assert classify_role("ci/pod/openfunction/function-example/test-body/go.mod") == "ci"
    assert classify_role("ci/base.yaml") == "ci"
    assert classify_role("tools/ci/lint.go") == "source"  # (a deeper folder named ci is left to its other rules)
    # Perl's and Test::Nginx's root folder of tests and the helper servers they start; a package named t deeper stays
    assert classify_role("t/plugin/limit-count.t") == "test"
    assert classify_role("t/grpc_server_example/main.go") == "test"
    assert classify_role("pkg/t/types.go") == "source"
    # a developer's scripts folder (release notes, lint, schema dumps) by its usual names
    assert classify_role("scripts-dev/check_schema_delta.py") == "development"
    assert classify_role("dev-scripts/release.js") == "development"
    assert classify_role("scripts/start.py") == "source"
    files = {
        "deployment/k8s/orders.yaml": deployment("orders", "acme/orders:1", {"app": "orders"}),
        "old-docs/k8s/login.yaml": deployment("ts-login-service", "acme/login:0.1", {"app": "login"}),
        "deprecated/k8s/sso.yaml": deployment("ts-sso-service", "acme/sso:0.1", {"app": "sso"}),
    }
    assert services(resolve_files({"tt": files})) == {"orders"}


def test_module_whose_programs_are_all_processes_is_their_shared_code() -> None:
    main = ('package main\n\nimport "example.com/shop/pkg/bus"\n\nfunc main() {\n\tbus.Connect()\n}\n')
    files = {
        "go.mod": "module example.com/shop\n\ngo 1.22\n",
        "cmd/orders/main.go": main, "cmd/kitchen/main.go": main,
        "pkg/bus/bus.go": ('package bus\n\nimport "os"\n\nfunc Connect() string { return os.Getenv("AMQP_URL") }\n'),
        "docker/Dockerfile-orders": "FROM golang:1.22\nCMD [\"/orders\"]\n",
        "docker-compose.yml": ("services:\n  rabbitmq:\n    image: rabbitmq:3\n"
                               "  orders:\n    build:\n      context: .\n      dockerfile: ./docker/Dockerfile-orders\n"
                               "    environment:\n      AMQP_URL: amqp://rabbitmq:5672\n    ports: ['5000:5000']\n"
                               "  kitchen:\n    build:\n      context: .\n      dockerfile: ./docker/Dockerfile-kitchen\n"),
        "docker/Dockerfile-kitchen": "FROM golang:1.22\nCMD [\"/kitchen\"]\n",
    }
    model = resolve_files({"shop": files})
    kinds = {c.id: c.kind for c in model.components.values()}
    assert kinds["orders"] == kinds["kitchen"] == "service"
    assert kinds.get("shop") == "library"  # the module: code the two programs share
    assert not any(s == "user" and t == "shop" for s, t in edge_set(model))


def test_swarm_stack_file_beside_a_compose_file_is_another_way_to_deploy() -> None:
    files = {
        "docker-compose.yml": "services:\n  web:\n    image: acme/web:1\n    ports: ['80:80']\n",
        "docker-stack.yml": ("services:\n  web:\n    image: acme/web:1\n"
                             "  visualizer:\n    image: dockersamples/visualizer:stable\n    ports: ['8001:8080']\n"),
    }
    assert services(resolve_files({"shop": files})) == {"web"}
    alone = {"docker-stack.yml": files["docker-stack.yml"]}  # the only deployment there is: it is the system
    assert services(resolve_files({"shop": alone})) == {"web", "visualizer"}


def test_virtual_host_of_the_reverse_proxy_is_the_proxy_not_an_external_system() -> None:
    files = {
        "docker-compose.yml": ("services:\n  nginx:\n    image: nginx:1.25\n    volumes:\n"
                               "      - ./nginx/templates:/etc/nginx/templates\n    ports: ['80:80']\n"
                               "  product:\n    image: acme/product:1\n  search:\n    image: acme/search:1\n"
                               "  cart:\n    build: ./cart\n  kafka:\n    image: confluentinc/cp-kafka:7\n"
                               "  kafka-ui:\n    image: provectuslabs/kafka-ui:latest\n    environment:\n"
                               "      KAFKA_CLUSTERS_0_BOOTSTRAPSERVERS: kafka:9092\n"),
        "nginx/templates/default.conf.template": (
            "server {\n  server_name api.shop.local;\n  location /product/ {\n    proxy_pass http://product;\n  }\n"
            "  location /search/ {\n    set $search_host \"search\";\n    proxy_pass http://$search_host;\n  }\n}\n"
            "server {\n  server_name kafka;\n  location / {\n    proxy_pass http://kafka-ui:8080;\n  }\n}\n"),
        "cart/Dockerfile": "FROM python:3.12\nCMD python app.py\n",
        "cart/app.py": "import requests\nrequests.get('http://api.shop.local/product/items')\n",
    }
    model = resolve_files({"shop": files})
    kinds = {c.id: c.kind for c in model.components.values()}
    assert "api.shop.local" not in kinds  # not an external system
    assert kinds["kafka-ui"] == "service" and kinds["kafka"] == "broker"  # a tool for Kafka is not a broker
    e = edge_set(model)
    assert {("cart", "nginx"), ("nginx", "product"), ("nginx", "search"), ("nginx", "kafka-ui")} <= e
    assert ("kafka-ui", "kafka") in e and "kafka" not in model.components["nginx"].aliases  # single-label: a container name


def test_env_from_one_configmap_key_and_a_vendor_build_of_a_database() -> None:
    files = {
        "k8s/sql-config.yaml": ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sql-config\ndata:\n"
                                "  connection_string: jdbc:mysql://mysql/eventuate\n  sql_user: mysqluser\n"),
        "k8s/mysql.yaml": deployment("mysql", "eventuateio/eventuate-mysql8:0.1", {"app": "mysql"})
        + "---\n" + service("mysql", {"app": "mysql"}),
        "k8s/orders.yaml": deployment("orders", "acme/orders:1", {"app": "orders"}).replace(
            "        ports:\n", "        env:\n        - name: SPRING_DATASOURCE_URL\n          valueFrom:\n"
                               "            configMapKeyRef:\n              name: sql-config\n"
                               "              key: connection_string\n        ports:\n"),
    }
    model = resolve_files({"shop": files})
    assert model.components["mysql"].kind == "database"  # eventuate-mysql8: a vendor's MySQL
    conn = model.connections[("orders", "mysql", "sql")]
    assert {(e.path, e.line) for e in conn.evidence} >= {("k8s/orders.yaml", 15), ("k8s/sql-config.yaml", 6)}


def test_coordination_store_published_for_debugging_is_not_a_front_door() -> None:
    files = {
        "k8s/zookeeper.yaml": deployment("zookeeper", "eventuateio/eventuate-zookeeper:0.1", {"app": "zookeeper"})
        + "---\n" + service("zookeeper", {"app": "zookeeper"}, "LoadBalancer"),
        "k8s/web.yaml": deployment("web", "acme/web:1", {"app": "web"}) + "---\n"
        + service("web", {"app": "web"}, "LoadBalancer"),
    }
    model = resolve_files({"shop": files})
    assert model.components["zookeeper"].attributes["platform_role"] == "coordination"
    assert {t for s, t in edge_set(model) if s == "user"} == {"web"}


def test_development_mount_at_the_working_dir_is_the_services_code_and_a_shared_env_file_calls_nobody() -> None:
    files = {
        ".env": "TRAINER_GRPC_ADDR=trainer-grpc:3010\nMYSQL_ROOT_PASSWORD=x\nMYSQL_ADDR=mysql\n",
        "docker-compose.yml": (
            "services:\n  trainer-grpc:\n    build:\n      context: docker/app\n    volumes:\n      - ./internal:/internal\n"
            "    working_dir: /internal/trainer\n    env_file:\n      - .env\n"
            "  users-http:\n    build:\n      context: docker/app\n    volumes:\n      - ./internal:/internal\n"
            "    working_dir: /internal/users\n    env_file:\n      - .env\n"
            "  mysql:\n    image: mariadb:10\n    env_file:\n      - .env\n"
            "  emulator:\n    build:\n      context: docker/emulator\n    env_file:\n      - .env\n"),
        "docker/app/Dockerfile": "FROM golang:1.22\nCMD go run .\n",
        "docker/emulator/Dockerfile": "FROM google/cloud-sdk\nCMD gcloud beta emulators firestore start\n",
        "internal/trainer/go.mod": "module example.com/trainer\n\ngo 1.22\n",
        "internal/trainer/main.go": ('package main\n\nimport (\n\t"os"\n\n\t_ "github.com/go-sql-driver/mysql"\n)\n\n'
                                     'func main() {\n\t_ = os.Getenv("MYSQL_ADDR")\n}\n'),
        "internal/users/go.mod": "module example.com/users\n\ngo 1.22\n",
        "internal/users/main.go": ('package main\n\nimport "os"\n\nfunc main() {\n\t_ = os.Getenv("TRAINER_GRPC_ADDR")\n}\n'),
    }
    model = resolve_files({"ww": files})
    assert ("ww", "internal/trainer") in model.components["trainer-grpc"].source_roots
    assert ("ww", "internal/users") in model.components["users-http"].source_roots
    assert "trainer" not in model.components and "users" not in model.components  # not again as modules
    e = edge_set(model)
    assert ("users-http", "trainer-grpc") in e and ("trainer-grpc", "mysql") in e
    assert not any(s in ("mysql", "emulator") for s, _t in e)  # the shared .env makes no calls from them


def test_apache_balancer_members_and_haproxy_backends_are_proxy_routes() -> None:
    """Apache httpd's ``BalancerMember http://stock:8080`` (behind ``ProxyPass /stock balancer://c/``) and
    HAProxy's ``server s1 orders:8080`` in a backend are the upstreams the proxy forwards to."""
    files = {
        "proxy/httpd.conf": ("<VirtualHost *:80>\n  ProxyPass /orders http://orders:8080/\n"
                             "  <Proxy balancer://stockcluster>\n    BalancerMember http://stock:8080\n"
                             "    BalancerMember http://stock-2:8080 loadfactor=1\n  </Proxy>\n"
                             "  ProxyPass /stock balancer://stockcluster/\n</VirtualHost>\n"),
        "proxy/Dockerfile": "FROM httpd:2.4\nCOPY httpd.conf /usr/local/apache2/conf/httpd.conf\n",
        "lb/haproxy.cfg": ("global\n  maxconn 256\nfrontend web\n  bind *:8000\n  default_backend shop\n"
                           "backend shop\n  balance roundrobin\n  server s1 orders:8080 check\n  server s2 stock:8080 check\n"),
        "docker-compose.yml": (
            "services:\n  proxy:\n    build: ./proxy\n    ports: ['80:80']\n"
            "  lb:\n    image: haproxy:2.8\n    volumes:\n      - ./lb/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro\n"
            "    ports: ['8000:8000']\n"
            "  orders:\n    image: acme/orders\n  stock:\n    image: acme/stock\n  stock-2:\n    image: acme/stock\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("proxy", "orders"), ("proxy", "stock"), ("lb", "orders"), ("lb", "stock")} <= e
    assert not any("balancer://" in u.value for u in model.unresolved)
    lines = {ev.line for c in model.connections.values() if (c.source, c.target) == ("lb", "stock") for ev in c.evidence}
    assert 9 in lines


def test_variant_that_runs_the_applications_completes_an_infrastructure_only_default_compose() -> None:
    """``docker-compose.yml`` starting only databases (for ``mvn spring-boot:run``) and
    ``docker-compose.local.yml`` running the applications built here: the variant completes the default
    one (``-f docker-compose.yml -f docker-compose.local.yml``), so its services and settings count;
    a variant running only third-party tools stays opt-in."""
    files = {
        "docker-compose.yml": "services:\n  userdb:\n    image: mysql:8\n  redis:\n    image: redis:7\n",
        "docker-compose.local.yml": (
            "services:\n  proxy:\n    image: acme/nginx-proxy\n    ports: ['80:80']\n"
            "  users:\n    image: acme/users\n    environment:\n"
            "      SPRING_DATASOURCE_URL: jdbc:mysql://userdb:3306/users\n      SPRING_REDIS_HOST: redis\n"),
        "docker-compose.pact.yml": "services:\n  broker:\n    image: pactfoundation/pact-broker\n",
        "users/pom.xml": "<project><artifactId>users</artifactId></project>\n",
        "users/src/main/java/com/acme/users/UsersApplication.java": (
            "package com.acme.users;\n@SpringBootApplication\npublic class UsersApplication {}\n"),
    }
    model = resolve_files({"r": files})
    assert {"users", "proxy", "userdb", "redis"} <= set(model.components) and "broker" not in model.components
    assert {("users", "userdb"), ("users", "redis")} <= edge_set(model)
    assert ("r", "users") in model.components["users"].source_roots


def test_kubernetes_cluster_dns_names_the_service_by_its_first_label() -> None:
    """``http://tempo.observability.svc.cluster.local:4317`` is the Service ``tempo`` of another
    namespace, not a host on the internet; one the system does not have is unresolved.  Grafana's
    other images (``grafana/tempo``, ``grafana/loki``) are not the Grafana dashboard."""
    files = {
        "k8s/orders.yml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: orders\n          image: acme/orders:1\n          env:\n"
            "            - name: OTEL_EXPORTER_OTLP_ENDPOINT\n              value: http://tempo.observability.svc.cluster.local:4317\n"
            "            - name: AUDIT_URL\n              value: http://audit.shared.svc.cluster.local/api\n"),
        "docker-compose.yml": ("services:\n  tempo:\n    image: grafana/tempo:2.5.0\n  loki:\n    image: grafana/loki:2.9.8\n"
                               "  grafana:\n    image: grafana/grafana-oss:10.4.3\n"),
    }
    model = resolve_files({"r": files})
    assert ("orders", "tempo") in edge_set(model)
    assert not any(c.kind == "external" for c in model.components.values())
    assert any("audit.shared.svc.cluster.local" in u.value for u in model.unresolved)
    roles = {cid: c.attributes.get("platform_role", "") for cid, c in model.components.items()}
    assert roles["grafana"] == "dashboard" and roles["tempo"] != "dashboard" and roles["loki"] != "dashboard"


def test_compose_file_inside_a_built_folder_is_another_way_to_run_that_component() -> None:
    """The root compose file builds `core`; `core/nginx-lb/docker-compose.yml` runs the same code
    again (`build: ..`) scaled behind an nginx proxy.  That is a variant: no `app` component claiming
    core's code, no proxy, and the proxy's nginx.conf does not make `core` a gateway."""
    files = {
        "docker-compose.yml": ("services:\n  core:\n    build: core\n    ports:\n      - \"8110:8110\"\n"
                               "  backend:\n    build: backend\n    environment:\n      - ACTIVEMQ_HOST=core\n"
                               "  web:\n    build: backend\n    environment:\n      - CORE_LOCATION=core:8110\n"),
        "core/pom.xml": "<project><artifactId>core</artifactId></project>\n",
        "core/Dockerfile": "FROM eclipse-temurin:17\nCOPY target/core.jar /app.jar\n",
        "core/src/main/java/com/acme/core/CoreApplication.java": (
            "package com.acme.core;\n@SpringBootApplication\npublic class CoreApplication {\n"
            "  public static void main(String[] a) {}\n}\n"),
        "core/src/main/java/com/acme/core/Api.java": (
            "package com.acme.core;\n@RestController\npublic class Api {\n"
            "  @GetMapping(\"/customers\") public String all() { return \"\"; }\n}\n"),
        "core/nginx-lb/docker-compose.yml": ("services:\n  app:\n    build:\n      context: ..\n"
                                            "  proxy:\n    build: ./nginx\n    ports:\n      - \"80:80\"\n"
                                            "    links:\n      - app\n"),
        "core/nginx-lb/nginx/Dockerfile": "FROM nginx\nCOPY nginx.conf /etc/nginx/nginx.conf\n",
        "core/nginx-lb/nginx/nginx.conf": ("events {}\nhttp {\n  upstream app { server nginx-lb_app_1:8110; }\n"
                                          "  server { listen 80; location / { proxy_pass http://app; } }\n}\n"),
        "backend/pom.xml": "<project><artifactId>backend</artifactId></project>\n",
        "backend/Dockerfile": "FROM eclipse-temurin:17\nCOPY target/backend.jar /app.jar\n",
        "backend/src/main/java/com/acme/backend/BackendApplication.java": (
            "package com.acme.backend;\n@SpringBootApplication\npublic class BackendApplication {\n"
            "  public static void main(String[] a) {}\n}\n"),
    }
    model = resolve_files({"insurance": files})
    comps = {c.id: c for c in model.components.values()}
    assert "app" not in comps and "proxy" not in comps
    assert comps["core"].kind == "service"
    protocols = {c.source: c.protocol for c in model.connections.values() if c.target == "core"}
    # a bare host:port of a service that serves only HTTP is an HTTP call, unless the setting names
    # another technology (ACTIVEMQ_HOST: a broker the service embeds)
    assert (protocols["web"], protocols["backend"]) == ("http", "tcp")


def _war_pom(artifact: str, *bundled: str) -> str:
    deps = "".join(f"<dependency><groupId>tools.acme</groupId><artifactId>{b}</artifactId><type>war</type></dependency>"
                   for b in bundled)
    packaging = "pom" if bundled else "war"
    return (f"<project><modelVersion>4.0.0</modelVersion>\n<artifactId>{artifact}</artifactId>\n"
            f"<packaging>{packaging}</packaging>\n<dependencies>{deps}</dependencies></project>\n")


def test_web_archives_deployed_only_by_the_examples_compose_file() -> None:
    """Java EE web applications (<packaging>war</packaging>, no main class) in reverse-domain folders,
    an all-in-one image bundling the WARs, a database image of the system's own, a Cypress suite,
    and compose files only under examples/: the default-named one is the deployment, its siblings
    variants.  The model has one component per web application, named by its module."""
    servlet = ("package tools.acme.{m};\nimport jakarta.ws.rs.*;\n@Path(\"{m}\")\npublic class Rest {{\n"
               "  @GET @Path(\"ready\") public String ready() {{ return \"\"; }}\n}}\n")
    files = {
        "pom.xml": "<project><artifactId>shop</artifactId><packaging>pom</packaging></project>\n",
        **{f"services/tools.acme.{m}/pom.xml": _war_pom(m) for m in ("webui", "auth")},
        **{f"services/tools.acme.{m}/Dockerfile": "FROM tomcat:10\nCOPY target/*.war /usr/local/tomcat/webapps/\n"
           for m in ("webui", "auth")},
        **{f"services/tools.acme.{m}/src/main/java/tools/acme/{m}/Rest.java": servlet.format(m=m)
           for m in ("webui", "auth")},
        "utilities/tools.acme.all/pom.xml": _war_pom("all", "webui", "auth"),
        "utilities/tools.acme.all/Dockerfile": "FROM tomcat:10\nCOPY target/*.war /usr/local/tomcat/webapps/\n",
        "utilities/tools.acme.database/Dockerfile": "FROM mariadb:10.4\nCOPY setup.sql /docker-entrypoint-initdb.d/\n",
        # the base image the services build FROM: a pom that packages nothing, and a Dockerfile
        "utilities/tools.acme.dockerbase/pom.xml": _war_pom("dockerbase").replace("war</packaging>", "pom</packaging>"),
        "utilities/tools.acme.dockerbase/Dockerfile": "FROM tomcat:10\nCOPY server.xml /usr/local/tomcat/conf/\n",
        "e2e-tests/package.json": '{"name": "e2e", "scripts": {"start": "cypress run"}}\n',
        "e2e-tests/cypress/integration/shop.js": "describe('shop', () => { it('loads', () => cy.visit('/')); });\n",
        "examples/docker/docker-compose_default.yaml": (
            "services:\n  auth:\n    image: acme/shop-auth\n    environment:\n      DB_HOST: db\n"
            "  webui:\n    image: acme/shop-webui\n    environment:\n      AUTH_URL: http://auth:8080\n"
            "    ports:\n      - \"8080:8080\"\n  db:\n    image: acme/shop-db\n"),
        "examples/docker/docker-compose_monitoring.yaml": (
            "services:\n  auth:\n    image: acme/shop-auth\n  rabbitmq:\n    image: rabbitmq:3\n"),
    }
    model = resolve_files({"shop": files})
    comps = {c.id: c for c in model.components.values()}
    assert {"webui", "auth", "db"} <= set(comps)
    assert comps["webui"].kind == comps["auth"].kind == "service"
    assert ("shop", "services/tools.acme.webui") in comps["webui"].source_roots
    assert "rabbitmq" not in comps  # only the monitoring variant runs it
    assert not any("e2e" in c for c in comps) and "all" not in comps and "tools.acme.all" not in comps
    assert "dockerbase" not in comps
    assert {("webui", "auth"), ("auth", "db"), ("user", "webui")} <= edge_set(model)
    line = {(e.path, e.line) for c in model.connections.values() if (c.source, c.target) == ("webui", "auth")
            for e in c.evidence}
    assert ("examples/docker/docker-compose_default.yaml", 9) in line


def test_example_stacks_of_a_library_stay_examples() -> None:
    """Without a Dockerfile of its own a repository has no images to deploy: its examples/ compose
    file runs a demo of the library, not the system."""
    files = {
        "pyproject.toml": '[project]\nname = "fastcache"\n',
        "fastcache/__init__.py": "def get(key):\n    return None\n",
        "examples/docker-compose.yml": "services:\n  redis:\n    image: redis:7\n  demo:\n    build: .\n",
        "examples/app.py": "import fastcache\nprint(fastcache.get('x'))\n",
    }
    model = resolve_files({"fastcache": files})
    assert "redis" not in {c.id for c in model.components.values()}


def test_a_database_image_the_system_builds_itself_is_a_store() -> None:
    files = {
        "api/Dockerfile": "FROM python:3.12\nCMD python app.py\n",
        "api/app.py": "print('hi')\n",
        "database/Dockerfile": "FROM mariadb:10.4\nCOPY setup.sql /docker-entrypoint-initdb.d/\n",
        "database/setup.sql": "CREATE TABLE t (id INT);\n",
    }
    model = resolve_files({"shop": files})
    comps = {c.id: c for c in model.components.values()}
    assert comps["database"].kind == "database" and comps["database"].attributes["technology"] == "mysql"


def test_a_service_named_for_the_java_build_it_runs_is_the_module() -> None:
    """deploy/docker-compose/java25.yml runs rest-heroes-java25 from the rest-heroes image: the
    component is rest-heroes (the module), answering to the service's name as its host."""
    files = {
        "deploy/docker-compose/java25.yml": (
            "services:\n  rest-heroes-java25:\n    image: quay.io/acme/rest-heroes:java25-latest\n"
            "  rest-fights-java25:\n    image: quay.io/acme/rest-fights:java25-latest\n    environment:\n"
            "      HEROES_URL: http://rest-heroes-java25:8083\n"),
        "rest-heroes/pom.xml": "<project><artifactId>rest-heroes</artifactId></project>\n",
        "rest-heroes/src/main/java/io/acme/heroes/HeroResource.java": (
            "package io.acme.heroes;\n@Path(\"/api/heroes\")\npublic class HeroResource {\n"
            "  @GET public String all() { return \"\"; }\n}\n"),
        "rest-fights/pom.xml": "<project><artifactId>rest-fights</artifactId></project>\n",
        "rest-fights/src/main/java/io/acme/fights/FightResource.java": (
            "package io.acme.fights;\n@Path(\"/api/fights\")\npublic class FightResource {\n"
            "  @GET public String all() { return \"\"; }\n}\n"),
    }
    model = resolve_files({"heroes": files})
    assert {"rest-heroes", "rest-fights"} <= {c.id for c in model.components.values()}
    assert "rest-heroes-java25" in model.components["rest-heroes"].aliases
    assert ("rest-fights", "rest-heroes") in edge_set(model)


def test_development_settings_templates_and_local_environments_are_not_architecture() -> None:
    from repomodeler.inventory import classify_role, promote_templates
    from repomodeler.records import SourceFile

    assert classify_role(".env.example") == classify_role("api/.env.development") == "development"
    assert classify_role("config.yml.sample") == classify_role(".env.test") == "development"
    assert classify_role(".env") == classify_role(".env.production") == "source"
    # a Helm values file per environment: the test clusters' hosts are not the deployment's, production's are
    assert classify_role("helm_deploy/values-dev.yaml") == classify_role("deploy/values.staging.yml") \
        == classify_role("charts/api/preprod-values.yaml") == "development"
    assert classify_role("helm_deploy/values-prod.yaml") == classify_role("charts/api/values.yaml") == "source"

    def roles(paths: list[str]) -> dict[str, str]:
        files = [SourceFile(path=p, blob="0", size=1, language=None, role=classify_role(p)) for p in paths]
        return {f.path: f.role for f in promote_templates(files)}

    # beside the real file, a template is development-only; without it, it is what the deployment gets
    assert roles([".env", ".env.example"])[".env.example"] == "development"
    assert roles([".env.example", ".env.test.example"]) == {".env.example": "source", ".env.test.example": "development"}


def test_a_folder_named_for_testing_its_sibling_holds_tests() -> None:
    """zititest/ beside ziti/ is a module of test programs (simulations, traffic generators with main
    packages): none of them is a component; a folder merely ending in "test" with no sibling it names stays."""
    from repomodeler.inventory import classify_role, promote_example_deployments
    from repomodeler.records import SourceFile

    paths = ["ziti/main.go", "zititest/go.mod", "zititest/models/dtls/main.go", "api/server.go", "api-tests/run.go",
             "docs/latest/index.md", "latest/main.go", "router/main.go"]
    files = [SourceFile(path=p, blob="0", size=1, language=None, role=classify_role(p)) for p in paths]
    roles = {f.path: f.role for f in promote_example_deployments(files)}
    assert roles["zititest/models/dtls/main.go"] == roles["zititest/go.mod"] == roles["api-tests/run.go"] == "test"
    assert roles["ziti/main.go"] == roles["api/server.go"] == roles["latest/main.go"] == roles["router/main.go"] == "source"


def test_where_ports_are_published_an_unpublished_service_nobody_calls_is_no_front_door() -> None:
    """Without a gateway or Ingress the APIs nobody calls are the way in; but where the deployment
    publishes ports, it says which: a service reached by Dapr invocation or a queue, or by a caller
    whose address did not resolve, is not a door for people."""
    web = ("const express = require('express');\nconst app = express();\n"
           "app.get('/orders', (req, res) => res.send('ok'));\napp.listen(3000);\n")
    files = {"docker-compose.yml": ("services:\n  web:\n    build: ./web\n    ports: ['8080:3000']\n"
                                    "  worker:\n    build: ./worker\n"),
             "web/package.json": '{"name": "web", "dependencies": {"express": "4"}}', "web/server.js": web,
             "worker/package.json": '{"name": "worker", "dependencies": {"express": "4"}}',
             "worker/server.js": web.replace("/orders", "/jobs")}
    model = resolve_files({"r": files})
    assert ("user", "web") in edge_set(model) and ("user", "worker") not in edge_set(model)
    # nothing published: the APIs nobody calls are how people get in
    files["docker-compose.yml"] = files["docker-compose.yml"].replace("    ports: ['8080:3000']\n", "")
    assert {("user", "web"), ("user", "worker")} <= edge_set(resolve_files({"r": files}))


def test_a_bare_cluster_dns_name_under_a_host_key_reaches_that_service() -> None:
    def workload(name: str, env: str = "") -> str:
        return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: traffic\nspec:\n"
                f"  template:\n    spec:\n      containers:\n      - name: {name}\n        image: acme/{name}:1\n{env}"
                f"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: traffic\n"
                "spec:\n  ports:\n  - port: 1883\n")
    files = {"k8s/sim.yaml": workload("simulation", "        env:\n          - name: MQTT_HOST\n"
                                                    "            value: mosquitto.traffic.svc.cluster.local\n"),
             "k8s/mq.yaml": workload("mosquitto"),
             "src/Simulation/Simulation.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
             "src/Simulation/Program.cs": 'var host = Environment.GetEnvironmentVariable("MQTT_HOST") ?? "localhost";\n'}
    model = resolve_files({"r": files})
    assert ("simulation", "mosquitto") in edge_set(model)
    assert via(model, "simulation", "mosquitto") == {"env MQTT_HOST"}


def test_compose_settings_merged_in_by_a_yaml_merge_key_count() -> None:
    """``environment: {<<: *env}`` (an ``x-env: &env`` block shared by several services) gives each the
    shared settings; a key the service sets itself wins."""
    compose = ("x-env: &env\n  NATS_URL: nats://stan:4222\n  DB_HOST: wrong-db\n"
               "x-service: &service\n  restart: always\n  environment:\n    <<: *env\n    DB_HOST: postgres\n"
               "services:\n  orders:\n    <<: *service\n    build: ./orders\n"
               "  stan:\n    image: nats-streaming:0.25\n  postgres:\n    image: postgres:16\n")
    files = {"docker-compose.yml": compose, "orders/main.py":
             "import os\nos.environ['NATS_URL']\nos.environ['DB_HOST']\n"}
    model = resolve_files({"r": files})
    assert {("orders", "stan"), ("orders", "postgres")} <= edge_set(model)
    assert "wrong-db" not in model.components


def test_rust_workspace_library_crates_are_no_services_and_their_routes_are_the_programs() -> None:
    """Cargo.toml is read (package name, dependencies): a crate without a binary target is a library,
    even one declaring routes, and the program that mounts them serves them; the program is named by
    its package, not by its workspace folder."""
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/server", "crates/routes", "crates/utils"]\n',
        "crates/server/Cargo.toml": ('[package]\nname = "shop_server"\n\n[dependencies]\n'
                                     'shop_routes = { path = "../routes" }\nshop_utils = { path = "../utils" }\n'),
        "crates/server/src/main.rs": ('use actix_web::{App, HttpServer};\n#[actix_web::main]\nasync fn main() {\n'
                                      '    HttpServer::new(|| App::new().configure(shop_routes::config))'
                                      '.bind(("0.0.0.0", 8536)).unwrap().run().await.unwrap();\n}\n'),
        "crates/routes/Cargo.toml": '[package]\nname = "shop_routes"\n\n[dependencies]\nshop_utils = { path = "../utils" }\n',
        "crates/routes/src/lib.rs": ('use actix_web::web;\npub fn config(cfg: &mut web::ServiceConfig) {\n'
                                     '    cfg.route("/api/v3/post", web::get().to(list));\n}\n'
                                     'async fn list() -> &\'static str { "[]" }\n'),
        "crates/utils/Cargo.toml": '[package]\nname = "shop_utils"\n',
        "crates/utils/src/lib.rs": "pub fn slug(s: &str) -> String { s.to_lowercase() }\n",
    }
    model = resolve_files({"shop": files})
    services = {c.id for c in model.components.values() if c.kind == "service"}
    assert services == {"shop_server"}
    assert [e.path for e in model.components["shop_server"].ports["http"].endpoints] == ["/api/v3/post"]


def test_a_module_others_depend_on_stays_a_service_when_a_deployment_runs_its_image() -> None:
    """A Maven module the standalone server depends on is a library node, unless the compose file runs
    its image (``apache/sched-master``): the build module and the deployment that runs it are one
    running component."""
    pom = ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>{a}</artifactId>'
           '<dependencies>{deps}</dependencies></project>')
    dep = '<dependency><groupId>org.acme</groupId><artifactId>{a}</artifactId></dependency>'
    files = {
        "pom.xml": ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>sched</artifactId>'
                    '<packaging>pom</packaging><modules><module>sched-master</module><module>sched-standalone</module>'
                    '<module>sched-common</module></modules></project>'),
        "sched-master/pom.xml": pom.format(a="sched-master", deps=dep.format(a="sched-common")),
        "sched-master/src/main/java/org/acme/master/MasterServer.java": (
            "package org.acme.master;\n\nimport org.springframework.boot.autoconfigure.SpringBootApplication;\n\n"
            "@SpringBootApplication\npublic class MasterServer {\n    public static void main(String[] args) {}\n}\n"),
        "sched-standalone/pom.xml": pom.format(a="sched-standalone", deps=dep.format(a="sched-master")),
        "sched-standalone/src/main/java/org/acme/standalone/Standalone.java": (
            "package org.acme.standalone;\n\nimport org.springframework.boot.autoconfigure.SpringBootApplication;\n\n"
            "@SpringBootApplication\npublic class Standalone {\n    public static void main(String[] args) {}\n}\n"),
        "sched-common/pom.xml": pom.format(a="sched-common", deps=""),
        "sched-common/src/main/java/org/acme/common/Util.java": "package org.acme.common;\n\npublic class Util {}\n",
        "deploy/docker-compose.yml": "services:\n  sched-master:\n    image: apache/sched-master:1.0\n",
    }
    model = resolve_files({"sched": files})
    assert model.components["sched-master"].kind == "service"
    assert ("sched", "sched-master") in model.components["sched-master"].source_roots


def test_development_stacks_ci_pipelines_and_data_only_containers_are_not_the_system() -> None:
    """Gitpod's compose file and a ``develop.yml`` are a contributor's stack, ``.woodpecker/`` holds CI
    pipelines, and a container whose command is ``/bin/true`` only holds volumes for another."""
    from repomodeler.inventory import classify_role
    assert classify_role("docker-compose.gitpod.yaml") == "development"
    assert classify_role("docker/single-process/develop.yml") == "development"
    assert classify_role(".woodpecker/securityscan.yaml") == "ci"
    assert classify_role("docker-compose.yml") == "source"
    # a contributor's development environment folder: its compose file, proxy and database settings
    assert classify_role("docker/devenv/docker-compose.main.yml") == "development"
    assert classify_role("docker/devenv/files/nginx.conf") == "development"
    assert classify_role("docker/gitpod/Dockerfile") == "development"
    assert classify_role("docker/images/docker-compose.yaml") == "source"
    assert classify_role("docker/images/Dockerfile.storybook") == "development"  # a UI component workshop
    assert classify_role("docker/images/Dockerfile.frontend") == "source"
    files = {
        "docker-compose.yml": ("services:\n  mysqldata:\n    image: mysql:8.0\n    command: /bin/true\n"
                               "  mysql:\n    image: mysql:8.0\n    volumes_from:\n      - mysqldata\n"
                               "  web:\n    image: acme/web:1\n    ports: ['3000:3000']\n    depends_on: [mysql]\n"),
        "docker-compose.gitpod.yaml": "services:\n  gitea:\n    image: gitea/gitea:1.21\n",
        "develop.yml": "services:\n  postgres:\n    image: postgres:15\n",
    }
    model = resolve_files({"app": files})
    assert {c.id for c in model.components.values() if c.kind != "user"} == {"mysql", "web"}


def test_a_browser_app_in_a_folder_named_like_the_server_gets_a_name_of_its_own() -> None:
    """The compose service `web` is the server; the React app in `web/` must not become it."""
    files = {
        "docker-compose.yml": "services:\n  web:\n    build: ./server\n    ports: ['8000:8000']\n",
        "server/Dockerfile": "FROM python:3.12\nCOPY app.py /app.py\nCMD python /app.py\n",
        "server/app.py": ("from flask import Flask\napp = Flask(__name__)\n\n@app.route('/api/items')\n"
                          "def items():\n    return []\n"),
        "web/package.json": ('{"name": "shop-ui", "dependencies": {"react-dom": "^18.0.0", "react": "^18.0.0"},'
                             ' "devDependencies": {"vite": "^5.0.0"}}'),
        "web/src/main.tsx": "import { createRoot } from 'react-dom/client';\ncreateRoot(document.body);\n",
    }
    model = resolve_files({"shop": files})
    assert model.components["web"].kind == "service"
    assert model.components["shop-ui"].kind == "webapp"
    assert ("shop-ui", "web") in edge_set(model)


def test_a_published_service_its_workers_call_back_is_still_the_front_door() -> None:
    """When every published service is also called from inside (a queue worker invoking the gateway),
    the ones published beyond this machine are still where people come in; a port bound to
    127.0.0.1 (Prometheus' local UI) is not."""
    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory
    compose = ("services:\n"
               "  gateway:\n    image: ghcr.io/example/gateway:1.0\n    ports:\n      - \"8080:8080\"\n"
               "  queue-worker:\n    image: ghcr.io/example/queue-worker:1.0\n    environment:\n"
               "      - faas_gateway_address=http://gateway:8080\n"
               "  prometheus:\n    image: prom/prometheus:v2\n    ports:\n      - \"127.0.0.1:9090:9090\"\n"
               "    environment:\n      - TARGET=http://gateway:8080\n")
    model = resolve_system("faas", extract_in_memory({"faas": {"docker-compose.yaml": compose}}))
    doors = {c.target for c in model.connections.values() if c.source == "user"}
    assert doors == {"gateway"}


def test_rust_test_modules_kept_in_src_are_tests() -> None:
    """A crate's `#[cfg(test)] mod tests;` lives in src/.../tests.rs, its helpers in test_utils.rs: test code,
    whose addresses are no architecture; a module that only has "test" inside its name is code."""
    from repomodeler.inventory import classify_role
    assert classify_role("storage/src/cache/tests.rs") == "test"
    assert classify_role("query/src/sources/test_utils.rs") == "test"
    assert classify_role("engine/src/planner_tests.rs") == "test"
    assert classify_role("engine/src/attestation.rs") == "source"
    assert classify_role("engine/src/latest.rs") == "source"


def test_front_end_stage_copying_one_package_leaves_a_whole_context_image_its_code() -> None:
    # the last stage copies the whole repository; an earlier stage copied one workspace package for the
    # front-end bundle: the server runs the repository's code, not that package's
    files = {
        "pyproject.toml": "[project]\nname = \"dash\"\n",
        "dash/app.py": "import requests\nrequests.get('https://api.chartsfeed.io/v1')\n",
        "package.json": '{"name": "dash-root", "private": true}',
        "viz-lib/package.json": '{"name": "@dash/viz", "version": "1.0.0"}',
        "viz-lib/index.js": "export const x = 1;\n",
        "client/package.json": '{"name": "@dash/client", "version": "1.0.0"}',
        "client/main.js": "fetch('https://api.mapsfeed.io/v2');\n",
        "Dockerfile": ("FROM node:20 AS frontend\nWORKDIR /frontend\nCOPY viz-lib /frontend/viz-lib\nRUN npm run build\n"
                       "FROM python:3.12\nCOPY --from=frontend /frontend/dist /app/dist\nCOPY . /app\n"
                       "CMD [\"python\", \"dash/app.py\"]\n"),
        "compose.yaml": "services:\n  server:\n    build: .\n",
    }
    model = resolve_files({"dash": files})
    assert ("dash", "") in model.components["server"].source_roots


def test_a_root_ci_folders_stack_files_are_the_pipelines() -> None:
    from repomodeler.inventory import classify_role
    assert classify_role("ci/base.yaml") == "ci"  # a compose file of any name the pipeline runs
    assert classify_role("ci/certbot/env") == "ci"
    assert classify_role("ci/compose.yaml") == "ci"
    assert classify_role("pkg/ci/client.go") == "source"  # a Go package named ci is still code
    # (and the checks and fixture programs its jobs run: every root ci/ folder with code in the development sets
    # holds a pipeline's helpers, apisix's ci/pod/openfunction/function-example/test-body, parse-server's checks)
    assert classify_role("ci/main.go") == "ci"


def test_a_stock_runtime_container_mounting_the_project_runs_none_of_another_languages_code() -> None:
    """`node:22` mounting the whole project for its asset server, beside the service built from the
    project: the Python code (and its stores) is the built service's, whatever the two are called."""
    files = {
        "Dockerfile": "FROM python:3.12 AS base\nWORKDIR /app\nCOPY pyproject.toml ./\nRUN pip install .\n\n"
                      "FROM base AS dev\nCOPY . .\nCMD [\"gunicorn\", \"shop.wsgi\"]\n",
        "pyproject.toml": "[project]\nname = \"shop\"\ndependencies = [\"django\", \"redis\", \"psycopg2\"]\n",
        "shop/__init__.py": "",
        "shop/settings.py": "import os\nDATABASES = {'default': {'HOST': os.environ.get('DATABASE_HOST', 'postgres')}}\n",
        "shop/cache.py": "import redis\nclient = redis.Redis.from_url('redis://redis:6379/0')\n",
        "package.json": '{"name": "shop", "scripts": {"start": "webpack serve"}, "devDependencies": {"webpack": "5"}}\n',
        "assets/app.js": "fetch('/api/items').then(r => r.json())\n",
    }
    for web, node in (("web", "node"), ("app", "assets")):  # either name first: the language decides
        compose = (f"services:\n  {web}:\n    build:\n      context: .\n      target: dev\n    volumes:\n      - ./:/app\n"
                   f"    ports:\n      - \"8000:8000\"\n  {node}:\n    image: node:22-bookworm\n    working_dir: /app\n"
                   f"    command: sh -c \"npm install && npm start\"\n    volumes:\n      - ./:/app\n    ports:\n"
                   f"      - \"3000:3000\"\n  postgres:\n    image: postgres:15\n  redis:\n    image: redis:7\n")
        model = resolve_files({"shop": {**files, "docker-compose.yml": compose}})
        edges = edge_set(model)
        assert {(web, "postgres"), (web, "redis")} <= edges, edges
        assert not {(node, "postgres"), (node, "redis")} & edges, edges


def test_a_recipe_building_a_program_is_no_store_for_an_all_in_one_stage_from_a_store_image() -> None:
    """Stages of node build the server; a last, all-in-one stage starts FROM the store's image to bundle
    it: the image the compose service builds runs the program, a service, not a database."""
    files = {
        "Dockerfile": ("FROM node:22-alpine AS builder\nWORKDIR /app\nCOPY . .\nRUN npm ci && npm run build\n\n"
                       "FROM node:22-alpine AS prod\nCOPY --from=builder /app/dist /app\nCMD [\"node\", \"/app/index.js\"]\n\n"
                       "FROM clickhouse/clickhouse-server:24-alpine AS all-in-one\nCOPY --from=builder /app/dist /app\n"),
        "package.json": '{"name": "obs", "dependencies": {"express": "^4.18.0", "mongodb": "^6.0.0"}}\n',
        "index.js": "const express = require('express');\nconst app = express();\napp.listen(8080);\n",
        "docker-compose.yml": ("services:\n  app:\n    build: .\n    environment:\n      MONGO_URI: mongodb://db:27017/obs\n"
                               "    ports:\n      - \"8080:8080\"\n  db:\n    image: mongo:7\n"),
    }
    model = resolve_files({"obs": files})
    assert model.components["app"].kind == "service"
    assert ("app", "db") in edge_set(model)


def test_product_named_examples_and_test_suites_are_not_the_system() -> None:
    """A project's examples (gateway-examples/) and its own named test suites (gateway-integrated-test/,
    gateway-e2e/) each build and deploy their programs; none of them is part of what users run."""
    from repomodeler.inventory import classify_role

    assert classify_role("gateway-examples/http/k8s/app.yml") == "example"
    assert classify_role("gateway-integrated-test/http/docker-compose.yml") == "test"
    assert classify_role("gateway-e2e/engine/pom.xml") == "test"
    assert classify_role("payments-integration/src/Client.java") == "source"  # an integration is product code
    assert classify_role("job-executor-samples/sample-app/pom.xml") == "source"  # samples may be shipped programs
    assert classify_role("basic-example/docker-compose.yml") == "source"  # one example may be the documented setup
    files = {
        "gateway-admin/Dockerfile": "FROM eclipse-temurin:17\nCMD [\"java\", \"-jar\", \"/admin.jar\"]\n",
        "gateway-admin/src/main/java/org/gw/Admin.java": "package org.gw;\npublic class Admin { public static void main(String[] a) {} }\n",
        "gateway-examples/http/Dockerfile": "FROM eclipse-temurin:17\nCMD [\"java\", \"-jar\", \"/ex.jar\"]\n",
        "gateway-examples/http/src/main/java/org/gw/ex/Ex.java": "package org.gw.ex;\npublic class Ex { public static void main(String[] a) {} }\n",
        "gateway-examples/http/k8s/app.yml": deployment("gateway-examples-http", "acme/ex:1", {"app": "ex"}),
        "gateway-integrated-test/http/docker-compose.yml": ("services:\n  gateway-integrated-test-http:\n"
                                                            "    build: .\n    ports: ['9195:9195']\n"),
        "docker-compose.yml": "services:\n  admin:\n    build: ./gateway-admin\n    ports: ['9095:9095']\n",
    }
    ids = set(resolve_files({"gw": files}).components)
    assert "admin" in ids
    assert not {i for i in ids if "example" in i or "integrated" in i}


def test_of_several_example_stacks_the_single_process_one_runs_with_its_settings() -> None:
    """A product that deploys only in examples (example/docker-compose/single-binary/, distributed/) runs as
    the stack named for its one-process setup; that stack's settings beside it (a Prometheus scrape file it
    mounts) are read with it, and the scaled-out alternative stays an example."""
    stack = ("services:\n  tracer:\n    image: acme/tracer:1\n    ports: ['3200:3200']\n"
             "  prometheus:\n    image: prom/prometheus:latest\n    command: ['--config.file=/etc/prometheus.yaml']\n"
             "    volumes: ['./prometheus.yaml:/etc/prometheus.yaml']\n")
    files = {
        "go.mod": "module example.com/tracer\n\ngo 1.22\n",
        "cmd/tracer/main.go": "package main\n\nfunc main() {}\n",
        "cmd/tracer/Dockerfile": "FROM alpine\nCOPY tracer /tracer\nCMD [\"/tracer\"]\n",
        "example/docker-compose/single-binary/docker-compose.yaml": stack,
        "example/docker-compose/single-binary/prometheus.yaml": (
            "scrape_configs:\n  - job_name: tracer\n    static_configs:\n      - targets: ['tracer:3200']\n"),
        "example/docker-compose/distributed/docker-compose.yaml": (
            "services:\n  distributor:\n    image: acme/tracer:1\n    command: ['-target=distributor']\n"
            "  querier:\n    image: acme/tracer:1\n    command: ['-target=querier']\n"),
    }
    model = resolve_files({"tracer": files})
    assert "distributor" not in model.components and "querier" not in model.components
    assert ("prometheus", "tracer") in edge_set(model)


def test_web_archive_another_module_depends_on_is_still_deployed() -> None:
    """A web application archive (Maven war) another war depends on for its classes (classifier `classes`)
    is still what a servlet container runs: a service with its settings' database, not a library."""
    war = ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>{a}</artifactId>'
           '<packaging>war</packaging><dependencies>{deps}</dependencies></project>')
    files = {
        "pom.xml": ('<project><modelVersion>4.0.0</modelVersion><groupId>org.acme</groupId><artifactId>billing</artifactId>'
                    '<packaging>pom</packaging><modules><module>server</module><module>payments</module></modules></project>'),
        "server/pom.xml": war.format(a="billing-server", deps=(
            '<dependency><groupId>javax.ws.rs</groupId><artifactId>javax.ws.rs-api</artifactId></dependency>'
            '<dependency><groupId>mysql</groupId><artifactId>mysql-connector-java</artifactId></dependency>')),
        "server/src/main/webapp/WEB-INF/web.xml": "<web-app/>\n",
        "server/src/main/java/org/acme/server/InvoiceResource.java": (
            "package org.acme.server;\nimport javax.ws.rs.GET;\nimport javax.ws.rs.Path;\n"
            "@Path(\"/1.0/invoices\")\npublic class InvoiceResource {\n  @GET\n  public String list() { return \"[]\"; }\n}\n"),
        "server/src/main/resources/billing-server.properties": "org.acme.dao.url=jdbc:mysql://127.0.0.1:3306/billing\n",
        "payments/pom.xml": war.format(a="billing-payments", deps=(
            '<dependency><groupId>org.acme</groupId><artifactId>billing-server</artifactId>'
            '<classifier>classes</classifier></dependency>')),
        "payments/src/main/java/org/acme/payments/Pay.java": "package org.acme.payments;\npublic class Pay {}\n",
    }
    model = resolve_files({"billing": files})
    server = next(c for c in model.components.values() if ("billing", "server") in c.source_roots)
    assert server.kind == "service"


def test_project_image_runs_the_root_program_of_a_lowercase_recipe() -> None:
    """The project's published image (`acme/monitor:2` of the monitor repository) is built by its recipe at
    `docker/dockerfile`, lowercase as Docker accepts it: the image runs the root program, not the one other
    package that keeps a recipe of its own (a push client's folder of scripts)."""
    files = {
        "package.json": ('{"name": "monitor", "scripts": {"start": "node server/server.js"},'
                         ' "dependencies": {"express": "^4.19.0"}}\n'),
        "server/server.js": ("const express = require('express');\nconst app = express();\n"
                             "app.get('/api/status', (req, res) => res.json({ ok: true }));\napp.listen(3001);\n"),
        "docker/dockerfile": "FROM node:20\nCOPY . /app\nWORKDIR /app\nCMD [\"npm\", \"start\"]\n",
        "extra/monitor-push/package.json": '{"scripts": {"build": "go build -o build/push push.go"}}\n',
        "extra/monitor-push/push.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.Get("http://example.org/push") }\n',
        "extra/monitor-push/Dockerfile": "FROM node:22\nCOPY ./build/ ./build/\nCMD [\"./build/push\"]\n",
        "compose.yaml": "services:\n  monitor:\n    image: acme/monitor:2\n    ports: ['3001:3001']\n",
    }
    model = resolve_files({"monitor": files})
    monitor = model.components["monitor"]
    assert ("monitor", "") in monitor.source_roots
    assert monitor.attributes.get("built_by") != "extra/monitor-push/Dockerfile"


def test_server_package_its_extensions_depend_on_is_still_a_program() -> None:
    """A Node server whose package starts it (`npm start`) and installs its command (`bin`) is a program even when
    an extension template of the repository depends on it to build on it, not a library."""
    files = {
        "package.json": ('{"name": "@acme/headless", "main": "./build/exports.js", "bin": {"headless": "bin/headless.js"},'
                         ' "scripts": {"start": "node build"}, "dependencies": {"ws": "^8.0.0"}}\n'),
        "bin/headless.js": "#!/usr/bin/env node\nrequire('../build');\n",
        "src/index.ts": "import { WebSocketServer } from 'ws';\nnew WebSocketServer({ port: 3000 });\n",
        "extensions/template/package.json": ('{"name": "headless-extension", "private": true,'
                                             ' "dependencies": {"@acme/headless": "*"}}\n'),
        "extensions/template/src/route.ts": "export const path = '/hello';\n",
    }
    model = resolve_files({"headless": files})
    root = next(c for c in model.components.values() if ("headless", "") in c.source_roots)
    assert root.kind == "service"


def test_recipe_copying_the_root_programs_manifest_builds_the_root_program() -> None:
    """A Python package at the root with a Rust extension in rust/ (its own Cargo.toml): the recipe copies
    pyproject.toml and both folders in, so the image runs the root program, whose code and driver imports are the
    compose service's, not the extension crate alone."""
    files = {
        "pyproject.toml": '[project]\nname = "homeserver"\ndependencies = ["twisted", "psycopg2"]\n',
        "Cargo.toml": '[workspace]\nmembers = ["rust"]\n',
        "rust/Cargo.toml": '[package]\nname = "homeserver"\nversion = "0.1.0"\n',
        "rust/src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n",
        "homeserver/__init__.py": "",
        "homeserver/storage/engines/postgres.py": "import psycopg2.extensions\n\nclass PostgresEngine:\n    pass\n",
        "docker/Dockerfile": ("FROM python:3.12 AS builder\nWORKDIR /homeserver\nCOPY pyproject.toml /homeserver/\n"
                              "COPY homeserver /homeserver/homeserver/\nCOPY rust /homeserver/rust/\n"
                              "RUN pip install .\nFROM python:3.12-slim\nCOPY --from=builder /homeserver /homeserver\n"
                              "ENTRYPOINT [\"python\", \"-m\", \"homeserver\"]\n"),
        "contrib/docker/docker-compose.yml": ("services:\n  homeserver:\n    build:\n      context: ../..\n"
                                              "      dockerfile: docker/Dockerfile\n    ports: ['8008:8008']\n"
                                              "    depends_on: [db]\n  db:\n    image: postgres:15-alpine\n"),
    }
    model = resolve_files({"homeserver": files})
    comp = model.components["homeserver"]
    assert ("homeserver", "") in comp.source_roots
    assert any(k[:2] == ("homeserver", "db") for k in model.connections)


def test_cassandra_beside_one_sql_engine_is_no_matrix_of_alternatives() -> None:
    """Three database engines count as alternatives of one only when two of them are SQL engines: Cassandra,
    PostgreSQL and MongoDB in one development stack are three stores."""
    compose = ("services:\n  cassandra:\n    image: cassandra:3.11\n  postgresql:\n    image: postgres:13\n"
               "  mongo:\n    image: mongo:7\n")
    model = resolve_files({"flow": {"develop/docker-compose/docker-compose.yml": compose}})
    assert {"cassandra", "postgresql", "mongo"} <= set(model.components)
    matrix = compose + "  mysql:\n    image: mysql:8\n"
    model = resolve_files({"flow": {"develop/docker-compose/docker-compose.yml": matrix}})
    assert "cassandra" in model.components and not {"postgresql", "mysql"} & set(model.components)


def test_a_go_file_named_main_outside_package_main_is_no_entry_point() -> None:
    """A shared Go module the programs require, holding generated route handlers and a package whose file is called
    main.go (package telemetry): a library, not one more service."""
    files = {
        "go.work": "go 1.22\n\nuse (\n\t./packages/api\n\t./packages/shared\n)\n",
        "packages/api/go.mod": ("module github.com/acme/infra/packages/api\n\ngo 1.22\n\n"
                                "require github.com/acme/infra/packages/shared v0.0.0\n"),
        "packages/api/main.go": ('package main\n\nimport (\n\t"net/http"\n\n\t"github.com/acme/infra/packages/shared/pkg/telemetry"\n)\n\n'
                                 'func main() {\n\ttelemetry.Start()\n\thttp.ListenAndServe(":3000", nil)\n}\n'),
        "packages/shared/go.mod": "module github.com/acme/infra/packages/shared\n\ngo 1.22\n",
        "packages/shared/pkg/telemetry/main.go": "package telemetry\n\nfunc Start() {}\n",
        "packages/shared/pkg/http/routes.go": ('package http\n\nimport "net/http"\n\nfunc Register(mux *http.ServeMux) {\n'
                                               '\tmux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {})\n}\n'),
    }
    model = resolve_files({"infra": files})
    assert model.components["api"].kind == "service"
    shared = model.components.get("shared")
    assert shared is None or shared.kind == "library"


def test_a_required_module_whose_program_sits_in_cmd_is_that_program() -> None:
    """A Go module another module of the repository requires (pkg/urlstruct with a go.mod of its own), whose program
    is cmd/<name>/main.go with a recipe of its own: the module is the program, a service, not only a library."""
    files = {
        "go.mod": "module github.com/acme/tracer\n\ngo 1.22\n",
        "cmd/tracer/main.go": ('package main\n\nimport "net/http"\n\nfunc main() {\n'
                               '\thttp.HandleFunc("/api/v1/spans", func(w http.ResponseWriter, r *http.Request) {})\n'
                               '\thttp.ListenAndServe(":14318", nil)\n}\n'),
        "cmd/tracer/Dockerfile": "FROM alpine:latest\nCOPY bin/tracer /tracer\nENTRYPOINT [\"/tracer\"]\n",
        "pkg/spans/spans.go": "package spans\n\nfunc Store() {}\n",
        "pkg/api/routes.go": ('package api\n\nimport "net/http"\n\nfunc Register(mux *http.ServeMux) {\n'
                              '\tmux.HandleFunc("/api/v1/traces", func(w http.ResponseWriter, r *http.Request) {})\n}\n'),
        "pkg/urlstruct/go.mod": ("module github.com/acme/tracer/pkg/urlstruct\n\ngo 1.22\n\n"
                                 "require github.com/acme/tracer v1.0.0\n"),
        "pkg/urlstruct/decode.go": 'package urlstruct\n\nimport "github.com/acme/tracer/pkg/spans"\n\nfunc Decode() { spans.Store() }\n',
    }
    model = resolve_files({"tracer": files})
    tracer = next(c for c in model.components.values() if ("tracer", "cmd/tracer") in c.source_roots)
    assert tracer.kind == "service"


def test_folders_of_sample_applications_are_examples() -> None:
    """A chaos or monitoring tool keeps the application it is shown on (sock-shop under
    monitoring/utils/sample-application-under-test/): those manifests are not the tool's own system."""
    from repomodeler.inventory import classify_role
    assert classify_role("monitoring/utils/sample-application-under-test/sock-shop/carts.yaml") == "example"
    assert classify_role("demo/sample-applications/podtato/deploy.yaml") == "example"
    assert classify_role("packages/demo-app/src/index.tsx") == "example"
    assert classify_role("sampler/app.py") == "source"  # (not a sample application's name)
    assert classify_role("services/applications/api/main.go") == "source"
    assert classify_role("src/main/java/com/acme/sampleapp/Store.java") == "source"  # a package, not a folder of samples


def test_a_repository_analysed_beside_another_keeps_its_own_model() -> None:
    """The name prefix a repository's images share (``board-`` of ``acmeui/board-api`` and ``acmeui/board-web``)
    joins its modules to their deployments whatever other repository is analysed alongside (its image shares no
    prefix with them): the same commits give the same components."""
    def module(name: str) -> dict[str, str]:
        return {f"modules/{name}/go.mod": f"module k8s.io/board/{name}\n\ngo 1.22\n",
                f"modules/{name}/main.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.ListenAndServe(":8000", nil) }\n',
                f"modules/{name}/Dockerfile": f"FROM golang:1.22\nCOPY . .\nRUN go build -o /{name} .\nENTRYPOINT [\"/{name}\"]\n"}
    board = {**module("api"), **module("web"),
             "charts/board/Chart.yaml": "apiVersion: v2\nname: board\nversion: 1.0.0\n",
             "charts/board/templates/api.yaml": deployment("kubernetes-board-api", "docker.io/acmeui/board-api:1.0",
                                                           {"app": "kubernetes-board-api"}),
             "charts/board/templates/web.yaml": deployment("kubernetes-board-web", "docker.io/acmeui/board-web:1.0",
                                                           {"app": "kubernetes-board-web"})}
    other = {"config/proxy.yaml": deployment("flag-proxy", "ghcr.io/open-feature/flag-proxy:latest", {"app": "flag-proxy"})}
    alone = resolve_files({"platform": board})
    together = resolve_files({"platform": board, "other": other})
    assert alone.components["kubernetes-board-api"].source_roots  # the module joined to its deployment
    mine = {cid for cid, c in together.components.items() if c.repository == "platform"}
    assert mine == set(alone.components)
    assert {cid: sorted(together.components[cid].source_roots) for cid in mine} == \
        {cid: sorted(c.source_roots) for cid, c in alone.components.items()}


def test_env_templates_named_the_other_way_round() -> None:
    """TEMPLATE.env and example.env stand for the .env compose reads; a config folder's sample.env is the program's
    own sample settings, read as its settings (rudder-server's CONFIG_BACKEND_URL)."""
    from repomodeler.graph.base import env_template_only
    assert env_template_only("TEMPLATE.env") and env_template_only("deploy/example.env")
    assert env_template_only("env.example")
    assert not env_template_only("config/sample.env")
    assert not env_template_only(".env.example")  # (a dotted template is handled where compose reads .env)


def test_a_folder_of_other_projects_python_packages_is_vendored():
    """An application shipping its dependencies (`libs/` with certifi, urllib3, idna... side by side, as
    `pip install --target` leaves them): their code is vendored, not the system's; the application's own
    package, and a folder holding one such name, stay source."""
    from repomodeler.inventory import vendored_site_packages
    from repomodeler.records import SourceFile

    paths = ["libs/certifi/core.py", "libs/urllib3/poolmanager.py", "libs/idna/core.py", "libs/kafka/producer.py",
             "libs/six.py", "bazarr/main.py", "bazarr/libs/requests_cache.py", "tools/certifi/update.py"]
    roles = {f.path: f.role for f in vendored_site_packages([SourceFile(p, "x", 1, "python", "source") for p in paths])}
    assert {p for p, r in roles.items() if r == "vendored"} == {
        "libs/certifi/core.py", "libs/urllib3/poolmanager.py", "libs/idna/core.py", "libs/kafka/producer.py", "libs/six.py"}
    assert roles["bazarr/main.py"] == roles["tools/certifi/update.py"] == "source"


def test_test_rigs_named_for_their_part_are_tests() -> None:
    """A package a test suite embeds or serves (mvis/test-embed, test-server/) and a shell script that runs the
    tests (run_browser_test.sh starting the server behind caddy) are the test rig, not the system; a product module
    that merely starts with the word stays."""
    from repomodeler.inventory import classify_role
    assert classify_role("mvis/test-embed/package.json") == "test"
    assert classify_role("test-server/main.go") == "test"
    assert classify_role("script/run_browser_test.sh") == "test"
    assert classify_role("scripts/e2e-tests.sh") == "test"
    assert classify_role("testimonials/index.js") == "source"
    assert classify_role("scripts/latest.sh") == "source"
    assert classify_role("docker/entrypoint.sh") == "source"


def test_documentation_sites_are_folders_whose_every_manifest_builds_pages() -> None:
    """A Docusaurus package and a Middleman repository build pages about the system; a server's root whose
    requirements.txt also builds its documentation with MkDocs (beside its go.mod) is the server, and so is a Django
    project listing MkDocs among its requirements."""
    from repomodeler.graph.build import Resolver
    from repomodeler.rules.cases import extract_in_memory
    repos = {
        "deck": {"go.mod": "module example.com/deck\n\ngo 1.22\n",
                 "main.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.ListenAndServe(":80", nil) }\n',
                 "requirements.txt": "mkdocs==1.6.0\nmkdocs-material==9.5.0\n",
                 "docsite/package.json": '{"name": "docsite", "dependencies": {"@docusaurus/core": "^3.5.0"}}\n'},
        "guide": {"Gemfile": "source 'https://rubygems.org'\ngem 'middleman', '~> 4.2'\n"},
        "tracker": {"requirements.txt": "Django==5.1\nmkdocs-material==9.5\n", "manage.py": "import django\n"},
    }
    sites = Resolver("sys", extract_in_memory(repos)).documentation_sites
    assert ("deck", "docsite") in sites and ("guide", "") in sites
    assert ("deck", "") not in sites and ("tracker", "") not in sites


def test_exposed_ports_of_a_shared_folder_of_recipes_stay_with_each_recipe() -> None:
    """Services built from one context holding a folder per image (images/openwisp_radius/Dockerfile,
    images/openwisp_postfix/Dockerfile): each recipe's EXPOSE is its own image's, not the ports of whichever service
    owns the shared context (postfix's 25 is no port of the RADIUS server)."""
    compose = ("services:\n"
               "  radius:\n    build:\n      context: images\n      dockerfile: openwisp_radius/Dockerfile\n"
               "  dashboard:\n    build:\n      context: images\n      dockerfile: openwisp_dashboard/Dockerfile\n"
               "    ports: [\"8000:8000\"]\n"
               "  postfix:\n    image: acme/openwisp-postfix:edge\n")
    files = {
        "docker-compose.yml": compose,
        "images/common/settings.py": "DEBUG = False\n",
        "images/openwisp_radius/Dockerfile": "FROM python:3.12\nCOPY common /opt/common\nEXPOSE 1812\n",
        "images/openwisp_dashboard/Dockerfile": "FROM python:3.12\nCOPY common /opt/common\nEXPOSE 8000\n",
        "images/openwisp_postfix/Dockerfile": "FROM alpine:3.20\nRUN apk add postfix\nEXPOSE 25\n",
    }
    model = resolve_files({"wisp": files})
    exposed = {c.id: c.attributes.get("exposed", "") for c in model.components.values()}
    assert "25" not in exposed.get("radius", "").split(",")
    assert "25" not in exposed.get("dashboard", "").split(",")


def test_pod_program_listed_after_its_store_sidecar_names_the_workload() -> None:
    """A Deployment whose first container is its Redis sidecar (kraken-tracker: redis:5.0, then main running
    .../kraken-tracker) is the tracker's workload: a service with the tracker's image, not a cache."""
    from pathlib import Path

    from repomodeler.graph.build import resolve_system
    from repomodeler.rules.cases import extract_in_memory, load_case

    case = load_case("kubernetes.pod-stores", Path(__file__).resolve().parents[1] / "repomodeler" / "rules"
                     / "kubernetes" / "cases" / "kubernetes.pod-stores--store-listed-first.yml")
    model = resolve_system("case", extract_in_memory(case.repositories))
    tracker = model.components["kraken-tracker"]
    assert tracker.kind == "service"
    assert tracker.attributes["image"] == "acme/kraken-tracker:0.1"
