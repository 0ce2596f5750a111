"""The model as OMG Systems Modeling API records (the JSON the API's ``/commits`` and ``/elements`` carry).

Every element and relationship gets an ``@id`` that is a UUID v5 of its qualified name in the emitted
SysML (``shop::ShopSystem::orders::to_payments_http``; a relationship: its owner's name, its kind and its
target's name), so the same component, port, endpoint or connector has the same ``@id`` in every run
and at every commit, whatever else changed, and a second push updates elements instead of adding copies.

What is written: the ``RepoModeler`` library package with the definitions the model uses (component
kinds, ``System``, port, interface and connection defs, ``Endpoint``, and the provenance metadata defs
``Repository`` and ``SourceRef`` with their attributes); the system package with its documentation and
one ``Repository`` metadata usage per repository; the typed system part def (``Subclassification`` of
``System``) holding a ``PartUsage`` per component (``FeatureTyping`` to its kind def, short name = the
component id, documentation, attribute values, ``SourceRef`` metadata usages), its ports
(``PortUsage``, typed; conjugated client ports are marked ``isConjugated`` on their typing) and
endpoints (``ItemUsage`` typed ``Endpoint`` with method and path), one ``InterfaceUsage`` /
``ConnectionUsage`` per connection (typed, two end ``ReferenceUsage``s subsetting the connected ports,
documentation, ``SourceRef`` metadata usages) and ``part system`` typed by the system def.  Attribute and
metadata values are ``FeatureValue``s owning a ``LiteralString`` / ``LiteralInteger``.  Messages, views, the
deployment and the library's other definitions stay in the SysML text.

Records are plain dicts in a deterministic order; nothing depends on time or paths.
"""

from __future__ import annotations

import uuid
from typing import Any

import networkx as nx

from repomodeler.emit.names import is_basic_name, short_name_ok
from repomodeler.emit.sysml import (
    KIND_DEF, LIBRARY_PACKAGE, MAX_EVIDENCE, edge_style, port_def, render_system, system_names,
)
from repomodeler.model.graph import top_level_view
from repomodeler.records import Evidence

# UUID v5 namespace of repomodeler element ids (a fixed, published value: changing it changes every id)
ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:repomodeler:sysml-element")

Record = dict[str, Any]


def element_id(key: str) -> str:
    """The ``@id`` of the element (or relationship) with this qualified key."""
    return str(uuid.uuid5(ID_NAMESPACE, key))


def _ref(eid: str) -> dict[str, str]:
    return {"@id": eid}


