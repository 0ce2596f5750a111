"""Export formats: the same graph written for other tools (MBSE tools, graph editors, markdown).

Each format is a small module with a ``write(graph, out_dir) -> list[Path]`` function; they all render
from the networkx graph (never from each other's files), sort everything and write no timestamps,
so identical input gives byte-identical files.  ``analyze`` and ``repomodeler export`` both call
:func:`write_exports`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import networkx as nx

from repomodeler.model.graph import top_level

from repomodeler.emit.exports import diagrams, graphml, kpar, textual
from repomodeler.records import RepomodelerError

Writer = Callable[[nx.MultiDiGraph, Path], list[Path]]

# format name -> (writer, what it writes); the order is the order files are written and listed
FORMATS: dict[str, tuple[Writer, str]] = {
    "sysml": (textual.write_sysml, "model.sysml and RepoModeler.sysml, the system and the library package it imports"),
    "kpar": (kpar.write, "<system>.kpar and RepoModeler.kpar, KerML model interchange projects (zip)"),
    "json": (textual.write_json, "model.json, the repomodeler/model@1 JSON"),
    "graphml": (graphml.write, "model.graphml for yEd, Gephi, networkx"),
    "mermaid": (diagrams.write_mermaid, "model.mmd, a Mermaid flowchart (renders on GitHub)"),
    "plantuml": (diagrams.write_plantuml, "model.puml, a PlantUML component diagram"),
}

NESTED_FORMATS = {"json", "sysml", "kpar"}  # formats that hold the parts inside components


def parse_formats(values: list[str] | tuple[str, ...]) -> list[str]:
    """Formats from repeated and/or comma-separated options, in canonical order; 'all' means every one."""
    wanted: set[str] = set()
    for value in values:
        for name in value.split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name == "all":
                wanted.update(FORMATS)
            elif name in FORMATS:
                wanted.add(name)
            else:
                raise RepomodelerError(f"error: unknown export format '{name}'; choose from {', '.join(FORMATS)} or all")
    return [f for f in FORMATS if f in wanted]


def write_exports(graph: nx.MultiDiGraph, out_dir: Path, formats: list[str] | tuple[str, ...],
                  bundle: bool = False) -> list[Path]:
    """Write the requested formats into `out_dir` (created if needed); return the files written, in order.
    With ``bundle`` the kpar format is one archive holding the library too (:func:`kpar.write_bundle`)."""
    names = parse_formats(list(formats))
    if bundle and "kpar" not in names:
        raise RepomodelerError("error: --bundle applies to the kpar format; add --format kpar")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in names:
        writer = kpar.write_bundle if bundle and name == "kpar" else FORMATS[name][0]
        # parts inside components: model.json and the SysML (nested part usages); the diagrams show components
        written.extend(writer(graph if name in NESTED_FORMATS else top_level(graph), out_dir))
    return written
