"""Protocol Buffers types behind gRPC endpoints: messages and enums by fully qualified name.

``read_proto`` (extract/apis.py) gives one fact per message, field, enum and enum constant, with types as
written.  Here they become :class:`MessageType` records whose field types are qualified by the proto
scoping rule (the innermost enclosing message first, then the package and its parents), so that the
emitter can type each field with the item def of the message it names.  A repository often holds
several copies of one ``.proto`` (one per service); a type is taken from the file the rpc naming it was
read from when that file defines it, else from the first file (sorted) that does.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.records import Evidence, Fact, MessageField, MessageType

SCALARS = frozenset({"double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
                     "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"})


def _qualify(package: str, name: str) -> str:
    return f"{package}.{name}" if package else name


class ProtoTypes:
    """Every message and enum the ``.proto`` files of the analysed repositories define."""

    def __init__(self, messages: list[Fact], fields: list[Fact], enums: list[Fact], values: list[Fact]) -> None:
        # qualified name -> {(repository, path): MessageType}
        self.defs: dict[str, dict[tuple[str, str], MessageType]] = defaultdict(dict)
        self.known: set[str] = {_qualify(f.get("package") or "", f.get("message") or "") for f in messages} | \
            {_qualify(f.get("package") or "", f.get("enum") or "") for f in enums}
        by_message: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
        for f in fields:
            by_message[(f.repository, f.path, _qualify(f.get("package") or "", f.get("message") or ""))].append(f)
        by_enum: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
        for f in values:
            by_enum[(f.repository, f.path, _qualify(f.get("package") or "", f.get("enum") or ""))].append(f)
        for f in enums:
            name = _qualify(f.get("package") or "", f.get("enum") or "")
            consts = tuple(v.get("value") or "" for v in sorted(by_enum[(f.repository, f.path, name)], key=lambda v: v.line))
            self.defs[name].setdefault((f.repository, f.path), MessageType(name, "enum", f.evidence, values=consts))
        for f in messages:
            package = f.get("package") or ""
            name = _qualify(package, f.get("message") or "")
            own = []
            for fld in sorted(by_message[(f.repository, f.path, name)], key=lambda x: x.line):
                own.append(MessageField(name=fld.get("name") or "", number=int(fld.get("number") or 0),
                                        type=self.resolve(fld.get("type") or "", name),
                                        repeated=fld.get("repeated") == "true", evidence=fld.evidence))
            self.defs[name].setdefault((f.repository, f.path), MessageType(name, "message", f.evidence, tuple(own)))

    def resolve(self, written: str, scope: str) -> str:
        """The qualified name of type ``written`` used inside ``scope`` (a package or a qualified message);
        a scalar or a type no file defines comes back as written (without a leading dot)."""
        if written in SCALARS:
            return written
        if written.startswith("."):
            return written[1:]
        parts = scope.split(".") if scope else []
        for n in range(len(parts), -1, -1):
            candidate = ".".join([*parts[:n], written])
            if candidate in self.known:
                return candidate
        return written

    def pick(self, name: str, prefer: tuple[str, str] | None) -> MessageType | None:
        """The definition of ``name``: from file ``prefer`` when it has one, else the first file (sorted)."""
        copies = self.defs.get(name)
        if not copies:
            return None
        if prefer in copies:
            return copies[prefer]  # type: ignore[index]
        return copies[min(copies)]

    def closure(self, roots: list[tuple[str, Evidence]], out: dict[str, MessageType]) -> None:
        """Add to ``out`` every type reachable from the (qualified name, rpc evidence) roots through fields."""
        todo = [(name, (ev.repository, ev.path)) for name, ev in roots]
        while todo:
            name, prefer = todo.pop()
            if name in out:
                continue
            found = self.pick(name, prefer)
            if found is None:
                continue
            out[name] = found
            todo.extend((f.type, (found.evidence.repository, found.evidence.path)) for f in found.fields
                        if f.type not in SCALARS)


def openapi_schemas(schemas: list[Fact], properties: list[Fact]) -> ProtoTypes:
    """The body schemas of the OpenAPI documents (extract/readers/openapi.py) as message types of kind
    ``schema``, their properties fields typed by proto scalar names or qualified schema names, so the
    endpoints they type pull them into the model's ``messages`` like rpcs do (:meth:`ProtoTypes.closure`)."""
    types = ProtoTypes([], [], [], [])
    by_schema: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for f in properties:
        by_schema[(f.repository, f.path, _qualify(f.get("package") or "", f.get("schema") or ""))].append(f)
    for f in schemas:
        name = _qualify(f.get("package") or "", f.get("name") or "")
        fields = tuple(MessageField(name=p.get("name") or "", type=p.get("type") or "", number=0,
                                    repeated=p.get("repeated") == "true", evidence=p.evidence)
                       for p in sorted(by_schema[(f.repository, f.path, name)], key=lambda x: (x.line, x.get("name") or "")))
        types.defs[name].setdefault((f.repository, f.path), MessageType(name, "schema", f.evidence, fields))
    return types
