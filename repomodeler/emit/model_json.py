"""model.json: the versioned JSON export of the graph (schema ``repomodeler/model@1``)."""

from __future__ import annotations

import json

import networkx as nx

SCHEMA = "repomodeler/model@1"


def graph_to_dict(g: nx.MultiDiGraph) -> dict[str, object]:
    nodes = []
    endpoints = 0
    for cid in sorted(g.nodes):
        d = g.nodes[cid]
        ports = [p.to_json() for p in d["ports"]]
        endpoints += sum(len(p["endpoints"]) for p in ports)
        nodes.append({
            "id": cid, "name": d["name"], "kind": d["kind"], "repository": d["repository"],
            "language": d["language"], **({"parent": d["parent"]} if d.get("parent") else {}),
            "evidence": [e.to_json() for e in d["evidence"]], "attributes": dict(d["attributes"]), "ports": ports,
            **({"rules": list(d["rules"])} if d.get("rules") else {}),
        })
    edges = []
    for u, v, key, d in sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2])):
        edges.append({
            "id": d["id"], "source": u, "target": v, "kind": d["kind"], "protocol": d["protocol"],
            "evidence": [e.to_json() for e in d["evidence"]], "attributes": dict(d["attributes"]),
            **({"rules": list(d["rules"])} if d.get("rules") else {}),
        })
    stats = dict(g.graph["stats"])
    # Components and connections count the top level; parts inside components are counted apart.
    nested = {n["id"] for n in nodes if n.get("parent")}
    stats.update(components=len(nodes) - len(nested),
                 connections=sum(1 for e in edges if e["source"] not in nested and e["target"] not in nested),
                 endpoints=endpoints)
    databases = {n["id"] for n in nodes if n.get("parent") and n["kind"] == "database"}
    if nested - databases:
        stats.update(subsystems=len(nested - databases),
                     subsystem_links=sum(1 for e in edges if e["source"] in nested or e["target"] in nested)
                     - sum(1 for e in edges if e["target"] in databases))
    if databases:  # logical databases inside their servers, and the links that name them
        stats.update(databases=len(databases), database_links=sum(1 for e in edges if e["target"] in databases))
    return {
        "schema": SCHEMA,
        "name": g.graph["name"],
        "repositories": g.graph["repositories"],
        "nodes": nodes,
        "edges": edges,
        **({"messages": [m.to_json() for m in g.graph["messages"]]} if g.graph.get("messages") else {}),
        "unresolved": [{"component": u["component"], "value": u["value"], "evidence": u["evidence"].to_json()}
                       for u in g.graph["unresolved"]],
        "warnings": [w.to_json() for w in g.graph["warnings"]],
        "stats": stats,
        **({"rules": rule_catalogue(nodes, edges)} if any(x.get("rules") for x in [*nodes, *edges]) else {}),
    }


def rule_catalogue(nodes: list[dict], edges: list[dict]) -> list[dict[str, str]]:
    """The id and message of every rule the model's elements name, so a reader of model.json alone can
    say what each rule concluded (rules a newer resolver named and this one does not know keep their id)."""
    from repomodeler.rules import RULES

    messages = {r.id: r.message for r in RULES}
    used = sorted({r for x in [*nodes, *edges] for r in x.get("rules", ())})
    return [{"id": r, "message": messages.get(r, "")} for r in used]


def render_json(g: nx.MultiDiGraph) -> str:
    return json.dumps(graph_to_dict(g), indent=2, sort_keys=False, ensure_ascii=False) + "\n"
