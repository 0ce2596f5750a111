"""Hosts only plug-ins call: optional integrations, listed rather than drawn.

Why: a product with a plug-in folder (``plugins/slack``, ``dolphinscheduler-alert-plugins/...webex``)
can talk to many vendors, each only when an operator enables that plug-in. Drawn as externals they
outnumber the system's own parts and are not how it runs by default; the architecture documents of
such systems leave them out. They stay in the model's ``unresolved`` list with the plug-in's line,
so nothing found is lost.

The same holds for three other kinds of optional module: sign-in providers (``auth/provider/oauth/github.py``,
``google_oauth.py``: a login method an administrator turns on with a client id), alternative providers
(``upload/providers/azure-blob-provider.ts`` beside the S3 one: configuration picks one) and enterprise-edition
code (``src/ee/billing``: switched on by a licence key).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.values import parse_hosts
from repomodeler.graph.vendors import vendor_name
from repomodeler.paths import RECIPE_FILE
from repomodeler.records import Evidence, Unresolved

# How many vendors, each reached only from a module named after it, make a catalog of integrations.
CATALOG_SIZE = 4
# How many sibling modules (files or packages) beside a vendor-named module make its folder a catalog by
# itself (``destinations/chatwork.py`` among a dozen destinations, ``tools/api_bugcrowd/`` among parsers).
CATALOG_FOLDER_SIZE = 8
# Deployment descriptors by their name: a line there is the deployment's, whatever plug-in also reaches the element.
DEPLOYMENT_FILE = re.compile(rf"(^|/)([^/]*compose[^/]*\.ya?ml|[^/]*\.ya?ml\.tmpl|{RECIPE_FILE})$", re.I)
# Technologies adapters are named for beyond the stores and brokers (sources, sinks, engines, clouds).
ADAPTER_TECH_WORDS = frozenset({"docker", "podman", "containerd", "kubernetes", "k8s", "s3", "gcs", "azure", "aws", "gcp",
                                "syslog", "journald", "journalctl", "cloudwatch", "kinesis", "file", "http", "https",
                                "webhook", "smtp", "email", "slack", "statsd", "opentsdb", "graphite", "zabbix", "mqtt",
                                "amqp", "zeromq", "zmq", "influxdb", "timescaledb", "victoriametrics", "prometheus",
                                "couchdb", "riemann", "restful", "csv", "json"})
# Words of element names that name no technology (a kind, a domain's parts).
GENERIC_WORDS = frozenset({"com", "net", "org", "io", "api", "www", "engine", "database", "db", "cache", "broker",
                           "storage", "store", "queue", "server", "service", "client", "sql", "host"})
# Folders that hold one plug-in (an optional integration) per child.
# (connectors to other products, and importers or migrations from them, a user sets up and starts: optional too)
PLUGIN_FOLDER = re.compile(r"^(plugins?|add-?ons?|extensions|integrations?|connectors?|importers?|migration)$"
                           r"|[-_](plugins?|add-?ons?|integrations?|connectors?|importers?)$", re.I)
# A program's notification channels, one module per channel an operator enables (Core/Notifications/Email beside
# Slack, Discord): plug-ins too, where the folder sits inside the program's code and its child is a channel, not a
# notification service's own layout (notifications/src/ of a microservice called notifications)
CHANNEL_FOLDER = re.compile(r"^(notifications?|notifiers?)$", re.I)
SERVICE_LAYOUT = frozenset({"src", "lib", "app", "cmd", "internal", "pkg", "main", "test", "tests", "api", "server",
                            "service", "services", "config", "resources"})
# Folders whose children are alternatives configuration picks from (storage, sandbox, push providers), and the
# enterprise edition's folder (``ee/``, enabled by a licence).
PROVIDER_FOLDER = re.compile(r"^providers?$", re.I)
ENTERPRISE_FOLDER = re.compile(r"^ee$")
# A sign-in provider's module: a folder or file named for OAuth, OpenID Connect, SAML or SSO
# (``provider/oauth/github.py``, ``google_oauth.py``, ``OAuthTokenProvider.java``, ``oauth_callback.go``).
SIGN_IN_MODULE = re.compile(r"(?:^|[^A-Za-z]|(?<=[a-z]))(?:[Oo][Aa]uth2?|OAUTH2?|oidc|OIDC|saml|SAML|sso|SSO)(?=$|[^a-z])")


def _setting_section(via: str) -> str:
    """The section of the setting a link was read from (``env alerter.telegram-webhook-url``: ``alerter``)."""
    name = via[4:].strip() if via.startswith("env ") else ""
    return name.rsplit(".", 1)[0] if "." in name else ""


def in_plugin(path: str) -> str | None:
    """The plug-in folder a repository path lies in (``plugins/slack``), else None."""
    parts = PurePosixPath(path).parts[:-1]
    for i, part in enumerate(parts):
        if PLUGIN_FOLDER.search(part) and i + 1 < len(parts):
            return "/".join(parts[: i + 2])
        if CHANNEL_FOLDER.match(part) and i >= 1 and i + 1 < len(parts) and parts[i + 1].lower() not in SERVICE_LAYOUT:
            return "/".join(parts[: i + 2])
    return None


def optional_module(path: str) -> tuple[str, str] | None:
    """(what kind, which) of optional module a repository path lies in: a plug-in folder, an alternative of a
    providers folder (the child, file or folder), the enterprise edition's folder, or a sign-in provider's
    module (the folder or file named for OAuth/OIDC/SAML/SSO). None for the product's own code."""
    found = in_plugin(path)
    if found:
        return "plug-in", found
    p = PurePosixPath(path)
    parts = p.parts
    for i, part in enumerate(parts[:-1]):
        if PROVIDER_FOLDER.match(part) and i + 1 < len(parts):
            return "provider", "/".join(parts[: i + 2])
        if ENTERPRISE_FOLDER.match(part):
            return "enterprise edition", "/".join(parts[: i + 1])
    for i, part in enumerate([*parts[:-1], p.stem]):
        if SIGN_IN_MODULE.search(part):
            return "sign-in provider", "/".join(parts[: i + 1])
    return None


