"""`repomodeler query`: callers, callees, impact, path, uses, evidence, unresolved, changes, against.

On the shop sample analysed in the test (four services, PostgreSQL with two logical databases,
Redis, RabbitMQ): every answer names the components and connections a reader of the sample's
code finds, with the file:line that shows each and the rules that made it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES, commit_all, make_repo

from repomodeler.cli import cli
from repomodeler.query import QueryError, QueryIndex, callees, callers, components, impact, load, path, uses

TARGET = str(SAMPLES / "targets" / "shop-target.sysml")
OLD_SHOP = Path(__file__).parent / "fixtures" / "models" / "shop" / "model.json"  # an older model: no rules


@pytest.fixture
def shop(runner, shop_repo, tmp_path) -> Path:
    repo, _sha = shop_repo
    out = tmp_path / "models" / "shop"
    result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate", "-j", "1"])
    assert result.exit_code == 0, result.output
    return out


def ask(runner, *args: str) -> dict:
    result = runner.invoke(cli, ["query", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_callers_name_the_caller_with_the_line_and_the_rules(runner, shop):
    answer = ask(runner, str(shop), "callers", "orders")
    assert answer["subject"]["id"] == "orders"
    assert [n["component"]["id"] for n in answer["neighbours"]] == ["frontend"]
    link = answer["neighbours"][0]["links"][0]
    assert link["id"] == "frontend->orders:http" and link["via"] == "env ORDERS_URL"
    assert "shop:frontend/server.js:5" in link["evidence"]
    assert set(link["rules"]) == {"code.client-calls", "config.address-values"}
    messages = {r["id"]: r["message"] for r in answer["rules"]}
    assert messages["code.client-calls"].startswith("An HTTP client call")


def test_callees_list_every_dependency_once_per_component(runner, shop):
    answer = ask(runner, str(shop), "callees", "orders")
    assert [n["component"]["id"] for n in answer["neighbours"]] == [
        "cache", "orders-db", "orders-db/orders", "payments", "rabbitmq"]
    by_id = {n["component"]["id"]: n for n in answer["neighbours"]}
    assert by_id["orders-db/orders"]["component"]["parent"] == "orders-db"  # the logical database it names
    assert by_id["rabbitmq"]["links"][0]["topics"] == ["orders.created"]
    assert "shop:orders/main.py:28" in by_id["payments"]["links"][0]["evidence"]


def test_impact_follows_dependants_transitively_with_the_path_to_each(runner, shop):
    answer = ask(runner, str(shop), "impact", "orders-db")
    got = [(r["component"]["id"], r["distance"], r["path"]) for r in answer["impacted"]]
    assert got == [
        ("inventory", 1, ["inventory->orders-db:sql"]),
        ("orders", 1, ["orders->orders-db:sql"]),
        ("frontend", 2, ["frontend->inventory:http", "inventory->orders-db:sql"]),
        ("user", 3, ["user->frontend:http", "frontend->inventory:http", "inventory->orders-db:sql"]),
    ]
    links = {link["id"]: link for link in answer["links"]}
    assert sorted(links) == ["frontend->inventory:http", "inventory->orders-db:sql", "orders->orders-db:sql",
                             "user->frontend:http"]
    assert "shop:inventory/src/main/resources/application.yml:5" in links["inventory->orders-db:sql"]["evidence"]
    assert answer["total"] == 4 and not answer["truncated"]
    nearest = ask(runner, str(shop), "impact", "orders-db", "--limit", "2")
    assert [r["component"]["id"] for r in nearest["impacted"]] == ["inventory", "orders"]
    assert nearest["total"] == 4 and nearest["truncated"] and len(nearest["links"]) == 2


def test_impact_crosses_a_broker_from_publisher_to_subscriber(runner, shop):
    """inventory consumes orders.created, which orders publishes: it depends on orders through rabbitmq."""
    answer = ask(runner, str(shop), "impact", "orders")
    got = {r["component"]["id"]: r["path"] for r in answer["impacted"]}
    assert got == {"frontend": ["frontend->orders:http"],
                   "inventory": ["inventory->rabbitmq:amqp", "orders->rabbitmq:amqp"],
                   "user": ["user->frontend:http", "frontend->orders:http"]}
    assert [r["distance"] for r in answer["impacted"]] == [1, 1, 2]


def test_path_goes_through_gateways_and_brokers(runner, shop):
    answer = ask(runner, str(shop), "path", "user", "inventory")
    routes = [(r["through"], r["reversed"]) for r in answer["routes"]]
    assert routes == [
        (["user", "frontend", "inventory"], [False, False]),
        (["user", "frontend", "orders", "rabbitmq", "inventory"], [False, False, False, True]),
    ]
    last = answer["routes"][1]["hops"][-1]
    assert last["id"] == "inventory->rabbitmq:amqp" and last["topics"] == ["orders.created"]
    assert "shop:inventory/src/main/java/com/acme/inventory/OrderEvents.java:9" in last["evidence"]
    back = ask(runner, str(shop), "path", "inventory", "user")
    assert back["routes"] == [] and "user reaches inventory" in back["note"]


def test_path_through_a_broker_needs_the_same_topic(shop):
    loaded = load(str(shop))
    data = json.loads((shop / "model.json").read_text())
    for edge in data["edges"]:
        if edge["source"] == "inventory" and edge["target"] == "rabbitmq":
            edge["attributes"]["subscribes"] = "payments.settled"
    (shop / "model.json").write_text(json.dumps(data))
    index = QueryIndex(load(str(shop)).model)
    assert [r.through for r in path(index, "user", "inventory").routes] == [("user", "frontend", "inventory")]
    assert len(path(QueryIndex(loaded.model), "user", "inventory").routes) == 2


def test_uses_answers_for_a_topic_a_store_and_an_endpoint(runner, shop):
    topic = ask(runner, str(shop), "uses", "orders.created")
    assert topic["what"] == "topic"
    assert [(u["role"], u["component"]["id"]) for u in topic["users"]] == [("publishes", "orders"), ("subscribes", "inventory")]
    assert "shop:orders/main.py:30" in topic["users"][0]["evidence"]
    store = ask(runner, str(shop), "uses", "orders-db")
    assert [(u["role"], u["component"]["id"]) for u in store["users"]] == [("uses", "inventory"), ("uses", "orders")]
    endpoint = ask(runner, str(shop), "uses", "GET", "/inventory/all")  # unquoted words are joined
    assert [(u["role"], u["component"]["id"]) for u in endpoint["users"]] == [("provides", "inventory"), ("calls", "frontend")]
    assert endpoint["users"][0]["evidence"] == ["shop:inventory/src/main/java/com/acme/inventory/InventoryController.java:13"]
    templated = ask(runner, str(shop), "uses", "endpoint:/orders/42")  # a path parameter matches a value
    assert [u["component"]["id"] for u in templated["users"] if u["role"] == "provides"] == ["orders"]


def test_evidence_of_a_connection_a_component_and_an_endpoint(runner, shop):
    conn = ask(runner, str(shop), "evidence", "orders->payments")
    assert conn["element"] == "orders->payments:http" and conn["type"] == "connection"
    assert "shop:orders/main.py:28" in conn["evidence"] and conn["attributes"]["via"] == "env PAYMENTS_URL"
    assert {r["id"] for r in conn["rules"]} == {"code.client-calls", "config.address-values"}
    comp = ask(runner, str(shop), "evidence", "ORDERS")  # ids in any case
    assert comp["element"] == "orders" and comp["evidence"] == ["shop:docker-compose.yml:13"]
    assert comp["attributes"]["language"] == "python"
    endpoint = ask(runner, str(shop), "evidence", "orders:POST /orders")
    assert endpoint["type"] == "endpoint" and endpoint["evidence"] == ["shop:orders/main.py:26"]


def test_unresolved_lists_what_analysis_could_not_tie(runner):
    answer = ask(runner, str(OLD_SHOP), "unresolved")
    assert [(i["component"], i["value"], i["evidence"]) for i in answer["items"]] == [
        ("orders", "${PRICING_URL}/quote", "shop:orders/app.py:25"),
        ("orders", "gRPC client of inventory.Stock", "shop:orders/app.py:16"),
    ]


def test_table_output_for_people(runner, shop):
    result = runner.invoke(cli, ["query", str(shop), "impact", "orders-db"])
    assert result.exit_code == 0, result.output
    assert "impact of orders-db (database)" in result.output
    assert "  user (user), 3 step(s) away" in result.output
    assert "evidence: shop:docker-compose.yml:34, shop:inventory/src/main/resources/application.yml:5" in result.output
    assert "config.address-values: A setting" in result.output


def test_a_sysml_file_is_read_through_the_canonical_model(runner, shop):
    answer = ask(runner, str(shop / "model.sysml"), "callers", "orders")
    assert [n["component"]["id"] for n in answer["neighbours"]] == ["frontend"]
    assert "shop:frontend/server.js:5" in answer["neighbours"][0]["links"][0]["evidence"]
    impacted = ask(runner, str(shop / "model.sysml"), "impact", "orders-db")
    assert [r["component"]["id"] for r in impacted["impacted"]] == ["inventory", "orders", "frontend", "user"]


def test_against_a_target_lists_the_changes_with_evidence(runner, shop):
    answer = ask(runner, str(shop), "against", TARGET)
    changes = {(c["element"], c["id"], c["status"]): c for c in answer["changes"]}
    removed = changes[("component", "inventory", "removed")]
    assert "shop:docker-compose.yml:30" in removed["evidence"] and "compose.services" in removed["rules"]
    assert ("component", "payments-cache", "added") in changes
    assert changes[("port", "payments.http", "removed")]["evidence"] == ["shop:payments/main.go:25", "shop:payments/main.go:26"]
    changed = changes[("connection", "orders->payments:http", "changed")]
    assert changed["new_id"] == "orders->payments:grpc" and changed["detail"] == "protocol: http -> grpc"
    # what the hand-written target leaves unsaid (languages, images) is not a change
    assert not [c for c in answer["changes"] if c["element"] == "component" and c["status"] == "changed"]


def test_changes_between_two_runs_of_the_history(runner, shop_repo, tmp_path):
    repo, _sha = shop_repo
    out = tmp_path / "models" / "shop"
    for _ in range(2):
        result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate", "-j", "1"])
        assert result.exit_code == 0, result.output
        compose = repo / "docker-compose.yml"
        compose.write_text(compose.read_text() + "  audit:\n    image: busybox:1.36\n")
        commit_all(repo, "add audit")
    answer = ask(runner, "run:shop:latest", "changes", "1", "2")
    assert (answer["a"], answer["b"]) == ("run:shop:1", "run:shop:2")
    added = [c for c in answer["changes"] if c["status"] == "added" and c["element"] == "component"]
    assert [c["id"] for c in added] == ["audit"]
    line = compose.read_text().splitlines().index("  audit:") + 1
    assert added[0]["evidence"] == [f"shop:docker-compose.yml:{line}"]
    asked = ask(runner, "run:shop:1", "callers", "orders")  # any question of a stored run
    assert asked["model"] == "run:shop:1" and [n["component"]["id"] for n in asked["neighbours"]] == ["frontend"]
    same = ask(runner, str(out), "changes", "previous", "run:shop:latest")  # the folder's system name
    assert [c["id"] for c in same["changes"] if c["status"] == "added"] == ["audit"]


@pytest.mark.parametrize("args, message", [
    (["callers", "nope"], "error: no component 'nope' in "),
    (["callers", "order"], "did you mean orders"),
    (["path", "user"], "error: 'path' takes 2 argument(s): repomodeler query MODEL path FROM TO"),
    (["evidence", "orders->nope"], "error: no component 'nope'"),
    (["evidence", "orders->stripe-nothing:http"], "error: no component 'stripe-nothing'"),
    (["evidence", "frontend->payments"], "error: no connection 'frontend->payments'"),
    (["uses", "no.such.topic"], "is no component, topic or endpoint"),
    (["changes", "1", "x"], "error: 'x' is not a run"),
    (["changes", "1", "9"], "9"),
])
def test_bad_questions_get_one_line(runner, shop, args, message):
    result = runner.invoke(cli, ["query", str(shop), *args])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_a_missing_model_is_one_line(runner, tmp_path):
    result = runner.invoke(cli, ["query", str(tmp_path / "nothing"), "unresolved"])
    assert result.exit_code == 1 and "does not exist; give a model folder" in result.output
    (tmp_path / "x.txt").write_text("hi")
    result = runner.invoke(cli, ["query", str(tmp_path / "x.txt"), "unresolved"])
    assert result.exit_code == 1 and "neither a model.json nor a .sysml file" in result.output


def test_library_questions_refuse_ambiguous_and_empty_names(shop):
    index = QueryIndex(load(str(shop)).model)
    with pytest.raises(QueryError, match="empty component name"):
        callers(index, "  ")
    assert callees(index, "Frontend").subject.id == "frontend"
    with pytest.raises(QueryError, match="max_routes"):
        path(index, "user", "orders", max_routes=0)
    assert impact(index, "user").impacted == ()
    assert uses(index, "store:cache").users[0].component.id == "orders"
    assert [c.id for c in components(index, "database").components] == ["orders-db"]
    assert [c.id for c in components(index, "subsystem").components] == ["inventory/com.acme.inventory"]
    assert components(index, "database", nested=True).total == 3


def test_query_copes_with_the_old_fixture_model(runner, tmp_path):
    """A model.json of an older repomodeler (no rules) still answers, with no rules named."""
    shutil.copy(OLD_SHOP, tmp_path / "model.json")
    answer = ask(runner, str(tmp_path), "callers", "payments")
    assert [n["component"]["id"] for n in answer["neighbours"]] == ["orders"]
    assert answer["rules"] == []


def test_real_repository_folder_with_git_is_fine(runner, tmp_path):
    repo = tmp_path / "svc"
    make_repo(repo, {"app.py": 'import flask\napp = flask.Flask("svc")\n\n@app.route("/hello")\ndef hello():\n    return "hi"\n'})
    out = tmp_path / "m"
    assert runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate", "-j", "1"]).exit_code == 0
    answer = ask(runner, str(out), "uses", "GET /hello")
    assert [(u["role"], u["component"]["id"], u["evidence"]) for u in answer["users"]] == [
        ("provides", "svc", ["svc:app.py:4"])]
