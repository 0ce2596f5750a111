"""Issue #24, push: ``repomodeler push MODEL_DIR --api URL`` sends every element of the model's SysML
files to a Systems Modeling API server, with ids derived from qualified names and a push state file, so
an unchanged model sends nothing and a change sends only its delta.

The server is a real one: ``longeron serve`` (PyPI ``longeron[server]``), started here on a free
loopback port over a git work tree.  longeron materialises a posted commit as ``.sysml`` text in the
work tree (it never runs ``git commit`` itself; the test commits, as its user would) and serves back
what it reads from that text, so "read back" below is the server's own reading of what it stored.
Online Boutique and PiggyMetrics are pushed from model folders committed under tests/fixtures/push
(analysed from their repositories once; no network, no mirror needed).

One server process serves every test of this module (its SysML parser warms up once: the first read
of a big model takes minutes, later ones seconds); each test starts from an emptied work tree.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from conftest import SAMPLES, git, make_repo
from repomodeler import push_state
from repomodeler.cli import cli
from repomodeler.commands.push import _is_relationship, for_longeron, plan_changes
from repomodeler.emit.sysml_records import element_id, records_from_model_dir, records_from_texts
from repomodeler.pipeline import AnalyzeOptions, analyze

FIXTURES = Path(__file__).parent / "fixtures" / "push"

#: element kinds longeron's import has no place for (metadata and its features, values, expressions,
#: the implicit conjugated port defs): everything else of the file must come back
NOT_STORED_BY_LONGERON = {"MetadataUsage", "LiteralString", "LiteralInteger", "LiteralRational", "LiteralBoolean",
                          "Expression", "TextualRepresentation", "ConjugatedPortDefinition", "Feature"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, timeout: float = 900) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - loopback only
        return json.loads(resp.read())


def _post(url: str, body: object, timeout: float = 900) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - loopback only
        return json.loads(resp.read())


def _elements(records: list[dict[str, Any]]) -> Counter[str]:
    return Counter(str(r["@type"]) for r in records if not _is_relationship(r))


class Server:
    """A running ``longeron serve`` over a git work tree."""

    def __init__(self, url: str, served: Path) -> None:
        self.url, self.served = url, served
        self.project = str(_get(url + "/projects")[0]["@id"])

    def empty(self) -> None:
        """Remove every .sysml file and commit, so the next push starts an empty project."""
        for p in self.served.glob("*.sysml"):
            p.unlink()
        git(self.served, "add", "-A")
        git(self.served, "commit", "-q", "--allow-empty", "-m", "emptied")

    def commit(self, message: str) -> None:
        git(self.served, "add", "-A")
        git(self.served, "commit", "-q", "--allow-empty", "-m", message)

    def read_back(self) -> list[dict[str, Any]]:
        return _get(f"{self.url}/projects/{self.project}/commits/working/elements")  # type: ignore[no-any-return]

    def validate(self) -> dict[str, Any]:
        return _post(f"{self.url}/x/validate", {})  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("fastapi")
    exe = shutil.which("longeron") or str(Path(sys.executable).parent / "longeron")
    if not Path(exe).exists():
        pytest.skip("longeron is not installed (pip install 'longeron[server]')")
    served = tmp_path_factory.mktemp("served") / "project"
    make_repo(served, {"README.md": "pushed models\n"})
    port = _free_port()
    log = open(served.parent / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([exe, "serve", "--host", "127.0.0.1", "--port", str(port), str(served)],
                            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                _get(url + "/", timeout=5)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("longeron serve did not start: " + (served.parent / "serve.log").read_text())
                time.sleep(0.3)
        yield Server(url, served)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _model(tmp_path: Path, name: str) -> Path:
    out = tmp_path / name
    out.mkdir()
    for f in ("model.sysml", "RepoModeler.sysml", "model.json"):
        shutil.copy(FIXTURES / name / f, out / f)
    return out


def _push(model: Path, server: Server, *extra: str) -> tuple[int, str]:
    """(changes sent, output) of ``repomodeler push``; 0 when it said the project is up to date."""
    result = CliRunner().invoke(cli, ["push", str(model), "--api", server.url, "--project", server.project, *extra])
    assert result.exit_code == 0, result.output
    m = re.search(r"pushed (\d+) change", result.output)
    assert m or "up to date" in result.output, result.output
    return (int(m.group(1)) if m else 0), result.output


def _drop_interface(model: Path, name: str) -> None:
    """Remove one connection (an interface usage) from model.sysml, as a re-analysis would."""
    text = (model / "model.sysml").read_text(encoding="utf-8")
    new = re.sub(rf"\n        interface <'[^']*'> {name} : .*?\n        }}\n", "\n", text, count=1, flags=re.S)
    assert new != text, name
    (model / "model.sysml").write_text(new, encoding="utf-8")


# ------------------------------------------------------------------------------ records, no server
@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("push-shop")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        repo = base / "shop"
        make_repo(repo, source=SAMPLES / "shop")
        return analyze([str(repo)], AnalyzeOptions(out=base / "model", validate=False)).out


def test_every_element_of_the_file_becomes_a_record_with_an_id_from_its_qualified_name(shop: Path) -> None:
    records = records_from_model_dir(shop)
    by_id = {r["@id"]: r for r in records.records}
    assert len(by_id) == len(records.records)  # ids are unique
    text = (shop / "model.sysml").read_text(encoding="utf-8")
    # nested parts: the subsystem inside inventory and the two logical databases inside orders-db
    nested = by_id[element_id("shop::ShopSystem::inventory::com_acme_inventory")]
    assert nested["@type"] == "PartUsage" and nested["declaredShortName"] == "inventory/com.acme.inventory"
    assert by_id[element_id("shop::ShopSystem::orders_db::orders")]["@type"] == "PartUsage"
    # as many part usages, ports, flows, allocations and views as the text declares
    kinds = _elements(records.records)
    library = (shop / "RepoModeler.sysml").read_text(encoding="utf-8")
    both = text + library
    assert kinds["PartUsage"] == len(re.findall(r"^\s*(?:end )?part (?!def)", both, re.M))
    assert kinds["AllocationUsage"] == len(re.findall(r"^\s*allocation (?!def)", text, re.M)) == 7
    assert kinds["ViewUsage"] == len(re.findall(r"^\s*view (?!def)", text, re.M))
    assert kinds["FlowUsage"] == len(re.findall(r"^\s*flow ", both, re.M))
    assert kinds["MetadataUsage"] == len(re.findall(r"(?<!filter )@[A-Za-z_]\w*\s*[{;]", both))
    # the endpoint items of the frontend's HTTP port, with their method bound to a literal
    get_products = by_id[element_id("shop::ShopSystem::frontend::http::GET_products")]
    assert get_products["@type"] == "ItemUsage" and get_products["isReference"] is True
    # the standard library only (Quantities for the library's MemorySize)
    assert records.unresolved == ["Natural", "Quantities::ScalarQuantityValue", "Real", "ScalarValues", "String"]


def test_client_ports_are_conjugated_by_a_conjugated_port_typing_and_ends_are_wired(shop: Path) -> None:
    records = records_from_model_dir(shop)
    by_id = {r["@id"]: r for r in records.records}
    client = element_id("shop::ShopSystem::orders::to_payments_http")
    typing = [r for r in records.records if r.get("typedFeature") == {"@id": client}]
    assert [t["@type"] for t in typing] == ["ConjugatedPortTyping"]
    # the client port is typed by the conjugate of the payments service's own HTTP port def
    assert typing[0]["portDefinition"] == {"@id": element_id("shop::PaymentsHttpApi")}
    conjugated = by_id[typing[0]["type"]["@id"]]
    assert conjugated["@type"] == "ConjugatedPortDefinition" and conjugated["declaredName"] == "~PaymentsHttpApi"
    assert not any("isConjugated" in r for r in records.records)
    # interface orders_payments_http: its ends subset the two ports it connects
    link = "shop::ShopSystem::orders_payments_http"
    ends = {r["declaredName"]: r for r in records.records if r["@id"] in
            (element_id(f"{link}::client"), element_id(f"{link}::server"))}
    assert set(ends) == {"client", "server"} and all(e["isEnd"] for e in ends.values())
    wired = {r["referencingFeature"]["@id"]: r["referencedFeature"]["@id"] for r in records.records
             if r["@type"] == "ReferenceSubsetting"}
    chains: dict[str, list[str]] = {}
    for r in records.records:
        if r["@type"] == "FeatureChaining":
            chains.setdefault(r["featureChained"]["@id"], []).append(r["chainingFeature"]["@id"])
    # `connect client ::> orders.to_payments_http`: the end references the chain orders.to_payments_http
    assert by_id[wired[ends["client"]["@id"]]]["@type"] == "Feature"
    assert chains[wired[ends["client"]["@id"]]] == [element_id("shop::ShopSystem::orders"), client]
    assert chains[wired[ends["server"]["@id"]]] == [element_id("shop::ShopSystem::payments"),
                                                    element_id("shop::ShopSystem::payments::http")]
    # longeron has no chains: there the end subsets the port itself
    sent = {r["@id"]: r for r in for_longeron(records)[0]}
    subsets = {r["subsettingFeature"]["@id"]: r["subsettedFeature"]["@id"] for r in sent.values()
               if r["@type"] == "Subsetting"}
    assert subsets[ends["client"]["@id"]] == client


def test_grpc_ports_are_typed_by_their_service_port_defs_with_every_rpc() -> None:
    records = records_from_model_dir(FIXTURES / "online-boutique")
    by_id = {r["@id"]: r for r in records.records}
    text = (FIXTURES / "online-boutique" / "model.sysml").read_text(encoding="utf-8")
    port_line = re.search(r"^\s*port (\w+) : CartServiceApi \{", text, re.M)
    assert port_line
    port = element_id(f"online_boutique::OnlineBoutiqueSystem::cartservice::{port_line.group(1)}")
    typing = next(r for r in records.records if r.get("typedFeature") == {"@id": port})
    assert by_id[typing["type"]["@id"]]["declaredName"] == "CartServiceApi"
    api_def = re.search(r"port def CartServiceApi .*?\n    }\n", text, re.S)
    assert api_def
    rpcs = re.findall(r"(?:in|out) item (\w+)", api_def.group(0))
    members = {by_id[r["target"][0]["@id"]].get("declaredName") for r in records.records
               if r.get("owningRelatedElement") == {"@id": typing["type"]["@id"]} and r["@type"].endswith("Membership")}
    assert rpcs and set(rpcs) <= members
    # the port keeps its endpoints (all 3 rpcs, each path bound to its literal)
    port_members = [by_id[r["target"][0]["@id"]] for r in records.records
                    if r.get("owningRelatedElement") == {"@id": port} and r["@type"] == "FeatureMembership"]
    assert sorted(m["declaredName"] for m in port_members) == [
        "CartService_AddItem", "CartService_EmptyCart", "CartService_GetCart"]
    paths = {records.keys[r["featureWithValue"]["@id"]]: by_id[r["value"]["@id"]]["value"] for r in records.records
             if r["@type"] == "FeatureValue" and records.keys[r["featureWithValue"]["@id"]].startswith(
                 f"online_boutique::OnlineBoutiqueSystem::cartservice::{port_line.group(1)}::")}
    assert sorted(v for k, v in paths.items() if k.endswith("::path") and "#@" not in k) == [
        "CartService/AddItem", "CartService/EmptyCart", "CartService/GetCart"]
    other_api = element_id("RepoModeler::OtherApi")
    system_ports = [r["@id"] for r in records.records if r["@type"] == "PortUsage"
                    and records.keys[r["@id"]].startswith("online_boutique::")]
    typed_other = [r for r in records.records if r.get("typedFeature", {}).get("@id") in system_ports
                   and other_api in (r.get("type", {}).get("@id"), r.get("portDefinition", {}).get("@id"))]
    assert len(system_ports) > 20 and typed_other == []


def test_ids_are_stable_and_an_unchanged_model_plans_no_change(shop: Path, tmp_path: Path) -> None:
    one = records_from_model_dir(shop)
    again = records_from_model_dir(shop)
    assert json.dumps(one.records) == json.dumps(again.records)  # deterministic, no time, no path
    change, state = plan_changes(one, None)
    assert len(change) == len(one.records)
    assert plan_changes(again, state)[0] == []
    copy = tmp_path / "shop"
    shutil.copytree(shop, copy)
    _drop_interface(copy, "orders_payments_http")
    smaller = records_from_model_dir(copy)
    delta, _ = plan_changes(smaller, state)
    gone = {c["identity"]["@id"] for c in delta if c["payload"] is None}
    assert element_id("shop::ShopSystem::orders_payments_http") in gone
    # sent again: only the system def, whose list of owned relationships lost one; deleted: the
    # interface and what it owns (its ends, their wiring, its doc and SourceRefs with their values)
    assert [c["payload"]["declaredName"] for c in delta if c["payload"] is not None] == ["ShopSystem"]
    link = element_id("shop::ShopSystem::orders_payments_http")
    owners = {eid: pushed.owner for eid, pushed in state.records.items()}

    def inside(eid: str) -> bool:
        while eid is not None and eid != link:
            eid = owners.get(eid)  # type: ignore[assignment]
        return eid == link
    assert all(inside(eid) or state.records[eid].target == link for eid in gone)
    top, _ = plan_changes(smaller, state, subtrees=True)  # a server that deletes an element's subtree
    assert [c["identity"]["@id"] for c in top if c["payload"] is None] == [link]
    assert len(top) == 2


def test_bad_sysml_is_one_clear_error(tmp_path: Path) -> None:
    from repomodeler.records import RepomodelerError

    with pytest.raises(RepomodelerError, match=r"^error: model.sysml is not valid SysML v2 text"):
        records_from_texts([("model.sysml", "package p { part def A :> ; }")])
    deep = "package p { " + "part a { " * 3000 + "}" * 3000 + " }"
    with pytest.raises(RepomodelerError, match=r"^error: model.sysml nests elements too deeply"):
        records_from_texts([("model.sysml", deep)])


def test_requirements_viewpoints_bindings_and_bare_redefinitions_are_records_too() -> None:
    """What the emitter may write beyond today's models is pushed as the metamodel says, not skipped."""
    text = """package p {
    concern def C;
    viewpoint def V { frame concern c : C; }
    requirement def R { require constraint { violations == 0 } attribute violations : Integer; }
    port def Q { attribute containerPort : Integer; }
    part def W { port q : Q; part inner { port q : Q; } bind inner.q = q; }
    part w : W { port q2 : Q { :>> containerPort = 3000; } }
}
"""
    records = records_from_texts([("model.sysml", text)])
    by_id = {r["@id"]: r for r in records.records}
    kinds = Counter(r["@type"] for r in records.records)
    assert kinds["FramedConcernMembership"] == kinds["ConcernUsage"] == 1
    require = next(r for r in records.records if r["@type"] == "RequirementConstraintMembership")
    assert require["kind"] == "requirement" and by_id[require["target"][0]["@id"]]["@type"] == "ConstraintUsage"
    body = next(r for r in records.records if r["@type"] == "TextualRepresentation")
    assert body["body"] == "violations == 0"
    bind = next(r for r in records.records if r["@type"] == "BindingConnectorAsUsage")
    ends = [by_id[r["target"][0]["@id"]] for r in records.records
            if r["@type"] == "EndFeatureMembership" and r["owningRelatedElement"] == {"@id": bind["@id"]}]
    assert len(ends) == 2 and all(e["isEnd"] for e in ends)
    port = element_id("p::w::q2::containerPort")
    assert by_id[port]["@type"] == "ReferenceUsage"
    redefined = next(r for r in records.records if r["@type"] == "Redefinition" and r["redefiningFeature"] == {"@id": port})
    assert redefined["redefinedFeature"] == {"@id": element_id("p::Q::containerPort")}
    value = next(r for r in records.records if r["@type"] == "FeatureValue" and r["featureWithValue"] == {"@id": port})
    assert by_id[value["value"]["@id"]] == {**by_id[value["value"]["@id"]], "@type": "LiteralInteger", "value": 3000}


