"""The ``mermaid`` and ``plantuml`` exports: one diagram of components grouped by repository.

Both draw the same picture: a box per component (shaped by kind), one group per repository
(components without a repository, such as external systems, stay outside), and an arrow per
connection labelled with its protocol (and topics for messaging).  Node ids are derived from
component ids (``c_`` + safe characters, de-duplicated) so they never collide with a keyword.
"""

from __future__ import annotations

import re
from pathlib import Path

import networkx as nx

from repomodeler.emit.names import without_controls
from repomodeler.emit.sysml import message_topics


def diagram_ids(g: nx.MultiDiGraph) -> dict[str, str]:
    """Component id -> diagram node id (letters, digits and underscores only), unique and stable."""
    ids: dict[str, str] = {}
    used: set[str] = set()
    for cid in sorted(g.nodes):
        base = "c_" + re.sub(r"[^A-Za-z0-9_]", "_", cid)
        name, i = base, 2
        while name in used:
            name, i = f"{base}_{i}", i + 1
        used.add(name)
        ids[cid] = name
    return ids


def _groups(g: nx.MultiDiGraph) -> tuple[list[tuple[str, list[str]]], list[str]]:
    repos = sorted({str(g.nodes[c]["repository"]) for c in g.nodes if g.nodes[c].get("repository")})
    grouped = [(r, sorted(c for c in g.nodes if g.nodes[c].get("repository") == r)) for r in repos]
    loose = sorted(c for c in g.nodes if not g.nodes[c].get("repository"))
    return grouped, loose


def edge_label(d: dict[str, object]) -> str:
    pub, sub = message_topics(d)
    topics = sorted(set(pub) | set(sub))
    return str(d["protocol"]) + (": " + ", ".join(topics) if topics else "")


def _edges(g: nx.MultiDiGraph) -> list[tuple[str, str, str, dict]]:
    return sorted(g.edges(keys=True, data=True), key=lambda e: (e[0], e[1], e[2]))


# ---------------------------------------------------------------- mermaid
_MERMAID_SHAPE = {"database": ("[(", ")]"), "cache": ("[(", ")]"), "broker": ("[[", "]]"), "external": ("{{", "}}"),
                  "user": ("([", "])"), "library": ("[/", "/]"), "gateway": ("[/", "\\]"),
                  "webapp": ("[", "]")}


def _mermaid_text(text: str) -> str:
    text = without_controls(text)
    return text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def render_mermaid(g: nx.MultiDiGraph) -> str:
    ids = diagram_ids(g)
    lines = ["flowchart LR"]

    def node(cid: str, indent: str) -> str:
        d = g.nodes[cid]
        left, right = _MERMAID_SHAPE.get(str(d["kind"]), ("[", "]"))
        label = _mermaid_text(f"{d.get('name') or cid}") + "<br/><i>" + _mermaid_text(str(d["kind"])) + "</i>"
        return f'{indent}{ids[cid]}{left}"{label}"{right}'

    grouped, loose = _groups(g)
    for i, (repo, members) in enumerate(grouped):
        lines.append(f'  subgraph repo_{i}["{_mermaid_text(repo)}"]')
        lines.extend(node(c, "    ") for c in members)
        lines.append("  end")
    lines.extend(node(c, "  ") for c in loose)
    for u, v, _k, d in _edges(g):
        arrow = "-.->" if d["protocol"] == "library" else "-->"
        lines.append(f'  {ids[u]} {arrow}|"{_mermaid_text(edge_label(d))}"| {ids[v]}')
    return "\n".join(lines) + "\n"


def write_mermaid(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    path = out_dir / "model.mmd"
    path.write_bytes(render_mermaid(g).encode("utf-8"))
    return [path]


# ---------------------------------------------------------------- plantuml
_PLANTUML_ELEMENT = {"database": "database", "cache": "database", "broker": "queue", "external": "cloud",
                     "user": "actor", "library": "artifact", "gateway": "boundary",
                     "webapp": "component"}


def _puml_text(text: str) -> str:
    text = without_controls(text)
    return text.replace('"', "'").replace("\n", " ")


def render_plantuml(g: nx.MultiDiGraph) -> str:
    ids = diagram_ids(g)
    lines = ["@startuml", f"title {_puml_text(str(g.graph.get('name', 'system')))}", "left to right direction"]

    def node(cid: str, indent: str) -> str:
        d = g.nodes[cid]
        element = _PLANTUML_ELEMENT.get(str(d["kind"]), "component")
        return f'{indent}{element} "{_puml_text(str(d.get("name") or cid))}" as {ids[cid]}'

    grouped, loose = _groups(g)
    for repo, members in grouped:
        lines.append(f'package "{_puml_text(repo)}" {{')
        lines.extend(node(c, "  ") for c in members)
        lines.append("}")
    lines.extend(node(c, "") for c in loose)
    for u, v, _k, d in _edges(g):
        arrow = "..>" if d["protocol"] == "library" else "-->"
        lines.append(f"{ids[u]} {arrow} {ids[v]} : {_puml_text(edge_label(d))}")
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def write_plantuml(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    path = out_dir / "model.puml"
    path.write_bytes(render_plantuml(g).encode("utf-8"))
    return [path]
