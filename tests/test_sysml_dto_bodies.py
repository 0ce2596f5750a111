"""Issue #24, framework DTOs as item defs: the request and response types a handler declares in code
become item defs specializing ``ApiSchema`` with typed attributes, and type the bodies of the
operation's in/out items, as OpenAPI schemas do.  Spring: a ``@RequestBody`` parameter, the return type
of a mapping method (``ResponseEntity<Foo>``, ``Foo``, ``List<Foo>``).  Only classes of the same
repository count; a body of ``String`` or ``Map<..>`` stays untyped."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.graph.dtos import code_type
from repomodeler.validate import validate_files
from tests.conftest import make_repo
from tests.sysml_check import tree_sitter_errors

CONTROLLER = """package com.acme.orders;

import com.acme.orders.dto.OrderRequest;
import java.util.List;
import java.util.Map;

@RestController
@RequestMapping("/orders")
public class OrderController {
    @PostMapping
    public ResponseEntity<OrderResponse> create(@RequestBody OrderRequest request) {
        return null;
    }

    @GetMapping("/all")
    public List<OrderResponse> all() { return null; }

    @PutMapping("/note")
    public Map<String, Object> note(@RequestBody String note) { return null; }
}
"""
ORDER_REQUEST = """package com.acme.orders.dto;

import java.util.List;

public class OrderRequest {
    private String sku;
    private int quantity;
    private java.math.BigDecimal price;
    private boolean gift;
    private List<Line> lines;
    private static final long serialVersionUID = 1L;
}
"""
LINE = """package com.acme.orders.dto;

public record Line(String sku, long count) {}
"""
ORDER_RESPONSE = """package com.acme.orders;

