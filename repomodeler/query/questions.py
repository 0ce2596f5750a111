"""The questions people and agents ask of an architecture, answered on the canonical model.

A connection ``source -> target`` means *source depends on target* (it calls it, uses it, publishes
to it or subscribes at it).  So ``callers X`` are the sources of X's incoming connections,
``callees X`` the targets of its outgoing ones, and ``impact X`` everything that reaches X by
following connections backwards.  Messaging adds one dependency the connections do not draw
directly: a component subscribed to a topic another publishes on the same broker depends on the
publisher (its messages stop when the publisher goes); ``impact`` follows it, citing both the
subscription and the publication.  ``path A B`` follows requests and messages the way they travel:
along calls and uses, into a broker with a publication and out of it to the subscribers of the
same topic (a subscription is taken against its arrow).
"""

from __future__ import annotations

import re
from collections import deque
from typing import TYPE_CHECKING, Iterable

from repomodeler.model import Connection
from repomodeler.query.index import QueryError, QueryIndex
from repomodeler.query.records import (
    Change,
    ChangesAnswer,
    ComponentsAnswer,
    Element,
    EvidenceAnswer,
    ImpactAnswer,
    Link,
    Neighbour,
    NeighboursAnswer,
    PathAnswer,
    Reach,
    Route,
    RuleRef,
    UnresolvedAnswer,
    UnresolvedItem,
    Usage,
    UsesAnswer,
)

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.diff.view import ArchModel

#: Routes ``path`` lists at most (shortest first), the longest route it follows, and how many steps
#: one search may take: a dense model has more routes than anyone reads.
MAX_ROUTES = 20
MAX_HOPS = 8
MAX_STEPS = 200_000


def _rules(index: QueryIndex, elements: Iterable[Element], links: Iterable[Link]) -> tuple[RuleRef, ...]:
    ids: set[str] = set()
    for e in elements:
        ids.update(e.rules)
    for link in links:
        ids.update(link.rules)
    return index.rules_of(ids)


# ---------------------------------------------------------------------------------- components
def components(index: QueryIndex, kind: str = "", nested: bool = False, limit: int = 0) -> ComponentsAnswer:
    """The top-level components (with `nested`, or for a kind only parts have, the parts inside them
    too), of `kind` when given; the first `limit` by id (0: all)."""
    if limit < 0:
        raise QueryError("error: limit must be 0 (all) or more")
    model = index.model
    kinds = {c.kind for c in model.components.values()}
    if kind and kind not in kinds:
        raise QueryError(f"error: no component of kind '{kind}' in {index.origin}; kinds: {', '.join(sorted(kinds))}")
    if kind and not nested and not any(c.kind == kind for c in model.top_level()):
        nested = True  # a kind only parts have (subsystem)
    ids = [c.id for c in model.components.values()
           if (nested or model.is_top_level(c.id)) and (not kind or c.kind == kind)]
    shown = ids[:limit] if limit else ids
    return ComponentsAnswer(model=index.origin, components=tuple(index.element(c) for c in shown), total=len(ids),
                            truncated=len(shown) < len(ids))


# ---------------------------------------------------------------------------------- neighbours
def neighbours(index: QueryIndex, name: str, question: str) -> NeighboursAnswer:
    """``callers`` (who depends on `name` directly) or ``callees`` (what it depends on directly)."""
    if question not in ("callers", "callees"):
        raise QueryError(f"error: unknown question '{question}'; ask callers or callees")
    cid = index.resolve(name)
    every = index.is_part(cid)
    conns = index.incoming(cid, every) if question == "callers" else index.outgoing(cid, every)
    grouped: dict[str, list[Connection]] = {}
    for conn in conns:
        grouped.setdefault(conn.source if question == "callers" else conn.target, []).append(conn)
    found = tuple(Neighbour(index.element(other), tuple(index.link(c) for c in group))
                  for other, group in sorted(grouped.items()))
    subject = index.element(cid)
    return NeighboursAnswer(model=index.origin, question=question, subject=subject, neighbours=found,
                            rules=_rules(index, [subject, *(n.component for n in found)],
                                         [link for n in found for link in n.links]))


def callers(index: QueryIndex, name: str) -> NeighboursAnswer:
    return neighbours(index, name, "callers")


def callees(index: QueryIndex, name: str) -> NeighboursAnswer:
    return neighbours(index, name, "callees")