class PluginRules(ResolverBase):
    """External systems that only plug-ins reach."""

    _url_literals: dict[str, list[str]] | None = None  # host -> paths of the URL literals naming it

    def optional_plugins(self) -> None:
        catalog = {**self._technology_modules(), **self._vendor_modules()}
        sections = self._catalog_sections()
        listed_urls: dict[tuple[str, str, int], str] = {}  # lines of code writing a URL a catalog section sets
        if sections:
            values = {(f.get("value") or "").strip(): sections[(f.repository, f.path, f.line)]
                      for f in self.by_kind["config.property"] if (f.repository, f.path, f.line) in sections}
            listed_urls = {(f.repository, f.path, f.line): values[(f.get("value") or "").strip()]
                           for f in self.by_kind["string.url"] if (f.get("value") or "").strip() in values}
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "external" and cid not in catalog:
                continue
            into = [k for k in self.model.connections if k[1] == cid]
            if not into or any(k[0] not in self.model.components for k in into):
                continue
            evidence = [e for k in into for e in self.model.connections[k].evidence]
            plugins = {optional_module(e.path) for e in evidence}
            if None in plugins and plugins - {None} and self._host_written_only_in_plugins(comp.name, comp.evidence) \
                    and not any(optional_module(e.path) is None and DEPLOYMENT_FILE.search(e.path) for e in evidence):
                plugins.discard(None)  # shared code (an OAuth helper's fetch) calling what a plug-in hands it
                #                        (not a deployment's own line: a socket its container mounts)
            reason = ""  # (a catalog's: the vendor's module, or the settings section listing it)
            if cid in catalog:
                reason = f"module {catalog[cid]}"
            else:
                # each link to it rests on a setting of a section listing four or more vendors' endpoints
                # (or on the code's default for such a setting: the `via` names it, `env alerter.telegram-webhook-url`,
                # or the line writes the URL the section sets, a properties class's field default)
                named = {s.split(" (", 1)[0]: s for s in sections.values()}
                listed = [next((sections[(e.repository, e.path, e.line)] for e in sorted(self.model.connections[k].evidence)
                                if (e.repository, e.path, e.line) in sections),
                               named.get(_setting_section(self.model.connections[k].attributes.get("via", "")))
                               or next((listed_urls[(e.repository, e.path, e.line)]
                                        for e in sorted(self.model.connections[k].evidence)
                                        if (e.repository, e.path, e.line) in listed_urls), None)) for k in into]
                if None not in listed:
                    reason = f"settings section {listed[0]}"
            if reason:
                plugins = {("catalog", reason)}
            if not evidence or None in plugins or any(self.model.connections[k].source == cid for k in self.model.connections):
                continue  # reached from the product's own code too (or it calls back): part of the system
            for k in sorted(into):
                conn = self.model.connections.pop(k)
                self.created_by.pop(k, None)
                first = min(conn.evidence)
                what = reason or " ".join(optional_module(first.path) or ())
                self.model.unresolved.append(Unresolved(k[0], f"{comp.name}: optional integration of {what}", first))
            self.drop_component(cid)

    def _catalog_sections(self) -> dict[tuple[str, str, int], str]:
        """(repository, path, line) -> the settings section it lies in, for the lines of each section of a
        configuration file whose settings name CATALOG_SIZE or more vendors' hosts (``alerter:`` holding
        `telegram-webhook-url: https://api.telegram.org/...`, `discord-webhook-url`, `ding-talk-webhook-url`...):
        the endpoints of the notification channels (or sign-in providers, map tiles) an operator picks from,
        kept in one place, not services the system calls by default.  The vendors are told apart by their
        names, so several hosts of one company (auth.acme.com, api.acme.com) are one."""
        from repomodeler.graph.catalog import LOCAL_HOSTS

        by_section: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
        for f in self.by_kind["config.property"]:
            name = f.get("name") or ""
            if "." not in name:
                continue
            hosts = [r.host for r in parse_hosts(f.get("value") or "") if r.host and r.host not in LOCAL_HOSTS]
            vendor = vendor_name(hosts[0]) if hosts else ""
            if vendor:
                by_section.setdefault((f.repository, f.path, name.rsplit(".", 1)[0]), []).append((f.line, vendor))
        out: dict[tuple[str, str, int], str] = {}
        for (repo, path, section), lines in sorted(by_section.items()):
            if len({v for _l, v in lines}) >= CATALOG_SIZE:
                for line, _v in lines:
                    out[(repo, path, line)] = f"{section} ({path})"
        return out

    def _host_written_only_in_plugins(self, host: str, found_at: set[Evidence] | None = None) -> bool:
        """Whether every URL literal naming `host` in the code lies in a plug-in folder (at least one; where the
        code writes it in no URL literal, `url.URL{Host: "login.microsoftonline.com"}`, the lines the external
        was found at): then the product's shared code reaches it only with what a plug-in passes in.  A URL in
        a sentence (a flag's help text, `"issuer URL (ie: https://accounts.google.com)"`) is an example, no
        address the code uses."""
        if self._url_literals is None:
            self._url_literals = {}
            for f in self.by_kind["string.url"]:
                if re.search(r"\s", (f.get("value") or "").strip()):
                    continue
                for ref in parse_hosts(f.get("value") or ""):
                    self._url_literals.setdefault(ref.host.lower(), []).append(f.path)
        paths = self._url_literals.get(host.lower(), []) or sorted(e.path for e in found_at or ())
        return bool(paths) and all(optional_module(p) for p in paths)

    def _vendor_modules(self) -> dict[str, str]:
        """External id -> the module named after its vendor, when the code reaches each of at least
        CATALOG_SIZE vendors only from modules named after that vendor (``lib/tumblr_api_client.rb``
        for api.tumblr.com, ``agents/pushover_agent.rb`` for api.pushover.net): a catalog of
        integrations a user picks from, not the system's own dependencies. Fewer such vendors (a
        shop's ``stripe_client.py``) stay external systems, unless the vendor's module (the file, or the
        package folder ``api_bugcrowd/``) is one of CATALOG_FOLDER_SIZE or more siblings: a folder of
        destinations or parsers is a catalog whatever number of them name a host."""
        found: dict[str, str] = {}
        in_big_folder: set[str] = set()
        own = {re.sub(r"[^a-z0-9]", "", n.lower()) for r in sorted(self.projects) for n in self.project_names(r)}
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            vendor = vendor_name(comp.name) if comp.kind == "external" else ""
            if len(vendor) < 4 or vendor in own:
                continue  # (the project's own service, api.lidarr.audio of LidarrCloudRequestBuilder.cs: no integration)
            paths = {(e.repository, e.path) for k, conn in self.model.connections.items() if k[1] == cid
                     for e in conn.evidence}
            modules = {self._vendor_module(r, p, vendor) for r, p in paths}
            if paths and None not in modules:
                found[cid] = min(p for _r, p in paths)
                if all(self._siblings(m) >= CATALOG_FOLDER_SIZE for m in modules if m is not None):
                    in_big_folder.add(cid)
        return found if len(found) >= CATALOG_SIZE else {c: m for c, m in found.items() if c in in_big_folder}

    def _technology_modules(self) -> dict[str, str]:
        """Component id -> the module named after it, for an external system, a broker or object storage no
        deployment runs (the container engine, a Kafka broker, S3) reached only from modules named after its technology
        (``acquisition/modules/docker/``, ``.../kafka/``, ``.../s3/``) each one of CATALOG_FOLDER_SIZE or more
        sibling modules: a folder of data sources or sinks an operator configures, one per technology, not
        what the system itself runs on."""
        found: dict[str, str] = {}
        # (words of the system's own programs' names, and of kinds, name no technology: crowdsec-database)
        own = {w for c in self.model.components.values() if c.kind in ("service", "gateway", "webapp", "library")
               for w in re.split(r"[^a-z0-9]+", c.name.lower())}
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            # (a database or cache a driver implies is the program's own store, whatever folder its adapter sits in)
            if comp.kind not in ("external", "broker", "storage") \
                    or comp.attributes.get("deployment") or comp.attributes.get("image"):
                continue
            words = {w for w in re.split(r"[^a-z0-9]+", f"{comp.name} {comp.attributes.get('technology', '')}".lower())
                     if len(w) >= 2 and w not in GENERIC_WORDS and w not in own}
            paths = {(e.repository, e.path) for k, conn in self.model.connections.items() if k[1] == cid
                     for e in conn.evidence}
            modules = {self._named_module(r, p, words) or self._family_module(r, p, words) for r, p in paths}
            if paths and None not in modules and all(self._siblings(m) >= CATALOG_FOLDER_SIZE
                                                     and self._technology_siblings(m) >= 3 for m in modules
                                                     if m is not None):
                found[cid] = min(p for _r, p in paths)
        return found

    def _technology_siblings(self, module: tuple[str, str]) -> int:
        """How many technologies the modules beside `module` (itself included) are named for (kafka/, s3/, syslog/,
        glances_influxdb/): a family of adapters, not a folder of the product's own services (Services/Telemetry)."""
        from repomodeler.graph.local_services import OTHER_TECH_WORDS, SQL_WORDS

        repo, path = module
        names = self._module_names(repo, PurePosixPath(path).parent.as_posix())
        techs = OTHER_TECH_WORDS | SQL_WORDS | ADAPTER_TECH_WORDS
        # (distinct technologies: smtp_auth.go and smtp_notifier.go beside file_notifier.go are two, a choice of two)
        return len({w for n in names for w in re.split(r"[_-]", n) if w in techs})

    @staticmethod
    def _named_module(repo: str, path: str, words: set[str]) -> tuple[str, str] | None:
        """(repository, the module named by one of `words`): the file (``kafka.go``) or its folder (``kafka/``)."""
        p = PurePosixPath(path)
        for node in (p.parent, p):  # (the package folder first: modules/docker/docker.go is the module docker/)
            name = (node.stem if node is p else node.name).lower()
            if name in words:
                return repo, node.as_posix()
        return None

    def _family_module(self, repo: str, path: str, words: set[str]) -> tuple[str, str] | None:
        """(repository, module) named by one of `words` as one part of a name its siblings share but for that part
        (exports/glances_rabbitmq/ beside glances_kafka/, glances_mqtt/): an adapter family's member; not a file
        that merely starts with a technology's name (utilities/docker-pull.ts)."""
        p = PurePosixPath(path)
        for node in (p.parent, p):
            name = (node.stem if node is p else node.name).lower()
            parts = re.split(r"[_-]", name)
            hit = [i for i, w in enumerate(parts) if w in words]
            if len(parts) < 2 or not hit:
                continue
            rest = parts[:hit[0]] + parts[hit[0] + 1:]
            family = [n for n in self._module_names(repo, node.parent.as_posix()) if (ps := re.split(r"[_-]", n)) and len(ps) == len(parts)
                      and ps[:hit[0]] + ps[hit[0] + 1:] == rest]
            if len(family) >= 3:
                return repo, node.as_posix()
        return None

    @staticmethod
    def _vendor_module(repo: str, path: str, vendor: str) -> tuple[str, str] | None:
        """(repository, the module named after `vendor`): the file (``chatwork.py``) or its package folder
        (``api_bugcrowd/api_client.py``); None when neither names the vendor."""
        p = PurePosixPath(path)
        for node in (p, p.parent):
            st = re.sub(r"[^a-z0-9]", "", node.stem.lower() if node is p else node.name.lower())
            if st and (vendor in st or (st in vendor and len(st) >= 4)):
                return repo, node.as_posix()
        return None

    def _siblings(self, module: tuple[str, str]) -> int:
        """How many modules (files or packages) of code sit in the folder of `module`, itself included."""
        repo, path = module
        parent = PurePosixPath(path).parent.as_posix()
        prefix = "" if parent == "." else parent + "/"
        return len({x[len(prefix):].split("/")[0] for r, x in self.code_paths if r == repo and x.startswith(prefix)})
