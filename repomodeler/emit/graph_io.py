"""Rebuild the networkx graph from a ``model.json`` so every exporter can work from a model folder.

``model.json`` (emit/model_json.py) is a faithful dump of the graph: nodes with their ports and
endpoints, edges keyed by protocol, and the graph-level name, repositories, warnings, unresolved
references and stats.  :func:`graph_from_model_json` turns it back into the same typed records
(``Evidence``, ``Port``, ``Endpoint``, ``MessageType``, ``Warning_``) so ``render_json(graph_from_model_json(d))``
reproduces the file byte for byte and the SysML text is the same as the one ``analyze`` wrote.
Keys this module does not know (added by a newer resolver) are carried through unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx

from repomodeler.records import Endpoint, Evidence, MessageType, Port, RepomodelerError, Warning_

_NODE_KEYS = {"id", "evidence", "ports", "attributes"}
_EDGE_KEYS = {"source", "target", "evidence", "attributes"}


def _evidence(items: object) -> tuple[Evidence, ...]:
    return tuple(sorted(Evidence(str(e["repository"]), str(e["path"]), int(e["line"])) for e in items or []))


def _port(data: dict[str, object]) -> Port:
    return Port(
        name=str(data["name"]), protocol=str(data["protocol"]), direction=str(data.get("direction", "provided")),
        endpoints=[Endpoint(method=str(ep["method"]), path=str(ep["path"]), evidence=list(_evidence(ep.get("evidence"))),
                            **{k: str(ep[k]) for k in ("package", "request", "response", "stream") if ep.get(k)})
                   for ep in data.get("endpoints", [])],  # type: ignore[union-attr]
        evidence=list(_evidence(data.get("evidence"))),
    )


def graph_from_model_json(data: dict[str, object]) -> nx.MultiDiGraph:
    """The graph ``analyze`` built, from the parsed ``model.json``."""
    if not isinstance(data, dict) or "nodes" not in data or "edges" not in data:
        raise RepomodelerError("error: not a repomodeler model.json (no 'nodes' and 'edges')")
    g = nx.MultiDiGraph()
    g.graph.update(
        name=data.get("name", "system"),
        repositories=[dict(r) for r in data.get("repositories", [])],  # type: ignore[union-attr]
        warnings=sorted({Warning_(str(w["repository"]), str(w["path"]), int(w["line"]), str(w["message"]))
                         for w in data.get("warnings", [])}),  # type: ignore[union-attr]
        unresolved=[{"component": u["component"], "value": u["value"],
                     "evidence": _evidence([u["evidence"]])[0]} for u in data.get("unresolved", [])],  # type: ignore[union-attr]
        stats=dict(data.get("stats", {})),  # type: ignore[arg-type]
        messages=sorted((MessageType.from_json(m) for m in data.get("messages", []) or []  # type: ignore[union-attr]
                         if isinstance(m, dict) and m.get("name")), key=lambda m: m.name),
    )
    for n in data["nodes"]:  # type: ignore[union-attr]
        extra = {k: v for k, v in n.items() if k not in _NODE_KEYS}
        extra.setdefault("language", None)
        extra.setdefault("repository", None)
        g.add_node(n["id"], **extra, evidence=_evidence(n.get("evidence")),
                   attributes=dict(n.get("attributes", {})),
                   ports=sorted((_port(p) for p in n.get("ports", [])), key=lambda p: p.name))
    for e in data["edges"]:  # type: ignore[union-attr]
        for end in (e["source"], e["target"]):
            if end not in g:
                raise RepomodelerError(f"error: model.json edge {e.get('id')} names unknown component '{end}'")
        extra = {k: v for k, v in e.items() if k not in _EDGE_KEYS}
        g.add_edge(e["source"], e["target"], key=e["protocol"], **extra, evidence=_evidence(e.get("evidence")),
                   attributes=dict(e.get("attributes", {})))
    return g


def load_model_dir(model_dir: Path) -> nx.MultiDiGraph:
    """Read ``MODEL_DIR/model.json`` (written by analyze) into the graph."""
    path = model_dir / "model.json"
    if not path.is_file():
        raise RepomodelerError(f"error: '{model_dir}' holds no model.json; run 'repomodeler analyze' first "
                               "or name the folder it wrote")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RepomodelerError(f"error: cannot read '{path}': {exc}") from exc
    except RecursionError:
        raise RepomodelerError(f"error: cannot read '{path}': the JSON is nested too deeply") from None
    return graph_from_model_json(data)
