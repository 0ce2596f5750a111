"""Platform roles: links a stack makes through a role rather than an address.

Spring Cloud and similar stacks tie services together through a *role*: a service registers with
"the registry", reads its configuration from "the config server", reports traces to "the tracing
server". The address is often localhost, a default, or lives in a configuration repository outside
the code, so value resolution finds nothing. What the code does show is the client library (a
starter, an annotation, a property) and, elsewhere in the system, exactly one server of that role.

Rules here:

* `platform_roles`: which component *is* a registry, config server, tracing server, Turbine
  aggregator, Hystrix dashboard or admin server (annotation, server dependency or image).
* `role_clients`: a component carrying a client of a role connects to the one server of that role
  (none when the system has no such server; an unresolved entry when it has several).
* `discovery_routes`: a gateway that routes through discovery (Zuul without explicit routes, Spring
  Cloud Gateway's discovery locator) reaches every business service registered with the registry.
* `zuul_named_routes`: a Zuul route with no address of its own (``zuul.routes.orders: /orders/**``)
  reaches the service its id names.
* `service_lookups`: ``loadBalancer.choose("orders")`` and friends name the service they call.
* `implied_stores`: a data-access starter or driver with no store of that technology reached gives
  the component a store of its own, named after it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.extract.readers._text import name_words
from repomodeler.graph.base import ResolverBase
from repomodeler.graph.identity import key
from repomodeler.graph.naming import infra_role
from repomodeler.graph.catalog import (
    BROKER_BINDERS,
    ENABLED_BY_ANNOTATION,
    GATEWAY_LOCATOR_PROPERTY,
    ROLE_PROPERTIES,
    EMBEDDED_DATABASES,
    HEX_STORE_PATTERNS,
    IMPLIED_STORES,
    LOCAL_HOSTS,
    ROLE_CLIENTS,
    ROLE_SERVERS,
    TECH_KIND,
    TECH_PROTOCOL,
    TECH_WORDS,
    tech_for_image,
)
from repomodeler.records import Component, Evidence, Fact, Unresolved

# The words a setting's name gives a store technology by (ELASTICSEARCH_URL, mongo.uri, PG_HOST).
STORE_NAME_WORDS: dict[str, set[str]] = {
    "elasticsearch": {"elasticsearch", "elastic", "es"}, "mongodb": {"mongo", "mongodb"},
    "postgres": {"postgres", "postgresql", "pg"}, "mysql": {"mysql", "mariadb"}, "redis": {"redis"},
    "rabbitmq": {"rabbitmq", "rabbit", "amqp"}, "kafka": {"kafka"}, "memcached": {"memcached", "memcache"},
    "cassandra": {"cassandra"}, "nats": {"nats"}, "sqlserver": {"mssql", "sqlserver"}}

# Dapr component types (`pubsub.<tech>`, `state.<tech>`, `bindings.<tech>`) by the technology names the
# catalogue uses, and protocols of the technologies it has no component kind for.
DAPR_TECH = {"postgresql": "postgres", "mongodb": "mongodb", "redis": "redis", "rabbitmq": "rabbitmq",
             "kafka": "kafka", "mysql": "mysql", "cassandra": "cassandra", "memcached": "memcached"}
DAPR_PROTOCOL = {"mqtt": "mqtt", "mqtt3": "mqtt", "smtp": "smtp", "http": "http"}
# The code facts of the Dapr calls that use a component of a family (pub/sub, state store).
DAPR_CALLS = {"pubsub": "dapr.pubsub", "state": "dapr.state"}
# What a Dapr component whose backing service the inputs do not deploy stands for (a managed cloud store,
# a store deployed by another repository): the component kind by family, bindings by their technology.
DAPR_STANDING = {"pubsub": "broker", "state": "database"}
DAPR_BINDING_KINDS = (
    (re.compile(r"blobstorage|\bs3\b|aws\.s3|gcp\.bucket|storage|dynamodb|cosmosdb|postgres|mysql|redis|mongodb|"
                r"cassandra|sql"), "database"),
    (re.compile(r"kafka|rabbitmq|mqtt|servicebus|eventhubs|storagequeues|sqs|sns|kinesis|pubsub|nats|eventgrid"),
     "broker"),
    (re.compile(r"smtp|sendgrid|twilio|postmark|http|graphql|zeebe|apns|signalr"), "external"),
)


def _dapr_named(argument: str) -> str:
    """The name a Dapr call gives the component it uses: a keyword's or field's literal
    (``pubsub_name="orders-bus"``, ``PubsubName: "pubsub"``), else the first argument as written
    (``statestore``; a constant's name when it is one)."""
    m = re.search(r"(?:pubsub_name|pubsub|store_name|storeName|PubsubName|StoreName)\s*[=:]\s*[\"']([^\"']+)[\"']",
                  argument)
    if m:
        return m.group(1).lower()
    m = re.match(r"^\(?\s*[\"']?([^\"',()\s]+)", argument.strip())
    return m.group(1).lower() if m else ""


# A configuration key whose section names a store or broker technology and whose leaf holds its address.
# (a list's items too: go-zero's `Etcd.Hosts[0]`, `UserRpc.Etcd.Hosts[0]`)
CONFIG_SECTION = re.compile(r"^(?:[A-Za-z0-9_-]+\.)*(?P<tech>redis|mongodb|mongo|nats|kafka|rabbitmq|elasticsearch"
                            r"|cassandra|memcached|consul|etcd|zookeeper)\.(?:host|hosts|hostname|uri|url|urls|address|addr|servers|nodes"
                            r"|brokers|bootstrap-servers|bootstrap_servers)(?:\[\d+\])?$", re.I)
SECTION_TECH = {"redis": "redis", "mongodb": "mongodb", "mongo": "mongodb", "nats": "nats", "kafka": "kafka",
                "rabbitmq": "rabbitmq", "elasticsearch": "elasticsearch", "cassandra": "cassandra",
                "memcached": "memcached", "consul": "consul", "etcd": "etcd", "zookeeper": "zookeeper"}
# Coordination services (service registries, configuration and key-value stores) by their role.
COORDINATION = {"consul": "service registry", "etcd": "coordination service", "zookeeper": "coordination service"}
COORDINATION_PROTOCOL = {"consul": "http", "etcd": "grpc", "zookeeper": "tcp"}
# Profiles (of settings files named for one: bootstrap-production.yaml) that describe the running system;
# a developer's, a test's or an opt-in profile (application-kafka.yml) does not.
RUNNING_PROFILE = re.compile(r"(?i)\b(prod|production|docker|k8s|kubernetes|cloud|live|release|default)\b")

ROLE_LABEL = {"auth": "authorization server", "registry": "service registry", "config": "configuration server", "tracing": "tracing server",
              "turbine": "metrics aggregator", "dashboard": "monitoring dashboard", "admin": "administration server",
              "metrics": "metrics server", "coordination": "coordination service"}


# Values of a setting naming a database's type that are no URL scheme (`DB_CONNECTION=pgsql`; `mysql`, `postgres`,
# `mongodb` are read as schemes are, through catalog.SCHEME_TECH).
STORE_TYPE_ALIASES = {"pgsql": "postgres", "mongo": "mongodb", "sqlsrv": "sqlserver"}


class PlatformRules(ResolverBase):
    """Rules about platform roles (registry, configuration, tracing, monitoring)."""

    # ------------------------------------------------------------------ what each component carries
    def signs(self) -> dict[str, list[tuple[str, str, Evidence]]]:
        """Per component: (kind, name, evidence) of its dependencies, annotations and property keys."""
        if getattr(self, "component_signs", None) is None:
            signs: dict[str, list[tuple[str, str, Evidence]]] = defaultdict(list)
            for f in [*self.by_kind["manifest.dependency"], *self.by_kind["annotation"]]:
                owner = self.owner_of(f.repository, f.path)
                if owner:
                    signs[owner].append((f.kind, (f.get("name") or "").lower(), f.evidence))
            for f in self.by_kind["config.property"]:
                if f.get("profile"):
                    continue
                common = PurePosixPath(f.get("config_file") or f.path).stem.lower().startswith(("application", "bootstrap"))
                for owner in self.property_owners(f):
                    if owner and not (common and owner != self.owner_of(f.repository, f.path)):
                        signs[owner].append(("property", f"{(f.get('name') or '').lower()}={f.get('value') or ''}",
                                             f.evidence))
            self.component_signs = signs
        return self.component_signs

    def _first_sign(self, cid: str, patterns: dict[str, str]) -> Evidence | None:
        """Evidence of the first sign of `cid` matching the pattern given for its kind."""
        hits = sorted(ev for kind, name, ev in self.signs().get(cid, [])
                      if kind in patterns and re.search(patterns[kind], name))
        return hits[0] if hits else None

    def uses_role_of(self, cid: str, key: str) -> bool:
        """Does `cid` carry the client of the role a property key configures (True for other keys)?
        A shared configuration file sets ``security.oauth2.*`` for everyone; only resource servers use it."""
        role = next((r for prefix, r in ROLE_PROPERTIES if key.lower().startswith(prefix)), None)
        return role is None or self._first_sign(cid, ROLE_CLIENTS[role]) is not None

    def has_role(self, cid: str, role: str) -> bool:
        return role in self.model.components[cid].attributes.get("platform_role", "").split(",")

    # ------------------------------------------------------------------ rules
    def platform_roles(self) -> None:
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            roles = []
            for role, patterns in ROLE_SERVERS.items():
                image_pattern = patterns.get("image")
                if image_pattern and re.search(image_pattern, (comp.attributes.get("image") or "").lower()):
                    roles.append(role)
                    continue
                ev = self._first_sign(cid, patterns)
                if ev is not None and role in ENABLED_BY_ANNOTATION and self._starter_not_enabled(cid, patterns):
                    continue
                if ev is not None:
                    roles.append(role)
                    comp.evidence.add(ev)
            if roles:
                comp.attributes["platform_role"] = ",".join(sorted(set(roles)))
                self.credit(comp.rules)

    def _starter_not_enabled(self, cid: str, patterns: dict[str, str]) -> bool:
        """A Spring Cloud server starts with its ``@Enable...`` annotation (``@EnableTurbine``,
        ``@EnableEurekaServer``), not with the starter on the classpath.  When the component's Spring
        Boot main class is read and no enabling annotation is there, the starter alone is no server."""
        if "annotation" not in patterns or self._first_sign(cid, {"annotation": patterns["annotation"]}):
            return False
        if self._first_sign(cid, {k: v for k, v in patterns.items() if k not in ("manifest.dependency", "annotation")}):
            return False  # another sign (a property, an image) says it is the server
        return self._first_sign(cid, {"annotation": r"^springbootapplication$"}) is not None

    def servers_of(self, role: str) -> list[str]:
        return sorted(c for c in self.model.components if self.has_role(c, role))

    def role_clients(self) -> None:
        self.role_clients_of: dict[str, set[str]] = defaultdict(set)
        for role, patterns in ROLE_CLIENTS.items():
            servers = self.servers_of(role)
            for cid in sorted(self.model.components):
                comp = self.model.components[cid]
                if comp.kind not in ("service", "gateway") or cid in servers:
                    continue
                ev = self._first_sign(cid, patterns)
                if ev is None:
                    continue
                if role == "registry" and self._first_sign(cid, {"property": r"^eureka\.client\.(register-with-eureka|registerwitheureka)=false"}):
                    continue  # a registry peer or tool that explicitly does not register
                if role == "tracing" and self._traces_through_broker(cid):
                    continue  # spans go to a broker Zipkin reads from, not to Zipkin
                self.role_clients_of[role].add(cid)
                targets = [s for s in servers if s != cid]
                if len(targets) > 1:
                    reached = [t for t in targets if any(k[0] == cid and k[1] == t for k in self.model.connections)]
                    if len(reached) != 1:
                        self.model.unresolved.append(Unresolved(cid, f"{ROLE_LABEL.get(role, role)} client with "
                                                                     f"{len(targets)} candidate servers", ev))
                        continue
                    targets = reached
                if targets:
                    self.connect(cid, targets[0], "http", [ev], attributes={"via": f"{ROLE_LABEL.get(role, role)} client"})
        self._broker_binders()
        self._turbine_apps()
        self._config_backends()

    def _broker_binders(self) -> None:
        """Spring Cloud Bus/Stream binders and Hystrix/Turbine streams reach the system's one broker of
        their technology (none is created: without a broker in the system there is no edge)."""
        for tech, patterns in BROKER_BINDERS.items():
            brokers = sorted(c.id for c in self.model.components.values()
                             if c.kind == "broker" and c.attributes.get("technology") == tech)
            if len(brokers) != 1:
                continue
            for cid in sorted(self.model.components):
                if cid == brokers[0] or self.model.components[cid].kind not in ("service", "gateway"):
                    continue
                ev = self._first_sign(cid, patterns)
                chosen = self._stream_binders(cid)
                if chosen and tech not in chosen and ev is not None and self._first_sign(
                        cid, {"manifest.dependency": r"stream"}) and not self._first_sign(
                        cid, {"manifest.dependency": r"bus|hystrix|turbine"}):
                    ev = None  # another binder is the one the bindings use
                if ev is None and tech in chosen:
                    ev = self._first_sign(cid, {"property": r"^spring\.cloud\.stream\.(default-?binder|binders\..+\.type)="})
                if ev is not None:
                    self.connect(cid, brokers[0], TECH_PROTOCOL.get(tech, "tcp"), [ev],
                                 attributes={"via": "message binder"})

    def _traces_through_broker(self, cid: str) -> bool:
        """``spring.zipkin.sender.type: rabbit`` (or ``kafka``, ``activemq``): the tracing client sends its
        spans through that broker; it reaches the system's one broker of that technology."""
        sign = next(((name, ev) for kind, name, ev in sorted(self.signs().get(cid, []), key=lambda s: s[2])
                     if kind == "property" and re.match(r"^spring\.zipkin\.sender\.type=(rabbit|kafka|activemq)$", name)),
                    None)
        if sign is None:
            return False
        tech = {"rabbit": "rabbitmq"}.get(sign[0].rsplit("=", 1)[1], sign[0].rsplit("=", 1)[1])
        brokers = sorted(c.id for c in self.model.components.values()
                         if c.kind == "broker" and c.attributes.get("technology") == tech and c.id != cid)
        if len(brokers) == 1:
            self.connect(cid, brokers[0], TECH_PROTOCOL.get(tech, "tcp"), [sign[1]],
                         attributes={"via": "traces sent through the broker"})
        return True

    def _stream_binders(self, cid: str) -> set[str]:
        """Broker technologies a Spring Cloud Stream configuration chooses: ``defaultBinder: kafka``, or the
        types of the binders it declares (``binders.b1.type: rabbit``)."""
        names = {"rabbit": "rabbitmq", "kafka": "kafka"}
        chosen = {names[m.group(2)] for kind, name, _ev in self.signs().get(cid, []) if kind == "property"
                  for m in [re.match(r"^spring\.cloud\.stream\.(defaultbinder|default-binder)=(rabbit|kafka)$", name)] if m}
        if chosen:
            return chosen
        return {names[m.group(1)] for kind, name, _ev in self.signs().get(cid, []) if kind == "property"
                for m in [re.match(r"^spring\.cloud\.stream\.binders\.[^.]+\.type=(rabbit|kafka)$", name)] if m}

    def _config_backends(self) -> None:
        """A config server's own backend outside the network: a local git repository or folder
        (``spring.cloud.config.server.git.uri: file://...``, ``native.search-locations: file:...``)
        is a config repository the server reads.  Remote git URLs are resolved as addresses elsewhere."""
        for f in self.by_kind["config.property"]:
            name = (f.get("name") or "").lower()
            value = (f.get("value") or "").strip()
            if f.get("profile") or not re.match(r"^spring\.cloud\.config\.server\.(git\.uri|native\.search-?locations)", name):
                continue
            if not value.startswith(("file:", "/", "~")) or "classpath:" in value:
                continue  # a remote repository (an external host) or files inside the server itself
            for owner in self.property_owners(f):
                if "native" in name and not self._first_sign(owner or "", {"property": r"^spring\.profiles\.active=.*native"}):
                    continue  # the native backend is used only under the `native` profile
                if owner and self.has_role(owner, "config"):
                    repo = self.add_component(f"{self.model.components[owner].name}-repository", "external", None, f.evidence,
                                              attributes={"technology": "git" if "git" in name else "filesystem",
                                                          "location": value})
                    self.connect(owner, repo.id, "tcp", [f.evidence], attributes={"via": "config server backend"})

    def _turbine_apps(self) -> None:
        """Turbine aggregates the Hystrix streams of the services its `appConfig` lists; a Hystrix
        dashboard reads the one Turbine of the system."""
        for f in self.by_kind["config.property"]:
            name = (f.get("name") or "").lower()
            if f.get("profile") or name not in ("turbine.appconfig", "turbine.app-config", "turbine.aggregator.appconfig"):
                continue
            for owner in self.property_owners(f):
                for app in re.split(r"[,\s]+", f.get("value") or ""):
                    target = self.alias.get(app.strip().lower())
                    if owner and target and target != owner:
                        self.connect(owner, target, "http", [f.evidence], attributes={"via": "turbine appConfig"})
        turbines = self.servers_of("turbine")
        if len(turbines) == 1:
            for cid in self.servers_of("dashboard"):
                if cid != turbines[0]:
                    ev = sorted(self.model.components[cid].evidence)[0]
                    self.connect(cid, turbines[0], "http", [ev], attributes={"via": "hystrix dashboard reads turbine"})

    def business_services(self) -> list[str]:
        """Services that provide an API of their own and play no platform role."""
        return sorted(c.id for c in self.model.components.values()
                      if c.kind == "service" and not infra_role(c) and c.ports)

    def discovery_routes(self) -> None:
        registry_clients = getattr(self, "role_clients_of", {}).get("registry", set())  # none when platform.role-clients is off
        for cid in sorted(c.id for c in self.model.components.values() if c.kind == "gateway"):
            if cid not in registry_clients:
                continue
            ev = self._first_sign(cid, {"annotation": r"^enablezuulproxy$", "manifest.dependency": r"zuul$",
                                        "property": GATEWAY_LOCATOR_PROPERTY})
            if ev is None:
                continue
            explicit = self._first_sign(cid, {"property": r"^(zuul\.routes\.|zuul\.ignored-?services=\*|"
                                                          r"zuul\.ignoredservices=\*|spring\.cloud\.gateway\.((server\.)?(webflux|webmvc|mvc)\.)?routes)"})
            locator = self._first_sign(cid, {"property": GATEWAY_LOCATOR_PROPERTY})
            if explicit is not None and locator is None:
                continue  # routes are listed: the value rules follow them
            for target in self.business_services():
                if target != cid and target in registry_clients:
                    self.connect(cid, target, "http", [ev], attributes={"via": "gateway routes through discovery"})
        # a proxy whose routes a template renders from the registry's catalog (consul-template's
        # `{{range services}}` writing a ProxyPass for each): it reaches every service registered there
        for f in sorted(self.by_kind["proxy.catalog"], key=lambda f: f.order()):
            proxy = self.owner_of(f.repository, f.path)
            if proxy is None or self.model.components[proxy].kind not in ("service", "gateway"):
                continue
            for target in sorted(registry_clients):
                comp = self.model.components.get(target)
                if target != proxy and comp is not None and comp.kind == "service" and not infra_role(comp):
                    self.connect(proxy, target, "http", [f.evidence],
                                 attributes={"via": f"routes rendered from the {f.get('registry')} catalog"})

    def zuul_named_routes(self) -> None:
        """A Zuul route with no address of its own is named for the service it reaches:
        ``zuul.routes.orders: /orders/**`` and ``zuul.routes.orders.path: /orders/**`` route to the
        service whose id is ``orders`` (Zuul looks the route's id up in discovery).  A route that sets
        ``url``, ``serviceId`` or ``location`` is left to the value rules, which follow that value."""
        routes: dict[tuple[str, str, str], Evidence] = {}  # (owner, path, route id) -> where it is declared
        addressed: set[tuple[str, str, str]] = set()
        for f in self.by_kind["config.property"]:
            m = re.match(r"^zuul\.routes\.([^.\[\]]+)(?:\.([A-Za-z-]+))?$", f.get("name") or "")
            if not m:
                continue
            route, key = m.group(1), (m.group(2) or "").lower().replace("-", "")
            for owner in self.property_owners(f):
                if not owner or self.model.components[owner].kind != "gateway":
                    continue
                if key in ("url", "serviceid", "location"):
                    addressed.add((owner, f.path, route))
                elif (key == "path" or (not key and (f.get("value") or "").startswith("/"))):
                    routes.setdefault((owner, f.path, route), f.evidence)
        for (owner, path, route), ev in sorted(routes.items()):
            target = self.alias.get(route.lower())
            if (owner, path, route) in addressed or not target or target == owner:
                continue
            self.connect(owner, target, "http", [ev], attributes={"via": "zuul route named for the service"})

    def dapr_app_ids(self) -> None:
        """Dapr app ids (a pod's ``dapr.io/app-id`` annotation, a compose ``daprd`` sidecar's
        ``-app-id``) are names of the component the sidecar runs beside: invocations use them."""
        for f in self.by_kind["dapr.app_id"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            app_id = (f.get("app_id") or "").lower()
            if owner and app_id:
                comp = self.model.components[owner]
                comp.aliases.add(app_id)
                comp.evidence.add(f.evidence)
                self.credit(comp.rules)
                self.alias.setdefault(app_id, owner)

    def dapr_components(self) -> None:
        """Dapr components (``kind: Component``): a pub/sub broker, state store or binding that the apps
        in its ``scopes`` (every app with a sidecar when it has none) reach through their sidecar.
        The backing component is the one its metadata's address names (``host: amqp://rabbitmq:5672``),
        else the one component of the technology its type names (``pubsub.rabbitmq``); one that
        resolves to neither is listed as unresolved."""
        apps = self._dapr_apps()
        for f in self.by_kind["dapr.component"]:
            family, _, tech = (f.get("type") or "").lower().partition(".")
            if family not in ("pubsub", "state", "bindings"):
                continue  # secret stores, configuration, middleware: no data flows to them from the app
            target = self._dapr_backing(f, tech)
            scopes = [s.lower() for s in (f.get("scopes") or "").split(",") if s]
            users = sorted({apps.get(s) or self.alias.get(s) for s in scopes} - {None}) if scopes \
                else self._dapr_code_users(family, f, sorted(set(apps.values()))) if family in DAPR_CALLS \
                else sorted(set(apps.values()))
            if target is None and users and scopes:
                target = self._dapr_standing(f, family, tech)
            if target is None and users:
                target = self._dapr_self_hosted(f, tech)
            if target is None:
                for user in users:
                    self.model.unresolved.append(Unresolved(user, f"dapr {f.get('type')} component {f.get('name')}",
                                                            f.evidence))
                continue
            tcomp = self.model.components[target]
            protocol = TECH_PROTOCOL.get(tcomp.attributes.get("technology", "") or tech, DAPR_PROTOCOL.get(tech, "tcp"))
            for user in users:
                # the lines of the user's calls through Dapr too: a process split off the component later
                # (a program of a Go module's cmd/) takes the link with the code that makes it
                self.connect(user, target, protocol, [f.evidence, *self._dapr_call_lines(family, user)],  # type: ignore[arg-type]
                             attributes={"via": f"dapr {family} component {f.get('name')}"})

    def _dapr_standing(self, f: Fact, family: str, tech: str) -> str | None:
        """A scoped Dapr component whose backing service is not among the inputs (its address names a
        host no descriptor here deploys, or a cloud service: Azure Blob Storage, a managed Redis) is
        itself the store or broker its apps use, named after the component (``reddog.state.loyalty``).
        Bindings that only trigger (cron) or keep files on the pod stand for nothing."""
        kind = DAPR_STANDING.get(family)
        if family == "bindings":
            kind = next((k for pattern, k in DAPR_BINDING_KINDS if pattern.search(tech)), None)
        if kind is None or tech in ("in-memory", "localstorage", "cron") or not f.get("name"):
            return None
        from repomodeler.graph.catalog import LOCAL_HOSTS
        from repomodeler.graph.values import parse_hosts

        if any(r.host in LOCAL_HOSTS for v in (f.get("addresses") or "").split() for r in parse_hosts(v)) \
                or any(v.split(":")[0].lower() in LOCAL_HOSTS for v in (f.get("addresses") or "").split()):
            return None  # self-hosted on a developer's machine (redisHost: localhost:6379): nothing of the deployment
        name = f.get("name") or ""
        for g in self.by_kind["dapr.component"]:  # the same component in another deployment (branch, hub)
            if g is not f and (g.get("name") or "") == name and \
                    self._dapr_backing(g, (g.get("type") or "").lower().partition(".")[2]) is not None:
                return None  # ... whose backing is deployed here: that is the store, this another way to run it
        existing = self.alias.get(name.lower())
        if existing is not None:
            return existing if self.model.components[existing].kind in ("database", "cache", "broker", "external") \
                else None
        technology = DAPR_TECH.get(tech.split(".")[-1], tech)
        # (the one store of that technology the deployment's templates declare, a Bicep Service Bus namespace for
        # `pubsub.azure.servicebus`: the component is its Dapr name)
        declared = sorted(cid for cid, c in self.model.components.items() if c.kind in ("database", "cache", "broker")
                          and c.attributes.get("iac_type")
                          and (c.attributes.get("technology") or "") == technology.removeprefix("azure."))
        if len(declared) == 1:
            held = self.model.components[declared[0]]
            held.aliases.add(name.lower())
            held.evidence.add(f.evidence)
            self.alias.setdefault(name.lower(), held.id)
            return held.id
        comp = self.add_component(name, kind, f.repository, f.evidence, attributes={
            "technology": technology, "deployment": "dapr component"})
        return comp.id

    def _dapr_call_lines(self, family: str, owner: str) -> list[Evidence]:
        """The first line of each file of `owner`'s code calling Dapr for the family (state, pub/sub)."""
        kind = DAPR_CALLS.get(family)
        firsts: dict[tuple[str, str], Evidence] = {}
        for c in sorted(self.by_kind[kind], key=Fact.order) if kind else []:
            if self.owner_of(c.repository, c.path) == owner:
                firsts.setdefault((c.repository, c.path), c.evidence)
        return sorted(firsts.values())

    def _dapr_self_hosted(self, f: Fact, tech: str) -> str | None:
        """A component addressed on the developer's own machine (``redisHost: localhost:6379``) that no
        service of the inputs serves: Dapr's self-hosted mode, where ``dapr init`` starts that store itself
        (a Redis container) for every app's sidecar. The store is part of the running system: the one of
        its technology (one Redis for the state store and the pub/sub both), introduced at the component's
        line. Only a technology known to the catalog counts; anything else stays unresolved."""
        from repomodeler.graph.catalog import LOCAL_HOSTS, tech_for_image
        from repomodeler.graph.values import parse_hosts

        values = (f.get("addresses") or "").split()
        hosts = [r.host for v in values for r in parse_hosts(v)] or [v.split(":")[0].lower() for v in values]
        if not hosts or any(h not in LOCAL_HOSTS for h in hosts):
            return None
        wanted = DAPR_TECH.get(tech.split(".")[-1])
        known = tech_for_image(wanted) if wanted else None
        if known is None:
            return None
        existing = self.alias.get(wanted)  # type: ignore[arg-type]
        if existing is not None:
            return existing if self.model.components[existing].kind in ("database", "cache", "broker") else None
        return self.add_component(wanted, known[1], f.repository, f.evidence,  # type: ignore[arg-type]
                                  attributes={"technology": known[0], "deployment": "dapr self-hosted"}).id

    def _dapr_apps(self) -> dict[str, str]:
        """App id -> the component its Dapr sidecar runs beside."""
        apps: dict[str, str] = {}
        for f in self.by_kind["dapr.app_id"]:
            # a sidecar's command in an override file names no service: the app id is the service's name
            owner = self.alias.get((f.get("owner") or f.get("app_id") or "").lower())
            if owner:
                apps.setdefault((f.get("app_id") or "").lower(), owner)
        return apps

    def dapr_name_resolution(self) -> None:
        """A Dapr configuration resolving app ids through a registry server (``nameResolution:
        component: consul``, self-registering) makes every app with a sidecar register there and look
        the others up there: each is connected to that registry (the system's, else one introduced at
        the configuration's line). mDNS and the Kubernetes resolver are the platform's own: nothing."""
        apps = sorted(set(self._dapr_apps().values()))
        for f in self.by_kind["dapr.name_resolution"]:
            name = (f.get("component") or "").lower()
            if name in ("", "mdns", "kubernetes", "sqlite", "nameresolution.mdns", "nameresolution.kubernetes") or not apps:
                continue
            target = self.alias.get(name)
            if target is None:
                target = self.add_component(name, "service", None, f.evidence,
                                            attributes={"role": "service registry"}).id
            for user in apps:
                if user != target:
                    self.connect(user, target, "http", [f.evidence], attributes={"via": f"dapr name resolution ({name})"})

    def _dapr_code_users(self, family: str, component: Fact, apps: list[str]) -> list[str]:
        """The apps an unscoped pub/sub or state store component serves (Dapr offers it to every app of the
        namespace): the components whose code calls it through Dapr (``[Topic(...)]``, ``PublishEventAsync``,
        ``GetStateAsync("statestore", ...)``; a call naming another component by a literal does not count),
        directly or through a library of the system they depend on (a shared event bus). Apps with a
        sidecar whose code makes no such call are listed as unresolved, not linked (so are all of them when
        the system's calls name only other components). Every app with a sidecar when no code of the
        system makes calls of the kind (nothing says)."""
        name = (component.get("name") or "").lower()
        # the family's other components: a call naming one of them is not a use of this one (a call naming
        # something else, a constant, may be this one)
        others = {(g.get("name") or "").lower() for g in self.by_kind["dapr.component"]
                  if (g.get("type") or "").lower().startswith(family + ".")} - {name}
        doing: set[str] = set()
        calls = self.by_kind[DAPR_CALLS[family]]
        for f in calls:
            owner = self.owner_of(f.repository, f.path)
            if owner and _dapr_named(f.get("pubsub") or f.get("store") or "") not in others:
                doing.add(owner)
        if not any(self.owner_of(f.repository, f.path) for f in calls):
            return apps  # no code here makes calls of the kind: nothing tells the apps apart
        through_library = {k[0] for k in self.model.connections if k[2] == "library" and k[1] in doing}
        users = {a for a in apps if a in doing or a in through_library}
        # code calling Dapr whose deployment declares no sidecar we could read still runs beside one
        users |= {c for c in doing if self.model.components[c].kind in ("service", "gateway", "webapp")}
        for app in apps:
            if app not in users:
                self.model.unresolved.append(Unresolved(
                    app, f"dapr {component.get('type')} component {component.get('name')} offered, "
                         f"not used by its code", component.evidence))
        return sorted(users)

    def _dapr_backing(self, f: Fact, tech: str) -> str | None:
        from repomodeler.graph.catalog import CLUSTER_DNS, LOCAL_HOSTS
        from repomodeler.graph.values import parse_hosts

        for value in (f.get("addresses") or "").split():
            for host, port in [(r.host, r.port) for r in parse_hosts(value)] or [(value.lower().split(":")[0], None)]:
                dns = CLUSTER_DNS.match(host)
                target = self.alias.get(host) or (self.alias.get(dns.group(1)) if dns else None)
                if target is None and host in LOCAL_HOSTS:
                    target = self.served_on(port, "")  # self-hosted: the broker on this machine's port
                if target:
                    return target
                if host not in LOCAL_HOSTS:
                    return None  # an address outside the system (a cloud service): not one of ours
        wanted = DAPR_TECH.get(tech, tech)
        same = sorted(c.id for c in self.model.components.values() if c.attributes.get("technology") == wanted)
        return same[0] if len(same) == 1 else None

    @staticmethod
    def _call_names_technology(f: Fact, store: Component) -> bool:
        """Does the client call `f` name the store's technology (``OpenRedisConnection`` for a Redis,
        ``RabbitHutch.CreateBus`` for a RabbitMQ)?"""
        tech = store.attributes.get("technology", "")
        call = (f.get("call") or "").lower()
        return bool(tech) and any(w and w in call for w in TECH_WORDS.get(tech, (tech,)))

    def _store_client_calls(self) -> None:
        """A host built in code and handed to a store or broker client (``RabbitHutch.CreateBus(connectionStr)``
        with ``connectionStr = $"host={host}:5672"`` and ``host = inContainer ? "rabbit" : "localhost"``): every
        value the expression may take that names a component of the client's technology is a connection; a
        loopback alternative is the developer's machine."""
        from repomodeler.graph.values import parse_hosts

        for f in sorted(self.by_kind["store.client_call"], key=Fact.order):
            owner = self.owner_of(f.repository, f.path)
            expr = f.get("expression") or ""
            if not owner or not expr:
                continue
            for value, chain in self.resolve_expression(owner, f, expr):  # type: ignore[attr-defined]
                hosts = [r.host for r in parse_hosts(value)] or (
                    [value.strip().lower()] if re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", value.strip()) else [])
                for host in hosts:
                    target = self.alias.get(host)
                    if not target or target == owner:
                        continue
                    tcomp = self.model.components[target]
                    if tcomp.kind not in ("database", "cache", "broker", "search") or not (
                            f.get("key") or self._call_names_technology(f, tcomp)):
                        continue
                    self.connect(owner, target, TECH_PROTOCOL.get(tcomp.attributes.get("technology", ""), "tcp"),
                                 list(dict.fromkeys([f.evidence, *chain])),
                                 attributes={"via": "host built in code for a store client"})

    def service_lookups(self) -> None:
        """Calls that name the service they reach by its id: ``loadBalancer.choose("orders")``, a host
        literal when a URL is built, and a literal handed to a call named for a store or broker
        technology (``OpenRedisConnection("redis")``), which counts only when the literal names a
        component of that technology."""
        for f in self.by_kind["service.lookup"]:
            owner = self.owner_of(f.repository, f.path)
            target = self.alias.get((f.get("service") or "").lower())
            if not owner or not target or target == owner:
                continue
            if f.get("store_call"):
                tcomp = self.model.components[target]
                if tcomp.kind not in ("database", "cache", "broker") or not self._call_names_technology(f, tcomp):
                    continue
                self.connect(owner, target, TECH_PROTOCOL.get(tcomp.attributes.get("technology", ""), "tcp"),
                             [f.evidence], attributes={"via": "literal host of a store client"})
                continue
            if f.get("host_key") and self.model.components[target].kind not in ("database", "cache", "broker", "service",
                                                                                 "gateway"):
                continue
            tcomp = self.model.components[target]
            protocol = f.get("protocol") or "http"
            if f.get("host_key"):  # {"host": "redis"}: the store's own protocol, else plain TCP
                protocol = TECH_PROTOCOL.get(tcomp.attributes.get("technology", ""), "tcp")
            if tcomp.kind in ("database", "cache", "broker"):  # config_json["user-mongodb"]["addr"]
                protocol = TECH_PROTOCOL.get(tcomp.attributes.get("technology", ""), protocol)
            self.connect(owner, target, protocol, [f.evidence], attributes={"via": f.get("via") or "lookup by service id"})
        self._store_client_calls()
        # Dapr service invocation by URL: http://localhost:3500/v1.0/invoke/orders/method/new
        for f in self.by_kind["string.url"]:
            m = re.search(r"/v1\.0/invoke/([A-Za-z0-9_.-]+)/method/", f.get("value") or "")
            owner = self.owner_of(f.repository, f.path) if m else None
            target = self.alias.get(m.group(1).lower()) if m else None
            if owner and target and target != owner:
                self.connect(owner, target, "http", [f.evidence], attributes={"via": "dapr service invocation"})
        # A proxy route rewritten onto the sidecar's invoke API reaches the app of that id.
        for f in self.by_kind["dapr.invoke_route"]:
            owner = self.owner_of(f.repository, f.path)
            target = self.alias.get((f.get("app_id") or "").lower())
            if owner and target and target != owner:
                self.connect(owner, target, "http", [f.evidence],
                             attributes={"via": f"{f.get('via') or 'proxy route'} to dapr service invocation"})
        # Service ids kept in an enum (``PERSISTENCE("shop.persistence")``) and handed to a call
        # (``balancer.getEntity(Service.PERSISTENCE, "products")``): a lookup by that id.
        ids: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["const.enum"]:
            ids[(f.get("enum") or "", f.get("name") or "")].append(f)
        for f in self.by_kind["code.constant_arg"]:
            owner = self.owner_of(f.repository, f.path)
            if owner and self.model.components[owner].kind == "library":
                continue  # a client library's helpers: the services using it make the calls
            for const in ids.get((f.get("enum") or "", f.get("name") or ""), []):
                target = self.alias.get((const.get("value") or "").lower())
                if owner and target and target != owner and self.model.components[target].kind in ("service", "gateway"):
                    self.connect(owner, target, "http", [f.evidence, const.evidence],
                                 attributes={"via": "lookup by service id constant"})

    def configured_sections(self) -> None:
        """A component's own configuration with a section named after a store or broker technology that
        holds its address (``redis.host: ${{REDIS_HOST}}``, ``mongodb.uri``, ``nats.url``) says the
        component uses that technology, even when the address is a placeholder no file of the
        repositories sets (filled by the platform at deploy time). It is linked to the system's one
        component of that technology, else to one introduced for it (deployed outside these
        repositories). Settings of development or test profiles, and local addresses, are left out."""
        for f in sorted(self.by_kind["config.property"], key=Fact.order):
            m = CONFIG_SECTION.match(f.get("name") or "")
            value = (f.get("value") or "").strip()
            profile = f.get("profile") or ""
            if not m or not value or (profile and (f.get("profile_document") or not RUNNING_PROFILE.search(profile))) \
                    or any(h in value for h in LOCAL_HOSTS if h not in ("+", "*", "::")):
                continue
            tech = SECTION_TECH[m.group("tech").lower()]
            kind = TECH_KIND.get(tech, "service")
            own = self.owner_of(f.repository, f.path)
            for owner in self.property_owners(f):
                comp = self.model.components.get(owner) if owner else None
                if comp is None or comp.kind not in ("service", "gateway"):
                    continue
                if owner != own and not self.uses_technology(owner, tech):
                    continue  # a shared configuration names it; this component has no client for it
                known = sorted(k for k in self.model.connections if k[0] == owner and (
                    self.model.components[k[1]].attributes.get("technology") == tech
                    or key(self.model.components[k[1]].name) == key(tech)))
                if known:
                    # the store it uses is already known: this section is more evidence of that link (each
                    # program's own settings file, for the processes the component is split into)
                    self.model.connections[known[0]].evidence.add(f.evidence)
                    continue
                existing = sorted(c.id for c in self.model.components.values()
                                  if c.kind == kind and c.attributes.get("technology") == tech)
                if len(existing) > 1:
                    continue
                if not existing:  # the deployed one may go by its image, not by technology (consul:1.15)
                    existing = sorted(c.id for c in self.model.components.values()
                                      if c.attributes.get("technology") == tech or key(c.name) == key(tech))[:2]
                if len(existing) > 1:
                    continue
                attrs = {"technology": tech, "implied_by": "configuration section"}
                if tech in COORDINATION:
                    attrs["role"] = COORDINATION[tech]
                target = existing[0] if existing else self.add_component(tech, kind, f.repository, f.evidence, attributes=attrs).id
                protocol = TECH_PROTOCOL.get(tech) or COORDINATION_PROTOCOL.get(tech, "tcp")
                self.connect(owner, target, protocol, [f.evidence], attributes={"via": f"configuration section {m.group('tech')}"})

    def _loopback_stores(self) -> dict[str, dict[str, Evidence]]:
        """Service -> technology -> the setting or code default naming a store of it on the loopback
        (``DATABASE_URL=mysql://user:password@127.0.0.1:3306/app`` in the committed env defaults, a server's
        ``mongodb://localhost:27017/parse`` default, a key naming the store's host: ``spring.redis.host:
        ${REDIS_HOST:127.0.0.1}``), in a system that deploys nothing: its install guide runs
        that store beside it."""
        from repomodeler.graph.catalog import KEY_SCHEME, LOCAL_HOSTS, SCHEME_TECH
        from repomodeler.graph.values import parse_hosts
        from repomodeler.inventory import TEST_DIRS

        found: dict[str, dict[str, Evidence]] = defaultdict(dict)
        if not self.deploys_nothing:
            return found

        def test_settings(path: str) -> bool:
            """A test run's settings (.env.testing, tests/config.yml): not the application's."""
            return bool(set(path.lower().split("/")[:-1]) & TEST_DIRS or re.search(
                r"(^|[._-])(test|tests|testing|ci|dusk|e2e)([._-]|$)", PurePosixPath(path).name, re.I))

        # (settings, and a server's defaults in its code: `default: "mongodb://localhost:27017/parse"`)
        for f in sorted([*self.by_kind["config.env"], *self.by_kind["config.property"], *self.by_kind["string.url"]],
                        key=Fact.order):
            owner = self.owner_of(f.repository, f.path)
            if owner is None or test_settings(f.path):
                continue
            for ref in parse_hosts(f.get("value") or ""):
                tech = SCHEME_TECH.get(ref.scheme or "") if ref.scheme else None
                if ref.host in LOCAL_HOSTS and tech in TECH_KIND:
                    found[owner].setdefault(tech, f.evidence)
            # a key naming the store's host on the loopback (Spring's `spring.redis.host: ${REDIS_HOST:127.0.0.1}`)
            if f.kind != "string.url":
                value = (f.get("value") or "").strip()
                default = re.fullmatch(r"\$\{[^:}]+:([^}]*)\}", value)  # (a placeholder's default: ${REDIS_HOST:127.0.0.1})
                value = (default.group(1) if default else value).strip()
                scheme = next((sch for pat, sch in KEY_SCHEME if pat.search(f.get("name") or "")), None)
                tech = SCHEME_TECH.get(scheme or "")
                if scheme and value.lower() in LOCAL_HOSTS and tech in TECH_KIND:
                    found[owner].setdefault(tech, f.evidence)
        # a section's host on the loopback beside its port, a store's standard one (`cronos.yugabyte.hostname: 127.0.0.1`
        # and `cronos.yugabyte.port: 9042`): that store on this machine
        from repomodeler.graph.connections import STORE_PORTS

        # ... and a setting or constant named for a store whose value is the loopback at that store's standard port
        # (`ELASTICSEARCH_URL = 'localhost:9200'`, `REDIS_ADDR=127.0.0.1:6379`)
        for f in sorted([*self.by_kind["config.env"], *self.by_kind["config.property"], *self.by_kind["const.string"]],
                        key=Fact.order):
            owner = self.owner_of(f.repository, f.path)
            words = set(name_words(f.get("name") or ""))
            if owner is None or test_settings(f.path) or not words:
                continue
            for ref in parse_hosts(f.get("value") or ""):
                tech = STORE_PORTS.get(ref.port or 0)
                if ref.host in LOCAL_HOSTS and tech in TECH_KIND and words & STORE_NAME_WORDS.get(tech, {tech}):
                    found[owner].setdefault(tech, f.evidence)

        sections: dict[tuple[str, str, str], dict[str, Fact]] = defaultdict(dict)
        for f in self.by_kind["config.property"]:
            prefix, _, last = (f.get("name") or "").rpartition(".")
            if prefix:
                sections[(f.repository, f.path, prefix)][last.lower()] = f
        for (repo, path, _prefix), named in sorted(sections.items()):
            owner = self.owner_of(repo, path)
            host = next((named[k] for k in ("host", "hostname", "address") if k in named), None)
            port = (named["port"].get("value") or "").strip() if "port" in named else ""
            if owner is None or test_settings(path) or host is None or not port.isdigit() \
                    or (host.get("value") or "").strip().lower() not in LOCAL_HOSTS:
                continue
            tech = STORE_PORTS.get(int(port))
            if tech in TECH_KIND:
                found[owner].setdefault(tech, host.evidence)
        # a host setting on the loopback beside a setting of the same prefix naming the store's technology
        # (`DB_CONNECTION=mysql` and `DB_HOST=localhost` in a Laravel `.env.example`)
        settings: dict[tuple[str, str], dict[str, Fact]] = defaultdict(dict)
        for f in self.by_kind["config.env"]:
            settings[(f.repository, f.path)][(f.get("name") or "").upper()] = f
        for (repo, path), named in sorted(settings.items()):
            owner = self.owner_of(repo, path)
            if owner is None or test_settings(path):
                continue
            for key, f in sorted(named.items()):
                m = re.match(r"^(?P<prefix>[A-Z0-9_]*?)_?HOST(NAME)?$", key)
                if not m or (f.get("value") or "").strip().lower() not in LOCAL_HOSTS:
                    continue
                for suffix in ("CONNECTION", "TYPE", "DRIVER", "ENGINE", "DIALECT", "CLIENT"):
                    sibling = named.get(f"{m.group('prefix')}_{suffix}" if m.group("prefix") else suffix)
                    value = (sibling.get("value") or "").strip().lower() if sibling else ""
                    tech = SCHEME_TECH.get(value) or STORE_TYPE_ALIASES.get(value)
                    if tech in TECH_KIND:
                        found[owner].setdefault(tech, sibling.evidence)
                        break
        return found

    @staticmethod
    def _maybe_of(comp: Component, tech: str) -> bool:
        """Could store `comp` be the `tech` a driver implies: of that technology, or of none known (a `db` of an
        image of the project's own); a server of another engine filed as a database (ClickHouse, InfluxDB) is not."""
        technology = comp.attributes.get("technology")
        return technology == tech or technology == "database" and not tech_for_image(comp.attributes.get("image"))

    def implied_stores(self) -> None:
        loopbacks = self._loopback_stores()
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind not in ("service", "gateway"):
                continue
            signs = self.signs().get(cid, [])
            deps = {name for kind, name, _ev in signs if kind == "manifest.dependency"}
            embedded = any(re.search(EMBEDDED_DATABASES, d) for d in deps)
            loopback = loopbacks.get(cid, {})
            for tech, pattern, needs_driver in [*IMPLIED_STORES, *((t, None, False) for t in sorted(loopback))]:
                ev = self._first_sign(cid, {"manifest.dependency": pattern}) if pattern else loopback[tech]
                if ev is None or (needs_driver and embedded):
                    continue
                if pattern in HEX_STORE_PATTERNS and not ev.path.rsplit("/", 1)[-1].startswith("mix."):
                    continue  # (an Elixir driver's name in another ecosystem's manifest: another package)
                # (a driver whose settings also name its store on this machine, `jdbc:postgresql://127.0.0.1:5433`:
                # the one server of the machine every service's settings name, not a store of each)
                on_machine = not pattern or tech in loopback
                how = "its settings name it on this machine" if on_machine else "data-access dependency"
                if pattern and on_machine:
                    ev = loopback[tech]
                kind = TECH_KIND.get(tech, "database")
                if any(k[0] == cid and (k[2] == TECH_PROTOCOL.get(tech) and k[2] != "tcp" or (
                        self.model.components[k[1]].kind == kind and self._maybe_of(self.model.components[k[1]], tech)))
                       for k in self.model.connections):
                    continue  # the store it uses is already known
                existing = sorted(c.id for c in self.model.components.values()
                                  if c.kind == kind and c.attributes.get("technology") == tech
                                  and not c.attributes.get("implied_by"))
                shared = self.alias.get(tech) if on_machine else None
                if shared is not None and not (self.model.components[shared].attributes.get("implied_by") == how
                                               and self.model.components[shared].attributes.get("technology") == tech):
                    shared = None
                if len(existing) == 1:
                    target = existing[0]
                elif existing:
                    continue
                elif shared is not None:
                    target = shared  # the machine's store another service's settings found first
                else:
                    # a database or cache is the service's own; a broker is shared by whoever publishes and
                    # subscribes to it, so it goes by its technology (mqtt-broker): every client gets the one
                    name = f"{tech}-broker" if kind == "broker" else \
                        f"{comp.name}-{'cache' if kind == 'cache' else 'database'}"
                    if on_machine and tech not in self.alias:
                        # a store its settings or defaults find on this machine is named by its technology, as one
                        # found at a machine's address is (mongodb on localhost, mysql at 192.168.1.20)
                        name = tech
                    target = self.add_component(name, kind, comp.repository, ev,
                                                attributes={"technology": tech, "implied_by": how}).id
                self.connect(cid, target, TECH_PROTOCOL.get(tech, "tcp"), [ev], attributes={"via": how})
