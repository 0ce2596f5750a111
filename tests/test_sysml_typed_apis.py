"""Typed APIs from .proto files (#13): messages as item defs, rpcs on the service's own port def, typed
flows on the links to it, the standard health service once in the library; every reader accepts it.

The system is the grpc-mesh sample with a richer .proto (nested enum, oneof, map, a streaming rpc, a type
from another file, a well-known type the repository does not define) and the cart also serving
``grpc.health.v1`` from a copy of ``health.proto``.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from repomodeler.cli import cli
from repomodeler.emit.graph_io import load_model_dir
from repomodeler.emit.sysml import render_sysml
from repomodeler.extract.apis import read_proto
from repomodeler.diff.load import read_sysml_file
from repomodeler.diff.view import ModelEndpoint
from repomodeler.validate import validate_files
from tests.conftest import SAMPLES, make_repo
from tests.sysml_check import tree_sitter_errors

SHOP_PROTO = """syntax = "proto3";

package shop.v1;

import "google/protobuf/timestamp.proto";
import "common.proto";

option go_package = "example.com/grpc-mesh/cart/shoppb";

service CartService {
  rpc AddItem(AddItemRequest) returns (Empty) {}
  rpc GetCart(GetCartRequest) returns (Cart) {
    option (google.api.http) = { get: "/v1/cart/{user_id}" };
  }
  rpc EmptyCart(EmptyCartRequest) returns (Empty) {}
  rpc WatchCart(GetCartRequest) returns (stream Cart) {}
}

service CheckoutService {
  rpc PlaceOrder(PlaceOrderRequest) returns (PlaceOrderResponse) {}
}

message CartItem {
  string product_id = 1;
  int32 quantity = 2;
  common.v1.Money price = 3;
}

message AddItemRequest {
  string user_id = 1; // who
  CartItem item = 2;
}

message GetCartRequest { string user_id = 1; }

message EmptyCartRequest {
  string user_id = 1;
}

message Cart {
  enum State {
    OPEN = 0;
    CHECKED_OUT = 1;
  }
  string user_id = 1;
  repeated CartItem items = 2;
  State state = 3;
  map<string, int64> counts = 4;
  google.protobuf.Timestamp updated = 5;
  oneof owner {
    string guest_token = 6;
    string account_id = 7;
  }
  bytes blob = 8;
}

message PlaceOrderRequest {
  string user_id = 1;
  string email = 2;
}

message PlaceOrderResponse {
  string order_id = 1;
}

message Empty {}
"""

COMMON_PROTO = """syntax = "proto3";
package common.v1;

message Money {
  string currency_code = 1;
  int64 units = 2;
}
"""

HEALTH_PROTO = """syntax = "proto3";
package grpc.health.v1;

message HealthCheckRequest {
  string service = 1;
}

message HealthCheckResponse {
  enum ServingStatus {
    UNKNOWN = 0;
    SERVING = 1;
    NOT_SERVING = 2;
    SERVICE_UNKNOWN = 3;
  }
  ServingStatus status = 1;
}

