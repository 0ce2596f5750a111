"""analyze --inputs / --discover: an organisation as a landscape of systems (local engine)."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from repomodeler.landscape import run as landscape_run
from repomodeler.landscape.engine import LocalEngine
from repomodeler.landscape.inputs import discover, read_inputs_file
from repomodeler.landscape.run import LandscapeOptions, analyze_landscape
from repomodeler.landscape.signature import Ref
from repomodeler.landscape.systems import infer_systems
from repomodeler.records import Evidence, RepomodelerError
from tests.conftest import commit_all, make_repo, run_cli
from tests.landscape_support import inputs_yaml, make_org


def _edges(out: Path) -> dict[str, dict]:
    return {e["id"]: e for e in json.loads((out / "landscape.json").read_text())["edges"]}


# ---- inputs -------------------------------------------------------------------------------------
def test_text_inputs_with_systems_and_relative_paths(tmp_path: Path) -> None:
    make_repo(tmp_path / "a", {"x.py": "print(1)\n"})
    listing = tmp_path / "inputs.txt"
    listing.write_text("# the organisation\n[core]\na\nhttps://example.com/acme/b.git@v1  # pinned\n\n[edge]\n"
                       "git@example.com:acme/c.git\n", encoding="utf-8")
    got = read_inputs_file(listing)
    assert [(i.raw, i.system) for i in got.inputs] == [
        (str(tmp_path / "a"), "core"), ("https://example.com/acme/b.git@v1", "core"),
        ("git@example.com:acme/c.git", "edge")]


def test_yaml_inputs_forms_and_errors(tmp_path: Path) -> None:
    listing = tmp_path / "org.yml"
    listing.write_text("systems:\n  - name: shop\n    repositories:\n      - url: https://example.com/a/shop.git\n"
                       "        commit: abc123\nrepositories:\n  - https://example.com/a/loose.git\n", encoding="utf-8")
    got = read_inputs_file(listing)
    assert [(i.raw, i.system) for i in got.inputs] == [("https://example.com/a/shop.git@abc123", "shop"),
                                                       ("https://example.com/a/loose.git", None)]
    listing.write_text("systems:\n  shop:\n    - 42\n", encoding="utf-8")
    with pytest.raises(RepomodelerError, match="system 'shop' entry 1"):
        read_inputs_file(listing)
    listing.write_text("systems:\n  a: [https://x.org/r.git]\n  b: [https://x.org/r.git]\n", encoding="utf-8")
    with pytest.raises(RepomodelerError, match="listed under system 'a' and 'b'"):
        read_inputs_file(listing)


def test_discover_finds_each_repository_once_and_follows_no_symlink(tmp_path: Path) -> None:
    make_repo(tmp_path / "org" / "team1" / "alpha", {"a.py": "x = 1\n"})
    make_repo(tmp_path / "org" / "beta", {"b.py": "x = 1\n"})
    make_repo(tmp_path / "org" / "beta" / "vendored" / "inner", {"c.py": "x = 1\n"})  # inside beta: not searched
    make_repo(tmp_path / "outside", {"d.py": "x = 1\n"})
    (tmp_path / "org" / "link").symlink_to(tmp_path / "outside")
    found = [i.raw for i in discover(tmp_path / "org").inputs]
    assert found == [str(tmp_path / "org" / "beta"), str(tmp_path / "org" / "team1" / "alpha")]
    with pytest.raises(RepomodelerError, match="holds no git repository"):
        discover(tmp_path / "outside" / ".git" / "refs")


# ---- the landscape ------------------------------------------------------------------------------
def test_given_systems_and_their_cross_system_connections(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    out = tmp_path / "models"
    proc = run_cli(["analyze", "--inputs", str(inputs_yaml(tmp_path, paths)), "--out", str(out), "--name", "acme",
                    "--jobs", "2"])
    assert proc.returncode == 0, proc.stderr
    assert "landscape acme: 2 systems, 4 repositories" in proc.stdout
    # each system is a model folder of its own, with the usual files
    for system in ("payments", "ledger"):
        assert {"model.json", "model.sysml", "RepoModeler.sysml", "run.json"} <= {p.name for p in (out / system).iterdir()}
    landscape = json.loads((out / "landscape.json").read_text())
    systems = {n["id"]: n for n in landscape["nodes"] if not n.get("parent")}
    assert {k: v["kind"] for k, v in systems.items()} == {"ledger": "system", "payments": "system"}
    nested = {n["id"]: n["parent"] for n in landscape["nodes"] if n.get("parent")}
    assert nested["payments/pay-api"] == "payments" and nested["ledger/ledger-api"] == "ledger"
    edges = _edges(out)
    call = edges["payments/pay-api->ledger/ledger-api:http"]
    assert call["kind"] == "calls" and {"repository": "pay-api", "path": "docker-compose.yml", "line": 5} in call["evidence"]
    library = edges["ledger/ledger-worker->payments/pay-lib:library"]
    assert library["kind"] == "depends_on" and library["attributes"]["packages"] == "npm:@acme/pay-lib"
    assert {"repository": "ledger-worker", "path": "package.json", "line": 9} in library["evidence"]
    topic = edges["payments/pay-api->ledger/ledger-worker:rabbitmq"]
    assert topic["kind"] == "publishes" and topic["attributes"]["topics"] == "payments.done"
    assert {"repository": "pay-api", "path": "app/main.py", "line": 13} in topic["evidence"]
    # the landscape package connects the systems' packages; with them and the library it passes the strict check
    sysml = (out / "landscape.sysml").read_text()
    assert "part payments_system : payments::PaymentsSystem" in sysml
    assert "connect payments_system.pay_api to ledger_system.ledger_api" in sysml


def test_systems_inferred_from_joins_and_named_from_prefix() -> None:
    ev = Evidence("r", "f", 1)
    refs = {
        "payments-api": ((Ref("topic", "paid", "payments-api", "rabbitmq", ev),), ()),
        "payments-worker": ((), (Ref("topic", "paid", "payments-worker", "rabbitmq", ev),)),
        "search": ((), ()),
        "web": ((), (Ref("package", "npm:@acme/ui", "web", "library", ev),)),
        "ui-kit": ((Ref("package", "npm:@acme/ui", "ui-kit", "library", ev),), ()),
    }
    assert infer_systems(refs, {}) == {"payments-api": "payments", "payments-worker": "payments", "search": "search",
                                       "ui-kit": "ui-kit", "web": "ui-kit"}  # no prefix: the one depended on
    # input order does not matter
    assert infer_systems(dict(reversed(list(refs.items()))), {}) == infer_systems(refs, {})


def test_rerun_after_one_repository_moved_reextracts_it_and_resolves_its_system_only(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    inputs = inputs_yaml(tmp_path, paths)
    out = tmp_path / "models"
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"]).returncode == 0
    first = (out / "landscape.json").read_bytes()
    ledger_before = (out / "ledger" / "model.json").read_bytes()
    (paths["pay-lib"] / "src" / "index.js").write_text("exports.cents = (x) => Math.round(x * 100); // v2\n")
    commit_all(paths["pay-lib"])
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"]).returncode == 0
    run = json.loads((out / "landscape-run.json").read_text())
    assert run["extracted"] == ["pay-lib"] and run["resolved"] == ["payments"] and run["parsed_files"] == 1
    assert (out / "ledger" / "model.json").read_bytes() == ledger_before
    assert json.loads((out / "payments" / "model.json").read_text())["repositories"][1]["commit"] == \
        commit_all.__globals__["git"](paths["pay-lib"], "rev-parse", "HEAD")
    assert (out / "landscape.json").read_bytes() != first  # pay-lib's commit moved
    # nothing moved: nothing extracted nor resolved, and the same bytes
    again = (out / "landscape.json").read_bytes()
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"]).returncode == 0
    run = json.loads((out / "landscape-run.json").read_text())
    assert run["extracted"] == [] and run["resolved"] == [] and (out / "landscape.json").read_bytes() == again


def test_an_uncloneable_repository_is_listed_and_the_rest_published(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    missing = tmp_path / "gone.git"
    make_repo(missing, {"x.py": "x = 1\n"})
    inputs = inputs_yaml(tmp_path, paths, extra=[f"file://{missing}"])
    import shutil

    shutil.rmtree(missing)  # listed, but cannot be cloned
    out = tmp_path / "models"
    proc = run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate"])
    assert proc.returncode == 1
    assert f"failed: file://{missing}: " in proc.stderr
    assert (out / "ledger" / "model.json").is_file() and (out / "payments" / "model.json").is_file()
    assert "payments/pay-api->ledger/ledger-api:http" in _edges(out)
    assert json.loads((out / "landscape-run.json").read_text())["failures"][0].startswith(f"file://{missing}")


def test_a_dying_local_worker_leaves_every_repository_analysed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = make_org(tmp_path)
    for i in range(6):  # more repositories than workers, so one dies with work still queued
        paths[f"extra-{i}"] = tmp_path / "org" / f"extra-{i}"
        make_repo(paths[f"extra-{i}"], {f"m{k}.py": f"def f{k}():\n    return {k}\n" for k in range(40)})
    listing = tmp_path / "inputs.txt"
    listing.write_text("\n".join(str(p) for p in paths.values()) + "\n")
    engine = LocalEngine(2)
    killed: list[int] = []

    def kill_one() -> None:
        deadline = time.time() + 60
        while time.time() < deadline and not killed:
            pool = engine._pool
            workers = list((getattr(pool, "_processes", None) or {}).keys()) if pool is not None else []
            if workers:
                time.sleep(0.2)
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
                return
            time.sleep(0.02)

    monkeypatch.setattr(landscape_run, "make_engine", lambda *a, **k: engine)
    threading.Thread(target=kill_one, daemon=True).start()
    result = analyze_landscape(read_inputs_file(listing), LandscapeOptions(out=tmp_path / "models", jobs=2, validate=False))
    assert killed, "no worker was killed"
    assert result.failures == [] and result.repositories == len(paths)
    assert sorted(r for members in result.systems.values() for r in members) == sorted(paths)


def test_serve_landscape_api_and_page(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from repomodeler.serve.app import create_app

    client = TestClient(create_app(tmp_path, allowed_hosts=["testserver"]))
    assert client.get("/api/landscape").status_code == 404
    assert 'id="gallery-landscape"' not in client.get("/").text
    page = client.get("/landscape")
    assert page.status_code == 200 and "/static/js/landscape/main.js" in page.text
    (tmp_path / "landscape.json").write_text('{"nodes": "<script>"}')
    assert client.get("/api/landscape").status_code == 422
    (tmp_path / "landscape.json").write_text('{"schema": "repomodeler/model@1", "name": "x", "nodes": [], "edges": []}')
    assert client.get("/api/landscape").json()["name"] == "x"
    assert '<a id="gallery-landscape" href="/landscape">' in client.get("/").text  # the gallery links it


def test_a_system_is_the_model_analyze_makes_of_its_repositories(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    out = tmp_path / "models"
    assert run_cli(["analyze", "--inputs", str(inputs_yaml(tmp_path, paths)), "--out", str(out), "--no-validate",
                    "-q"]).returncode == 0
    alone = tmp_path / "alone"
    proc = run_cli(["analyze", str(paths["pay-api"]), str(paths["pay-lib"]), "--name", "payments", "--out", str(alone),
                    "--no-validate", "-q"])
    assert proc.returncode == 0, proc.stderr
    assert (out / "payments" / "model.json").read_bytes() == (alone / "model.json").read_bytes()
    assert (out / "payments" / "model.sysml").read_bytes() == (alone / "model.sysml").read_bytes()


def test_a_killed_driver_loses_no_published_model(tmp_path: Path) -> None:
    import subprocess
    import sys

    paths = make_org(tmp_path)
    inputs = inputs_yaml(tmp_path, paths)
    out = tmp_path / "models"
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"]).returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.suffix in (".json", ".sysml")}
    for name in ("pay-api", "ledger-api"):  # both systems change
        (paths[name] / "NOTES.md").write_text("moved\n")
        commit_all(paths[name])
    for step in (3, 9):  # killed (SIGKILL) while publishing the first system, then the second
        env = {**os.environ, "REPOMODELER_PUBLISH_CRASH_AT": str(step)}
        proc = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", "--inputs", str(inputs), "--out",
                               str(out), "--no-validate", "-q", "-j", "1"], env=env, capture_output=True, text=True)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        assert (out / "landscape.json").read_bytes() == before[out / "landscape.json"]
        for system in ("payments", "ledger"):  # each system is its old model or its new one, whole
            model = json.loads((out / system / "model.json").read_text())
            assert {r["name"] for r in model["repositories"]} == ({"pay-api", "pay-lib"} if system == "payments"
                                                                  else {"ledger-api", "ledger-worker"})
            assert (out / system / "model.sysml").read_text().rstrip().endswith("}")
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"]).returncode == 0
    assert (out / "landscape.json").read_bytes() != before[out / "landscape.json"]  # the new commits, published


def test_an_image_another_system_builds_is_a_cross_system_dependency(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    deploy = tmp_path / "org" / "ops-deploy"
    make_repo(deploy, {"deploy/pay-api.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: payments-gateway\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: api\n          image: registry.acme.io/acme/pay-api:1.2\n")})
    inputs = inputs_yaml(tmp_path, paths)
    inputs.write_text(inputs.read_text() + f"  ops:\n    - {deploy}\n")
    out = tmp_path / "models"
    proc = run_cli(["analyze", "--inputs", str(inputs), "--out", str(out), "--no-validate", "-q"])
    assert proc.returncode == 0, proc.stderr
    image = [e for e in _edges(out).values() if e["protocol"] == "image"]
    assert [(e["source"], e["target"], e["kind"], e["attributes"]["images"]) for e in image] == [
        ("ops/payments-gateway", "payments/pay-api", "depends_on", "pay-api")]
    assert {(ev["repository"], ev["path"]) for ev in image[0]["evidence"]} == {
        ("ops-deploy", "deploy/pay-api.yaml"), ("pay-api", "Dockerfile")}


def test_a_grpc_client_of_a_service_another_system_serves(tmp_path: Path) -> None:
    cart = tmp_path / "org" / "cart"
    make_repo(cart, {"main.go": (
        'package main\n\nimport (\n\t"net"\n\n\t"google.golang.org/grpc"\n\tpb "example.com/shop/genproto"\n)\n\n'
        'type cartServer struct{}\n\nfunc main() {\n\tlis, _ := net.Listen("tcp", ":7070")\n\ts := grpc.NewServer()\n'
        '\tpb.RegisterCartServiceServer(s, &cartServer{})\n\ts.Serve(lis)\n}\n'),
        "go.mod": "module example.com/cart\n\ngo 1.22\n"})
    checkout = tmp_path / "org" / "checkout"
    make_repo(checkout, {"server.py": (
        "import os\n\nimport grpc\n\nimport shop_pb2_grpc\n\n\ndef cart_items(user):\n"
        '    channel = grpc.insecure_channel(os.environ["CART_ADDR"])\n'
        "    return shop_pb2_grpc.CartServiceStub(channel).GetCart(user)\n\n\n"
        "if __name__ == \"__main__\":\n    cart_items('u')\n")})
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"[carts]\n{cart}\n[orders]\n{checkout}\n")
    out = tmp_path / "models"
    proc = run_cli(["analyze", "--inputs", str(listing), "--out", str(out), "--no-validate", "-q"])
    assert proc.returncode == 0, proc.stderr
    edge = _edges(out)["orders/checkout->carts/cart:grpc"]
    assert edge["kind"] == "calls" and edge["attributes"]["services"] == "cartservice"
    assert {(e["repository"], e["path"], e["line"]) for e in edge["evidence"]} == {
        ("checkout", "server.py", 10), ("cart", "main.go", 15)}


def test_the_landscape_sysml_check_catches_a_part_a_system_does_not_have() -> None:
    from repomodeler.landscape.run import _validate_landscape
    from repomodeler.landscape.tasks import SystemSummary

    system = SystemSummary(name="a", components=(), package="a", system_def="ASystem", parts=(("x", "x"),),
                           provides=(), needs=())
    text = ("package l {\n    part def L {\n        part a_system : a::ASystem;\n"
            "        connection c connect a_system.x to a_system.x;\n    }\n}\n")
    _validate_landscape({"a": system}, text)
    with pytest.raises(RepomodelerError, match=r"landscape.sysml:4:39: error: unresolved member: y"):
        _validate_landscape({"a": system}, text.replace("a_system.x to", "a_system.y to"))
