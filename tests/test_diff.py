"""diff / target: added, removed, changed elements; Delta SysML; migration steps; viewer overlay."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES

from repomodeler.cli import cli
from repomodeler.diff.core import diff_models
from repomodeler.diff.load import load_model
from repomodeler.diff.overlay import diff_to_overlay
from repomodeler.diff.load import read_sysml_text
from repomodeler.validate import validate_files, validate_text
from tests.sysml_check import tree_sitter_errors

TARGET = str(SAMPLES / "targets" / "shop-target.sysml")


@pytest.fixture
def shop_model(runner, shop_repo, tmp_path) -> Path:
    repo, _sha = shop_repo
    out = tmp_path / "models" / "shop"
    result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate"])
    assert result.exit_code == 0, result.output
    return out


def test_diff_table_against_sample_target(runner, shop_model):
    result = runner.invoke(cli, ["diff", str(shop_model), TARGET])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any("component" in l and "payments-cache" in l and "added" in l for l in lines)
    assert any("component" in l and "inventory" in l and "removed" in l for l in lines)
    assert any("inventory -> rabbitmq:amqp" in l and "removed" in l for l in lines)
    assert any("orders -> payments:http" in l and "protocol: http -> grpc" in l for l in lines)
    assert "connections +1 -3 ~1" in result.output
    # same model on both sides: nothing, and --exit-code says so
    same = runner.invoke(cli, ["diff", str(shop_model), str(shop_model / "model.sysml"), "--exit-code"])
    assert same.exit_code == 0 and "no differences" in same.output
    assert runner.invoke(cli, ["diff", str(shop_model), TARGET, "--exit-code"]).exit_code == 1


def test_diff_json(runner, shop_model):
    result = runner.invoke(cli, ["diff", str(shop_model), TARGET, "--format", "json"])
    data = json.loads(result.output)
    by_id = {(c["element"], c["id"]): c for c in data["changes"]}
    assert by_id[("component", "payments-cache")]["status"] == "added"
    assert by_id[("component", "inventory")]["status"] == "removed"
    moved = by_id[("connection", "orders->payments:http")]
    assert moved["status"] == "changed" and moved["new_id"] == "orders->payments:grpc"
    assert moved["changes"] == [{"field": "protocol", "old": "http", "new": "grpc"}]
    assert data["counts"]["connection"] == {"added": 1, "removed": 3, "changed": 1}


def test_delta_sysml_passes_the_sysml_check(runner, shop_model, tmp_path):
    # a second model with an endpoint removed, an attribute changed and a connection dropped, so the
    # Delta carries component, port/endpoint and connection changes
    data = json.loads((shop_model / "model.json").read_text())
    for node in data["nodes"]:
        if node["id"] == "payments":
            node["ports"][0]["endpoints"] = [e for e in node["ports"][0]["endpoints"] if e["method"] != "POST"]
        if node["id"] == "cache":
            node["attributes"]["technology"] = "valkey"
    data["edges"] = [e for e in data["edges"] if e["id"] != "inventory->rabbitmq:amqp"]
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "model.json").write_text(json.dumps(data))
    result = runner.invoke(cli, ["diff", str(shop_model), str(tmp_path / "b"), "--format", "sysml"])
    assert result.exit_code == 0
    text = result.output
    assert "metadata def Change" in text
    # metadata about the elements of the emitted models (the same package on both sides here), no copies
    assert ('metadata changed_component_cache : Change about shop::ShopSystem::cache { kind = "changed"; '
            'element = "component"; elementId = "cache"; detail = "technology: redis -> valkey"; }') in text
    # an endpoint's change annotates the port that lists it, not the part owning the port
    assert ('metadata removed_endpoint_payments_http_POST_payments : Change about shop::ShopSystem::payments::http { '
            'kind = "removed"; element = "endpoint"; elementId = "payments.http:POST /payments"') in text
    assert ("metadata removed_connection_inventory_rabbitmq_amqp : Change about "
            "shop::ShopSystem::inventory_rabbitmq_amqp {") in text
    assert not re.search(r"^\s*(part|port|connection|interface) ", text, re.M)  # nothing redeclared
    delta = tmp_path / "delta.sysml"
    delta.write_text(text)
    errors = [d for d in validate_files([shop_model / "RepoModeler.sysml", shop_model / "model.sysml", delta])
              if d.severity == "error"]
    assert errors == []


def test_delta_against_the_target_is_about_elements_of_both(runner, shop_model, tmp_path):
    """Current model vs the sample target: each Change annotates the current model's element (removed),
    the target's (added) or both (changed); the four readers accept the delta with the two models."""
    result = runner.invoke(cli, ["diff", str(shop_model), TARGET, "--format", "sysml"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert ("metadata added_component_payments_cache : Change about ShopTarget::ShopTargetSystem::payments_cache "
            '{ kind = "added";') in text
    assert "metadata removed_component_inventory : Change about shop::ShopSystem::inventory {" in text
    assert ("metadata changed_connection_orders_payments_grpc : Change about shop::ShopSystem::orders_payments_http, "
            "ShopTarget::ShopTargetSystem::orders_payments_grpc {") in text
    folder = tmp_path / "together"
    folder.mkdir()
    for path in (shop_model / "RepoModeler.sysml", shop_model / "model.sysml", Path(TARGET)):
        shutil.copy(path, folder / path.name)
    (folder / "delta.sysml").write_text(text)
    files = sorted(folder.glob("*.sysml"))
    assert [d.format() for d in validate_files(files)] == []
    for path in files:
        assert tree_sitter_errors(path.read_text()) == [], path.name
    longeron = pytest.importorskip("longeron")
    from longeron.validation import validate

    assert [str(d) for d in validate(longeron.load(str(folder), cache=False), strict=True)] == []
    core = pytest.importorskip("mercurio._core")
    compiled = core.ModelBuilder.from_sysml_files({p.name: p.read_text() for p in files}, True).compile_model()
    names = {e.get_str("qualified_name") or "" for e in compiled.elements()}
    assert "shopDelta.removed_component_inventory.kind" in names


def test_migration_steps_order(runner, shop_model, tmp_path):
    out = tmp_path / "plan.md"
    result = runner.invoke(cli, ["diff", str(shop_model), TARGET, "--steps", "--out", str(out)])
    assert result.exit_code == 0, result.output
    steps = [l for l in out.read_text().splitlines() if l[:1].isdigit()]
    assert steps == [
        "1. Introduce `payments-cache` (cache, redis).",
        "2. Add API port `payments.grpc` (gRPC).",
        "3. Connect `payments` to `payments-cache` over Redis.",
        "4. Move `orders` calls to `payments` from HTTP to gRPC.",
        "5. Remove the HTTP connection `frontend` -> `inventory` (`inventory` is retired).",
        "6. Remove the SQL connection `inventory` -> `orders-db` (goes with `inventory`).",
        "7. Remove the AMQP connection `inventory` -> `rabbitmq` (goes with `inventory`).",
        "8. Withdraw API port `payments.http`.",
        "9. Retire `inventory` after its 1 caller is moved (`frontend`).",
    ]
    plan = runner.invoke(cli, ["target", "plan", str(shop_model), TARGET])
    assert plan.output == out.read_text()


def test_normalised_name_match_is_reported(shop_model):
    target = read_sysml_text("""
package T { part system {
    part Orders_DB : Database;
    part orders : Service;
    connect orders to Orders_DB { attribute protocol = "sql"; }
} }""", "t.sysml")
    d = diff_models(load_model(str(shop_model)), target)
    assert ("orders-db", "Orders_DB") in d.matches
    assert "component 'Orders_DB' in t.sysml matched 'orders-db' by normalised name" in d.notes
    assert not any(c.id == "orders-db" for c in d.changes)
    assert not any(c.id == "orders->orders-db:sql" for c in d.changes)  # connection matched through the rename


def test_target_init_scaffold_validates_and_matches_the_model(runner, shop_model, tmp_path):
    target = tmp_path / "target.sysml"
    result = runner.invoke(cli, ["target", "init", str(shop_model), "--out", str(target)])
    assert result.exit_code == 0, result.output
    text = target.read_text()
    assert text.startswith("package shopTarget {") and "@SourceRef" not in text
    assert "doc /* Target architecture for shop" in text
    # the system def specializes the model's own instead of copying it: no part, port or link of its own
    assert "\n    part def ShopTargetSystem :> shop::ShopSystem {" in text and "\n    part system : ShopTargetSystem;" in text
    assert not re.search(r"^\s*(part|port|interface|connection) (?!def ShopTargetSystem|system :)", text, re.M)
    # the model it specializes and the library are files of their own beside it, as analyze writes them
    library, model = tmp_path / "RepoModeler.sysml", tmp_path / "model.sysml"
    assert library.read_text() == (shop_model / "RepoModeler.sysml").read_text()
    assert model.read_text() == (shop_model / "model.sysml").read_text()
    assert [d.format() for d in validate_files([library, model, target])] == []
    assert runner.invoke(cli, ["validate", str(tmp_path)]).exit_code == 0
    same = runner.invoke(cli, ["diff", str(shop_model), str(target)])
    assert "no differences" in same.output
    # refuses to overwrite an edited target
    again = runner.invoke(cli, ["target", "init", str(shop_model), "--out", str(target)])
    assert again.exit_code == 1 and "--force" in again.output


def test_target_keeps_the_typed_apis_and_an_edit_is_exactly_that_change(runner, shop_model, tmp_path):
    """Issue #24: the scaffold specializes the generated system def, so the typed HTTP port defs (with
    their operations) and every value come from the model; an edit in the target's def is the diff."""
    target = tmp_path / "target.sysml"
    assert runner.invoke(cli, ["target", "init", str(shop_model), "--out", str(target)]).exit_code == 0
    read = load_model(str(target))
    current = load_model(str(shop_model))
    assert read.components.keys() == current.components.keys()
    assert read.components["payments"].ports["http"].endpoints == current.components["payments"].ports["http"].endpoints
    assert [str(e) for e in read.components["payments"].ports["http"].endpoints] == [
        str(e) for e in current.components["payments"].ports["http"].endpoints] != []
    assert "port http : PaymentsHttpApi {" in (tmp_path / "model.sysml").read_text()  # typed by its port def

    # add a cache for payments (payments redefined to gain its client port) and retire one interface
    text = target.read_text().replace("with the edits written here. */\n    }", """with the edits written here. */
        part <'payments-cache'> payments_cache : Cache {
            port redis : RedisApi;
        }
        part payments :>> payments {
            port to_payments_cache_redis : ~RedisApi;
        }
        interface <'payments-payments-cache-redis'> payments_payments_cache_redis : RedisLink connect client ::> payments.to_payments_cache_redis to server ::> payments_cache.redis;
        interface :>> frontend_inventory_http[0];
    }""")
    assert text != target.read_text()
    target.write_text(text)
    folder = sorted(tmp_path.glob("*.sysml"))
    assert [d.format() for d in validate_files(folder)] == []
    for path in folder:
        assert tree_sitter_errors(path.read_text()) == [], path.name
    d = diff_models(current, load_model(str(target)))
    assert sorted((c.status, c.element, c.id) for c in d.changes) == [
        ("added", "component", "payments-cache"),
        ("added", "connection", "payments->payments-cache:redis"),
        ("removed", "connection", "frontend->inventory:http"),
    ]
    edited = load_model(str(target))
    # the redefined part keeps what it inherits (values, typed ports with their operations) and gains its port
    assert edited.components["payments"].attributes == read.components["payments"].attributes != {}
    assert edited.components["payments"].ports["http"] == read.components["payments"].ports["http"]
    assert edited.components["payments"].ports.keys() - read.components["payments"].ports.keys() == {
        "to_payments_cache_redis"}

    # each Change annotates the element itself: the target's new part and interface, the model's retired one
    delta = runner.invoke(cli, ["diff", str(shop_model), str(target), "--format", "sysml"])
    assert delta.exit_code == 0, delta.output
    assert "Change about shopTarget::ShopTargetSystem::payments_cache {" in delta.output
    assert "Change about shopTarget::ShopTargetSystem::payments_payments_cache_redis {" in delta.output
    assert "Change about shop::ShopSystem::frontend_inventory_http {" in delta.output
    (tmp_path / "delta.sysml").write_text(delta.output)
    assert [d.format() for d in validate_files(sorted(tmp_path.glob("*.sysml")))] == []

    # retiring a part takes its connections with it
    target.write_text(text.replace("interface :>> frontend_inventory_http[0];", "part :>> inventory[0];"))
    gone = diff_models(current, load_model(str(target)))
    assert ("removed", "component", "inventory") in {(c.status, c.element, c.id) for c in gone.changes}
    assert not any(c.source == "inventory" or c.target == "inventory" for c in load_model(str(target)).connections)


def test_a_target_without_its_model_beside_it_says_so(runner, shop_model, tmp_path):
    target = tmp_path / "t" / "target.sysml"
    assert runner.invoke(cli, ["target", "init", str(shop_model), "--out", str(target)]).exit_code == 0
    (target.parent / "model.sysml").unlink()
    read = load_model(str(target))
    assert read.components == {}
    assert any("'shop::ShopSystem' is not declared in a .sysml file beside target.sysml" in str(n) for n in read.notes)


def test_viewer_overlay(shop_model, tmp_path):
    overlay = diff_to_overlay(diff_models(load_model(str(shop_model)), load_model(TARGET)))
    json.dumps(overlay)  # JSON-able
    assert overlay["nodes"]["inventory"] == "removed"
    assert overlay["nodes"]["payments-cache"] == "added"
    assert overlay["edges"]["orders->payments:http"] == "changed"
    assert overlay["edges"]["orders->payments:grpc"] == "changed"
    assert {"id": "payments->payments-cache:redis", "source": "payments", "target": "payments-cache",
            "protocol": "redis"} in overlay["ghost_edges"]
    assert {"id": "payments-cache", "kind": "cache"} in overlay["ghost_nodes"]
    texts = [c["text"] for c in overlay["changes"]]
    assert "connection orders -> payments:http changed: protocol: http -> grpc" in texts


def test_diff_bad_inputs(runner, tmp_path):
    result = runner.invoke(cli, ["diff", str(tmp_path / "nope"), TARGET])
    assert result.exit_code == 1 and "does not exist" in result.output
    result = runner.invoke(cli, ["diff", "run:nosuch:1", TARGET])
    assert result.exit_code == 1 and "no recorded runs for system 'nosuch'" in result.output


def test_target_that_declares_ports(runner, shop_model):
    # the sample target states every component's ports, as generated models do: payments serves gRPC only
    d = diff_models(load_model(str(shop_model)), load_model(TARGET))
    ports = {(c.id, c.status) for c in d.of("port")}
    assert ports == {("payments.grpc", "added"), ("payments.http", "removed")}
    assert any(n.startswith("endpoints of ") and "not compared" in n for n in d.notes)
    steps = runner.invoke(cli, ["diff", str(shop_model), TARGET, "--steps"]).output
    assert "Add API port `payments.grpc` (gRPC)." in steps
    assert steps.index("Add API port `payments.grpc`") < steps.index("Move `orders` calls to `payments`") \
        < steps.index("Withdraw API port `payments.http`.") < steps.index("Retire `inventory`")
