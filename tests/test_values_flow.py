"""Values that flow through code into client calls (issue #21, class 3): a URL built from a constant of
another file, by concatenation or a format call, through a local variable, reaches the component it
names; the connection's evidence is the call's line and every line the value came through. What cannot
be resolved is listed as unresolved with its expression."""

from __future__ import annotations

from pathlib import Path

from test_resolve import model_of

COMPOSE = ("services:\n  orders:\n    build: ./orders\n  stock:\n    image: acme/stock\n"
           "  pricing:\n    image: acme/pricing\n")
# The same deployment handing orders the image registry's token: the registry is one the operator configures, so
# the outside host its code builds the URL of stays drawn (code.literal-hosts lists hosts only the code names).
COMPOSE_REGISTRY = COMPOSE.replace("    build: ./orders\n",
                                   "    build: ./orders\n    environment:\n      ACMEIMAGES_TOKEN: ${ACMEIMAGES_TOKEN}\n")


# A Go program calling the stock service at a URL built from constants of another file, and an image registry
# at a host kept in a package variable.
GO_ORDERS = {
    "orders/go.mod": "module example.com/orders\n\ngo 1.22\n",
    "orders/hosts.go": ('package main\n\nconst stockHost = "stock"\n\n'
                        'const stockBase = "http://" + stockHost + ":8080"\n\n'
                        'var registry = "registry.acme-images.io"\n'),
    "orders/main.go": ('package main\n\nimport (\n\t"fmt"\n\t"net/http"\n)\n\n'
                       'func reserve(id string) {\n\turl := stockBase + "/items/" + id\n'
                       '\thttp.Get(url)\n}\n\n'
                       'func pull(name string) {\n'
                       '\treq, _ := http.NewRequest("GET", fmt.Sprintf("https://%s/v2/%s", registry, name), nil)\n'
                       '\t_ = req\n}\n\nfunc main() {}\n'),
}


def edge(model: dict, source: str, target: str) -> dict:
    found = [e for e in model["edges"] if (e["source"], e["target"]) == (source, target)]
    assert found, f"no edge {source} -> {target}: {[(e['source'], e['target']) for e in model['edges']]}"
    return found[0]


def lines(e: dict) -> set[tuple[str, int]]:
    return {(ev["path"], ev["line"]) for ev in e["evidence"]}


def test_go_constant_of_another_file_of_the_package_through_concatenation_and_a_local(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE_REGISTRY,
        **GO_ORDERS,
    }}, validate=False)
    stock = edge(model, "orders", "stock")
    assert stock["protocol"] == "http"
    # the call, the local variable, the constant built by concatenation and the constant it names
    assert {("orders/main.go", 10), ("orders/main.go", 9), ("orders/hosts.go", 5), ("orders/hosts.go", 3)} <= lines(stock)
    registry = edge(model, "orders", "registry.acme-images.io")
    assert {("orders/main.go", 14), ("orders/hosts.go", 7)} <= lines(registry)
    assert next(n for n in model["nodes"] if n["id"] == "registry.acme-images.io")["kind"] == "external"


def test_java_class_constant_of_another_class_and_string_format(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        "orders/pom.xml": "<project><artifactId>orders</artifactId></project>\n",
        "orders/src/main/java/com/acme/config/Hosts.java": (
            'package com.acme.config;\n\npublic final class Hosts {\n'
            '    public static final String STOCK = "http://stock:8080";\n'
            '    public static final String PRICING_HOST = "pricing";\n}\n'),
        "orders/src/main/java/com/acme/orders/StockClient.java": (
            'package com.acme.orders;\n\nimport com.acme.config.Hosts;\n'
            'import org.springframework.web.client.RestTemplate;\n\n'
            'class StockClient {\n    private final RestTemplate restTemplate = new RestTemplate();\n\n'
            '    String items() {\n        return restTemplate.getForObject(Hosts.STOCK + "/items", String.class);\n    }\n\n'
            '    String price(String id) {\n'
            '        String url = String.format("http://%s:9090/prices/%s", Hosts.PRICING_HOST, id);\n'
            '        return restTemplate.getForObject(url, String.class);\n    }\n}\n'),
    }}, validate=False)
    stock = edge(model, "orders", "stock")
    assert {("orders/src/main/java/com/acme/orders/StockClient.java", 10),
            ("orders/src/main/java/com/acme/config/Hosts.java", 4)} <= lines(stock)
    pricing = edge(model, "orders", "pricing")
    assert {("orders/src/main/java/com/acme/orders/StockClient.java", 15),
            ("orders/src/main/java/com/acme/orders/StockClient.java", 14),
            ("orders/src/main/java/com/acme/config/Hosts.java", 5)} <= lines(pricing)


