"""Views of a parsed model.json for tests that check the top level only."""

from __future__ import annotations


def top_level(model: dict) -> dict:
    """The model without the parts inside components (nodes with a ``parent``) and their links."""
    nested = {n["id"] for n in model["nodes"] if n.get("parent")}
    if not nested:
        return model
    return {**model, "nodes": [n for n in model["nodes"] if n["id"] not in nested],
            "edges": [e for e in model["edges"] if e["source"] not in nested and e["target"] not in nested]}
