"""Rebuild the networkx graph from a ``model.json`` so every exporter can work from a model folder.

The file is read by the one model.json reader (:mod:`repomodeler.model.json_io`) into the canonical
model, and the graph made from that (:func:`repomodeler.model.to_networkx`), so
``render_json(graph_from_model_json(d))`` reproduces the file byte for byte and the SysML text is the
same as the one ``analyze`` wrote.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from repomodeler.model import from_dict, read_file, to_networkx
from repomodeler.records import RepomodelerError


def graph_from_model_json(data: dict[str, object]) -> nx.MultiDiGraph:
    """The graph ``analyze`` built, from the parsed ``model.json``."""
    return to_networkx(from_dict(data))


def load_model_dir(model_dir: Path) -> nx.MultiDiGraph:
    """Read ``MODEL_DIR/model.json`` (written by analyze) into the graph."""
    path = model_dir / "model.json"
    if not path.is_file():
        raise RepomodelerError(f"error: '{model_dir}' holds no model.json; run 'repomodeler analyze' first "
                               "or name the folder it wrote")
    return to_networkx(read_file(path))
