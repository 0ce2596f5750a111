"""The data a gallery card draws its small diagram from, embedded in the gallery page.

The card's preview used to fetch the whole model.json from the live server, so the published
site (opened from `file://`, where fetch() of local files is refused, under a CSP with
`connect-src 'none'`) showed no preview at all. A sketch is small enough to travel in a data
attribute of the card instead, for the server and the static site alike: the top-level
components' kinds and the connections between them, by index, with no model names in it (a
preview draws boxes and lines, never text).
"""

from __future__ import annotations

from typing import Any

#: Bigger models get no preview: a thumbnail of hundreds of boxes shows nothing.
PREVIEW_MAX = 400


def sketch(model: dict[str, Any]) -> dict[str, Any] | None:
    """`{"kinds": [kind per component], "edges": [[from, to, protocol], ...]}` for the top level of
    `model` (subsystems are parts of their component), sorted and deduplicated so the page is
    the same for the same model; None when there is nothing to draw or too much."""
    nodes = [n for n in model.get("nodes") or [] if isinstance(n, dict) and not n.get("parent") and n.get("id") is not None]
    if not nodes or len(nodes) > PREVIEW_MAX:
        return None
    nodes.sort(key=lambda n: str(n["id"]))
    index = {str(n["id"]): i for i, n in enumerate(nodes)}
    edges = set()
    for e in model.get("edges") or []:
        if not isinstance(e, dict):
            continue
        s, t = index.get(str(e.get("source"))), index.get(str(e.get("target")))
        if s is None or t is None or s == t:
            continue
        edges.add((s, t, str(e.get("protocol") or "")))
    return {"kinds": [str(n.get("kind") or "") for n in nodes], "edges": [list(x) for x in sorted(edges)]}
