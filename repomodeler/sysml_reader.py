"""Read SysML v2 text (emitted models and hand-written targets) back into typed architecture records.

The reader is deliberately tolerant: it uses the tree-sitter-sysml grammar (a concrete syntax
tree, no name resolution), maps ``part`` usages inside the system part to components, their
``port`` usages and endpoint ``item`` usages to ports and endpoints, and every connector form
(``interface``, ``connection``, ``connect``, ``flow``, ``message``) to a connection between the
first segments of its two ends.  Whatever it cannot map is reported as a :class:`ReaderNote`
with file and line, never silently dropped, so a user editing a target sees what was ignored.

What it reads is the canonical :class:`repomodeler.model.Model`, the same records ``model.json`` and
stored runs are read into, so diff and check work on one representation whatever the source.
"""

from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Callable

from repomodeler.emit.names import INHERITED_NAMES, sysml_name
from repomodeler.model.records import Component, Connection, Declared, Endpoint, Model, Port, ReaderNote
from repomodeler.records import PROTOCOLS, Evidence, RepomodelerError

KIND_BY_TYPE: dict[str, str] = {
    "Service": "service", "Database": "database", "Cache": "cache", "Broker": "broker", "Gateway": "gateway",
    "ExternalSystem": "external", "Library": "library", "User": "user",
    # common hand-written spellings
    "External": "external", "ExternalService": "external", "DataStore": "database", "Datastore": "database",
    "MessageBroker": "broker", "Queue": "broker", "ApiGateway": "gateway", "Person": "user",
    "WebApp": "webapp", "WebApplication": "webapp", "SinglePageApp": "webapp",
    "Subsystem": "subsystem",  # a part inside a component (emitted nested in the component's part)
}
# Prefix of a port / interface definition name -> protocol (HttpApi, HttpLink, GrpcConnection...).
PROTOCOL_BY_PREFIX: dict[str, str] = {
    "http": "http", "grpc": "grpc", "sql": "sql", "mongo": "mongodb", "mongodb": "mongodb", "redis": "redis",
    "amqp": "amqp", "kafka": "kafka", "nats": "nats", "elasticsearch": "elasticsearch", "tcp": "tcp",
    "library": "library",  # LibraryLink: a build-time dependency (the emitter's BUILD_PROTOCOL)
    "grpchealth": "grpc",  # the library's GrpcHealthApi / GrpcHealthLink (grpc.health.v1)
    "import": "import",  # ImportLink: a subsystem importing another (model.json's depends_on edges)
}
_DOC_NAME = re.compile(r"^doc /\* \w+ '(.+?)'")  # emitted part docs start "Service 'orders' ..."
_PLAIN_WORD = re.compile(r"^[a-z][a-z0-9]*$")
_DEF_SUFFIX = re.compile(r"(Api|Link|Access|Connection|Interface|Port|Flow|Channel)$")
# Attribute names as written in SysML -> the key used in model.json attributes.
ATTRIBUTE_KEYS: dict[str, str] = {"exposedPorts": "ports", "publishedPorts": "ports", "packageName": "package"}
CONNECTOR_NODES = {"interface_usage", "connection_usage", "connect_statement", "flow_usage", "flow_statement",
                   "message_statement"}
# Constructs that carry no architecture (documentation, imports, views, definitions): skipped quietly.
IGNORED_NODES = {"documentation", "comment", "block_comment", "line_comment", "comment_statement", "import_statement",
                 "metadata_usage", "view_usage", "viewpoint_usage", "expose_statement", "render_statement",
                 "alias_statement", "part_definition", "port_definition", "interface_definition",
                 "connection_definition", "item_definition", "attribute_definition", "enumeration_definition",
                 "metadata_definition", "flow_definition", "action_definition", "requirement_definition",
                 "requirement_usage", "satisfy_statement", "concern_usage", "stakeholder_usage",
                 "bind_statement"}
# Connectors that carry no link of their own: a port delegated from a nested part to its holder's port
# (the link it carries is the component's connection and the part's PartLink).
DELEGATION_DEFS = {"Delegation"}


@dataclass
class _Port:
    """A port as the reader builds it (a port of :class:`repomodeler.model.Port` once read)."""

    name: str
    protocol: str
    direction: str = "provided"
    endpoints: list[tuple[str, str]] = field(default_factory=list)  # (method, path)


@dataclass
class _Part:
    """A part usage as the reader builds it: a component, or (``parent`` set) a part nested in one."""

    id: str
    kind: str
    attributes: dict[str, str] = field(default_factory=dict)
    ports: dict[str, _Port] = field(default_factory=dict)
    evidence: list[Evidence] = field(default_factory=list)
    where: str = ""
    sysml_ref: str = ""
    parent: str = ""


@dataclass
class _Link:
    """A connector as the reader builds it."""

    source: str
    target: str
    protocol: str
    kind: str = "connects"
    name: str = ""
    evidence: list[Evidence] = field(default_factory=list)
    where: str = ""
    sysml_ref: str = ""