# ---------------------------------------------------------------------------------- impact
def _dependants(index: QueryIndex, cid: str, every: bool) -> list[tuple[str, tuple[Connection, ...]]]:
    """(component, connections from it to `cid`) for every direct dependant of `cid`: the sources of
    its incoming connections, and the subscribers of the topics it publishes (subscription first,
    then the publication)."""
    out = [(c.source, (c,)) for c in index.incoming(cid, every)]
    for pub in index.outgoing(cid, every):
        topics = index.published(pub)
        if not topics:
            continue
        for sub in index.incoming(pub.target, every):
            if sub.source != cid and index.subscribed(sub) & topics:
                out.append((sub.source, (sub, pub)))
    return out


def impact(index: QueryIndex, name: str, limit: int = 0) -> ImpactAnswer:
    """Everything that depends on `name`, transitively, with a shortest path from each to it; the
    nearest `limit` (0: all)."""
    if limit < 0:
        raise QueryError("error: limit must be 0 (all) or more")
    cid = index.resolve(name)
    every = index.is_part(cid)
    via: dict[str, tuple[str, tuple[Connection, ...]]] = {}  # dependant -> (the next component, the step to it)
    distance = {cid: 0}
    order: list[str] = []
    queue = deque([cid])
    while queue:  # breadth first: each component is reached by a shortest path; ties by id
        node = queue.popleft()
        for dep, step in sorted(_dependants(index, node, every), key=lambda d: (d[0], d[1][0].key)):
            if dep in distance:
                continue
            distance[dep] = distance[node] + 1
            via[dep] = (node, step)
            order.append(dep)
            queue.append(dep)
    order.sort(key=lambda d: (distance[d], d))
    shown = order[:limit] if limit else order
    used: dict[str, Link] = {}
    impacted = []
    for dep in shown:
        ids: list[str] = []
        node = dep
        while node != cid:
            node, step = via[node]
            for conn in step:
                ids.append(conn.id)
                if conn.id not in used:
                    used[conn.id] = index.link(conn)
        impacted.append(Reach(index.element(dep), distance[dep], tuple(ids)))
    subject = index.element(cid)
    return ImpactAnswer(model=index.origin, subject=subject, impacted=tuple(impacted),
                        links=tuple(used[k] for k in sorted(used)), total=len(order), truncated=len(shown) < len(order),
                        rules=_rules(index, [subject, *(r.component for r in impacted)], used.values()))


# ---------------------------------------------------------------------------------- path
def _flows(index: QueryIndex, node: str, arrived: Connection | None, every: bool) -> list[tuple[str, Connection, bool]]:
    """Where a request or message at `node` goes next: (next component, connection, against its arrow)."""
    out: list[tuple[str, Connection, bool]] = []
    for conn in index.outgoing(node, every):
        if not index.receives_only(conn):
            out.append((conn.target, conn, False))
    topics = index.published(arrived) if arrived is not None else None
    for conn in index.incoming(node, every):
        subs = index.subscribed(conn)
        if not subs:
            continue
        if topics is None and arrived is not None:
            continue  # arrived by a call: nothing is published here
        if topics is not None and not (topics & subs):
            continue  # a subscriber of other topics gets nothing from this publication
        out.append((conn.source, conn, True))
    return out


def _can_reach(index: QueryIndex, target: str, every: bool) -> dict[str, int]:
    """Component -> fewest hops to `target` along flows (topics ignored: a bound, used to prune)."""
    dist = {target: 0}
    queue = deque([target])
    while queue:
        node = queue.popleft()
        back = [c.source for c in index.incoming(node, every) if not index.receives_only(c)]
        back += [c.target for c in index.outgoing(node, every) if index.subscribed(c)]
        for prev in back:
            if prev not in dist:
                dist[prev] = dist[node] + 1
                queue.append(prev)
    return dist


