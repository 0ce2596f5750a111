"""Scaffold an editable target architecture from a current model.

From a model folder (model.sysml beside model.json) the scaffold specializes the model's own system
def (:func:`render_specialized_target`): ``part def ShopTargetSystem :> shop::ShopSystem``, empty but
for its doc, so the target has every part, typed port def (gRPC service and HTTP operation port defs),
interface and value of the model without copying them, and follows the model when it is analysed
again.  The user's edits are the body: parts and connections added, ``part :>> inventory[0];``
retiring one.  ``target init`` copies model.sysml beside the target so both files load together
(:func:`repomodeler.sysml_reader.sibling_packages` finds it when the target is read).

Without a model.sysml (a run, a bare model.json) the scaffold is a copy instead
(:func:`render_target`): the current architecture without provenance noise (no ``@SourceRef``, no
generated docs), in the same vocabulary as emitted models: a ``<system>Target`` package importing the
``RepoModeler`` library (``target init`` writes ``RepoModeler.sysml`` beside the target, as ``analyze``
does beside ``model.sysml``), whose system part def a user edits: add a part, retype an ``interface``
from ``HttpLink`` to ``GrpcLink``, delete what should go.  ``repomodeler diff`` and ``check`` read it back.
"""

from __future__ import annotations

import re

from repomodeler.emit.names import IdentAllocator, is_basic_name, short_name_ok, sysml_doc, sysml_ident, sysml_string
from repomodeler.emit.sysml import (_COMPONENT_FEATURES, _PORT_FEATURES, BUILD_PROTOCOL, KIND_DEF, MESSAGING, STORE_KINDS,
                                   library_names, port_def, render_library)
from repomodeler.diff.view import ArchModel

ATTRIBUTES = (("language", "'language'"), ("technology", "technology"), ("image", "image"))


def library_from_sysml(text: str) -> str | None:
    """The ``package RepoModeler { ... }`` text of an emitted model.sysml, byte for byte (None if absent)."""
    from repomodeler.sysml_reader import _parser

    src = text.encode("utf-8")
    for node in _parser().parse(src).root_node.named_children:
        if node.type == "package_definition":
            ident = next((c for c in node.named_children if c.type == "identification"), None)
            if ident is not None and src[ident.start_byte:ident.end_byte].decode("utf-8").strip() == "RepoModeler":
                return src[node.start_byte:node.end_byte].decode("utf-8") + "\n"
    return None


_SYSTEM_USAGE = re.compile(r"^    part system : ([A-Za-z_][A-Za-z0-9_]*)\b", re.M)
_PACKAGE = re.compile(r"^package ([A-Za-z_][A-Za-z0-9_]*) \{", re.M)


def system_def_of(model_sysml: str) -> tuple[str, str] | None:
    """(package, system part def) of an emitted model.sysml: ``shop``, ``ShopSystem``; None when the
    text is not one ``analyze`` wrote (one package, a ``part system`` typed by a def of it)."""
    packages = [m.group(1) for m in _PACKAGE.finditer(model_sysml) if m.group(1) != "RepoModeler"]
    system = _SYSTEM_USAGE.search(model_sysml)
    if len(packages) != 1 or system is None or f"\n    part def {system.group(1)} :> System " not in model_sysml:
        return None
    return packages[0], system.group(1)


def render_specialized_target(model: ArchModel, package: str, system: str) -> str:
    """SysML text of a target whose system def specializes ``package::system`` (deterministic)."""
    target_package = sysml_ident(f"{package}Target")
    target_def = sysml_ident(f"{model.name or 'system'}-Target-System".title().replace("-", ""))
    if target_def in library_names() | {"system", "System", system}:
        target_def += "_"
    doc = sysml_doc(
        f"Target architecture for {model.name}: the intended state, scaffolded by 'repomodeler target init' from "
        f"{model.origin}. Its system def specializes {package}::{system}, the analysed model's (model.sysml beside "
        "this file), so it has every part, typed port and connection of that model and follows it when the model "
        f"is analysed again. Edit {target_def}: add parts and connections (ports typed by the model's port defs "
        f"are named {package}::<def>); retire a part or a connection with 'part :>> inventory[0];' or "
        "'interface :>> frontend_inventory_http[0];'. Then compare with 'repomodeler diff MODEL target.sysml' "
        "or enforce it with 'repomodeler check'.")
    return "\n".join([
        f"package {target_package} {{",
        f"    doc /* {doc} */",
        "    private import ScalarValues::*;",
        "    private import RepoModeler::*;",
        "",
        f"    part def {target_def} :> {package}::{system} {{",
        f"        doc /* {sysml_doc(f'{model.name} as it should be: {package}::{system} with the edits written here.')} */",
        "    }",
        "",
        f"    part system : {target_def};",
        "}",
        "",
    ])