def test_python_imported_constant_str_format_and_fstring_through_locals(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        "orders/requirements.txt": "requests\n",
        "orders/settings.py": 'STOCK_HOST = "stock"\nPRICING = "pricing"\nPORT = "9090"\n',
        "orders/client.py": ('import requests\n\nfrom settings import STOCK_HOST\nimport settings\n\n\n'
                             'def reserve(item):\n    url = "http://{}:8080/items/{}".format(STOCK_HOST, item)\n'
                             '    return requests.post(url)\n\n\n'
                             'def price(item):\n    base = f"http://{settings.PRICING}:{settings.PORT}"\n'
                             '    return requests.get(base + "/prices/" + item)\n'),
    }}, validate=False)
    stock = edge(model, "orders", "stock")
    assert {("orders/client.py", 9), ("orders/client.py", 8), ("orders/settings.py", 1)} <= lines(stock)
    pricing = edge(model, "orders", "pricing")
    assert {("orders/client.py", 14), ("orders/client.py", 13), ("orders/settings.py", 2)} <= lines(pricing)


def test_typescript_imported_constant_through_a_template_literal_in_a_local(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        "orders/package.json": '{"name": "orders", "dependencies": {"axios": "1.0.0"}}\n',
        "orders/src/config.ts": 'export const STOCK_URL: string = "http://stock:8080";\nexport const PRICING = "pricing";\n',
        "orders/src/client.ts": ('import axios from "axios";\nimport { STOCK_URL, PRICING as P } from "./config";\n\n'
                                 'export async function reserve(id: string) {\n  const url = `${STOCK_URL}/items/${id}`;\n'
                                 '  return axios.post(url);\n}\n\n'
                                 'export async function price(id: string) {\n'
                                 '  return axios.get("http://" + P + ":9090/prices/" + id);\n}\n'),
    }}, validate=False)
    stock = edge(model, "orders", "stock")
    assert {("orders/src/client.ts", 6), ("orders/src/client.ts", 5), ("orders/src/config.ts", 1)} <= lines(stock)
    pricing = edge(model, "orders", "pricing")
    assert {("orders/src/client.ts", 10), ("orders/src/config.ts", 2)} <= lines(pricing)


def test_csharp_class_constant_and_interpolated_string(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        "orders/Orders.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "orders/Hosts.cs": ('namespace Orders;\n\npublic static class Hosts\n{\n'
                            '    public const string Stock = "http://stock:8080";\n'
                            '    public static readonly string Pricing = "pricing";\n}\n'),
        "orders/StockClient.cs": ('namespace Orders;\n\npublic class StockClient\n{\n'
                                  '    private readonly HttpClient _httpClient = new HttpClient();\n\n'
                                  '    public Task<string> Items() => _httpClient.GetStringAsync(Hosts.Stock + "/items");\n\n'
                                  '    public Task<string> Price(string id)\n    {\n'
                                  '        var url = $"http://{Hosts.Pricing}:9090/prices/{id}";\n'
                                  '        return _httpClient.GetStringAsync(url);\n    }\n}\n'),
    }}, validate=False)
    stock = edge(model, "orders", "stock")
    assert {("orders/StockClient.cs", 7), ("orders/Hosts.cs", 5)} <= lines(stock)
    pricing = edge(model, "orders", "pricing")
    assert {("orders/StockClient.cs", 12), ("orders/StockClient.cs", 11), ("orders/Hosts.cs", 6)} <= lines(pricing)


