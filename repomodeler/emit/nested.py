"""Where the parts inside components go in the SysML text, and what they are called.

model.json keeps a component's subsystems (graph/subsystems.py) and a store server's logical
databases (graph/connections.py ``logical_databases``) as nodes with a ``parent``; the links that
start or end at them are ordinary edges.  In SysML each such node is a part usage nested in its
parent's part (``part ollama : Service { part server : Subsystem { ... } }``), and each such link a
connector declared in the innermost part that holds both ends, its ends written from there:

* a subsystem importing another subsystem of the same component: inside that component,
  ``connection server_to_api : ImportLink connect server to api``;
* a subsystem calling another component, or a component using a logical database of a store: in
  the system def, ``connect ollama.server to ollama_com``, ``connect orders to mysql.orders``.

A connector cannot end at the part it is declared in, so a link from a part to something inside it
is declared one level up.  Names are allocated per namespace (:class:`IdentAllocator`, fed in
sorted order): a nested part never takes a port's, a library definition's or a package-level
definition's name (its siblings are typed by those), and a connector never takes a part's name.
A node whose chain of parents does not reach a top-level component is left out, with its links.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from repomodeler.emit.names import IdentAllocator, is_basic_name
from repomodeler.model import graph as model_graph

# Features a part inherits from the library's Component def, and from its Subsystem def (library.sysml.j2).
COMPONENT_FEATURES = frozenset({"kind", "repository", "language", "technology", "image", "publishedPorts"})
SUBSYSTEM_FEATURES = frozenset({"path", "files", "language", "endpoints", "packageName"})


@dataclass(frozen=True)
class NestedLink:
    """How one link with a nested end is written."""

    owner: str | None  # the node whose body declares the connector; None: the system def
    name: str  # its declared name in that body
    source: tuple[str, ...]  # member names from just below the owner down to the source
    target: tuple[str, ...]


@dataclass(frozen=True)
class Nesting:
    """The nested parts of a graph: who holds whom, their names, and where each link is written."""

    members: dict[str, str]  # nested node id -> its name in its parent's body
    children: dict[str, list[str]]  # node id -> the nested node ids it holds (sorted)
    links: dict[tuple[str, str, str], NestedLink]  # (source, target, key) -> placement


EMPTY = Nesting(members={}, children={}, links={})


def nested_chains(g: nx.MultiDiGraph) -> dict[str, list[str]]:
    """Nested node id -> its ancestors, parent first, ending at a top-level node of `g`; nodes whose
    chain breaks (a parent missing from the graph, or a cycle) are not in it."""
    return model_graph.chains(g)


def _member_text(g: nx.MultiDiGraph, node: str) -> str:
    name = str(g.nodes[node].get("name") or "").strip()
    return name if name and name != "." else "root"


def nest(g: nx.MultiDiGraph, top_names: dict[str, str], namespaces: dict[str, IdentAllocator],
         system_ns: IdentAllocator, reserved: frozenset[str]) -> Nesting:
    """Names and placements for every nested node of `g` and every link with a nested end.

    `top_names` are the top-level components' part names, `namespaces` their body namespaces
    (ports already named there), `system_ns` the system def's namespace (components and
    connectors already named), `reserved` the names a nested member must never take (library and
    package-level definitions)."""
    chains = nested_chains(g)
    if not chains:
        return EMPTY
    children: dict[str, list[str]] = {}
    for n in sorted(chains):
        children.setdefault(chains[n][0], []).append(n)
    ns: dict[str, IdentAllocator] = {}
    members: dict[str, str] = {}
    # parents before children, so each body is named in one go (the order never changes a name)
    for holder in sorted(children, key=lambda h: (len(chains.get(h, ())), h)):
        # A member named like the part holding it, or like any part above it, would be a second
        # member of that name in the view exposing the component recursively (``expose frontend::**``
        # imports frontend and frontend::frontend): readers warn of a name conflict.
        above = {members[h] if h in chains else top_names[h] for h in (holder, *chains.get(holder, ()))}
        if holder in chains:
            features = SUBSYSTEM_FEATURES if g.nodes[holder]["kind"] == "subsystem" else COMPONENT_FEATURES
            space = ns[holder] = IdentAllocator(features | reserved | above)
        else:
            space = ns[holder] = namespaces[holder]
            space.reserve(reserved | space.taken() | above)  # a part named like a port: 'http_subsystem'
        # exact basic names first (they keep their text), then the rest, each in id order
        texts = {c: _member_text(g, c) for c in children[holder]}
        for c in [c for c in children[holder] if is_basic_name(texts[c])] + \
                [c for c in children[holder] if not is_basic_name(texts[c])]:
            members[c] = space.take(texts[c], str(g.nodes[c]["kind"]))

    def path(node: str) -> list[str]:
        return [node, *chains.get(node, [])]

    def below(node: str, owner: str | None) -> tuple[str, ...]:
        steps = path(node)
        steps = steps[:steps.index(owner)] if owner is not None else steps
        return tuple(top_names[s] if s not in chains else members[s] for s in reversed(steps))

    links: dict[tuple[str, str, str], NestedLink] = {}
    for u, v, k in sorted(g.edges(keys=True), key=lambda e: (e[0], e[1], str(e[2]))):
        if u not in chains and v not in chains:
            continue
        if not all(x in chains or (x in top_names and not model_graph.is_nested(g, x)) for x in (u, v)):
            continue  # an end left out of the text
        up = set(path(v))
        lca = next((x for x in path(u) if x in up), None)
        owner = lca
        if lca in (u, v):
            owner = (chains.get(lca) or [None])[0]  # type: ignore[arg-type]
        source, target = below(u, owner), below(v, owner)
        text = "_".join(source) + "_to_" + "_".join(target) + ("" if str(k) == "import" else f"_{k}")
        space = system_ns if owner is None else ns[owner]  # the owner holds a part: it has a namespace
        links[(u, v, k)] = NestedLink(owner=owner, name=space.take(text, "link"), source=source, target=target)
    return Nesting(members=members, children=children, links=links)
