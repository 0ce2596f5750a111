"""An index over one canonical model that the questions walk: names, neighbours, topics, flows.

Built once per model (O(components + connections)); every question then costs what it touches, so
the MCP server answers on a 2,000-component model in milliseconds (benchmarks/query_bench.py).

Which connections a walk uses: a connection from a *part* inside a component (a subsystem's
import, or the subsystem-level copy of its component's call, which the component-level connection
already names in ``subsystems``) would count the same dependency twice, so walks between
components use the connections whose source is a top-level component (these include the links to
a server's logical databases).  A question about a subsystem itself walks every connection.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from functools import cached_property

from repomodeler.model import Component, Connection, Model
from repomodeler.model.nesting import has_parent
from repomodeler.query.records import Element, Link, RuleRef
from repomodeler.records import Evidence, RepomodelerError


def split_list(value: object) -> tuple[str, ...]:
    """An attribute holding a ``", "``-joined list (topics, endpoints, subsystems) as a tuple."""
    return tuple(x for x in (s.strip() for s in str(value or "").split(", ")) if x)


def cites(evidence: tuple[Evidence, ...]) -> tuple[str, ...]:
    """Evidence records as ``repository:path:line`` (what ``str(Evidence)`` gives, without the call)."""
    return tuple(f"{e.repository}:{e.path}:{e.line}" for e in evidence)


class QueryError(RepomodelerError):
    """A question the model cannot answer as asked (unknown or ambiguous element, bad argument)."""


class QueryIndex:
    """Adjacency, names and topics of one model (read-only once built)."""

    def __init__(self, model: Model, origin: str = "") -> None:
        self.model = model
        self.origin = origin or model.name
        parents = model.parents
        self.out_top: dict[str, list[Connection]] = defaultdict(list)
        self.in_top: dict[str, list[Connection]] = defaultdict(list)
        self.out_all: dict[str, list[Connection]] = defaultdict(list)
        self.in_all: dict[str, list[Connection]] = defaultdict(list)
        for conn in model.connections.values():  # sorted by (source, target, protocol)
            self.out_all[conn.source].append(conn)
            self.in_all[conn.target].append(conn)
            if not has_parent(parents.get(conn.source)):
                self.out_top[conn.source].append(conn)
                self.in_top[conn.target].append(conn)
        self._elements: dict[str, Element] = {}
        self._links: dict[str, Link] = {}
        self._published: dict[str, frozenset[str]] = {}
        self._subscribed: dict[str, frozenset[str]] = {}

    def published(self, conn: Connection) -> frozenset[str]:
        """The topics `conn` publishes (read once per connection)."""
        hit = self._published.get(conn.id)
        if hit is None:
            hit = self._published[conn.id] = publishes(conn)
        return hit

    def subscribed(self, conn: Connection) -> frozenset[str]:
        """The topics `conn` subscribes to (read once per connection)."""
        hit = self._subscribed.get(conn.id)
        if hit is None:
            hit = self._subscribed[conn.id] = subscribes(conn)
        return hit

    def receives_only(self, conn: Connection) -> bool:
        """A subscription that publishes nothing: its messages flow from the target to the source."""
        return conn.kind == "subscribes" and not self.published(conn)

    # ---- names ---------------------------------------------------------------------------
    @cached_property
    def _by_name(self) -> dict[str, list[str]]:
        names: dict[str, list[str]] = defaultdict(list)
        for cid, comp in self.model.components.items():
            for spelling in {cid.lower(), comp.name.lower()}:
                names[spelling].append(cid)
        return names

    @cached_property
    def _by_lower_id(self) -> dict[str, list[str]]:
        ids: dict[str, list[str]] = defaultdict(list)
        for cid in self.model.components:
            ids[cid.lower()].append(cid)
        return ids

    def find(self, name: str) -> str | None:
        """The id of the component named `name`: its id, its id in another case, or its name (a
        top-level component before the parts named alike: ``orders`` is the service, not the logical
        database ``orders-db/orders``); None if none has that name; QueryError if several do."""
        if not isinstance(name, str) or not name.strip():
            raise QueryError("error: an empty component name was given; name a component by its id from model.json")
        name = name.strip()
        if name in self.model.components:
            return name
        for found in (sorted(self._by_lower_id.get(name.lower(), ())), sorted(set(self._by_name.get(name.lower(), ())))):
            if len(found) > 1:
                top = [cid for cid in found if self.model.is_top_level(cid)]
                if len(top) == 1:
                    return top[0]
                raise QueryError(f"error: '{name}' names several components ({', '.join(found[:8])}); use one of these ids")
            if found:
                return found[0]
        return None

    def resolve(self, name: str) -> str:
        """The id of component `name`, or a one-line error that suggests the nearest ids."""
        cid = self.find(name)
        if cid is None:
            raise QueryError(f"error: no component '{name}' in {self.origin}{self.suggest(name)}")
        return cid

    def suggest(self, name: str) -> str:
        close = difflib.get_close_matches(str(name).lower(), sorted(self._by_name), n=5, cutoff=0.6)
        ids = sorted({cid for spelling in close for cid in self._by_name[spelling]})
        return f"; did you mean {', '.join(ids)}?" if ids else "; the 'components' question lists them"

    # ---- records for answers --------------------------------------------------------------
    def element(self, cid: str) -> Element:
        hit = self._elements.get(cid)
        if hit is None:
            comp: Component | None = self.model.components.get(cid)
            if comp is None:  # an edge end the model does not declare (a forged or partial model)
                hit = Element(id=cid, kind="unknown", name=cid)
            else:
                hit = Element(id=comp.id, kind=comp.kind, name=comp.name, parent=comp.parent or None,
                              rules=tuple(comp.rules), evidence=cites(comp.evidence))
            self._elements[cid] = hit
        return hit

    def link(self, conn: Connection) -> Link:
        hit = self._links.get(conn.id)
        if hit is None:
            a = conn.attributes
            topics = sorted(set(split_list(a.get("publishes"))) | set(split_list(a.get("subscribes")))
                            | set(split_list(a.get("topic"))))
            hit = Link(id=conn.id, source=conn.source, target=conn.target, kind=conn.kind, protocol=conn.protocol,
                       via=str(a.get("via", "")), endpoints=split_list(a.get("endpoints")), topics=tuple(topics),
                       subsystems=split_list(a.get("subsystems")), rules=tuple(conn.rules),
                       evidence=cites(conn.evidence))
            self._links[conn.id] = hit
        return hit

    @cached_property
    def rule_messages(self) -> dict[str, str]:
        """Rule id -> message: the model's own catalogue, completed from this repomodeler's rules."""
        messages = {r.id: r.message for r in self.model.rules if r.message}
        return messages

    def rules_of(self, ids: set[str]) -> tuple[RuleRef, ...]:
        messages = self.rule_messages
        missing = [i for i in ids if i not in messages]
        if missing:
            from repomodeler.rules import RULES

            known = {r.id: r.message for r in RULES}
            messages.update({i: known[i] for i in missing if i in known})
        return tuple(RuleRef(i, messages.get(i, "")) for i in sorted(ids))

    @cached_property
    def topics(self) -> dict[str, list[tuple[str, Connection]]]:
        """Topic -> (publishes | subscribes, connection) for the connections of top-level components."""
        out: dict[str, list[tuple[str, Connection]]] = defaultdict(list)
        for conns in self.out_top.values():
            for conn in conns:
                for role, topics in (("publishes", publishes(conn)), ("subscribes", subscribes(conn))):
                    for topic in topics:
                        out[topic].append((role, conn))
        return out

    @cached_property
    def called_endpoints(self) -> list[tuple[Connection, tuple[str, ...]]]:
        """The connections of top-level components that name the endpoints they call, with them."""
        return [(conn, labels) for conns in self.out_top.values() for conn in conns
                if (labels := split_list(conn.attributes.get("endpoints")))]

    # ---- walks ------------------------------------------------------------------------------
    def is_part(self, cid: str) -> bool:
        """A subsystem (or other non-database part): its questions walk every connection."""
        comp = self.model.components.get(cid)
        return comp is not None and has_parent(comp.parent) and comp.kind != "database"

    def incoming(self, cid: str, every: bool = False) -> list[Connection]:
        return (self.in_all if every else self.in_top).get(cid, [])

    def outgoing(self, cid: str, every: bool = False) -> list[Connection]:
        return (self.out_all if every else self.out_top).get(cid, [])


_NO_TOPICS: frozenset[str] = frozenset()


def _topic_set(conn: Connection, key: str) -> frozenset[str]:
    value = conn.attributes.get(key)
    if not value:
        return _NO_TOPICS
    return frozenset(split_list(value))


def publishes(conn: Connection) -> frozenset[str]:
    """The topics `conn` publishes."""
    return _topic_set(conn, "publishes")


def subscribes(conn: Connection) -> frozenset[str]:
    """The topics `conn` subscribes to."""
    return _topic_set(conn, "subscribes")


def is_subscription(conn: Connection) -> bool:
    """A connection that only receives messages (its data flows from the target to the source)."""
    return conn.kind == "subscribes" and not publishes(conn)
