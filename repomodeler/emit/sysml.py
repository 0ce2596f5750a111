"""SysML v2 textual notation, rendered from the graph with jinja2 templates.

Two packages come out.  ``RepoModeler`` is the library: a part def per component kind, a port def per
protocol (request/response ports carry ``request``/``response`` items, broker ports ``publish``/``deliver``
messages), an interface def (calls) and a connection def (data-store access) per protocol, the
``LibraryLink`` build-time dependency, the ``SourceRef`` provenance metadata and enums for kinds and
protocols.  It never depends on the graph, so every model carries the same library text.

The system package holds an ``item def`` per message topic, the ``part system`` with a typed part per
component (its attributes, its provided ports with the endpoints as nested ``in ref item``s -- directed
as well as ``ref``: a port's owned usages must be referential, and a Systems Modeling API server such as
longeron reads a usage's direction but has no field for ``ref`` -- and a conjugated client port per
outgoing connection), one connector per graph edge, and the views.  How an
edge is written depends on what it is (see :func:`edge_style`): a call is an ``interface`` between the
client port and the server port; data-store access is a ``connection``; a link to a broker is an
``interface`` carrying a ``flow`` per topic (producer to broker, or broker to consumer); a library
dependency is a ``connection`` between the two parts.  Every element with evidence carries
``@SourceRef`` metadata and a plain-words ``doc``.

Names come from component ids through :class:`NameAllocator` (one per namespace, fed in sorted
order), so the same commits always give byte-identical text and no name can clash with an inherited
library feature, an imported definition or another member.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
import networkx as nx

from repomodeler.emit.names import (LIBRARY_PACKAGES, IdentAllocator, is_basic_name, short_name_ok, sysml_doc, sysml_ident, sysml_name,
                                    sysml_string)
from repomodeler.emit.nested import (COMPONENT_FEATURES as _COMPONENT_FEATURES, EMPTY as NO_NESTING, SUBSYSTEM_FEATURES,
                                     Nesting, nest)
from repomodeler.emit.values import cpu_cores, memory_bytes, natural, port_mappings
from repomodeler.emit.typed_apis import (HTTP_METHODS, LIBRARY_NAMES as TYPED_LIBRARY_NAMES, MessageNames, TypedApi,
                                         declared_with_short, message_names, render_messages, typed_api, typed_http_api)
from repomodeler.model.graph import parent_of as holder_of, top_level_view
from repomodeler.records import NODE_KINDS, PROTOCOLS, Evidence

LIBRARY_PACKAGE = "RepoModeler"
MAX_EVIDENCE = 8  # SourceRefs per element; the rest stay in model.json (the doc says how many)
# SourceRefs per import link between subsystems: the first import statement; the doc and the `imports`
# attribute give the count, model.json lists up to MAX_EVIDENCE lines. A big repository has hundreds
# of such links (temporal: 444), and eight lines each would make its model.sysml 1.3 times larger
# and its strict check 1.5 times slower for lines that all say the same thing.
IMPORT_EVIDENCE = 1
KIND_DEF = {"service": "Service", "database": "Database", "cache": "Cache", "broker": "Broker",
            "gateway": "Gateway", "external": "ExternalSystem", "library": "Library", "user": "User",
            "webapp": "WebApp"}
PROTOCOL_PORT = {"http": "HttpApi", "grpc": "GrpcApi", "sql": "SqlApi", "mongodb": "MongoApi", "redis": "RedisApi",
                 "amqp": "AmqpApi", "kafka": "KafkaApi", "nats": "NatsApi", "elasticsearch": "ElasticsearchApi",
                 "tcp": "TcpApi"}
PROTOCOL_LABEL = {"http": "HTTP", "grpc": "gRPC", "sql": "SQL", "mongodb": "the MongoDB protocol",
                  "redis": "the Redis protocol", "amqp": "AMQP", "kafka": "the Kafka protocol", "nats": "NATS",
                  "elasticsearch": "the Elasticsearch API", "tcp": "TCP (protocol not determined)"}
MESSAGING = {"kafka", "amqp", "nats"}
BUILD_PROTOCOL = "library"  # edge protocol of build-time dependencies (no ports, no runtime traffic)
GENERIC_PORT = "OtherApi"  # protocols the library does not know yet (added by a newer resolver)
STORE_KINDS = {"database", "cache"}
# Every definition the library declares: a member of the system package with one of these names would
# shadow the imported definition for every reference inside the package.
_EXTRA_LIBRARY_NAMES = {"ComponentKind", "Protocol", "SourceRef", "Request", "Response", "Message", "Endpoint",
                        "Component", "Api", "CallApi", "MessagingApi", "LibraryLink", GENERIC_PORT, "Repository",
                        "RepositoryMember", "System", "InterconnectionView", "RepositoryView", "DependencyRule",
                        "CheckViolation", "Deployment", "Workload", "Deploys", "PortMapping", "MemorySize", "Delegation", "Subsystem", "ImportLink", "PartLink",
                        "TreeView", "ConnectionsConcern", "OwnershipConcern", "DecompositionConcern",
                        "ConnectionsViewpoint", "OwnershipViewpoint", "DecompositionViewpoint",
                        GENERIC_PORT.replace("Api", "Link"), GENERIC_PORT.replace("Api", "Access")}
_PORT_FEATURES = {"protocol", "request", "response", "publish", "deliver"}
# Features a part inherits from the library's Workload def (a published port's name must not take one).
_WORKLOAD_FEATURES = frozenset({"platform", "image", "publishedPorts", "replicas", "cpuRequest", "cpuLimit",
                                "memoryRequest", "memoryLimit"})
_VERB = {"calls": "calls", "uses": "uses", "depends_on": "depends on", "publishes": "publishes to",
         "subscribes": "subscribes to"}


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=False, keep_trailing_newline=True, trim_blocks=False, lstrip_blocks=False,
        undefined=jinja2.StrictUndefined,
    )


def port_def(protocol: str) -> str:
    return PROTOCOL_PORT.get(protocol, GENERIC_PORT)


def protocol_label(protocol: str) -> str:
    return PROTOCOL_LABEL.get(protocol, protocol.upper() if protocol.isalnum() else protocol)


def library_names() -> set[str]:
    """Every name the library package declares at its top level."""
    return set(KIND_DEF.values()) | set(PROTOCOL_PORT.values()) | _EXTRA_LIBRARY_NAMES | TYPED_LIBRARY_NAMES | {
        p.replace("Api", suffix) for p in PROTOCOL_PORT.values() for suffix in ("Link", "Access")}


def _evidence(items: tuple[Evidence, ...] | list[Evidence], limit: int = MAX_EVIDENCE) -> list[dict[str, object]]:
    """SourceRef values (repository, path, line); the commit is on the package's Repository annotation."""
    return [{"repository": sysml_string(e.repository), "path": sysml_string(e.path), "line": e.line}
            for e in sorted(set(items))[:limit]]


