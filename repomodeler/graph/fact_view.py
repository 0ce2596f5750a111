"""The facts a resolver rule may read: a view by kind that, inside a rule, refuses a kind the rule did
not declare (when strict, as in the test suite), so a declaration can't silently fall behind its
rule.  The rules themselves and their declarations are in :mod:`repomodeler.rules`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from repomodeler.records import Fact
from repomodeler.rules.core import Rule
from repomodeler.writes import undeclared


class FactView:
    """Facts by kind.  Inside a pass, reading a kind the pass did not declare raises (when strict), so a
    declaration can't silently fall behind its rule; outside passes every kind is readable."""

    def __init__(self, facts: list[Fact], strict: bool = False) -> None:
        self._by_kind: dict[str, list[Fact]] = defaultdict(list)
        self._all = facts
        for f in facts:
            self._by_kind[f.kind].append(f)
        self.strict = strict
        self.current: Rule | None = None

    def __getitem__(self, kind: str) -> list[Fact]:
        if self.strict and self.current is not None and kind not in self.current.reads:
            undeclared("REPOMODELER_RECORD_READS", self.current.id, kind,
                       AssertionError(f"resolver rule {self.current.id} reads {kind!r} but does not declare it"))
        return self._by_kind.get(kind, [])

    def every(self) -> list[Fact]:
        """Every fact, in fact order: for a rule that asks whether a repository holds any code at all.
        Inside a rule it must declare that it reads every kind (``"*"`` in ``Rule.reads``)."""
        if self.strict and self.current is not None and "*" not in self.current.reads:
            raise AssertionError(f"resolver rule {self.current.id} reads every fact kind but does not declare '*'")
        return self._all

    def kinds(self) -> Iterator[str]:
        return iter(sorted(self._by_kind))
