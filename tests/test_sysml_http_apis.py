"""Issue #24, HTTP as typed interfaces: every service with HTTP routes gets a port def of its own with an
``HttpRequest`` in item (method, path) and an ``HttpResponse`` out item per operation, and an interface
def with a flow per request and response that types the connectors to it; request and response bodies
come from OpenAPI documents (also those kept in ``docs/``) as item defs specializing ``ApiSchema`` with
typed attributes.  The model reads back as analysed and every reader accepts it."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.extract.readers.openapi import read_openapi
from repomodeler.extract.readers.spring import READERS as SPRING_READERS
from repomodeler.inventory import classify_role
from repomodeler.validate import validate_files
from tests.conftest import SAMPLES, make_repo
from tests.sysml_check import tree_sitter_errors

ORDERS_OPENAPI = """openapi: 3.0.3
info:
  title: Orders
  license:
    url: https://opensource.org/licenses/MIT
servers:
  - url: http://orders:8000
paths:
  /orders/{order_id}:
    get:
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Order"
  /orders:
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/NewOrder"
      responses:
        "201":
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Order"
components:
  schemas:
    NewOrder:
      type: object
      properties:
        item:
          type: string
        quantity:
          type: integer
    Order:
      type: object
      properties:
        id:
          type: string
        total:
          type: number
        lines:
          type: array
          items:
            $ref: "#/components/schemas/NewOrder"
        paid:
          type: boolean
        extra:
          type: object
"""

SWAGGER = """swagger: "2.0"
paths:
  /pets:
    post:
      parameters:
        - in: body
          name: pet
          schema:
            $ref: "#/definitions/Pet"
      responses:
        200:
          schema:
            type: array
            items:
              $ref: "#/definitions/Pet"
definitions:
  Pet:
    properties:
      name:
        type: string
