"""Typed APIs in the SysML: Protocol Buffers messages as item defs, a gRPC port def per service API.

A component whose gRPC port has rpcs read from a ``.proto`` gets a port def of its own
(``port def CartServiceApi :> GrpcApi``) with an ``in item`` per rpc request and an ``out item`` per
response, each typed by the item def of its message and subsetting the library's ``request`` /
``response``; an interface def beside it (``CartServiceLink :> GrpcLink``) redefines the ends with that
port def and carries a typed ``flow`` per request and response, so every connector to that component
carries the typed flows.  Messages become ``item def``s specializing ``ProtoMessage`` with a feature per
field (scalars typed by ScalarValues, messages as items, enums as enum defs, repeated fields ``[0..*]``).

Infrastructure APIs are declared once, in the library: the standard health service
``grpc.health.v1.Health`` is ``GrpcHealthApi``/``GrpcHealthLink`` with its messages; a service port that
also serves it specializes those instead of repeating them (its port still lists the health endpoints it
serves, with their evidence).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repomodeler.emit.names import IdentAllocator, is_basic_name, short_name_ok, sysml_doc, sysml_string
from repomodeler.records import Endpoint, MessageType, Port

# proto package -> (library port def, library interface def) for APIs the library declares once.
INFRASTRUCTURE: dict[str, tuple[str, str]] = {"grpc.health.v1": ("GrpcHealthApi", "GrpcHealthLink")}
# Messages and enums of those packages -> their library definition.
LIBRARY_TYPES: dict[str, str] = {
    "grpc.health.v1.HealthCheckRequest": "HealthCheckRequest",
    "grpc.health.v1.HealthCheckResponse": "HealthCheckResponse",
    "grpc.health.v1.HealthCheckResponse.ServingStatus": "HealthServingStatus",
}
LIBRARY_ENUMS = {"HealthServingStatus"}
# Names the library declares for these (the system package must not shadow them).
LIBRARY_NAMES = {"ProtoMessage", "GrpcHealthApi", "GrpcHealthLink", "HttpMethod", "HttpRequest", "HttpResponse",
                 "ApiSchema", *LIBRARY_TYPES.values()}
# HTTP methods the library's HttpMethod enum names (ANY: a route that takes every method).
HTTP_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "ANY")
# Features the library's GrpcHealthApi / GrpcHealthLink declare (a service rpc must not take these names).
_HEALTH_FEATURES = {"Check_request", "Check_response", "Watch_request", "Watch_response"}
_PORT_FEATURES = {"protocol", "request", "response", "publish", "deliver", "client", "server"}
SCALAR_TYPES = {"double": "Real", "float": "Real", "int32": "Integer", "int64": "Integer", "sint32": "Integer",
                "sint64": "Integer", "sfixed32": "Integer", "sfixed64": "Integer", "uint32": "Natural",
                "uint64": "Natural", "fixed32": "Natural", "fixed64": "Natural", "bool": "Boolean", "string": "String"}


@dataclass
class TypedApi:
    """The port def and interface def of one component's gRPC port."""

    port_def: str  # what the provided port is typed by (own def, or the library's GrpcHealthApi)
    link_def: str  # what connectors to it are typed by
    own: dict[str, object] | None = None  # template data when the def is the system package's own


def is_infrastructure(ep: Endpoint) -> bool:
    return ep.method == "RPC" and ep.package in INFRASTRUCTURE


def _camel(text: str) -> str:
    return "".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]+", text) if w)


def _local(name: str) -> str:
    """``hipstershop.Money`` -> ``Money``; ``pkg.Outer.Inner`` -> ``Outer_Inner`` (message names are CamelCase,
    packages lower case: the first capitalised segment starts the message's own name)."""
    parts = name.split(".")
    start = next((i for i, p in enumerate(parts) if p[:1].isupper()), len(parts) - 1)
    return "_".join(parts[start:])


@dataclass
class MessageNames:
    """Item def / enum def names of the messages in the system package."""

    names: dict[str, str]  # qualified name -> declared name

    def type_of(self, qualified: str) -> str | None:
        return LIBRARY_TYPES.get(qualified) or self.names.get(qualified)


def message_names(messages: list[MessageType], ns: IdentAllocator) -> MessageNames:
    """Names in the system package: the message's own name (``Money``), qualified by its nesting
    (``Outer_Inner``); a second ``Money`` of another package gets a suffix from its text."""
    own = sorted(m.name for m in messages if m.name not in LIBRARY_TYPES and m.package not in INFRASTRUCTURE)
    return MessageNames({name: ns.take(_local(name), "message") for name in own})


