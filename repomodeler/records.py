"""Typed records passed between pipeline stages.

acquire -> inventory -> extract -> graph -> emit.  Every stage hands the next one of these
frozen dataclasses, never a loose dict, so a stage's contract is visible in one place.
Records are hashable and orderable where output order depends on them, which is how the
pipeline stays deterministic: everything is sorted by these keys before it is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from repomodeler.writes import GuardedSet, check, guarded

NodeKind = Literal["service", "database", "cache", "broker", "gateway", "external", "library", "user", "webapp"]
NODE_KINDS: tuple[str, ...] = ("service", "database", "cache", "broker", "gateway", "external", "library", "user",
                               "webapp")
PROTOCOLS: tuple[str, ...] = (
    "http", "grpc", "sql", "mongodb", "redis", "amqp", "kafka", "nats", "elasticsearch", "tcp", "library",
)


class RepomodelerError(Exception):
    """An error a user can act on; the CLI prints its message as one line and exits non-zero."""


@dataclass(frozen=True, order=True)
class Evidence:
    """A place in a repository that justifies a model element."""

    repository: str
    path: str
    line: int

    def to_json(self) -> dict[str, object]:
        return {"repository": self.repository, "path": self.path, "line": self.line}

    def __str__(self) -> str:
        return f"{self.repository}:{self.path}:{self.line}"


@dataclass(frozen=True)
class RepoSpec:
    """One input as the user typed it, parsed: a git URL or a local path, with an optional ref."""

    raw: str
    kind: Literal["url", "path"]
    location: str  # the URL (without @ref) or the absolute local path
    ref: str | None
    name: str  # display name from the URL or folder, made unique later


@dataclass(frozen=True)
class Repository:
    """An acquired repository: where its content is and which commit it is pinned to."""

    name: str
    spec: RepoSpec
    checkout: Path  # a git dir (for kind 'git') or a plain directory (for kind 'dir')
    kind: Literal["git", "dir"]
    commit: str | None  # resolved SHA; None for plain directories
    url: str | None  # public URL for network remotes (credentials removed), else None
    committed_at: str | None = None  # ISO-8601 committer date of `commit` (part of the commit, so deterministic)
    # The name the project goes by when the caller knows it (a rule's fixture case names its repositories
    # so); acquisition leaves it None, since a URL, a clone's remote or a folder are not part of the
    # commit and one commit must give one model. The graph prefers what the commit's README says.
    project: str | None = None


@dataclass(frozen=True, order=True)
class SourceFile:
    """A file selected for analysis.  `blob` is the git blob SHA (or a content hash for plain dirs)."""

    path: str  # repository-relative, '/'-separated
    blob: str
    size: int
    language: str | None  # tree-sitter language name from grammars/, or None
    role: str  # 'source', 'test', 'example', 'docs', 'fixture'


@dataclass
class Inventory:
    """The analysable files of one repository plus counts of what was skipped and why."""

    repository: Repository
    files: list[SourceFile]
    skipped: dict[str, int] = field(default_factory=dict)
    warnings: list["Warning_"] = field(default_factory=list)
    # In-repository symlinks named like compose files -> the analysed file each points at
    # (``compose.yaml -> docker-compose_v3_alpine_mysql.yaml``): which of several variants is the
    # default.  The link itself is never read as a file; its target is, under its own path.
    links: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, order=True)
class Warning_:
    """A problem with one input file that did not stop the run."""

    repository: str
    path: str
    line: int
    message: str

    def to_json(self) -> dict[str, object]:
        return {"repository": self.repository, "path": self.path, "line": self.line, "message": self.message}


@dataclass(frozen=True, order=True)
class Fact:
    """One thing extraction saw: an HTTP route, an env read, a compose service, a URL literal...

    `kind` is a dotted name (``http.route``, ``env.read``, ``compose.service``); `attrs` holds the
    captured values as sorted (key, value) pairs so facts are hashable and sort stably.
    """

    kind: str
    repository: str
    path: str
    line: int
    language: str
    attrs: tuple[tuple[str, str], ...] = ()
    # Which query pattern or reader produced the fact ("java/platform.scm:6", "read_compose"); not part
    # of the fact's identity, so two readings of one line still collapse.
    rule: str = field(default="", compare=False)

    def order(self) -> tuple[str, str, str, int, str, tuple[tuple[str, str], ...]]:
        """The fields facts sort by, as a tuple: ``sorted(facts, key=Fact.order)`` gives the order of
        ``sorted(facts)`` without a Python-level ``__lt__`` call per comparison (3-5x faster on the
        hundreds of thousands of facts of a large repository)."""
        return (self.kind, self.repository, self.path, self.line, self.language, self.attrs)

    def get(self, key: str, default: str | None = None) -> str | None:
        for k, v in self.attrs:
            if k == key:
                return v
        return default

    @property
    def evidence(self) -> Evidence:
        return Evidence(self.repository, self.path, self.line)


@dataclass
class ExtractResult:
    """Facts and warnings from one repository."""

    repository: Repository
    inventory: Inventory
    facts: list[Fact]
    warnings: list[Warning_]
    parsed_files: int = 0  # files parsed in this run (cache misses)
    cached_files: int = 0  # files whose facts came from the cache
    line_counts: dict[str, int] = field(default_factory=dict)  # path -> number of lines (for the audit)


@dataclass
class Endpoint:
    """One operation of a port: an HTTP method and path, or ``RPC`` and ``Service/Rpc``.

    An rpc read from a ``.proto`` also names its proto ``package`` and the fully qualified request and
    response message types (``hipstershop.AddItemRequest``; :class:`MessageType` records in the model's
    ``messages``), with ``stream`` on the side that streams ("request", "response" or "both")."""

    method: str
    path: str
    evidence: list[Evidence]
    package: str = ""
    request: str = ""
    response: str = ""
    stream: str = ""


@dataclass(frozen=True, order=True)
class MessageField:
    """A field of a Protocol Buffers message: its type is a proto scalar (``string``, ``int64``...) or the
    fully qualified name of another message or enum of the model (``hipstershop.Money``); a type the
    repositories do not define stays as written."""

    name: str
    type: str
    number: int
    repeated: bool
    evidence: Evidence

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "type": self.type, "number": self.number,
                **({"repeated": True} if self.repeated else {}), "evidence": self.evidence.to_json()}


@dataclass(frozen=True, order=True)
class MessageType:
    """A message or enum an API's operations carry (from a ``.proto``), or a body schema of an OpenAPI
    document (kind ``schema``, its properties as fields numbered 0, types as proto scalar names), by
    fully qualified name."""

    name: str  # package.Outer.Inner (an OpenAPI schema: <document path as a word>.<schema name>)
    kind: Literal["message", "enum", "schema"]  # schema: a JSON schema of an OpenAPI document
    evidence: Evidence
    fields: tuple[MessageField, ...] = ()
    values: tuple[str, ...] = ()  # enum constants, in declaration order

    @property
    def package(self) -> str:
        return self.name.rsplit(".", 1)[0] if "." in self.name else ""

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "kind": self.kind, "evidence": self.evidence.to_json()}
        if self.kind == "enum":
            out["values"] = list(self.values)
        else:
            out["fields"] = [f.to_json() for f in self.fields]
        return out

    @staticmethod
    def from_json(data: dict[str, object]) -> "MessageType":
        def ev(e: object) -> Evidence:
            d = e if isinstance(e, dict) else {}
            return Evidence(str(d.get("repository", "")), str(d.get("path", "")), int(d.get("line", 0)))
        fields = tuple(MessageField(str(f["name"]), str(f["type"]), int(f.get("number", 0)), bool(f.get("repeated")),
                                    ev(f.get("evidence"))) for f in data.get("fields", []) or [])  # type: ignore[union-attr]
        kind = data.get("kind") if data.get("kind") in ("enum", "schema") else "message"
        return MessageType(name=str(data["name"]), kind=kind,  # type: ignore[arg-type]
                           evidence=ev(data.get("evidence")), fields=fields,
                           values=tuple(str(v) for v in data.get("values", []) or []))  # type: ignore[union-attr]


@dataclass
class Port:
    """An API a component provides (direction 'provided'), as the resolver builds it; its JSON form is
    :class:`repomodeler.model.Port`'s."""

    name: str
    protocol: str
    direction: str
    endpoints: list[Endpoint] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)

    def __setattr__(self, name: str, value: object) -> None:
        # A port is the model's ``ports``: changing one after it is made (or its endpoint list) is that write.
        if name in self.__dict__:
            check("ports")
        object.__setattr__(self, name, guarded("ports", value) if name == "endpoints" else value)