def render_library() -> str:
    """The ``RepoModeler`` package: the same text for every model."""
    protocols = []
    for p in list(PROTOCOL_PORT) + [None]:
        port = port_def(p) if p else GENERIC_PORT
        label = PROTOCOL_LABEL[p] if p else "a protocol this library does not name (see the port's doc)"
        protocols.append({
            "port": port, "link": port.replace("Api", "Link"), "access": port.replace("Api", "Access"),
            "base": "MessagingApi" if p in MESSAGING else "CallApi", "enum": sysml_name(p) if p else "",
            "label": label, "doc": f"An API reached over {label}.",
        })
    enums = list(PROTOCOLS) + [p for p in PROTOCOL_PORT if p not in PROTOCOLS] + \
        ([BUILD_PROTOCOL] if BUILD_PROTOCOL not in PROTOCOLS else [])
    kinds = list(NODE_KINDS) + [k for k in KIND_DEF if k not in NODE_KINDS]
    return _env().get_template("library.sysml.j2").render(
        http_methods=list(HTTP_METHODS), kinds=[sysml_name(k) for k in kinds], protocol_enums=[sysml_name(p) for p in enums], protocols=protocols,
        kind_defs=[{"def": KIND_DEF[k], "enum": sysml_name(k)} for k in kinds],
    )


def system_package_name(g: nx.MultiDiGraph) -> str:
    """The system package's name (unquoted): the system name unless it would hide a library package."""
    name = str(g.graph["name"]) or "system"
    if name in LIBRARY_PACKAGES or name == LIBRARY_PACKAGE:
        name = f"{name} system"
    return name


def edge_style(g: nx.MultiDiGraph, source: str, target: str, data: dict[str, object]) -> str:
    """How an edge is written: 'build', 'messaging', 'storage' or 'call'."""
    proto = str(data["protocol"])
    if proto == BUILD_PROTOCOL:
        return "build"
    if proto in MESSAGING or data.get("kind") in ("publishes", "subscribes"):
        return "messaging" if proto in MESSAGING else "call"
    if g.nodes[target]["kind"] in STORE_KINDS:
        return "storage"
    return "call"


def message_topics(data: dict[str, object]) -> tuple[list[str], list[str]]:
    """(topics published, topics subscribed) on a messaging edge.

    The resolver writes ``publishes``/``subscribes`` attributes (a component can do both on one broker
    link); an edge with only ``topic`` is read by its kind (``subscribes`` or else publishing).
    """
    attrs = data.get("attributes") or {}
    pub = split_list(attrs.get("publishes"))  # type: ignore[union-attr]
    sub = split_list(attrs.get("subscribes"))  # type: ignore[union-attr]
    if not pub and not sub:
        topics = split_list(attrs.get("topic"))  # type: ignore[union-attr]
        if data.get("kind") == "subscribes":
            sub = topics
        else:
            pub = topics
    return pub, sub


def split_list(value: object) -> list[str]:
    """An edge attribute holding several values: a comma-separated string or a list; sorted, unique."""
    if value is None:
        return []
    items = value if isinstance(value, (list, tuple, set)) else str(value).split(",")
    return sorted({str(v).strip() for v in items if str(v).strip()})


def _endpoint_label(method: str, path: str) -> str:
    return path if method.upper() == "RPC" else f"{method} {path}"


def _endpoint_counts(ports: list[object]) -> str:
    parts = []
    for port in sorted(ports, key=lambda p: p.protocol):  # type: ignore[attr-defined]
        n = len(port.endpoints)  # type: ignore[attr-defined]
        if not n:
            continue
        if port.protocol == "grpc":  # type: ignore[attr-defined]
            parts.append(f"{n} gRPC method{'s' if n != 1 else ''}")
        else:
            label = protocol_label(port.protocol).replace("the ", "")  # type: ignore[attr-defined]
            parts.append(f"{n} {label} endpoint{'s' if n != 1 else ''}")
    return " and ".join(parts)