def test_a_call_whose_url_cannot_be_resolved_is_listed_with_its_expression(tmp_path: Path) -> None:
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        "orders/requirements.txt": "requests\n",
        "orders/client.py": ('import requests\n\n\ndef reserve(item, base):\n'
                             '    return requests.post(base + "/items/" + item)\n\n\n'
                             'def cyclic():\n    return requests.get(A)\n\n\nA = B + "/x"\nB = A + "/y"\n'),
    }}, validate=False)
    assert not [e for e in model["edges"] if e["source"] == "orders"]
    unresolved = {(u["component"], u["value"], u["evidence"]["path"], u["evidence"]["line"]) for u in model["unresolved"]}
    assert ("orders", 'base + "/items/" + item', "orders/client.py", 5) in unresolved
    assert ("orders", "A", "orders/client.py", 9) in unresolved  # a cycle of constants has no value


def test_go_value_through_a_parameter_a_method_return_and_a_struct_field_default(tmp_path: Path) -> None:
    """The registry host is a constant of another package, set as a struct's default field, read back by
    a method building a url.URL, joined with a path, handed through two functions' parameters to the
    request: the program that makes the request calls the registry, an external system."""
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE_REGISTRY,
        "orders/go.mod": "module example.com/orders\n\ngo 1.22\n",
        "orders/types/name.go": ('package types\n\nimport "net/url"\n\n'
                                 'const (\n\tdefaultHost   = "registry.acme-images.io"\n\tdefaultScheme = "https"\n)\n\n'
                                 'type Name struct {\n\tHost   string\n\tScheme string\n}\n\n'
                                 'func DefaultName() Name {\n\treturn Name{Host: defaultHost, Scheme: defaultScheme}\n}\n\n'
                                 'func (n Name) BaseURL() *url.URL {\n\treturn &url.URL{Scheme: n.Scheme, Host: n.Host}\n}\n'),
        "orders/main.go": ('package main\n\nimport (\n\t"context"\n\t"net/http"\n\t"net/url"\n\n'
                           '\t"example.com/orders/types"\n)\n\n'
                           'func request(ctx context.Context, requestURL *url.URL) {\n'
                           '\treq, _ := http.NewRequestWithContext(ctx, http.MethodGet, requestURL.String(), nil)\n'
                           '\t_ = req\n}\n\n'
                           'func withRetry(ctx context.Context, requestURL *url.URL) {\n\trequest(ctx, requestURL)\n}\n\n'
                           'func pull(ctx context.Context, n types.Name) {\n'
                           '\trequestURL := n.BaseURL()\n\trequestURL = requestURL.JoinPath("v2", "manifests")\n'
                           '\twithRetry(ctx, requestURL)\n}\n\nfunc main() { pull(context.Background(), types.DefaultName()) }\n'),
    }}, validate=False)
    registry = edge(model, "orders", "registry.acme-images.io")
    assert next(n for n in model["nodes"] if n["id"] == "registry.acme-images.io")["kind"] == "external"
    # the request, the calls handing the URL on, the local variable, the method, the field default, the constant
    assert {("orders/main.go", 12), ("orders/main.go", 17), ("orders/main.go", 21), ("orders/main.go", 22),
            ("orders/main.go", 23), ("orders/types/name.go", 20), ("orders/types/name.go", 16),
            ("orders/types/name.go", 6)} <= lines(registry)
    assert not [e for e in model["edges"] if e["target"] == "registry.acme-images.io" and e["source"] != "orders"]


