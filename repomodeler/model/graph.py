"""The model as a networkx ``MultiDiGraph``, for graph algorithms and the renderers built on them.

Nodes are component ids with ``name, kind, repository, language, evidence, attributes, ports, rules``
and, for the parts inside components, ``parent``; edges are keyed by protocol with ``id, kind,
protocol, evidence, attributes, rules``.  Graph-level attributes carry the system name, the
repositories, warnings, unresolved references, messages, stats and the rule catalog.
:func:`to_networkx` and :func:`from_networkx` convert without loss, and the functions below answer
the parent questions for a graph by asking :mod:`repomodeler.model.nesting`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:  # networkx costs ~55 ms to import: a rerun that keeps its model needs none of it
    import networkx as nx

from repomodeler.model import nesting
from repomodeler.model.build import port_from_resolved
from repomodeler.model.records import Component, Connection, Model, Port, RepositoryRef, frozen_mapping
from repomodeler.records import RepomodelerError, Unresolved


def to_networkx(model: Model) -> nx.MultiDiGraph:
    """The graph of `model`; an edge whose end is not a node is an error."""
    import networkx as nx

    g = nx.MultiDiGraph()
    g.graph.update(
        name=model.name,
        repositories=[r.to_json() for r in model.repositories],
        warnings=list(model.warnings),
        unresolved=[{"component": u.component, "value": u.value, "evidence": u.evidence} for u in model.unresolved],
        stats=dict(model.stats),
        messages=list(model.messages),
        rules=list(model.rules),
        schema=model.schema,
    )
    for cid, c in model.components.items():
        g.add_node(cid, name=c.name, kind=c.kind, repository=c.repository, language=c.language,
                   evidence=c.evidence, attributes=dict(c.attributes), ports=list(c.ports), rules=c.rules,
                   **({"parent": c.parent} if c.parent else {}))
    for (u, v, key), e in model.connections.items():
        for end in (u, v):
            if end not in g:
                raise RepomodelerError(f"error: model.json edge {e.id} names unknown component '{end}'")
        g.add_edge(u, v, key=key, id=e.id, kind=e.kind, protocol=e.protocol, evidence=e.evidence,
                   attributes=dict(e.attributes), rules=e.rules)
    return g


def from_networkx(g: nx.MultiDiGraph) -> Model:
    """The model a graph made by :func:`to_networkx` holds (a subgraph of one included)."""
    components = {}
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        components[cid] = Component(
            id=cid, name=d["name"], kind=d["kind"], repository=d.get("repository"), language=d.get("language"),
            parent=d.get("parent") or None, evidence=tuple(d.get("evidence") or ()),
            attributes=frozen_mapping(d.get("attributes")),  # type: ignore[arg-type]
            # a graph built by hand (or by older code) may hold the resolver's ports: the model's own form
            ports=tuple(p if isinstance(p, Port) else port_from_resolved(p) for p in d.get("ports") or ()),
            rules=tuple(d.get("rules") or ()))
    connections = {}
    for u, v, key, d in sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2])):
        connections[(u, v, key)] = Connection(
            source=u, target=v, kind=d["kind"], protocol=d["protocol"], evidence=tuple(d.get("evidence") or ()),
            attributes=frozen_mapping(d.get("attributes")), rules=tuple(d.get("rules") or ()),  # type: ignore[arg-type]
            id=d.get("id") or "")
    graph = g.graph
    return Model(
        name=graph.get("name", "system"),
        components=frozen_mapping(components),  # type: ignore[arg-type]
        connections=frozen_mapping(connections),  # type: ignore[arg-type]
        repositories=tuple(RepositoryRef(**r) for r in graph.get("repositories") or ()),
        messages=tuple(graph.get("messages") or ()),
        unresolved=tuple(Unresolved(u["component"], u["value"], u["evidence"]) for u in graph.get("unresolved") or ()),
        warnings=tuple(graph.get("warnings") or ()),
        stats=frozen_mapping(graph.get("stats")),
        rules=tuple(graph.get("rules") or ()),
        schema=graph.get("schema", "repomodeler/model@1"),
    )


# ---- the parent rule on a graph ----------------------------------------------------------------
def parents(g: nx.MultiDiGraph) -> Mapping[str, object]:
    """Node id -> its parent (None at the top level)."""
    return {n: d.get("parent") for n, d in g.nodes(data=True)}


def is_nested(g: nx.MultiDiGraph, node: str) -> bool:
    return nesting.has_parent(g.nodes[node].get("parent"))


def parent_of(g: nx.MultiDiGraph, node: str) -> str | None:
    return nesting.parent_of(parents(g), node) if node in g else None


def top_level_ids(g: nx.MultiDiGraph) -> list[str]:
    """The top-level components, in the graph's node order."""
    return [n for n, d in g.nodes(data=True) if not nesting.has_parent(d.get("parent"))]


def top_level_view(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The subgraph of the top-level components and the edges between them (always a view)."""
    return g.subgraph(top_level_ids(g))


def top_level(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """`g` without the nodes inside components and their edges (`g` itself when it has none)."""
    top = top_level_ids(g)
    return g if len(top) == g.number_of_nodes() else g.subgraph(top)


def chains(g: nx.MultiDiGraph) -> dict[str, list[str]]:
    """Nested node id -> its ancestors, parent first, ending at a top-level node of `g`; nodes whose
    chain breaks (a parent missing from the graph, or a cycle) are not in it."""
    return nesting.chains(parents(g))
