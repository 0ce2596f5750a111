"""What links repositories (and so systems) to each other, read from their facts.

A repository *provides* names others can reach it by (its own name, its compose services, its
Kubernetes services, its Dapr app ids), the topics it publishes, the packages its manifests
publish (npm, Maven, Go modules, PyPI, NuGet, Cargo) and, when it has a Dockerfile, the image named
after it, and the gRPC services its code registers; it *needs* the hosts its configuration and code
address, the topics it subscribes to, the packages it depends on, the images its compose files and
Kubernetes workloads run, and the gRPC services it holds generated clients of.  For OpenAPI it
*provides* its documents (``openapi``) and their operations (``route``, ``POST /payments/{}``) and
*needs* the documents its generated clients are made from (openapi-generator, swagger-codegen,
NSwag, openapi-typescript... configuration naming the document) and the operations its HTTP
client calls address; an operation alone links nothing (a path says little), only with a call
whose host resolves to the system that documents it (:mod:`repomodeler.landscape.links`).  A need that another
repository provides is a link: the landscape groups repositories by them (when no systems are
given) and draws the ones that cross systems.  Every reference keeps the place it was read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repomodeler.records import Evidence, Fact

# scheme://host or jdbc:scheme://host; the host is what another repository is reached by
_URL_HOST = re.compile(r"(?:jdbc:)?([a-z][a-z0-9+.-]*)://(?:[^@/\s'\"]*@)?([A-Za-z0-9_][A-Za-z0-9_.-]*)")
_NOT_A_PEER = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "+", "*", "host.docker.internal", "example.com",
                         "example.org", "www.example.com", "schemas.xmlsoap.org", "www.w3.org", "json-schema.org"})
_PROTOCOL_OF_SCHEME = {
    "http": "http", "https": "http", "grpc": "grpc", "grpcs": "grpc", "postgres": "sql", "postgresql": "sql",
    "mysql": "sql", "sqlserver": "sql", "mariadb": "sql", "mongodb": "mongodb", "mongodb+srv": "mongodb",
    "redis": "redis", "rediss": "redis", "amqp": "amqp", "amqps": "amqp", "kafka": "kafka", "nats": "nats",
}
# where a fact carries a value that may address another component
_VALUE_KINDS = {"config.env": "value", "config.property": "value", "string.url": "value", "env.read": "default",
                "http.client": "url", "const.string": "value"}
_NAME_KINDS = ("compose.service", "k8s.service", "dapr.app_id")
_PACKAGE_ECOSYSTEMS = {"npm": "npm", "maven": "maven", "gradle": "maven", "go": "go", "python": "pypi",
                       "dotnet": "nuget", "cargo": "cargo"}


@dataclass(frozen=True, order=True)
class Ref:
    """One reference: ``kind`` (``host``, ``topic``, ``package``), the key it matches on, the component
    it belongs to (the repository's name until resolution says which component), the protocol it
    implies, and where it was read."""

    kind: str
    key: str
    component: str
    protocol: str
    evidence: Evidence

    def to_json(self) -> list[object]:
        e = self.evidence
        return [self.kind, self.key, self.component, self.protocol, e.repository, e.path, e.line]

    @classmethod
    def from_json(cls, data: list[object]) -> "Ref":
        kind, key, component, protocol, repo, path, line = data
        return cls(str(kind), str(key), str(component), str(protocol), Evidence(str(repo), str(path), int(line)))  # type: ignore[call-overload]


def package_key(ecosystem: str, name: str) -> str:
    """One spelling per package: PyPI names compare case- and separator-blind, Maven by artifact."""
    eco = _PACKAGE_ECOSYSTEMS.get(ecosystem, ecosystem)
    if eco == "pypi":
        name = re.sub(r"[-_.]+", "-", name).lower()
    elif eco == "maven":
        name = name.rsplit(":", 1)[-1]
    return f"{eco}:{name}"


def _grpc_name(service: str, strip: str | None) -> str:
    from repomodeler.graph.values import grpc_service_name

    return grpc_service_name(service, strip)


def image_name(reference: str) -> str:
    """The repository-like name of a container image (``registry.acme.io/team/billing-api:1.4`` ->
    ``billing-api``); empty for templated references."""
    if "${" in reference or "{{" in reference:
        return ""
    name = reference.split("@", 1)[0].rsplit("/", 1)[-1]
    return name.split(":", 1)[0].lower()


def hosts_in(value: str) -> list[tuple[str, str]]:
    """(host, protocol) of every URL in `value` that may name a peer (not loopback, not a template)."""
    out = []
    for scheme, host in _URL_HOST.findall(value):
        host = host.rstrip(".").lower()
        if host in _NOT_A_PEER or host.startswith("${") or not re.search(r"[a-z]", host):
            continue
        out.append((host.split(".")[0] if "." in host and not _looks_public(host) else host,
                    _PROTOCOL_OF_SCHEME.get(scheme.lower(), "tcp")))
    return out


def _looks_public(host: str) -> bool:
    """A public DNS name (api.stripe.com) is kept whole; a cluster name (orders.default.svc) is its service."""
    return not (host.endswith((".svc", ".local", ".internal", ".cluster.local")) or ".svc." in host)


_PARAM = re.compile(r"\$?\{[^}/]*\}|:[A-Za-z_][A-Za-z0-9_]*|<[^>/]*>")
_HTTP_VERBS = frozenset({"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"})
# hosts of a git forge's raw file URLs: /<owner>/<repository>/<ref>/<path> (GitHub), .../-/raw/<ref>/<path> (GitLab)
_RAW_HOSTS = ("raw.githubusercontent.com",)


def route_key(method: str, path: str) -> str:
    """``METHOD /path/{}``: one spelling of an operation for an OpenAPI path template and a client's
    URL alike (every parameter, ``{id}``, ``${id}``, ``:id``, ``<id>``, is ``{}``); ``ANY`` when the
    client's method is unknown."""
    path = _PARAM.sub("{}", path.split("?", 1)[0].split("#", 1)[0])
    path = re.sub(r"/{2,}", "/", path)
    if len(path) > 1:
        path = path.rstrip("/")
    verb = method.upper()
    return f"{verb if verb in _HTTP_VERBS else 'ANY'} {path}"


def spec_keys(spec: str) -> list[str]:
    """The keys an OpenAPI document named by a generated client's configuration may be provided
    under (``<repository>/<path in it>``, or ``<host>/*``, any document of the repository a host is
    named after), lowercase.  A relative path is tried with each of its folders as the repository
    (``../payments-api/api/openapi.yaml`` -> ``payments-api/api/openapi.yaml``, ``api/openapi.yaml``)."""
    from urllib.parse import urlsplit

    spec = spec.strip()
    if "://" in spec:
        try:
            url = urlsplit(spec)
            host = (url.hostname or "").lower()
        except ValueError:
            return []
        parts = [p for p in url.path.split("/") if p]
        if host in _RAW_HOSTS and len(parts) >= 4:
            return [f"{parts[1]}/{'/'.join(parts[3:])}".lower()]
        if "blob" in parts[2:3] or "raw" in parts[2:3]:  # github.com/<owner>/<repo>/blob/<ref>/<path>
            return [f"{parts[1]}/{'/'.join(parts[4:])}".lower()] if len(parts) >= 5 else []
        if "-" in parts and parts.index("-") >= 2 and parts[parts.index("-") + 1:parts.index("-") + 2] == ["raw"]:
            i = parts.index("-")
            return [f"{parts[i - 1]}/{'/'.join(parts[i + 3:])}".lower()]
        found = hosts_in(spec)
        return [f"{found[0][0]}/*"] if found else []
    parts = [p for p in spec.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return [f"{parts[i]}/{'/'.join(parts[i + 1:])}".lower() for i in range(len(parts) - 1)]


def repository_refs(facts: list[Fact], repository: str) -> tuple[list[Ref], list[Ref]]:
    """(provides, needs) of one repository's facts; components are the repository name."""
    provides: set[Ref] = {Ref("host", repository.lower(), repository, "", Evidence(repository, "", 0))}
    needs: set[Ref] = set()
    for f in facts:
        kind = f.kind
        if kind in ("compose.service", "k8s.workload") and f.get("image"):
            image = image_name(f.get("image") or "")
            if image:  # an image this deployment runs: built by the repository of that name, maybe elsewhere
                needs.add(Ref("image", image, repository, "image", f.evidence))
        if kind == "docker.from" and f.path.rsplit("/", 1)[-1].startswith("Dockerfile"):
            provides.add(Ref("image", repository.lower(), repository, "image", f.evidence))
        if kind in ("grpc.server", "grpc.client") and f.get("service"):
            service = _grpc_name(f.get("service") or "", f.get("strip"))
            if service and kind == "grpc.server":
                provides.add(Ref("grpc", service, repository, "grpc", f.evidence))
            elif service and not f.get("needs_server"):  # a generated stub of a service served elsewhere
                needs.add(Ref("grpc", service, repository, "grpc", f.evidence))
        if kind in _NAME_KINDS:
            name = f.get("name") or f.get("app_id")
            if name:
                provides.add(Ref("host", name.lower(), repository, "", f.evidence))
        elif kind == "messaging.publish" and f.get("topic"):
            provides.add(Ref("topic", f.get("topic") or "", repository, f.get("technology") or "", f.evidence))
        elif kind == "messaging.subscribe" and f.get("topic"):
            needs.add(Ref("topic", f.get("topic") or "", repository, f.get("technology") or "", f.evidence))
        elif kind == "manifest" and f.get("name") and f.get("ecosystem") in _PACKAGE_ECOSYSTEMS:
            provides.add(Ref("package", package_key(f.get("ecosystem") or "", f.get("name") or ""), repository,
                             "library", f.evidence))
        elif kind == "manifest.dependency" and f.get("name") and f.get("ecosystem") in _PACKAGE_ECOSYSTEMS:
            needs.add(Ref("package", package_key(f.get("ecosystem") or "", f.get("name") or ""), repository,
                          "library", f.evidence))
        elif kind == "openapi.document":  # an API description: any of its documents, or this one by path
            provides.add(Ref("openapi", f"{repository.lower()}/{f.path.lower()}", repository, "http", f.evidence))
            provides.add(Ref("openapi", f"{repository.lower()}/*", repository, "http", f.evidence))
        elif kind == "http.route" and f.get("framework") == "openapi" and f.get("path"):
            provides.add(Ref("route", route_key(f.get("method") or "", f.get("path") or ""), repository, "http",
                             f.evidence))
        elif kind == "openapi.client" and f.get("spec"):  # a client generated from a document
            spec = f.get("spec") or ""
            keys = spec_keys(spec)
            for key in keys:
                needs.add(Ref("openapi", key, repository, "http", f.evidence))
            if keys and keys[0].endswith("/*"):  # served by a peer (not a file on a git forge): a call too
                for host, protocol in hosts_in(spec):
                    needs.add(Ref("host", host, repository, protocol, f.evidence))
        if kind == "http.client" and f.get("url"):  # the operation it calls, matched once its host resolves
            from repomodeler.graph.values import client_path

            path = client_path(f.get("url") or "")
            if path.startswith("/") and re.search(r"[A-Za-z]", path):
                needs.add(Ref("route", route_key(f.get("method") or "", path), repository, "http", f.evidence))
        if kind in _VALUE_KINDS:
            value = f.get(_VALUE_KINDS[kind]) or ""
            if "://" in value:
                for host, protocol in hosts_in(value):
                    needs.add(Ref("host", host, repository, protocol, f.evidence))
    own = {(r.kind, r.key) for r in provides}
    needs = {r for r in needs if (r.kind, r.key) not in own}  # its own services and packages
    return sorted(provides), sorted(needs)
