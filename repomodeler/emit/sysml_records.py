"""OMG Systems Modeling API records read from SysML v2 text: whatever the ``.sysml`` files hold is pushed.

``push`` used to rebuild records from model.json by a second, hand-kept mapping of what the emitter
writes; it drifted (top level only, gRPC ports typed ``OtherApi``, endpoints lost).  This module reads
the emitted text itself with tree-sitter-sysml (already a dependency, milliseconds a file) and turns
every element of it into a record: packages, definitions, nested usages, ports, items, interfaces and
connections with their ends wired to the ports they connect (``EndFeatureMembership`` + ``ReferenceSubsetting``),
flows, allocations, views with their exposes and filters, metadata usages with their values,
documentation, imports, and the relationships between them (``FeatureTyping``, ``ConjugatedPortTyping``
for ``~T``, ``Subclassification``, ``Subsetting``, ``Redefinition``, ``FeatureValue``).

Every ``@id`` is a UUID v5 of a key made from the element's qualified name (``shop::ShopSystem::orders``;
unnamed elements hang off their owner's key with a stable suffix, relationships off their source), so
the same element has the same id at every push whatever else changed.  A reference the files do not
resolve (the standard library: ``ScalarValues::String``...) has no record to point at and is left
out, as servers holding only the project do; :attr:`Records.unresolved` names them.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from repomodeler.records import RepomodelerError

Record = dict[str, Any]

#: the namespace of every pushed ``@id`` (the model.json-based push used it too: named elements keep their ids)
ID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:repomodeler:sysml-element")

#: tree-sitter node type -> metaclass for definitions and usages that are not ``<kind>_definition``/``_usage``
_SPECIAL_TYPES = {
    "package_definition": "Package",
    "library_package": "LibraryPackage",
    "enumeration_definition": "EnumerationDefinition",
    "enumeration_member": "EnumerationUsage",
    "end_usage": "ReferenceUsage",
    "parameter_usage": "ReferenceUsage",
    "calculation_definition": "CalculationDefinition",
    "calculation_usage": "CalculationUsage",
    "use_case_definition": "UseCaseDefinition",
    "use_case_usage": "UseCaseUsage",
    "satisfy_statement": "SatisfyRequirementUsage",
    "satisfy_usage": "SatisfyRequirementUsage",
    "subject_statement": "ReferenceUsage",
    "render_statement": "RenderingUsage",
    "redefines_statement": "ReferenceUsage",  # `:>> containerPort = 3000;`
    "bind_statement": "BindingConnectorAsUsage",  # `bind a.p = p;`
    "require_statement": "ConstraintUsage",  # `require constraint { violations == 0 }`
    "assume_statement": "ConstraintUsage",
    "frame_statement": "ConcernUsage",  # `frame concern c : C;`
}

#: statements whose element is owned through a membership of its own kind
_STATEMENT_MEMBERSHIPS = {
    "require_statement": "RequirementConstraintMembership",
    "assume_statement": "RequirementConstraintMembership",
    "frame_statement": "FramedConcernMembership",
    "subject_statement": "SubjectMembership",
}


#: the keyword of an ``end``/directed usage -> its metaclass
_KEYWORD_USAGES = {"port": "PortUsage", "part": "PartUsage", "item": "ItemUsage", "attribute": "AttributeUsage",
                   "ref": "ReferenceUsage", "occurrence": "OccurrenceUsage", "action": "ActionUsage"}


def element_id(key: str) -> str:
    """The stable ``@id`` of the element with this key (its qualified name for a named element)."""
    return str(uuid.uuid5(ID_NAMESPACE, key))


def _ref(eid: str) -> dict[str, str]:
    return {"@id": eid}


def _camel(words: str) -> str:
    return "".join(w.capitalize() for w in words.split("_"))


def _metaclass(node_type: str) -> str | None:
    if node_type in _SPECIAL_TYPES:
        return _SPECIAL_TYPES[node_type]
    for suffix, kind in (("_definition", "Definition"), ("_usage", "Usage")):
        if node_type.endswith(suffix):
            return _camel(node_type[: -len(suffix)]) + kind
    return None


@dataclass
class _Element:
    """One element of the text while it is read: its record, key, names and what it references."""

    record: Record
    key: str
    owner: "_Element | None"
    name: str | None = None
    short: str | None = None
    members: list["_Element"] = field(default_factory=list)
    types: list[tuple[list[str], bool]] = field(default_factory=list)  # (path, conjugated)
    supers: list[list[str]] = field(default_factory=list)
    subsets: list[list[str]] = field(default_factory=list)
    redefines: list[list[str]] = field(default_factory=list)
    imports: list[tuple[list[str], bool]] = field(default_factory=list)  # (namespace path, recursive)

    @property
    def id(self) -> str:
        return str(self.record["@id"])


@dataclass
class Records:
    """The records of a set of SysML files, in document order, and the references left unresolved."""

    records: list[Record]
    unresolved: list[str]
    keys: dict[str, str]  # element @id -> its key (qualified name for a named element)

    def by_kind(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.records:
            out[r["@type"]] = out.get(r["@type"], 0) + 1
        return dict(sorted(out.items()))


def _parser() -> Any:
    import tree_sitter_sysml
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_sysml.language()))


def _text(node: Any, src: bytes) -> str:
    return src[node.start_byte:node.end_byte].decode("utf-8")


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] == "'":
        return name[1:-1].replace("\\'", "'")
    return name


def _named(node: Any, type_: str) -> list[Any]:
    return [c for c in node.named_children if c.type == type_]


def _first(node: Any, type_: str) -> Any | None:
    found = _named(node, type_)
    return found[0] if found else None


def _path(node: Any, src: bytes) -> list[str]:
    """The segments of a qualified name or feature chain (``a::b`` or ``a.b``), unquoted."""
    return [_unquote(_text(n, src)) for n in node.named_children if n.type == "name"]


class _Reader:
    def __init__(self) -> None:
        self.elements: list[_Element] = []
        self.relations: list[Record] = []
        self.by_id: dict[str, _Element] = {}
        self.unresolved: set[str] = set()
        self.deferred: list[tuple[str, Any, _Element, list[str], Any]] = []
        self.keys: set[str] = set()
        self.positional: list[tuple[_Element, _Element, int]] = []
        self._resolved: dict[tuple[str | None, tuple[str, ...]], _Element | None] = {}
        self._resolving: set[tuple[str | None, tuple[str, ...]]] = set()

    # ----------------------------------------------------------------------------------- building
    def _unique(self, key: str) -> str:
        if key not in self.keys:
            self.keys.add(key)
            return key
        n = 2
        while f"{key}#{n}" in self.keys:
            n += 1
        self.keys.add(f"{key}#{n}")
        return f"{key}#{n}"

    def element(self, type_: str, key: str, owner: _Element | None, name: str | None = None,
                short: str | None = None, **fields: Any) -> _Element:
        key = self._unique(key)
        eid = element_id(key)
        record: Record = {"@type": type_, "@id": eid, "elementId": eid}
        if name is not None:
            record["declaredName"] = name
        if short is not None:
            record["declaredShortName"] = short
        record.update(fields)
        record["ownedRelationship"] = []
        el = _Element(record, key, owner, name, short)
        self.elements.append(el)
        self.by_id[eid] = el
        return el

    def own(self, owner: _Element | None, child: _Element, membership: str) -> None:
        """``child`` owned by ``owner`` through a membership record (roots have none)."""
        if owner is None:
            return
        key = self._unique(f"{child.key}#{membership}")
        eid = element_id(key)
        record: Record = {"@type": membership, "@id": eid, "elementId": eid,
                          "membershipOwningNamespace": _ref(owner.id), "ownedRelatedElement": [_ref(child.id)],
                          "owningRelatedElement": _ref(owner.id), "source": [_ref(owner.id)],
                          "target": [_ref(child.id)]}
        if child.name is not None:
            record["memberName"] = child.name
        if child.short is not None:
            record["memberShortName"] = child.short
        self.relations.append(record)
        owner.record["ownedRelationship"].append(_ref(eid))
        child.record["owningRelationship"] = _ref(eid)
        owner.members.append(child)

    def relate(self, type_: str, source: _Element, target: _Element, roles: tuple[str, str],
               **fields: Any) -> None:
        key = self._unique(f"{source.key}#{type_}#{target.key}")
        eid = element_id(key)
        record: Record = {"@type": type_, "@id": eid, "elementId": eid, roles[0]: _ref(source.id),
                          roles[1]: _ref(target.id), **fields, "owningRelatedElement": _ref(source.id),
                          "source": [_ref(source.id)], "target": [_ref(target.id)]}
        self.relations.append(record)
        source.record["ownedRelationship"].append(_ref(eid))

    # ------------------------------------------------------------------------------------ reading
    def read(self, root: _Element | None, node: Any, src: bytes) -> None:
        for child in node.named_children:
            self.member(root, child, src)

    def member(self, owner: _Element | None, node: Any, src: bytes) -> None:
        t = node.type
        if t in ("package_body", "structural_body", "usage_body", "enumeration_body", "requirement_body"):
            self.read(owner, node, src)
        elif t == "documentation":
            body = _text(node, src)
            comment = _first(node, "block_comment_body")
            text = _text(comment, src) if comment is not None else body
            text = text.strip()
            if text.startswith("/*") and text.endswith("*/"):
                text = text[2:-2].strip()
            key = f"{owner.key}#doc" if owner else "#doc"
            doc = self.element("Documentation", key, owner, body=text)
            self.own(owner, doc, "OwningMembership")
        elif t == "import_statement" and owner is not None:
            self.import_(owner, node, src, "Import")
        elif t == "expose_statement" and owner is not None:
            self.import_(owner, node, src, "Expose")
        elif t == "filter_statement" and owner is not None:
            self.filter(owner, node, src)
        elif t == "metadata_usage" and node.child_count and node.children[0].type == "@":
            self.annotation(owner, node, src)
        elif t == "expression_statement" and owner is not None:
            self.body_assignment(owner, node, src)
        elif t == "visibility" or t.endswith("comment"):
            return
        else:
            metaclass = _metaclass(t)
            if metaclass is None:
                return  # a statement no record kind describes (kept in the text)
            self.declaration(owner, node, src, metaclass)

    def import_(self, owner: _Element, node: Any, src: bytes, kind: str) -> None:
        ref = _first(node, "import_reference")
        if ref is None:
            return
        wildcard = _first(ref, "wildcard_import")
        target = wildcard if wildcard is not None else _first(ref, "qualified_name")
        if target is None:
            return
        path = _path(target, src)
        star = _text(wildcard, src).rsplit("::", 1)[-1] if wildcard is not None else ""
        namespace = bool(star)
        recursive = star == "**"
        type_ = ("Namespace" if namespace else "Membership") + kind
        key = f"{owner.key}#{kind.lower()}#{'::'.join(path)}{'::' + star if star else ''}"
        el = self.element(type_, key, owner, isRecursive=recursive, isImportAll=kind == "Expose")
        del el.record["ownedRelationship"]
        el.record["owningRelatedElement"] = _ref(owner.id)
        el.record["source"] = [_ref(owner.id)]
        owner.record["ownedRelationship"].append(_ref(el.id))
        if kind == "Import" and namespace:
            owner.imports.append((path, recursive))
        role = "importedNamespace" if namespace else "importedMembership"
        self.deferred.append(("import", role, el, path, owner))

    def filter(self, owner: _Element, node: Any, src: bytes) -> None:
        cond = [c for c in node.named_children if c.type not in ("filter",)]
        body = " ".join(_text(c, src) for c in cond).strip()
        key = self._unique(f"{owner.key}#filter")
        eid = element_id(key)
        membership: Record = {"@type": "ElementFilterMembership", "@id": eid, "elementId": eid,
                              "owningRelatedElement": _ref(owner.id), "membershipOwningNamespace": _ref(owner.id),
                              "source": [_ref(owner.id)]}
        expr = self.element("Expression", f"{key}#condition", None)
        rep = self.element("TextualRepresentation", f"{key}#condition#rep", None, language="sysml", body=body)
        self.own(expr, rep, "OwningMembership")
        membership["ownedRelatedElement"] = [_ref(expr.id)]
        membership["target"] = [_ref(expr.id)]
        expr.record["owningRelationship"] = _ref(eid)
        self.relations.append(membership)
        owner.record["ownedRelationship"].append(_ref(eid))

    def annotation(self, owner: _Element | None, node: Any, src: bytes) -> None:
        """``@SourceRef { repository = "shop"; ... }``: a metadata usage typed by its definition, its
        features bound to their values."""
        qn = _first(node, "qualified_name")
        if owner is None or qn is None:
            return
        path = _path(qn, src)
        meta = self.element("MetadataUsage", f"{owner.key}#@{'::'.join(path)}", owner)
        self.own(owner, meta, "OwningMembership")
        meta.types.append((path, False))
        body = _first(node, "usage_body")
        if body is not None:
            self.read(meta, body, src)

    def body_assignment(self, owner: _Element, node: Any, src: bytes) -> None:
        """``name = value;`` in a metadata body: a feature redefining the metadata def's feature."""
        expr = node.named_children[0] if node.named_children else None
        if expr is None or expr.type != "binary_expression" or len(expr.named_children) != 2:
            return
        target, value = expr.named_children
        if target.type != "qualified_name":
            return
        path = _path(target, src)
        feature = self.element("ReferenceUsage", f"{owner.key}::{path[-1]}", owner, path[-1])
        self.own(owner, feature, "FeatureMembership")
        feature.redefines.append(path)
        self.value(feature, value, src)

    def value(self, feature: _Element, node: Any, src: bytes) -> None:
        if node.type == "literal" and node.named_children:
            node = node.named_children[0]
        text = _text(node, src)
        fields: Record
        if node.type == "string_literal":
            type_, fields = "LiteralString", {"value": _unstring(text)}
        elif node.type == "integer_literal":
            type_, fields = "LiteralInteger", {"value": int(text)}
        elif node.type in ("real_literal", "float_literal"):
            type_, fields = "LiteralRational", {"value": float(text)}
        elif node.type == "boolean_literal" or text in ("true", "false"):
            type_, fields = "LiteralBoolean", {"value": text == "true"}
        else:
            type_, fields = "Expression", {}
        literal = self.element(type_, f"{feature.key}#value", None, **fields)
        if type_ == "Expression":
            rep = self.element("TextualRepresentation", f"{feature.key}#value#rep", None, language="sysml", body=text)
            self.own(literal, rep, "OwningMembership")
        key = self._unique(f"{feature.key}#FeatureValue")
        eid = element_id(key)
        self.relations.append({"@type": "FeatureValue", "@id": eid, "elementId": eid,
                               "featureWithValue": _ref(feature.id), "value": _ref(literal.id),
                               "membershipOwningNamespace": _ref(feature.id),
                               "ownedRelatedElement": [_ref(literal.id)], "owningRelatedElement": _ref(feature.id),
                               "source": [_ref(feature.id)], "target": [_ref(literal.id)]})
        feature.record["ownedRelationship"].append(_ref(eid))
        literal.record["owningRelationship"] = _ref(eid)

    def declaration(self, owner: _Element | None, node: Any, src: bytes, metaclass: str) -> None:
        decl = _first(node, "usage_declaration") or node
        if node.type in ("end_usage", "parameter_usage"):  # `end port p`, `in item i`: the keyword decides
            kinds = [c.type for c in node.children if not c.is_named and c.type in _KEYWORD_USAGES]
            metaclass = _KEYWORD_USAGES[kinds[0]] if kinds else "ReferenceUsage"
        ident = _first(decl, "identification")
        name = short = None
        if ident is None and _first(decl, "name") is not None:  # `enum service;`: a bare name
            name = _unquote(_text(_first(decl, "name"), src))
        if ident is not None:
            n = _first(ident, "name")
            s = _first(ident, "short_name")
            name = _unquote(_text(n, src)) if n is not None else None
            if s is not None and _first(s, "name") is not None:
                short = _unquote(_text(_first(s, "name"), src))
        keywords = {c.type for c in node.children if not c.is_named}
        redefined: list[list[str]] = []
        for c in list(node.named_children) + (list(decl.named_children) if decl is not node else []):
            if c.type in ("redefinition_part",) or (c.type == "feature_chain" and ":>>" in keywords):
                chains = [c] if c.type == "feature_chain" else [x for x in c.named_children
                                                                if x.type in ("feature_chain", "qualified_name")]
                redefined.extend(_path(x, src) for x in chains)
        if name is None and redefined:
            label = redefined[0][-1]
        else:
            label = name or short or metaclass
        fields: Record = {}
        if "abstract" in keywords:
            fields["isAbstract"] = True
        if "ref" in keywords or metaclass == "ReferenceUsage":
            if metaclass.endswith("Usage"):
                fields["isReference"] = True
        if "end" in keywords or node.type == "end_usage":
            fields["isEnd"] = True
        direction = _first(node, "port_direction") or _first(decl, "port_direction")
        for d in ("in", "out", "inout"):
            if d in keywords or (direction is not None and _text(direction, src) == d):
                fields["direction"] = d
        key = f"{owner.key}::{label}" if owner is not None else label
        el = self.element(metaclass, key, owner, name, short, **fields)
        membership = "OwningMembership"
        if metaclass.endswith("Usage") or metaclass == "ReferenceUsage":
            membership = "EndFeatureMembership" if fields.get("isEnd") else "FeatureMembership"
            if node.type in _STATEMENT_MEMBERSHIPS:
                membership = _STATEMENT_MEMBERSHIPS[node.type]
            elif fields.get("direction") and owner is not None and owner.record["@type"].endswith(
                    ("ActionDefinition", "ActionUsage", "CalculationDefinition", "ConstraintDefinition")):
                membership = "ParameterMembership"
        if owner is not None and owner.record["@type"] in ("Package", "LibraryPackage"):
            membership = "OwningMembership"  # a package is no type: its usages are plain owned members
        self.own(owner, el, membership)
        if membership == "RequirementConstraintMembership":
            self.relations[-1]["kind"] = "assumption" if "assume" in keywords else "requirement"
        el.redefines.extend(redefined)
        for part in list(node.named_children) + (list(decl.named_children) if decl is not node else []):
            if part.type == "typing_part":
                conjugated = any(not c.is_named and c.type == "~" for c in part.children)
                for qn in part.named_children:
                    if qn.type in ("qualified_name", "feature_chain"):
                        el.types.append((_path(qn, src), conjugated or _text(qn, src).startswith("~")))
                    elif qn.type == "conjugated_type" or qn.type.startswith("conjugat"):
                        inner = _first(qn, "qualified_name")
                        if inner is not None:
                            el.types.append((_path(inner, src), True))
            elif part.type in ("definition_specialization",):
                el.supers.extend(_path(q, src) for q in part.named_children if q.type == "qualified_name")
            elif part.type in ("specialization_part", "subsetting_part"):
                for q in part.named_children:
                    if q.type in ("qualified_name", "feature_chain"):
                        (el.supers if metaclass.endswith("Definition") else el.subsets).append(_path(q, src))
            elif part.type == "relationship_part":
                for rel in part.named_children:
                    chains = [_path(q, src) for q in rel.named_children if q.type in ("qualified_name", "feature_chain")]
                    if rel.type == "redefinition_part":
                        el.redefines.extend(chains)
                    elif metaclass.endswith("Definition"):
                        el.supers.extend(chains)
                    else:
                        el.subsets.extend(chains)
        value = _first(node, "value_part") or _first(decl, "value_part")
        if value is not None and value.named_children:
            self.value(el, value.named_children[-1], src)
        for part in node.named_children:
            if part.type in ("interface_part", "connection_part", "allocation_part", "flow_part"):
                self.ends(el, part, src)
        if node.type == "bind_statement":
            self.ends(el, node, src)
        for part in node.named_children:
            if part.type == "constraint_body":
                self.expression(el, " ".join(_text(c, src) for c in part.named_children).strip())
            elif part.type.endswith("_body"):
                self.read(el, part, src)

    def expression(self, owner: _Element, text: str) -> None:
        """A constraint's body: its result expression, the text kept as a ``TextualRepresentation``."""
        if not text:
            return
        expr = self.element("Expression", f"{owner.key}#result", owner)
        self.own(owner, expr, "ResultExpressionMembership")
        rep = self.element("TextualRepresentation", f"{owner.key}#result#rep", None, language="sysml", body=text)
        self.own(expr, rep, "OwningMembership")

    def ends(self, el: _Element, part: Any, src: bytes) -> None:
        """``connect a.p to b.q`` / ``allocate x to y`` / ``flow of T from a to b``: an end feature per
        side, owned through an ``EndFeatureMembership`` and wired to what it names (``ReferenceSubsetting``)."""
        sides: list[tuple[str | None, list[str], bool]] = []  # (end name, path, a feature chain a.b?)
        for c in part.named_children:
            if c.type in ("interface_endpoint", "connect_endpoint"):
                n = _first(c, "name")
                chain = _first(c, "feature_chain") or _first(c, "qualified_name")
                if chain is not None:
                    sides.append((_unquote(_text(n, src)) if n is not None and n.parent == c and chain != n else None,
                                  _path(chain, src), chain.type == "feature_chain"))
            elif c.type in ("feature_chain", "qualified_name") and part.type != "flow_part":
                sides.append((None, _path(c, src), c.type == "feature_chain"))
        if part.type == "flow_part":
            chains = [c for c in part.named_children if c.type in ("feature_chain", "qualified_name")]
            if chains and any(not x.is_named and x.type == "of" for x in part.children):
                payload = self.element("ReferenceUsage", f"{el.key}::payload", el, None)
                self.own(el, payload, "FeatureMembership")
                payload.types.append((_path(chains[0], src), False))
                chains = chains[1:]
            sides = [(None, _path(c, src), c.type == "feature_chain") for c in chains]
        defaults = ("source", "target")
        for i, (role, path, chained) in enumerate(sides[:2]):
            end = self.element("ReferenceUsage", f"{el.key}::{role or defaults[i]}", el, role, isEnd=True)
            self.own(el, end, "EndFeatureMembership")
            if role:  # `connect client ::> a.p`: the end redefines the definition's end `client`
                end.redefines.append([role])
            elif part.type != "flow_part":  # `connect a.p to b.q`: the i-th end redefines the def's i-th end
                self.positional.append((end, el, i))
            self.deferred.append(("chain" if chained and len(path) > 1 else "end", None, end, path, el.owner))

    # --------------------------------------------------------------------------------- resolving
    def _members(self, el: _Element, seen: set[str]) -> Iterable[_Element]:
        """``el``'s members, then those it inherits from what it is typed by or specialises."""
        if el.id in seen:
            return
        seen.add(el.id)
        yield from el.members
        for path, _c in el.types:
            target = self.resolve(path, el.owner)
            if target is not None:
                yield from self._members(target, seen)
        for path in el.supers + el.subsets:
            target = self.resolve(path, el.owner)
            if target is not None:
                yield from self._members(target, seen)
        for path in el.redefines:
            target = self.redefined(el, path, seen)
            if target is not None:
                yield from self._members(target, seen)

    def redefined(self, el: _Element, path: list[str], seen: set[str] | None = None) -> _Element | None:
        """The feature ``el`` redefines: one its owner inherits (not ``el`` itself), else by name."""
        if el.owner is not None and len(path) == 1:
            inherited = self._members(el.owner, set(seen or ()) - {el.owner.id})
            target = next((m for m in inherited if m is not el and path[-1] in (m.name, m.short)), None)
            if target is not None:
                return target
        target = self.resolve(path, el.owner)
        return None if target is el else target

    def _lookup(self, el: _Element, name: str) -> _Element | None:
        for m in self._members(el, set()):
            if name in (m.name, m.short):
                return m
        return None

    def resolve(self, path: list[str], scope: _Element | None, depth: int = 0) -> _Element | None:
        """The element a qualified name or feature chain names, seen from ``scope`` (SysML lookup:
        own and inherited members, imports, then the enclosing namespaces, then the roots).  Memoised;
        a lookup that needs itself (``part a : a;``, types that specialise each other) finds nothing."""
        if not path or depth > 12:
            return None
        key = (scope.id if scope is not None else None, tuple(path))
        if key in self._resolved:
            return self._resolved[key]
        if key in self._resolving:
            return None
        self._resolving.add(key)
        try:
            found = self._resolve(path, scope, depth)
        finally:
            self._resolving.discard(key)
        if not self._resolving:  # an answer found inside another lookup may be cut short by its guard
            self._resolved[key] = found
        return found

    def _resolve(self, path: list[str], scope: _Element | None, depth: int) -> _Element | None:
        found: _Element | None = None
        ns = scope
        while ns is not None and found is None:
            found = self._lookup(ns, path[0]) if ns.record["@type"] not in ("MetadataUsage",) else None
            if found is None:
                for ipath, recursive in ns.imports:
                    imported = self.resolve(ipath, ns.owner, depth + 1)
                    if imported is not None:
                        found = self._find_in(imported, path[0], recursive)
                        if found is not None:
                            break
            ns = ns.owner
        if found is None:
            found = next((r for r in self.roots if path[0] in (r.name, r.short)), None)
        for segment in path[1:]:
            if found is None:
                return None
            found = self._lookup(found, segment)
        return found

    def _find_in(self, ns: _Element, name: str, recursive: bool) -> _Element | None:
        for m in ns.members:
            if name in (m.name, m.short):
                return m
        if recursive:
            for m in ns.members:
                hit = self._find_in(m, name, True)
                if hit is not None:
                    return hit
        return None

    def finish(self) -> None:
        self.roots = [e for e in self.elements if e.owner is None and e.record["@type"] in ("Package", "LibraryPackage")]
        for el in list(self.elements):
            scope = el.owner
            for path, conjugated in el.types:
                target = self.resolve(path, scope)
                if target is None:
                    self.unresolved.add("::".join(path))
                elif conjugated:
                    self.relate("ConjugatedPortTyping", el, target, ("typedFeature", "portDefinition"),
                                type={"@id": element_id(f"{target.key}#conjugated")})
                else:
                    self.relate("FeatureTyping", el, target, ("typedFeature", "type"))
            for path in el.supers:
                target = self.resolve(path, scope)
                if target is None:
                    self.unresolved.add("::".join(path))
                else:
                    self.relate("Subclassification", el, target, ("subclassifier", "superclassifier"))
            for path in el.subsets:
                target = self.resolve(path, scope)
                if target is None:
                    self.unresolved.add("::".join(path))
                else:
                    self.relate("Subsetting", el, target, ("subsettingFeature", "subsettedFeature"))
            for path in el.redefines:
                target = self.redefined(el, path)
                if target is None:
                    self.unresolved.add("::".join(path))
                else:
                    self.relate("Redefinition", el, target, ("redefiningFeature", "redefinedFeature"))
        for end, conn, i in self.positional:
            defs = [t for t in (self.resolve(path, conn.owner) for path, _c in conn.types) if t is not None]
            ends = [m for d in defs for m in self._members(d, set()) if m.record.get("isEnd")]
            if i < len(ends):
                self.relate("Redefinition", end, ends[i], ("redefiningFeature", "redefinedFeature"))
        for kind, role, el, path, scope in self.deferred:
            target = self.resolve(path, scope)
            if target is None:
                self.unresolved.add("::".join(path) if kind == "import" else ".".join(path))
                continue
            if kind == "chain":
                self.chain(el, path, scope)
            elif kind == "end":
                self.relate("ReferenceSubsetting", el, target, ("referencingFeature", "referencedFeature"))
            else:
                if role == "importedMembership" and "owningRelationship" in target.record:
                    el.record[role] = target.record["owningRelationship"]
                else:
                    el.record[role] = _ref(target.id)
                el.record["target"] = [el.record[role]]
        self._conjugates()

    def chain(self, end: _Element, path: list[str], scope: _Element | None) -> None:
        """``connect orders.to_payments_http to ...``: the end's ``ReferenceSubsetting`` owns the feature
        chain it references, a ``Feature`` whose ``FeatureChaining``s name each feature in turn (the
        part ``orders``, then its port)."""
        first = self.resolve(path[:1], scope)
        steps = [first] if first is not None else []
        for segment in path[1:]:
            if not steps:
                break
            nxt = self._lookup(steps[-1], segment)
            if nxt is None:
                steps = []
                break
            steps.append(nxt)
        if len(steps) != len(path):
            self.unresolved.add(".".join(path))
            return
        feature = self.element("Feature", f"{end.key}#chain", None)
        key = self._unique(f"{end.key}#ReferenceSubsetting#chain")
        eid = element_id(key)
        self.relations.append({"@type": "ReferenceSubsetting", "@id": eid, "elementId": eid,
                               "referencingFeature": _ref(end.id), "referencedFeature": _ref(feature.id),
                               "ownedRelatedElement": [_ref(feature.id)], "owningRelatedElement": _ref(end.id),
                               "source": [_ref(end.id)], "target": [_ref(feature.id)]})
        end.record["ownedRelationship"].append(_ref(eid))
        feature.record["owningRelationship"] = _ref(eid)
        for step in steps:
            self.relate("FeatureChaining", feature, step, ("featureChained", "chainingFeature"))

    def _conjugates(self) -> None:
        """A port def that some port is typed ``~`` by owns its ``ConjugatedPortDefinition`` (``'~T'``)."""
        wanted = {r["portDefinition"]["@id"] for r in self.relations if r["@type"] == "ConjugatedPortTyping"}
        for eid in sorted(wanted):
            port_def = self.by_id[eid]
            conj = self.element("ConjugatedPortDefinition", f"{port_def.key}#conjugated", None, f"~{port_def.name}")
            assert conj.id == element_id(f"{port_def.key}#conjugated")
            self.own(port_def, conj, "OwningMembership")
            port_def.members.remove(conj)  # not a named member for lookup
            self.relate("PortConjugation", conj, port_def, ("conjugatedType", "originalPortDefinition"))

    def records(self) -> list[Record]:
        out = [e.record for e in self.elements] + self.relations
        return out


