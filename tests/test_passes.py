"""The resolver's declared passes: the order respects each pass's declared dependencies, every pass
exists, every fact kind a pass declares is one extraction produces, and a pass reading a kind it did
not declare is caught (the suite runs with REPOMODELER_STRICT_PASSES=1, see conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from repomodeler.graph.build import Resolver
from repomodeler.graph.passes import PASSES, FactView, Pass
from repomodeler.records import Fact

ROOT = Path(__file__).resolve().parent.parent


def produced_kinds() -> set[str]:
    kinds: set[str] = set()
    for scm in (ROOT / "grammars").rglob("*.scm"):
        kinds.update(re.findall(r'\(#set!\s+fact\s+"([^"]+)"\)', scm.read_text(encoding="utf-8")))
    for py in (ROOT / "repomodeler" / "extract").rglob("*.py"):  # the engine and the readers/ modules
        text = py.read_text(encoding="utf-8")
        kinds.update(re.findall(r'\b_?fact\(\s*"([a-z0-9_.]+)"', text))
        kinds.update(re.findall(r'Fact\(kind="([a-z0-9_.]+)"', text))
    return kinds


def test_passes_run_after_what_they_use_and_exist() -> None:
    names = [p.name for p in PASSES]
    assert len(names) == len(set(names))
    for i, p in enumerate(PASSES):
        assert callable(getattr(Resolver, p.name, None)), p.name
        for dep in p.after:
            assert dep in names, f"{p.name} runs after unknown pass {dep}"
            assert names.index(dep) < i, f"{p.name} must run after {dep}"


def test_declared_fact_kinds_are_produced_by_extraction() -> None:
    known = produced_kinds()
    for p in PASSES:
        unknown = set(p.reads) - known
        assert not unknown, f"{p.name} declares kinds no reader or query produces: {sorted(unknown)}"


def test_resolver_runs_exactly_the_declared_passes_in_order(monkeypatch) -> None:
    ran: list[str] = []
    for p in PASSES:
        monkeypatch.setattr(Resolver, p.name, lambda self, _n=p.name: ran.append(_n))
    Resolver("s", []).resolve()
    assert ran == [p.name for p in PASSES]


def test_strict_view_refuses_an_undeclared_kind() -> None:
    view = FactView([Fact("env.read", "r", "a.py", 1, "python", (("name", "X"),))], strict=True)
    view.current = Pass("demo", reads=("env.read",), writes=())
    assert [f.get("name") for f in view["env.read"]] == ["X"]
    with pytest.raises(AssertionError, match="demo reads 'http.route'"):
        view["http.route"]