def system_def_name(g: nx.MultiDiGraph) -> str:
    """The name of the system's part def: the system name in CamelCase plus ``System`` (``grpc-mesh`` -> ``GrpcMeshSystem``)."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", str(g.graph["name"])) if w]
    name = "".join(w[:1].upper() + w[1:] for w in words) + "System"
    return sysml_ident(name)


def _short(text: str, ident: str, reserved_lower: set[str]) -> str | None:
    """The short name to write for an element named ``ident`` whose real name is ``text`` (None: none)."""
    return text if short_name_ok(text, ident) and not is_basic_name(text) and text.lower() not in reserved_lower \
        else None


def _declared(ident: str, short: str | None) -> str:
    return f"<'{short}'> {ident}" if short else ident  # short_name_ok: no quote or backslash to escape


@dataclass(frozen=True)
class PortNames:
    """The ports of each component's part: a provided port per protocol it serves or is reached over,
    a conjugated client port per outgoing connection (build-time dependencies have none)."""

    namespaces: dict[str, IdentAllocator]  # component id -> the namespace of its part's body
    server_protocols: dict[str, set[str]]  # component id -> protocols of its provided ports
    server: dict[tuple[str, str], str]  # (component id, protocol) -> provided port name
    client: dict[tuple[str, str, str], str]  # edge (source, target, key) -> the source's client port name


def port_names(g: nx.MultiDiGraph, edges: list[tuple[str, str, str, dict]]) -> PortNames:
    """Port names of the top-level graph `g` (its edges sorted): provided ports first, by protocol,
    then client ports in edge order."""
    server_protocols: dict[str, set[str]] = {cid: {p.protocol for p in g.nodes[cid]["ports"]} for cid in g.nodes}
    for u, v, _k, d in edges:
        if edge_style(g, u, v, d) != "build":
            server_protocols[v].add(str(d["protocol"]))
    namespaces = {cid: IdentAllocator(_COMPONENT_FEATURES) for cid in g.nodes}
    server = {}
    for cid in sorted(g.nodes):
        for proto, name in namespaces[cid].take_all([(p, "port") for p in sorted(server_protocols[cid])]).items():
            server[(cid, proto)] = name
    client = {}
    for u, v, k, d in edges:
        if edge_style(g, u, v, d) != "build":
            client[(u, v, k)] = namespaces[u].take(f"to-{v}-{d['protocol']}", "client")
    return PortNames(namespaces=namespaces, server_protocols=server_protocols, server=server, client=client)


@dataclass(frozen=True)
class SystemNames:
    """The declared names of a system package's elements (what other packages reference)."""

    package: str  # the package's declared name
    system_def: str  # the typed top-level part def holding components and connectors
    components: dict[str, str]  # component id -> part name
    connections: dict[tuple[str, str, str], str]  # (source, target, edge key) -> connector name
    topics: dict[str, str]  # topic -> item def name
    markers: dict[str, str]  # repository -> RepositoryMember marker name
    topic_edges: dict[str, list[tuple[str, bool, dict]]]  # topic -> (component, publishes?, edge data)
    package_ns: IdentAllocator  # for the views, allocated after the rest
    messages: MessageNames  # Protocol Buffers message / enum -> item def / enum def name
    typed_apis: dict[str, TypedApi]  # component id -> the typed API of its gRPC port (rpcs read from a .proto)
    ports: PortNames  # each component's ports (and the namespace of its body)
    nesting: Nesting = NO_NESTING  # parts inside components and the links that start or end at them
    typed_http: dict[str, TypedApi] = field(default_factory=dict)  # component id -> the typed API of its HTTP port

    def api(self, cid: str, protocol: str) -> TypedApi | None:
        """The typed API (port def, interface def) of a component's provided port over `protocol`, if it has one."""
        return self.typed_apis.get(cid) if protocol == "grpc" else self.typed_http.get(cid) if protocol == "http" else None

    def connection(self, source: str, target: str, protocol: str) -> str | None:
        """The connector for the model.json connection id parts (the edge key is its protocol)."""
        return self.connections.get((source, target, protocol))


def system_names(g: nx.MultiDiGraph) -> SystemNames:
    """Names for every element of the system package; each depends on the element's own id (stable).

    Top-level names are given first, in the order they always were, so parts inside components
    (named last, see :mod:`repomodeler.emit.nested`) never move a name a model had before."""
    full = g
    g = top_level_view(g)
    reserved = library_names() | {"system", "System"}
    edges = sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    system_def = system_def_name(g)
    if system_def in reserved:
        system_def += "_"
    # components and connections live in the system def, topics, markers and views in the package
    system_ns = IdentAllocator(reserved | {system_def})
    comp_names = system_ns.take_all([(cid, g.nodes[cid]["kind"]) for cid in sorted(g.nodes)])
    conn_names = {(u, v, k): system_ns.take(f"{u}-{v}-{k}", "link") for u, v, k, _d in edges}
    before_package = reserved | {system_def} | set(comp_names.values()) | set(conn_names.values())
    package_ns = IdentAllocator(before_package, inherited=False)
    topic_edges: dict[str, list[tuple[str, bool, dict]]] = {}
    for u, v, _k, d in edges:
        if edge_style(g, u, v, d) == "messaging":
            pub, sub = message_topics(d)
            for topic in pub:
                topic_edges.setdefault(topic, []).append((u, True, d))
            for topic in sub:
                topic_edges.setdefault(topic, []).append((u, False, d))
    topic_names = package_ns.take_all([(t, "topic") for t in sorted(topic_edges)])
    member_repos = sorted({str(g.nodes[c]["repository"]) for c in g.nodes if g.nodes[c]["repository"]})
    marker_names = {r: package_ns.take(f"{r}-repository", "marker") for r in member_repos}
    messages = message_names(list(g.graph.get("messages", [])), package_ns)
    typed: dict[str, TypedApi] = {}
    for cid in sorted(g.nodes):
        grpc = next((p for p in g.nodes[cid]["ports"] if p.protocol == "grpc"), None)
        api = typed_api(cid, grpc, messages, package_ns, _evidence) if grpc is not None else None
        if api is not None:
            typed[cid] = api
    typed_http: dict[str, TypedApi] = {}
    for cid in sorted(g.nodes):
        http = next((p for p in g.nodes[cid]["ports"] if p.protocol == "http"), None)
        api = typed_http_api(cid, http, messages, package_ns, _evidence, str(g.nodes[cid]["name"])) \
            if http is not None else None
        if api is not None:
            typed_http[cid] = api
    ports = port_names(g, edges)
    nesting = NO_NESTING
    if full.number_of_nodes() != g.number_of_nodes():
        # Inside a part, a member named like a package-level definition would hide it from its siblings
        # (typed API ports, repository markers); in the system def, from every connector.
        package_level = package_ns.taken() - before_package
        system_ns.reserve(package_level)
        nesting = nest(full, comp_names, ports.namespaces, system_ns, frozenset(reserved | {system_def} | package_level))
        package_ns.reserve({link.name for link in nesting.links.values() if link.owner is None})
    return SystemNames(package=sysml_ident(system_package_name(g)), system_def=system_def, components=comp_names,
                       connections=conn_names, topics=topic_names, markers=marker_names, topic_edges=topic_edges,
                       package_ns=package_ns, messages=messages, typed_apis=typed, ports=ports, nesting=nesting,
                       typed_http=typed_http)