def path(index: QueryIndex, a: str, b: str, max_routes: int = MAX_ROUTES, max_hops: int = MAX_HOPS) -> PathAnswer:
    """Every route from `a` to `b`, shortest first (at most `max_routes`, each at most `max_hops` long)."""
    src, dst = index.resolve(a), index.resolve(b)
    if not 1 <= max_routes <= 1000 or not 1 <= max_hops <= 50:
        raise QueryError("error: max_routes must be 1..1000 and max_hops 1..50")
    every = index.is_part(src) or index.is_part(dst)
    routes: list[tuple[tuple[str, ...], tuple[Connection, ...], tuple[bool, ...]]] = []
    truncated = False
    if src != dst:
        dist = _can_reach(index, dst, every)
        steps = 0
        if src in dist:
            for length in range(dist[src], max_hops + 1):  # iterative deepening: shortest routes first
                stack: list[tuple[str, tuple[str, ...], tuple[Connection, ...], tuple[bool, ...]]] = [(src, (src,), (), ())]
                while stack:
                    node, through, hops, back = stack.pop()
                    steps += 1
                    if steps > MAX_STEPS:
                        truncated = True
                        break
                    if node == dst:
                        if len(hops) == length:
                            routes.append((through, hops, back))
                        continue
                    nexts = _flows(index, node, hops[-1] if hops else None, every)
                    for nxt, conn, rev in sorted(nexts, key=lambda n: (n[0], n[1].id), reverse=True):
                        if nxt in through or len(hops) + 1 + dist.get(nxt, max_hops + 1) > length:
                            continue
                        stack.append((nxt, through + (nxt,), hops + (conn,), back + (rev,)))
                if truncated or len(routes) >= max_routes:
                    break
    if len(routes) > max_routes:
        routes, truncated = routes[:max_routes], True
    found = tuple(Route(through=t, hops=tuple(index.link(c) for c in h), reversed=r) for t, h, r in routes)
    note = ""
    if not found and src != dst:
        back_routes = _can_reach(index, src, every)
        note = (f"no route from {src} to {dst}; {dst} reaches {src}: ask path {dst} {src}" if dst in back_routes
                else f"no route from {src} to {dst} within {max_hops} connections")
    elif src == dst:
        note = "source and target are the same component"
    if truncated:
        note = (note + "; " if note else "") + f"more routes exist: showing the {len(found)} shortest"
    ends = [index.element(src), index.element(dst)]
    return PathAnswer(model=index.origin, source=ends[0], target=ends[1], routes=found, truncated=truncated, note=note,
                      rules=_rules(index, [*ends, *(index.element(n) for r in found for n in r.through)],
                                   {link.id: link for r in found for link in r.hops}.values()))


# ---------------------------------------------------------------------------------- uses
_ENDPOINT_RE = re.compile(r"^(?:(?P<method>[A-Za-z]+)\s+)?(?P<path>/\S*|[A-Za-z_][\w.]*/[\w.]+)$")
_PARAM = re.compile(r"^(\{[^}]*\}|:[^/]+|\*)$")


def _path_matches(want: str, have: str) -> bool:
    """Same path, a parameter segment (``{id}``, ``:id``, ``*``) matching any one segment."""
    ws, hs = want.strip("/").split("/"), have.strip("/").split("/")
    return len(ws) == len(hs) and all(w == h or _PARAM.match(w) or _PARAM.match(h) for w, h in zip(ws, hs))


def _endpoint_matches(method: str | None, want: str, label: str) -> bool:
    m, _, p = label.partition(" ")
    if not p:
        m, p = "", label
    if method and m and m.upper() not in (method.upper(), "ANY") and method.upper() != "ANY":
        return False
    return _path_matches(want, p)


def uses(index: QueryIndex, subject: str) -> UsesAnswer:
    """Who uses a store (any component), publishes or subscribes a topic, provides or calls an
    endpoint.  `subject` may say which with ``store:``, ``topic:`` or ``endpoint:``; otherwise a
    component name is a store, then a topic, then an endpoint (``GET /orders/{id}`` or ``/orders``)."""
    if not isinstance(subject, str) or not subject.strip():
        raise QueryError("error: uses needs a topic, a store or an endpoint (e.g. 'orders.created', 'orders-db', 'GET /orders')")
    text = subject.strip()
    what, _, rest = text.partition(":")
    if what in ("store", "topic", "endpoint") and rest.strip():
        text = rest.strip()
    else:
        what = ""
    if what in ("", "store"):
        cid = index.find(text) if what == "" else index.resolve(text)
        if cid is not None:
            return _store_users(index, cid)
    if what in ("", "topic"):
        answer = _topic_users(index, text)
        if answer.users or what == "topic":
            if not answer.users:
                raise QueryError(f"error: no component publishes or subscribes topic '{text}' in {index.origin}")
            return answer
    m = _ENDPOINT_RE.match(text)
    if m:
        answer = _endpoint_users(index, m.group("method"), m.group("path"), text)
        if answer.users or what == "endpoint":
            if not answer.users:
                raise QueryError(f"error: no component provides or calls endpoint '{text}' in {index.origin}")
            return answer
    raise QueryError(f"error: '{subject}' is no component, topic or endpoint of {index.origin}{index.suggest(text)}")


