"""The resolver's rules, declared by framework or platform (one folder a group), and the order they
run in, derived from what each declares it uses (``after``), not from a hand-kept list.

``RULES`` is that order.  Between rules free to run in either order, the one with the smaller id runs
first, so the order never depends on where a rule was declared.  ``tests/test_rules_registry.py``
checks that every rule exists as a resolver unit, reads only kinds extraction produces, and has a
fixture case that fails when the rule is switched off."""

from __future__ import annotations

import importlib
import pkgutil

from repomodeler.rules.core import WRITABLE, Rule, UndeclaredWrite

__all__ = ["RULES", "Rule", "UndeclaredWrite", "WRITABLE", "by_id", "run_order"]


def _declared() -> list[Rule]:
    found: list[Rule] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.ispkg:
            found.extend(importlib.import_module(f"{__name__}.{info.name}").RULES)
    return found


def run_order(rules: list[Rule]) -> tuple[Rule, ...]:
    """A topological order of the rules by ``after`` (ties by id); a cycle or an unknown rule is an error."""
    ids = {r.id: r for r in rules}
    if len(ids) != len(rules):
        raise ValueError("two rules share an id")
    for r in rules:
        missing = [a for a in r.after if a not in ids]
        if missing:
            raise ValueError(f"rule {r.id} runs after unknown rules {missing}")
    done: list[Rule] = []
    placed: set[str] = set()
    while len(done) < len(rules):
        ready = sorted(r.id for r in rules if r.id not in placed and all(a in placed for a in r.after))
        if not ready:
            raise ValueError(f"rules depend on each other in a cycle: {sorted(set(ids) - placed)}")
        done.append(ids[ready[0]])
        placed.add(ready[0])
    return tuple(done)


RULES: tuple[Rule, ...] = run_order(_declared())
_BY_ID = {r.id: r for r in RULES}


def by_id(rule_id: str) -> Rule:
    return _BY_ID[rule_id]