public class OrderResponse {
    private String id;
    private Double total;
}
"""
POM = """<project><modelVersion>4.0.0</modelVersion><groupId>com.acme</groupId><artifactId>orders</artifactId>
<version>1</version><dependencies><dependency><groupId>org.springframework.boot</groupId>
<artifactId>spring-boot-starter-web</artifactId></dependency></dependencies></project>
"""
SRC = "orders/src/main/java/com/acme/orders"


@pytest.fixture(scope="module")
def spring_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("dto")
    repo = base / "shopdto"
    make_repo(repo, {
        "docker-compose.yml": "services:\n  orders:\n    build: ./orders\n    ports: [\"8080:8080\"]\n",
        "orders/pom.xml": POM,
        f"{SRC}/OrderController.java": CONTROLLER,
        f"{SRC}/OrderResponse.java": ORDER_RESPONSE,
        f"{SRC}/dto/OrderRequest.java": ORDER_REQUEST,
        f"{SRC}/dto/Line.java": LINE,
    })
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(base / "model"), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    return base / "model"


def _block(text: str, head: str) -> str:
    m = re.search(rf"\n    {re.escape(head)}.*?\n    }}\n", text, re.S)
    assert m, head
    return m.group(0)


def test_code_types_unwrap_to_the_body_class() -> None:
    assert code_type("ResponseEntity<OrderResponse>") == ("OrderResponse", False)
    assert code_type("ResponseEntity<List<Order>>") == ("Order", True)
    assert code_type("Mono<com.acme.Order>") == ("Order", False)
    assert code_type("Order[]") == ("Order", True)
    assert code_type("Map<String, Order>") == ("", False)


def test_spring_request_and_response_classes_are_item_defs_typing_the_operation(spring_model: Path) -> None:
    text = (spring_model / "model.sysml").read_text(encoding="utf-8")
    request = _block(text, "item def <'orders_src_main_java_com_acme_orders_dto_orderrequest_java.OrderRequest'> OrderRequest :> ApiSchema {")
    # each field a typed attribute (String/Integer/Real/Boolean), another class of the repository a nested
    # item def, a collection [0..*]; the static constant is no field; the class's line is its evidence
    assert re.findall(r"\n        (attribute|item) (\w+) : ([\w\[\]*.]+);", request) == [
        ("attribute", "sku", "String"), ("attribute", "quantity", "Integer"), ("attribute", "price", "Real"),
        ("attribute", "gift", "Boolean"), ("item", "lines", "Line[0..*]")]
    assert f'@SourceRef {{ repository = "shopdto"; path = "{SRC}/dto/OrderRequest.java"; line = 5; }}' in request
    assert "a request or response body type declared in code" in request
    line = _block(text, "item def <'orders_src_main_java_com_acme_orders_dto_line_java.Line'> Line :> ApiSchema {")
    assert "attribute sku : String;" in line and "attribute count : Integer;" in line
    assert f'path = "{SRC}/dto/Line.java"; line = 3;' in line
    response = _block(text, "item def <'orders_src_main_java_com_acme_orders_orderresponse_java.OrderResponse'> OrderResponse :> ApiSchema {")
    assert "attribute id : String;" in response and "attribute total : Real;" in response

    api = _block(text, "port def OrdersHttpApi :> HttpApi {")
    assert ('in item POST_orders_request : HttpRequest :> request { attribute :>> method = HttpMethod::POST; '
            'attribute :>> path = "/orders"; item :>> body : OrderRequest; }') in api
    assert "out item POST_orders_response : HttpResponse :> response { item :>> body : OrderResponse; }" in api
    assert "out item GET_orders_all_response : HttpResponse :> response { item :>> body : OrderResponse; }" in api
    # String in, Map out: not classes of the repository, so no body type
    note = [line for line in api.splitlines() if "PUT_orders_note" in line]
    assert len(note) == 2 and not any("body" in line for line in note)
    # the operation keeps its evidence: the mapping annotation's line
    assert re.search(r"in ref item POST_orders : Endpoint \{\n\s*@SourceRef \{ repository = \"shopdto\"; "
                     rf"path = \"{SRC}/OrderController.java\"; line = 10; }}", text)


def test_the_bodies_are_in_model_json_and_the_model_reads_back_and_validates(spring_model: Path) -> None:
    data = json.loads((spring_model / "model.json").read_text(encoding="utf-8"))
    schemas = {m["name"]: m for m in data["messages"]}
    request = schemas["orders_src_main_java_com_acme_orders_dto_orderrequest_java.OrderRequest"]
    assert request["kind"] == "schema" and request["evidence"]["line"] == 5
    result = CliRunner().invoke(cli, ["diff", str(spring_model / "model.sysml"), str(spring_model / "model.json")])
    assert result.exit_code == 0 and "no differences" in result.output
    files = [spring_model / "RepoModeler.sysml", spring_model / "model.sysml"]
    assert [d.format() for d in validate_files(files)] == []
    assert tree_sitter_errors(files[1].read_text(encoding="utf-8")) == []


FASTAPI = """from typing import Optional

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Line(BaseModel):
    sku: str
    count: int


class Order(BaseModel):
    id: str
    total: float
    paid: bool = False
    lines: list[Line] = []
    note: Optional[str] = None


@app.post("/orders", response_model=Order)
async def create(order: Order, dry: bool = False):
    return order


@app.get("/orders/{id}")
def get(id: str) -> dict:
    return {}
"""
ASPNET = """namespace Acme.Orders;

[ApiController]
[Route("api/orders")]
public class OrdersController : ControllerBase
{
    [HttpPost]
    public async Task<ActionResult<OrderResponse>> Create([FromBody] OrderRequest request) => Ok();

    [HttpGet("{id}")]
    public ActionResult<string> Get(string id) => Ok();
}

public record OrderRequest(string Sku, int Quantity);