def render_messages(messages: list[MessageType], names: MessageNames, evidence, declared) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Template data for the item defs and enum defs, sorted by qualified name."""
    kinds = {m.name: m.kind for m in messages}
    out = []
    for m in messages:
        ident = names.names.get(m.name)
        if ident is None:
            continue
        # tree-sitter-sysml takes no metadata inside an enum def: its SourceRef is a `metadata ... about` beside it
        what = f"a Protocol Buffers {m.kind}"
        if m.kind == "schema":  # from an OpenAPI document, or a class a handler takes or returns (graph/dtos.py)
            document = m.evidence.path.lower().endswith((".yaml", ".yml", ".json"))
            what = "an OpenAPI schema" if document else "a request or response body type declared in code"
        entry: dict[str, object] = {"name": declared(ident, m.name), "ident": ident, "kind": m.kind, "evidence": evidence([m.evidence]),
                                    "base": "ApiSchema" if m.kind == "schema" else "ProtoMessage",
                                    "doc": sysml_doc(f"{m.name}: {what} ({m.evidence.path} line {m.evidence.line}).")}
        if m.kind == "enum":
            value_ns = IdentAllocator()
            entry["values"] = [declared(value_ns.take(v, "value"), v) for v in m.values]
        else:
            field_ns = IdentAllocator()
            fields = []
            for f in m.fields:
                ident_f = field_ns.take(f.name, "field")
                mult = "[0..*]" if f.repeated else ""
                target = names.type_of(f.type)
                if f.type in SCALAR_TYPES:
                    text = f"attribute {declared(ident_f, f.name)} : {SCALAR_TYPES[f.type]}{mult};"
                elif target and (kinds.get(f.type) == "enum" or target in LIBRARY_ENUMS):
                    text = f"attribute {declared(ident_f, f.name)} : {target}{mult};"
                elif target and target in (ident_f, f.name):
                    # a field named like its own type (`Dec: Dec`): under that name the type reference would find
                    # the field itself, so the field takes another name
                    text = f"item {field_ns.take(f'{f.name}_value', 'field')} : {target}{mult};"
                elif target:
                    text = f"item {declared(ident_f, f.name)} : {target}{mult};"
                elif m.kind == "schema":  # an object, a oneOf, a type the document does not name
                    text = f"attribute {declared(ident_f, f.name)}{mult} {{ doc /* {sysml_doc(f.type or 'untyped')} {sysml_doc(f.name)} */ }}"
                else:  # bytes, or a type the repositories do not define (google.protobuf.Timestamp...)
                    text = f"attribute {declared(ident_f, f.name)}{mult} {{ doc /* {f.type} {f.name} = {f.number} */ }}"
                fields.append(text)
            entry["fields"] = fields
        out.append(entry)
    return out


def typed_api(component: str, port: Port, names: MessageNames, ns: IdentAllocator, evidence) -> TypedApi | None:  # type: ignore[no-untyped-def]
    """The typed API of a component's gRPC port, or None when none of its rpcs was read from a .proto."""
    rpcs = [ep for ep in sorted(port.endpoints, key=lambda e: (e.path, e.method)) if ep.method == "RPC" and ep.package]
    if not rpcs:
        return None
    infra = sorted({ep.package for ep in rpcs if is_infrastructure(ep)})
    own_rpcs = [ep for ep in rpcs if not is_infrastructure(ep)]
    base_port, base_link = INFRASTRUCTURE[infra[0]] if infra else ("GrpcApi", "GrpcLink")
    if not own_rpcs:
        return TypedApi(base_port, base_link, None)
    services = sorted({ep.path.split("/", 1)[0] for ep in own_rpcs})
    stem = services[0] if len(services) == 1 else _camel(component) + "Grpc"
    if not stem.endswith("Api"):
        stem += "Api"
    port_def = ns.take(stem, "api")
    link_def = ns.take(stem[: -len("Api")] + "Link", "link")
    member_ns = IdentAllocator(_PORT_FEATURES | (_HEALTH_FEATURES if infra else set()))
    items, flows = [], []
    for ep in own_rpcs:
        service, _, rpc = ep.path.partition("/")
        label = rpc if len(services) == 1 else f"{service}_{rpc}"
        for side, direction, written in (("request", "in", ep.request), ("response", "out", ep.response)):
            name = member_ns.take(f"{label}_{side}", side)
            type_ = names.type_of(written) or "ProtoMessage"
            streamed = ep.stream in (side, "both")
            doc = f"rpc {ep.path} ({ep.package}): {side}{' stream' if streamed else ''} {written or 'not read'}"
            items.append({"direction": direction, "name": name, "type": type_, "subsets": side, "doc": doc,
                          "values": [], "evidence": evidence(ep.evidence, limit=1)})
            src, dst = ("client", "server") if side == "request" else ("server", "client")
            flows.append({"name": name, "item": type_, "source": f"{src}.{name}", "target": f"{dst}.{name}"})
    package_of = {ep.path.split("/", 1)[0]: ep.package for ep in own_rpcs}
    what = ", ".join(f"{package_of[s]}.{s}" for s in services)
    count = f"{len(own_rpcs)} rpc{'s' if len(own_rpcs) != 1 else ''}"
    also = f"; it also serves {', '.join(infra)} (see {base_port})" if infra else ""
    own = {"port": port_def, "link": link_def, "base_port": base_port, "base_link": base_link, "items": items,
           "flows": flows,
           "port_doc": f"The gRPC API {component} provides: {what} ({count}), each rpc's request in and response out, typed by its message{also}.",
           "link_doc": f"A client calling {component} over gRPC ({what}): each rpc's request flows from the client to the server, its response back."}
    return TypedApi(port_def, link_def, own)


