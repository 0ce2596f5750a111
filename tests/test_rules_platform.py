"""Resolver rules about identity, entry points and platform roles, on in-memory systems.

Each test writes the construct the way real projects do (a pom, an annotation, a compose file) and
asserts what a user would check in the model: this component, this edge, this evidence line."""

from __future__ import annotations

from rules_harness import edge_set, resolve_files, via


def pom(artifact: str, *deps: str) -> str:
    body = "".join(f"<dependency><groupId>g</groupId><artifactId>{d}</artifactId></dependency>" for d in deps)
    return (f"<project><modelVersion>4.0.0</modelVersion><artifactId>{artifact}</artifactId>"
            f"<dependencies>{body}</dependencies></project>\n")


def spring_app(package: str, cls: str, *annotations: str, route: str | None = None) -> str:
    anns = "".join(f"@{a}\n" for a in ("SpringBootApplication", *annotations))
    method = f'  @GetMapping("{route}")\n  public String x() {{ return "x"; }}\n' if route else ""
    return f"package {package};\n\n{anns}public class {cls} {{\n{method}}}\n"


def java_module(name: str, *deps: str, annotations: tuple[str, ...] = (), route: str | None = "/x",
                props: str = "") -> dict[str, str]:
    cls = "".join(p.title() for p in name.split("-")) + "Application"
    files = {f"{name}/pom.xml": pom(name, *deps),
             f"{name}/src/main/java/com/example/{name.replace('-', '')}/{cls}.java":
                 spring_app(f"com.example.{name.replace('-', '')}", cls, *annotations, route=route)}
    files[f"{name}/src/main/resources/application.properties"] = f"spring.application.name={name}\n{props}"
    return files


def k8s_deployment(name: str, image: str | None = None, extra: str = "") -> str:
    """A Kubernetes Deployment of one container (`extra` is appended to the container)."""
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name + "\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: c\n          image: " + (image or f"acme/{name}:1") + "\n" + extra)


# ------------------------------------------------------------------ one component seen twice
def test_image_only_deployment_is_the_module_that_builds_it() -> None:
    files = {
        **java_module("orders"), **java_module("cart"),
        "deploy/docker-compose.yml": ("services:\n  web-orders:\n    image: ghcr.io/acme/shop-orders:1.0\n"
                                      "  web-cart:\n    image: ghcr.io/acme/shop-cart:1.0\n"),
    }
    model = resolve_files({"shop": files})
    services = {c.id for c in model.components.values() if c.kind == "service"}
    assert services == {"web-orders", "web-cart"}
    orders = model.components["web-orders"]
    assert ("shop", "orders") in orders.source_roots
    assert {e.path for e in orders.evidence} >= {"deploy/docker-compose.yml", "orders/pom.xml"}


def test_dockerfile_artifact_and_env_tie_an_image_to_its_module() -> None:
    files = {
        **java_module("gateway-svc"),
        "gateway-svc/src/main/docker/Dockerfile": ("FROM openjdk:8\nENV APP_JAR_NAME edge-proxy\n"
                                                   "ADD ${APP_JAR_NAME}-0.0.1.jar /app/\nCMD java -jar /app/x.jar\n"),
        "docker-compose.yml": "services:\n  edge:\n    image: acme/edge-proxy:0.0.1\n",
    }
    model = resolve_files({"r": files})
    assert sorted(c.id for c in model.components.values() if c.kind == "service") == ["edge"]


def test_alternative_recipe_and_base_layer_are_not_components() -> None:
    files = {
        **java_module("orders-service"),
        "docker-vagrant/orders-app/Dockerfile": "FROM java\nCMD java -jar /src/orders-service/target/orders-service-0.1.0-SNAPSHOT.jar\n",
        "docker-vagrant/java/Dockerfile": "FROM openjdk:10-jre-slim\n",
    }
    model = resolve_files({"r": files})
    assert sorted(c.id for c in model.components.values() if c.kind != "user") == ["orders-service"]
    assert "docker-vagrant/orders-app/Dockerfile" in {e.path for e in model.components["orders-service"].evidence}


def test_compose_and_kubernetes_running_one_image_are_one_component() -> None:
    files = {
        "docker-compose.yml": "services:\n  configserver:\n    image: acme/config:1\n",
        "k8s/config.yml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: config-server\nspec:\n"
                           "  template:\n    spec:\n      containers:\n        - name: c\n          image: acme/config:2\n"),
    }
    model = resolve_files({"r": files})
    assert [c.id for c in model.components.values() if c.kind == "service"] == ["configserver"]
    assert "config-server" in model.components["configserver"].aliases


def test_java_package_named_example_is_production_code() -> None:
    model = resolve_files({"r": java_module("movies")})
    assert "movies" in model.components and model.components["movies"].ports["http"].endpoints


def test_legacy_compose_and_misindented_reserved_key() -> None:
    legacy = resolve_files({"r": {"docker-compose.yml": "web:\n  image: acme/web\n  links: [db]\ndb:\n  image: postgres:15\n"}})
    assert legacy.components["web"].kind == "service" and legacy.components["db"].kind == "database"
    assert ("web", "db") in edge_set(legacy)
    reserved = resolve_files({"r": {"docker-compose.yml": ("version: '3'\nservices:\n  api:\n    image: acme/api\n"
                                                           "  networks:\n    default:\n      external: true\n")}})
    assert "networks" not in reserved.components


def test_maven_wrapper_source_does_not_make_the_root_a_service() -> None:
    files = {"pom.xml": pom("parent"), ".mvn/wrapper/MavenWrapperDownloader.java": "public class MavenWrapperDownloader { public static void main(String[] a) {} }\n",
             **java_module("orders")}
    model = resolve_files({"petstore": files})
    assert "petstore" not in model.components and "orders" in model.components


def test_tracked_build_folder_descriptors_are_read() -> None:
    model = resolve_files({"r": {"build/docker-compose.yml": "services:\n  api:\n    image: acme/api\n    ports: ['80:80']\n",
                                 "build/app.js": "console.log(1)\n"}})
    assert "api" in model.components


# ------------------------------------------------------------------ entry point
def test_entry_point_is_the_gateway_not_every_published_port() -> None:
    files = {
        **java_module("registry", "spring-cloud-starter-netflix-eureka-server", annotations=("EnableEurekaServer",), route=None),
        **java_module("gateway", "spring-cloud-starter-netflix-zuul", "spring-cloud-starter-netflix-eureka-client",
                      annotations=("EnableZuulProxy",), route=None),
        **java_module("orders", "spring-cloud-starter-netflix-eureka-client"),
        "docker-compose.yml": ("services:\n  registry:\n    build: ./registry\n    ports: ['8761:8761']\n"
                               "  gateway:\n    build: ./gateway\n    ports: ['8080:8080']\n"
                               "  orders:\n    build: ./orders\n  rabbitmq:\n    image: rabbitmq:3-management\n"
                               "    ports: ['15672:15672']\n"),
    }
    model = resolve_files({"r": files})
    assert {t for s, t in edge_set(model) if s == "user"} == {"gateway"}
    assert ("gateway", "orders") in edge_set(model)  # Zuul without routes proxies every registered service
    assert via(model, "gateway", "orders") == {"gateway routes through discovery"}


def test_without_gateway_the_actor_uses_uncalled_apis_and_keeps_its_own_id() -> None:
    files = {
        "user/server.js": 'const app = require("express")();\napp.get("/users", (q, r) => r.send([]));\n',
        "user/package.json": '{"name": "user"}\n',
        "web/server.js": ('const app = require("express")();\nconst axios = require("axios");\n'
                          'app.get("/", async (q, r) => r.send(await axios.get("http://user:8080/users")));\n'),
        "web/package.json": '{"name": "web"}\n',
    }
    model = resolve_files({"shop": files})
    actors = [c for c in model.components.values() if c.kind == "user"]
    assert len(actors) == 1 and actors[0].id != "user" and model.components["user"].kind == "service"
    assert {t for s, t in edge_set(model) if s == actors[0].id} == {"web"}