def _unstring(text: str) -> str:
    inner = text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text
    return inner.replace('\\"', '"').replace("\\\\", "\\")


def records_from_texts(texts: list[tuple[str, str]]) -> Records:
    """Records of SysML texts read together (``[(name, text)]``, e.g. the library and the model)."""
    parser = _parser()
    reader = _Reader()
    for name, text in texts:
        src = text.encode("utf-8")
        tree = parser.parse(src)
        if tree.root_node.has_error:
            raise RepomodelerError(f"error: {name} is not valid SysML v2 text (tree-sitter-sysml reports a syntax "
                                   "error); re-run `repomodeler export --format sysml` or `analyze`")
        try:
            reader.read(None, tree.root_node, src)
        except RecursionError:
            raise RepomodelerError(f"error: {name} nests elements too deeply to push (over a few hundred levels); "
                                   "is it a model analyze wrote?") from None
    try:
        reader.finish()
    except RecursionError:
        raise RepomodelerError("error: the model's references are nested too deeply to resolve; is it a model "
                               "analyze wrote?") from None
    return Records(reader.records(), sorted(reader.unresolved), {e.id: e.key for e in reader.elements})


#: the SysML files analyze writes into a model folder, the library first (other .sysml files there, a
#: target or notes, are the user's and are not pushed)
MODEL_FILES = ("RepoModeler.sysml", "model.sysml")


def model_files(model_dir: Path) -> list[Path]:
    """The SysML files of a model folder a push sends (no symlink is followed out of the folder)."""
    return [model_dir / n for n in MODEL_FILES if (model_dir / n).is_file() and not (model_dir / n).is_symlink()]


def records_from_model_dir(model_dir: Path) -> Records:
    files = model_files(model_dir)
    if not any(p.name == "model.sysml" for p in files):
        raise RepomodelerError(f"error: {model_dir} has no model.sysml; run `repomodeler analyze ... --out {model_dir}` "
                               "first")
    return records_from_texts([(p.name, p.read_text(encoding="utf-8")) for p in files])