@pytest.mark.parametrize("text", [
    "package p { part def A :> B; part def B :> A; part a : A { part x : a::y; } }",
    "package p { part a : a; part b :> b; part c : c::d; }",
    "package p { part def A { part x : A::x::y; } part q : A; part r :> q.x.y; }",
    "package p { part def P { ref part q : P :> q; } part s : P; connection c connect s.q.q.q to s; }",
])
def test_self_referring_names_resolve_or_stay_unresolved_without_looping(text: str) -> None:
    records = records_from_texts([("model.sysml", text)])
    assert records.records and len({r["@id"] for r in records.records}) == len(records.records)


# ----------------------------------------------------------------------------- a real API server
@pytest.mark.parametrize("name", ["online-boutique", "piggymetrics"])
def test_a_whole_model_is_pushed_read_back_and_then_only_its_changes(
        server: Server, tmp_path: Path, name: str) -> None:
    server.empty()
    model = _model(tmp_path, name)
    records = records_from_model_dir(model)
    sent, _dropped = for_longeron(records)

    changes, output = _push(model, server)
    assert changes == len(sent)
    assert "longeron serve stores structure only" in output
    state_text = (model / push_state.FILE_NAME).read_text(encoding="utf-8")
    assert server.url.split("//")[1] in state_text

    # every element of the file is read back: the same count of each kind the server stores, and
    # only the kinds its import has no place for are missing
    back = _elements(server.read_back())
    file_kinds, sent_kinds = _elements(records.records), _elements(sent)
    back.pop("Namespace", None)  # the server's own root
    assert back == sent_kinds, {k: (sent_kinds[k], back[k]) for k in set(back) | set(sent_kinds) if back[k] != sent_kinds[k]}
    assert {k for k in file_kinds if file_kinds[k] != sent_kinds[k]} <= NOT_STORED_BY_LONGERON | {"ReferenceUsage"}
    in_metadata = sum(1 for r in records.records if r["@type"] == "ReferenceUsage" and "#@" in records.keys[r["@id"]])
    assert file_kinds["ReferenceUsage"] - sent_kinds["ReferenceUsage"] == in_metadata > 0  # `@SourceRef { path = ..}`
    for kind in ("PartUsage", "PortUsage", "PortDefinition", "ItemDefinition", "InterfaceUsage", "FlowUsage",
                 "AllocationUsage", "ViewUsage", "Documentation"):
        assert back[kind] == file_kinds[kind] > 0, kind

    # the server's validation finds no error: the endpoints inside ports are directed (`in ref item`),
    # which longeron's import reads (it has no field for isReference) as the non-composite port idiom
    report = server.validate()
    assert [d for d in report["diagnostics"] if d["severity"] == "error"] == []

    server.commit("first push")
    again, _ = _push(model, server)
    assert again == 0

    first_interface = re.search(r"\n        interface <'[^']*'> (\w+) : ", (model / "model.sysml").read_text())
    assert first_interface
    _drop_interface(model, first_interface.group(1))
    delta, _ = _push(model, server)
    assert 0 < delta < 20
    names = {r.get("declaredName") for r in server.read_back()}
    assert first_interface.group(1) not in names
    after = _elements(server.read_back())
    after.pop("Namespace", None)
    assert after == _elements(for_longeron(records_from_model_dir(model))[0])
    server.commit("one interface less")

    # evidence and a doc change: the metadata the server does not store is never deleted there (it
    # would refuse the commit); the doc arrives as a comment
    text = (model / "model.sysml").read_text(encoding="utf-8")
    source_ref = re.search(r"\n            @SourceRef \{[^\n]*\}\n", text)
    doc = re.search(r"\n        part \w+ : \w+ \{\n            doc /\* ", text)
    assert source_ref and doc
    text = text[:doc.end()] + "Changed: " + text[doc.end():]
    text = text.replace(source_ref.group(0), "\n", 1)
    (model / "model.sysml").write_text(text, encoding="utf-8")
    changes, _ = _push(model, server)
    assert 0 < changes < 5
    assert "/* Changed: " in "".join(p.read_text(encoding="utf-8") for p in server.served.glob("*.sysml"))
    assert _push(model, server)[0] == 0

    # a project pushed from another folder (no state here) is not filled a second time
    (model / push_state.FILE_NAME).unlink()
    refused = CliRunner().invoke(cli, ["push", str(model), "--api", server.url, "--project", server.project])
    assert refused.exit_code == 1 and "already holds package" in refused.output
    assert refused.output.count("\n") == 1


