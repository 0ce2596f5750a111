"""The ``graphml`` export: the graph with scalar attributes only, for yEd, Gephi or networkx.

GraphML cannot hold the records the graph carries (ports, evidence tuples), so they are flattened:
evidence becomes ``repo:path:line`` lines joined by newlines, ports and endpoints become counts and
a ``METHOD path`` list, component/edge attribute dicts become ``attr.<key>`` columns.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx


def _evidence(items: object) -> str:
    return "\n".join(str(e) for e in sorted(set(items or ())))  # type: ignore[call-overload]


def to_scalar_graph(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy of `g` whose every attribute is a str, int or bool (what write_graphml accepts)."""
    out = nx.MultiDiGraph(name=str(g.graph.get("name", "")),
                          repositories=", ".join(f"{r['name']}@{r.get('commit') or 'working tree'}"
                                                 for r in g.graph.get("repositories", [])))
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        endpoints = sorted(f"{ep.method} {ep.path}" for p in d.get("ports", []) for ep in p.endpoints)
        attrs: dict[str, object] = {
            "label": str(d.get("name") or cid), "kind": str(d.get("kind") or ""),
            "repository": str(d.get("repository") or ""), "language": str(d.get("language") or ""),
            "ports": ", ".join(sorted(p.protocol for p in d.get("ports", []))),
            "endpoint_count": len(endpoints), "endpoints": "\n".join(endpoints),
            "evidence": _evidence(d.get("evidence")),
        }
        for k, v in sorted((d.get("attributes") or {}).items()):
            attrs[f"attr.{k}"] = str(v)
        out.add_node(cid, **attrs)
    for u, v, key, d in sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2])):
        attrs = {"id": str(d.get("id", f"{u}->{v}:{key}")), "kind": str(d.get("kind") or ""),
                 "protocol": str(d.get("protocol") or key), "evidence": _evidence(d.get("evidence"))}
        for k, val in sorted((d.get("attributes") or {}).items()):
            attrs[f"attr.{k}"] = str(val)
        out.add_edge(u, v, key=str(key), **attrs)
    return out


def write(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    path = out_dir / "model.graphml"
    nx.write_graphml(to_scalar_graph(g), path, encoding="utf-8", prettyprint=True)
    return [path]