@dataclass(frozen=True)
class Delegation:
    """Port delegation of the links a part inside a component makes to another component: the part (and
    every part between it and the component) holds a port like the component's client port for that
    connection, and each holder connects its part's port to its own, so the link leaves the component
    through the component's port, as the OMG examples wire nested parts: a ``Delegation`` connection
    from the inner port to the outer one
    (``connection api_to_payments_http_delegation : Delegation connect api.to_payments_http to
    to_payments_http;``; a named connection, since mercurio gives unnamed bindings one id per port)."""

    ports: dict[str, list[tuple[str, str]]]  # nested node id -> (port name, type) it holds
    binds: dict[str, list[str]]  # holder id (a component or a part) -> delegation connections of its body


def delegations(full: nx.MultiDiGraph, names: SystemNames, client_type: dict[tuple[str, str, str], str]) -> Delegation:
    """The delegation ports and binds for every link from a nested part to a top-level component whose
    component-level connection has a client port (`client_type`: edge -> that port's type)."""
    nesting = names.nesting
    parent_of = {c: h for h, cs in nesting.children.items() for c in cs}
    ports: dict[str, list[tuple[str, str]]] = {}
    binds: dict[str, list[str]] = {}
    used: dict[str, set[str]] = {}
    for (src, dst, key), link in sorted(nesting.links.items(), key=lambda x: (x[0][0], x[0][1], str(x[0][2]))):
        if link.owner is not None or src not in parent_of or dst not in names.components:
            continue
        chain = [src]
        while chain[-1] in parent_of:
            chain.append(parent_of[chain[-1]])
        top = chain[-1]
        edge = (top, dst, str(key))
        if edge not in names.ports.client or edge not in client_type:
            continue
        port = names.ports.client[edge]
        # the port's name must be free in every part on the way (no member of that name inside it)
        if any(port in {nesting.members[c] for c in nesting.children.get(n, [])} | SUBSYSTEM_FEATURES
               or port == nesting.members[n] for n in chain[:-1]):
            continue
        for child, holder in zip(chain, chain[1:]):
            if (port, client_type[edge]) in ports.setdefault(child, []):
                continue
            # a named connection (mercurio gives unnamed bindings one id per port): never a name the
            # holder's body already has (its ports, parts, connectors)
            taken = names.ports.namespaces[holder].taken() if holder not in parent_of else \
                {nesting.members[c] for c in nesting.children.get(holder, [])} | \
                {lk.name for lk in nesting.links.values() if lk.owner == holder}
            name = f"{nesting.members[child]}_{port}_delegation"
            if name in taken or name in used.setdefault(holder, set()):
                continue
            used[holder].add(name)
            ports[child].append((port, client_type[edge]))
            binds.setdefault(holder, []).append(
                f"connection {name} : Delegation connect {nesting.members[child]}.{port} to {port};")
    return Delegation(ports, binds)