class Roots(GuardedSet):
    """The source folders a component owns: a set that counts every change in ``Roots.version``, so
    the resolver's memo of which component owns a file is dropped whenever any component's folders
    change, whichever rule changed them (a stale memo made the model depend on the order facts were
    read in, and so on repository and folder names).  Changing it is a write to the model's ``roots``."""

    __slots__ = ()
    version = 0

    def __init__(self, items: object = ()) -> None:
        super().__init__("roots", items)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Roots, (list(self),))

    def _changed(self) -> None:
        Roots.version += 1

    def add(self, item: object) -> None:
        if item not in self:
            super().add(item)
            self._changed()

    def update(self, *others: object) -> None:  # type: ignore[override]
        super().update(*others)
        self._changed()

    def discard(self, item: object) -> None:
        if item in self:
            super().discard(item)
            self._changed()

    def remove(self, item: object) -> None:
        super().remove(item)
        self._changed()

    def clear(self) -> None:
        super().clear()
        self._changed()

    def pop(self) -> object:
        self._changed()
        return super().pop()

    def __ior__(self, other):  # type: ignore[no-untyped-def]
        self.update(other)
        return self

    def __isub__(self, other):  # type: ignore[no-untyped-def]
        for item in list(other):
            self.discard(item)
        return self


@dataclass
class Component:
    """A node of the architecture: a service, data store, broker, gateway or external system."""

    id: str
    name: str
    kind: str
    repository: str | None
    language: str | None = None
    evidence: set[Evidence] = field(default_factory=set)
    attributes: dict[str, str] = field(default_factory=dict)
    ports: dict[str, Port] = field(default_factory=dict)
    source_roots: set[tuple[str, str]] = field(default_factory=Roots)  # (repository, folder)
    aliases: set[str] = field(default_factory=set)
    parent: str | None = None  # the component (or subsystem) this one is part of; None at the top level
    rules: set[str] = field(default_factory=set)  # ids of the resolver rules that made it or added evidence

    def __post_init__(self) -> None:
        Roots.version += 1

    def __setattr__(self, name: str, value: object) -> None:
        # Each field is a part of the model a rule declares it writes (repomodeler/writes.py): changing
        # it after the component is made is checked, and its containers check their own changes.
        part = COMPONENT_PARTS.get(name)
        if part is not None:
            if name in self.__dict__:
                check(part)
            if name == "source_roots":
                value = value if isinstance(value, Roots) else Roots(value)
            elif name in ("attributes", "ports", "aliases"):
                value = guarded(part, value)
        object.__setattr__(self, name, value)


