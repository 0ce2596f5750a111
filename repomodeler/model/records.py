"""The canonical architecture model: typed, immutable records of one analysed system.

Every representation the code base needs is made from these: ``model.json`` (:mod:`.json_io`, its
only reader and writer), the networkx graph for graph algorithms and the renderers
(:mod:`.graph`), the diff's view (:mod:`repomodeler.diff.load`), the server's cards and the
summary.  What a node's ``parent`` means (top level, nesting, lifting a link to the top level) is
decided in :mod:`.nesting` and nowhere else; :class:`Model` offers it as methods.

Evidence, warnings, unresolved references and protobuf messages reuse the frozen records of
:mod:`repomodeler.records`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Iterator, Mapping, TypeVar

from repomodeler.model import nesting
from repomodeler.records import Evidence, MessageType, Unresolved, Warning_

SCHEMA = "repomodeler/model@1"

_T = TypeVar("_T")

def _empty() -> Mapping:  # type: ignore[type-arg]
    return MappingProxyType({})


_NOTHING: Mapping[str, object] = MappingProxyType({})


def frozen_mapping(items: Mapping[str, object] | None) -> Mapping[str, object]:
    """A read-only copy of `items` (key order kept)."""
    return MappingProxyType(dict(items)) if items else _NOTHING


def make(cls: type[_T], **fields: object) -> _T:
    """A frozen record from every one of its fields, without the per-field ``object.__setattr__`` of a
    frozen dataclass's ``__init__`` (three times faster; the model.json reader makes hundreds of
    thousands).  The caller gives every field, already of the right type."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


@dataclass(frozen=True)
class Endpoint:
    """One operation of a port: an HTTP method and path, or ``RPC`` and ``Service/Rpc`` (with the proto
    ``package``, request and response message types and ``stream`` side when read from a ``.proto``)."""

    method: str
    path: str
    evidence: tuple[Evidence, ...] = ()
    package: str = ""
    request: str = ""
    response: str = ""
    stream: str = ""

    def to_json(self) -> dict[str, object]:
        typed = {k: v for k, v in (("package", self.package), ("request", self.request),
                                   ("response", self.response), ("stream", self.stream)) if v}
        return {"method": self.method, "path": self.path, **typed,
                "evidence": [e.to_json() for e in sorted(self.evidence)]}


@dataclass(frozen=True)
class Port:
    """An API a component provides (direction ``provided``)."""

    name: str
    protocol: str
    direction: str = "provided"
    endpoints: tuple[Endpoint, ...] = ()
    evidence: tuple[Evidence, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "protocol": self.protocol,
            "direction": self.direction,
            "endpoints": [e.to_json() for e in sorted(self.endpoints, key=lambda e: (e.path, e.method))],
            "evidence": [e.to_json() for e in sorted(self.evidence)],
        }


@dataclass(frozen=True)
class Component:
    """A node of the architecture: a top-level component (``parent`` None) or a part nested in one
    (a subsystem, a logical database; ``parent`` the node that holds it)."""

    id: str
    name: str
    kind: str
    repository: str | None = None
    language: str | None = None
    parent: str | None = None
    evidence: tuple[Evidence, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=_empty)
    ports: tuple[Port, ...] = ()
    rules: tuple[str, ...] = ()  # ids of the rules that made or shaped it (sorted)


@dataclass(frozen=True)
class Connection:
    """A directed dependency: calls, uses, publishes, subscribes, depends_on, spawns."""

    source: str
    target: str
    kind: str
    protocol: str
    evidence: tuple[Evidence, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=_empty)
    rules: tuple[str, ...] = ()
    id: str = ""  # model.json's edge id; '<source>-><target>:<protocol>' unless read otherwise

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", f"{self.source}->{self.target}:{self.protocol}")

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.source, self.target, self.protocol)


@dataclass(frozen=True)
class RepositoryRef:
    """A repository of the system as model.json records it."""

    name: str
    url: str | None = None
    commit: str | None = None
    ref: str | None = None
    committed_at: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "url": self.url, "commit": self.commit, "ref": self.ref,
                **({"committed_at": self.committed_at} if self.committed_at else {})}


@dataclass(frozen=True, order=True)
class Rule:
    """An entry of the rule catalog: the id components and connections name in ``rules``."""

    id: str
    message: str = ""

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "message": self.message}