def test_each_push_that_sends_changes_is_one_commit_and_an_unchanged_push_none(
        server: Server, shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """shop pushed three times: the first and a one-edge change each post one commit, the unchanged push
    posts none.  longeron materialises a posted commit in its work tree and leaves the git commit to its
    user (it never commits); the test commits after every push, as that user would, and reads the
    project's history back from the server: one more commit per push that sent changes, none otherwise."""
    from repomodeler.commands import push as push_module

    server.empty()
    model = tmp_path / "shop"
    model.mkdir()
    for f in ("model.sysml", "RepoModeler.sysml", "model.json"):
        shutil.copy(shop / f, model / f)
    posted: list[tuple[str, dict[str, str] | None]] = []
    request = push_module.ApiClient.request

    def counting(self: Any, method: str, path: str, body: object | None = None,
                 params: dict[str, str] | None = None) -> tuple[int, Any, dict[str, str]]:
        if method == "POST":
            posted.append((path, params))
        return request(self, method, path, body, params)

    monkeypatch.setattr(push_module.ApiClient, "request", counting)

    def history() -> list[str]:
        return [str(c["@id"]) for c in _get(f"{server.url}/projects/{server.project}/commits")
                if c["@id"] != "working"]

    def pending() -> str:
        return git(server.served, "status", "--porcelain", "--", "*.sysml")

    before = history()
    first, _ = _push(model, server)
    assert first > 0 and posted == [(f"projects/{server.project}/commits", None)]
    assert pending() != ""  # the commit is in the work tree, for its user to commit
    # the server validates what it received with no error (the shop sample's HTTP endpoints included)
    assert [d for d in server.validate()["diagnostics"] if d["severity"] == "error"] == []
    server.commit("push 1")
    after_first = history()
    assert after_first[:len(before)] == before and len(after_first) == len(before) + 1

    posted.clear()
    assert _push(model, server)[0] == 0
    assert posted == [] and pending() == ""
    server.commit("push 2, nothing sent")
    assert history() == after_first

    first_interface = re.search(r"\n        interface <'[^']*'> (\w+) : ", (model / "model.sysml").read_text())
    assert first_interface
    _drop_interface(model, first_interface.group(1))
    delta, _ = _push(model, server)
    assert 0 < delta < 20 and posted == [(f"projects/{server.project}/commits", None)]
    server.commit("push 3, one interface less")
    after_third = history()
    assert after_third[:-1] == after_first and len(after_third) == len(after_first) + 1
    assert first_interface.group(1) not in {r.get("declaredName") for r in server.read_back()}


def test_the_state_file_holds_no_token_and_errors_are_one_line(server: Server, tmp_path: Path) -> None:
    server.empty()
    model = tmp_path / "m"
    model.mkdir()
    (model / "model.sysml").write_text("package tiny {\n    part def T;\n    part t : T;\n}\n", encoding="utf-8")
    with_password = server.url.replace("http://", "http://someone:s3cret-pass@")
    refused = CliRunner().invoke(cli, ["push", str(model), "--api", with_password, "--project", server.project])
    assert refused.exit_code == 1 and "holds credentials" in refused.output and "s3cret" not in refused.output
    assert not (model / push_state.FILE_NAME).exists()
    url = server.url + "/?sig=s3cret-sig"
    result = CliRunner().invoke(cli, ["push", str(model), "--api", url, "--project", server.project,
                                      "--token", "s3cret-token"])
    assert result.exit_code == 0, result.output
    state = (model / push_state.FILE_NAME).read_text(encoding="utf-8")
    assert "s3cret" not in state and "someone" not in state
    assert {r.get("declaredName") for r in server.read_back()} >= {"tiny", "T", "t"}

    runner = CliRunner()
    bad = runner.invoke(cli, ["push", str(model), "--api", "ftp://example.invalid"])
    assert bad.exit_code == 1 and bad.output.startswith("error: --api 'ftp://example.invalid' is not an http(s) URL")
    down = runner.invoke(cli, ["push", str(model), "--api", f"http://127.0.0.1:{_free_port()}"])
    assert down.exit_code == 1 and "cannot reach the API server" in down.output
    missing = runner.invoke(cli, ["push", str(tmp_path / "nope"), "--api", "http://127.0.0.1:1"])
    assert missing.exit_code == 1 and "model.sysml" in missing.output

