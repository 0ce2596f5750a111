"""The model from the resolver's :class:`~repomodeler.graph.base.SystemModel`: one function."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from repomodeler.model.records import (
    Component,
    Connection,
    Endpoint,
    Model,
    Port,
    RepositoryRef,
    Rule,
    frozen_mapping,
)
from repomodeler.records import MessageType, Repository, Warning_
from repomodeler.records import Component as ResolvedComponent
from repomodeler.records import Connection as ResolvedConnection
from repomodeler.records import Port as ResolvedPort

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.graph.base import SystemModel


def port_from_resolved(p: ResolvedPort) -> Port:
    """The model's port for one the resolver built."""
    return Port(name=p.name, protocol=p.protocol, direction=p.direction,
                endpoints=tuple(Endpoint(method=e.method, path=e.path, evidence=tuple(sorted(e.evidence)),
                                         package=e.package, request=e.request, response=e.response, stream=e.stream)
                                for e in sorted(p.endpoints, key=lambda e: (e.path, e.method))),
                evidence=tuple(sorted(p.evidence)))


def _rule_ids(item: object) -> tuple[str, ...]:
    return tuple(sorted(set(getattr(item, "rules", None) or ())))


def _component(c: ResolvedComponent) -> Component:
    return Component(id=c.id, name=c.name, kind=c.kind, repository=c.repository, language=c.language,
                     parent=c.parent or None, evidence=tuple(sorted(c.evidence)),
                     attributes=frozen_mapping({k: v for k, v in sorted(c.attributes.items()) if v}),  # type: ignore[arg-type]
                     ports=tuple(port_from_resolved(c.ports[k]) for k in sorted(c.ports)), rules=_rule_ids(c))


def _connection(c: ResolvedConnection) -> Connection:
    return Connection(source=c.source, target=c.target, kind=c.kind, protocol=c.protocol,
                      evidence=tuple(sorted(c.evidence)),
                      attributes=frozen_mapping(dict(sorted(c.attributes.items()))),  # type: ignore[arg-type]
                      rules=_rule_ids(c))


def used_messages(messages: dict[str, MessageType], ports: Iterable[ResolvedPort]) -> list[MessageType]:
    """The messages and enums the endpoints of ``ports`` carry, with every type their fields reach, sorted
    by name (a message of a component that was dropped or merged does not linger)."""
    todo = sorted({t for p in ports for ep in p.endpoints for t in (ep.request, ep.response) if t})
    out: dict[str, MessageType] = {}
    while todo:
        name = todo.pop()
        if name in out or name not in messages:
            continue
        out[name] = messages[name]
        todo.extend(f.type for f in messages[name].fields)
    return [out[n] for n in sorted(out)]


def from_system(system: "SystemModel", repositories: list[Repository], warnings: list[Warning_],
                stats: dict[str, object], nested: bool = True) -> Model:
    """The canonical model of a resolved system.  `nested`: with the parts inside components
    (subsystems) and the links between them; without them, the top level the resolver made."""
    components = {cid: _component(system.components[cid]) for cid in sorted(system.components)}
    if nested:
        components.update((pid, _component(system.parts[pid])) for pid in sorted(system.parts))
    keys = sorted([*system.connections, *(system.part_links if nested else ())])
    connections = {}
    for key in keys:
        conn = _connection(system.connections.get(key) or system.part_links[key])
        connections[conn.key] = conn
    used = sorted({r for c in components.values() for r in c.rules} | {r for c in connections.values() for r in c.rules})
    return Model(
        name=system.name,
        components=frozen_mapping(dict(sorted(components.items()))),  # type: ignore[arg-type]
        connections=frozen_mapping(dict(sorted(connections.items()))),  # type: ignore[arg-type]
        repositories=tuple(RepositoryRef(name=r.name, url=r.url, commit=r.commit, ref=r.spec.ref,
                                         committed_at=r.committed_at)
                           for r in sorted(repositories, key=lambda r: r.name)),
        messages=tuple(used_messages(system.messages,
                                     [p for c in system.components.values() for p in c.ports.values()])),
        unresolved=tuple(system.unresolved),
        warnings=tuple(sorted(set(warnings))),
        stats=frozen_mapping(stats),
        rules=rule_catalogue(used),
    )


def rule_catalogue(ids: Iterable[str]) -> tuple[Rule, ...]:
    """The catalogue entries of the rules `ids` name, with the messages the resolver's rules declare
    (``repomodeler.rules.RULES`` where the resolver has named rules; an id it does not know keeps an
    empty message)."""
    ids = sorted(set(ids))
    if not ids:
        return ()
    try:
        from repomodeler.rules import RULES  # type: ignore[import-not-found]
        messages = {r.id: r.message for r in RULES}
    except ImportError:  # a resolver without named rules
        messages = {}
    return tuple(Rule(i, messages.get(i, "")) for i in ids)
