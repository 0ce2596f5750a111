"""No state passes between resolver rules except what they declare.

At run time (strict, as the suite runs) a rule touching shared state it did not list in ``Rule.state``
raises (graph/base.py ``Shared``).  That only covers names in ``SHARED_STATE``; this test reads the
resolver's source and finds every instance attribute that one rule's code (its unit and every
resolver method it reaches) sets or fills and another rule's code reads.  Each must be shared state
(declared, checked), the builder itself, or a memo of facts that never looks at the model.
"""

from __future__ import annotations

import ast
import textwrap
from collections import defaultdict
from pathlib import Path

from repomodeler.graph.base import SHARED_STATE
from repomodeler.rules import RULES

GRAPH = Path(__file__).resolve().parent.parent / "repomodeler" / "graph"

# The model builder: the system being built, its name table, provenance bookkeeping, and owner_of's
# memo (dropped whenever any component's folders or the set of components change: records.Roots).
BUILDER = {"model", "alias", "created_by", "owner_cache", "_owner_state"}
# Memos of facts and the inventory, filled on first use by whichever rule asks first; they never read
# the model, so what they hold does not depend on which rule ran first (checked below).
FACT_MEMOS = {"_folder_modules", "_profile_activations", "_js_packages", "_k8s_variants", "_code_files", "_cfn_stacks", "_cfn_names", "_cfn_shapes", "_cfn_refs",
              "_non_sample_workload_repos", "_maven_poms",
              "_import_reach", "_stack_dirs", "_workspace_targets", "_dependents_index", "_recipe_index",
              "_compose_by_name", "_compose_env_by_name", "_env_owner_index", "_settings_files_named",
              "_go_import_graphs", "_go_reaches"}
MUTATORS = {"append", "add", "update", "extend", "setdefault", "pop", "clear", "discard", "remove", "insert"}


def _self_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def methods_of(sources: list[str]) -> dict[str, list[ast.FunctionDef]]:
    found: dict[str, list[ast.FunctionDef]] = defaultdict(list)
    for text in sources:
        for cls in (n for n in ast.parse(text).body if isinstance(n, ast.ClassDef)):
            for fn in cls.body:
                if isinstance(fn, ast.FunctionDef):
                    found[fn.name].append(fn)
    return found


def uses(fn: ast.FunctionDef) -> tuple[set[str], set[str], set[str]]:
    """(methods called on self, attributes read, attributes set or filled) in one method."""
    calls: set[str] = set()
    reads: set[str] = set()
    writes: set[str] = set()
    for n in ast.walk(fn):
        attr = _self_attr(n)
        if attr is not None:
            (writes if isinstance(n.ctx, ast.Store) else reads).add(attr)  # type: ignore[attr-defined]
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            called = _self_attr(n.func)
            if called is not None:
                calls.add(called)
            filled = _self_attr(n.func.value)
            if filled is not None and n.func.attr in MUTATORS:
                writes.add(filled)
        if isinstance(n, (ast.Assign, ast.AugAssign)):
            for target in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if isinstance(target, ast.Subscript) and _self_attr(target.value):
                    writes.add(_self_attr(target.value) or "")
    return calls, reads, writes


def reach(methods: dict[str, list[ast.FunctionDef]], unit: str) -> tuple[set[str], set[str]]:
    """Attributes read and written by a unit and every resolver method it calls, transitively."""
    seen: set[str] = set()
    todo = [unit]
    reads: set[str] = set()
    writes: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.add(name)
        for fn in methods[name]:
            c, r, w = uses(fn)
            reads |= r
            writes |= w
            todo.extend(c)
    return reads - set(methods), writes - set(methods)


def flowing_state(methods: dict[str, list[ast.FunctionDef]], units: dict[str, str]) -> dict[str, set[str]]:
    """Attribute -> the rules involved, for every attribute one rule writes and another reads or writes."""
    written: dict[str, set[str]] = defaultdict(set)
    touched: dict[str, set[str]] = defaultdict(set)
    for rule_id, unit in units.items():
        reads, writes = reach(methods, unit)
        for a in writes:
            written[a].add(rule_id)
        for a in reads | writes:
            touched[a].add(rule_id)
    return {a: touched[a] for a, writers in written.items() if len(touched[a]) > 1}


def _graph_sources() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(GRAPH.glob("*.py"))]


def test_state_flowing_between_rules_is_declared() -> None:
    flowing = flowing_state(methods_of(_graph_sources()), {r.id: r.unit for r in RULES})
    undeclared = {a: sorted(rules) for a, rules in flowing.items()
                  if a not in SHARED_STATE and a not in BUILDER and a not in FACT_MEMOS}
    assert not undeclared, ("state passes between rules without a declaration; add it to graph/base.py "
                            f"SHARED_STATE and to the rules' `state`: {undeclared}")


def test_fact_memos_never_read_the_model() -> None:
    methods = methods_of(_graph_sources())
    for memo in sorted(FACT_MEMOS):
        writers = [fn for fns in methods.values() for fn in fns if memo in uses(fn)[2]]
        assert writers, f"{memo} is listed as a memo but nothing fills it"
        for fn in writers:
            _calls, reads, _writes = uses(fn)
            assert not reads & {"model", "alias", "owner_of", "owner_cache"}, f"{fn.name} fills {memo} from the model"


def test_the_check_finds_undeclared_state() -> None:
    """The analysis itself: a rule leaving a note for another through an attribute is found, through a
    helper method too; a rule keeping an attribute to itself is not."""
    source = textwrap.dedent('''
        class Rules:
            def first(self):
                self._remember()
                self.private = 1
                return self.private
            def _remember(self):
                self.note[1] = 2
            def second(self):
                return self.note.get(1)
    ''')
    flowing = flowing_state(methods_of([source]), {"demo.first": "first", "demo.second": "second"})
    assert flowing == {"note": {"demo.first", "demo.second"}}
