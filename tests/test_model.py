"""The canonical architecture model (repomodeler/model/): its model.json reader and writer, the parent
rule (top level, ancestry, lifting) and that no other module re-implements that rule."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest

from conftest import SAMPLES
from repomodeler import model as m
from repomodeler.model import nesting
from repomodeler.model.graph import chains, parent_of, top_level, top_level_ids
from repomodeler.pipeline import AnalyzeOptions, analyze
from repomodeler.records import Evidence, RepomodelerError

PACKAGE = Path(m.__file__).resolve().parent.parent
FIXTURE_MODEL = Path(__file__).parent / "fixtures" / "models" / "shop" / "model.json"
SAMPLE_NAMES = ("shop", "grpc-mesh", "hostile", "node-python", "polyglot-events", "spring-cloud")


@pytest.fixture(scope="module")
def analysed() -> dict[str, tuple[str, m.Model]]:
    """Each sample analysed once: (the model.json text written, the model the run built).  Written
    outside pytest's temporary folder: test_zz_every_model_valid checks the SysML of the sample
    gallery it builds there, and these copies would stand in for it."""
    done: dict[str, tuple[str, m.Model]] = {}
    with tempfile.TemporaryDirectory(prefix="repomodeler-test-model-") as tmp, pytest.MonkeyPatch.context() as mp:
        out = Path(tmp)
        mp.setenv("REPOMODELER_HOME", str(out / "home"))
        for name in SAMPLE_NAMES:
            result = analyze([str(SAMPLES / name)], AnalyzeOptions(out=out / name, validate=False, use_cache=False))
            assert result.model is not None
            done[name] = ((out / name / "model.json").read_text(encoding="utf-8"), result.model)
    return done


# ------------------------------------------------------------------ model.json round trip
@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_model_json_round_trips_byte_for_byte(analysed, name: str, tmp_path: Path) -> None:
    text, built = analysed[name]
    assert m.to_json(built) == text  # what the pipeline wrote is the model it built
    read = m.from_dict(json.loads(text))
    assert m.to_json(read) == text
    assert read == built  # records compare equal however they were made
    assert m.to_json(m.from_networkx(m.to_networkx(read))) == text
    (tmp_path / "model.json").write_text(text, encoding="utf-8")
    assert m.to_json(m.read_file(tmp_path / "model.json")) == text


def test_checked_in_fixture_model_round_trips() -> None:
    """A hand-kept model.json (nodes not in id order) is written in canonical order, then stays put."""
    original = json.loads(FIXTURE_MODEL.read_text(encoding="utf-8"))
    once = m.to_json(m.read_file(FIXTURE_MODEL))
    assert m.to_json(m.from_dict(json.loads(once))) == once
    again = json.loads(once)
    assert sorted(n["id"] for n in original["nodes"]) == [n["id"] for n in again["nodes"]]
    assert sorted(e["id"] for e in original["edges"]) == sorted(e["id"] for e in again["edges"])
    assert [n["evidence"] for n in sorted(original["nodes"], key=lambda n: n["id"])] == [n["evidence"] for n in again["nodes"]]


def test_samples_have_parts_and_the_stats_count_the_top_level(analysed) -> None:
    text, built = analysed["shop"]
    stats = json.loads(text)["stats"]
    assert built.nested(), "the shop sample has subsystems and logical databases"
    assert stats["components"] == len(built.top_level()) == 9
    assert stats["connections"] == len(built.top_level_connections()) == 10
    assert all(built.is_top_level(c.id) for c in built.top_level())
    assert all(built.top_of(c.id) in {t.id for t in built.top_level()} for c in built.nested())


# ------------------------------------------------------------------ rules (optional fields)
def _minimal(**extra: object) -> dict[str, object]:
    return {"name": "s", "nodes": [{"id": "a", "name": "a", "kind": "service"}, {"id": "b", "name": "b", "kind": "service"}],
            "edges": [{"source": "a", "target": "b", "protocol": "http", "kind": "calls"}], **extra}


def test_rules_are_read_and_written_only_when_present() -> None:
    plain = m.from_dict(_minimal())
    assert plain.components["a"].rules == () and plain.rules == ()
    written = m.to_dict(plain)
    assert "rules" not in written and all("rules" not in n for n in written["nodes"])  # type: ignore[union-attr]
    assert all("rules" not in e for e in written["edges"])  # type: ignore[union-attr]

    data = _minimal(rules=[{"id": "compose.service", "message": "a compose service is a component"}])
    data["nodes"][0]["rules"] = ["compose.service", "k8s.deployment"]  # type: ignore[index]
    data["edges"][0]["rules"] = ["env.url"]  # type: ignore[index]
    model = m.from_dict(data)
    assert model.components["a"].rules == ("compose.service", "k8s.deployment")
    assert model.connections[("a", "b", "http")].rules == ("env.url",)
    assert model.rules == (m.Rule("compose.service", "a compose service is a component"),)
    again = m.to_dict(model)
    assert again["nodes"][0]["rules"] == ["compose.service", "k8s.deployment"]  # type: ignore[index]
    assert "rules" not in again["nodes"][1]  # type: ignore[index]
    assert again["edges"][0]["rules"] == ["env.url"]  # type: ignore[index]
    assert again["rules"] == [{"id": "compose.service", "message": "a compose service is a component"}]
    assert m.from_dict(json.loads(m.to_json(model))) == model
    g = m.to_networkx(model)
    assert g.nodes["a"]["rules"] == ("compose.service", "k8s.deployment")
    assert m.from_networkx(g) == model


def test_rules_the_resolver_names_reach_the_model_and_the_catalogue() -> None:
    from repomodeler.graph.base import SystemModel
    from repomodeler.records import Component as Resolved, Connection as ResolvedLink

    system = SystemModel(name="s")
    ev = Evidence("r", "docker-compose.yml", 3)
    for cid in ("a", "b"):
        system.components[cid] = Resolved(id=cid, name=cid, kind="service", repository="r", evidence={ev})
    system.components["a"].rules = {"compose.service", "build.units"}  # type: ignore[attr-defined]
    system.connections[("a", "b", "http")] = ResolvedLink("a", "b", "calls", "http", evidence={ev})
    system.connections[("a", "b", "http")].rules = {"config.address-values"}  # type: ignore[attr-defined]
    model = m.from_system(system, [], [], {"files": 1})
    assert model.components["a"].rules == ("build.units", "compose.service") and model.components["b"].rules == ()
    assert [r.id for r in model.rules] == ["build.units", "compose.service", "config.address-values"]
    written = m.to_dict(model)
    assert list(written)[-2:] == ["stats", "rules"]  # the catalogue closes the document
    assert m.from_dict(json.loads(m.to_json(model))) == model
    assert "rules" not in m.to_dict(m.from_system(SystemModel(name="s"), [], [], {"files": 0}))


def test_repeated_evidence_of_an_endpoint_is_kept_as_written() -> None:
    """model.json has always listed an endpoint's evidence as the resolver gathered it, a location twice
    when two readings saw it (retail-store-sample-app's openapi.yml): the records keep the repeat."""
    ev = {"repository": "r", "path": "openapi.yml", "line": 9}
    data = _minimal()
    data["nodes"][0]["ports"] = [{"name": "http", "protocol": "http", "direction": "provided",  # type: ignore[index]
                                  "endpoints": [{"method": "GET", "path": "/cart", "evidence": [ev, ev]}],
                                  "evidence": [ev, ev]}]
    model = m.from_dict(data)
    port = model.components["a"].ports[0]
    assert len(port.evidence) == 2 and len(port.endpoints[0].evidence) == 2
    assert m.to_dict(model)["nodes"][0]["ports"] == data["nodes"][0]["ports"]  # type: ignore[index]


# ------------------------------------------------------------------ reading errors
@pytest.mark.parametrize("data,reason", [
    ([1, 2], "is not a JSON object"),
    ({"nodes": []}, "has no 'nodes' and 'edges'"),
    ({"nodes": "nonsense", "edges": []}, "has values of unexpected types"),
    ({"nodes": [{"id": "a", "kind": [["deep"]]}], "edges": []}, "has values of unexpected types"),
    ({"nodes": [{"id": "a", "evidence": [{"line": "x"}]}], "edges": []}, "has values of unexpected types"),
])
def test_content_that_is_not_a_model_is_one_error(data: object, reason: str) -> None:
    with pytest.raises(m.ModelFormatError) as exc:
        m.from_dict(data, "x/model.json")
    assert exc.value.reason == reason
    assert str(exc.value).startswith("error: 'x/model.json' ")


@pytest.mark.parametrize("raw,reason", [
    ("[" * 100_000 + "]" * 100_000, "is nested too deeply to read"),
    (b"\xff\xfe{}", "is not UTF-8 text"),
    ('{"nodes": [', "is not valid JSON"),
])
def test_parse_errors_say_why(raw: str | bytes, reason: str) -> None:
    with pytest.raises(m.ModelFormatError) as exc:
        m.parse(raw, "deep/model.json")
    assert exc.value.reason.startswith(reason)
    assert str(exc.value).startswith("error: cannot read 'deep/model.json': ")


def test_an_edge_to_an_unknown_node_cannot_become_a_graph() -> None:
    data = _minimal()
    data["edges"].append({"source": "a", "target": "ghost", "protocol": "http"})  # type: ignore[union-attr]
    model = m.from_dict(data)  # the records hold it ...
    assert [c.target for c in model.top_level_connections()] == ["b"]  # ... it is no top-level connection ...
    with pytest.raises(RepomodelerError, match="names unknown component 'ghost'"):
        m.to_networkx(model)  # ... and no graph edge


# ------------------------------------------------------------------ the parent rule
def _node(cid: str, parent: str | None = None, kind: str = "subsystem") -> dict[str, object]:
    return {"id": cid, "name": cid.rsplit("/", 1)[-1], "kind": kind if parent else "service",
            **({"parent": parent} if parent else {})}


def _edge(s: str, t: str, p: str = "http") -> dict[str, object]:
    return {"source": s, "target": t, "protocol": p, "kind": "calls"}


@pytest.fixture()
def nested_model() -> m.Model:
    return m.from_dict({
        "name": "n",
        "nodes": [_node("a"), _node("a/x", "a"), _node("a/x/y", "a/x"), _node("a/z", "a"), _node("b"),
                  _node("db"), _node("db/orders", "db", kind="database"),
                  _node("orphan", "missing"), _node("c1", "c2"), _node("c2", "c1"), _node("empty", "")],
        "edges": [_edge("a", "b"), _edge("a/x/y", "b"), _edge("a/x", "a/z", "import"), _edge("a", "db/orders", "sql"),
                  _edge("orphan", "b"), _edge("a/x/y", "a", "import")],
    })


def test_top_level_and_nested(nested_model: m.Model) -> None:
    model = nested_model
    assert [c.id for c in model.top_level()] == ["a", "b", "db", "empty"]  # "" is no parent
    assert {c.id for c in model.nested()} == {"a/x", "a/x/y", "a/z", "db/orders", "orphan", "c1", "c2"}
    assert model.is_top_level("a") and not model.is_top_level("a/x") and not model.is_top_level("nope")
    assert [c.key for c in model.top_level_connections()] == [("a", "b", "http")]
    assert len(model.nested_connections()) == 5


def test_ancestry_children_and_broken_chains(nested_model: m.Model) -> None:
    model = nested_model
    assert model.ancestors("a/x/y") == ["a/x", "a"]
    assert model.ancestors("a") == [] and model.ancestors("nope") == []
    assert model.ancestors("orphan") == [] and model.ancestors("c1") == []  # missing parent, cycle
    assert model.children("a") == ["a/x", "a/z"] and model.children("a/x") == ["a/x/y"]
    assert model.children("b") == []
    assert model.top_of("a/x/y") == "a" and model.top_of("a") == "a"
    assert model.top_of("orphan") is None and model.top_of("c2") is None and model.top_of("nope") is None
    assert nesting.chains(model.parents) == {"a/x": ["a"], "a/x/y": ["a/x", "a"], "a/z": ["a"], "db/orders": ["db"]}


def test_lifting_a_link_to_the_top_level(nested_model: m.Model) -> None:
    model = nested_model
    conns = model.connections
    assert model.lift(conns[("a/x/y", "b", "http")]) == ("a", "b", "http")
    assert model.lift(conns[("a", "db/orders", "sql")]) == ("a", "db", "sql")
    assert model.lift(conns[("a", "b", "http")]) == ("a", "b", "http")
    assert model.lift(conns[("a/x", "a/z", "import")]) is None  # inside one component
    assert model.lift(conns[("a/x/y", "a", "import")]) is None
    assert model.lift(conns[("orphan", "b", "http")]) is None  # no top-level holder


def test_the_graph_answers_the_same(nested_model: m.Model) -> None:
    data = m.to_dict(nested_model)
    data["nodes"] = [n for n in data["nodes"] if n["id"] not in ("orphan", "c1", "c2")]  # type: ignore[union-attr]
    data["edges"] = [e for e in data["edges"] if e["source"] != "orphan"]  # type: ignore[union-attr]
    g = m.to_networkx(m.from_dict(data))
    assert top_level_ids(g) == ["a", "b", "db", "empty"]
    assert sorted(top_level(g).edges(keys=True)) == [("a", "b", "http")]
    assert parent_of(g, "a/x/y") == "a/x" and parent_of(g, "a") is None and parent_of(g, "nope") is None
    assert chains(g) == {"a/x": ["a"], "a/x/y": ["a/x", "a"], "a/z": ["a"], "db/orders": ["db"]}
    flat = m.to_networkx(m.from_dict(_minimal()))
    assert top_level(flat) is flat


def test_stats_count_the_top_level_and_the_parts_apart(nested_model: m.Model) -> None:
    stats = m.to_dict(nested_model)["stats"]
    assert stats["components"] == 4 and stats["connections"] == 1  # type: ignore[index]
    assert stats["databases"] == 1 and stats["database_links"] == 1  # type: ignore[index]
    assert stats["subsystems"] == 6  # type: ignore[index]  # every nested node that is no database


def test_records_are_immutable() -> None:
    model = m.from_dict(_minimal())
    with pytest.raises(AttributeError):
        model.components["a"].parent = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        model.components["a"].attributes["x"] = "y"  # type: ignore[index]
    with pytest.raises(TypeError):
        model.components["c"] = model.components["a"]  # type: ignore[index]
    assert model.components["a"].evidence == () and isinstance(Evidence("r", "p", 1), Evidence)


# ------------------------------------------------------------------ one home for the rule
# What deciding "top level or nested" by a node's parent looks like in Python: reading the parent key
# of a node dict, or testing a parent attribute for being unset.
_PARENT_RULE = re.compile(
    r"""(?x)
    (\.get\(\s*["']parent["']\s*[,)])          # d.get("parent") on a node dict
  | (\[\s*["']parent["']\s*\])                 # d["parent"]
  | (["']parent["']\s+(not\s+)?in\b)            # "parent" in d
  | (\.parent\s+is\s+(not\s+)?None)            # c.parent is None
  | (\.parent\s*[!=]=\s*(None|""|''))          # c.parent == ""
  | (\bnot\s+[\w.\[\]"']+\.parent\b(?!\.))     # not c.parent
  | (\bif\s+[\w.\[\]"']+\.parent\s*(:|\band\b|\bor\b|\belse\b))  # if c.parent: / x if c.parent else y
  | (\bbool\(\s*[\w.\[\]"']+\.parent\s*\))     # bool(c.parent)
    """)

# Places that match the patterns but are not about a model node (checked by hand, kept short):
_NOT_A_MODEL_NODE = {
    ("graph/values.py", 'name = r.get("parent") or ""'),  # a router fact naming the router it is mounted on
    # an answer's element shows the holder the model named for it (query/index.py reads Model.parents)
    ("query/render.py", """return f"{e.id} ({e.kind}{', part of ' + e.parent if e.parent else ''})""" + '"'),
}


def _parent_rule_outside_model() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("model/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _PARENT_RULE.search(line) and (rel, line.strip()) not in _NOT_A_MODEL_NODE:
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_the_parent_rule_lives_only_in_repomodeler_model() -> None:
    found = _parent_rule_outside_model()
    assert not found, "decide top level / nesting with repomodeler.model (nesting, graph), not here:\n" + "\n".join(found)


def test_the_parent_rule_check_finds_what_it_looks_for() -> None:
    """The grep is not vacuous: each way of writing the rule is caught, and the model package has them."""
    for line in ('nested = {n["id"] for n in nodes if n.get("parent")}', 'if not d.get("parent"):',
                 'top = [c for c in comps if c.parent is None]', 'if comp.parent == "":', 'if not node.parent:',
                 'if c.parent and c.kind == "database":', 'return bool(comp.parent)', 'p = node["parent"]',
                 'nested = [n for n, d in g.nodes(data=True) if "parent" in d]',
                 'extra = {"parent": c.parent} if c.parent else {}'):
        assert _PARENT_RULE.search(line), line
    for line in ("folder = path.parent", "while folder.parent != folder:", "out.parent / name",
                 "if resolved.parent != self.root", "parent_id = holder.id"):
        assert not _PARENT_RULE.search(line), line
    inside = [p for p in (PACKAGE / "model").rglob("*.py") if _PARENT_RULE.search(p.read_text(encoding="utf-8"))]
    assert inside, "the model package is where the rule is written"


# The same rule in the viewer's JavaScript: reading a node's `parent` (n.parent, n["parent"],
# "parent" in n). The viewer gets each node's place (top, depth, ancestors) from
# repomodeler.model.nesting through the server; Cytoscape's own compound calls (n.parent(),
# .parentElement) are not the model's parent.
_JS_PARENT_RULE = re.compile(r"""(\.parent\b(?!\s*\())|(\[\s*["']parent["']\s*\])|(["']parent["']\s+in\b)|(hasOwnProperty\(\s*["']parent)""")
WEB_JS = PACKAGE.parent / "web" / "static" / "js"


def test_the_viewer_javascript_never_reads_parent() -> None:
    found = []
    for path in sorted(WEB_JS.rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if _JS_PARENT_RULE.search(code):
                found.append(f"{path.relative_to(WEB_JS)}:{number}: {line.strip()}")
    assert not found, "the viewer gets nesting from the server (repomodeler.model.nesting), not from parent:\n" + "\n".join(found)
    for line in ('var p = str(n.parent);', 'if (node["parent"]) x();', 'if ("parent" in n) x();', 'item.parent = "";',
                 'n.hasOwnProperty("parent")'):
        assert _JS_PARENT_RULE.search(line), line
    for line in ("var holder = n.parent();", "box.parentElement.querySelector('h2');", "parent.appendChild(child);",
                 'data: { id: "n:x", parent: parent }'):
        assert not _JS_PARENT_RULE.search(line), line


def test_placement_gives_the_viewer_top_depth_and_ancestors() -> None:
    parents = nesting.parents_of_nodes([{"id": "a"}, {"id": "a/x", "parent": "a"}, {"id": "a/x/y", "parent": "a/x"},
                                        {"id": "orphan", "parent": "gone"}, "junk", {"id": 3}])
    placed = nesting.placement(parents)
    assert placed == {"a": {"top": "a", "depth": 0, "ancestors": []}, "a/x": {"top": "a", "depth": 1, "ancestors": ["a"]},
                      "a/x/y": {"top": "a", "depth": 2, "ancestors": ["a", "a/x"]},
                      "orphan": {"top": "orphan", "depth": 0, "ancestors": []}}


# Every other JSON the package parses, and what it is (a new json.load must be added here or go
# through repomodeler.model when it is a model.json).
_OTHER_JSON = {
    "commands/push.py": "responses of the Systems Modeling API server",
    "push_state.py": "the push state file a push wrote in the model folder",
    "extract/readers/openapi.py": "OpenAPI documents in the analysed repositories",
    "extract/cache.py": "rows of the fact cache",
    "extract/helm_render.py": "JSON strings a Helm template's fromJson reads (chart values)",
    "extract/readers/npm.py": "package.json files in the analysed repositories",
    "extract/readers/composer.py": "composer.json files in the analysed repositories",
    "extract/readers/heroku_app.py": "Heroku app.json manifests in the analysed repositories",
    "extract/readers/pm2.py": "PM2 process files (pm2.json, ecosystem.json) in the analysed repositories",
    "extract/helm_charts.py": "the --set values of a documented helm install, kept as a JSON list on its helm.install fact",
    "graph/components.py": "a Dockerfile's exec-form CMD (a JSON list of words) naming the script the image starts",
    "extract/readers/azure_functions.py": "host.json, function.json and local.settings.json of Azure Functions apps",
    "extract/readers/bicep.py": "ARM deployment parameters files (main.parameters.json) in the analysed repositories",
    "extract/readers/dockerfile.py": "exec-form COPY arguments in the analysed repositories' Dockerfiles",
    "graph/scripts.py": "exec-form command arrays in the analysed repositories",
    "landscape/run.py": "run.json of a system's earlier landscape run",
    "landscape/store.py": "the shared fact and record store the landscape's workers write",
    "pipeline.py": "run.json of the previous run",
    "publish.py": "the manifest of the files a model or site folder holds",
    "serve/analyze.py": "the progress lines of an analysis asked for from the browser",
    "serve/analyze_worker.py": "the job description the server hands that analysis",
    "serve/budget.py": "none (its docstring names json.loads)",
    "startup.py": "the argument payload a re-executed process receives",
    "serve/store.py": "run.json beside a served model",
    "store/runs.py": "run.json and the repository list of the run history",
}


def test_one_reader_of_model_json() -> None:
    """model.json is parsed in repomodeler/model/json_io.py only: every other json.load(s) is listed
    above with what it reads."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bjson\.loads?\(", line):
                found.setdefault(rel, []).append(f"{rel}:{number}: {line.strip()}")
    assert "model/json_io.py" in found
    unexplained = [line for rel, lines in found.items() if rel != "model/json_io.py" and rel not in _OTHER_JSON
                   for line in lines]
    assert not unexplained, ("read model.json with repomodeler.model (read_file, parse, from_dict), or name what "
                             "else this JSON is in _OTHER_JSON:\n" + "\n".join(unexplained))
    assert set(_OTHER_JSON) <= set(found), "stale entries: " + ", ".join(sorted(set(_OTHER_JSON) - set(found)))