"""


def test_openapi_operations_name_their_body_schemas_and_schemas_their_typed_properties() -> None:
    facts = read_openapi("shop", "orders/docs/openapi.yaml", ORDERS_OPENAPI)
    routes = {(f.get("method"), f.get("path")): f for f in facts if f.kind == "http.route"}
    assert routes[("POST", "/orders")].get("request") == "orders_docs_openapi_yaml.NewOrder"
    assert routes[("POST", "/orders")].get("response") == "orders_docs_openapi_yaml.Order"  # 201 is a success
    assert routes[("GET", "/orders/{order_id}")].get("request") is None
    schemas = {f.get("name"): f.line for f in facts if f.kind == "openapi.schema"}
    assert schemas == {"NewOrder": 32, "Order": 39}
    props = {(f.get("schema"), f.get("name")): f for f in facts if f.kind == "openapi.property"}
    assert props[("Order", "total")].get("type") == "double" and props[("Order", "paid")].get("type") == "bool"
    assert props[("Order", "lines")].get("type") == "orders_docs_openapi_yaml.NewOrder"
    assert props[("Order", "lines")].get("repeated") == "true" and props[("Order", "lines")].line == 46
    assert props[("Order", "extra")].get("type") is None  # an inline object: untyped
    swagger = read_openapi("pets", "swagger.yaml", SWAGGER)
    post = next(f for f in swagger if f.kind == "http.route")
    assert post.get("request") == "swagger_yaml.Pet" and post.get("response") == "swagger_yaml.Pet"
    assert any(f.kind == "openapi.property" and f.get("name") == "name" for f in swagger)


def test_an_api_description_in_docs_is_read_and_is_no_spring_config() -> None:
    assert classify_role("docs/openapi.yaml") == "source" and classify_role("orders/docs/swagger.json") == "source"
    assert classify_role("docs/guide.yaml") == "docs" and classify_role("tests/openapi.yaml") == "test"
    spring = next(r for r in SPRING_READERS if r.id == "spring.content")
    assert not spring.recognises("openapi.yaml", "openapi: 3.0.3\nserver.port: 1\n")
    assert spring.recognises("orders.yml", "server.port: 8080\nswagger:\n  enabled: true\n")


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("http-apis")
    repo = base / "shop"
    shutil.copytree(SAMPLES / "shop", repo)
    make_repo(repo, files={"orders/docs/openapi.yaml": ORDERS_OPENAPI})
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(base / "model"), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    yield base / "model"


def test_model_json_types_the_operations_and_keeps_the_schemas(model: Path) -> None:
    data = json.loads((model / "model.json").read_text(encoding="utf-8"))
    assert {n["id"] for n in data["nodes"]} >= {"orders", "payments"}
    assert "opensource.org" not in {n["id"] for n in data["nodes"]}  # the license URL is no connection
    orders = next(n for n in data["nodes"] if n["id"] == "orders")
    eps = {(e["method"], e["path"]): e for p in orders["ports"] for e in p["endpoints"]}
    post = eps[("POST", "/orders")]
    assert post["request"] == "orders_docs_openapi_yaml.NewOrder" and post["response"] == "orders_docs_openapi_yaml.Order"
    assert {e["path"] for e in post["evidence"]} == {"orders/main.py", "orders/docs/openapi.yaml"}
    messages = {m["name"]: m for m in data["messages"]}
    assert messages["orders_docs_openapi_yaml.Order"]["kind"] == "schema"
    lines = next(f for f in messages["orders_docs_openapi_yaml.Order"]["fields"] if f["name"] == "lines")
    assert lines["type"] == "orders_docs_openapi_yaml.NewOrder" and lines["repeated"] is True


def test_http_services_have_port_defs_with_typed_operations(model: Path) -> None:
    text = (model / "model.sysml").read_text(encoding="utf-8")
    api = re.search(r"\n    port def OrdersHttpApi :> HttpApi \{\n(.*?)\n    \}\n", text, re.S)
    assert api, text[:2000]
    body = api.group(1)
    assert ('\n        in item POST_orders_request : HttpRequest :> request { attribute :>> method = HttpMethod::POST; '
            'attribute :>> path = "/orders"; item :>> body : NewOrder; }\n') in body
    assert "\n        out item POST_orders_response : HttpResponse :> response { item :>> body : Order; }\n" in body
    assert "\n        out item GET_orders_order_id_response : HttpResponse :> response { item :>> body : Order; }" in body
    assert "in item GET_orders_order_id_request : HttpRequest :> request { attribute :>> method = HttpMethod::GET;" in body
    # the schemas are item defs with typed attributes
    order = re.search(r"\n    item def <'orders_docs_openapi_yaml\.Order'> Order :> ApiSchema \{\n(.*?)\n    \}", text, re.S)
    assert order, text[:3000]
    for line in ("attribute id : String;", "attribute total : Real;", "item lines : NewOrder[0..*];",
                 "attribute paid : Boolean;", "attribute extra { doc /* untyped extra */ }"):
        assert f"\n        {line}" in order.group(1), line
    # the interface def carries a flow per request and response; the served port and the connectors use them
    assert "\n    interface def OrdersHttpLink :> HttpLink {" in text
    assert "flow POST_orders_request of HttpRequest from client.POST_orders_request to server.POST_orders_request;" in text
    assert re.search(r"\n        part orders : Service \{.*?\n            port http : OrdersHttpApi \{", text, re.S)
    # payments is called over HTTP by orders: typed by payments' own API
    assert re.search(r"port to_payments_http : ~PaymentsHttpApi", text)
    assert re.search(r"interface <'orders-payments-http'> orders_payments_http : PaymentsHttpLink connect", text)


def test_the_typed_model_reads_back_as_analysed_and_every_reader_accepts_it(model: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", str(model / "model.sysml"), str(model / "model.json")])
    assert result.exit_code == 0 and result.output.rstrip().endswith("no differences"), result.output
    files = [model / "RepoModeler.sysml", model / "model.sysml"]
    assert [d.format() for d in validate_files(files, strict=True)] == []
    for path in files:
        assert tree_sitter_errors(path.read_text(encoding="utf-8")) == [], path.name
    longeron = pytest.importorskip("longeron")
    from longeron.validation import validate

    for path in files:
        shutil.copy(path, tmp_path / path.name)
    assert [str(d) for d in validate(longeron.load(str(tmp_path), cache=False), strict=True)] == []
    core = pytest.importorskip("mercurio._core")
    compiled = core.ModelBuilder.from_sysml_files({p.name: p.read_text(encoding="utf-8") for p in files},
                                                  True).compile_model()
    names = {e.get_str("qualified_name") or "" for e in compiled.elements()}
    assert {"shop.OrdersHttpApi", "shop.OrdersHttpLink", "shop.Order", "RepoModeler.HttpRequest"} <= names
