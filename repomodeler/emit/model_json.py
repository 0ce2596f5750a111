"""model.json of a graph: the graph's model (:func:`repomodeler.model.from_networkx`) written by the one
model.json writer, :func:`repomodeler.model.to_json`."""

from __future__ import annotations

import networkx as nx

from repomodeler.model import SCHEMA, from_networkx, to_dict, to_json

__all__ = ["SCHEMA", "graph_to_dict", "render_json"]


def graph_to_dict(g: nx.MultiDiGraph) -> dict[str, object]:
    return to_dict(from_networkx(g))


def render_json(g: nx.MultiDiGraph) -> str:
    return to_json(from_networkx(g))
