"""The write guard of the resolver's model builder: every change to the system being built names the
part of the model it writes (``components``, ``kinds``, ``aliases``, ``roots``, ``ports``,
``connections``, ``unresolved``, ``attributes``, ``messages``), and while a rule runs strictly (the
test suite sets ``REPOMODELER_STRICT_PASSES=1``) a write to a part the rule did not declare raises.

Why here and not in the rules: a rule's declaration is only worth reading if it cannot fall behind
the rule.  The builder's records (:mod:`repomodeler.records`: components, ports, connections, the
system's lists of parts, unresolved references and messages) hold their mutable fields in the
containers below, and reassigning a guarded field goes through :func:`check`, so every way a rule
can change the model is seen, whichever helper of the resolver it goes through.

Outside a rule (building the resolver, naming provenance afterwards) nothing is checked, and when
not strict the check is one attribute test.
"""

from __future__ import annotations

import os
from typing import Any, Protocol


class _Declared(Protocol):
    id: str
    writes: tuple[str, ...]


class UndeclaredWrite(AssertionError):
    """A rule wrote a part of the model it did not declare (raised when the resolver runs strictly)."""


class _Guard:
    """The rule running now (None outside rules) and whether undeclared writes raise."""

    rule: _Declared | None = None
    strict: bool = False


GUARD = _Guard()


def undeclared(survey_variable: str, rule_id: str, what: str, error: AssertionError) -> None:
    """A rule used something it did not declare: raise `error`, or, when the environment variable
    `survey_variable` names a file (a maintainer surveying declarations), append ``rule_id what`` to
    it and carry on.  One place for the three checks: writes, fact reads, shared state."""
    record = os.environ.get(survey_variable)
    if not record:
        raise error
    with open(record, "a", encoding="utf-8") as fh:
        fh.write(f"{rule_id} {what}\n")


def check(part: str) -> None:
    """The running rule is about to write ``part`` of the model: refused, when strict, unless declared."""
    rule = GUARD.rule
    if rule is not None and GUARD.strict and part not in rule.writes:
        undeclared("REPOMODELER_RECORD_WRITES", rule.id, part,
                   UndeclaredWrite(f"resolver rule {rule.id} writes {part!r} but does not declare it"))


class running:
    """``with running(rule, strict):`` the writes inside are the rule's (restores the previous state)."""

    def __init__(self, rule: _Declared | None, strict: bool) -> None:
        self.rule, self.strict = rule, strict

    def __enter__(self) -> None:
        self.saved = (GUARD.rule, GUARD.strict)
        GUARD.rule, GUARD.strict = self.rule, self.strict

    def __exit__(self, *exc: object) -> None:
        GUARD.rule, GUARD.strict = self.saved


class GuardedDict(dict):  # type: ignore[type-arg]
    """A dict of the model whose changes are writes to ``part``."""

    __slots__ = ("part",)

    def __init__(self, part: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.part = part

    def __reduce__(self) -> Any:  # copies and pickles keep the part (and skip the check)
        return (type(self), (self.part, dict(self)))

    def __setitem__(self, key: Any, value: Any) -> None:
        check(self.part)
        super().__setitem__(key, value)

    def __delitem__(self, key: Any) -> None:
        check(self.part)
        super().__delitem__(key)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            check(self.part)
        return super().setdefault(key, default)

    def pop(self, *args: Any) -> Any:
        check(self.part)
        return super().pop(*args)

    def popitem(self) -> Any:
        check(self.part)
        return super().popitem()

    def update(self, *args: Any, **kwargs: Any) -> None:
        check(self.part)
        super().update(*args, **kwargs)

    def clear(self) -> None:
        check(self.part)
        super().clear()

    def __ior__(self, other: Any) -> "GuardedDict":
        self.update(other)
        return self


class GuardedSet(set):  # type: ignore[type-arg]
    """A set of the model whose changes are writes to ``part``."""

    __slots__ = ("part",)

    def __init__(self, part: str, items: Any = ()) -> None:
        super().__init__(items)
        self.part = part

    def __reduce__(self) -> Any:
        return (GuardedSet, (self.part, list(self)))

    def add(self, item: Any) -> None:
        if item not in self:
            check(self.part)
            super().add(item)

    def update(self, *others: Any) -> None:  # type: ignore[override]
        check(self.part)
        super().update(*others)

    def discard(self, item: Any) -> None:
        if item in self:
            check(self.part)
            super().discard(item)

    def remove(self, item: Any) -> None:
        check(self.part)
        super().remove(item)

    def pop(self) -> Any:
        check(self.part)
        return super().pop()

    def clear(self) -> None:
        check(self.part)
        super().clear()

    def __ior__(self, other: Any) -> "GuardedSet":
        self.update(other)
        return self

    def __isub__(self, other: Any) -> "GuardedSet":
        for item in list(other):
            self.discard(item)
        return self


class GuardedList(list):  # type: ignore[type-arg]
    """A list of the model whose changes are writes to ``part``."""

    __slots__ = ("part",)

    def __init__(self, part: str, items: Any = ()) -> None:
        super().__init__(items)
        self.part = part

    def __reduce__(self) -> Any:
        return (type(self), (self.part, list(self)))

    def append(self, item: Any) -> None:
        check(self.part)
        super().append(item)

    def extend(self, items: Any) -> None:
        check(self.part)
        super().extend(items)

    def insert(self, index: Any, item: Any) -> None:
        check(self.part)
        super().insert(index, item)

    def remove(self, item: Any) -> None:
        check(self.part)
        super().remove(item)

    def pop(self, *args: Any) -> Any:
        check(self.part)
        return super().pop(*args)

    def clear(self) -> None:
        check(self.part)
        super().clear()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        check(self.part)
        super().sort(*args, **kwargs)

    def __setitem__(self, index: Any, value: Any) -> None:
        check(self.part)
        super().__setitem__(index, value)

    def __delitem__(self, index: Any) -> None:
        check(self.part)
        super().__delitem__(index)

    def __iadd__(self, other: Any) -> "GuardedList":
        self.extend(other)
        return self


def guarded(part: str, value: Any) -> Any:
    """``value`` as a guarded container of ``part`` (dicts, sets and lists; anything else as it is)."""
    if isinstance(value, (GuardedDict, GuardedSet, GuardedList)):
        value.part = part
        return value
    if isinstance(value, dict):
        return GuardedDict(part, value)
    if isinstance(value, (set, frozenset)):
        return GuardedSet(part, value)
    if isinstance(value, list):
        return GuardedList(part, value)
    return value