def test_constructor_parameters_carry_the_address_into_the_objects_calls(tmp_path: Path) -> None:
    """A client object built with its base URL (by position, by keyword or by default) calls the service
    that URL names from its other methods; the evidence runs from the call to the construction."""
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": ("services:\n  web:\n    build: ./web\n  api:\n    build: ./api\n  shop:\n    build: ./shop\n"
                               "  portal:\n    build: ./portal\n  stock:\n    image: acme/stock\n"
                               "  pricing:\n    image: acme/pricing\n"),
        "web/requirements.txt": "requests\n",
        "web/clients.py": ('import requests\n\n\nclass StockClient:\n'
                           '    def __init__(self, base_url="http://pricing:9090"):\n        self.base_url = base_url\n\n'
                           '    def items(self):\n        return requests.get(self.base_url + "/items")\n'),
        "web/app.py": 'from clients import StockClient\n\nstock = StockClient(base_url="http://stock:8080")\n',
        "api/pom.xml": "<project><artifactId>api</artifactId></project>\n",
        "api/src/main/java/com/acme/StockClient.java": (
            'package com.acme;\n\nimport org.springframework.web.client.RestTemplate;\n\n'
            'class StockClient {\n    private final RestTemplate restTemplate = new RestTemplate();\n'
            '    private final String baseUrl;\n\n'
            '    StockClient(String baseUrl) {\n        this.baseUrl = baseUrl;\n    }\n\n'
            '    String items() {\n        return restTemplate.getForObject(baseUrl + "/items", String.class);\n    }\n}\n'),
        "api/src/main/java/com/acme/App.java": (
            'package com.acme;\n\nclass App {\n    StockClient stock = new StockClient("http://stock:8080");\n}\n'),
        "shop/package.json": '{"name": "shop", "dependencies": {"axios": "1.0.0"}}\n',
        "shop/src/stock.ts": ('import axios from "axios";\n\nexport class StockClient {\n'
                              '  constructor(private readonly baseUrl: string) {}\n\n'
                              '  items() {\n    return axios.get(`${this.baseUrl}/items`);\n  }\n}\n'),
        "shop/src/index.ts": 'import { StockClient } from "./stock";\n\nconst stock = new StockClient("http://stock:8080");\n',
        "portal/Portal.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "portal/StockClient.cs": ('namespace Portal;\n\npublic class StockClient\n{\n'
                                  '    private readonly HttpClient _httpClient = new HttpClient();\n'
                                  '    private readonly string _baseUrl;\n\n'
                                  '    public StockClient(string baseUrl)\n    {\n        _baseUrl = baseUrl;\n    }\n\n'
                                  '    public Task<string> Items() => _httpClient.GetStringAsync(_baseUrl + "/items");\n}\n'),
        "portal/Program.cs": 'namespace Portal;\n\npublic static class Program\n{\n    static StockClient Stock = new StockClient("http://stock:8080");\n}\n',
    }}, validate=False)
    assert {("web/clients.py", 9), ("web/clients.py", 6), ("web/app.py", 3)} <= lines(edge(model, "web", "stock"))
    # the default of the parameter is a value it may take too
    assert ("web/clients.py", 5) in lines(edge(model, "web", "pricing"))
    assert {("api/src/main/java/com/acme/StockClient.java", 14), ("api/src/main/java/com/acme/StockClient.java", 10),
            ("api/src/main/java/com/acme/App.java", 4)} <= lines(edge(model, "api", "stock"))
    assert {("shop/src/stock.ts", 7), ("shop/src/index.ts", 3)} <= lines(edge(model, "shop", "stock"))
    assert {("portal/StockClient.cs", 13), ("portal/StockClient.cs", 10), ("portal/Program.cs", 5)} <= lines(
        edge(model, "portal", "stock"))


def test_hostile_expressions_are_unknown_not_a_crash() -> None:
    """Deep nesting, long concatenations and self-referring names end as unknown values, quickly."""
    from repomodeler.graph.expressions import UNKNOWN, Binding, Evaluator
    from repomodeler.records import Evidence

    site = Evidence("r", "a.py", 1)
    loop = [Binding("A + B", False, Evidence("r", "a.py", 2), "python")]
    evaluator = Evaluator(lambda name, s, language: loop, lambda name, default: [])
    assert evaluator.evaluate("(" * 1500 + '"http://x"' + ")" * 1500, site, "python")[0].text == UNKNOWN
    values = evaluator.evaluate(" + ".join(["A"] * 500), site, "python")
    assert values and all(UNKNOWN in v.text for v in values)
    assert evaluator.evaluate('"http://%s:%d" % (HOST, 8080)', site, "python")[0].text.startswith("http://")