@contextmanager
def gc_paused():  # type: ignore[no-untyped-def]
    """Pause the cyclic garbage collector while a big model is built: it makes nothing cyclic, but
    each collection walks every object made so far, which costs a third of the time at 100,000 parts."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@lru_cache(maxsize=1)
def _parser():  # type: ignore[no-untyped-def]
    try:
        import tree_sitter_sysml
        from tree_sitter import Language, Parser
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise RepomodelerError("error: tree-sitter-sysml is missing; run 'pip install tree-sitter-sysml'") from exc
    return Parser(Language(tree_sitter_sysml.language()))


def protocol_from_type(type_name: str | None) -> str | None:
    """HttpApi / HttpLink / RepoModeler::GrpcApi / ~SqlApi -> 'http' / 'grpc' / 'sql'; None if unknown."""
    if not type_name:
        return None
    base = type_name.split("::")[-1].lstrip("~").strip("'")
    stem = _DEF_SUFFIX.sub("", base).lower()
    if stem in PROTOCOL_BY_PREFIX:
        return PROTOCOL_BY_PREFIX[stem]
    return stem if stem in PROTOCOLS else None


def unquote(name: str) -> str:
    name = name.strip()
    if len(name) >= 2 and name[0] == "'" and name[-1] == "'":
        return name[1:-1].replace("\\'", "'").replace("\\\\", "\\")
    return name


def _string_value(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return text


def _enum_value(text: str) -> str:
    """`Protocol::grpc`, `'library'`, `"grpc"` (already unquoted) -> `grpc`."""
    return unquote(text.split("::")[-1]).lower()


def component_id(name: str, kind: str) -> str:
    """Undo the emitter's rename of names that clash with inherited features ('start-service' or
    'start_service' -> 'start')."""
    for suffix in (f"-{kind}", f"_{kind}"):
        if name.endswith(suffix) and name[: -len(suffix)].lower() in INHERITED_NAMES:
            return name[: -len(suffix)]
    return name


#: package name -> (text, path) of the .sysml file declaring it, or None
Resolver = Callable[[str], "tuple[str, str] | None"]


class _Reader:
    """One file's walk; collects components, connections and notes."""

    def __init__(self, text: str, path: str, resolve: Resolver | None = None, depth: int = 0) -> None:
        self.src = text.encode("utf-8")
        self.path = path
        self.resolve = resolve  # package name -> (text, path) of the file declaring it, for a specialized system def
        self.depth = depth
        self.inherited: set[str] = set()  # component ids read from the system def this one specializes
        self.retired: list[tuple[object, str]] = []  # (node, name) of `part :>> name[0];` / `interface :>> name[0];`
        self.notes: list[ReaderNote] = []
        self.components: dict[str, _Part] = {}
        self.connections: list[_Link] = []
        self.part_defs: dict[str, str | None] = {}  # local part def name -> its supertype name
        self.part_def_nodes: dict[str, object] = {}  # local part def name -> its node (a typed 'part system')
        # local port / interface / connection def -> its supertype (CartServiceApi -> GrpcApi), for protocols
        self.api_defs: dict[str, str | None] = {}
        self.package = ""
        self.member_ids: dict[str, str] = {}  # SysML part name -> component id (they differ when renamed)
        # (connector, prefix, namespace, the part whose body declares it or None), read once every part is known
        self.pending: list[tuple[object, str | None, str, str | None]] = []
        self.parts: dict[str, _Part] = {}  # parts nested in components, by id
        self.children: dict[str, dict[str, str]] = {}  # holder id -> member name (or short name) -> nested part id
        self._end_index: dict[str, str] | None = None  # name -> component id, built for connectors (see _resolve_end)
        self.namespace: list[str] = []  # enclosing package / part names as written (quoted when needed)

    # -- tree helpers -------------------------------------------------------------------------
    def text(self, node) -> str:  # type: ignore[no-untyped-def]
        return self.src[node.start_byte:node.end_byte].decode("utf-8")

    def line(self, node) -> int:  # type: ignore[no-untyped-def]
        return node.start_point[0] + 1

    def note(self, node, message: str) -> None:  # type: ignore[no-untyped-def]
        self.notes.append(ReaderNote(self.path, self.line(node), message))

    @staticmethod
    def child(node, *types: str):  # type: ignore[no-untyped-def]
        for c in _kids(node):
            if c.type in types:
                return c
        return None

    def decl_name(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """The declared name of a usage or definition (identification under usage_declaration or directly)."""
        decl = self.child(node, "usage_declaration") or node
        ident = self.child(decl, "identification")
        if ident is None:
            return None
        name = self.child(ident, "name")
        return unquote(self.text(name)) if name is not None else None

    def short_name(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """The short name (``<'api.stripe.com'>``) of a usage or definition; emitted models keep ids there."""
        decl = self.child(node, "usage_declaration") or node
        ident = self.child(decl, "identification")
        short = self.child(ident, "short_name") if ident is not None else None
        name = self.child(short, "name") if short is not None else None
        return unquote(self.text(name)) if name is not None else None

    def type_name(self, node) -> tuple[str | None, bool]:  # type: ignore[no-untyped-def]
        """The first type of a usage (`: T` or `: ~T`) and whether it is conjugated."""
        decl = self.child(node, "usage_declaration") or node
        typing = self.child(decl, "typing_part")
        if typing is None:
            rel = self.child(decl, "relationship_part")
            spec = self.child(rel, "specialization_part") if rel is not None else None
            chain = self.child(spec, "feature_chain", "qualified_name") if spec is not None else None
            return (self.text(chain) if chain is not None else None), False
        qn = self.child(typing, "qualified_name")
        conj = any(c.type == "~" for c in typing.children)
        return (self.text(qn) if qn is not None else None), conj

    def body(self, node):  # type: ignore[no-untyped-def]
        return self.child(node, "usage_body", "structural_body", "package_body", "action_body")

    def attributes(self, body) -> dict[str, tuple[str, object]]:  # type: ignore[no-untyped-def]
        """`attribute :>> x = "v";` and `attribute x = "v";` in a body -> {x: (value, node)}."""
        found: dict[str, tuple[str, object]] = {}
        if body is None:
            return found
        mappings: list[str] = []
        for c in _kids(body):
            if c.type not in ("attribute_usage", "redefines_statement"):
                continue
            name_node = self.child(c, "feature_chain")
            name = unquote(self.text(name_node)) if name_node is not None else self.decl_name(c)
            holder = self.child(c, "usage_declaration") or c
            if name_node is None and self._subsets(holder) == "publishedPorts":
                # `attribute port_8080 :> publishedPorts { :>> containerPort = 80; :>> hostPort = 8080; }`
                values = {k: v for k, (v, _n) in self.attributes(self.body(c)).items()}
                if values.get("containerPort"):
                    text = values["containerPort"]
                    if values.get("hostPort"):
                        text = f"{values['hostPort']}:{text}"
                    if values.get("transport"):
                        text += f"/{values['transport']}"
                    mappings.append(text)
                continue
            value = self.child(holder, "value_part") or self.child(c, "value_part")
            lit = None
            if value is not None:
                lit = next((n for n in _kids(value) if n.type in ("literal", "qualified_name")), None)
                measured = self.child(value, "measurement_expression")
                if lit is None and measured is not None:  # `64 [SI::byte]`: the number, in its unit
                    lit = self.child(measured, "literal")
            if name and lit is not None:
                found[name] = (_string_value(self.text(lit)), c)
        if mappings:
            found["publishedPorts"] = (",".join(mappings), body)
        return found

    def _subsets(self, decl) -> str | None:  # type: ignore[no-untyped-def]
        """The feature a usage subsets (``attribute x :> publishedPorts``), as written."""
        rel = self.child(decl, "relationship_part")
        spec = self.child(rel, "specialization_part") if rel is not None else None
        chain = self.child(spec, "feature_chain", "qualified_name") if spec is not None else None
        return self.text(chain) if chain is not None else None

    # -- walk -----------------------------------------------------------------------------------
    def read(self) -> None:
        tree = _parser().parse(self.src)
        self._syntax_errors(tree.root_node)
        for pkg in _kids(tree.root_node):
            if pkg.type in ("package_definition", "library_package"):
                self._package(pkg)
            elif pkg.type == "part_usage":
                self._system(pkg)
            elif pkg.type not in IGNORED_NODES:
                self.note(pkg, f"top-level '{pkg.type}' not mapped (expected a package)")
        pending, self.pending = self.pending, []
        for i, (node, prefix, where, scope) in enumerate(pending):
            pending[i] = None  # type: ignore[call-overload]  # what reading it cached goes with it
            self._connection(node, prefix, where, scope)
        self._retire()

    def _syntax_errors(self, node) -> None:  # type: ignore[no-untyped-def]
        if node.type == "ERROR" or node.is_missing:
            snippet = " ".join(self.text(node).split())[:60]
            self.note(node, f"syntax error near '{snippet}'; this part of the file was not read")
            return
        if node.has_error:
            for c in node.children:
                self._syntax_errors(c)

    def _package(self, pkg) -> None:  # type: ignore[no-untyped-def]
        name = self.short_name(pkg) or self.decl_name(pkg) or ""
        if name == "RepoModeler":
            return  # the shared library: definitions only
        body = self.body(pkg)
        if body is None:
            return
        self.namespace.append(sysml_name(self.decl_name(pkg) or name))
        try:
            self._package_body(pkg, name, body)
        finally:
            self.namespace.pop()

    def _package_body(self, pkg, name: str, body) -> None:  # type: ignore[no-untyped-def]
        for c in _kids(body):
            if c.type in ("port_definition", "interface_definition", "connection_definition"):
                self.api_defs[self.decl_name(c) or ""] = self._supertype(c)
            if c.type == "part_definition":
                self.part_defs[self.decl_name(c) or ""] = self._supertype(c)
                self.part_def_nodes[self.decl_name(c) or ""] = c
        parts = [c for c in _kids(body) if c.type == "part_usage"]
        systems = [p for p in parts if self.decl_name(p) == "system"]
        containers = [p for p in parts if any(n.type == "part_usage" for n in _kids(self.body(p) or p))]
        if systems:
            for extra in systems[1:]:
                self.note(extra, "second 'part system' not read; one system per file")
            self.package = self.package or name
            self._system(systems[0])
        elif containers:
            # No 'part system': every part that holds parts is a group of components (e.g. one per
            # repository); parts and connectors written directly in the package count too.
            self.package = self.package or name
            for group in containers:
                self._system(group)
            self._members(body, skip={g.start_byte for g in containers})
        elif parts or any(c.type in CONNECTOR_NODES for c in _kids(body)):
            self.package = self.package or name
            self._members(body)  # components written directly in the package
        for c in _kids(body):
            if c.type == "package_definition":
                self._package(c)

    def _supertype(self, definition) -> str | None:  # type: ignore[no-untyped-def]
        spec = self.child(definition, "definition_specialization", "relationship_part", "specialization_part")
        if spec is None:
            return None
        qn = next((n for n in _walk(spec) if n.type in ("qualified_name", "feature_chain")), None)
        return self.text(qn) if qn is not None else None

    def protocol_of(self, type_name: str | None) -> str | None:
        """The protocol of a port or connector type: from its name (HttpApi), else from the local def's
        supertypes (``port def CartServiceApi :> GrpcApi`` -> grpc)."""
        seen: set[str] = set()
        while type_name:
            found = protocol_from_type(type_name)
            if found:
                return found
            base = unquote(type_name.split("::")[-1].lstrip("~"))
            if base in seen or base not in self.api_defs:
                return None
            seen.add(base)
            type_name = self.api_defs[base]
        return None

    def _system(self, system) -> None:  # type: ignore[no-untyped-def]
        body = self.body(system)
        container = sysml_name(self.decl_name(system) or "system")
        if body is None or not any(c.type == "part_usage" for c in _kids(body)):
            # `part system : ShopSystem;` -- the components are in the (local) part def it is typed by
            tname, _ = self.type_name(system)
            typed = self.part_def_nodes.get((tname or "").split("::")[-1].strip("'"))
            body = self.body(typed) if typed is not None else body
            if typed is not None:
                container = sysml_name(self.decl_name(typed) or "")
                self._inherit(typed)
        if body is not None:
            self.namespace.append(container)
            try:
                self._members(body, prefix=self.decl_name(system))
            finally:
                self.namespace.pop()

    def _inherit(self, definition) -> None:  # type: ignore[no-untyped-def]
        """``part def ShopTargetSystem :> shop::ShopSystem``: a system def specializing another model's
        system def (a target scaffolded by ``target init``) has every part and connector of it; they are
        read first, from the file beside this one that declares that package, and this def's own body
        adds to them, replaces them (``part orders :>> orders : Service { .. }``) or retires them
        (``part :>> inventory[0];``)."""
        base = self._supertype(definition)
        if not base or "::" not in base or self.resolve is None:
            return  # `:> System` (the library's) or a local def: nothing to inherit
        package = unquote(base.split("::")[0])  # the top-level package of the file declaring it
        if package == "RepoModeler":
            return  # `:> RepoModeler::System`: the library's, which has no parts
        found = self.resolve(package) if self.depth < 8 else None
        if found is None:
            self.note(definition, f"'{base}' is not declared in a .sysml file beside {Path(self.path).name}; "
                                  "its parts are not read (put the model's model.sysml beside the target)")
            return
        text, path = found
        other = _Reader(text, path, self.resolve, self.depth + 1)
        other.read()
        if other.package != package or not other.components:
            self.note(definition, f"'{base}' declares no system in {path}; its parts are not read")
            return
        self.notes.extend(other.notes)
        for key in ("components", "parts", "children", "member_ids", "api_defs"):
            getattr(self, key).update(getattr(other, key))
        for key, value in other.part_defs.items():
            self.part_defs.setdefault(key, value)
        self.connections.extend(other.connections)
        self.inherited.update(other.components)
        self._end_index = None

    def _redefined(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """The last name of the feature a usage redefines (``part payments :>> payments``), else None."""
        decl = self.child(node, "usage_declaration") or node
        rel = self.child(decl, "relationship_part")
        red = self.child(rel, "redefinition_part") if rel is not None else None
        chain = self.child(red, "feature_chain", "qualified_name") if red is not None else None
        if chain is None:
            return None
        return unquote(self.text(chain).replace(".", "::").split("::")[-1])

    def _retiring(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """``part :>> inventory[0];``: the name of the inherited feature a usage retires (redefines with
        multiplicity 0), else None."""
        decl = self.child(node, "usage_declaration") or node
        mult = self.child(decl, "multiplicity")
        bounds = [self.text(b).strip() for b in _kids(mult)] if mult is not None else []
        if not bounds or any(b != "0" for b in bounds):
            return None
        return self._redefined(node)

    def _retire(self) -> None:
        """Drop what ``:>> name[0]`` retired: a part (with the parts nested in it and every connection of
        theirs) or a connector, by its SysML name or its short name (the real id)."""
        for node, name in self.retired:
            cid = self.member_ids.get(name) or (name if name in self.components else None)
            if cid is not None:
                gone = {cid, *(p for p in self.parts if p.startswith(cid + "/"))}
                for key in gone:
                    self.components.pop(key, None)
                    self.parts.pop(key, None)
                self.member_ids = {k: v for k, v in self.member_ids.items() if v not in gone}
                self.connections = [c for c in self.connections if c.source not in gone and c.target not in gone]
                continue
            kept = [c for c in self.connections if c.name != name and f"{c.source}-{c.target}-{c.protocol}" != name]
            if len(kept) == len(self.connections):
                self.note(node, f"'{name}' retired with [0] is neither a part nor a connection of the system")
            self.connections = kept
        self._end_index = None

    def _members(self, body, prefix: str | None = None,  # type: ignore[no-untyped-def]
                 skip: set[int] | None = None) -> None:
        connectors = []
        for c in _kids(body):
            if skip and c.start_byte in skip:
                continue
            retired = self._retiring(c) if c.type == "part_usage" or c.type in CONNECTOR_NODES else None
            if retired is not None:
                self.retired.append((c, retired))
                continue
            if c.type == "part_usage":
                self._component(c)
            elif c.type in CONNECTOR_NODES:
                connectors.append(c)
            elif c.type in IGNORED_NODES or c.type in ("ERROR", "package_definition", "attribute_usage"):
                continue  # attributes of the system itself (e.g. a version) are not architecture
            else:
                self.note(c, f"'{c.type.replace('_', ' ')}' {self.decl_name(c) or ''} not mapped to the architecture"
                          .replace("  ", " "))
        self.pending.extend((c, prefix, "::".join(self.namespace), None) for c in connectors)

    def _kind(self, type_name: str | None, node) -> str:  # type: ignore[no-untyped-def]
        seen: set[str] = set()
        name = type_name
        while name and name not in seen:
            seen.add(name)
            base = name.split("::")[-1].strip("'")
            if base in KIND_BY_TYPE:
                return KIND_BY_TYPE[base]
            name = self.part_defs.get(base)
        what = f"typed '{type_name}'" if type_name else "untyped"
        self.note(node, f"part '{self.decl_name(node)}' is {what}; assumed to be a service")
        return "service"

    def _component(self, node, parent: _Part | None = None) -> None:  # type: ignore[no-untyped-def]
        """A part usage: a component of the system, or (with `parent`) a part nested in one, read with
        the parts and connectors of its own body."""
        redefined = self._redefined(node) if parent is None else None
        base = self.components.get(self.member_ids.get(redefined or "", "")) if redefined else None
        if base is not None and base.id not in self.inherited:
            base = None
        name = self.decl_name(node) or (redefined if base is not None else None)
        if not name:
            self.note(node, "part usage without a name not mapped")
            return
        tname, _ = self.type_name(node)
        body = self.body(node)
        attrs = self.attributes(body)
        if "kind" in attrs:
            kind = _enum_value(attrs["kind"][0])
        elif base is not None and tname is None:
            kind = base.kind  # `part payments :>> payments { port .. }`: the inherited part, with more
        else:
            kind = self._kind(tname, node)
        if base is not None:
            cid = base.id
        elif parent is not None:  # emitted ids are '<parent id>/<name>', kept as the short name
            cid = self.short_name(node) or f"{parent.id}/{name}"
        else:
            cid = self.short_name(node) or component_id(name, kind)  # emitted models keep the real id as short name
            doc = self.child(body, "documentation") if body is not None else None
            m = _DOC_NAME.match(" ".join(self.text(doc).split())) if doc is not None else None
            if m and (name.startswith(m.group(1) + "-") or name.startswith(m.group(1) + "_")):
                cid = m.group(1)  # the emitter renamed a clashing name ('start_service'); its doc keeps the id
        comp = _Part(id=cid, kind=kind, where=f"{self.path}:{self.line(node)}",
                              sysml_ref="::".join([*self.namespace, sysml_name(name)]),
                              parent=parent.id if parent is not None else "")
        if base is not None:  # a redefinition keeps what it does not restate
            comp.attributes.update(base.attributes)
            comp.ports.update(base.ports)
            comp.evidence.extend(base.evidence)
        for key, (value, _n) in attrs.items():
            if key != "kind":
                comp.attributes[ATTRIBUTE_KEYS.get(key, key)] = value
        nested, connectors = [], []
        for c in _kids(body):
            if c.type == "port_usage":
                port = self._port(c)
                if port is not None:
                    comp.ports[port.name] = port
            elif c.type == "metadata_usage":
                ev = self._source_ref(c)
                if ev:
                    comp.evidence.append(ev)
            elif c.type == "part_usage":
                nested.append(c)
            elif c.type in CONNECTOR_NODES:
                connectors.append(c)
            elif c.type in IGNORED_NODES or c.type in ("attribute_usage", "ERROR"):
                continue
            else:
                self.note(c, f"'{c.type.replace('_', ' ')}' in part '{name}' not mapped "
                             "(only ports, attributes, metadata, parts and connectors are read)")
        comp.evidence.sort()
        if parent is None:
            if comp.id in self.inherited:  # `part orders :>> orders ..`: redefines the inherited part
                self.inherited.discard(comp.id)
            elif comp.id in self.components:
                self.note(node, f"part '{name}' declared twice; the later declaration wins")
            self.components[comp.id] = comp
            self.member_ids[name] = comp.id
        else:
            if comp.id in self.parts or comp.id in self.components:
                self.note(node, f"part '{name}' declared twice; the later declaration wins")
            self.parts[comp.id] = comp
            members = self.children.setdefault(parent.id, {})
            short = self.short_name(node)
            for spelling in ((short, name) if short else (name,)):
                members.setdefault(spelling, comp.id)
        if nested or connectors:
            self.namespace.append(sysml_name(name))
            try:
                for c in nested:
                    self._component(c, parent=comp)
                self.pending.extend((c, None, "::".join(self.namespace), comp.id) for c in connectors)
            finally:
                self.namespace.pop()

    def _source_ref(self, node) -> Evidence | None:  # type: ignore[no-untyped-def]
        qn = self.child(node, "qualified_name")
        if qn is None or self.text(qn).split("::")[-1] != "SourceRef":
            return None
        values: dict[str, str] = {}
        for stmt in _walk(node):
            if stmt.type == "binary_expression" and len(_kids(stmt)) >= 2:
                values[unquote(self.text(_kids(stmt)[0]))] = _string_value(self.text(_kids(stmt)[-1]))
        if "path" not in values:
            return None
        line = values.get("line", "0")
        return Evidence(values.get("repository", ""), values["path"], int(line) if line.isdigit() else 0)

    def _port(self, node) -> _Port | None:  # type: ignore[no-untyped-def]
        name = self.decl_name(node)
        if not name:
            self.note(node, "port usage without a name not mapped")
            return None
        tname, conj = self.type_name(node)
        body = self.body(node)
        attrs = self.attributes(body)
        protocol = _enum_value(attrs["protocol"][0]) if "protocol" in attrs else self.protocol_of(tname)
        generic = unquote((tname or "").split("::")[-1]) == "OtherApi"
        if protocol is None and generic and not conj and _PLAIN_WORD.match(name):
            protocol = name  # the emitter names its port for a protocol the library has no port def for after it
        if protocol is None:
            protocol = protocol_from_type(name) or "tcp"
        port = _Port(name=name, protocol=protocol, direction="required" if conj else "provided")
        for c in _kids(body):
            if c.type in ("item_usage", "reference_usage"):
                ep_attrs = self.attributes(self.body(c))
                label = self.decl_name(c) or ""
                method, _, path = label.partition(" ")
                method = ep_attrs["method"][0] if "method" in ep_attrs else method
                path = ep_attrs["path"][0] if "path" in ep_attrs else path
                if not path and method.startswith("/"):
                    method, path = "", method
                port.endpoints.append((method.upper(), path))
            elif c.type in IGNORED_NODES or c.type in ("attribute_usage", "ERROR"):
                continue
            else:
                self.note(c, f"'{c.type.replace('_', ' ')}' in port '{name}' not mapped (endpoints are `item` usages)")
        port.endpoints.sort()
        return port

    def _ends(self, node) -> list:  # type: ignore[no-untyped-def]
        """The feature chains of a connector's ends, in order, whatever connector form it is."""
        ends = []
        for c in _kids(node):
            if c.type in ("interface_part", "connection_part", "flow_part"):
                ends.extend(self._ends(c))
            elif c.type in ("connect_endpoint", "interface_endpoint"):
                chain = self.child(c, "feature_chain", "qualified_name")
                if chain is not None:
                    ends.append(chain)
            elif c.type == "feature_chain":
                ends.append(c)
        if not ends:  # `connection c : T { end a ::> x; end b ::> y; }`
            body = self.body(node)
            for c in _kids(body):
                if c.type == "end_usage":
                    chain = next((n for n in _walk(c) if n.type == "feature_chain"), None)
                    if chain is not None:
                        ends.append(chain)
        return ends

    def _chain(self, chain, prefix: str | None) -> list[str]:  # type: ignore[no-untyped-def]
        parts = [unquote(self.text(n)) for n in _kids(chain) if n.type == "name"] or \
            [unquote(p) for p in self.text(chain).replace("::", ".").split(".")]
        if prefix and len(parts) > 1 and parts[0] == prefix:
            parts = parts[1:]
        return parts

    def _descend(self, holder: str, chain: list[str]) -> tuple[str, list[str]]:
        """Follow `chain` (after the segment naming `holder`) down the parts nested in `holder`: the
        innermost part it names, and the chain from that part on (``ollama.server.api`` -> ollama/server)."""
        at = 0
        while at + 1 < len(chain) and chain[at + 1] in self.children.get(holder, {}):
            holder = self.children[holder][chain[at + 1]]
            at += 1
        return holder, chain[at:]

    def _element(self, cid: str) -> _Part:
        return self.components[cid] if cid in self.components else self.parts[cid]

    def _connection(self, node, prefix: str | None, where: str = "",  # type: ignore[no-untyped-def]
                    scope: str | None = None) -> None:
        """A connector in the system (`scope` None) or in the body of a part: in a part, its ends name
        that part's nested parts (``connect server to api`` inside ``part ollama``)."""
        what = node.type.split("_")[0]
        if unquote((self.type_name(node)[0] or "").split("::")[-1]) in DELEGATION_DEFS:
            return
        ends = self._ends(node)
        if len(ends) != 2:
            self.note(node, f"'{what}' with {len(ends)} ends not mapped (a connection needs exactly two)")
            return
        chains = [self._chain(e, prefix) for e in ends]
        ids = []
        for i, chain in enumerate(chains):
            if scope is not None:
                inside = self.children.get(scope, {})
                if chain[0] not in inside:
                    self.note(node, f"'{what}' end '{'.'.join(chain)}' is not a part of '{scope}'; "
                                    "connection not mapped")
                    return
                ids.append(inside[chain[0]])
                ids[-1], chains[i] = self._descend(ids[-1], chain)
                continue
            # the first segment that names a component: `orders.port`, or `group.orders.port`
            cid = next((c for c in (self._resolve_end(seg) for seg in chain[:-1] or chain) if c), None)
            if cid is None:
                cid = self._resolve_end(chain[-1])
            if cid is not None:
                at = next((k for k, seg in enumerate(chain) if self._resolve_end(seg) == cid), 0)
                cid, chains[i] = self._descend(cid, chain[at:])  # `ollama.server`: a part inside ollama
            if cid is None:
                self.note(node, f"'{what}' end '{'.'.join(chain)}' is not a part of the system; connection not mapped")
                return
            ids.append(cid)
        tname, _ = self.type_name(node)
        attrs = self.attributes(self.body(node))
        protocol = None
        if "protocol" in attrs:
            protocol = _enum_value(attrs["protocol"][0])
        protocol = protocol or self.protocol_of(tname)
        if protocol is None:
            for cid, chain in zip(ids, chains):
                port = self._element(cid).ports.get(chain[1]) if len(chain) > 1 else None
                if port is not None and port.protocol != "tcp":
                    protocol = port.protocol
                    break
        name = self.decl_name(node) or ""
        emitted = f"{ids[0]}-{ids[1]}-"  # an emitted connector's short name: '<source>-<target>-<protocol>'
        short = self.short_name(node) or ""
        if protocol is None and short.startswith(emitted) and len(short) > len(emitted):
            protocol = short[len(emitted):]  # a protocol the library has no port def for ('process')
        if protocol is None and name.rpartition("-")[2] in PROTOCOLS and name.count("-") >= 2:
            protocol = name.rpartition("-")[2]  # the emitter's naming: '<source>-<target>-<protocol>'
        if protocol is None:
            protocol = "tcp"
            self.note(node, f"'{what}' {ids[0]} -> {ids[1]} names no protocol; assumed tcp "
                            "(type it, e.g. ': GrpcLink', or add attribute protocol = \"grpc\")")
        conn = _Link(source=ids[0], target=ids[1], protocol=protocol, kind=what,
                               name=self.decl_name(node) or "", where=f"{self.path}:{self.line(node)}",
                               sysml_ref=f"{where}::{sysml_name(name)}" if name and where else "")
        body = self.body(node)
        for c in _kids(body):
            if c.type == "metadata_usage":
                ev = self._source_ref(c)
                if ev:
                    conn.evidence.append(ev)
        conn.evidence.sort()
        self.connections.append(conn)  # those with a nested end are set apart in read_sysml_text

    def _resolve_end(self, name: str) -> str | None:
        if name in self.member_ids:
            return self.member_ids[name]
        if name in self.components:
            return name
        if self._end_index is None:
            # Connectors are read after every part, so the components are final here. The first
            # component (in declaration order) whose id `name` spells wins, as a scan would find.
            self._end_index = {}
            for comp in self.components.values():
                for spelling in (comp.id, f"{comp.id}-{comp.kind}"):
                    if component_id(spelling, comp.kind) == comp.id:
                        self._end_index.setdefault(spelling, comp.id)
        return self._end_index.get(name)


def _kids(node) -> list:  # type: ignore[no-untyped-def, type-arg]
    """The named children of `node`, as fresh objects.

    py-tree-sitter caches a node's ``children`` on the node object (``named_children`` is read from
    that cache), so walking a tree through them keeps a Python object for every node visited for as
    long as the root is referenced: 1 GB more for a 32 MB model, on top of the 0.6 GB tree. A cursor
    hands out nodes that cache nothing; they are freed once the reader is done with them.
    """
    if node is None:
        return []
    cursor = node.walk()
    if not cursor.goto_first_child():
        return []
    kids = []
    while True:
        child = cursor.node
        if child.is_named:
            kids.append(child)
        if not cursor.goto_next_sibling():
            return kids


def _walk(node):  # type: ignore[no-untyped-def]
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(_kids(n)))


def read_model_text(text: str, path: str = "<text>", resolve: Resolver | None = None) -> Model:
    """Parse one SysML document into the canonical :class:`~repomodeler.model.Model`: its parts as
    components (nested ones with their ``parent``), its connectors as connections, each element's
    declaration place in ``Model.declared``, and what was not mapped in ``Model.notes``.  ``resolve``
    finds the text of another package (see :func:`sibling_packages`) when the system def specializes
    one of that package's."""
    reader = _Reader(text, path, resolve)
    try:
        with gc_paused():
            reader.read()
    except RecursionError:
        raise RepomodelerError(f"error: {path}: the SysML is nested too deeply to read; flatten the nesting") from None
    notes = sorted(set(reader.notes))
    if not reader.components:
        notes.append(ReaderNote(path, 1, "no components found (expected part usages inside a 'part system')"))
    declared: dict[str, Declared] = {}
    components: dict[str, Component] = {}
    for part in sorted([*reader.components.values(), *reader.parts.values()], key=lambda p: p.id):
        if part.id in components:
            continue  # a nested part spelling a component's id: the component wins
        ports = tuple(Port(name=p.name, protocol=p.protocol, direction=p.direction,
                           endpoints=tuple(Endpoint(m, pth) for m, pth in sorted(p.endpoints)))
                      for p in part.ports.values())
        components[part.id] = Component(
            id=part.id, name=part.id.rsplit("/", 1)[-1], kind=part.kind, parent=part.parent or None,
            evidence=tuple(sorted(set(part.evidence))), attributes=MappingProxyType(dict(part.attributes)), ports=ports)
        declared[part.id] = Declared(part.where, part.sysml_ref)
    connections: dict[tuple[str, str, str], Connection] = {}
    for link in sorted(reader.connections, key=lambda c: (c.source, c.target, c.protocol)):
        key = (link.source, link.target, link.protocol)
        if key in connections:  # the same link declared twice: one connection with both places' evidence
            old = connections[key]
            connections[key] = replace(old, evidence=tuple(sorted({*old.evidence, *link.evidence})))
            continue
        connections[key] = Connection(source=link.source, target=link.target, kind=link.kind, protocol=link.protocol,
                                      evidence=tuple(sorted(set(link.evidence))))
        declared[connections[key].id] = Declared(link.where, link.sysml_ref, link.name)
    return Model(name=reader.package or Path(path).stem, components=MappingProxyType(components),
                 connections=MappingProxyType(connections), origin=path, declared=MappingProxyType(declared),
                 notes=tuple(notes), complete=False)


def read_model_file(path: Path) -> Model:
    """A .sysml file as the canonical model (see :func:`read_model_text`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RepomodelerError(f"error: cannot read '{path}': {exc}") from exc
    return read_model_text(text, str(path), sibling_packages(path))


_TOP_PACKAGE = re.compile(r"^(?:standard\s+)?(?:library\s+)?package\s+('(?:[^'\\]|\\.)*'|[A-Za-z_][A-Za-z0-9_]*)", re.M)


def sibling_packages(path: Path) -> Resolver:
    """A resolver for the packages declared at the top of the other .sysml files in ``path``'s folder
    (a target beside the model.sysml whose system def it specializes).  Files are read when asked for,
    once; symlinks are not followed out of the folder."""
    folder = path.resolve().parent
    cache: dict[str, tuple[str, str] | None] = {}

    def find(package: str) -> tuple[str, str] | None:
        if package in cache:
            return cache[package]
        cache[package] = None
        for other in sorted(folder.glob("*.sysml")):
            if other.name == path.name or other.is_symlink() or not other.is_file():
                continue
            try:
                text = other.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if any(unquote(m.group(1)) == package for m in _TOP_PACKAGE.finditer(text)):
                cache[package] = (text, str(other))
                break
        return cache[package]

    return find