service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
  rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
}
"""


def test_read_proto_reads_messages_fields_enums_and_streams() -> None:
    facts = read_proto("r", "proto/shop.proto", SHOP_PROTO)
    by_kind: dict[str, list[dict[str, str]]] = {}
    for f in facts:
        by_kind.setdefault(f.kind, []).append({**dict(f.attrs), "line": str(f.line)})
    messages = {m["message"] for m in by_kind["proto.message"]}
    assert messages == {"CartItem", "AddItemRequest", "GetCartRequest", "EmptyCartRequest", "Cart",
                        "PlaceOrderRequest", "PlaceOrderResponse", "Empty"}
    fields = {(f["message"], f["name"]): f for f in by_kind["proto.field"]}
    assert fields[("Cart", "items")]["type"] == "CartItem" and fields[("Cart", "items")]["repeated"] == "true"
    assert fields[("Cart", "counts")]["type"] == "int64" and fields[("Cart", "counts")]["repeated"] == "true"  # map
    assert fields[("Cart", "guest_token")]["number"] == "6"  # a oneof's fields belong to the message
    assert fields[("GetCartRequest", "user_id")]["type"] == "string"  # one-line message
    assert fields[("AddItemRequest", "user_id")]["line"] == "30"
    assert ("Cart", "State") not in fields and not any(n == "OPEN" for _m, n in fields)
    assert [e["enum"] for e in by_kind["proto.enum"]] == ["Cart.State"]
    assert [v["value"] for v in by_kind["proto.enum_value"]] == ["OPEN", "CHECKED_OUT"]
    rpcs = {r["rpc"]: r for r in by_kind["grpc.rpc"]}
    assert rpcs["WatchCart"]["stream"] == "response" and "stream" not in rpcs["AddItem"]
    assert set(rpcs) == {"AddItem", "GetCart", "EmptyCart", "WatchCart", "PlaceOrder"}  # the option block is skipped


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    base = tmp_path_factory.mktemp("typed")
    main_go = (SAMPLES / "grpc-mesh" / "cart" / "main.go").read_text(encoding="utf-8")
    main_go = main_go.replace('pb "example.com/grpc-mesh/cart/shoppb"',
                              'pb "example.com/grpc-mesh/cart/shoppb"\n\t"google.golang.org/grpc/health"\n'
                              '\thealthpb "google.golang.org/grpc/health/grpc_health_v1"')
    main_go = main_go.replace("\tlog.Fatal(s.Serve(lis))",
                              "\thealthpb.RegisterHealthServer(s, health.NewServer())\n\tlog.Fatal(s.Serve(lis))")
    repo = base / "grpc-mesh"
    shutil.copytree(SAMPLES / "grpc-mesh", repo)
    make_repo(repo, files={"proto/shop.proto": SHOP_PROTO, "proto/common.proto": COMMON_PROTO,
                           "proto/grpc/health/v1/health.proto": HEALTH_PROTO, "cart/main.go": main_go})
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(base / "model"), "--quiet", "--no-validate"])
    assert result.exit_code == 0, result.output
    yield base / "model"


def _text(model: Path) -> str:
    return (model / "model.sysml").read_text(encoding="utf-8")


def test_model_json_types_rpcs_by_their_messages(model: Path) -> None:
    data = json.loads((model / "model.json").read_text(encoding="utf-8"))
    cart = next(n for n in data["nodes"] if n["id"] == "cart")
    eps = {e["path"]: e for p in cart["ports"] if p["protocol"] == "grpc" for e in p["endpoints"]}
    assert eps["CartService/AddItem"]["request"] == "shop.v1.AddItemRequest"
    assert eps["CartService/AddItem"]["response"] == "shop.v1.Empty"
    assert eps["CartService/WatchCart"]["stream"] == "response"
    assert eps["Health/Check"]["package"] == "grpc.health.v1"
    messages = {m["name"]: m for m in data["messages"]}
    # every type the rpcs reach, across files and scopes; nothing else
    assert "common.v1.Money" in messages and "shop.v1.Cart.State" in messages
    assert "shop.v1.PlaceOrderRequest" in messages  # checkout's rpc
    items = next(f for f in messages["shop.v1.Cart"]["fields"] if f["name"] == "items")
    assert items == {"name": "items", "type": "shop.v1.CartItem", "number": 2, "repeated": True,
                     "evidence": {"repository": "grpc-mesh", "path": "proto/shop.proto", "line": 46}}
    assert messages["shop.v1.Cart.State"]["values"] == ["OPEN", "CHECKED_OUT"]
    price = next(f for f in messages["shop.v1.CartItem"]["fields"] if f["name"] == "price")
    assert price["type"] == "common.v1.Money"


def test_messages_are_item_defs_with_typed_fields(model: Path) -> None:
    text = _text(model)
    cart = re.search(r"\n    item def <'shop\.v1\.Cart'> Cart :> ProtoMessage \{\n(.*?)\n    \}\n", text, re.S)
    assert cart, text[:3000]
    body = cart.group(1)
    assert '@SourceRef { repository = "grpc-mesh"; path = "proto/shop.proto"; line = 40; }' in body
    for line in ("attribute user_id : String;", "item items : CartItem[0..*];", "attribute <'state'> state_ : Cart_State;",
                 "attribute counts : Integer[0..*];", "attribute guest_token : String;"):
        assert f"\n        {line}" in body, line
    # a type the repositories do not define, and bytes: untyped, the proto type in the doc
    assert "attribute updated { doc /* google.protobuf.Timestamp updated = 5 */ }" in body
    assert "attribute blob { doc /* bytes blob = 8 */ }" in body
    assert "\n    enum def <'shop.v1.Cart.State'> Cart_State {" in text and "\n        enum CHECKED_OUT;" in text
    assert "\n    item def <'common.v1.Money'> Money :> ProtoMessage {" in text
    assert "item price : Money;" in text
    # the health messages are the library's, not redeclared here
    assert "HealthCheckRequest :> ProtoMessage" not in text


def test_service_port_def_and_typed_flows(model: Path) -> None:
    text = _text(model)
    assert "\n    port def CartServiceApi :> GrpcHealthApi {" in text  # serves grpc.health.v1 too
    assert "\n        in item AddItem_request : AddItemRequest :> request {" in text
    assert "\n        out item GetCart_response : Cart :> response {" in text
    assert "rpc CartService/WatchCart (shop.v1): response stream shop.v1.Cart" in text
    assert "\n    port def CheckoutServiceApi :> GrpcApi {" in text
    assert "\n    interface def CartServiceLink :> GrpcHealthLink {" in text
    assert "\n        end port client : ~CartServiceApi :>> client;" in text
    assert ("\n        flow AddItem_request of AddItemRequest from client.AddItem_request to server.AddItem_request;"
            in text)
    assert "\n        flow GetCart_response of Cart from server.GetCart_response to client.GetCart_response;" in text
    # the cart's port is typed by it, the checkout's client port by its conjugate, the link by the interface def
    assert re.search(r"\n        part cart : Service \{.*?\n            port grpc : CartServiceApi \{", text, re.S)
    assert "\n            port to_cart_grpc : ~CartServiceApi" in text
    assert re.search(r"interface <'checkout-cart-grpc'> checkout_cart_grpc : CartServiceLink connect "
                     r"client ::> checkout\.to_cart_grpc to server ::> cart\.grpc", text)
    # health is typed once, in the library; the service still lists the Health/Check endpoint it serves,
    # with its evidence, so the text reads back as analysed (diff of the model against itself is empty)
    assert "Health_Check_request" not in text and text.count('attribute :>> path = "Health/Check";') == 1
    library = (model / "RepoModeler.sysml").read_text(encoding="utf-8")
    assert library.count("port def GrpcHealthApi :> GrpcApi {") == 1
    assert "flow Check_request of HealthCheckRequest from client.Check_request to server.Check_request;" in library


def test_sysml_reader_reads_typed_ports_as_grpc(model: Path) -> None:
    read = read_sysml_file(model / "model.sysml")
    assert read.components["cart"].ports["grpc"].protocol == "grpc"
    assert read.components["checkout"].ports["to_cart_grpc"].protocol == "grpc"
    assert "checkout->cart:grpc" in {c.id for c in read.connections}
    assert ModelEndpoint("RPC", "Health/Check") in read.components["cart"].ports["grpc"].endpoints


def test_diff_of_the_typed_model_against_its_own_sysml_is_empty(model: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", str(model / "model.sysml"), str(model / "model.json")])
    assert result.exit_code == 0 and result.output.rstrip().endswith("no differences"), result.output


def test_model_json_renders_the_same_sysml(model: Path) -> None:
    assert render_sysml(load_model_dir(model)) == _text(model)


def test_every_reader_accepts_the_typed_model(model: Path, tmp_path: Path) -> None:
    files = [model / "RepoModeler.sysml", model / "model.sysml"]
    diagnostics = [d.format() for d in validate_files(files, strict=True)]
    assert diagnostics == []
    for path in files:
        assert tree_sitter_errors(path.read_text(encoding="utf-8")) == [], path.name
    longeron = pytest.importorskip("longeron")
    from longeron.validation import validate

    for path in files:
        assert longeron.parse_file(path).language == "sysml"
        shutil.copy(path, tmp_path / path.name)
    assert [str(d) for d in validate(longeron.load(str(tmp_path), cache=False), strict=True)] == []
    core = pytest.importorskip("mercurio._core")
    compiled = core.ModelBuilder.from_sysml_files({p.name: p.read_text(encoding="utf-8") for p in files},
                                                  True).compile_model()
    names = {e.get_str("qualified_name") or "" for e in compiled.elements()}
    assert {"grpc_mesh.CartServiceApi", "grpc_mesh.CartServiceLink", "grpc_mesh.Cart",
            "RepoModeler.GrpcHealthApi"} <= names