@dataclass(frozen=True, order=True)
class ReaderNote:
    """Something in a SysML file the reader could not map, or an assumption it made, with its place."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Declared:
    """Where an element read from a SysML file is declared (``file.sysml:12``), its qualified SysML name
    (what metadata written elsewhere annotates with ``about``; "" when unnamed), and the connector's
    own name.  Analysed models need none: their places are their evidence."""

    where: str
    sysml_ref: str = ""
    name: str = ""


@dataclass(frozen=True)
class Model:
    """One analysed system.  ``components`` holds every node (top level and nested parts) by id,
    sorted; ``connections`` every edge by (source, target, protocol), sorted.  ``stats`` holds the
    counts that are not derived from the records (files, skipped...); the rest is computed when the
    model is written."""

    name: str
    components: Mapping[str, Component] = field(default_factory=_empty)  # type: ignore[assignment]
    connections: Mapping[tuple[str, str, str], Connection] = field(default_factory=_empty)  # type: ignore[assignment]
    repositories: tuple[RepositoryRef, ...] = ()
    messages: tuple[MessageType, ...] = ()
    unresolved: tuple[Unresolved, ...] = ()
    warnings: tuple[Warning_, ...] = ()
    stats: Mapping[str, object] = field(default_factory=_empty)  # type: ignore[assignment]
    rules: tuple[Rule, ...] = ()  # the rule catalog
    schema: str | None = field(default=SCHEMA, compare=False)  # the format as read (None: the file named none)
    # Read from SysML (repomodeler/sysml_reader.py) rather than analysed: where each element is declared
    # (by component id or connection id), what the reader could not map, and whether every attribute is
    # known (an analysed model) or only what a person wrote (a hand-written target).  Not in model.json.
    origin: str = field(default="", compare=False)
    declared: Mapping[str, Declared] = field(default_factory=_empty, compare=False)  # type: ignore[assignment]
    notes: tuple[ReaderNote, ...] = field(default=(), compare=False)
    complete: bool = field(default=True, compare=False)

    # ---- the parent rule, from repomodeler.model.nesting --------------------------------
    @cached_property
    def parents(self) -> Mapping[str, str | None]:
        """Node id -> its parent (None at the top level), made once."""
        return MappingProxyType({cid: c.parent for cid, c in self.components.items()})

    def is_top_level(self, cid: str) -> bool:
        return nesting.is_top_level(self.components.get(cid))

    def top_level(self) -> list[Component]:
        """The components (not the parts inside them), by id."""
        return [c for c in self.components.values() if nesting.is_top_level(c)]

    def nested(self) -> list[Component]:
        """The parts inside components (subsystems, logical databases), by id."""
        return [c for c in self.components.values() if not nesting.is_top_level(c)]

    def top_level_connections(self) -> list[Connection]:
        """The connections between two top-level components."""
        return nesting.top_level_connections(self)

    def nested_connections(self) -> list[Connection]:
        """The connections with an end inside a component."""
        return nesting.nested_connections(self)

    def parent_of(self, cid: str) -> str | None:
        """The node that holds `cid` (None at the top level)."""
        return nesting.parent_of(self.parents, cid)

    def ancestors(self, cid: str) -> list[str]:
        return nesting.ancestors(self.parents, cid)

    def children(self, cid: str) -> list[str]:
        return nesting.children(self.parents, cid)

    def top_of(self, cid: str) -> str | None:
        return nesting.top_of(self.parents, cid)

    def lift(self, conn: Connection) -> tuple[str, str, str] | None:
        return nesting.lift(self.parents, conn.source, conn.target, conn.protocol)

    def evidence(self) -> Iterator[Evidence]:
        """Every place the model cites: its components', ports', endpoints' and connections' evidence,
        the unresolved references' and the warnings' locations."""
        for c in self.components.values():
            yield from c.evidence
            for p in c.ports:
                yield from p.evidence
                for ep in p.endpoints:
                    yield from ep.evidence
        for e in self.connections.values():
            yield from e.evidence
        for w in self.warnings:
            if w.path:
                yield Evidence(w.repository, w.path, w.line)
        for u in self.unresolved:
            if u.evidence.path:
                yield u.evidence

    def __iter__(self) -> Iterator[Component]:
        return iter(self.components.values())