def test_conditionals_and_defaults_give_either_value() -> None:
    """`c ? a : b`, `a if c else b`, `a || b` and `a ?? b` may take either side: a host a conditional picks
    (the broker's container name in a container, localhost on the developer's machine) is known."""
    from repomodeler.graph.expressions import UNKNOWN, Evaluator
    from repomodeler.records import Evidence

    site = Evidence("r", "a.cs", 1)
    evaluator = Evaluator(lambda name, s, language: [], lambda name, default: [])

    def texts(expr: str, language: str) -> set[str]:
        return {v.text for v in evaluator.evaluate(expr, site, language)}

    assert texts('Environment.GetEnvironmentVariable("IN_CONTAINER") == "true" ? "rabbit" : "localhost"',
                 "csharp") == {"rabbit", "localhost"}
    assert texts('"http://orders:8080" if IN_DOCKER else "http://localhost:8080"', "python") == {
        "http://orders:8080", "http://localhost:8080"}
    assert "http://orders:8080" in texts('config.ordersUrl || "http://orders:8080"', "javascript")
    assert "http://a:80" in texts('settings?.url ?? "http://a:80"', "typescript")
    assert texts('a ? "x" : b ? "y" : "z"', "javascript") == {"x", "y", "z"}
    # `?.` is no conditional: a member read whose value is not known
    assert texts("settings?.url", "typescript") == {UNKNOWN}


def test_a_go_url_struct_puts_the_slash_before_a_relative_path() -> None:
    """`url.URL{Scheme: "https", Host: "api.acme.io", Path: "v3/videos"}.String()` is https://api.acme.io/v3/videos,
    so the host is api.acme.io, not api.acme.iov3."""
    from repomodeler.graph.expressions import Evaluator
    from repomodeler.records import Evidence

    evaluator = Evaluator(lambda name, s, language: [], lambda name, default: [])
    site = Evidence("r", "a.go", 1)
    got = {v.text for v in evaluator.evaluate('url.URL{Scheme: "https", Host: "api.acme.io", Path: "v3/videos"}', site, "go")}
    assert got == {"https://api.acme.io/v3/videos"}
    got = {v.text for v in evaluator.evaluate('url.URL{Scheme: "https", Host: "api.acme.io", Path: "/v3"}', site, "go")}
    assert got == {"https://api.acme.io/v3"}


def test_node_request_options_describe_a_url() -> None:
    """`https.request({host: "accounts.acme.fr", path: "/api/x"})` calls accounts.acme.fr; an object naming no host
    is no address."""
    from repomodeler.graph.expressions import UNKNOWN, Evaluator
    from repomodeler.records import Evidence

    evaluator = Evaluator(lambda name, s, language: [], lambda name, default: [])
    site = Evidence("r", "a.js", 1)

    def texts(expr: str) -> set[str]:
        return {v.text for v in evaluator.evaluate(expr, site, "javascript")}

    assert texts('{host: "accounts.acme.fr", path: "/api/x", method: "POST"}') == {"http://accounts.acme.fr/api/x"}
    assert texts('{hostname: "h.acme.io", protocol: "https:", port: 8443}') == {"https://h.acme.io:8443"}
    assert texts('{method: "GET"}') == {UNKNOWN}


def test_outside_host_only_the_code_names_is_listed_at_the_call(tmp_path: Path) -> None:
    """The same Go program, deployed with no setting of the registry: the host its code builds the URL of is
    listed as unresolved at the request's line (code.literal-hosts), not drawn; the service it calls stays."""
    model = model_of(tmp_path, {"shop": {
        "docker-compose.yml": COMPOSE,
        **GO_ORDERS,
    }}, validate=False)
    assert edge(model, "orders", "stock")["protocol"] == "http"
    assert not [n for n in model["nodes"] if n["id"] == "registry.acme-images.io"]
    listed = [u for u in model["unresolved"] if u["value"].startswith("registry.acme-images.io:")]
    assert [(u["component"], u["evidence"]["path"], u["evidence"]["line"]) for u in listed] == [("orders", "orders/main.go", 14)]