class _Records:
    """Records by ``@id`` in creation order; remembers each element's qualified key (relationship ids derive from it)."""

    def __init__(self) -> None:
        self.records: dict[str, Record] = {}
        self.keys: dict[str, str] = {}

    def element(self, type_: str, key: str, name: str | None = None, short: str | None = None,
                **fields: Any) -> str:
        eid = element_id(key)
        record: Record = {"@type": type_, "@id": eid, "elementId": eid}
        if name is not None:
            record["declaredName"] = name
        if short is not None:
            record["declaredShortName"] = short
        record.update(fields)
        record.setdefault("ownedRelationship", [])
        self.records[eid] = record
        self.keys[eid] = key
        return eid

    def _relationship(self, type_: str, key: str, owner: str, fields: Record, source: str, target: str) -> str:
        eid = element_id(key)
        record: Record = {"@type": type_, "@id": eid, "elementId": eid, **fields,
                          "owningRelatedElement": _ref(owner), "source": [_ref(source)], "target": [_ref(target)]}
        self.records[eid] = record
        self.records[owner]["ownedRelationship"].append(_ref(eid))
        return eid

    def own(self, owner: str, child: str, membership: str = "OwningMembership") -> str:
        """``child`` owned by ``owner`` through a membership record."""
        key = f"{self._key(child)}#{membership}"
        eid = element_id(key)
        record: Record = {"@type": membership, "@id": eid, "elementId": eid,
                          "membershipOwningNamespace": _ref(owner), "ownedRelatedElement": [_ref(child)],
                          "owningRelatedElement": _ref(owner), "source": [_ref(owner)], "target": [_ref(child)]}
        if membership != "OwningMembership":
            record["owningType"] = _ref(owner)
        self.records[eid] = record
        self.records[owner]["ownedRelationship"].append(_ref(eid))
        self.records[child]["owningRelationship"] = _ref(eid)
        return eid

    def typed(self, feature: str, type_: str, conjugated: bool = False) -> None:
        fields: Record = {"typedFeature": _ref(feature), "type": _ref(type_)}
        if conjugated:
            fields["isConjugated"] = True  # a conjugated port (~T): the typing names T
        self._relationship("FeatureTyping", f"{self._key(feature)}#FeatureTyping", feature, fields, feature, type_)

    def specializes(self, sub: str, general: str) -> None:
        self._relationship("Subclassification", f"{self._key(sub)}#Subclassification", sub,
                           {"subclassifier": _ref(sub), "superclassifier": _ref(general)}, sub, general)

    def subsets(self, feature: str, referenced: str) -> None:
        self._relationship("ReferenceSubsetting", f"{self._key(feature)}#ReferenceSubsetting", feature,
                           {"referencingFeature": _ref(feature), "referencedFeature": _ref(referenced)},
                           feature, referenced)

    def redefines(self, feature: str, redefined: str) -> None:
        self._relationship("Redefinition", f"{self._key(feature)}#Redefinition", feature,
                           {"redefiningFeature": _ref(feature), "redefinedFeature": _ref(redefined)},
                           feature, redefined)

    def doc(self, owner: str, text: str) -> None:
        child = self.element("Documentation", f"{self._key(owner)}#doc", body=text)
        self.own(owner, child)

    def value(self, owner: str, name: str, value: object, redefined: str | None = None,
              usage: str = "ReferenceUsage") -> str:
        """A feature ``name`` of ``owner`` bound to a string or integer literal (``attribute :>> name = v``)."""
        key = f"{self._key(owner)}::{name}"
        feature = self.element(usage, key, name)
        self.own(owner, feature, "FeatureMembership")
        if redefined is not None:
            self.redefines(feature, redefined)
        literal_type = "LiteralInteger" if isinstance(value, int) else "LiteralString"
        literal = self.element(literal_type, f"{key}#value", value=value)
        fv = element_id(f"{key}#FeatureValue")
        self.records[fv] = {"@type": "FeatureValue", "@id": fv, "elementId": fv, "featureWithValue": _ref(feature),
                            "value": _ref(literal), "ownedRelatedElement": [_ref(literal)],
                            "owningRelatedElement": _ref(feature), "source": [_ref(feature)], "target": [_ref(literal)]}
        self.records[feature]["ownedRelationship"].append(_ref(fv))
        self.records[literal]["owningRelationship"] = _ref(fv)
        return feature

    def _key(self, eid: str) -> str:
        return self.keys[eid]


