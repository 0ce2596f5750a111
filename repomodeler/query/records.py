"""The answers of ``repomodeler query`` and the MCP server's tools: typed, frozen, JSON-ready.

Every element an answer names carries its evidence (``repository:path:line`` strings, as the rest of
repomodeler prints them) and the ids of the rules that made it, so a person or an agent can cite the
line that justifies each step; each answer also lists the messages of the rules it names
(``rules``), so the citation needs no second look-up.  The MCP server derives its tools' output
schemas from these classes, so changing a field here changes the tools' contract.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(frozen=True)
class RuleRef:
    """A rule of the catalogue an answer names: its id and one-line message."""

    id: str
    message: str = ""


@dataclass(frozen=True)
class Element:
    """A component (or a part nested in one) as answers show it."""

    id: str
    kind: str
    name: str = ""
    parent: str | None = None
    rules: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Link:
    """A connection as answers show it: ``source`` depends on ``target`` (calls, uses, publishes to,
    subscribes at...).  ``topics`` are the messaging topics it carries, ``endpoints`` the operations
    it calls where the code shows them, ``via`` how the address was found."""

    id: str
    source: str
    target: str
    kind: str
    protocol: str
    via: str = ""
    endpoints: tuple[str, ...] = ()
    topics: tuple[str, ...] = ()
    subsystems: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Neighbour:
    """A component one connection away, with the connections between them."""

    component: Element
    links: tuple[Link, ...]


@dataclass(frozen=True)
class NeighboursAnswer:
    """``callers X`` (who depends on X directly) or ``callees X`` (what X depends on directly)."""

    model: str
    question: str
    subject: Element
    neighbours: tuple[Neighbour, ...]
    rules: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class Reach:
    """A component that depends on the subject, ``distance`` steps away; ``path`` holds the ids of the
    connections from it to the subject (their records are in the answer's ``links``, once each; through
    a broker a step is the subscription, then the publication of the same topic)."""

    component: Element
    distance: int
    path: tuple[str, ...]


@dataclass(frozen=True)
class ImpactAnswer:
    """``impact X``: everything that depends on X, transitively, nearest first (the first ``limit``
    when asked: ``total`` counts them all)."""

    model: str
    subject: Element
    impacted: tuple[Reach, ...]
    links: tuple[Link, ...] = ()
    total: int = 0
    truncated: bool = False
    rules: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class Route:
    """One way from the source to the target: the components passed (ends included) and the
    connections taken, each in the direction the request or message travels (``reversed`` is set on
    a subscription, which carries messages from the broker to the subscriber)."""

    through: tuple[str, ...]
    hops: tuple[Link, ...]
    reversed: tuple[bool, ...] = ()


@dataclass(frozen=True)
class PathAnswer:
    """``path A B``: every route from A to B (shortest first), through gateways and brokers."""

    model: str
    source: Element
    target: Element
    routes: tuple[Route, ...]
    truncated: bool = False
    note: str = ""
    rules: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class Usage:
    """One component's use of a topic, store or endpoint: ``role`` is publishes, subscribes, uses,
    calls or provides; ``link`` the connection that shows it (none for ``provides``)."""

    component: Element
    role: str
    link: Link | None = None
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class UsesAnswer:
    """``uses TOPIC|STORE|ENDPOINT``: who publishes and subscribes a topic, who uses a store, who
    provides and who calls an endpoint."""

    model: str
    subject: str
    what: str  # topic | store | endpoint
    users: tuple[Usage, ...]
    rules: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class EvidenceAnswer:
    """``evidence ELEMENT``: the places and rules behind one component, connection, port or endpoint."""

    model: str
    element: str
    type: str  # component | connection | port | endpoint
    kind: str
    evidence: tuple[str, ...]
    rules: tuple[RuleRef, ...] = ()
    attributes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class UnresolvedItem:
    """An address or client the analysis saw but could not tie to a component."""

    component: str
    value: str
    evidence: str


@dataclass(frozen=True)
class UnresolvedAnswer:
    """``unresolved``: what the analysis could not resolve, by component."""

    model: str
    items: tuple[UnresolvedItem, ...]


@dataclass(frozen=True)
class Change:
    """One added, removed or changed element between two architectures; ``evidence`` and ``rules``
    come from the side that has it (B for added and changed elements, A for removed ones)."""

    element: str  # component | port | endpoint | connection
    id: str
    status: str  # added | removed | changed
    detail: str = ""
    new_id: str = ""
    where: str = ""
    rules: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChangesAnswer:
    """``changes RUN1 RUN2`` (run history) or ``against TARGET`` (the target-state diff): A -> B."""

    question: str
    a: str
    b: str
    counts: dict[str, dict[str, int]]
    changes: tuple[Change, ...]
    notes: tuple[str, ...] = ()
    rules: tuple[RuleRef, ...] = ()


@dataclass(frozen=True)
class ComponentsAnswer:
    """``components``: the components of the model (of one kind, when asked), by id (the first
    ``limit`` when asked: ``total`` counts them all)."""

    model: str
    components: tuple[Element, ...]
    total: int = 0
    truncated: bool = False


Answer = ComponentsAnswer | NeighboursAnswer | ImpactAnswer | PathAnswer | UsesAnswer | EvidenceAnswer | UnresolvedAnswer | ChangesAnswer


def to_json(answer: Answer) -> dict[str, object]:
    """The answer as plain JSON data (the CLI's ``--format json`` and the tools' structured output)."""
    return asdict(answer)
