"""The one place that knows what a node's ``parent`` means.

A node without a parent is a *top-level component*; a node with one is a *part* nested in the node
its parent names (a subsystem of a component, a logical database of a store server, a part of a
subsystem).  Consumers that show or compare components work on the top level, and a connection is
*top level* when both its ends are top-level components; a connection with a nested end is drawn
inside its component, or *lifted* to the top-level components that hold its ends.

Everything here works on a ``parents`` mapping (node id -> parent id or None), so the same rule
serves :class:`~repomodeler.model.records.Model`, the networkx graph made from it
(:mod:`repomodeler.model.graph`) and the diff's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.model.records import Component, Connection, Model


def has_parent(parent: object) -> bool:
    """Is a node with this ``parent`` value nested?  (None and "" both mean top level.)"""
    return bool(parent)


def is_top_level(component: "Component | None") -> bool:
    """A known node without a parent."""
    return component is not None and not has_parent(component.parent)


def top_level_ids(parents: Mapping[str, object]) -> set[str]:
    return {n for n, p in parents.items() if not has_parent(p)}


def nested_ids(parents: Mapping[str, object]) -> set[str]:
    return {n for n, p in parents.items() if has_parent(p)}


def ancestors(parents: Mapping[str, object], node: str) -> list[str]:
    """The nodes holding `node`, its parent first, ending at a top-level node; [] for a top-level
    node, an unknown one, or one whose chain breaks (a parent that is not a node, or a cycle)."""
    chain: list[str] = []
    seen, cur = {node}, node
    while True:
        parent = parents.get(cur) if cur in parents else None
        if not has_parent(parent):
            return chain
        parent = str(parent)
        if parent in seen or parent not in parents:
            return []
        chain.append(parent)
        seen.add(parent)
        cur = parent


def chains(parents: Mapping[str, object]) -> dict[str, list[str]]:
    """Nested node id -> :func:`ancestors`, for every nested node whose chain reaches the top level."""
    out: dict[str, list[str]] = {}
    for n, p in parents.items():
        if has_parent(p):
            chain = ancestors(parents, n)
            if chain:
                out[n] = chain
    return out


def parents_of_nodes(nodes: Iterable[object]) -> dict[str, object]:
    """The ``parents`` mapping of model.json's ``nodes`` as parsed (dicts; anything else is
    skipped), for readers that hold the JSON rather than a :class:`Model` (the viewer's server)."""
    out: dict[str, object] = {}
    for n in nodes:
        if isinstance(n, dict) and isinstance(n.get("id"), str):
            out[n["id"]] = n.get("parent")
    return out


def placement(parents: Mapping[str, object]) -> dict[str, dict[str, object]]:
    """Node id -> where it sits: ``top`` (the top-level component holding it, itself at the top
    level), ``depth`` (0 at the top level) and ``ancestors`` (outermost first, ending at its
    parent), for every node.  A node whose chain breaks (a parent that is not a node, a cycle)
    is placed at the top level, as :func:`ancestors` treats it.  The viewer draws and counts
    with this and never reads ``parent`` itself."""
    out: dict[str, dict[str, object]] = {}
    for n in sorted(parents):
        chain = ancestors(parents, n)[::-1]
        out[n] = {"top": chain[0] if chain else n, "depth": len(chain), "ancestors": chain}
    return out


def parent_of(parents: Mapping[str, object], node: str) -> str | None:
    p = parents.get(node)
    return str(p) if has_parent(p) else None


def children(parents: Mapping[str, object], node: str) -> list[str]:
    """The nodes whose parent is `node`, sorted."""
    return sorted(n for n, p in parents.items() if has_parent(p) and p == node)


def top_of(parents: Mapping[str, object], node: str) -> str | None:
    """The top-level component holding `node` (`node` itself at the top level); None for an unknown
    node or a broken chain."""
    if node not in parents:
        return None
    if not has_parent(parents[node]):
        return node
    chain = ancestors(parents, node)
    return chain[-1] if chain else None


def lift(parents: Mapping[str, object], source: str, target: str, protocol: str) -> tuple[str, str, str] | None:
    """A link between two nodes as a link between the top-level components holding them; None when an
    end has no top-level holder or both ends are inside the same component."""
    s, t = top_of(parents, source), top_of(parents, target)
    if s is None or t is None or s == t:
        return None
    return (s, t, protocol)


def is_top_level_link(parents: Mapping[str, object], source: str, target: str) -> bool:
    """Both ends are top-level components."""
    return (source in parents and not has_parent(parents[source])
            and target in parents and not has_parent(parents[target]))


def touches_nested(parents: Mapping[str, object], source: str, target: str) -> bool:
    """An end is a nested part."""
    return has_parent(parents.get(source)) or has_parent(parents.get(target))


def top_level_connections(model: "Model") -> list["Connection"]:
    parents = model.parents
    return [c for c in model.connections.values() if is_top_level_link(parents, c.source, c.target)]


def nested_connections(model: "Model") -> list["Connection"]:
    parents = model.parents
    return [c for c in model.connections.values() if touches_nested(parents, c.source, c.target)]


def nested_by_kind(components: Iterable["Component"]) -> tuple[list["Component"], list["Component"]]:
    """The nested parts split into (subsystems and other parts, logical databases)."""
    parts = [c for c in components if has_parent(c.parent)]
    return [c for c in parts if c.kind != "database"], [c for c in parts if c.kind == "database"]


# The stats model.json states that the records give (recomputed on writing, so not kept on reading).
DERIVED_STATS = ("components", "connections", "endpoints", "subsystems", "subsystem_links", "databases",
                 "database_links")


def derived_stats(model: "Model") -> dict[str, object]:
    """``model.json``'s stats: the model's own (files, skipped...) updated with the counts the records
    give (:func:`repomodeler.model.counts.count`, the one counting rule).  Components and connections
    count the top level; parts inside components apart."""
    from repomodeler.model.counts import count

    figures = count(model)
    stats = dict(model.stats)
    stats.update(components=figures.components, connections=figures.connections, endpoints=figures.endpoints)
    if figures.subsystems:
        stats.update(subsystems=figures.subsystems, subsystem_links=figures.subsystem_links)
    if figures.databases:  # logical databases inside their servers, and the links that name them
        stats.update(databases=figures.databases, database_links=figures.database_links)
    return stats