def nested_render_data(full: nx.MultiDiGraph, names: SystemNames, reserved_lower: set[str],
                       delegation: Delegation | None = None
                       ) -> tuple[dict[str, list[dict[str, object]]], dict[str | None, list[dict[str, object]]]]:
    """The parts inside components and the connectors that start or end at them, ready for the
    template: (holder id -> its nested parts, each with its own parts and connectors; owner id ->
    the connectors declared in its body, None for the system def's).  See emit/nested.py."""
    nesting = names.nesting
    if not nesting.members:
        return {}, {}
    parent_of = {c: h for h, cs in nesting.children.items() for c in cs}

    def label(node: str, owner: str | None) -> str:
        """The node as a reader of the owner's body knows it: its name, with its holders' below the owner."""
        steps = []
        while node != owner:
            steps.append(str(full.nodes[node]["name"]) if full.nodes[node]["name"] != "." else "(root)")
            if node not in parent_of:
                break
            node = parent_of[node]
        return "/".join(reversed(steps))

    shorts: dict[str | None, set[str]] = {}  # short names are member names too: never two alike in a body
    links: dict[str | None, list[dict[str, object]]] = {}
    for (u, v, k), link in sorted(nesting.links.items(), key=lambda x: (x[0][0], x[0][1], str(x[0][2]))):
        d = full.edges[u, v, k]
        proto, attrs = str(d["protocol"]), d["attributes"]
        src, dst = label(u, link.owner), label(v, link.owner)
        imports = proto == "import" and full.nodes[u]["kind"] == full.nodes[v]["kind"] == "subsystem"
        shown = _evidence(d["evidence"], limit=IMPORT_EVIDENCE if imports else MAX_EVIDENCE)
        if imports:
            count = int(attrs["imports"]) if str(attrs.get("imports", "")).isdigit() else len(d["evidence"])
            cdef, values = "ImportLink", [{"name": "imports", "value": str(count)}]
            doc = f"{src} imports {dst}: {count} import statement{'s' if count != 1 else ''}"
            if count > len(shown):
                doc += f", {count - len(shown)} more not listed"
        else:
            cdef, values = "PartLink", [{"name": "protocol", "value": sysml_string(proto)}]
            doc = f"{src} {_VERB.get(str(d['kind']), 'connects to')} {dst} over {protocol_label(proto)}"
            called = split_list(attrs.get("endpoints"))
            if called:
                doc += ": " + ", ".join(called)
            via = str(attrs.get("via", ""))
            if via and via != "literal":
                doc += f" ({via})"
            if len(d["evidence"]) > MAX_EVIDENCE:
                doc += f"; {len(d['evidence']) - MAX_EVIDENCE} more source locations in model.json"
        short = _short(f"{u}-{v}-{k}", link.name, reserved_lower)
        taken = shorts.setdefault(link.owner, set(full.nodes) if link.owner is None else set())
        if short is not None and short in taken:
            short = None
        taken.add(short or "")
        links.setdefault(link.owner, []).append({
            "keyword": "connection", "name": _declared(link.name, short), "ident": link.name, "short": short,
            "def": cdef,
            "ends": f"{'.'.join(link.source)} to {'.'.join(link.target)}", "doc": sysml_doc(doc + "."), "flows": [],
            "evidence": shown, "attributes": values})

    def part(node: str, holder: str, member_shorts: set[str]) -> dict[str, object]:
        d = full.nodes[node]
        attrs: dict[str, str] = d["attributes"]
        name, kind = str(d["name"]), str(d["kind"])
        holder_label = str(full.nodes[holder]["name"]) if holder not in parent_of else holder
        if kind == "subsystem":
            cdef = "Subsystem"
            values = [{"name": "path", "value": sysml_string(attrs["path"])}] if attrs.get("path") else []
            if str(attrs.get("files", "")).isdigit():
                values.append({"name": "files", "value": str(int(attrs["files"]))})
            if d["language"]:
                values.append({"name": "'language'", "value": sysml_string(d["language"])})
            for key, attr in (("endpoints", "endpoints"), ("package", "packageName")):
                if attrs.get(key):
                    values.append({"name": attr, "value": sysml_string(attrs[key])})
            doc = f"Subsystem '{name}' of {holder_label}"
            if attrs.get("purpose"):
                doc += f": {str(attrs['purpose']).rstrip('.')}"
            elif attrs.get("path"):
                doc += f", the code in {'folder ' + attrs['path'] if attrs['path'] != '.' else 'the root folder'}"
        else:
            cdef, values = KIND_DEF.get(kind, "Service"), component_attributes(d)
            doc = f"{kind.capitalize()} '{name}' inside {holder_label}"
            if attrs.get("technology"):
                doc += f" ({attrs['technology']})"
        if len(d["evidence"]) > MAX_EVIDENCE:
            doc += f"; {len(d['evidence']) - MAX_EVIDENCE} more source locations in model.json"
        member = nesting.members[node]
        short = _short(node, member, reserved_lower)
        if short is not None and short in member_shorts:
            short = None
        member_shorts.add(short or "")
        inner: set[str] = set(nesting.members[c] for c in nesting.children.get(node, []))
        return {"name": _declared(member, short), "def": cdef, "doc": sysml_doc(doc + "."),
                "evidence": _evidence(d["evidence"]), "attributes": values,
                "ports": [{"name": n, "type": t} for n, t in (delegation.ports.get(node, []) if delegation else [])],
                "binds": delegation.binds.get(node, []) if delegation else [],
                "parts": [part(c, node, inner) for c in nesting.children.get(node, [])],
                "links": links.get(node, [])}

    parts: dict[str, list[dict[str, object]]] = {}
    for holder in sorted(h for h in nesting.children if h not in parent_of):
        member_shorts = set(nesting.members[c] for c in nesting.children[holder])
        parts[holder] = [part(c, holder, member_shorts) for c in nesting.children[holder]]
    return parts, links


def component_attributes(d: dict[str, object], namespace: IdentAllocator | None = None) -> list[dict[str, str]]:
    """The attribute values a Component part redefines (repository, language, technology, image) and its
    published ports, each a ``PortMapping`` subsetting ``publishedPorts`` named in `namespace`."""
    attrs = []
    if d["repository"]:
        attrs.append({"name": "repository", "value": sysml_string(d["repository"])})
    if d["language"]:
        attrs.append({"name": "'language'", "value": sysml_string(d["language"])})
    extra: dict[str, str] = d["attributes"]  # type: ignore[assignment]
    for key, attr in (("technology", "technology"), ("image", "image")):
        if extra.get(key):
            attrs.append({"name": attr, "value": sysml_string(extra[key])})
    attrs.extend(published_ports(extra.get("ports", ""), namespace or IdentAllocator(_COMPONENT_FEATURES)))
    return attrs