# ------------------------------------------------------------------ platform roles
def test_registry_config_and_tracing_clients_reach_the_one_server_of_their_role() -> None:
    files = {
        **java_module("discovery", "spring-cloud-starter-eureka-server", annotations=("EnableEurekaServer",), route=None),
        **java_module("config", "spring-cloud-config-server", annotations=("EnableConfigServer",), route=None,
                      props="spring.cloud.config.server.git.uri=https://github.com/acme/config-repo\n"),
        **java_module("zipkin", "zipkin-server", route=None),
        **java_module("orders", "spring-cloud-starter-config", "spring-cloud-starter-sleuth-zipkin"),
        **java_module("stock", "spring-cloud-starter-zipkin", annotations=("EnableDiscoveryClient",),
                      props="spring.cloud.config.uri=http://localhost:8888\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("stock", "discovery"), ("stock", "config"), ("stock", "zipkin"), ("orders", "config")} <= e
    assert ("orders", "discovery") not in e  # no registry client: no edge
    assert ("config", "github.com") in e  # the config server's own backend
    assert via(model, "stock", "discovery") == {"service registry client"}
    assert model.components["discovery"].attributes["platform_role"] == "registry"


def test_role_client_without_or_with_several_servers() -> None:
    alone = resolve_files({"r": java_module("orders", "spring-cloud-starter-netflix-eureka-client")})
    assert edge_set(alone) <= {(a, "orders") for a in ("user",)}
    two = resolve_files({"r": {
        **java_module("reg-a", annotations=("EnableEurekaServer",), route=None),
        **java_module("reg-b", annotations=("EnableEurekaServer",), route=None),
        **java_module("orders", "spring-cloud-starter-netflix-eureka-client")}})
    assert not {t for s, t in edge_set(two) if s == "orders"}
    assert any("2 candidate servers" in u.value for u in two.unresolved)


def test_lookup_by_service_id_turbine_dashboard_and_hystrix_stream() -> None:
    files = {
        **java_module("customer"),
        "order/pom.xml": pom("order", "spring-cloud-netflix-hystrix-amqp"),
        "order/src/main/java/com/acme/order/Client.java": (
            "package com.acme.order;\npublic class Client {\n  String url() {\n"
            '    ServiceInstance i = loadBalancer.choose("CUSTOMER");\n    return i.getUri().toString();\n  }\n}\n'),
        "order/src/main/java/com/acme/order/OrderApplication.java": spring_app("com.acme.order", "OrderApplication", route="/o"),
        **java_module("turbine", "spring-cloud-netflix-turbine-amqp", annotations=("EnableTurbineAmqp",), route=None,
                      props="turbine.appConfig=order,customer\n"),
        **java_module("monitor", annotations=("EnableHystrixDashboard",), route=None),
        "docker-compose.yml": "services:\n  rabbitmq:\n    image: rabbitmq:3\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("order", "customer") in e and via(model, "order", "customer") == {"lookup by service id"}
    assert {("turbine", "order"), ("turbine", "customer"), ("monitor", "turbine")} <= e
    assert {("order", "rabbitmq"), ("turbine", "rabbitmq")} <= e


def test_host_named_by_a_literal_when_building_a_url_links_to_that_component() -> None:
    files = {
        **java_module("payment"), **java_module("shipping"),
        **java_module("orders"),
        "orders/src/main/java/com/example/orders/Uris.java": (
            "package com.example.orders;\npublic class Uris {\n"
            '  java.net.URI payment() { return new ServiceUri(new Hostname("payment"), "/paymentAuth").toUri(); }\n'
            '  java.net.URI ship() { return UriComponentsBuilder.newInstance().host("shipping").build().toUri(); }\n'
            '  String other() { return new Hostname("localhost").toString() + new Hostname("nosuchservice"); }\n'
            "}\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("orders", "payment"), ("orders", "shipping")} <= e
    assert via(model, "orders", "payment") == {"lookup by service id"}
    assert {t for s, t in e if s == "orders"} == {"payment", "shipping"}
    lines = {(ev.path, ev.line) for c in model.connections.values() if (c.source, c.target) == ("orders", "payment")
             for ev in c.evidence}
    assert ("orders/src/main/java/com/example/orders/Uris.java", 3) in lines


def test_data_access_starter_implies_a_store_unless_embedded_or_present() -> None:
    model = resolve_files({"r": {
        **java_module("movies", "spring-boot-starter-data-mongodb"),
        **java_module("users", "spring-boot-starter-data-jpa", "mysql-connector-java"),
        **java_module("prices", "spring-boot-starter-data-jpa", "mysql-connector-java", "h2"),
    }})
    assert model.components["movies-database"].attributes["technology"] == "mongodb"
    assert model.components["users-database"].attributes["technology"] == "mysql"
    assert "prices-database" not in model.components
    assert ("movies", "movies-database") in edge_set(model)
    shared = resolve_files({"r": {**java_module("movies", "spring-boot-starter-data-mongodb"),
                                  "docker-compose.yml": "services:\n  mongo:\n    image: mongo:6\n"}})
    assert ("movies", "mongo") in edge_set(shared) and "movies-database" not in shared.components


# ------------------------------------------------------------------ compose, browsers, mail, monitoring, variants
def test_depends_on_is_start_order_links_are_connections() -> None:
    model = resolve_files({"r": {"docker-compose.yml": (
        "services:\n  api:\n    image: acme/api\n    depends_on: [auth]\n    links: [cache]\n"
        "  auth:\n    image: acme/auth\n  cache:\n    image: acme/cache\n")}})
    assert ("api", "cache") in edge_set(model) and ("api", "auth") not in edge_set(model)


def test_front_end_javascript_calls_come_from_the_browser() -> None:
    files = {**java_module("gateway", "spring-cloud-starter-gateway", route=None),
             "gateway/src/main/resources/static/js/app.js":
                 'fetch("https://api.exchangerates.io/latest").then(r => r.json());\n'}
    model = resolve_files({"r": files})
    assert ("user", "api.exchangerates.io") in edge_set(model)
    assert ("gateway", "api.exchangerates.io") not in edge_set(model)
    assert via(model, "user", "api.exchangerates.io") == {"browser code"}


def test_script_outside_every_node_package_is_page_script() -> None:
    files = {
        "docker-compose.yml": ("services:\n  web:\n    build: ./cmd/web\n    ports: ['8888:8888']\n"
                               "  orders:\n    image: acme/orders:1\n    ports: ['5001:5001']\n"
                               "  tools:\n    build: ./tools\n"),
        "go.mod": "module example.com/shop\n\ngo 1.22\n",
        "cmd/web/Dockerfile": "FROM golang:1.22\nCMD [\"/web\"]\n",
        "cmd/web/main.go": ('package main\n\nimport "net/http"\n\nfunc main() {\n'
                            '\thttp.Handle("/", http.FileServer(http.Dir("app")))\n\thttp.ListenAndServe(":8888", nil)\n}\n'),
        "cmd/web/app/js/script.js": "const app = { url: 'http://localhost:5001' };\nfetch(app.url + '/orders');\n",
        "tools/Dockerfile": "FROM node:20\nCMD node index.js\n",
        "tools/package.json": '{"name": "tools", "dependencies": {"express": "^4"}}\n',
        "tools/index.js": "fetch('http://orders:5001/orders');\n",
    }
    model = resolve_files({"shop": files})
    e = edge_set(model)
    assert ("user", "orders") in e and via(model, "user", "orders") == {"browser code"}
    assert ("web", "orders") not in e
    assert ("tools", "orders") in e  # a Node package's code is the server's own


def test_mail_host_is_an_external_mail_server() -> None:
    model = resolve_files({"r": java_module("notify", props="spring.mail.host=smtp.mail.acme-mail.io\n")})
    assert model.components["smtp.mail.acme-mail.io"].kind == "external"
    assert ("notify", "smtp.mail.acme-mail.io") in edge_set(model)


def test_prometheus_scrape_targets_and_grafana_datasources() -> None:
    files = {
        **java_module("orders"),
        "docker/prometheus/Dockerfile": "FROM prom/prometheus\nCOPY prometheus.yml /etc/prometheus/\n",
        "docker/prometheus/prometheus.yml": ("scrape_configs:\n- job_name: orders\n  static_configs:\n"
                                             "  - targets: ['orders:8080']\n- job_name: self\n  static_configs:\n"
                                             "  - targets: ['localhost:9090']\n"),
        "docker/grafana/Dockerfile": "FROM grafana/grafana\n",
        "docker/grafana/provisioning/datasources/all.yml": ("apiVersion: 1\ndatasources:\n- name: P\n  type: prometheus\n"
                                                            "  url: http://prometheus-server:9090\n"),
        "docker-compose.yml": ("services:\n  orders:\n    build: ./orders\n  prometheus-server:\n    build: ./docker/prometheus\n"
                               "  grafana-server:\n    build: ./docker/grafana\n"),
    }
    model = resolve_files({"r": files})
    assert {("prometheus-server", "orders"), ("grafana-server", "prometheus-server")} <= edge_set(model)
    assert via(model, "prometheus-server", "orders") == {"prometheus scrape"}


def test_optional_kustomize_component_is_not_the_base_system() -> None:
    model = resolve_files({"r": {
        "k8s/base/api.yaml": k8s_deployment("api"),
        "k8s/components/tracing/collector.yaml": k8s_deployment("collector"),
        "k8s/components/tracing/kustomization.yaml": ("apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"
                                                      "resources:\n- collector.yaml\n")}})
    assert "api" in model.components and "collector" not in model.components


def test_shared_config_applies_a_role_setting_only_to_its_clients() -> None:
    shared = ("security:\n  oauth2:\n    resource:\n      user-info-uri: http://auth:5000/uaa/users/current\n"
              "eureka:\n  client:\n    serviceUrl:\n      defaultZone: http://registry:8761/eureka/\n")
    files = {
        **java_module("config", "spring-cloud-config-server", annotations=("EnableConfigServer",), route=None),
        "config/src/main/resources/shared/application.yml": shared,
        "config/src/main/resources/shared/accounts.yml": "server:\n  port: 6000\n",
        "config/src/main/resources/shared/monitor.yml": "server:\n  port: 8080\n",
        **java_module("auth", annotations=("EnableAuthorizationServer",)),
        **java_module("registry", annotations=("EnableEurekaServer",), route=None),
        **java_module("accounts", "spring-cloud-starter-config", "spring-cloud-starter-netflix-eureka-client",
                      annotations=("EnableResourceServer",)),
        **java_module("monitor", "spring-cloud-starter-config", annotations=("EnableHystrixDashboard",), route=None),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("accounts", "auth"), ("accounts", "registry"), ("accounts", "config"), ("monitor", "config")} <= e
    assert ("monitor", "auth") not in e and ("monitor", "registry") not in e
    assert model.components["auth"].attributes["platform_role"] == "auth"


# ------------------------------------------------------------------ .NET and Aspire
APPHOST = '''var builder = DistributedApplication.CreateBuilder(args);
var redis = builder.AddRedis("redis");
var bus = builder.AddRabbitMQ("eventbus");
var postgres = builder.AddPostgres("postgres");
var catalogDb = postgres.AddDatabase("catalogdb");
var identityApi = builder.AddProject<Projects.Identity_API>("identity-api").WithExternalHttpEndpoints();
var identityEndpoint = identityApi.GetEndpoint("https");
var catalogApi = builder.AddProject<Projects.Catalog_API>("catalog-api")
    .WithReference(bus).WaitFor(bus)
    .WithReference(catalogDb);
builder.AddProject<Projects.WebApp>("webapp")
    .WithExternalHttpEndpoints()
    .WithReference(catalogApi)
    .WithReference(redis)
    .WaitFor(identityApi)
    .WithEnvironment("IdentityUrl", identityEndpoint);
'''


def csproj(sdk: str = "Microsoft.NET.Sdk.Web", *refs: str) -> str:
    items = "".join(f'<ProjectReference Include="..\\\\{r}\\\\{r}.csproj" />' for r in refs)
    return f'<Project Sdk="{sdk}"><ItemGroup>{items}</ItemGroup></Project>\n'


def test_aspire_app_host_declares_components_stores_and_references() -> None:
    program = 'var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet("/items", () => "x");\napp.Run();\n'
    files = {
        "src/Shop.AppHost/Shop.AppHost.csproj": csproj("Aspire.AppHost.Sdk/9.0.0", "Catalog.API", "WebApp"),
        "src/Shop.AppHost/Program.cs": APPHOST,
        "src/Catalog.API/Catalog.API.csproj": csproj("Microsoft.NET.Sdk.Web", "Shop.ServiceDefaults"),
        "src/Catalog.API/Program.cs": program,
        "src/Identity.API/Identity.API.csproj": csproj("Microsoft.NET.Sdk.Web", "Shop.ServiceDefaults"),
        "src/Identity.API/Program.cs": program,
        "src/WebApp/WebApp.csproj": csproj("Microsoft.NET.Sdk.Web", "Shop.ServiceDefaults"),
        "src/WebApp/Program.cs": program,
        "src/Shop.ServiceDefaults/Shop.ServiceDefaults.csproj": csproj("Microsoft.NET.Sdk"),
        "src/Shop.ServiceDefaults/Extensions.cs": 'public static class X { public static void M(WebApplication app) { app.MapGet("/health", () => "ok"); } }\n',
        "package.json": '{"name": "shop", "devDependencies": {"@playwright/test": "1"}}\n',
        "playwright.config.ts": "export default {};\n",
    }
    model = resolve_files({"shop": files})
    kinds = {c.id: c.kind for c in model.components.values()}
    assert kinds == {"redis": "cache", "eventbus": "broker", "catalogdb": "database", "identity-api": "service",
                     "catalog-api": "service", "webapp": "service", "shop.servicedefaults": "library", "user": "user"}
    assert ("shop", "src/Catalog.API") in model.components["catalog-api"].source_roots
    e = edge_set(model)
    assert {("catalog-api", "eventbus"), ("catalog-api", "catalogdb"), ("webapp", "catalog-api"), ("webapp", "redis"),
            ("webapp", "identity-api"), ("user", "webapp"), ("user", "identity-api")} <= e
    assert ("webapp", "eventbus") not in e  # WaitFor orders start-up, it is not a connection
    assert via(model, "catalog-api", "catalogdb") == {"aspire WithReference"}


# ------------------------------------------------------------------ built strings and shared contexts
def test_compose_shared_context_uses_each_services_dockerfile_folder() -> None:
    files = {
        "docker-compose.yml": ("services:\n  basket:\n    build:\n      context: .\n      dockerfile: Services/Basket/Dockerfile\n"
                               "  catalog:\n    build:\n      context: .\n      dockerfile: Services/Catalog/Dockerfile\n"),
        "Services/Basket/Dockerfile": "FROM node:20\nCMD node server.js\n",
        "Services/Basket/server.js": 'const app = require("express")();\napp.get("/basket", (q, r) => r.send([]));\n',
        "Services/Catalog/Dockerfile": "FROM node:20\nCMD node server.js\n",
        "Services/Catalog/server.js": 'const app = require("express")();\napp.get("/items", (q, r) => r.send([]));\n',
    }
    model = resolve_files({"r": files})
    assert [ep.path for ep in model.components["basket"].ports["http"].endpoints] == ["/basket"]
    assert [ep.path for ep in model.components["catalog"].ports["http"].endpoints] == ["/items"]


def test_placeholders_are_filled_from_settings_or_defaults_never_become_hosts() -> None:
    files = {
        "docker-compose.yml": ("services:\n  api:\n    image: acme/api\n    environment:\n"
                               "      - EventBusConnection=${SERVICE_BUS:-rabbitmq}\n"
                               "      - ConnectionString=${DB:-Server=sqldata;Database=x}\n"
                               "  rabbitmq:\n    image: rabbitmq:3\n  sqldata:\n    image: mcr.microsoft.com/mssql/server\n"),
        **java_module("carts", props="spring.data.mongodb.uri=mongodb://${db:carts-db}:27017/data\n"),
        "carts/src/main/java/com/acme/Cfg.java": ('package com.acme;\npublic class Cfg {\n'
                                                  '  String u = String.format("http://%s:%d/x", host, port);\n}\n'),
        "docker-compose.carts.yml": "services:\n  carts-db:\n    image: mongo:6\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("api", "rabbitmq"), ("api", "sqldata"), ("carts", "carts-db")} <= e
    assert not {"s", "d", "%s"} & set(model.components)


def test_nginx_template_upstreams_resolve_through_the_images_env() -> None:
    files = {
        "web/Dockerfile": ("FROM nginx:1.25\nENV CATALOGUE_HOST=catalogue \\\n    CART_HOST=cart\n"
                           "COPY default.conf.template /etc/nginx/templates/\nEXPOSE 8080\n"),
        "web/default.conf.template": ("server {\n  location /api/catalogue/ {\n    proxy_pass http://${CATALOGUE_HOST}:8080/;\n  }\n"
                                      "  location /api/cart/ {\n    proxy_pass http://${CART_HOST}:8080/;\n  }\n}\n"),
        "docker-compose.yml": ("services:\n  web:\n    build: web\n    ports: ['8080:8080']\n"
                               "  catalogue:\n    image: acme/catalogue\n  cart:\n    image: acme/cart\n"),
    }
    model = resolve_files({"r": files})
    assert {("web", "catalogue"), ("web", "cart"), ("user", "web")} <= edge_set(model)


def test_shared_configmap_keys_count_for_workloads_that_read_them() -> None:
    env_from = "          envFrom:\n            - configMapRef:\n                name: addrs\n"
    files = {
        "k8s/config.yaml": ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: addrs\ndata:\n"
                            "  BALANCES_ADDR: balances:8080\n  CONTACTS_ADDR: contacts:8080\n"
                            "  SPRING_DATASOURCE_URL: jdbc:postgresql://ledger-db:5432/ledger\n"),
        "k8s/writer.yaml": k8s_deployment("writer", extra=env_from),
        "k8s/others.yaml": "---\n".join(k8s_deployment(n, extra=env_from) for n in ("balances", "contacts", "ledger-db")),
        "k8s/seed.yaml": ("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: seed-db\nspec:\n  template:\n    spec:\n"
                          "      containers:\n        - name: c\n          image: acme/seed:1\n"),
        "writer/Dockerfile": "FROM python:3.12\nCMD python app.py\n",
        "writer/app.py": 'import os\nBAL = os.environ.get("BALANCES_ADDR")\n',
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("writer", "balances") in e and ("writer", "contacts") not in e
    assert ("writer", "ledger-db") in e  # a data-store address is read by the driver, not by name
    assert "seed-db" not in model.components  # a Job runs once: a task, not a component


def test_test_and_ci_compose_variants_are_not_the_architecture() -> None:
    model = resolve_files({"r": {"docker-compose.yml": "services:\n  api:\n    image: acme/api\n",
                                 "docker-compose-tests.override.yml": "services:\n  api-functional-test:\n    image: acme/t\n"}})
    assert "api-functional-test" not in model.components


# ------------------------------------------------------------------ mounts, two deployments, user interfaces, RPC
def test_bind_mounted_config_belongs_to_the_service_that_mounts_it() -> None:
    files = {
        "docker-compose.yml": ("services:\n  apigw:\n    image: envoyproxy/envoy:v1.29\n    volumes:\n"
                               "      - ./gateways/envoy:/etc/envoy\n      - ./src:/app\n  basket:\n    image: acme/basket\n"),
        "gateways/envoy/envoy.yaml": ("static_resources:\n  clusters:\n  - name: basket\n    load_assignment:\n"
                                      "      endpoints:\n      - lb_endpoints:\n        - endpoint:\n            address:\n"
                                      "              socket_address:\n                address: basket\n                port_value: 80\n"),
        "src/app.py": "print(1)\n",
    }
    model = resolve_files({"r": files})
    assert ("apigw", "basket") in edge_set(model)
    assert ("r", "src") not in model.components["apigw"].source_roots  # a code mount is not configuration


def test_infrastructure_in_compose_and_kubernetes_is_one_component() -> None:
    files = {
        "docker-compose.yml": "services:\n  kafka:\n    image: eventuateio/eventuate-kafka:1\n  orders:\n    image: acme/orders\n",
        "k8s/kafka.yml": k8s_deployment("shop-kafka", "confluentinc/cp-kafka:5"),
        "k8s/orders.yml": k8s_deployment("shop-orders", "acme/orders:2"),
    }
    model = resolve_files({"r": files})
    assert sorted(c.id for c in model.components.values() if c.kind != "user") == ["kafka", "orders"]
    assert {"shop-kafka", "shop-orders"} <= model.components["kafka"].aliases | model.components["orders"].aliases


def test_user_interfaces_are_front_doors_beside_gateways() -> None:
    files = {
        "docker-compose.yml": ("services:\n  proxy:\n    image: nginx\n    ports: ['80:80']\n  web:\n    build: ./web\n"
                               "    ports: ['3000:3000']\n  api:\n    build: ./api\n    ports: ['8080:8080']\n"),
        "web/package.json": '{"name": "web", "dependencies": {"express": "4", "serve-static": "1"}}\n',
        "web/server.js": 'const app = require("express")();\napp.get("/", (q, r) => r.send("ui"));\n',
        "api/package.json": '{"name": "api", "dependencies": {"express": "4"}}\n',
        "api/server.js": 'const app = require("express")();\napp.get("/x", (q, r) => r.send("x"));\n',
    }
    model = resolve_files({"r": files})
    assert {t for s, t in edge_set(model) if s == "user"} == {"proxy", "web"}
    assert model.components["web"].attributes["platform_role"] == "ui"


def test_rpc_proxy_by_service_name() -> None:
    files = {
        "gateway/service.py": 'from nameko.rpc import RpcProxy\n\nclass Gateway:\n    name = "gateway"\n    orders = RpcProxy("orders")\n',
        "gateway/Dockerfile": "FROM python:3.12\nCMD nameko run gateway.service\n",
        "orders/service.py": 'class Orders:\n    name = "orders"\n',
        "orders/Dockerfile": "FROM python:3.12\nCMD nameko run orders.service\n",
        "docker-compose.yml": "services:\n  gateway:\n    build: ./gateway\n  orders:\n    build: ./orders\n",
    }
    model = resolve_files({"r": files})
    assert ("gateway", "orders") in edge_set(model)
    assert next(c.protocol for c in model.connections.values() if (c.source, c.target) == ("gateway", "orders")) == "amqp"


def test_compose_env_file_template_feeds_the_services_that_read_its_keys() -> None:
    files = {
        "docker-compose.yml": ("services:\n  gateway:\n    build: ./gateway\n    env_file:\n      - .env\n"
                               "  task:\n    build: ./task\n    env_file: .env\n  db:\n    image: mongo:6\n"),
        ".env.example": "TASK_SERVICE_HOST=task\nMONGO_DSN=mongodb://u:p@db:27017/x\n",
        "gateway/package.json": '{"name": "gateway", "dependencies": {"@nestjs/core": "10"}}\n',
        "gateway/main.ts": "const host = process.env.TASK_SERVICE_HOST;\nconsole.log(host);\n",
        "task/package.json": '{"name": "task", "dependencies": {"mongoose": "8"}}\n',
        "task/main.ts": "const dsn = process.env.MONGO_DSN;\nconsole.log(dsn);\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("gateway", "task"), ("task", "db")} <= e
    assert ("gateway", "db") not in e and ("task", "task") not in e


def test_pdo_dsn_and_placeholder_after_credentials() -> None:
    files = {
        "ratings/index.php": '<?php\n$pdo = new PDO("mysql:host=mysql;dbname=ratings", "u", "p");\n',
        "ratings/composer.json": '{"name": "acme/ratings"}\n',
        "dispatch/main.go": ('package main\n\nimport "fmt"\n\nfunc main() {\n'
                             '\turi := fmt.Sprintf("amqp://guest:guest@%s:5672/", host)\n\tfmt.Println(uri)\n}\n'),
        "dispatch/go.mod": "module example.com/dispatch\n\ngo 1.22\n",
        "docker-compose.yml": ("services:\n  ratings:\n    build: ./ratings\n  dispatch:\n    build: ./dispatch\n"
                               "  mysql:\n    image: mysql:8\n"),
    }
    model = resolve_files({"r": files})
    assert ("ratings", "mysql") in edge_set(model)
    assert "guest" not in model.components


def test_compose_variant_files_are_opt_in_and_one_image_many_instances() -> None:
    files = {
        "docker-compose.yml": ("services:\n  accounts:\n    image: acme/shop-accounts\n  accounts-db:\n    image: acme/shop-mongodb\n"
                               "  stats-db:\n    image: acme/shop-mongodb\n"),
        "docker-compose.override.yml": "services:\n  accounts:\n    ports: ['6000:6000']\n",
        "docker-compose.elk.yml": "services:\n  kibana:\n    image: kibana:8\n  logstash:\n    build: ./elk/logstash\n",
        "elk/logstash/Dockerfile": "FROM logstash:8\nCOPY pipeline.conf /usr/share/logstash/pipeline/\n",
        "mongodb/Dockerfile": "FROM mongo:6\nCOPY init.js /docker-entrypoint-initdb.d/\n",
        "accounts/package.json": '{"name": "accounts"}\n',
        "accounts/server.js": 'const app = require("express")();\napp.get("/a", (q, r) => r.send(1));\n',
    }
    model = resolve_files({"r": files})
    assert "kibana" not in model.components and "logstash" not in model.components
    assert model.components["accounts-db"].kind == "database" and model.components["stats-db"].kind == "database"
    assert "mongodb" not in model.components


def test_key_names_the_technology_and_go_mysql_dsn() -> None:
    files = {
        **java_module("queue-master", props="spring.rabbitmq.host=rabbitmq\n"),
        "catalogue/go.mod": "module example.com/catalogue\n\ngo 1.22\n",
        "catalogue/main.go": ('package main\n\nimport "flag"\n\nfunc main() {\n'
                              '\tdsn := flag.String("DSN", "u:pw@tcp(catalogue-db:3306)/socksdb", "dsn")\n\t_ = dsn\n}\n'),
    }
    model = resolve_files({"r": files})
    assert model.components["rabbitmq"].kind == "broker"
    assert model.components["catalogue-db"].attributes["technology"] == "mysql"
    assert {("queue-master", "rabbitmq"), ("catalogue", "catalogue-db")} <= edge_set(model)


def test_repository_code_belongs_to_the_deployment_named_like_it() -> None:
    files = {
        "docker-compose.yml": "services:\n  catalogue:\n    image: acme/catalogue\n  catalogue-db:\n    image: mysql:8\n",
        "docker/catalogue-db/Dockerfile": "FROM mysql:8\nCOPY dump.sql /docker-entrypoint-initdb.d/\n",
        "cmd/svc/main.go": ('package main\n\nimport "flag"\n\nfunc main() {\n'
                            '\tdsn := flag.String("DSN", "u:pw@tcp(catalogue-db:3306)/socks", "dsn")\n\t_ = dsn\n}\n'),
    }
    model = resolve_files({"catalogue": files})
    assert ("catalogue", "catalogue-db") in edge_set(model)


def test_an_images_default_environment_links_but_never_introduces() -> None:
    files = {
        "Dockerfile": "FROM golang:1.22\nENV MONGO_HOST=mytestdb:27017 CART_URL=http://cart:80\nCMD ./user\n",
        "main.go": 'package main\n\nimport "os"\n\nfunc main() { _ = os.Getenv("MONGO_HOST"); _ = os.Getenv("CART_URL") }\n',
        "go.mod": "module example.com/user\n\ngo 1.22\n",
        "docker-compose.yml": "services:\n  cart:\n    image: acme/cart\n",
    }
    model = resolve_files({"user": files})
    assert "mytestdb" not in model.components


def test_localhost_port_is_the_module_serving_that_port_and_profiles_do_not_introduce() -> None:
    files = {
        **java_module("registry", annotations=("EnableEurekaServer",), route=None, props="server.port=8761\n"),
        **java_module("reports", props="server.port=9999\n"),
        **java_module("orders", props="server.port=8080\nreports.url=http://localhost:9999/r\n"
                                      "eureka.client.serviceUrl.defaultZone=http://localhost:8761/eureka/\n"),
        "orders/src/main/resources/application-docker.properties": "inventory.url=http://inventory-svc:8080/x\n",
    }
    model = resolve_files({"r": files})
    assert {("orders", "registry"), ("orders", "reports")} <= edge_set(model)
    assert "inventory-svc" not in model.components  # a non-default profile links, it does not introduce


def test_spring_boot_main_class_of_any_name_is_an_entry_point() -> None:
    files = {"worker/pom.xml": pom("worker"),
             "worker/src/main/java/com/acme/worker/OrderApp.java": spring_app("com.acme.worker", "OrderApp")}
    model = resolve_files({"r": files})
    assert "worker" in model.components


def test_log_shipping_to_the_log_sink() -> None:
    files = {
        **java_module("orders"),
        "orders/src/main/resources/logback-spring.xml": (
            '<configuration>\n  <appender name="LS" class="net.logstash.logback.appender.LogstashTcpSocketAppender">\n'
            "    <destination>logstash:5000</destination>\n  </appender>\n</configuration>\n"),
        "beats/Dockerfile": "FROM docker.elastic.co/beats/filebeat:8.0.0\nCOPY filebeat.yml /usr/share/filebeat/\n",
        "beats/filebeat.yml": "filebeat.inputs: []\noutput.logstash:\n  hosts: [\"logstash:5044\"]\n",
        "docker-compose.yml": ("services:\n  orders:\n    build: ./orders\n  filebeat:\n    build: ./beats\n"
                               "  logstash:\n    image: docker.elastic.co/logstash/logstash:8.0.0\n"),
    }
    model = resolve_files({"r": files})
    assert {("orders", "logstash"), ("filebeat", "logstash")} <= edge_set(model)
    assert via(model, "orders", "logstash") == {"log shipping (logback)"}


def test_built_urls_resolve_the_argument_that_fills_the_host() -> None:
    files = {
        "orders/Main.java": ('package x;\npublic class Main {\n  String u() { return rest.getForObject(String.format('
                             '"http://%s/payments", System.getenv("PAYMENT_HOST", "payment")), String.class); }\n}\n'),
        "orders/pom.xml": pom("orders"),
        "web/server.js": ('const axios = require("axios");\nconst HOST = "catalogue";\n'
                          'async function f() { return axios.get(`http://${HOST}/items`); }\n'),
        "web/package.json": '{"name": "web"}\n',
        "go/main.go": ('package main\n\nimport ("fmt"; "net/http")\n\nfunc f(host string) {\n'
                       '\thttp.Get(fmt.Sprintf("http://%s/x", host))\n}\n'),
        "go/go.mod": "module example.com/g\n\ngo 1.22\n",
        "docker-compose.yml": ("services:\n  payment:\n    image: acme/payment\n  catalogue:\n    image: acme/catalogue\n"
                               "  orders:\n    build: ./orders\n  web:\n    build: ./web\n  g:\n    build: ./go\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("orders", "payment"), ("web", "catalogue")} <= e
    assert not {t for s, t in e if s == "g"} and not {"s", "x", "host"} & set(model.components)


def test_config_server_local_backend_is_a_config_repository() -> None:
    files = {**java_module("config", "spring-cloud-config-server", annotations=("EnableConfigServer",), route=None,
                           props="spring.cloud.config.server.git.uri=file://${user.home}/config-repo\n")}
    model = resolve_files({"r": files})
    assert model.components["config-repository"].kind == "external"
    assert ("config", "config-repository") in edge_set(model)


def test_native_config_backend_counts_only_under_the_native_profile() -> None:
    props = "spring.cloud.config.server.native.search-locations=file:///srv/config\n"
    off = resolve_files({"r": java_module("config", annotations=("EnableConfigServer",), route=None, props=props)})
    on = resolve_files({"r": java_module("config", annotations=("EnableConfigServer",), route=None,
                                         props=props + "spring.profiles.active=native\n")})
    assert "config-repository" not in off.components and "config-repository" in on.components


def test_zuul_route_named_for_a_service_id_reaches_that_service() -> None:
    """``zuul.routes.<id>: /path/**`` (and a route with only a ``path``) routes to the service whose id
    the route is named for; a route with its own ``url`` or ``serviceId`` follows that value instead."""
    files = {
        **java_module("edge", "spring-cloud-starter-netflix-zuul", "spring-cloud-starter-netflix-eureka-client",
                      annotations=("EnableZuulProxy",), route=None),
        "edge/src/main/resources/application.yml": (
            "spring:\n  application:\n    name: edge\nzuul:\n  ignored-services: '*'\n  routes:\n"
            "    orders: /orders/**\n    stock:\n      path: /stock/**\n    legacy:\n      path: /old/**\n"
            "      serviceId: payment\n"),
        **java_module("orders", "spring-cloud-starter-netflix-eureka-client"),
        **java_module("stock", "spring-cloud-starter-netflix-eureka-client"),
        **java_module("payment", "spring-cloud-starter-netflix-eureka-client"),
        **java_module("legacy", "spring-cloud-starter-netflix-eureka-client"),
        **java_module("other", "spring-cloud-starter-netflix-eureka-client"),
        **java_module("registry", annotations=("EnableEurekaServer",), route=None),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("edge", "orders"), ("edge", "stock"), ("edge", "payment")} <= e
    assert ("edge", "legacy") not in e and ("edge", "other") not in e  # its serviceId wins; ignored services
    assert via(model, "edge", "orders") == {"zuul route named for the service"}
    lines = {ev.line for c in model.connections.values() if (c.source, c.target) == ("edge", "orders")
             for ev in c.evidence}
    assert 7 in lines


def test_private_network_address_is_a_machine_like_localhost() -> None:
    """``192.168.99.100`` (a docker-machine VM, a LAN host) in a URL is a machine that runs the system,
    not a component: the port says which component it reaches.  With no port served there, a store
    its scheme or standard port names (Redis on 6379) is that store, running on the machine; any
    other address is unresolved."""
    files = {
        **java_module("orders", "mysql-connector-java", props=(
            "spring.datasource.url=jdbc:mysql://192.168.99.100:3306/dev\n"
            "reports.url=http://10.0.0.7:9999/r\nspring.redis.host=172.17.0.1\n"
            "billing.url=http://10.0.0.8:7777/b\n")),
        **java_module("reports", props="server.port=9999\n"),
        "docker-compose.yml": "services:\n  mysql:\n    image: mysql:5.7\n    ports:\n      - 3306:3306\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("orders", "mysql"), ("orders", "reports"), ("orders", "redis")} <= e
    assert model.components["redis"].attributes["host"] == "172.17.0.1"
    assert not {"192.168.99.100", "10.0.0.7", "10.0.0.8", "172.17.0.1"} & set(model.components)
    assert any("10.0.0.8:7777" in u.value for u in model.unresolved)


def test_server_starter_without_its_enable_annotation_is_not_the_server() -> None:
    """A Spring Cloud server starts with its ``@Enable...`` annotation, not with the starter on the
    classpath: a service whose main class we read and that carries the Turbine starter but no
    ``@EnableTurbine`` is no Turbine, so the Hystrix dashboard does not read from it."""
    files = {
        **java_module("catalog", "spring-cloud-starter-turbine", "spring-cloud-starter-hystrix"),
        **java_module("monitor", annotations=("EnableHystrixDashboard",), route=None),
        **java_module("registry", "spring-cloud-starter-eureka-server", route=None),
        **java_module("turbine", "spring-cloud-starter-turbine", annotations=("EnableTurbine",), route=None),
    }
    model = resolve_files({"r": files})
    assert "platform_role" not in model.components["catalog"].attributes
    assert "platform_role" not in model.components["registry"].attributes
    assert model.components["turbine"].attributes["platform_role"] == "turbine"
    assert ("monitor", "turbine") in edge_set(model) and ("monitor", "catalog") not in edge_set(model)


def test_yaml_profile_documents_count_only_when_something_activates_them() -> None:
    """A ``---`` document under ``spring.config.activate.on-profile: kafka`` (or legacy
    ``spring.profiles: kafka``) configures an opt-in profile: it links to what the system has but
    introduces nothing.  A profile the file itself activates (``spring.profiles.active``) or the
    deployment activates (``SPRING_PROFILES_ACTIVE=docker``) is the running configuration."""
    yml = ("spring:\n  application:\n    name: orders\n  profiles:\n    active: dev\n"
           "---\nspring:\n  profiles: dev\n  redis:\n    host: cache\n"
           "---\nspring.config.activate.on-profile: docker\nspring.data.mongodb.host: orders-db\n"
           "---\nspring.config.activate.on-profile: kafka\nspring.kafka.bootstrap-servers: kafka:9092\n"
           "---\nspring.config.activate.on-profile: test\nstock.url: http://stock:8080\n")
    files = {**java_module("orders"), **java_module("stock"),
             "orders/src/main/resources/application.yml": yml}
    alone = resolve_files({"r": files})
    assert "kafka" not in alone.components and "orders-db" not in alone.components
    assert ("orders", "cache") in edge_set(alone)  # the profile the file activates is its default
    assert ("orders", "stock") in edge_set(alone)  # an opt-in profile still links to what exists
    deployed = resolve_files({"r": {**files, "docker-compose.yml": (
        "services:\n  orders:\n    build: ./orders\n    environment:\n      - SPRING_PROFILES_ACTIVE=docker\n"
        "  stock:\n    build: ./stock\n")}})
    assert "kafka" not in deployed.components
    assert deployed.components["orders-db"].attributes["technology"] == "mongodb"
    assert ("orders", "orders-db") in edge_set(deployed)
    flagged = resolve_files({"r": {**files, "orders/Dockerfile": (
        'FROM eclipse-temurin:17\nCOPY target/orders.jar app.jar\n'
        'ENTRYPOINT ["java", "-Dspring.profiles.active=docker", "-jar", "/app.jar"]\n')}})
    assert ("orders", "orders-db") in edge_set(flagged) and "kafka" not in flagged.components


def test_a_setting_other_settings_interpolate_links_where_it_is_used() -> None:
    """``app.auth-server: auth`` in a configuration repository's shared ``application.yml`` is a
    variable: it links the services whose settings use it (``issuer-uri: http://${app.auth-server}:9999``),
    not every service the shared file configures."""
    client = "spring.config.import=configserver:http://config:8888\n"
    files = {
        **java_module("config", "spring-cloud-config-server", annotations=("EnableConfigServer",), route=None),
        **java_module("auth", props=client), **java_module("orders", props=client),
        **java_module("stock", props=client),
        "config-repo/application.yml": "app:\n  auth-server: auth\n",
        "config-repo/orders.yml": "spring.security.oauth2.resourceserver.jwt.issuer-uri: http://${app.auth-server}:9999\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("orders", "auth") in e
    assert ("stock", "auth") not in e
    lines = {(ev.path, ev.line) for c in model.connections.values() if (c.source, c.target) == ("orders", "auth")
             for ev in c.evidence}
    assert ("config-repo/orders.yml", 1) in lines


def test_config_repository_files_with_dotted_top_level_keys_are_spring_config() -> None:
    """``product.yml`` in a configuration repository written with dotted keys (``server.port: 7001``,
    ``spring.data.mongodb:``) is Spring configuration for ``product`` like one written as nested maps."""
    client = "spring.config.import=configserver:http://config:8888\n"
    files = {
        **java_module("config", "spring-cloud-config-server", annotations=("EnableConfigServer",), route=None),
        **java_module("product", props=client), **java_module("composite", props=client),
        **java_module("gateway", "spring-cloud-starter-gateway", route=None, props=client),
        "config-repo/product.yml": "server.port: 7001\nserver.error.include-message: always\n\nspring.data.mongodb:\n  host: mongodb\n",
        "config-repo/gateway.yml": ("server.port: 8443\n\nspring.cloud.gateway.routes:\n\n- id: composite\n"
                                    "  uri: lb://composite\n  predicates:\n  - Path=/product-composite/**\n"),
        "docker-compose.yml": "services:\n  mongodb:\n    image: mongo:6\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert {("product", "mongodb"), ("gateway", "composite")} <= e
    assert via(model, "product", "mongodb") == {"env spring.data.mongodb.host"}


def test_browser_redirect_urls_are_not_calls() -> None:
    """OAuth redirect and authorization URLs are where the user's browser is sent
    (``redirect-uri``, ``userAuthorizationUri``, springdoc's ``authorizationUrl``, a client registration's
    ``.redirectUri("https://localhost:8443/...")``), not calls the component makes; the token endpoint is one."""
    files = {
        **java_module("gateway", "spring-cloud-starter-gateway", route=None, props="server.port=8443\n"),
        **java_module("auth", props="server.port=9999\n"),
        **java_module("web", props=(
            "security.oauth2.client.userAuthorizationUri=http://localhost:9999/oauth/authorize\n"
            "springdoc.oAuthFlow.authorizationUrl=https://localhost:8443/oauth2/authorize\n"
            "springdoc.oAuthFlow.tokenUrl=https://localhost:8443/oauth2/token\n"
            "spring.security.oauth2.client.registration.x.redirect-uri=https://localhost:8443/login\n")),
        **java_module("api", props="security.oauth2.client.accessTokenUri=http://localhost:9999/oauth/token\n"),
        "auth/src/main/java/com/example/auth/Clients.java": (
            "package com.example.auth;\nclass Clients {\n  Object c() {\n    return RegisteredClient.withId(\"x\")\n"
            "      .redirectUri(\"https://localhost:8443/swagger-ui/oauth2-redirect.html\").build();\n  }\n}\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("api", "auth") in e
    assert not {t for s, t in e if s == "web"} and ("auth", "gateway") not in e


def test_kotlin_spring_boot_apps_and_enable_annotations() -> None:
    """A Kotlin ``@SpringBootApplication`` is an entry point and its ``@EnableEurekaServer`` makes it the
    registry, as in Java; a Kotlin ``loadBalancer.choose("stock")`` looks the service up by id."""
    def kt_module(name: str, body: str, *deps: str) -> dict[str, str]:
        lines = "".join(f'  implementation("org.springframework.cloud:{d}")\n' for d in deps)
        return {f"{name}/build.gradle.kts": ('plugins { id("org.springframework.boot") version "3.1.0" }\n'
                                             f"dependencies {{\n{lines}}}\n"),
                f"{name}/src/main/kotlin/com/acme/{name}/App.kt": f"package com.acme.{name}\n\n{body}"}
    files = {
        **kt_module("registry", "@SpringBootApplication\n@EnableEurekaServer\nclass RegistryApplication\n\n"
                                "fun main(args: Array<String>) {\n  runApplication<RegistryApplication>(*args)\n}\n"),
        **kt_module("stock", "@SpringBootApplication\nclass StockApplication\n", "spring-cloud-starter-netflix-eureka-client"),
        **kt_module("orders", "@SpringBootApplication\nclass OrdersApplication\n\nclass Client {\n"
                              '  fun url() = loadBalancer.choose("stock").uri\n}\n', "spring-cloud-starter-netflix-eureka-client"),
    }
    model = resolve_files({"r": files})
    assert model.components["registry"].attributes["platform_role"] == "registry"
    e = edge_set(model)
    assert {("orders", "registry"), ("stock", "registry"), ("orders", "stock")} <= e
    assert via(model, "orders", "stock") == {"lookup by service id"}


def test_a_bare_name_links_only_under_a_key_that_names_a_host() -> None:
    """A bare component name is a host only when the key's own name says so (``spring.redis.host``,
    ``app.auth-server``): ``management.endpoints.web.exposure.include: [health, prometheus]`` lists
    actuator endpoints, not the Prometheus server.  A Feign client named by a placeholder
    (``@FeignClient("${stock.service.name}")``) reaches the service the setting names."""
    yml = ("spring:\n  application:\n    name: orders\nmanagement:\n  endpoints:\n    web:\n      exposure:\n"
           "        include:\n          - health\n          - prometheus\nstock:\n  service:\n    name: stock\n")
    files = {
        **java_module("orders", "spring-cloud-starter-openfeign"), **java_module("stock"),
        "orders/src/main/resources/application.yml": yml,
        "orders/src/main/java/com/example/orders/StockClient.java": (
            'package com.example.orders;\n@FeignClient(value = "${stock.service.name}")\ninterface StockClient {\n'
            '  @GetMapping("/x") String x();\n}\n'),
        "docker-compose.yml": "services:\n  prometheus:\n    image: prom/prometheus\n  orders:\n    build: ./orders\n"
                              "  stock:\n    build: ./stock\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("orders", "prometheus") not in e
    assert ("orders", "stock") in e and via(model, "orders", "stock") == {"feign client"}


def test_a_tool_named_after_a_registry_is_not_the_registry() -> None:
    """``jhipster/consul-config-loader`` loads configuration into Consul; only the ``consul`` image is
    the registry its clients reach."""
    files = {**java_module("orders", "spring-cloud-starter-consul-discovery"),
             **java_module("stock", "spring-cloud-starter-consul-config"),  # configuration kept in Consul
             "docker-compose.yml": ("services:\n  consul:\n    image: hashicorp/consul:1.15\n"
                                    "  consul-config-loader:\n    image: jhipster/consul-config-loader:v0.4.1\n"
                                    "    environment:\n      - CONSUL_URL=consul\n  orders:\n    build: ./orders\n")}
    model = resolve_files({"r": files})
    assert "platform_role" not in model.components["consul-config-loader"].attributes
    assert ("orders", "consul") in edge_set(model) and ("consul-config-loader", "consul") in edge_set(model)
    assert ("stock", "consul") in edge_set(model)


def test_stream_default_binder_and_declared_binders_choose_the_broker() -> None:
    """With both binders on the classpath, ``spring.cloud.stream.defaultBinder: kafka`` says which
    broker the bindings use; a binder declared by type (``binders.b1.type: rabbit``) reaches that broker."""
    files = {
        **java_module("orders", "spring-cloud-stream", "spring-cloud-stream-binder-rabbit", "spring-cloud-stream-binder-kafka",
                      props="spring.cloud.stream.defaultBinder=kafka\n"),
        **java_module("stock", "spring-cloud-stream", props="spring.cloud.stream.binders.b1.type=rabbit\n"),
        "docker-compose.yml": "services:\n  rabbitmq:\n    image: rabbitmq:3\n  kafka:\n    image: bitnami/kafka:3\n",
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("orders", "kafka") in e and ("orders", "rabbitmq") not in e
    assert ("stock", "rabbitmq") in e and ("stock", "kafka") not in e


def test_spring_cloud_gateway_2025_property_names() -> None:
    """Spring Cloud Gateway's newer keys (``spring.cloud.gateway.server.webflux.routes``,
    ``spring.cloud.gateway.mvc.routes``, ``...server.webflux.discovery.locator.enabled``) declare
    routes and the discovery locator like the old ones."""
    reg = "spring-cloud-starter-netflix-eureka-client"
    base = {**java_module("orders", reg), **java_module("stock", reg),
            **java_module("registry", annotations=("EnableEurekaServer",), route=None)}
    routed = resolve_files({"r": {**base, **java_module("edge", reg, route=None, props=(
        "spring.cloud.gateway.mvc.routes[0].id=o\nspring.cloud.gateway.mvc.routes[0].uri=lb://orders\n"))}})
    assert routed.components["edge"].kind == "gateway"
    assert ("edge", "orders") in edge_set(routed) and ("edge", "stock") not in edge_set(routed)
    located = resolve_files({"r": {**base, **java_module("edge", "spring-cloud-starter-gateway-server-webflux", reg, route=None,
                                                         props="spring.cloud.gateway.server.webflux.discovery.locator.enabled=true\n")}})
    assert {("edge", "orders"), ("edge", "stock")} <= edge_set(located)


def test_log_shipping_destination_with_a_default() -> None:
    """``<destination>${LOGSTASH_HOST:-logstash:5000}</destination>`` and a ``<springProperty ...
    defaultValue="logstash"/>`` filling ``${host}`` ship logs to the default host."""
    appender = ('<configuration>\n{prop}  <appender name="LS" class="net.logstash.logback.appender.LogstashTcpSocketAppender">\n'
                "    <destination>{dest}</destination>\n  </appender>\n</configuration>\n")
    files = {
        **java_module("orders"), **java_module("stock"),
        "orders/src/main/resources/logback-spring.xml": appender.format(prop="", dest="${LOGSTASH_HOST:-logstash:5000}"),
        "stock/src/main/resources/logback-spring.xml": appender.format(
            prop='  <springProperty scope="context" name="host" source="logstash.host" defaultValue="logstash"/>\n',
            dest="${host}:5000"),
        "docker-compose.yml": "services:\n  logstash:\n    image: logstash:8.0.0\n",
    }
    model = resolve_files({"r": files})
    assert {("orders", "logstash"), ("stock", "logstash")} <= edge_set(model)


def _aspnet(route: str) -> str:
    return (f'var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\n'
            f'app.MapGet("{route}", () => "[]");\napp.Run();\n')


def test_dotnet_gateways_yarp_and_ocelot_and_the_web_app_in_front_of_them() -> None:
    """YARP's ReverseProxy settings and Ocelot's routes make a gateway that calls the services they
    name; ports published only in docker-compose.override.yml still publish; the web app nobody
    calls that calls the gateway is a front door; a gRPC client's http:// address under a key naming
    gRPC is a gRPC call."""
    compose = "services:\n" + "".join(
        f"  {s}:\n    build:\n      context: .\n      dockerfile: {d}/Dockerfile\n"
        for s, d in (("catalog.api", "Catalog"), ("basket.api", "Basket"), ("discount.grpc", "Discount"),
                     ("yarpgateway", "Yarp"), ("ocelotgateway", "Ocelot"), ("shopping.web", "Web")))
    override = "services:\n" + "".join(
        f"  {s}:\n    ports:\n      - \"{p}:8080\"\n"
        for s, p in (("catalog.api", 6000), ("yarpgateway", 6004), ("shopping.web", 6005)))
    files = {
        "docker-compose.yml": compose,
        "docker-compose.override.yml": override,
        **{f"{d}/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n"
           for d in ("Catalog", "Basket", "Discount", "Yarp", "Ocelot", "Web")},
        **{f"{d}/{d}.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n' for d in ("Catalog", "Basket", "Web")},
        "Catalog/Program.cs": _aspnet("/products"),
        "Basket/Program.cs": _aspnet("/basket"),
        "Basket/appsettings.json": '{\n  "GrpcSettings": {\n    "DiscountUrl": "http://discount.grpc:8080"\n  }\n}\n',
        "Discount/Discount.csproj": ('<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
                                     '<PackageReference Include="Grpc.AspNetCore" Version="2.60.0" />'
                                     '</ItemGroup></Project>\n'),
        "Discount/Program.cs": ('var builder = WebApplication.CreateBuilder(args);\nvar app = builder.Build();\n'
                                'app.MapGrpcService<DiscountService>();\napp.Run();\n'),
        "Yarp/Yarp.csproj": ('<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
                             '<PackageReference Include="Yarp.ReverseProxy" Version="2.1.0" /></ItemGroup></Project>\n'),
        "Yarp/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.MapReverseProxy();\napp.Run();\n",
        "Yarp/appsettings.json": ('{\n  "ReverseProxy": {\n    "Routes": { "catalog": { "ClusterId": "catalog" } },\n'
                                  '    "Clusters": {\n      "catalog": {\n        "Destinations": {\n'
                                  '          "d1": { "Address": "http://catalog.api:8080" }\n        }\n      }\n    }\n  }\n}\n'),
        "Ocelot/Ocelot.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "Ocelot/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
        "Ocelot/ocelot.json": ('{\n  "Routes": [\n    {\n      "DownstreamPathTemplate": "/basket",\n'
                               '      "DownstreamScheme": "http",\n      "DownstreamHostAndPorts": [\n'
                               '        { "Host": "basket.api", "Port": 8080 }\n      ],\n'
                               '      "UpstreamPathTemplate": "/b"\n    }\n  ]\n}\n'),
        "Web/Program.cs": _aspnet("/"),
        "Web/appsettings.json": '{\n  "ApiSettings": {\n    "GatewayAddress": "http://yarpgateway:8080"\n  }\n}\n',
    }
    model = resolve_files({"shop": files})
    comps = {c.id: c for c in model.components.values()}
    assert comps["yarpgateway"].kind == "gateway"
    links = {(c.source, c.target): c for c in model.connections.values()}
    assert links[("yarpgateway", "catalog.api")].protocol == "http"
    assert {(e.path, e.line) for e in links[("yarpgateway", "catalog.api")].evidence} == {("Yarp/appsettings.json", 7)}
    assert ("Ocelot/ocelot.json", 7) in {(e.path, e.line) for e in links[("ocelotgateway", "basket.api")].evidence}
    assert links[("basket.api", "discount.grpc")].protocol == "grpc"
    assert ("shopping.web", "yarpgateway") in links
    # people open the web app; the gateway it calls is reached through it
    assert "shopping.web" in {t for s, t in links if s == "user"} and ("user", "yarpgateway") not in links
    assert ("user", "catalog.api") not in links  # behind the gateway


def test_service_ids_kept_in_an_enum_and_handed_to_calls_are_lookups() -> None:
    """enum Service { PERSISTENCE("shop.persistence") } in a shared client library, and services
    calling balancer.getEntity(Service.PERSISTENCE, ...): each caller reaches persistence (the
    component whose module folder is shop.persistence); the library's own helpers make no call."""
    client = ("package shop.client;\npublic enum Service {\n  PERSISTENCE(\"shop.persistence\"),\n"
              "  AUTH(\"shop.auth\");\n  Service(String n) {}\n}\n")
    helper = ("package shop.client;\nclass Ops {\n  static Object get() {\n"
              "    return Balancer.getEntity(Service.AUTH, \"users\");\n  }\n}\n")
    caller = ("package shop.{m};\nclass Rest {{\n  Object load() {{\n"
              "    return Balancer.getEntity(Service.PERSISTENCE, \"products\", Product.class);\n  }}\n}}\n")
    files = {
        "client/pom.xml": pom("client"),
        "client/src/main/java/shop/client/Service.java": client,
        "client/src/main/java/shop/client/Ops.java": helper,
        **{f"shop.{m}/pom.xml": pom(m, "client").replace("</artifactId>", "</artifactId><packaging>war</packaging>", 1)
           for m in ("webui", "persistence", "auth")},
        **{f"shop.{m}/src/main/java/shop/{m}/Rest.java": caller.format(m=m) for m in ("webui", "auth")},
        "shop.persistence/src/main/java/shop/persistence/Rest.java": "package shop.persistence;\nclass Rest {}\n",
    }
    model = resolve_files({"shop": files})
    assert {("webui", "persistence"), ("auth", "persistence")} <= edge_set(model)
    assert not {e for e in edge_set(model) if e[0] == "client" and e[1] != "client"} - {
        e for e in edge_set(model) if model.components[e[1]].kind == "library"}
    lines = {(e.path, e.line) for c in model.connections.values() if (c.source, c.target) == ("webui", "persistence")
             for e in c.evidence}
    assert lines == {("shop.webui/src/main/java/shop/webui/Rest.java", 4),
                     ("client/src/main/java/shop/client/Service.java", 3)}
    assert via(model, "webui", "persistence") == {"lookup by service id constant"}


def test_cpp_service_reads_the_address_of_another_by_its_name() -> None:
    """C++ services reading addresses from a shared service-config.json by service name
    (config_json["social-graph-service"]["addr"]) reach those services and stores."""
    files = {
        "docker-compose.yml": ("services:\n  user-service:\n    build: user\n  social-graph-service:\n    build: graph\n"
                               "  social-graph-redis:\n    image: redis:7\n"),
        "user/Dockerfile": "FROM ubuntu:22.04\nCMD [\"UserService\"]\n",
        "graph/Dockerfile": "FROM ubuntu:22.04\nCMD [\"SocialGraphService\"]\n",
        "user/UserService.cpp": ('#include "utils.h"\nint main() {\n'
                                 '  std::string addr = config_json["social-graph-service"]["addr"];\n}\n'),
        "graph/SocialGraphService.cpp": ('#include "utils.h"\nint main() {\n'
                                         '  std::string redis = config_json["social-graph-redis"]["addr"];\n}\n'),
    }
    model = resolve_files({"social": files})
    links = {(c.source, c.target): c for c in model.connections.values()}
    assert {(e.path, e.line) for e in links[("user-service", "social-graph-service")].evidence} == {
        ("user/UserService.cpp", 3)}
    assert links[("social-graph-service", "social-graph-redis")].protocol == "redis"


def test_published_services_behind_a_front_door_are_reached_through_it() -> None:
    """Kubernetes NodePort Services publish the web app, the APIs it calls (for testing), a log
    server and a mail catcher: people reach the web app; the APIs are reached through it; Seq and
    MailDev are operators' tools.  A status page polling health endpoints is no caller, and people
    sign in at the identity server's pages themselves."""
    def svc(name: str, port: int) -> str:
        return (f"apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  type: NodePort\n"
                f"  ports:\n  - port: {port}\n  selector:\n    app: {name}\n---\n")

    def deploy(name: str, image: str, env: dict[str, str] | None = None) -> str:
        envs = "".join(f"\n        - name: {k}\n          value: {v}" for k, v in (env or {}).items())
        return (f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n"
                f"    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n"
                f"      - name: {name}\n        image: {image}" + (f"\n        env:{envs}" if envs else "") + "\n---\n")
    manifests = (
        deploy("webapp", "acme/webapp", {"ORDERS_URL": "http://orders:5100", "IDENTITY_URL": "http://identity:5105"})
        + svc("webapp", 7005)
        + deploy("orders", "acme/orders", {"IDENTITY_URL": "http://identity:5105"}) + svc("orders", 5100)
        + deploy("identity", "acme/identity") + svc("identity", 5105)
        + deploy("status", "acme/status", {"HEALTH_CHECKS_URI": "http://webapp:7005/hc"}) + svc("status", 5107)
        + deploy("logserver", "datalust/seq:latest") + svc("logserver", 5341)
        + deploy("mailserver", "maildev/maildev:1.1.0") + svc("mailserver", 4000))
    files = {
        "k8s/app.yaml": manifests,
        "identity/Identity.csproj": ('<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
                                     '<PackageReference Include="Duende.IdentityServer" Version="7.0.0" />'
                                     '<PackageReference Include="Microsoft.AspNetCore.Mvc.Razor.RuntimeCompilation" '
                                     'Version="8.0.0" /></ItemGroup></Project>\n'),
        "identity/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    }
    model = resolve_files({"garage": files})
    doors = {t for s, t in edge_set(model) if s == "user"}
    assert "webapp" in doors and "identity" in doors and "status" in doors
    assert not doors & {"orders", "logserver", "mailserver"}


def test_traces_sent_through_a_broker_and_zookeeper_nodes() -> None:
    """``spring.zipkin.sender.type: rabbit`` sends spans through RabbitMQ, where Zipkin collects them: the
    service reaches the broker, not Zipkin.  A key ending in ``nodes`` holds hosts
    (``spring.cloud.stream.kafka.binder.zkNodes: zookeeper``)."""
    files = {
        **java_module("orders", "spring-cloud-starter-sleuth", "spring-cloud-sleuth-zipkin",
                      props="spring.zipkin.sender.type=rabbit\n"),
        **java_module("stock", "spring-cloud-starter-sleuth", "spring-cloud-sleuth-zipkin"),
        **java_module("billing", "spring-cloud-starter-stream-kafka",
                      props="spring.cloud.stream.kafka.binder.brokers=kafka\nspring.cloud.stream.kafka.binder.zkNodes=zookeeper\n"),
        "docker-compose.yml": ("services:\n  rabbitmq:\n    image: rabbitmq:3\n  zipkin:\n    image: openzipkin/zipkin\n"
                               "    environment:\n      - RABBIT_ADDRESSES=rabbitmq:5672\n"
                               "  kafka:\n    image: wurstmeister/kafka\n  zookeeper:\n    image: wurstmeister/zookeeper\n"),
    }
    model = resolve_files({"r": files})
    e = edge_set(model)
    assert ("orders", "rabbitmq") in e and ("orders", "zipkin") not in e
    assert via(model, "orders", "rabbitmq") == {"traces sent through the broker"}
    assert ("stock", "zipkin") in e and ("zipkin", "rabbitmq") in e
    assert {("billing", "kafka"), ("billing", "zookeeper")} <= e


def test_deployments_of_one_image_run_the_program_their_entrypoint_names() -> None:
    """One image built from the whole repository (a CMake project); each compose service starts one
    of its programs (entrypoint: UserService) and mounts a config folder: the service's code is the
    folder whose CMakeLists.txt builds that program, so the calls in it are the service's."""
    files = {
        "Dockerfile": "FROM ubuntu:22.04\nCOPY . /src\nRUN cmake /src && make\n",
        "CMakeLists.txt": "project(social)\nadd_subdirectory(src)\n",
        "docker-compose.yml": (
            "services:\n  user-service:\n    image: acme/social:latest\n    entrypoint: UserService\n"
            "    volumes:\n      - ./config:/social/config\n"
            "  social-graph-service:\n    image: acme/social:latest\n    entrypoint: SocialGraphService\n"
            "    volumes:\n      - ./config:/social/config\n"),
        "config/service-config.json": '{"user-service": {"addr": "user-service", "port": 9090}}\n',
        "src/UserService/CMakeLists.txt": "add_executable(\n    UserService\n    UserService.cpp\n)\n",
        "src/UserService/UserService.cpp": ('#include "../utils.h"\nint main() {\n'
                                            '  std::string a = config_json["social-graph-service"]["addr"];\n}\n'),
        "src/SocialGraphService/CMakeLists.txt": "add_executable(SocialGraphService SocialGraphService.cpp)\n",
        "src/SocialGraphService/SocialGraphService.cpp": "#include \"../utils.h\"\nint main() {}\n",
        "src/utils.h": "#pragma once\n",
    }
    model = resolve_files({"social": files})
    assert ("social", "src/UserService") in model.components["user-service"].source_roots
    assert ("src/UserService/CMakeLists.txt", 1) in {(e.path, e.line) for e in model.components["user-service"].evidence}
    assert ("user-service", "social-graph-service") in edge_set(model)


def test_aspire_app_host_and_compose_describing_the_same_services_give_one_component_each() -> None:
    """compose builds src/Flight (service `flight`, server `postgres`); the AppHost adds the same
    project as `flight-service` and `postgres.AddDatabase("flight")`: one flight component (also
    answering to flight-service) using a logical database `flight` on the one postgres server."""
    apphost = ('var builder = DistributedApplication.CreateBuilder(args);\n'
               'var postgres = builder.AddPostgres("postgres");\n'
               'var flightDb = postgres.AddDatabase("flight");\n'
               'var flight = builder.AddProject<Projects.Flight_Api>("flight-service")\n'
               '    .WithReference(flightDb);\n'
               'builder.Build().Run();\n')
    files = {
        "deploy/docker-compose.yml": ("services:\n  postgres:\n    image: postgres:16\n  flight:\n    build:\n"
                                      "      context: ../\n      dockerfile: src/Flight/Dockerfile\n"
                                      "    ports:\n      - \"5004:80\"\n"),
        "src/Flight/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
        "src/Flight/src/Flight.Api/Flight.Api.csproj": csproj(),
        "src/Flight/src/Flight.Api/Program.cs": ('var app = WebApplication.CreateBuilder(args).Build();\n'
                                                 'app.MapGet("/flights", () => "[]");\napp.Run();\n'),
        "src/AppHost/AppHost.csproj": csproj("Aspire.AppHost.Sdk/9.0.0", "Flight.Api"),
        "src/AppHost/Program.cs": apphost,
    }
    model = resolve_files({"booking": files})
    kinds = {c.id: c.kind for c in model.components.values()}
    assert kinds == {"postgres": "database", "flight": "service", "user": "user"}
    assert "flight-service" in model.components["flight"].aliases
    assert ("flight", "postgres") in edge_set(model)
    assert {p.id for p in model.parts.values() if p.kind == "database"} == {"postgres/flight"}


def test_opentelemetry_collector_exporters_and_localhost_otlp_endpoint() -> None:
    """The collector writes to the backends its pipelines' exporters name; a service sending to
    localhost:4317 (its development settings) reaches the component publishing 4317 on the host,
    although Tempo also listens on 4317 inside its container."""
    collector = ("receivers:\n  otlp:\n    protocols:\n      grpc:\n\nexporters:\n  otlp/jaeger:\n"
                 "    endpoint: \"http://jaeger:4317\"\n  zipkin:\n    endpoint: \"http://zipkin:9411/api/v2/spans\"\n"
                 "  prometheus:\n    endpoint: \"0.0.0.0:8889\"\n  otlp/unused:\n    endpoint: \"http://unused:4317\"\n\n"
                 "service:\n  pipelines:\n    traces:\n      receivers: [otlp]\n      exporters: [otlp/jaeger, zipkin]\n")
    files = {
        "docker-compose.yml": (
            "services:\n  otel-collector:\n    image: otel/opentelemetry-collector-contrib\n"
            "    volumes:\n      - ./configs/otel-collector-config.yaml:/etc/otelcol-contrib/config.yaml\n"
            "    ports:\n      - \"4317:4317\"\n"
            "  tempo:\n    image: grafana/tempo\n    ports:\n      - \"4317\"\n"
            "  jaeger:\n    image: jaegertracing/all-in-one\n  zipkin:\n    image: openzipkin/zipkin\n"
            "  unused:\n    image: acme/unused\n"
            "  api:\n    build: ./api\n"),
        "configs/otel-collector-config.yaml": collector,
        "api/Api.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "api/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
        "api/appsettings.json": '{\n  "Observability": {\n    "OtlpEndpoint": "http://localhost:4317"\n  }\n}\n',
    }
    model = resolve_files({"shop": files})
    e = edge_set(model)
    assert {("otel-collector", "jaeger"), ("otel-collector", "zipkin")} <= e
    assert ("otel-collector", "unused") not in e  # no pipeline uses that exporter
    assert ("api", "otel-collector") in e and ("api", "tempo") not in e
    assert via(model, "otel-collector", "jaeger") == {"OpenTelemetry collector exporter otlp/jaeger"}


def test_dapr_service_invocation_reaches_the_service_with_that_app_id() -> None:
    """Services call each other through their Dapr sidecars by app id: the compose daprd sidecar
    (-app-id order-processor, network_mode service:orders) and a pod's dapr.io/app-id annotation
    name the component; the sidecar is no component of its own."""
    files = {
        "docker-compose.yml": (
            "services:\n  orders:\n    build: ./orders\n"
            "  orders-dapr:\n    image: daprio/daprd:1.13\n"
            "    command: [\"./daprd\", \"-app-id\", \"order-processor\", \"-app-port\", \"8080\"]\n"
            "    network_mode: \"service:orders\"\n"
            "  web:\n    build: ./web\n    ports:\n      - \"80:8080\"\n"
            "  web-dapr:\n    image: daprio/daprd:1.13\n    network_mode: \"service:web\"\n"
            "  checkout:\n    build: ./checkout\n"),
        "k8s/checkout.yaml": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: checkout\nspec:\n  template:\n"
                              "    metadata:\n      annotations:\n        dapr.io/enabled: \"true\"\n"
                              "        dapr.io/app-id: \"checkout-app\"\n      labels:\n        app: checkout\n"
                              "    spec:\n      containers:\n      - name: checkout\n        image: acme/checkout\n"),
        "orders/app.py": "from flask import Flask\napp = Flask(__name__)\n",
        "checkout/app.py": "from flask import Flask\napp = Flask(__name__)\n",
        "web/Web.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "web/Program.cs": ('class P {\n  async Task M() {\n'
                           '    var o = await dapr.InvokeMethodAsync<Order>(HttpMethod.Post, "order-processor", "orders");\n'
                           '    var c = DaprClient.CreateInvokeHttpClient("checkout-app");\n  }\n}\n'),
    }
    model = resolve_files({"shop": files})
    # a sidecar whose command (its app id) another compose file gives is no component either
    assert not {"orders-dapr", "web-dapr"} & {c.id for c in model.components.values()}
    assert {("web", "orders"), ("web", "checkout")} <= edge_set(model)
    assert via(model, "web", "orders") == {"dapr service invocation"}
    assert {(e.path, e.line) for c in model.connections.values() if (c.source, c.target) == ("web", "orders")
            for e in c.evidence} == {("web/Program.cs", 3)}


def test_an_unscoped_dapr_pubsub_serves_the_apps_that_publish_or_subscribe() -> None:
    """A pub/sub component without ``scopes`` is open to every app, but only the apps whose code
    publishes or subscribes through Dapr (themselves, or through a shared event-bus library they
    depend on) use it; an app that never does (an identity server) is not linked to the broker."""
    sidecar = "  {0}-dapr:\n    image: daprio/daprd:1.9\n    command: [\"./daprd\", \"-app-id\", \"{0}\"]\n" \
              "    network_mode: \"service:{0}\"\n"
    files = {
        "docker-compose.yml": (
            "services:\n  rabbitmq:\n    image: rabbitmq:3-management\n"
            "  ordering:\n    build: ./Ordering\n  payment:\n    build: ./Payment\n  identity:\n    build: ./Identity\n"
            + sidecar.format("ordering") + sidecar.format("payment") + sidecar.format("identity")),
        "dapr/components/pubsub.yaml": ("apiVersion: dapr.io/v1alpha1\nkind: Component\nmetadata:\n  name: pubsub\n"
                                        "spec:\n  type: pubsub.rabbitmq\n  metadata:\n  - name: host\n"
                                        "    value: amqp://rabbitmq:5672\n"),
        "EventBus/EventBus.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>\n',
        "EventBus/DaprEventBus.cs": ("class DaprEventBus {\n  Task P(object e) => _dapr.PublishEventAsync(PubSub, \"topic\", e);\n}\n"),
        "Ordering/Ordering.csproj": ('<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
                                     '<ProjectReference Include="..\\EventBus\\EventBus.csproj" /></ItemGroup></Project>\n'),
        "Ordering/Program.cs": "class P { static void Main() {} }\n",
        "Payment/Payment.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "Payment/Handler.cs": 'class H {\n  [Topic("pubsub", "OrderPaid")]\n  public Task On(object e) => Task.CompletedTask;\n}\n',
        "Identity/Identity.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "Identity/Program.cs": "class P { static void Main() {} }\n",
    }
    model = resolve_files({"shop": files})
    edges = edge_set(model)
    assert ("payment", "rabbitmq") in edges
    assert ("ordering", "rabbitmq") in edges  # through the event-bus library it depends on
    assert ("identity", "rabbitmq") not in edges
