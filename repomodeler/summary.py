"""The one-screen summary printed after `analyze`."""

from __future__ import annotations

from collections import Counter

import click

from repomodeler.graph.network import top_level
from repomodeler.pipeline import AnalysisResult


def summary_lines(result: AnalysisResult) -> list[str]:
    g = result.graph
    lines = [f"system {result.name}  ->  {result.out}"]
    lines.append("repositories:")
    for r in g.graph["repositories"]:
        lines.append(f"  {r['name']:<24} {(r['commit'] or 'working tree (not git)')[:12]}")
    nested = {n for n in g.nodes if g.nodes[n].get("parent")}
    parts = sum(1 for _u, v, _d in g.edges(data=True) if v in nested)
    g = top_level(g)  # parts inside components are summed up, not listed
    kinds = Counter(g.nodes[n]["kind"] for n in g.nodes)
    lines.append(f"components: {g.number_of_nodes()}  (" + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
    for n in sorted(g.nodes):
        d = g.nodes[n]
        extra = d["language"] or d["attributes"].get("technology") or ""
        lines.append(f"  {d['kind']:<9} {n:<28} {extra}")
    protos = Counter(d["protocol"] for _u, _v, d in g.edges(data=True))
    lines.append(f"connections: {g.number_of_edges()}  (" + ", ".join(f"{k} {v}" for k, v in sorted(protos.items())) + ")")
    for u, v, d in sorted(g.edges(data=True), key=lambda e: (e[0], e[1], e[2]["protocol"])):
        lines.append(f"  {u} -> {v}  [{d['protocol']}]")
    endpoints = sum(len(p.endpoints) for n in g.nodes for p in g.nodes[n]["ports"])
    lines.append(f"endpoints: {endpoints}")
    if nested:
        owners = {result.graph.nodes[n]["parent"] for n in nested}
        lines.append(f"subsystems: {len(nested)} in {len(owners)} components, {parts} links between them")
    skipped = dict(g.graph["stats"].get("skipped", {})) or result.skipped
    stats = g.graph["stats"]
    parsed = sum(r.parsed_files for r in result.extracts)
    cached = sum(r.cached_files for r in result.extracts)
    lines.append(f"files: {stats['files']} analysed, {parsed} parsed, {cached} from cache; skipped: "
                 + (", ".join(f"{k} {v}" for k, v in skipped.items()) or "none"))
    if g.graph["unresolved"]:
        lines.append(f"unresolved references: {len(g.graph['unresolved'])}")
        for u in g.graph["unresolved"][:5]:
            lines.append(f"  {u['component']}: {u['value'][:60]}  ({u['evidence']})")
    warnings = g.graph["warnings"]
    lines.append(f"warnings: {len(warnings)}")
    for w in warnings[:5]:
        lines.append(f"  {w.repository}:{w.path}:{w.line}: {w.message}")
    for f in result.failures:
        lines.append(f"failed: {f}")
    return lines


def print_summary(result: AnalysisResult) -> None:
    for line in summary_lines(result):
        click.echo(line)