def published_ports(text: str, namespace: IdentAllocator) -> list[dict[str, str]]:
    """``attribute port_8080 :> publishedPorts { :>> containerPort = 80; :>> hostPort = 8080; }`` per
    mapping of a descriptor's ports (emit/values.py); what does not parse is left out (the doc says it)."""
    out = []
    for m in port_mappings(text)[0]:
        values = [f":>> containerPort = {m.container};"]
        if m.host is not None:
            values.append(f":>> hostPort = {m.host};")
        if m.transport:
            values.append(f":>> transport = {sysml_string(m.transport)};")
        out.append({"name": "", "value": "",
                    "decl": f"{namespace.take(f'port-{m.label}', 'mapping')} :> publishedPorts {{ {' '.join(values)} }}"})
    return out


def untyped_ports(d: dict[str, object]) -> str:
    """The published ports of a component no PortMapping could say (a range, a variable), for its doc."""
    other = port_mappings(str(d["attributes"].get("ports", "")))[1]  # type: ignore[union-attr]
    return f"; published ports not typed: {', '.join(other)}" if other else ""


def workload_sizing(attrs: dict[str, str]) -> tuple[list[dict[str, str]], list[str]]:
    """Replicas (Natural), cpu requests and limits (Real cores) and memory requests and limits
    (MemorySize in bytes) of a Kubernetes workload; the values that do not parse, for its doc."""
    out, other = [], []
    for key, attr, parse, unit in (("replicas", "replicas", natural, ""), ("cpu_request", "cpuRequest", cpu_cores, ""),
                                   ("cpu_limit", "cpuLimit", cpu_cores, ""),
                                   ("memory_request", "memoryRequest", memory_bytes, " [SI::byte]"),
                                   ("memory_limit", "memoryLimit", memory_bytes, " [SI::byte]")):
        if not attrs.get(key):
            continue
        value = parse(attrs[key])
        if value is None:
            other.append(f"{key.replace('_', ' ')} {attrs[key]}")
        else:
            out.append({"name": attr, "value": value + unit})
    return out, other


def _is_descriptor(path: str) -> bool:
    """A deployment descriptor (compose file, Kubernetes manifest, Dockerfile), not application config."""
    base = path.rsplit("/", 1)[-1].lower()
    if "compose" in base or base.startswith("dockerfile"):
        return True
    return base.endswith((".yml", ".yaml")) and not base.startswith(("application", "bootstrap", ".env"))


