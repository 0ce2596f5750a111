"""The resolver is one class made of many rule mixins: a method name two of them define is one method, the
other silently shadowed by the method resolution order (a helper of the registry rules once answered the
command-line rules' question). No two unrelated mixins may define the same name."""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.build import Resolver


def test_no_two_rule_mixins_define_the_same_method() -> None:
    owners: dict[str, type] = {}
    clashes = []
    for cls in Resolver.__mro__:
        if cls in (Resolver, ResolverBase, object) or not issubclass(cls, ResolverBase):
            continue
        for name in vars(cls):
            if name.startswith("__"):
                continue
            first = owners.setdefault(name, cls)
            if first is not cls and not issubclass(first, cls) and not issubclass(cls, first):
                clashes.append(f"{name}: {first.__name__} and {cls.__name__}")
    assert clashes == []
