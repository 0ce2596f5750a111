"""The resolver's rules: each has an id, a message, declared reads and writes, a place in an order
derived from what it uses, and fixture cases that pass with the rule and fail without it.  The suite
runs with REPOMODELER_STRICT_PASSES=1 (conftest.py): a rule reading a fact kind or writing a part of
the model it did not declare fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repomodeler.graph.build import Resolver
from repomodeler.graph.fact_view import FactView
from repomodeler.records import Evidence, Fact, Port
from repomodeler.rules import RULES, WRITABLE, Rule, UndeclaredState, UndeclaredWrite, by_id, run_order
from repomodeler.rules.cases import cases_of, run_case

ROOT = Path(__file__).resolve().parent.parent
RULE_IDS = [r.id for r in RULES]


def produced_kinds() -> set[str]:
    kinds: set[str] = set()
    for scm in (ROOT / "grammars").rglob("*.scm"):
        kinds.update(re.findall(r'\(#set!\s+fact\s+"([^"]+)"\)', scm.read_text(encoding="utf-8")))
    for py in (ROOT / "repomodeler" / "extract").rglob("*.py"):
        text = py.read_text(encoding="utf-8")
        kinds.update(re.findall(r'_fact\(\s*"([a-z0-9_.]+)"', text))
        kinds.update(re.findall(r'Fact\(kind="([a-z0-9_.]+)"', text))
        kinds.update(re.findall(r'fact\(\s*"([a-z0-9_.]+)"', text))
    return kinds


def test_every_rule_is_well_formed() -> None:
    assert len(RULE_IDS) == len(set(RULE_IDS))
    for r in RULES:
        assert re.fullmatch(r"[a-z]+\.[a-z0-9-]+", r.id), r.id
        assert r.message and "\n" not in r.message, r.id
        assert callable(getattr(Resolver, r.unit, None)), f"{r.id}: no resolver unit {r.unit}"
        assert set(r.writes) <= WRITABLE, r.id
        # a rule is declared in the folder of its group
        assert (ROOT / "repomodeler" / "rules" / r.group.replace("-", "_") / "__init__.py").is_file(), r.id


def test_order_runs_each_rule_after_what_it_uses() -> None:
    seen: set[str] = set()
    for r in RULES:
        assert set(r.after) <= seen, f"{r.id} runs before {sorted(set(r.after) - seen)}"
        seen.add(r.id)


def test_run_order_derives_an_order_from_declarations() -> None:
    assert run_order(list(reversed(RULES))) == run_order(list(RULES))
    a = Rule("x.a", "m", "u", (), ())
    b = Rule("x.b", "m", "u", (), (), after=("x.c",))
    c = Rule("x.c", "m", "u", (), ())
    assert [r.id for r in run_order([b, c, a])] == ["x.a", "x.c", "x.b"]
    with pytest.raises(ValueError, match="cycle"):
        run_order([Rule("x.a", "m", "u", (), (), after=("x.b",)), Rule("x.b", "m", "u", (), (), after=("x.a",))])
    with pytest.raises(ValueError, match="unknown"):
        run_order([Rule("x.a", "m", "u", (), (), after=("x.zz",))])


def test_declared_fact_kinds_are_produced_by_extraction() -> None:
    known = produced_kinds()
    for r in RULES:
        unknown = set(r.reads) - known - {"*"}  # "*": the rule reads every kind (FactView.every)
        assert not unknown, f"{r.id} declares kinds no reader or query produces: {sorted(unknown)}"


def test_resolver_runs_exactly_the_rules_in_order_and_skips_disabled(monkeypatch) -> None:
    ran: list[str] = []
    for r in RULES:
        monkeypatch.setattr(Resolver, r.unit, lambda self, _n=r.unit: ran.append(_n))
    Resolver("s", []).resolve()
    assert ran == [r.unit for r in RULES]
    ran.clear()
    Resolver("s", [], disabled=frozenset({RULES[0].id})).resolve()
    assert ran == [r.unit for r in RULES[1:]]


def test_strict_view_refuses_an_undeclared_kind() -> None:
    view = FactView([Fact("env.read", "r", "a.py", 1, "python", (("name", "X"),))], strict=True)
    view.current = Rule("demo.rule", "m", "u", reads=("env.read",), writes=())
    assert [f.get("name") for f in view["env.read"]] == ["X"]
    with pytest.raises(AssertionError, match="demo.rule reads 'http.route'"):
        view["http.route"]


def test_strict_builder_refuses_an_undeclared_write() -> None:
    from repomodeler.writes import running

    resolver = Resolver("s", [])
    resolver.current_rule = rule = Rule("demo.rule", "m", "u", reads=(), writes=("components",))
    with running(rule, strict=True):
        resolver.add_component("a", "service", "r", Evidence("r", "a", 1))
        resolver.add_component("b", "service", "r", Evidence("r", "b", 1))
        assert resolver.model.components["a"].rules == {"demo.rule"}
        with pytest.raises(UndeclaredWrite, match="demo.rule writes 'connections'"):
            resolver.connect("a", "b", "http", [Evidence("r", "a", 2)])


@pytest.mark.parametrize("part, write", [
    ("kinds", lambda r: setattr(r.model.components["a"], "kind", "database")),
    ("attributes", lambda r: r.model.components["a"].attributes.update(tier="web")),
    ("attributes", lambda r: r.model.components["a"].attributes.__setitem__("tier", "web")),
    ("ports", lambda r: r.model.components["a"].ports.__setitem__("http", Port("http", "http", "provided"))),
    ("ports", lambda r: r.model.components["b"].ports["grpc"].endpoints.append(None)),
    ("roots", lambda r: r.model.components["a"].source_roots.add(("r", "src"))),
    ("aliases", lambda r: r.model.components["a"].aliases.add("alpha")),
    ("aliases", lambda r: r.alias.setdefault("alpha", "a")),
    ("unresolved", lambda r: r.model.unresolved.append(None)),
    ("messages", lambda r: r.model.messages.__setitem__("pkg.Msg", None)),
    ("components", lambda r: r.model.parts.__setitem__("a/x", None)),
    ("components", lambda r: r.model.components.pop("a")),
    ("connections", lambda r: r.model.part_links.__setitem__(("a", "b", "http"), None)),
    ("attributes", lambda r: r.model.connections[("a", "b", "http")].attributes.setdefault("via", "x")),
    ("connections", lambda r: setattr(r.model.connections[("a", "b", "http")], "protocol", "grpc")),
])
def test_strict_builder_refuses_every_kind_of_undeclared_write(part, write) -> None:
    """Whatever helper a rule goes through, a change to a part of the model it did not declare is refused."""
    from repomodeler.writes import running

    resolver = Resolver("s", [])
    resolver.add_component("a", "service", "r", Evidence("r", "a", 1))
    resolver.add_component("b", "service", "r", Evidence("r", "b", 1)).ports["grpc"] = Port("grpc", "grpc", "provided")
    resolver.connect("a", "b", "http", [Evidence("r", "a", 2)])
    others = tuple(sorted({"components", "kinds", "aliases", "roots", "ports", "connections", "unresolved",
                           "attributes", "messages"} - {part}))
    with running(Rule("demo.rule", "m", "u", reads=(), writes=others), strict=True):
        with pytest.raises(UndeclaredWrite, match=f"demo.rule writes '{part}'"):
            write(resolver)
    with running(Rule("demo.rule", "m", "u", reads=(), writes=(part,)), strict=True):
        write(resolver)  # declared: allowed


def test_a_rule_reading_self_facts_or_every_kind_must_declare_it() -> None:
    resolver = Resolver("s", [])
    resolver.strict_writes = True
    resolver.current_rule = resolver.by_kind.current = Rule("demo.rule", "m", "u", reads=("env.read",), writes=())
    with pytest.raises(AssertionError, match="reads self.facts"):
        resolver.facts
    with pytest.raises(AssertionError, match="reads every fact kind"):
        resolver.by_kind.every()
    resolver.by_kind.current = Rule("demo.rule", "m", "u", reads=("*",), writes=())
    assert resolver.by_kind.every() == []


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_rule_has_cases_that_pass_with_it_and_fail_without_it(rule_id: str) -> None:
    cases = cases_of(rule_id)
    assert cases, f"{rule_id} has no fixture case in {by_id(rule_id).cases_dir()}"
    for case in cases:
        outcome = run_case(case)
        assert outcome.ok, f"{case.path.name}: {outcome.failures}"
    assert any(not run_case(c, frozenset({rule_id})).ok for c in cases), \
        f"{rule_id}: every case still passes with the rule switched off"


def test_shared_state_is_declared_and_checked() -> None:
    from repomodeler.graph.base import SHARED_STATE

    declared = {name for r in RULES for name in r.state}
    assert declared <= set(SHARED_STATE), sorted(declared - set(SHARED_STATE))
    assert set(SHARED_STATE) <= declared, f"shared state no rule declares: {sorted(set(SHARED_STATE) - declared)}"
    resolver = Resolver("s", [])
    resolver.strict_writes = True
    resolver.current_rule = Rule("demo.rule", "m", "u", reads=(), writes=(), state=("ingress_routes",))
    assert resolver.ingress_routes == {}
    with pytest.raises(UndeclaredState, match="demo.rule uses shared state 'browser_facts'"):
        resolver.browser_facts.append(None)


@pytest.mark.parametrize("text, named", [
    ("case: x\nrepositories: {}\nexpect:\n  unresolved: [a]\n", "unresolved"),
    ("case: x\nrepositories: {}\nabsent:\n  attributes: {a: {b: c}}\n", "attributes"),
    ("case: x\nrepositories: {}\nexpects:\n  components: [a]\n", "expects"),
    # a colon and a space inside a plain sentence: the file and the place are named, not an internal error
    ("case: a server (no driver: its own) uses a database\nrepositories: {}\n", "line 1, column 26: not valid YAML"),
])
def test_a_case_saying_what_the_runner_cannot_check_is_refused(tmp_path: Path, text: str, named: str) -> None:
    """A misspelt or unsupported expectation must not pass by being ignored."""
    from repomodeler.rules.cases import CaseError, load_case

    path = tmp_path / "some.rule.yml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError, match=named):
        load_case("some.rule", path)
