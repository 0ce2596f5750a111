"""Viewer overlay: a diff as plain JSON-able data keyed by the ids the explorer already uses.

Node ids are model.json component ids and edge ids are model.json edge ids
(``source->target:protocol``), so the viewer can colour its existing graph; components and
connections that exist only on the B side come with enough data (kind, ends, protocol) to be drawn
as "ghost" elements.  Nothing here touches the web server: :mod:`repomodeler.serve.compare` picks
what may be compared (never a path taken from a request) and calls :func:`diff_to_overlay`.
"""

from __future__ import annotations

import re

from repomodeler.diff.core import Diff
from repomodeler.diff.render import describe

OVERLAY_SCHEMA = "repomodeler/overlay@1"
_SAFE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def diff_to_overlay(diff: Diff) -> dict[str, object]:
    """Pure: element ids with status (added/removed/changed) plus the change list with human text."""
    nodes: dict[str, str] = {}
    edges: dict[str, str] = {}
    for c in diff.changes:
        if c.element == "component":
            nodes[c.id] = c.status
        elif c.element == "connection":
            edges[c.id] = c.status
            if c.new_id:
                edges[c.new_id] = "changed"
        elif c.component and c.component not in nodes:
            nodes[c.component] = "changed"  # a port or endpoint of an existing component changed
    ghost_nodes = [{"id": c.id, "kind": diff.b.components[c.id].kind} for c in diff.of("component", "added")
                   if c.id in diff.b.components]
    ghost_edges = []
    for c in diff.of("connection", "added"):
        src, _, rest = c.id.partition("->")
        tgt, _, proto = rest.rpartition(":")
        ghost_edges.append({"id": c.id, "source": src, "target": tgt, "protocol": proto})
    return {
        "schema": OVERLAY_SCHEMA,
        "base": diff.a.origin,
        "compare": diff.b.origin,
        "nodes": dict(sorted(nodes.items())),
        "edges": dict(sorted(edges.items())),
        "ghost_nodes": ghost_nodes,
        "ghost_edges": ghost_edges,
        "changes": [{**c.to_json(), "text": describe(c)} for c in diff.changes],
        "counts": diff.counts(),
        "notes": list(diff.notes) + [str(n) for n in diff.reader_notes],
    }