def api_records(g: nx.MultiDiGraph) -> list[Record]:
    """Every element and relationship record of the model, with stable ``@id``s (see the module doc)."""
    g = top_level_view(g)  # as render_system: top level only
    r = _Records()
    names = system_names(g)
    lib_key = LIBRARY_PACKAGE
    lib = r.element("LibraryPackage", lib_key, LIBRARY_PACKAGE)
    lib_defs: dict[str, str] = {}

    def lib_def(type_: str, name: str, attributes: tuple[str, ...] = ()) -> str:
        if name not in lib_defs:
            d = r.element(type_, f"{lib_key}::{name}", name)
            r.own(lib, d)
            for attr in attributes:
                a = r.element("AttributeUsage", f"{lib_key}::{name}::{attr}", attr)
                r.own(d, a, "FeatureMembership")
            lib_defs[name] = d
        return lib_defs[name]

    def lib_attr(def_name: str, attr: str) -> str:
        return element_id(f"{lib_key}::{def_name}::{attr}")

    system_root = lib_def("PartDefinition", "System")
    repository_def = lib_def("MetadataDefinition", "Repository", ("repository", "url", "commit"))
    source_ref = lib_def("MetadataDefinition", "SourceRef", ("repository", "path", "line"))
    endpoint_def = lib_def("ItemDefinition", "Endpoint", ("method", "path"))
    lib_def("PartDefinition", "Component", ("kind", "repository", "language", "technology", "image", "exposedPorts"))

    pkg_key = names.package
    pkg = r.element("Package", pkg_key, names.package)
    text = render_system(g)
    doc_line = text.split("\n", 2)[1].strip()
    if doc_line.startswith("doc /* "):
        r.doc(pkg, doc_line[len("doc /* "):-len(" */")])
    for repo in g.graph["repositories"]:
        meta = r.element("MetadataUsage", f"{pkg_key}#Repository#{repo['name']}")
        r.own(pkg, meta)
        r.typed(meta, repository_def)
        r.value(meta, "repository", str(repo["name"]), lib_attr("Repository", "repository"))
        if repo.get("url"):
            r.value(meta, "url", str(repo["url"]), lib_attr("Repository", "url"))
        if repo.get("commit"):
            r.value(meta, "commit", str(repo["commit"]), lib_attr("Repository", "commit"))

    def source_refs(owner: str, evidence: tuple[Evidence, ...] | list[Evidence], limit: int = MAX_EVIDENCE) -> None:
        for i, e in enumerate(sorted(set(evidence))[:limit]):
            meta = r.element("MetadataUsage", f"{r._key(owner)}#SourceRef#{i}")
            r.own(owner, meta, "FeatureMembership")
            r.typed(meta, source_ref)
            r.value(meta, "repository", e.repository, lib_attr("SourceRef", "repository"))
            r.value(meta, "path", e.path, lib_attr("SourceRef", "path"))
            r.value(meta, "line", int(e.line), lib_attr("SourceRef", "line"))

    sys_key = f"{pkg_key}::{names.system_def}"
    system_def = r.element("PartDefinition", sys_key, names.system_def)
    r.own(pkg, system_def)
    r.specializes(system_def, system_root)

    edges = sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))
    server_protocols: dict[str, set[str]] = {c: {p.protocol for p in g.nodes[c]["ports"]} for c in g.nodes}
    for u, v, _k, d in edges:
        if edge_style(g, u, v, d) != "build":
            server_protocols[v].add(str(d["protocol"]))
    ports = _port_names(render_system_text=text, names=names)
    port_ids: dict[tuple[str, str], str] = {}
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        part_name = names.components[cid]
        key = f"{sys_key}::{part_name}"
        short = cid if short_name_ok(cid, part_name) and not is_basic_name(cid) else None
        part = r.element("PartUsage", key, part_name, short)
        r.own(system_def, part, "FeatureMembership")
        r.typed(part, lib_def("PartDefinition", KIND_DEF.get(d["kind"], "Service")))
        for attr, value in (("repository", d["repository"]), ("language", d["language"]),
                            ("technology", d["attributes"].get("technology")), ("image", d["attributes"].get("image")),
                            ("exposedPorts", d["attributes"].get("ports"))):
            if value:
                r.value(part, attr, str(value), lib_attr("Component", attr))
        source_refs(part, d["evidence"])
        provided = {p.protocol: p for p in d["ports"]}
        for port_name, (proto, conjugated) in ports.get(part_name, {}).items():
            port = r.element("PortUsage", f"{key}::{port_name}", port_name)
            r.own(part, port, "FeatureMembership")
            r.typed(port, lib_def("PortDefinition", port_def(proto)), conjugated=conjugated)
            port_ids[(part_name, port_name)] = port
            found = provided.get(proto) if not conjugated else None
            for ep in sorted(found.endpoints, key=lambda e: (e.path, e.method)) if found else []:
                label = ep.path if ep.method.upper() == "RPC" else f"{ep.method} {ep.path}"
                item = r.element("ItemUsage", f"{key}::{port_name}::{label}", None, None, isReference=True)
                r.records[item]["declaredName"] = _endpoint_name(text, part_name, port_name, label)
                r.own(port, item, "FeatureMembership")
                r.typed(item, endpoint_def)
                r.value(item, "method", ep.method, lib_attr("Endpoint", "method"))
                r.value(item, "path", ep.path, lib_attr("Endpoint", "path"))
                source_refs(item, ep.evidence, limit=2)

    for u, v, k, d in edges:
        style = edge_style(g, u, v, d)
        conn_name = names.connections[(u, v, k)]
        key = f"{sys_key}::{conn_name}"
        proto = str(d["protocol"])
        if style == "build":
            type_, def_type, cdef = "ConnectionUsage", "ConnectionDefinition", "LibraryLink"
        elif style == "storage":
            type_, def_type, cdef = "ConnectionUsage", "ConnectionDefinition", port_def(proto).replace("Api", "Access")
        else:
            type_, def_type, cdef = "InterfaceUsage", "InterfaceDefinition", port_def(proto).replace("Api", "Link")
        conn_id = f"{u}-{v}-{k}"
        short = conn_id if short_name_ok(conn_id, conn_name) and not is_basic_name(conn_id) else None
        conn = r.element(type_, key, conn_name, short)
        r.own(system_def, conn, "FeatureMembership")
        r.typed(conn, lib_def(def_type, cdef))
        ends = _connector_ends(text, conn_name)
        for role, (part_name, port_name) in zip(("client", "server") if style != "build" else ("dependent", "provider"),
                                                ends):
            end = r.element("ReferenceUsage", f"{key}::{role}", role, None, isEnd=True)
            r.own(conn, end, "EndFeatureMembership")
            target = port_ids.get((part_name, port_name)) if port_name else element_id(f"{sys_key}::{part_name}")
            if target:
                r.subsets(end, target)
        source_refs(conn, d["evidence"])

    system = r.element("PartUsage", f"{pkg_key}::system", "system")
    r.own(pkg, system)
    r.typed(system, system_def)
    return list(r.records.values())