def _store_users(index: QueryIndex, cid: str) -> UsesAnswer:
    every = index.is_part(cid)
    users = tuple(Usage(index.element(c.source), c.kind, index.link(c), index.link(c).evidence)
                  for c in sorted(index.incoming(cid, every), key=lambda c: (c.source, c.id)))
    return UsesAnswer(model=index.origin, subject=cid, what="store", users=users,
                      rules=_rules(index, [index.element(cid), *(u.component for u in users)],
                                   [u.link for u in users if u.link]))


def _topic_users(index: QueryIndex, topic: str) -> UsesAnswer:
    found: list[Usage] = []
    for role, conn in index.topics.get(topic, ()):
        link = index.link(conn)
        found.append(Usage(index.element(conn.source), role, link, link.evidence))
    users = tuple(sorted(found, key=lambda u: (u.role, u.component.id, u.link.id if u.link else "")))
    return UsesAnswer(model=index.origin, subject=topic, what="topic", users=users,
                      rules=_rules(index, [u.component for u in users], [u.link for u in users if u.link]))


def _endpoint_users(index: QueryIndex, method: str | None, want: str, subject: str) -> UsesAnswer:
    found: list[Usage] = []
    for comp in index.model.components.values():
        for port in comp.ports:
            for ep in port.endpoints:
                if _endpoint_matches(method, want, f"{ep.method} {ep.path}"):
                    found.append(Usage(index.element(comp.id), "provides", None,
                                       tuple(str(e) for e in ep.evidence) or index.element(comp.id).evidence))
                    break
    for conn, labels in index.called_endpoints:
        if any(_endpoint_matches(method, want, label) for label in labels):
            link = index.link(conn)
            found.append(Usage(index.element(conn.source), "calls", link, link.evidence))
    users = tuple(sorted(found, key=lambda u: (u.role != "provides", u.component.id, u.link.id if u.link else "")))
    return UsesAnswer(model=index.origin, subject=subject, what="endpoint", users=users,
                      rules=_rules(index, [u.component for u in users], [u.link for u in users if u.link]))


# ---------------------------------------------------------------------------------- evidence
def evidence(index: QueryIndex, element: str) -> EvidenceAnswer:
    """The evidence and rules behind a component (id or name), a connection (``A->B`` or
    ``A->B:PROTOCOL``), a port (``COMPONENT.PORT``) or an endpoint (``COMPONENT:METHOD /path``)."""
    if not isinstance(element, str) or not element.strip():
        raise QueryError("error: evidence needs an element: a component id, SOURCE->TARGET[:PROTOCOL], "
                         "COMPONENT.PORT or COMPONENT:METHOD /path")
    text = element.strip()
    model = index.model
    if "->" in text:
        conn = _find_connection(index, text)
        return EvidenceAnswer(model=index.origin, element=conn.id, type="connection", kind=conn.kind,
                              evidence=tuple(str(e) for e in conn.evidence), rules=index.rules_of(set(conn.rules)),
                              attributes={str(k): str(v) for k, v in sorted(conn.attributes.items())})
    cid = index.find(text)
    if cid is not None:
        comp = model.components[cid]
        attrs = {str(k): str(v) for k, v in sorted(comp.attributes.items())}
        attrs.update({k: v for k, v in (("language", comp.language), ("repository", comp.repository),
                                        ("parent", comp.parent)) if v})
        return EvidenceAnswer(model=index.origin, element=cid, type="component", kind=comp.kind,
                              evidence=tuple(str(e) for e in comp.evidence), rules=index.rules_of(set(comp.rules)),
                              attributes=dict(sorted(attrs.items())))
    head, sep, label = text.partition(":")
    if sep and (owner := index.find(head)) is not None:
        method, _, p = label.strip().partition(" ")
        if not p:
            method, p = "", method
        for port in model.components[owner].ports:
            for ep in port.endpoints:
                if (not method or method.upper() == ep.method.upper()) and p == ep.path:
                    return EvidenceAnswer(model=index.origin, element=f"{owner}.{port.name}:{ep.method} {ep.path}",
                                          type="endpoint", kind=port.protocol, evidence=tuple(str(e) for e in ep.evidence),
                                          rules=index.rules_of(set(model.components[owner].rules)))
        raise QueryError(f"error: component '{owner}' has no endpoint '{label.strip()}'; its endpoints: "
                         + (", ".join(f"{ep.method} {ep.path}" for port in model.components[owner].ports
                                      for ep in port.endpoints)[:400] or "none"))
    head, sep, port_name = text.rpartition(".")
    if sep and (owner := index.find(head)) is not None:
        for port in model.components[owner].ports:
            if port.name == port_name:
                return EvidenceAnswer(model=index.origin, element=f"{owner}.{port.name}", type="port", kind=port.protocol,
                                      evidence=tuple(str(e) for e in port.evidence),
                                      rules=index.rules_of(set(model.components[owner].rules)),
                                      attributes={"direction": port.direction, "endpoints": str(len(port.endpoints))})
    raise QueryError(f"error: no component, connection, port or endpoint '{text}' in {index.origin}{index.suggest(text)}")


