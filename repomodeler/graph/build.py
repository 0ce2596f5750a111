"""Resolve facts from all repositories into one system: components, ports, connections.

The rules, in order:

1. Deployment descriptors (compose services, Kubernetes workloads) declare components.
2. Build units (a folder with its own manifest and an entry point) become services where no
   descriptor covers them; a repository with code but neither becomes one service.
3. Each source file belongs to the component whose source folder is the deepest prefix of its path.
4. Values that name another component's host (env/config values, URL literals in code, compose
   depends_on/links) connect the component that holds them to that component.  A data-store URL
   whose host is unknown introduces that data store; an HTTP URL to a foreign host used by a client
   call introduces an external system; anything else is recorded as unresolved, never guessed.

Every component and connection is created from a fact and keeps that fact's evidence.
"""

from __future__ import annotations

from repomodeler.graph.aspire import AspireRules
from repomodeler.graph.base import SystemModel
from repomodeler.graph.components import ComponentRules
from repomodeler.graph.connections import ConnectionRules
from repomodeler.graph.passes import PASSES
from repomodeler.graph.platform import PlatformRules
from repomodeler.graph.processes import ProcessRules
from repomodeler.graph.subsystems import SubsystemRules
from repomodeler.records import ExtractResult

__all__ = ["Resolver", "SystemModel", "resolve_system"]


class Resolver(ComponentRules, AspireRules, ConnectionRules, PlatformRules, ProcessRules, SubsystemRules):
    """Applies the rules in the order :data:`repomodeler.graph.passes.PASSES` declares (later rules see
    what earlier ones found)."""

    def resolve(self) -> SystemModel:
        for p in PASSES:
            self.by_kind.current = p
            getattr(self, p.name)()
        self.by_kind.current = None
        self.model.unresolved = sorted(set(self.model.unresolved), key=lambda u: (u.component, u.value, u.evidence))
        return self.model


def resolve_system(name: str, results: list[ExtractResult]) -> SystemModel:
    return Resolver(name, results).resolve()