def _port_names(render_system_text: str, names) -> dict[str, dict[str, tuple[str, bool]]]:  # type: ignore[no-untyped-def]
    """part name -> port name -> (protocol, conjugated?), read from the emitted text (one source of truth)."""
    import re

    from repomodeler.sysml_reader import protocol_from_type

    out: dict[str, dict[str, tuple[str, bool]]] = {}
    part = None
    for line in render_system_text.splitlines():
        m = re.match(r"        part (?:<'[^']*'> )?(\w+) : \w+", line)
        if m:
            part = m.group(1)
            out.setdefault(part, {})
            continue
        m = re.match(r"            port (\w+) : (~?)(\w+)", line)
        if m and part is not None:
            out[part][m.group(1)] = (protocol_from_type(m.group(3)) or m.group(3), bool(m.group(2)))
        elif line.startswith("        }"):
            part = None
    return out


def _endpoint_name(text: str, part: str, port: str, label: str) -> str:
    """The emitted name of an endpoint item (the allocator's, read back from the text)."""
    import re

    pattern = re.compile(rf"\n        part (?:<'[^']*'> )?{re.escape(part)} :.*?\n        }}", re.S)
    m = pattern.search(text)
    port_block = re.search(rf"\n            port {re.escape(port)} : .*?\n            }}", m.group(0), re.S) if m else None
    if port_block:
        path_method = label.split(" ", 1)
        for item in re.finditer(r"ref item (\w+) : Endpoint \{.*?method = \"(.*?)\";\n\s+attribute :>> path = \"(.*?)\";",
                                port_block.group(0), re.S):
            method, path = item.group(2), item.group(3)
            if (len(path_method) == 2 and (method, path) == tuple(path_method)) or (len(path_method) == 1 and path == label):
                return item.group(1)
    from repomodeler.emit.names import sysml_ident

    return sysml_ident(label)


def _connector_ends(text: str, conn_name: str) -> list[tuple[str, str | None]]:
    """[(part, port or None), (part, port or None)] of an emitted connector."""
    import re

    m = re.search(rf" {re.escape(conn_name)} : \w+ connect (.*?) \{{", text)
    if not m:
        return []
    ends = []
    for end in re.split(r" to ", m.group(1)):
        path = end.split("::>")[-1].strip()
        part, _, port = path.partition(".")
        ends.append((part, port or None))
    return ends


def structural(records: list[Record]) -> list[Record]:
    """The records without metadata usages and values (for servers whose import takes structure only)."""
    by_id = {r["@id"]: r for r in records}
    drop: set[str] = set()

    def subtree(eid: str) -> None:
        stack = [eid]
        while stack:
            cur = stack.pop()
            if cur in drop or cur not in by_id:
                continue
            drop.add(cur)
            rec = by_id[cur]
            stack.extend(ref["@id"] for f in ("ownedRelationship", "ownedRelatedElement") for ref in rec.get(f) or [])

    for r in records:
        owned_types = {by_id[ref["@id"]]["@type"] for ref in r.get("ownedRelationship") or [] if ref["@id"] in by_id}
        if r["@type"] == "MetadataUsage" or "FeatureValue" in owned_types:
            subtree(r["@id"])
    out = []
    for r in records:
        if r["@id"] in drop or any(ref["@id"] in drop for ref in r.get("ownedRelatedElement") or []):
            drop.add(r["@id"])
            continue
        out.append(r)
    return [{**r, "ownedRelationship": [ref for ref in r["ownedRelationship"] if ref["@id"] not in drop]}
            if "ownedRelationship" in r else r for r in out]

