"""Processes of one system that call each other through an interface: one obtains a proxy of the
interface (``Clients.withService(IAlertOperator.class)``, ``retrofit.create(Api.class)``,
``Feign.builder().target(Api.class, url)``), another has the class implementing it
(``class AlertOperatorImpl implements IAlertOperator``) and serves it.

Why: a repository with its own RPC framework (an interface module, a client proxy factory, servers
implementing the interfaces; the servers find each other through a registry) shows no URL, no port
and no generated stub between its processes, yet its architecture is those calls.  The interface
named by the proxy and the class implementing it are the two ends, each a line of code a reader can
check.  Only a proxy whose interface exactly one *other* running component implements counts: a
component implementing the interface itself gets a local object, and an interface two servers
implement (a log service every server offers) does not say which one is called.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.inventory import classify_role
from repomodeler.records import Evidence, Fact

RUNNING_KINDS = ("service", "gateway")


class RpcInterfaceRules(ResolverBase):
    """Proxies of an interface connected to the process implementing it."""

    def rpc_interface_links(self) -> None:
        implementers: dict[str, dict[str, Evidence]] = defaultdict(dict)  # interface -> {component: first class line}
        for f in sorted(self.by_kind["code.implements"], key=Fact.order):
            owner = self._running_owner(f)
            if owner is not None:
                implementers[f.get("interface") or ""].setdefault(owner, f.evidence)
        users: dict[str, list[str]] = defaultdict(list)  # a library of the system -> the running components using it
        for (source, target, _protocol), conn in sorted(self.model.connections.items()):
            if conn.kind == "depends_on" and self.model.components[source].kind in RUNNING_KINDS:
                users[target].append(source)
        for f in sorted(self.by_kind["rpc.proxy"], key=Fact.order):
            interface = f.get("interface") or ""
            servers = implementers.get(interface, {})
            if len(servers) != 1:
                continue  # no single server says who is called
            (target, served_at), = servers.items()
            caller = self._running_owner(f)
            # (a proxy an RPC framework injects into a library of the system, a log listener's `@DubboReference
            # RemoteLogService`: each service built with the library makes the call; a library looking a service up
            # by its class, `locator.getService(X.class)`, may as well find a local one)
            callers = [caller] if caller is not None else \
                users.get(self._owner(f, ("library",)) or "", []) if f.get("injected") else []
            for c in callers:
                if c != target:  # (its own implementation: a local object)
                    self.connect(c, target, "rpc", [f.evidence, served_at], kind="calls",
                                 attributes={"via": f"rpc proxy of {interface}"})

    def _owner(self, f: Fact, kinds: tuple[str, ...]) -> str | None:
        """The component of one of `kinds` whose production code holds the fact."""
        owner = self.owner_of(f.repository, f.path) if classify_role(f.path) == "source" else None
        return owner if owner is not None and self.model.components[owner].kind in kinds else None

    def _running_owner(self, f: Fact) -> str | None:
        """The running component (a service, not a library) whose production code holds the fact."""
        return self._owner(f, RUNNING_KINDS)
