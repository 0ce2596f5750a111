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

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from repomodeler.graph.catalog import (
    ENTRY_FILES, HOST_ENV_NAME, HTTP_VERBS, LOCAL_HOSTS, MESSAGING_TECH_PROTOCOL, PORT_PROTOCOL, SCHEME_PROTOCOL, TECH_WORDS,
    SCHEME_TECH, TECH_KIND, TECH_PROTOCOL, image_basename, tech_for_image, tech_for_module,
)
from repomodeler.graph.naming import (
    dependency_key, has_dashboard, image_language, is_under, join_path, language_family, norm_path, slug, unit_name,
)
from repomodeler.graph.values import (
    METHOD_WORDS, HostRef, client_path, env_form, grpc_service_name, http_verb, parse_hosts, route_of, router_prefix,
)
from repomodeler.records import Component, Connection, Endpoint, Evidence, ExtractResult, Fact, Port, Unresolved

@dataclass
class SystemModel:
    """The resolved system before it becomes a graph."""

    name: str
    components: dict[str, Component] = field(default_factory=dict)
    connections: dict[tuple[str, str, str], Connection] = field(default_factory=dict)
    unresolved: list[Unresolved] = field(default_factory=list)


class Resolver:
    def __init__(self, name: str, results: list[ExtractResult]) -> None:
        self.model = SystemModel(name=name)
        self.results = sorted(results, key=lambda r: r.repository.name)
        self.alias: dict[str, str] = {}
        self.facts: list[Fact] = sorted(f for r in self.results for f in r.facts)
        self.by_kind: dict[str, list[Fact]] = defaultdict(list)
        for f in self.facts:
            self.by_kind[f.kind].append(f)
        self.owner_cache: dict[tuple[str, str], str | None] = {}
        # (owner, variable or property name) -> [(value, evidence)] from compose/k8s/.env/Spring config.
        self.env_values: dict[tuple[str, str], list[tuple[str, Evidence]]] = defaultdict(list)
        self.consts: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)  # (repo, path, name)
        for f in self.facts:
            if f.kind == "const.string" and f.get("name"):
                self.consts[(f.repository, f.path, f.get("name") or "")].append(f)

    # ------------------------------------------------------------------ components
    def add_component(self, name: str, kind: str, repository: str | None, evidence: Evidence,
                      aliases: tuple[str, ...] = (), attributes: dict[str, str] | None = None) -> Component:
        cid = self.alias.get(name.lower()) or slug(name)
        comp = self.model.components.get(cid)
        if comp is None:
            comp = Component(id=cid, name=name, kind=kind, repository=repository)
            self.model.components[cid] = comp
        elif comp.kind == "service" and kind not in ("service", "external"):
            comp.kind = kind
        comp.evidence.add(evidence)
        for k, v in (attributes or {}).items():
            if v and k not in comp.attributes:
                comp.attributes[k] = v
        for a in (name, *aliases):
            if a:
                comp.aliases.add(a.lower())
                self.alias.setdefault(a.lower(), cid)
        return comp

    def deployment_components(self) -> None:
        for f in self.by_kind["compose.service"]:
            name = f.get("name") or ""
            image = f.get("image")
            tech = tech_for_image(image)
            context = f.get("build_context")
            kind = tech[1] if tech and not context else "service"
            attrs = {"image": image or "", "technology": tech[0] if tech else "", "deployment": "compose",
                     "ports": f.get("ports") or f.get("expose") or ""}
            aliases = tuple(a for a in (f.get("container_name"), f.get("hostname"),
                                        image_basename(image) if image and not tech and not context else None) if a)
            root = None
            if context is not None and not re.match(r"^[a-z]+://", context):
                root = norm_path(PurePosixPath(f.get("compose_dir") or ".").joinpath(context).as_posix())
                dockerfile = norm_path(join_path(root, f.get("dockerfile") or "Dockerfile"))
                bases = [d.get("image") or "" for d in self.by_kind["docker.from"]
                         if d.repository == f.repository and d.path == dockerfile]
                base_tech = next((t for t in (tech_for_image(b) for b in bases) if t), None)
                if base_tech:  # e.g. a custom image built FROM mongo:3 is still a MongoDB
                    kind = base_tech[1]
                    attrs["technology"] = base_tech[0]
                if bases and image_language(bases[0]):
                    attrs["base_language"] = image_language(bases[0]) or ""
            comp = self.add_component(name, kind, f.repository, f.evidence, aliases, attrs)
            if root is not None:
                comp.source_roots.add((f.repository, root))
        apps: dict[str, str] = {}
        for f in self.by_kind["k8s.workload"]:
            image = f.get("image")
            tech = tech_for_image(image)
            kind = tech[1] if tech else "service"
            attrs = {"image": image or "", "technology": tech[0] if tech else "", "deployment": "kubernetes",
                     "ports": f.get("ports") or ""}
            aliases = tuple(a for a in (f.get("app"), image_basename(image) if image and not tech else None) if a)
            comp = self.add_component(f.get("name") or "", kind, f.repository, f.evidence, aliases, attrs)
            if f.get("app"):
                apps[f.get("app") or ""] = comp.id
        for f in self.by_kind["k8s.service"]:
            target = apps.get(f.get("app") or "") or self.alias.get((f.get("name") or "").lower())
            if target:
                comp = self.model.components[target]
                comp.evidence.add(f.evidence)
                comp.aliases.add((f.get("name") or "").lower())
                self.alias.setdefault((f.get("name") or "").lower(), target)

    def build_units(self) -> None:
        for result in self.results:
            repo = result.repository.name
            source_files = [f for f in result.inventory.files if f.role == "source"]
            manifests = [f for f in self.by_kind["manifest"] if f.repository == repo]
            dockerfiles = {str(PurePosixPath(f.path).parent) for f in self.by_kind["docker.from"] if f.repository == repo}
            unit_dirs: dict[str, Evidence] = {}
            for m in manifests:
                d = norm_path(str(PurePosixPath(m.path).parent))
                unit_dirs.setdefault(d, m.evidence)
            for d in sorted(dockerfiles):
                unit_dirs.setdefault(norm_path(d), Evidence(repo, join_path(d, "Dockerfile"), 1))
            claimed = sorted((root for comp in self.model.components.values()
                              for (r, root) in comp.source_roots if r == repo), key=len, reverse=True)
            routes = {f.path for f in self.by_kind["http.route"] if f.repository == repo}
            depended = {dependency_key(f.get("name") or "") for f in self.by_kind["manifest.dependency"]}
            for d in sorted(unit_dirs):
                if any(is_under(d, root) for root in claimed):
                    continue
                files_here = [f.path for f in source_files if is_under(f.path, d)]
                deeper = [u for u in unit_dirs if u != d and is_under(u, d)]
                code_here = [f.path for f in source_files if f.language and is_under(f.path, d)]
                if deeper and all(any(is_under(p, u) for u in deeper) for p in code_here):
                    continue  # an aggregator (root pom with modules, workspace): its modules are the units
                serves = any(is_under(p, d) for p in routes) or d in {norm_path(x) for x in dockerfiles}
                entry = serves or any(ENTRY_FILES.search(p) for p in files_here)
                manifest_name = next((m.get("name") for m in manifests
                                      if norm_path(str(PurePosixPath(m.path).parent)) == d and m.get("name")), None)
                name = unit_name(repo, d, manifest_name,
                                  [m.path for m in manifests if norm_path(str(PurePosixPath(m.path).parent)) == d])
                if not serves and files_here and manifest_name and dependency_key(manifest_name) in depended:
                    # A package other units depend on: a library node (build-time dependency target).
                    lib = self.add_component(name, "library", repo, unit_dirs[d],
                                             (manifest_name, manifest_name.rsplit("/", 1)[-1]),
                                             {"package": manifest_name})
                    lib.source_roots.add((repo, d))
                    claimed = sorted([*claimed, d], key=len, reverse=True)
                    continue
                if not entry or not files_here:
                    continue
                aliases = (manifest_name.rsplit("/", 1)[-1],) if manifest_name else ()
                comp = self.add_component(name, "service", repo, unit_dirs[d], aliases)
                comp.source_roots.add((repo, d))
                claimed = sorted([*claimed, d], key=len, reverse=True)
            has_root = any(r == repo for comp in self.model.components.values() for (r, _root) in comp.source_roots)
            code_facts = [f for f in self.facts if f.repository == repo and f.language != "config"
                          and f.kind in ("http.route", "http.client", "env.read", "string.url")]
            if not has_root and code_facts:
                first = code_facts[0]
                comp = self.add_component(repo, "service", repo, first.evidence)
                comp.source_roots.add((repo, ""))

    def spring_identity(self) -> None:
        """``spring.application.name`` names the service other services and config files use."""
        for f in self.by_kind["config.property"]:
            if f.get("name") == "spring.application.name" and f.get("value"):
                owner = self.owner_of(f.repository, f.path)
                if owner and f.get("profile", "") == "":
                    comp = self.model.components[owner]
                    comp.evidence.add(f.evidence)
                    comp.aliases.add((f.get("value") or "").lower())
                    self.alias.setdefault((f.get("value") or "").lower(), owner)

    def spring_gateways(self) -> None:
        """Spring Cloud Gateway / Zuul services are gateways: by dependency or by route configuration."""
        for f in [*self.by_kind["manifest.dependency"], *self.by_kind["config.property"]]:
            name = (f.get("name") or "").lower()
            if re.search(r"spring-cloud-starter-gateway|spring-cloud-starter-netflix-zuul", name) or \
                    name.startswith(("spring.cloud.gateway.routes", "zuul.routes")):
                owners = self.property_owners(f) if f.kind == "config.property" else [self.owner_of(f.repository, f.path)]
                for owner in owners:
                    if owner and self.model.components[owner].kind == "service":
                        self.model.components[owner].kind = "gateway"
                        self.model.components[owner].evidence.add(f.evidence)

    def property_owners(self, f: Fact) -> list[str]:
        """Who a Spring property applies to: `<app>.yml` in a config repository configures <app>;
        `application.yml` in a shared config folder configures every Spring service; else the folder's owner."""
        stem = re.sub(r"-[^-/.]+$", "", PurePosixPath(f.path).stem) if f.get("profile") else PurePosixPath(f.path).stem
        folder_owner = self.owner_of(f.repository, f.path)
        if stem.lower().startswith("values"):  # Helm: charts/<chart>/values.yaml configures <chart>
            chart = self.alias.get(PurePosixPath(f.path).parent.name.lower())
            return [chart] if chart else ([folder_owner] if folder_owner else [])
        if stem.lower() not in ("application", "bootstrap"):
            named = self.alias.get(stem.lower()) or self.alias.get(PurePosixPath(f.path).stem.lower())
            return [named] if named else ([folder_owner] if folder_owner else [])
        parts = {p.lower() for p in PurePosixPath(f.path).parts[:-1]}
        if parts & {"shared", "config-repo", "configurations"} or folder_owner is None:
            # Spring Cloud Config clients: they name a config server (and are not one themselves).
            servers = {self.owner_of(g.repository, g.path) for g in self.by_kind["config.property"]
                       if (g.get("name") or "").startswith("spring.cloud.config.server.")}
            spring = sorted({o for g in self.by_kind["config.property"]
                             if (g.get("name") or "").startswith(("spring.cloud.config.uri", "spring.config.import"))
                             and g.path != f.path
                             for o in [self.owner_of(g.repository, g.path)] if o and o not in servers})
            return spring or ([folder_owner] if folder_owner else [])
        return [folder_owner]

    # ------------------------------------------------------------------ ownership
    def owner_of(self, repo: str, path: str) -> str | None:
        key = (repo, path)
        if key not in self.owner_cache:
            best: tuple[int, str] | None = None
            for comp in self.model.components.values():
                for r, root in comp.source_roots:
                    if r == repo and is_under(path, root) and (best is None or len(root) > best[0]
                                                             or (len(root) == best[0] and comp.id < best[1])):
                        best = (len(root), comp.id)
            self.owner_cache[key] = best[1] if best else None
        return self.owner_cache[key]

    def config_owner(self, f: Fact) -> str | None:
        owner = f.get("owner")
        if owner:
            return self.alias.get(owner.lower())
        return self.owner_of(f.repository, f.path)

    def assign_languages(self) -> None:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for result in self.results:
            for f in result.inventory.files:
                if f.role == "source" and f.language:
                    owner = self.owner_of(result.repository.name, f.path)
                    if owner:
                        counts[owner][language_family(f.language)] += 1
        for cid, c in counts.items():
            comp = self.model.components[cid]
            hint = comp.attributes.pop("base_language", "")
            if hint and c.get(hint):  # the Dockerfile's base image says which of the trees is built
                comp.language = hint
                continue
            top = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
            comp.language = top[0][0]
        for comp in self.model.components.values():
            comp.attributes.pop("base_language", None)

    # ------------------------------------------------------------------ endpoints
    def endpoints(self) -> None:
        by_line: dict[tuple[str, str, int], Fact] = {}
        for f in self.by_kind["http.route"]:
            # Several readings of one route line collapse to the most specific; an OpenAPI path item
            # lists several operations on one line, so there the method is part of the key.
            key = (f.repository, f.path, f.line, f.get("method") if f.get("framework") == "openapi" else "")
            prev = by_line.get(key)
            # Prefer the most specific reading of a line (explicit methods, a class prefix).
            if prev is None or len(f.attrs) > len(prev.attrs) or (
                    len(f.attrs) == len(prev.attrs) and (f.get("method") or "").upper() not in METHOD_WORDS):
                by_line[key] = f
        routers: dict[tuple[str, str, str], Fact] = {}
        for r in self.by_kind["http.router"]:
            routers.setdefault((r.repository, r.path, r.get("name") or ""), r)
        for key in sorted(by_line):
            f = by_line[key]
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            method, path = route_of(f, router_prefix(routers, f))
            comp = self.model.components[owner]
            port = comp.ports.setdefault("http", Port(name="http", protocol="http", direction="provided"))
            for ep in port.endpoints:
                if ep.method == method and ep.path == path:
                    ep.evidence.append(f.evidence)
                    break
            else:
                port.endpoints.append(Endpoint(method=method, path=path, evidence=[f.evidence]))
            port.evidence.append(f.evidence)

    # ------------------------------------------------------------------ connections
    def connect(self, source: str, target: str, protocol: str, evidence: list[Evidence], kind: str | None = None,
                attributes: dict[str, str] | None = None) -> None:
        if source == target:
            return
        tkind = self.model.components[target].kind
        kind = kind or ("uses" if tkind in ("database", "cache", "broker") else "calls")
        key = (source, target, protocol)
        conn = self.model.connections.get(key)
        if conn is None:
            conn = Connection(source=source, target=target, kind=kind, protocol=protocol)
            self.model.connections[key] = conn
        conn.evidence.update(evidence)
        for k, v in (attributes or {}).items():
            conn.attributes.setdefault(k, v)

    def _protocol(self, ref: HostRef, target: str, env_name: str = "") -> str:
        if ref.scheme in SCHEME_PROTOCOL:
            return SCHEME_PROTOCOL[ref.scheme]
        if ref.scheme and SCHEME_TECH.get(ref.scheme):
            return TECH_PROTOCOL.get(SCHEME_TECH[ref.scheme] or "", "tcp")
        tech = self.model.components[target].attributes.get("technology", "")
        if tech in TECH_PROTOCOL:
            return TECH_PROTOCOL[tech]
        if ref.port in PORT_PROTOCOL:
            return PORT_PROTOCOL[ref.port]
        if "GRPC" in env_name.upper():
            return "grpc"
        if re.search(r"zuul|routes|gateway|url|uri", env_name, re.I):
            return "http"
        return "tcp"

    def uses_technology(self, owner: str, tech: str) -> bool:
        """Does the component depend on a client library of this technology (manifest or import)?"""
        words = TECH_WORDS.get(tech, (tech,))
        for f in [*self.by_kind["manifest.dependency"], *self.by_kind["import"]]:
            name = (f.get("name") or f.get("module") or "").lower()
            if any(w in name for w in words) and self.owner_of(f.repository, f.path) == owner:
                return True
        return False

    def _resolve_value(self, owner: str, value: str, evidence: list[Evidence], *, env_name: str = "",
                       allow_external: bool, origin: Evidence, needs_client: bool = False) -> None:
        refs = parse_hosts(value)
        if not refs and env_name and HOST_ENV_NAME.search(env_name) and value.strip().lower() in self.alias:
            refs = [HostRef(value.strip().lower(), None, None)]
        for ref in refs:
            attrs = {"via": f"env {env_name}" if env_name else "literal"}
            target = self.alias.get(ref.host)
            if target is None and ref.host in LOCAL_HOSTS:
                continue
            if target is None:
                tech = SCHEME_TECH.get(ref.scheme or "") if ref.scheme else None
                if tech and "$" not in ref.host and "{" not in ref.host:
                    comp = self.add_component(ref.host, TECH_KIND.get(tech, "database"), origin.repository, origin,
                                              attributes={"technology": tech, "host": ref.host})
                    target = comp.id
                elif (allow_external and ref.scheme in ("http", "https", "grpc", "ws", "wss") and "." in ref.host
                      and not re.match(r"^\d+\.\d+\.\d+\.\d+$", ref.host)):
                    comp = self.add_component(ref.host, "external", None, origin, attributes={"host": ref.host})
                    target = comp.id
                elif "." in ref.host and not allow_external:
                    continue  # a public URL that is not used to call anything (a namespace, a link)
                else:
                    self.model.unresolved.append(Unresolved(owner, value, origin))
                    continue
            tcomp = self.model.components[target]
            if needs_client and tcomp.kind in ("database", "cache", "broker") and not self.uses_technology(
                    owner, tcomp.attributes.get("technology", "")):
                continue  # shared config names it, but this service has no client for it
            self.connect(owner, target, self._protocol(ref, target, env_name), evidence, attributes=attrs)

    def config_connections(self) -> None:
        env_reads: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for f in self.by_kind["env.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner and f.get("name"):
                env_reads[(owner, f.get("name") or "")].append(f.evidence)
        configmaps: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["k8s.configmap"]:
            configmaps[f.get("configmap") or ""].append(f)
        pairs: list[tuple[str, Fact]] = []
        for f in self.by_kind["config.env"]:
            owner = self.config_owner(f)
            if owner:
                pairs.append((owner, f))
        for f in self.by_kind["k8s.env_from"]:
            owner = self.config_owner(f)
            if owner:
                pairs.extend((owner, cm) for cm in configmaps.get(f.get("configmap") or "", []))
        shared: set[tuple[str, Fact]] = set()
        for f in self.by_kind["config.property"]:
            owners = self.property_owners(f)
            common = PurePosixPath(f.path).stem.lower().startswith(("application", "bootstrap"))
            for owner in owners:
                pairs.append((owner, f))
                if common and owner != self.owner_of(f.repository, f.path):
                    shared.add((owner, f))  # a config repository's shared file, not the service's own
        for owner, f in pairs:
            name, value = f.get("name") or "", f.get("value") or ""
            self.env_values[(owner, name)].append((value, f.evidence))
        for owner, f in pairs:
            name, value = f.get("name") or "", f.get("value") or ""
            chain = [f.evidence, *env_reads.get((owner, name), [])]
            self._resolve_value(owner, value, chain, env_name=name, allow_external=True, origin=f.evidence,
                                needs_client=(owner, f) in shared)
        # Defaults in code: os.getenv("X", "http://orders:8080") only counts when no config sets X.
        configured = {(owner, f.get("name")) for owner, f in pairs}
        for f in self.by_kind["env.read"]:
            owner = self.owner_of(f.repository, f.path)
            default = f.get("default")
            if owner and default and (owner, f.get("name")) not in configured:
                self._resolve_value(owner, default, [f.evidence], env_name=f.get("name") or "",
                                    allow_external=True, origin=f.evidence)

    def code_connections(self) -> None:
        client_lines = {(f.repository, f.path, f.line) for f in self.by_kind["http.client"]}
        env_default_lines = {(f.repository, f.path, f.line) for f in self.by_kind["env.read"] if f.get("default")}
        for f in [*self.by_kind["string.url"], *self.by_kind["string.hostport"], *self.by_kind["string.dsn"]]:
            if (f.repository, f.path, f.line) in env_default_lines:
                continue  # handled with its environment variable
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            in_call = (f.repository, f.path, f.line) in client_lines
            self._resolve_value(owner, f.get("value") or "", [f.evidence], allow_external=in_call, origin=f.evidence)

    def driver_connections(self) -> None:
        for f in self.by_kind["import"]:
            tech = tech_for_module(f.get("module") or "")
            owner = self.owner_of(f.repository, f.path) if tech else None
            if not tech or owner is None:
                continue
            if any(c.source == owner and self.model.components[c.target].attributes.get("technology") == tech
                   for c in self.model.connections.values()):
                continue
            candidates = sorted(c.id for c in self.model.components.values()
                                if c.attributes.get("technology") == tech and c.id != owner)
            if len(candidates) == 1:
                self.connect(owner, candidates[0], TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                             attributes={"via": f"driver {f.get('module')}"})

    def depends_connections(self) -> None:
        for f in self.by_kind["compose.depends"]:
            source = self.alias.get((f.get("owner") or "").lower())
            target = self.alias.get((f.get("target") or "").lower())
            if not source or not target or source == target:
                continue
            existing = sorted(k for k in self.model.connections if k[0] == source and k[1] == target)
            if existing:
                self.model.connections[existing[0]].evidence.add(f.evidence)
                continue
            tech = self.model.components[target].attributes.get("technology", "")
            self.connect(source, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence], kind="depends_on",
                         attributes={"via": "depends_on"})

    def library_dependencies(self) -> None:
        """Package-manifest dependencies on a library of the system become build-time edges."""
        libraries = {}
        for c in self.model.components.values():
            if c.kind == "library":
                libraries[dependency_key(c.attributes.get("package", c.name))] = c.id
        for f in self.by_kind["manifest.dependency"]:
            lib = libraries.get(dependency_key(f.get("name") or ""))
            owner = self.owner_of(f.repository, f.path)
            if lib and owner and owner != lib:
                self.connect(owner, lib, "library", [f.evidence], kind="depends_on",
                             attributes={"via": f"{f.get('ecosystem') or 'package'} dependency"})

    def proxies(self) -> None:
        """Reverse proxies (nginx, httpd, Caddy): the proxy forwards to the upstreams it names."""
        for f in self.by_kind["proxy.route"]:
            if f.get("named_upstream"):
                continue  # its servers are facts of their own
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                gateways = sorted(c.id for c in self.model.components.values()
                                  if c.kind == "gateway" and c.repository == f.repository)
                owner = gateways[0] if len(gateways) == 1 else None
            if owner is None:
                self.model.unresolved.append(Unresolved("(proxy)", f.get("upstream") or "", f.evidence))
                continue
            comp = self.model.components[owner]
            if comp.kind == "service":
                comp.kind = "gateway"
            value = f.get("upstream") or ""
            if "://" not in value:
                value = f"http://{value}"
            attrs = {"via": "reverse proxy" + (f" {f.get('location')}" if f.get("location") else "")}
            before = set(self.model.connections)
            self._resolve_value(owner, value, [f.evidence], allow_external=True, origin=f.evidence)
            for key in set(self.model.connections) - before:
                self.model.connections[key].attributes.update(attrs)

    def traefik(self) -> None:
        """Traefik routes to the compose services that carry `traefik.*` labels."""
        proxies = sorted(c.id for c in self.model.components.values()
                         if "traefik" in (c.attributes.get("image") or "").lower())
        if len(proxies) != 1:
            return
        for f in self.by_kind["compose.label"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None or owner == proxies[0]:
                continue
            if f.get("name") == "traefik.enable" and (f.get("value") or "").lower() == "false":
                continue
            self.connect(proxies[0], owner, "http", [f.evidence], attributes={"via": "traefik labels"})

    def exposed_ports(self) -> None:
        """Dockerfile EXPOSE lines give the ports of the component built from that folder."""
        for f in self.by_kind["docker.expose"]:
            owner = self.owner_of(f.repository, f.path)
            if owner and f.get("port"):
                comp = self.model.components[owner]
                ports = set(filter(None, comp.attributes.get("exposed", "").split(","))) | {f.get("port") or ""}
                comp.attributes["exposed"] = ",".join(sorted(ports))

    def ingress(self) -> None:
        declared = {(f.repository, f.path, f.get("ingress")): f.evidence for f in self.by_kind["k8s.ingress_resource"]}
        for f in self.by_kind["k8s.ingress"]:
            target = self.alias.get((f.get("target") or "").lower())
            if not target:
                continue
            gw = self.add_component(f.get("ingress") or "ingress", "gateway", f.repository,
                                    declared.get((f.repository, f.path, f.get("ingress")), f.evidence),
                                    attributes={"deployment": "kubernetes", "technology": "ingress"})
            self.connect(gw.id, target, "http", [f.evidence], attributes={"via": "ingress"})

    # ------------------------------------------------------------------ value resolution
    def resolve_expression(self, owner: str, f: Fact, expr: str) -> list[tuple[str, list[Evidence]]]:
        """Values an expression may take: literals, same-file constants, env reads and their config values,
        Spring ``${key:default}`` placeholders.  Each value comes with the chain of evidence that gave it."""
        values: list[tuple[str, list[Evidence]]] = []
        for m in re.finditer(r"\$\{([A-Za-z0-9_.\-]+)(?::([^}]*))?\}", expr):
            key, default = m.group(1), m.group(2)
            configured = (self.env_values.get((owner, key)) or self.env_values.get((owner, env_form(key)))
                          or self.env_values.get((owner, key.replace(":", "__"))))
            if configured:
                values.extend((v, [f.evidence, ev]) for v, ev in configured)
            elif default:
                values.append((default, [f.evidence]))
        if parse_hosts(expr):
            values.append((expr, [f.evidence]))
        m = re.match(r"^\s*([A-Za-z0-9_]+(?::[A-Za-z0-9_]+)+)\s*$", expr)  # ASP.NET "Services:Catalog"
        if m:
            values.extend((v, [f.evidence, ev]) for v, ev in self.env_values.get((owner, m.group(1).replace(":", "__")), []))
        for ident in sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr))):
            for c in self.consts.get((f.repository, f.path, ident), []):
                values.append((c.get("value") or "", [f.evidence, c.evidence]))
            configured = self.env_values.get((owner, ident))
            if configured:
                values.extend((v, [f.evidence, ev]) for v, ev in configured)
        return values

    def client_calls(self) -> None:
        """HTTP client calls: resolve the URL expression to a component and record the endpoint called.

        A Feign method (``feign`` attribute) calls the component its client is named after; an
        http(s) URL to a foreign host reached through a constant introduces an external system."""
        relative: list[Fact] = []
        file_targets: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        for f in self.by_kind["http.client"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            expr = f.get("url") or ""
            method = http_verb(f.get("method") or "") or ""
            endpoint_path = client_path(expr)
            if expr.startswith("/") and not f.get("feign"):
                relative.append(f)  # a path on a client whose base URL is set elsewhere in the file
                continue
            targets: list[tuple[str, str, list[Evidence]]] = []
            feign = self.alias.get((f.get("feign") or "").lower())
            if feign and feign != owner:
                targets.append((feign, "http", [f.evidence]))
                if expr.startswith("/"):
                    endpoint_path = expr  # a declared path template, not an expression
            for value, chain in self.resolve_expression(owner, f, expr):
                for ref in parse_hosts(value):
                    target = self.alias.get(ref.host)
                    if target is None and ref.scheme in ("http", "https") and "." in ref.host \
                            and ref.host not in LOCAL_HOSTS and not re.match(r"^[\d.]+$", ref.host):
                        target = self.add_component(ref.host, "external", None, chain[-1],
                                                    attributes={"host": ref.host}).id
                    if target is None or target == owner:
                        continue
                    proto = self._protocol(ref, target)
                    targets.append((target, proto if proto != "tcp" else "http", chain))
            for target, proto, chain in targets:
                file_targets[(f.repository, f.path)].add((target, proto))
                self.connect(owner, target, proto, chain, attributes={"via": "http client"})
                if endpoint_path:
                    conn = self.model.connections[(owner, target, proto)]
                    call = f"{method if method in HTTP_VERBS else 'ANY'} {endpoint_path}"
                    calls = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
                    calls.add(call)
                    conn.attributes["endpoints"] = ", ".join(sorted(calls))

        # Relative calls (@conn.get("/api/quotes"), client.GetAsync("/x") on a BaseAddress client) belong to
        # the one service the file's clients are configured for; with several candidates, none is guessed.
        for f in relative:
            candidates = file_targets.get((f.repository, f.path), set())
            owner = self.owner_of(f.repository, f.path)
            if len(candidates) != 1 or owner is None:
                continue
            target, proto = next(iter(candidates))
            conn = self.model.connections[(owner, target, proto)]
            conn.evidence.add(f.evidence)
            method = http_verb(f.get("method") or "") or ""
            calls = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
            calls.add(f"{method if method in HTTP_VERBS else 'ANY'} {client_path(f.get('url') or '')}")
            conn.attributes["endpoints"] = ", ".join(sorted(calls))

    def config_reads(self) -> None:
        """Spring ``@Value("${orders.url:http://orders:8080}")`` and Feign clients."""
        for f in self.by_kind["config.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            for value, chain in self.resolve_expression(owner, f, f.get("expr") or ""):
                self._resolve_value(owner, value, chain, allow_external=True, origin=f.evidence)
        for f in self.by_kind["feign.client"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            target = self.alias.get((f.get("name") or "").lower())
            if target:
                self.connect(owner, target, "http", [f.evidence], attributes={"via": "feign client"})
            elif f.get("url"):
                for value, chain in self.resolve_expression(owner, f, f.get("url") or ""):
                    self._resolve_value(owner, value, chain, allow_external=True, origin=f.evidence)

    def grpc(self) -> None:
        """gRPC: proto services become ports of the component that registers a server for them;
        client stubs connect to that component."""
        rpcs: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["grpc.rpc"]:
            rpcs[grpc_service_name(f.get("service") or "")].append(f)
        providers: dict[str, str] = {}
        for f in self.by_kind["grpc.server"]:
            owner = self.owner_of(f.repository, f.path)
            name = grpc_service_name(f.get("service") or "", f.get("strip"))
            if owner is None or not name:
                continue
            providers.setdefault(name, owner)
            comp = self.model.components[owner]
            port = comp.ports.setdefault("grpc", Port(name="grpc", protocol="grpc", direction="provided"))
            port.evidence.append(f.evidence)
            proto_service = next((r.get("service") for r in rpcs.get(name, [])), None) or name
            for r in rpcs.get(name, []):
                path = f"{proto_service}/{r.get('rpc')}"
                if not any(ep.path == path for ep in port.endpoints):
                    port.endpoints.append(Endpoint(method="RPC", path=path, evidence=[r.evidence]))
            if not rpcs.get(name) and not any(ep.path == proto_service for ep in port.endpoints):
                port.endpoints.append(Endpoint(method="RPC", path=proto_service, evidence=[f.evidence]))
        for f in self.by_kind["grpc.client"]:
            owner = self.owner_of(f.repository, f.path)
            name = grpc_service_name(f.get("service") or "", f.get("strip"))
            if owner is None or not name:
                continue
            target = providers.get(name)
            if target is None:
                self.model.unresolved.append(Unresolved(owner, f"gRPC client of {name}", f.evidence))
                continue
            self.connect(owner, target, "grpc", [f.evidence], attributes={"via": f"grpc stub {name}"})

    def messaging(self) -> None:
        """Producers and consumers of topics/queues: edges to the broker with the topics they use."""
        client_vars = {(f.repository, f.path, f.get("name")): f.get("technology") for f in self.by_kind["client.var"]}
        for f in [*self.by_kind["messaging.publish"], *self.by_kind["messaging.subscribe"]]:
            owner = self.owner_of(f.repository, f.path)
            tech = (f.get("technology") or "").lower()
            if f.get("needs_client"):  # `x.publish(...)` counts only when x is known to hold a client
                tech = (client_vars.get((f.repository, f.path, f.get("client"))) or "").lower()
                if not tech:
                    continue
            if owner is not None and not tech:
                # A framework abstraction (NestJS @EventPattern): the system's only broker, if it has one.
                brokers = sorted({c.attributes.get("technology", "") for c in self.model.components.values()
                                  if c.kind == "broker"})
                tech = brokers[0] if len(brokers) == 1 else ""
            if owner is None or not tech:
                continue
            protocol = MESSAGING_TECH_PROTOCOL.get(tech, "tcp")
            brokers = sorted(c.id for c in self.model.components.values()
                             if c.attributes.get("technology") == tech and c.id != owner)
            connected = [b for b in brokers if any(k[0] == owner and k[1] == b for k in self.model.connections)]
            if connected:
                broker = connected[0]
            elif len(brokers) == 1:
                broker = brokers[0]
            elif not brokers:
                broker = self.add_component(tech, TECH_KIND.get(tech, "broker"), f.repository, f.evidence,
                                            attributes={"technology": tech}).id
            else:
                self.model.unresolved.append(Unresolved(owner, f"{tech} client with several candidate brokers",
                                                        f.evidence))
                continue
            topic_values = [v for v, _c in self.resolve_expression(owner, f, f.get("topic") or "")
                            if v and not parse_hosts(v)] or ([f.get("topic")] if f.get("topic") else [])
            role = "publishes" if f.kind == "messaging.publish" else "subscribes"
            existing = [k for k in self.model.connections if k[0] == owner and k[1] == broker]
            key = existing[0] if existing else (owner, broker, protocol)
            if not existing:
                self.connect(owner, broker, protocol, [f.evidence], kind=role)
            conn = self.model.connections[key]
            conn.evidence.add(f.evidence)
            topics = set(filter(None, conn.attributes.get(role, "").split(", "))) | set(topic_values)
            conn.attributes[role] = ", ".join(sorted(t for t in topics if t))
            conn.kind = "publishes" if conn.attributes.get("publishes") else "subscribes"
            all_topics = set(filter(None, conn.attributes.get("publishes", "").split(", "))) | set(
                filter(None, conn.attributes.get("subscribes", "").split(", ")))
            conn.attributes["topic"] = ", ".join(sorted(all_topics))
            btopics = set(filter(None, self.model.components[broker].attributes.get("topics", "").split(", ")))
            self.model.components[broker].attributes["topics"] = ", ".join(sorted(btopics | all_topics))

    def entry_points(self) -> None:
        """A public entry point (published ports, LoadBalancer/NodePort service, ingress) is used by `user`."""
        targets: list[tuple[str, Evidence]] = []
        called = {k[1] for k in self.model.connections}
        for f in self.by_kind["compose.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if re.search(r"[.-](dev|override|local|debug)\.ya?ml$", f.path):
                continue  # development overrides publish every port for convenience
            if cid and f.get("ports") and (self.model.components[cid].kind in ("gateway", "broker")
                                           or (self.model.components[cid].kind == "service" and cid not in called)
                                           or has_dashboard(self.model.components[cid])):
                targets.append((cid, f.evidence))
        for f in self.by_kind["k8s.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if cid and f.get("type") in ("LoadBalancer", "NodePort"):
                targets.append((cid, f.evidence))
        for cid in sorted(c.id for c in self.model.components.values()
                          if c.kind == "gateway" and c.attributes.get("technology") == "ingress"):
            targets.append((cid, sorted(self.model.components[cid].evidence)[0]))
        for cid, ev in sorted(targets, key=lambda t: (t[0], t[1])):
            user = self.add_component("user", "user", None, ev, attributes={"role": "people and clients outside the system"})
            self.connect(user.id, cid, "http", [ev], kind="calls", attributes={"via": "published entry point"})

    def fold_unknown_protocols(self) -> None:
        """A 'tcp' edge (protocol unknown) merges into a known-protocol edge between the same pair."""
        for key in sorted(k for k in self.model.connections if k[2] == "tcp"):
            others = sorted(k for k in self.model.connections if k[:2] == key[:2] and k[2] != "tcp")
            if others:
                tcp = self.model.connections.pop(key)
                target = self.model.connections[others[0]]
                target.evidence.update(tcp.evidence)
                for k, v in tcp.attributes.items():
                    target.attributes.setdefault(k, v)

    def resolve(self) -> SystemModel:
        self.deployment_components()
        self.build_units()
        self.spring_identity()
        self.spring_gateways()
        self.assign_languages()
        self.endpoints()
        self.config_connections()
        self.code_connections()
        self.client_calls()
        self.config_reads()
        self.grpc()
        self.driver_connections()
        self.messaging()
        self.depends_connections()
        self.library_dependencies()
        self.proxies()
        self.traefik()
        self.ingress()
        self.exposed_ports()
        self.fold_unknown_protocols()
        self.entry_points()
        self.model.unresolved = sorted(set(self.model.unresolved), key=lambda u: (u.component, u.value, u.evidence))
        return self.model


def resolve_system(name: str, results: list[ExtractResult]) -> SystemModel:
    return Resolver(name, results).resolve()
