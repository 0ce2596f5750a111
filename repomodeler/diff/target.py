"""Scaffold an editable target architecture from a current model.

The scaffold is the current architecture without provenance noise (no ``@SourceRef``, no
generated docs), in the same vocabulary as emitted models: the ``RepoModeler`` library package
(copied in, so the file passes ``repomodeler validate`` on its own) and a ``<system>Target``
package whose ``part system`` a user edits: add a part, retype an ``interface`` from
``HttpLink`` to ``GrpcLink``, delete what should go.  ``repomodeler diff`` and ``check`` read it back.
"""

from __future__ import annotations

from repomodeler.emit.names import safe_member_name, sysml_doc, sysml_name, sysml_string
from repomodeler.emit.sysml import KIND_DEF, PROTOCOL_PORT, render_library
from repomodeler.sysml_reader import ArchModel

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


def render_target(model: ArchModel, *, library: bool = True, library_text: str | None = None) -> str:
    """SysML text of a target scaffolded from ``model`` (deterministic: sorted, no timestamps).

    ``library_text`` is the RepoModeler package to copy in (from the model's own model.sysml, so
    the target uses exactly the vocabulary that model was emitted with); else the current one.
    """
    names = {cid: sysml_name(safe_member_name(cid, c.kind)) for cid, c in model.components.items()}
    client_ports: dict[str, list[tuple[str, str]]] = {cid: [] for cid in model.components}
    server_protocols: dict[str, set[str]] = {cid: set() for cid in model.components}
    links = []
    for conn in sorted(model.connections, key=lambda c: (c.source, c.target, c.protocol)):
        if conn.source not in names or conn.target not in names:
            continue
        if conn.protocol == "library":  # build-time dependency: no ports (LibraryLink joins the parts)
            links.append(f"        connection {sysml_name(f'{conn.source}-{conn.target}-library')} : LibraryLink "
                         f"connect dependent ::> {names[conn.source]} to provider ::> {names[conn.target]};")
            continue
        port = sysml_name(f"to-{conn.target}-{conn.protocol}")
        client_ports[conn.source].append((port, PROTOCOL_PORT.get(conn.protocol, "TcpApi")))
        server_protocols[conn.target].add(conn.protocol)
        link = PROTOCOL_PORT.get(conn.protocol, "TcpApi").replace("Api", "Link")
        links.append(f"        interface {sysml_name(f'{conn.source}-{conn.target}-{conn.protocol}')} : {link} "
                     f"connect client ::> {names[conn.source]}.{port} to server ::> "
                     f"{names[conn.target]}.{sysml_name(conn.protocol)};")
    package = sysml_name(f"{model.name or 'system'}Target")
    lines = [
        f"package {package} {{",
        "    doc /* " + sysml_doc(
            f"Target architecture for {model.name}: the intended state, scaffolded by 'repomodeler target init' "
            f"from {model.origin}. Edit it (add or remove parts, retype interfaces, e.g. HttpLink to GrpcLink), "
            "then compare with 'repomodeler diff MODEL target.sysml' or enforce it with 'repomodeler check'.") + " */",
        "    private import ScalarValues::*;",
        "    private import RepoModeler::*;",
        "",
        "    part system {",
    ]
    for cid, comp in model.components.items():
        body = []
        for key, attr in ATTRIBUTES:
            if comp.attributes.get(key):
                body.append(f"            attribute :>> {attr} = {sysml_string(comp.attributes[key])};")
        provided = {p.protocol: p for p in comp.provided_ports().values()}
        for proto in sorted(server_protocols[cid] | set(provided)):
            port = provided.get(proto)
            ptype = PROTOCOL_PORT.get(proto, "TcpApi")
            if port is not None and port.endpoints:
                body.append(f"            port {sysml_name(proto)} : {ptype} {{")
                for ep in port.endpoints:
                    body.append(f"                ref item {sysml_name(ep.label)} : Endpoint {{ "
                                f"attribute :>> method = {sysml_string(ep.method)}; "
                                f"attribute :>> path = {sysml_string(ep.path)}; }}")
                body.append("            }")
            else:
                body.append(f"            port {sysml_name(proto)} : {ptype};")
        for port_name, ptype in sorted(client_ports[cid]):
            body.append(f"            port {port_name} : ~{ptype};")
        head = f"        part {names[cid]} : {KIND_DEF.get(comp.kind, 'Service')}"
        lines += [head + " {", *body, "        }"] if body else [head + ";"]
    if links:
        lines.append("")
        lines.extend(links)
    lines += ["    }", "}", ""]
    text = "\n".join(lines)
    if not library:
        return text
    return (library_text or render_library()) + "\n" + text
