"""The networkx graph: the single source every output is rendered from.

Nodes are component ids with attributes ``name, kind, repository, language, evidence, attributes,
ports`` and, for the parts of a component (kind ``subsystem``), ``parent``; edges are keyed by protocol with ``kind, protocol, evidence, attributes``.  Graph-level
attributes carry the system name, the repositories, warnings, unresolved references and counts.
Evidence lists are sorted tuples so that two graphs built from the same commits compare equal.
"""

from __future__ import annotations

import networkx as nx

from repomodeler.graph.build import SystemModel
from repomodeler.records import MessageType, Port, Repository, Warning_


def to_graph(model: SystemModel, repositories: list[Repository], warnings: list[Warning_],
             stats: dict[str, object], nested: bool = False) -> nx.MultiDiGraph:
    """`nested`: also the parts inside components (subsystems, kind ``subsystem`` with a ``parent``) and
    the links between them.  Off by default until every reader of model.json (diff, check, the SysML
    reader, the exports) treats nested nodes as parts of their component."""
    g = nx.MultiDiGraph()
    g.graph.update(
        name=model.name,
        repositories=[{"name": r.name, "url": r.url, "commit": r.commit, "ref": r.spec.ref,
                       **({"committed_at": r.committed_at} if r.committed_at else {})}
                      for r in sorted(repositories, key=lambda r: r.name)],
        warnings=sorted(set(warnings)),
        unresolved=[{"component": u.component, "value": u.value, "evidence": u.evidence}
                    for u in model.unresolved],
        stats=stats,
    )
    g.graph["messages"] = used_messages(model.messages, [p for c in model.components.values() for p in c.ports.values()])
    for cid in sorted(model.components):
        c = model.components[cid]
        g.add_node(
            cid,
            name=c.name,
            kind=c.kind,
            repository=c.repository,
            language=c.language,
            evidence=tuple(sorted(c.evidence)),
            attributes={k: v for k, v in sorted(c.attributes.items()) if v},
            ports=[c.ports[k] for k in sorted(c.ports)],
            **({"parent": c.parent} if c.parent else {}),
            **({"rules": tuple(sorted(c.rules))} if c.rules else {}),
        )
    for pid in sorted(model.parts if nested else ()):
        c = model.parts[pid]
        g.add_node(pid, name=c.name, kind=c.kind, repository=c.repository, language=c.language,
                   evidence=tuple(sorted(c.evidence)), attributes={k: v for k, v in sorted(c.attributes.items()) if v},
                   ports=[c.ports[k] for k in sorted(c.ports)], parent=c.parent,
                   **({"rules": tuple(sorted(c.rules))} if c.rules else {}))
    for key in sorted([*model.connections, *(model.part_links if nested else ())]):
        conn = model.connections.get(key) or model.part_links[key]
        g.add_edge(conn.source, conn.target, key=conn.protocol, id=conn.id, kind=conn.kind, protocol=conn.protocol,
                   evidence=tuple(sorted(conn.evidence)), attributes=dict(sorted(conn.attributes.items())),
                   **({"rules": tuple(sorted(conn.rules))} if conn.rules else {}))
    return g


def used_messages(messages: dict[str, MessageType], ports: list[Port]) -> list[MessageType]:
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


def top_level(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The graph without the nodes inside components (subsystems) and their edges: what renderers that
    show components only draw."""
    nested = [n for n, d in g.nodes(data=True) if d.get("parent")]
    if not nested:
        return g
    return g.subgraph([n for n in g.nodes if n not in set(nested)])
