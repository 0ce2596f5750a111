"""The SysML reader: emitted models read back to what model.json says; hand-written targets; notes."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLES

from repomodeler.cli import cli
from repomodeler.records import Evidence
from repomodeler.diff.load import load_model_json
from repomodeler.diff.load import read_sysml_file, read_sysml_text


def _analyze(runner, repo: Path, out: Path) -> None:
    result = runner.invoke(cli, ["analyze", str(repo), "--out", str(out), "-q", "--no-validate"])
    assert result.exit_code == 0, result.output


def test_emitted_model_reads_back_to_model_json(runner, shop_repo, tmp_path):
    repo, _sha = shop_repo
    _analyze(runner, repo, tmp_path / "m")
    from_sysml = read_sysml_file(tmp_path / "m" / "model.sysml")
    from_json = load_model_json(tmp_path / "m" / "model.json")

    assert from_sysml.notes == []
    assert from_sysml.name == "shop"
    assert {c: m.kind for c, m in from_sysml.components.items()} == {c: m.kind for c, m in from_json.components.items()}
    assert from_sysml.components["orders-db"].kind == "database"
    assert from_sysml.components["orders"].attributes["language"] == "python"
    for cid, comp in from_json.components.items():
        got = from_sysml.components[cid].provided_ports()
        assert {n: (p.protocol, p.endpoints) for n, p in got.items()} == \
            {n: (p.protocol, p.endpoints) for n, p in comp.provided_ports().items()}, cid
    assert [e.label for e in from_sysml.components["payments"].ports["http"].endpoints] == \
        ["GET /payments/{id}", "POST /payments"]
    assert from_sysml.connection_ids() == from_json.connection_ids()
    assert "orders->payments:http" in from_sysml.connection_ids()
    assert "inventory->rabbitmq:amqp" in from_sysml.connection_ids()
    # evidence comes back from @SourceRef
    assert "shop:docker-compose.yml:13" in from_sysml.components["orders"].evidence


HAND = """\
package Plan {
    part def Store :> RepoModeler::Database;
    connection def GrpcLink { end part a; end part b; }
    part system {
        part web : Gateway;
        part api : Service { port rpc : GrpcApi; }
        part worker;
        part db : Store;
        part bus : Broker;
        connect web to api { attribute protocol = "http"; }
        connection : GrpcLink connect worker to api;
        interface connect worker.out to api.rpc;
        flow of Message from api to bus;
        message m of Message from worker to bus;
        connection connect api to db { attribute protocol = Protocol::sql; }
        action deploy;
        interface connect (web, api, db);
        connect api to nowhere;
    }
}
"""


def test_sysml_reads_into_the_canonical_model(runner, shop_repo, tmp_path):
    """The reader's output is the same record type model.json is read into (repomodeler.model.Model):
    the emitted SysML of a model gives its components with their parents, ports and evidence, its
    connections, and each element's declaration place; diff/check index that one representation."""
    from repomodeler.model import Model, read_file
    from repomodeler.sysml_reader import read_model_file

    repo, _sha = shop_repo
    _analyze(runner, repo, tmp_path / "m")
    sysml = read_model_file(tmp_path / "m" / "model.sysml")
    json_model = read_file(tmp_path / "m" / "model.json")
    assert isinstance(sysml, Model) and not sysml.complete and json_model.complete
    assert sysml.notes == ()
    assert {c.id: (c.kind, sysml.parent_of(c.id)) for c in sysml.components.values()} == \
        {c.id: (c.kind, json_model.parent_of(c.id)) for c in json_model.components.values()}
    assert [c.id for c in sysml.top_level()] == [c.id for c in json_model.top_level()]
    assert set(json_model.connections) <= set(sysml.connections)
    payments = {p.name: p for p in sysml.components["payments"].ports}
    assert [(e.method, e.path) for e in payments["http"].endpoints] == [("GET", "/payments/{id}"), ("POST", "/payments")]
    assert Evidence("shop", "docker-compose.yml", 13) in sysml.components["orders"].evidence
    where = sysml.declared["orders"].where
    assert where.startswith(str(tmp_path / "m" / "model.sysml") + ":") and int(where.rsplit(":", 1)[1]) > 1
    assert sysml.declared["orders"].sysml_ref.endswith("::orders")


def test_hand_written_target_every_connector_form():
    model = read_sysml_text(HAND, "plan.sysml")
    assert model.name == "Plan"
    assert {c: m.kind for c, m in model.components.items()} == {
        "api": "service", "bus": "broker", "db": "database", "web": "gateway", "worker": "service"}
    assert model.connection_ids() == {
        "web->api:http",        # attribute protocol = "..."
        "worker->api:grpc",     # connection def name, and the port type api.rpc : GrpcApi
        "api->bus:tcp",         # flow without protocol: tcp, with a note
        "worker->bus:tcp",      # message
        "api->db:sql",          # enum-valued protocol attribute
    }
    notes = [str(n) for n in model.notes]
    assert "plan.sysml:7: part 'worker' is untyped; assumed to be a service" in notes
    assert any(n.startswith("plan.sysml:13: 'flow' api -> bus names no protocol; assumed tcp") for n in notes)
    assert "plan.sysml:16: 'action usage' deploy not mapped to the architecture" in notes
    assert "plan.sysml:17: 'interface' with 3 ends not mapped (a connection needs exactly two)" in notes
    assert any(n.startswith("plan.sysml:18: 'connect' end 'nowhere' is not a part of the system") for n in notes)


def test_syntax_error_is_reported_with_line_not_dropped():
    text = "package P {\n  part system {\n    part a : Service;\n    part b : : ;\n    part c : Cache;\n  }\n}\n"
    model = read_sysml_text(text, "broken.sysml")
    assert "a" in model.components and "c" in model.components
    assert any(n.line == 4 and "syntax error" in n.message for n in model.notes)


def test_sample_shop_target_reads_cleanly():
    model = read_sysml_file(SAMPLES / "targets" / "shop-target.sysml")
    assert model.notes == []
    assert model.components["payments-cache"].kind == "cache"
    assert model.components["payments-cache"].attributes["technology"] == "redis"
    assert "inventory" not in model.components
    assert "orders->payments:grpc" in model.connection_ids()
    assert "payments->payments-cache:redis" in model.connection_ids()


def test_renamed_parts_map_back_to_component_ids():
    # the emitter renames members that clash with inherited features ('start' -> 'start-service');
    # its doc keeps the real id, and connectors that name the renamed part still resolve
    text = """package p { part system {
        part 'start-service' : Service { doc /* Service 'start', found in shop:compose.yml. */ port http : HttpApi; }
        part 'done-cache' : Cache;
        connect 'done-cache' to 'start-service'.http;
    } }"""
    model = read_sysml_text(text, "m.sysml")
    assert sorted(model.components) == ["done", "start"]
    assert model.connection_ids() == {"done->start:http"}
