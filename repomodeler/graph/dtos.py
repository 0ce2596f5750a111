"""Framework DTOs as body schemas (issue #24): the request and response types a handler declares in
code (Spring ``@RequestBody OrderRequest`` and ``ResponseEntity<OrderResponse>``; FastAPI parameters
typed by a pydantic model, ``response_model=`` and ``-> Order``; ASP.NET ``[FromBody] OrderRequest``,
record parameters and ``ActionResult<OrderResponse>``; grammars/*/dto.scm), read as the
``openapi.schema`` / ``openapi.property`` facts an OpenAPI document gives, so the endpoint records and
the emitter treat both alike (graph/protos.py :func:`openapi_schemas`, emit/typed_apis.py).

Only what is explicit is used: a body type counts when it names a class of the same repository (a
``dto.class`` fact: a Java or C# class or record, a pydantic model); a type the repositories do not define (``String``,
``Map<..>``, a library class) types no body.  Field types become the Protocol Buffers scalar names
model fields use (``string``, ``int64``, ``double``, ``bool``; dates and ids as strings), another class of the repository its
qualified name (pulled in as an item def of its own), anything else stays as written.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from repomodeler.extract.readers.openapi import schema_package
from repomodeler.records import Fact

#: type names of the code -> the Protocol Buffers scalar names of records.MessageField (Java, Python, C#)
SCALARS = {
    **dict.fromkeys(("String", "string", "str", "CharSequence", "char", "Character", "UUID", "Guid", "URI", "URL",
                     "Uri", "LocalDate", "LocalDateTime", "LocalTime", "Instant", "OffsetDateTime", "ZonedDateTime",
                     "Date", "Duration", "datetime", "date", "time", "timedelta", "EmailStr", "HttpUrl", "AnyUrl",
                     "DateTime", "DateTimeOffset", "DateOnly", "TimeOnly", "TimeSpan"), "string"),
    **dict.fromkeys(("int", "Integer", "long", "Long", "short", "Short", "byte", "Byte", "BigInteger", "Int32",
                     "Int64", "Int16", "uint", "ulong"), "int64"),
    **dict.fromkeys(("double", "Double", "float", "Float", "BigDecimal", "Number", "Decimal", "decimal", "Single"),
                    "double"),
    **dict.fromkeys(("boolean", "Boolean", "bool"), "bool"),
}
#: wrappers around one body (unwrapped), and collections of one (unwrapped, repeated)
_WRAPPERS = {"ResponseEntity", "HttpEntity", "Optional", "Mono", "CompletableFuture", "CompletionStage", "Callable",
             "DeferredResult", "EntityModel", "Task", "ValueTask", "ActionResult", "Nullable"}
_COLLECTIONS = {"List", "list", "Set", "set", "Collection", "Iterable", "Flux", "Page", "Stream", "ArrayList",
                "HashSet", "SortedSet", "CollectionModel", "PagedModel", "Sequence", "IEnumerable", "IList",
                "ICollection", "IReadOnlyList", "IReadOnlyCollection", "IAsyncEnumerable", "frozenset", "tuple"}
_GENERIC = re.compile(r"^([\w.]+)\s*[<\[](.*)[>\]]$", re.S)


def code_type(text: str) -> tuple[str, bool]:
    """(the element type's simple name, is a collection) of a type as the code writes it:
    ``ResponseEntity<List<Order>>`` -> (``Order``, True); ``Order[]`` -> (``Order``, True);
    ``list[Order]`` -> (``Order``, True); ``Optional[str]`` / ``string?`` -> (``str``/``string``, False)."""
    text, repeated = " ".join(text.split()), False
    while True:
        if text.endswith("[]"):
            text, repeated = text[:-2].strip(), True
            continue
        if text.endswith("?"):  # C# nullable
            text = text[:-1].strip()
            continue
        m = _GENERIC.match(text)
        if m is None:
            break
        outer = m.group(1).rsplit(".", 1)[-1]
        args = m.group(2)
        if outer == "tuple" and args.endswith(", ..."):  # tuple[Order, ...]
            args = args[:-5]
        if outer in _WRAPPERS and "," not in args:
            text = args.strip()
        elif outer in _COLLECTIONS and "," not in args:
            text, repeated = args.strip(), True
        else:
            return "", False  # Map<K, V>, Union[..] and other generics: no one type
    text = text.removeprefix("? extends ").strip()
    return text.rsplit(".", 1)[-1], repeated


@dataclass
class DtoSchemas:
    """The DTO classes bodies name, as OpenAPI-shaped facts, and each route line's body types."""

    schemas: list[Fact] = field(default_factory=list)
    properties: list[Fact] = field(default_factory=list)
    #: (repository, path, line) of a route -> {"request"|"response": qualified schema name}
    bodies: dict[tuple[str, str, int], dict[str, str]] = field(default_factory=dict)


def dto_schemas(classes: list[Fact], fields: list[Fact], bodies: list[Fact]) -> DtoSchemas:
    """Resolve the body types of ``http.body`` facts to ``dto.class`` facts of the same repository and
    give each class used (and the classes its fields name, transitively) as schema facts."""
    by_name: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for c in classes:
        by_name[(c.repository, c.get("name") or "")].append(c)
    fields_of: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for f in fields:
        fields_of[(f.repository, f.path, f.get("class") or "")].append(f)

    def resolve(repository: str, path: str, simple: str) -> Fact | None:
        """The class ``simple`` names, seen from ``path``: the only one of the repository, else the one
        whose folder shares the most leading folders with ``path`` (the same service's module: two
        services' ``Account`` classes); a tie resolves to nothing."""
        found = by_name.get((repository, simple), [])
        if len(found) <= 1:
            return found[0] if found else None
        here = PurePosixPath(path).parent.parts

        def shared(c: Fact) -> int:
            n = 0
            for a, b in zip(PurePosixPath(c.path).parent.parts, here):
                if a != b:
                    break
                n += 1
            return n

        ranked = sorted(found, key=lambda c: (-shared(c), c.path))
        return ranked[0] if shared(ranked[0]) > shared(ranked[1]) else None

    def qualified(c: Fact) -> str:
        return f"{schema_package(c.path)}.{c.get('name')}"

    out = DtoSchemas()
    todo: list[Fact] = []
    for b in sorted(bodies, key=Fact.order):
        for side in ("request", "response"):
            written = b.get(side)
            if not written:
                continue
            simple, _repeated = code_type(written)
            target = resolve(b.repository, b.path, simple) if simple and simple not in SCALARS else None
            if target is None or not fields_of.get((target.repository, target.path, simple)):
                continue  # a class with no fields (an interface, a library type) types no body
            out.bodies.setdefault((b.repository, b.path, b.line), {}).setdefault(side, qualified(target))
            todo.append(target)
    done: set[tuple[str, str, int]] = set()
    while todo:
        c = todo.pop()
        key = (c.repository, c.path, c.line)
        if key in done:
            continue
        done.add(key)
        name = c.get("name") or ""
        package = schema_package(c.path)
        out.schemas.append(replace(c, kind="openapi.schema", attrs=(("name", name), ("package", package))))
        for f in fields_of.get((c.repository, c.path, name), []):
            simple, repeated = code_type(f.get("type") or "")
            type_ = SCALARS.get(simple, "")
            if not type_:
                other = resolve(f.repository, f.path, simple) if simple else None
                if other is not None and fields_of.get((other.repository, other.path, simple)):
                    type_ = qualified(other)
                    todo.append(other)
                else:  # Map<K, V>, an enum, a library type: as written, the emitter keeps it in the doc
                    type_, repeated = " ".join((f.get("type") or "").split()), False
            attrs = {"name": f.get("name") or "", "package": package, "schema": name, "type": type_,
                     "repeated": "true" if repeated else ""}
            out.properties.append(replace(f, kind="openapi.property",
                                          attrs=tuple(sorted((k, v) for k, v in attrs.items() if v))))
    out.schemas.sort(key=Fact.order)
    out.properties.sort(key=Fact.order)
    return out