def _find_connection(index: QueryIndex, text: str) -> Connection:
    """A connection named ``SOURCE->TARGET`` (the first by protocol) or ``SOURCE->TARGET:PROTOCOL``."""
    source, _, rest = (x.strip() for x in text.partition("->"))
    target, protocol = rest, ""
    if ":" in rest and index.find(rest) is None:
        target, _, protocol = (x.strip() for x in rest.rpartition(":"))
    src, dst = index.resolve(source), index.resolve(target)
    between = [c for c in index.outgoing(src, True) if c.target == dst]
    candidates = [c for c in between if not protocol or c.protocol == protocol]
    if not candidates:
        raise QueryError(f"error: no connection '{text}' in {index.origin}"
                         + (f"; between them: {', '.join(c.id for c in between)}" if between
                            else f"; {src} does not depend on {dst}"))
    return candidates[0]


# ---------------------------------------------------------------------------------- unresolved
def unresolved(index: QueryIndex) -> UnresolvedAnswer:
    items = tuple(sorted((UnresolvedItem(u.component, u.value, str(u.evidence)) for u in index.model.unresolved),
                         key=lambda i: (i.component, i.value, i.evidence)))
    return UnresolvedAnswer(model=index.origin, items=items)


# ---------------------------------------------------------------------------------- changes
def changes(a: QueryIndex, b: QueryIndex, question: str = "changes", notes: tuple[str, ...] = (),
            arch_a: "ArchModel | None" = None, arch_b: "ArchModel | None" = None) -> ChangesAnswer:
    """What changed from architecture A to B (the diff's matching, see :mod:`repomodeler.diff.core`),
    each change with the evidence and rules of the side that has it.  `arch_a`/`arch_b`: the SysML
    reader's view of a side read from SysML (what a hand-written target leaves unsaid is then not
    reported as removed)."""
    from repomodeler.diff.core import diff_models
    from repomodeler.diff.load import arch_model

    diff = diff_models(arch_a or arch_model(a.model, a.origin), arch_b or arch_model(b.model, b.origin))
    out: list[Change] = []
    rule_ids: set[str] = set()
    for ch in diff.changes:
        side = a if ch.status == "removed" else b
        ident = ch.new_id or ch.id
        rules: tuple[str, ...] = ()
        cites: tuple[str, ...] = ()
        if ch.element == "connection":
            src, _, rest = ident.partition("->")
            tgt, _, proto = rest.rpartition(":")
            conn = side.model.connections.get((src, tgt, proto))
            if conn is not None:
                rules, cites = tuple(conn.rules), tuple(str(e) for e in conn.evidence)
        else:
            comp = side.model.components.get(ch.component)
            if comp is not None:
                rules, cites = tuple(comp.rules), tuple(str(e) for e in comp.evidence)
                port_name = ident.partition(".")[2].partition(":")[0] if ch.element in ("port", "endpoint") else ""
                port = next((p for p in comp.ports if p.name == port_name), None)
                if port is not None and port.evidence:  # a port's (or its endpoint's) own lines
                    cites = tuple(str(e) for e in port.evidence)
                    label = ident.partition(":")[2]
                    ep = next((e for e in port.endpoints if f"{e.method} {e.path}" == label), None)
                    if ep is not None and ep.evidence:
                        cites = tuple(str(e) for e in ep.evidence)
        rule_ids.update(rules)
        out.append(Change(element=ch.element, id=ch.id, status=ch.status, detail=ch.detail, new_id=ch.new_id,
                          where=ch.where, rules=rules, evidence=cites))
    return ChangesAnswer(question=question, a=a.origin, b=b.origin, counts=diff.counts(), changes=tuple(out),
                         notes=tuple([*notes, *diff.notes, *(str(n) for n in diff.reader_notes)]),
                         rules=b.rules_of(rule_ids))
