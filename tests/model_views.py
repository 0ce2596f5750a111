"""Views of a parsed model.json for tests that check the top level only."""

from __future__ import annotations

from repomodeler.model import from_dict


def top_level(model: dict) -> dict:
    """The model without the parts inside components and their links (as repomodeler.model decides)."""
    canonical = from_dict(model)
    if not canonical.nested():
        return model
    top = {c.id for c in canonical.top_level()}
    links = {c.key for c in canonical.top_level_connections()}
    return {**model, "nodes": [n for n in model["nodes"] if n["id"] in top],
            "edges": [e for e in model["edges"] if (e["source"], e["target"], e["protocol"]) in links]}