def declared_with_short(reserved_lower: set[str]):  # type: ignore[no-untyped-def]
    """``declared(ident, real)``: ``<'real'> ident`` when the real name says more than the identifier."""
    def declared(ident: str, real: str) -> str:
        if short_name_ok(real, ident) and not is_basic_name(real) and real.lower() not in reserved_lower:
            return f"<'{real}'> {ident}"
        return ident
    return declared



def typed_http_api(component: str, port: Port, names: MessageNames, ns: IdentAllocator, evidence,  # type: ignore[no-untyped-def]
                   label: str) -> TypedApi | None:
    """The typed API of a component's HTTP port: a port def with an ``in item`` per operation (an
    ``HttpRequest`` with its method, path and, when an OpenAPI document or a framework DTO says it, the
    body's item def) and an ``out item`` per response (``HttpResponse``, its body typed likewise), and
    an interface def carrying a flow per request and response.  None when the port has no endpoints."""
    ops = sorted(port.endpoints, key=lambda e: (e.path, e.method))
    if not ops:
        return None
    stem = _camel(component) + "HttpApi"
    port_def = ns.take(stem, "api")
    link_def = ns.take(stem[: -len("Api")] + "Link", "link")
    member_ns = IdentAllocator(_PORT_FEATURES)
    items, flows = [], []
    for ep in ops:
        method = ep.method.upper()
        what = f"{method} {ep.path}" if method else ep.path
        for side, direction, body in (("request", "in", ep.request), ("response", "out", ep.response)):
            name = member_ns.take(f"{what}_{side}", side)
            type_ = "HttpRequest" if side == "request" else "HttpResponse"
            values = []
            if side == "request":
                if method in HTTP_METHODS:
                    values.append(f"attribute :>> method = HttpMethod::{method};")
                values.append(f"attribute :>> path = {_string(ep.path)};")
            body_type = names.type_of(body) if body else None
            if body_type:
                values.append(f"item :>> body : {body_type};")
            # one line each: the method and path say which operation it is, and its evidence is on the
            # endpoint the port usage lists (a big system's text stays compact)
            head = f"{direction} item {name} : {type_} :> {side}"
            items.append({"line": f"{head} {{ {' '.join(values)} }}" if values else f"{head};"})
            src, dst = ("client", "server") if side == "request" else ("server", "client")
            flows.append({"name": name, "item": type_, "source": f"{src}.{name}", "target": f"{dst}.{name}"})
    typed = sum(1 for ep in ops if ep.request or ep.response)
    count = f"{len(ops)} operation{'s' if len(ops) != 1 else ''}"
    bodies = f", {typed} with typed bodies" if typed else ""
    own = {"port": port_def, "link": link_def, "base_port": "HttpApi", "base_link": "HttpLink", "items": items,
           "flows": flows,
           "port_doc": sysml_doc(f"The HTTP API {label} provides ({count}{bodies}): each operation's request in, "
                                 "with its method and path, and its response out."),
           "link_doc": sysml_doc(f"A client calling {label} over HTTP: each operation's request flows from the client "
                                 "to the server, its response back.")}
    return TypedApi(port_def, link_def, own)


def _string(text: str) -> str:
    return sysml_string(text)
