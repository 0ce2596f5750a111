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

from repomodeler.model import Model, ModelFormatError, from_dict

#: Bigger models get no preview: a thumbnail of hundreds of boxes shows nothing.
PREVIEW_MAX = 400


def sketch(model: Model | dict[str, Any]) -> dict[str, Any] | None:
    """`{"kinds": [kind per component], "edges": [[from, to, protocol], ...]}` for the top level of
    `model` (subsystems are parts of their component), sorted and deduplicated so the page is
    the same for the same model; None when there is nothing to draw or too much (or model.json
    content that is not a model)."""
    if not isinstance(model, Model):
        try:
            model = from_dict(model)
        except ModelFormatError:
            return None
    nodes = model.top_level()
    if not nodes or len(nodes) > PREVIEW_MAX:
        return None
    index = {n.id: i for i, n in enumerate(nodes)}
    edges = {(index[e.source], index[e.target], e.protocol) for e in model.top_level_connections()
             if e.source != e.target}
    return {"kinds": [n.kind for n in nodes], "edges": [list(x) for x in sorted(edges)]}