# The part of the model each field of a component is (what a rule must declare to change it).
COMPONENT_PARTS = {"id": "components", "name": "components", "repository": "components", "parent": "components",
                   "kind": "kinds", "language": "attributes", "attributes": "attributes", "ports": "ports",
                   "source_roots": "roots", "aliases": "aliases"}



@dataclass
class Connection:
    """A directed dependency between two components."""

    source: str
    target: str
    kind: str
    protocol: str
    evidence: set[Evidence] = field(default_factory=set)
    attributes: dict[str, str] = field(default_factory=dict)
    rules: set[str] = field(default_factory=set)  # ids of the resolver rules that made it or added evidence

    def __setattr__(self, name: str, value: object) -> None:
        part = "attributes" if name == "attributes" else "connections" if name in CONNECTION_FIELDS else None
        if part is not None:
            if name in self.__dict__:
                check(part)
            if name == "attributes":
                value = guarded(part, value)
        object.__setattr__(self, name, value)

    @property
    def id(self) -> str:
        return f"{self.source}->{self.target}:{self.protocol}"


CONNECTION_FIELDS = frozenset({"source", "target", "kind", "protocol", "attributes"})


@dataclass(frozen=True)
class Unresolved:
    """A reference to a host the analysis could not tie to a component (never a guessed edge)."""

    component: str
    value: str
    evidence: Evidence
