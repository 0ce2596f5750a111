"""The resolver's rules, declared by framework or platform (one folder a group), and the order they
run in.

``RULES`` is that order: ``ORDER`` below, checked against what each rule declares it uses (``after``)
when the package loads, so a rule can't be placed before one whose results it reads.  The order is
still written down rather than derived: rules read what earlier rules made (aliases, kinds, source
folders) more often than their ``after`` declarations say, and a topological order with ties broken
by id changed models (tests/test_rules_registry.py shows ``run_order``, which derives one).  ``tests/test_rules_registry.py``
checks that every rule exists as a resolver unit, reads only kinds extraction produces, and has a
fixture case that fails when the rule is switched off."""

from __future__ import annotations

import importlib
import pkgutil

from repomodeler.rules.core import WRITABLE, Rule, UndeclaredState, UndeclaredWrite

__all__ = ["ORDER", "RULES", "Rule", "UndeclaredState", "UndeclaredWrite", "WRITABLE", "by_id", "run_order"]


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


ORDER: tuple[str, ...] = (
    "compose.services",
    "compose.stack-variant-stores",
    "kubernetes.pod-stores",
    "kubernetes.pod-programs",
    "kubernetes.remote-releases",
    "dotnet.aspire-resources",
    "platform.same-code",
    "iac.stacks",
    "iac.functions",
    "iac.resources",
    "iac.references",
    "iac.api-front-doors",
    "build.units",
    "build.versioned-recipes",
    "build.deployed-programs",
    "build.launched-programs",
    "iac.workloads",
    "process.host-programs",
    "frontend.webapps",
    "spring.application-name",
    "gateway.by-dependency",
    "platform.roles",
    "build.languages",
    "proxy.virtual-hosts",
    "compose.network-aliases",
    "api.endpoints",
    "kubernetes.knative-eventing",
    "config.unread-settings",
    "config.caller-settings",
    "config.address-values",
    "kubernetes.network-policies",
    "kubernetes.secret-store-settings",
    "config.underscore-service-hosts",
    "config.document-keys",
    "config.secret-files",
    "code.address-literals",
    "code.client-calls",
    "build.library-dependencies",
    "code.config-reads",
    "grpc.services",
    "code.store-drivers",
    "code.sdk-services",
    "messaging.topics",
    "iac.stores",
    "iac.links",
    "functions.bindings",
    "functions.service-settings",
    "spring.zuul-named-routes",
    "dapr.app-ids",
    "dapr.components",
    "dapr.name-resolution",
    "discovery.service-lookups",
    "platform.role-clients",
    "discovery.gateway-routes",
    "stores.implied",
    "stores.configured-sections",
    "rpc.selected-registry",
    "compose.logging-drivers",
    "compose.depends-on",
    "observability.scrape-targets",
    "proxy.routes",
    "proxy.traefik-labels",
    "proxy.nginx-proxy-hosts",
    "proxy.acme-certificates",
    "frontdoor.hosting-rewrites",
    "kubernetes.ingress",
    "kubernetes.mesh-gateways",
    "build.exposed-ports",
    "protocol.fold-unknown",
    "compose.init-jobs",
    "compose.shared-build",
    "iac.gateways",
    "frontdoor.entry-points",
    "frontdoor.ingress-controller",
    "kubernetes.custom-resources",
    "kubernetes.admission-webhooks",
    "kubernetes.aggregated-apis",
    "process.programs",
    "process.undeployed-programs",
    "process.links",
    "process.supervised",
    "process.image-commands",
    "process.spawned-binaries",
    "process.named-addresses",
    "rpc.interface-proxies",
    "rpc.named-addresses",
    "rpc.listen-port-addresses",
    "rpc.registry-keys",
    "routes.browser-calls",
    "routes.client-packages",
    "frontend.bundled-apps",
    "frontdoor.command-line",
    "process.shared-code",
    "process.shared-connections",
    "process.one-container",
    "config.command-line-addresses",
    "code.container-engine",
    "code.mail-senders",
    "rpc.moleculer-actions",
    "code.ice-servers",
    "code.error-reporting",
    "code.mail-peers",
    "process.addressed-processes",
    "stores.platform-addons",
    "stores.sql-drivers",
    "stores.embedded-engines",
    "stores.driver-clients",
    "kubernetes.api-clients",
    "kubernetes.managed-instances",
    "kubernetes.launched-images",
    "code.optional-plugins",
    "code.vendor-domains",
    "code.project-site",
    "code.unset-credentials",
    "code.integration-hub",
    "code.own-repository",
    "code.raw-file-hosts",
    "code.vendor-choices",
    "code.unconfigured-sdk",
    "code.address-echo",
    "code.literal-hosts",
    "build.library-calls",
    "compose.database-alternatives",
    "stores.logical-databases",
    "process.idle-programs",
    "process.job-workers",
    "process.mail-delivery-workers",
    "process.supervised-stores",
    "platform.undeployed-code",
    "docs.product-peers",
    "subsystem.packages",
)


def _ordered(rules: list[Rule]) -> tuple[Rule, ...]:
    ids = {r.id: r for r in rules}
    if sorted(ids) != sorted(ORDER):
        raise ValueError(f"ORDER and the declared rules differ: {sorted(set(ids) ^ set(ORDER))}")
    run_order(rules)  # no cycle, no unknown rule
    placed: set[str] = set()
    for rid in ORDER:
        early = [a for a in ids[rid].after if a not in placed]
        if early:
            raise ValueError(f"rule {rid} is ordered before {early}, which it declares it runs after")
        placed.add(rid)
    return tuple(ids[rid] for rid in ORDER)


RULES: tuple[Rule, ...] = _ordered(_declared())
_BY_ID = {r.id: r for r in RULES}


def by_id(rule_id: str) -> Rule:
    return _BY_ID[rule_id]