public class OrderResponse
{
    public string Id { get; set; }
    public decimal Total { get; init; }
    public static int Counter { get; set; }
    public bool Paid;
}
"""


def _analyze(tmp_path: Path, name: str, files: dict[str, str]) -> str:
    repo = tmp_path / name
    make_repo(repo, files)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(tmp_path / "home"))
        result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(tmp_path / "model"), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "model" / "model.sysml").read_text(encoding="utf-8")
    files_ = [tmp_path / "model" / "RepoModeler.sysml", tmp_path / "model" / "model.sysml"]
    assert [d.format() for d in validate_files(files_)] == []
    diff = CliRunner().invoke(cli, ["diff", str(files_[1]), str(tmp_path / "model" / "model.json")])
    assert "no differences" in diff.output
    return text


def test_fastapi_pydantic_models_are_item_defs_typing_the_operation(tmp_path: Path) -> None:
    text = _analyze(tmp_path, "shoppy", {
        "docker-compose.yml": "services:\n  orders:\n    build: ./orders\n    ports: [\"8000:8000\"]\n",
        "orders/requirements.txt": "fastapi\npydantic\n",
        "orders/main.py": FASTAPI,
    })
    order = _block(text, "item def <'orders_main_py.Order'> Order :> ApiSchema {")
    assert re.findall(r"\n        (attribute|item) (\w+) : ([\w\[\]*.]+);", order) == [
        ("attribute", "id", "String"), ("attribute", "total", "Real"), ("attribute", "paid", "Boolean"),
        ("item", "lines", "Line[0..*]"), ("attribute", "note", "String")]
    assert '@SourceRef { repository = "shoppy"; path = "orders/main.py"; line = 14; }' in order
    line = _block(text, "item def <'orders_main_py.Line'> Line :> ApiSchema {")
    assert "attribute sku : String;" in line and "attribute count : Integer;" in line
    api = _block(text, "port def OrdersHttpApi :> HttpApi {")
    assert ('in item POST_orders_request : HttpRequest :> request { attribute :>> method = HttpMethod::POST; '
            'attribute :>> path = "/orders"; item :>> body : Order; }') in api
    assert "out item POST_orders_response : HttpResponse :> response { item :>> body : Order; }" in api
    assert not [l for l in api.splitlines() if "GET_orders_id" in l and "body" in l]  # str in, dict out
    assert re.search(r'in ref item POST_orders : Endpoint \{\n\s*@SourceRef \{ repository = "shoppy"; '
                     r'path = "orders/main.py"; line = 22; }', text)


def test_aspnet_records_and_classes_are_item_defs_typing_the_action(tmp_path: Path) -> None:
    text = _analyze(tmp_path, "netshop", {
        "docker-compose.yml": "services:\n  orders:\n    build: ./Orders\n    ports: [\"8080:8080\"]\n",
        "Orders/Orders.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"><PropertyGroup>'
                                "<TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n",
        "Orders/Controllers/OrdersController.cs": ASPNET,
    })
    request = _block(text, "item def <'orders_controllers_orderscontroller_cs.OrderRequest'> OrderRequest :> ApiSchema {")
    assert "attribute Sku : String;" in request and "attribute Quantity : Integer;" in request
    assert 'path = "Orders/Controllers/OrdersController.cs"; line = 14; }' in request
    response = _block(text, "item def <'orders_controllers_orderscontroller_cs.OrderResponse'> OrderResponse :> ApiSchema {")
    assert re.findall(r"\n        attribute (\w+) : (\w+);", response) == [
        ("Id", "String"), ("Total", "Real"), ("Paid", "Boolean")]  # the static property is no member
    api = _block(text, "port def OrdersHttpApi :> HttpApi {")
    assert ('in item POST_api_orders_request : HttpRequest :> request { attribute :>> method = HttpMethod::POST; '
            'attribute :>> path = "/api/orders"; item :>> body : OrderRequest; }') in api
    assert "out item POST_api_orders_response : HttpResponse :> response { item :>> body : OrderResponse; }" in api
    assert not [l for l in api.splitlines() if "GET_api_orders_id" in l and "body" in l]
