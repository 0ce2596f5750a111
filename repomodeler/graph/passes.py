"""The resolver's rules as declared passes: what each reads and writes, and the order they run in.

A pass is one method of the resolver.  Its declaration names the fact kinds it reads and the parts of
the system model it writes, so that adding a rule means saying where it fits: a rule that needs the
connections other rules found runs after them.  ``tests/test_passes.py`` checks the order against
the declarations, and runs every pass with a fact view that refuses a kind the pass did not declare,
so the declarations stay true as the rules change.

Parts of the model: ``components`` (new nodes), ``kinds`` (a node's kind or role), ``aliases`` (names
a node answers to), ``roots`` (source folders a node owns), ``ports`` (provided APIs and endpoints),
``connections``, ``unresolved``, ``attributes``, ``messages`` (typed rpc payloads).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from repomodeler.records import Fact


@dataclass(frozen=True)
class Pass:
    name: str  # the resolver method
    reads: tuple[str, ...]  # fact kinds
    writes: tuple[str, ...]  # parts of the model
    after: tuple[str, ...] = ()  # passes whose results it uses


CONFIG = ("config.property", "config.env", "compose.env_file", "k8s.configmap", "k8s.env_from", "k8s.env_key_ref",
          "env.read", "config.read")
DEPS = ("manifest.dependency", "annotation", "config.property")

PASSES: tuple[Pass, ...] = (
    Pass("deployment_components", ("compose.service", "compose.mount", "docker.from", "k8s.workload", "k8s.service",
                                   "k8s.variant", "k8s.cluster_binding", "manifest", "config.env"),
         ("components", "aliases", "roots", "attributes")),
    Pass("aspire_components", ("aspire.statement", "manifest"), ("components", "roots", "connections", "attributes"),
         after=("deployment_components",)),
    Pass("build_units", ("manifest", "docker.from", "docker.artifact", "http.route", "manifest.dependency", "manifest.dev_dependency",
                         "manifest.bundle",
                         "config.property", "annotation", "compose.service", "k8s.workload"),
         ("components", "aliases", "roots", "kinds"), after=("deployment_components", "aspire_components")),
    Pass("deployed_programs", ("program.binary", "program.command"), ("roots",), after=("build_units",)),
    Pass("spring_identity", ("config.property",), ("aliases",), after=("build_units", "deployed_programs")),
    Pass("spring_gateways", (*DEPS, "gateway.code"), ("kinds",), after=("spring_identity",)),
    Pass("platform_roles", DEPS, ("kinds", "attributes"), after=("spring_gateways",)),
    Pass("assign_languages", (), ("attributes",), after=("build_units",)),
    Pass("virtual_hosts", ("proxy.route",), ("aliases",), after=("build_units", "spring_identity")),
    Pass("endpoints", ("http.route", "http.router", "http.mount", "module.var"), ("ports",), after=("build_units",)),
    Pass("config_connections", (*CONFIG, *DEPS, "import"), ("connections", "components", "unresolved"),
         after=("platform_roles", "spring_identity")),
    Pass("config_documents", ("config.document", "config.key"), ("connections", "unresolved"),
         after=("config_connections",)),
    Pass("code_connections", ("http.client", "env.read", "string.url", "string.hostport", "string.dsn", "string.browser_url",
                              "config.env",
                              "manifest.dependency", "import"),
         ("connections", "components", "unresolved"), after=("config_connections",)),
    Pass("client_calls", ("http.client", "config.env"), ("connections", "components", "attributes"),
         after=("config_connections",)),
    Pass("config_reads", ("config.read", "feign.client", "config.env", "manifest.dependency", "import"),
         ("connections", "components", "unresolved"), after=("config_connections",)),
    Pass("grpc", ("grpc.rpc", "grpc.server", "grpc.client", "proto.message", "proto.field", "proto.enum",
                  "proto.enum_value"), ("ports", "connections", "unresolved", "messages"),
         after=("build_units",)),
    Pass("driver_connections", ("import",), ("connections",),
         after=("config_connections", "code_connections", "client_calls", "config_reads")),
    Pass("messaging", ("messaging.publish", "messaging.subscribe", "client.var"),
         ("connections", "components", "attributes", "unresolved"), after=("driver_connections",)),
    Pass("zuul_named_routes", ("config.property",), ("connections",), after=("spring_gateways", "config_connections")),
    Pass("dapr_app_ids", ("dapr.app_id",), ("aliases",), after=("build_units",)),
    Pass("service_lookups", ("service.lookup", "const.enum", "code.constant_arg", "string.url"), ("connections",),
         after=("spring_identity", "dapr_app_ids")),
    Pass("role_clients", (*DEPS,), ("connections", "unresolved"),
         after=("platform_roles", "config_connections", "messaging")),
    Pass("discovery_routes", DEPS, ("connections",), after=("role_clients", "endpoints")),
    Pass("implied_stores", DEPS, ("components", "connections"),
         after=("config_connections", "code_connections", "config_reads", "driver_connections", "role_clients")),
    Pass("depends_connections", ("compose.depends",), ("connections",), after=("implied_stores",)),
    Pass("library_dependencies", ("manifest.dependency", "manifest.dev_dependency"), ("connections",), after=("build_units",)),
    Pass("monitoring_targets", ("monitoring.target", "config.env"), ("connections", "unresolved"),
         after=("build_units",)),
    Pass("proxies", ("proxy.route", "config.env"), ("connections", "components", "kinds", "unresolved"),
         after=("config_connections",)),
    Pass("traefik", ("compose.label",), ("connections",), after=("deployment_components",)),
    Pass("ingress", ("k8s.ingress", "k8s.ingress_resource", "k8s.variant"), ("attributes",),
         after=("deployment_components",)),
    Pass("exposed_ports", ("docker.expose",), ("attributes",), after=("build_units",)),
    Pass("fold_unknown_protocols", (), ("connections",),
         after=("config_connections", "config_documents", "code_connections", "depends_connections", "proxies", "grpc")),
    Pass("entry_points", ("compose.service", "k8s.service", "config.env"), ("components", "connections"),
         after=("fold_unknown_protocols", "ingress", "traefik", "discovery_routes", "zuul_named_routes",
                "code_connections", "client_calls")),
    # Inside one repository (repomodeler/graph/processes.py, subsystems.py): processes, their links, subsystems.
    Pass("processes", ("import", "module.var", "manifest", "program.main", "cli.command", "code.function", "code.call",
                       "server.start", "grpc.server", "http.route", "program.entry", "program.command", "docker.command",
                       "program.script_main", "process.spawn", "messaging.subscribe", "http.client", "string.url",
                       "cli.subcommand"),
         ("components", "ports", "connections", "attributes"), after=("entry_points",)),
    Pass("process_links", ("process.spawn", "http.call_path", "http.client", "string.url", "grpc.client",
                           "grpc.client_ref", "grpc.server"), ("connections",), after=("processes",)),
    Pass("shared_code", ("program.main",), ("kinds", "connections"), after=("processes", "process_links")),
    Pass("logical_databases", (), ("components", "connections", "attributes"),
         after=("fold_unknown_protocols", "processes", "process_links")),
    Pass("subsystems", ("package.doc",), ("components", "connections", "attributes"),
         after=("processes", "process_links", "logical_databases")),
    Pass("provenance", (), ("attributes",), after=("entry_points",)),
)


class FactView:
    """Facts by kind.  Inside a pass, reading a kind the pass did not declare raises (when strict), so a
    declaration can't silently fall behind its rule; outside passes every kind is readable."""

    def __init__(self, facts: list[Fact], strict: bool = False) -> None:
        self._by_kind: dict[str, list[Fact]] = defaultdict(list)
        for f in facts:
            self._by_kind[f.kind].append(f)
        self.strict = strict
        self.current: Pass | None = None

    def __getitem__(self, kind: str) -> list[Fact]:
        if self.strict and self.current is not None and kind not in self.current.reads:
            raise AssertionError(f"resolver pass {self.current.name} reads {kind!r} but does not declare it")
        return self._by_kind.get(kind, [])

    def kinds(self) -> Iterator[str]:
        return iter(sorted(self._by_kind))