def render_system(g: nx.MultiDiGraph) -> str:
    full = g
    g = top_level_view(g)
    repos = g.graph["repositories"]
    reserved_lower = {r.lower() for r in library_names() | {"system", "System"}}
    edges = sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    names = system_names(full)
    system_def, comp_names, conn_names = names.system_def, names.components, names.connections
    topic_edges, topic_names, marker_names, package_ns = names.topic_edges, names.topics, names.markers, names.package_ns
    typed = names.typed_apis

    def typed_port(cid: str, proto: str) -> str:
        api = names.api(cid, proto)
        return api.port_def if api is not None else port_def(proto)
    q = dict(comp_names)

    # ---- components and their ports
    server_protocols, server_port_name = names.ports.server_protocols, names.ports.server
    client_port_of = names.ports.client
    client_ports: dict[str, list[dict[str, object]]] = {cid: [] for cid in g.nodes}
    for u, v, k, d in edges:
        if (u, v, k) in client_port_of:
            client_ports[u].append({"name": client_port_of[(u, v, k)], "type": "~" + typed_port(v, str(d["protocol"])),
                                    "endpoints": [], "evidence": _evidence(d["evidence"], limit=1)})
    delegation = delegations(full, names, {(u, v, k): "~" + typed_port(v, str(d["protocol"]))
                                           for u, v, k, d in edges if (u, v, k) in client_port_of})
    nested_parts, nested_links = nested_render_data(full, names, reserved_lower, delegation)

    components = []
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        provided = {p.protocol: p for p in d["ports"]}
        ports = []
        for proto in sorted(server_protocols[cid]):
            port = provided.get(proto)
            ep_ns = IdentAllocator(_PORT_FEATURES)
            eps = []
            # every endpoint the code serves is listed with its evidence, also the rpcs of an
            # infrastructure API the library types once (GrpcHealthApi): the port's type says what they
            # carry, the endpoint says this component serves them (and reads back as it was analysed)
            for ep in sorted(port.endpoints, key=lambda e: (e.path, e.method)) if port else []:
                eps.append({"name": ep_ns.take(_endpoint_label(ep.method, ep.path), "endpoint"),
                            "method": sysml_string(ep.method), "path": sysml_string(ep.path),
                            "evidence": _evidence(ep.evidence, limit=2)})
            # endpoints carry their own evidence; a port without endpoints shows where it was declared
            port_ev = _evidence(port.evidence, limit=1) if port and not eps else []
            ports.append({"name": server_port_name[(cid, proto)], "type": typed_port(cid, proto),
                          "endpoints": eps, "evidence": port_ev})
        ports.extend(sorted(client_ports[cid], key=lambda p: str(p["name"])))
        attrs = component_attributes(d, names.ports.namespaces[cid])
        where = ", ".join(sorted({f"{e.repository}:{e.path}" for e in d["evidence"]})[:3])
        doc = f"{d['kind'].capitalize()} '{d['name']}'"
        if d["name"] != cid:
            doc += f" (id {cid})"
        if d["language"]:
            doc += f" written in {d['language']}"
        if d["attributes"].get("technology"):
            doc += f" ({d['attributes']['technology']})"
        if where:
            doc += f", found in {where}"
        counts = _endpoint_counts(list(d["ports"]))
        if counts:
            doc += f"; provides {counts}"
        doc += untyped_ports(d)
        if len(d["evidence"]) > MAX_EVIDENCE:
            doc += f"; {len(d['evidence']) - MAX_EVIDENCE} more source locations in model.json"
        components.append({"name": _declared(q[cid], _short(cid, q[cid], reserved_lower)),
                           "def": KIND_DEF.get(d["kind"], "Service"), "doc": sysml_doc(doc + "."),
                           "marker": marker_names.get(str(d["repository"])) if d["repository"] else None,
                           "evidence": _evidence(d["evidence"]), "attributes": attrs, "ports": ports,
                           "parts": nested_parts.get(cid, []), "links": nested_links.get(cid, []),
                           "binds": delegation.binds.get(cid, [])})

    # ---- connectors (the short name keeps the '<source>-<target>-<protocol>' id readers and the viewer know)
    # A connection a subsystem's code makes is repeated from that subsystem (see emit/nested.py).
    traced: dict[tuple[str, str, str], list[str]] = {}
    for (src, dst, key), link in names.nesting.links.items():
        holder = holder_of(full, src)
        if link.owner is None and len(link.source) == 2 and dst in comp_names and \
                full.nodes[src]["kind"] == "subsystem" and holder in comp_names:
            traced.setdefault((str(holder), dst, key), []).append(src)
    connections = []
    comp_ids, conn_shorts = set(g.nodes), set()
    for u, v, k, d in edges:
        style = edge_style(g, u, v, d)
        proto = str(d["protocol"])
        src, dst = g.nodes[u]["name"], g.nodes[v]["name"]
        attrs = d["attributes"]
        via = str(attrs.get("via", ""))
        flows: list[dict[str, str]] = []
        if style == "build":
            doc = f"{src} is built with the library {dst} (build-time dependency, no runtime traffic)"
            keyword, cdef = "connection", "LibraryLink"
            ends = f"{q[u]} to {q[v]}"
        else:
            client = f"{q[u]}.{client_port_of[(u, v, k)]}"
            server = f"{q[v]}.{server_port_name[(v, proto)]}"
            pub, sub = message_topics(d) if style == "messaging" else ([], [])
            if pub or sub:
                what = ([f"publishes {', '.join(pub)}"] if pub else []) + \
                    ([f"subscribes to {', '.join(sub)}"] if sub else [])
                doc = f"{src} {' and '.join(what)} through {dst} over {protocol_label(proto)}"
                # named flows (publish_<topic>, deliver_<topic>): mercurio gives unnamed ones one id
                flow_ns = IdentAllocator({"client", "server"})
                flows = [{"name": flow_ns.take(f"publish_{topic_names[t]}", "flow"), "item": topic_names[t],
                          "source": "client.publish", "target": "server.publish"} for t in pub] + \
                        [{"name": flow_ns.take(f"deliver_{topic_names[t]}", "flow"), "item": topic_names[t],
                          "source": "server.deliver", "target": "client.deliver"} for t in sub]
            else:
                doc = f"{src} {_VERB.get(str(d['kind']), 'connects to')} {dst} over {protocol_label(proto)}"
            called = split_list(attrs.get("endpoints"))
            if called:
                doc += ": " + ", ".join(called)
            if style == "storage":
                keyword, cdef = "connection", port_def(proto).replace("Api", "Access")
                ends = f"{client} to {server}"
            else:
                api = names.api(v, proto)
                keyword, cdef = "interface", (api.link_def if api is not None else port_def(proto).replace("Api", "Link"))
                ends = f"client ::> {client} to server ::> {server}"
        if via and via != "literal":
            doc += f" ({via})"
        made_in = sorted(str(full.nodes[s]["name"]) if full.nodes[s]["name"] != "." else "(root)"
                         for s in traced.get((u, v, k), ()))
        if made_in:
            doc += f"; made in subsystem{'s' if len(made_in) > 1 else ''} {', '.join(made_in)}"
        if len(d["evidence"]) > MAX_EVIDENCE:
            doc += f"; {len(d['evidence']) - MAX_EVIDENCE} more source locations in model.json"
        conn_id = f"{u}-{v}-{k}"
        short = _short(conn_id, conn_names[(u, v, k)], reserved_lower)
        if short is not None and (short in comp_ids or short in conn_shorts):
            short = None  # short names are member names too: never two alike in one namespace
        conn_shorts.add(short or "")
        connections.append({"keyword": keyword, "name": _declared(conn_names[(u, v, k)], short), "def": cdef,
                            "ends": ends, "doc": sysml_doc(doc + "."), "flows": flows,
                            "evidence": _evidence(d["evidence"]), "attributes": []})
    for link in nested_links.get(None, []):  # links of parts inside components
        if link["short"] is not None and link["short"] in conn_shorts | comp_ids:
            link = {**link, "name": link["ident"]}
        connections.append(link)

    # ---- topics
    topics = []
    for t in sorted(topic_edges):
        uses = topic_edges[t]
        producers = sorted({g.nodes[u]["name"] for u, publishes, _d in uses if publishes})
        consumers = sorted({g.nodes[u]["name"] for u, publishes, _d in uses if not publishes})
        text = f"Messages on topic {t}"
        if producers:
            text += f", published by {', '.join(producers)}"
        if consumers:
            text += f", consumed by {', '.join(consumers)}"
        ev = sorted({e for _u, _p, d in uses for e in d["evidence"]})
        topics.append({"name": _declared(topic_names[t], _short(t, topic_names[t], reserved_lower)),
                       "topic": sysml_string(t), "doc": sysml_doc(text + "."), "evidence": _evidence(ev, limit=2)})

    # ---- deployment: a workload per deployed component (compose service, Kubernetes workload), each
    # component allocated to its workload
    deployed = [cid for cid in sorted(g.nodes) if g.nodes[cid]["attributes"].get("deployment")]
    deployment: dict[str, object] | None = None
    if deployed:
        def_name = package_ns.take(system_def[: -len("System")] + "Deployment" if system_def.endswith("System")
                                   else system_def + "Deployment", "deployment")
        usage = package_ns.take("deployment", "usage")
        workloads, allocations = [], []
        for cid in deployed:
            d = g.nodes[cid]
            attrs = [{"name": "platform", "value": sysml_string(d["attributes"]["deployment"])}]
            if d["attributes"].get("image"):
                attrs.append({"name": "image", "value": sysml_string(d["attributes"]["image"])})
            sizing, unread = workload_sizing(d["attributes"])
            attrs.extend(sizing)
            attrs.extend(published_ports(d["attributes"].get("ports", ""), IdentAllocator(_WORKLOAD_FEATURES)))
            descriptors = [e for e in d["evidence"] if _is_descriptor(e.path)]
            wdoc = f"{cid} deployed with {d['attributes']['deployment']}" + untyped_ports(d)
            if unread:
                wdoc += f"; not read as quantities: {', '.join(unread)}"
            workloads.append({"name": _declared(q[cid], _short(cid, q[cid], reserved_lower)), "attributes": attrs,
                              "evidence": _evidence(descriptors, limit=2), "doc": sysml_doc(wdoc + ".")})
            allocations.append({"name": package_ns.take(f"{cid}-deployed", "allocation"),
                                "component": q[cid], "workload": q[cid]})
        deployment = {"def": def_name, "usage": usage, "workloads": workloads, "allocations": allocations,
                      "doc": sysml_doc(f"How {g.graph['name']} is deployed: {len(workloads)} workload"
                                       f"{'s' if len(workloads) != 1 else ''}, each component allocated to its own.")}

    # ---- views: one interconnection view, one filtered tree view per repository with components
    interconnection = package_ns.take("interconnection", "view")
    repo_views, markers = [], []
    for repo in repos:
        marker = marker_names.get(repo["name"])
        if marker is None:
            continue
        markers.append({"name": marker, "repository": sysml_string(repo["name"]),
                        "doc": sysml_doc(f"Marks the components of repository {repo['name']}.")})
        repo_views.append({"name": package_ns.take(f"tree-{repo['name']}", "view"), "marker": marker,
                           "doc": sysml_doc(f"Components found in repository {repo['name']}.")})
    tree_views = []
    for cid in sorted(nested_parts):
        inside: dict[str, int] = {}
        stack = list(names.nesting.children.get(cid, []))
        while stack:
            node = stack.pop()
            kind = str(full.nodes[node]["kind"])
            inside[kind] = inside.get(kind, 0) + 1
            stack.extend(names.nesting.children.get(node, []))
        what = ", ".join(f"{n} {k}{'s' if n != 1 else ''}"
                         for k, n in sorted(inside.items()))
        tree_views.append({"name": package_ns.take(f"{cid}-tree", "view"), "expose": f"{system_def}::{q[cid]}::**",
                           "doc": sysml_doc(f"{g.nodes[cid]['name']} and the parts inside it ({what}), as a tree.")})
    doc = "Architecture of " + str(g.graph["name"]) + " recovered by repomodeler from " + ", ".join(
        f"{r['name']}@{(r['commit'] or 'working tree')[:12]}" for r in repos) + "."
    system_doc = (f"The analysed system: {len(components)} components and {len(edges)} connections "
                  f"found in {len(repos)} repositor{'y' if len(repos) == 1 else 'ies'}.")
    package = system_package_name(g)
    package_ident = sysml_ident(package)
    repositories = [{"name": sysml_string(r["name"]), "url": sysml_string(r["url"]) if r.get("url") else "",
                     "commit": sysml_string(r["commit"]) if r.get("commit") else ""} for r in repos]
    declared = declared_with_short(reserved_lower)
    messages = render_messages(list(g.graph.get("messages", [])), names.messages, _evidence, declared)
    apis = [typed[cid].own for cid in sorted(typed) if typed[cid].own] + \
        [names.typed_http[cid].own for cid in sorted(names.typed_http) if names.typed_http[cid].own]
    return _env().get_template("system.sysml.j2").render(
        messages=messages, apis=apis,
        package=package_ident, doc=sysml_doc(doc),  # no short name: mercurio rejects one on a package
        repositories=repositories, markers=markers, system_def=system_def, system_doc=system_doc, topics=topics,
        components=components, connections=connections, interconnection=interconnection, repo_views=repo_views,
        tree_views=tree_views,
        deployment=deployment,
    )


LIBRARY_FILE = f"{LIBRARY_PACKAGE}.sysml"


def render_sysml(g: nx.MultiDiGraph) -> str:
    """``model.sysml``: the system package alone.  It imports the ``RepoModeler`` library package, which
    ships in its own file (:data:`LIBRARY_FILE`, :func:`render_library`) beside it: one top-level package
    per file, which every reader handles (mercurio keeps only the first package of a file)."""
    return render_system(g)


def model_files(g: nx.MultiDiGraph) -> dict[str, str]:
    """The files of a model folder: ``model.sysml`` and ``RepoModeler.sysml`` (load them together)."""
    return {LIBRARY_FILE: render_library(), "model.sysml": render_system(g)}


def system_file_stem(g: nx.MultiDiGraph) -> str:
    stem = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in system_package_name(g)).strip(".") or "system"
    return stem + "-system" if stem == LIBRARY_PACKAGE else stem


def sysml_files(g: nx.MultiDiGraph) -> dict[str, str]:
    """One file per package, keyed by file name: ``RepoModeler.sysml`` and ``<system>.sysml``."""
    return {LIBRARY_FILE: render_library(), f"{system_file_stem(g)}.sysml": render_system(g)}