def render_target(model: ArchModel, *, library: bool = True, library_text: str | None = None) -> str:
    """SysML text of a target scaffolded from ``model`` (deterministic: sorted, no timestamps).

    Written as ``repomodeler analyze`` writes a model: basic identifiers with the real id as short name
    (``part <'orders-db'> orders_db``), a server port per protocol and a conjugated client port per
    connection (``to_orders_db_sql``), an ``interface`` typed ``HttpLink`` (...) between a client port and
    a server port for a call or a broker link, a ``connection`` typed ``SqlAccess`` (...) to a data store,
    ``LibraryLink`` between the parts for a build-time dependency, and a ``part def`` specializing
    ``System`` that ``part system`` is typed by.  ``library`` prepends the RepoModeler package (one file
    that validates alone; ``target init`` writes it as a file of its own beside the target instead);
    ``library_text`` is the package to copy in (from the model's own folder), else the current one.
    """
    reserved = library_names() | {"system", "System"}
    reserved_lower = {r.lower() for r in reserved}
    system_def = sysml_ident(f"{model.name or 'system'}-Target-System".title().replace("-", ""))
    if system_def in reserved:
        system_def += "_"
    ns = IdentAllocator(reserved | {system_def})
    names = ns.take_all([(cid, c.kind) for cid, c in sorted(model.components.items())])
    conns = sorted((c for c in model.connections if c.source in names and c.target in names),
                   key=lambda c: (c.source, c.target, c.protocol))
    conn_names = {c.id: ns.take(f"{c.source}-{c.target}-{c.protocol}", "link") for c in conns}
    port_ns = {cid: IdentAllocator(_COMPONENT_FEATURES) for cid in model.components}
    server_protocols: dict[str, set[str]] = {cid: {p.protocol for p in c.provided_ports().values()}
                                             for cid, c in model.components.items()}
    for c in conns:
        if c.protocol != BUILD_PROTOCOL:
            server_protocols[c.target].add(c.protocol)
    server_port: dict[tuple[str, str], str] = {}
    for cid in sorted(model.components):
        for proto, name in port_ns[cid].take_all([(p, "port") for p in sorted(server_protocols[cid])]).items():
            server_port[(cid, proto)] = name
    client_ports: dict[str, list[tuple[str, str]]] = {cid: [] for cid in model.components}
    links = []
    for c in conns:
        declared = _declared(conn_names[c.id], f"{c.source}-{c.target}-{c.protocol}", reserved_lower)
        if c.protocol == BUILD_PROTOCOL:
            links.append(f"        connection {declared} : LibraryLink connect {names[c.source]} to {names[c.target]};")
            continue
        client = port_ns[c.source].take(f"to-{c.target}-{c.protocol}", "client")
        client_ports[c.source].append((client, port_def(c.protocol)))
        ends = (f"{names[c.source]}.{client}", f"{names[c.target]}.{server_port[(c.target, c.protocol)]}")
        if model.components[c.target].kind in STORE_KINDS and c.protocol not in MESSAGING:
            links.append(f"        connection {declared} : {port_def(c.protocol).replace('Api', 'Access')} "
                         f"connect {ends[0]} to {ends[1]};")
        else:
            links.append(f"        interface {declared} : {port_def(c.protocol).replace('Api', 'Link')} "
                         f"connect client ::> {ends[0]} to server ::> {ends[1]};")
    package = sysml_ident(f"{model.name or 'system'}Target")
    lines = [
        f"package {package} {{",
        "    doc /* " + sysml_doc(
            f"Target architecture for {model.name}: the intended state, scaffolded by 'repomodeler target init' "
            f"from {model.origin}. Edit it (add or remove parts, retype interfaces, e.g. HttpLink to GrpcLink), "
            "then compare with 'repomodeler diff MODEL target.sysml' or enforce it with 'repomodeler check'.") + " */",
        "    private import ScalarValues::*;",
        "    private import RepoModeler::*;",
        "",
        f"    part def {system_def} :> System {{",
    ]
    for cid, comp in sorted(model.components.items()):
        body = []
        for key, attr in ATTRIBUTES:
            if comp.attributes.get(key):
                body.append(f"            attribute :>> {attr} = {sysml_string(comp.attributes[key])};")
        provided = {p.protocol: p for p in comp.provided_ports().values()}
        for proto in sorted(server_protocols[cid]):
            port = provided.get(proto)
            ptype = port_def(proto)
            if port is not None and port.endpoints:
                body.append(f"            port {server_port[(cid, proto)]} : {ptype} {{")
                ep_ns = IdentAllocator(_PORT_FEATURES)
                for ep in port.endpoints:
                    label = ep.path if ep.method.upper() == "RPC" else ep.label
                    body.append(f"                ref item {ep_ns.take(label, 'endpoint')} : Endpoint {{ "
                                f"attribute :>> method = {sysml_string(ep.method)}; "
                                f"attribute :>> path = {sysml_string(ep.path)}; }}")
                body.append("            }")
            else:
                body.append(f"            port {server_port[(cid, proto)]} : {ptype};")
        for port_name, ptype in sorted(client_ports[cid]):
            body.append(f"            port {port_name} : ~{ptype};")
        head = f"        part {_declared(names[cid], cid, reserved_lower)} : {KIND_DEF.get(comp.kind, 'Service')}"
        lines += [head + " {", *body, "        }"] if body else [head + ";"]
    if links:
        lines.append("")
        lines.extend(links)
    lines += ["    }", "", f"    part system : {system_def};", "}", ""]
    text = "\n".join(lines)
    if not library:
        return text
    return (library_text or render_library()) + "\n" + text


def _declared(ident: str, real: str, reserved_lower: set[str]) -> str:
    """``<'orders-db'> orders_db``: the real id as short name when the identifier differs from it."""
    if short_name_ok(real, ident) and not is_basic_name(real) and real.lower() not in reserved_lower:
        return f"<'{real}'> {ident}"
    return ident
