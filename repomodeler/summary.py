"""The one-screen summary printed after `analyze`.

It reads the canonical model (:mod:`repomodeler.model`): a rerun that kept the published model
prints it from that file without building the graph again."""

from __future__ import annotations

from collections import Counter

import click

from repomodeler.model import Model, from_networkx
from repomodeler.model.counts import count
from repomodeler.model.nesting import derived_stats, nested_by_kind
from repomodeler.pipeline import AnalysisResult


def _model(result: AnalysisResult) -> Model:
    return result.model if result.model is not None else from_networkx(result.graph)


def summary_lines(result: AnalysisResult) -> list[str]:
    model = _model(result)
    lines = [f"system {result.name}  ->  {result.out}"]
    lines.append("repositories:")
    for r in model.repositories:
        lines.append(f"  {r.name:<24} {(r.commit or 'working tree (not git)')[:12]}")
    # Parts inside components (subsystems) are summed up, not listed.
    nodes = model.top_level()
    edges = model.top_level_connections()
    figures = count(model)  # the one counting rule (repomodeler/model/counts.py)
    kinds = Counter(n.kind for n in nodes)
    lines.append(f"components: {figures.components}  (" + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
    for n in nodes:
        extra = n.language or n.attributes.get("technology") or ""
        lines.append(f"  {n.kind:<9} {n.id:<28} {extra}")
    protos = Counter(e.protocol for e in edges)
    lines.append(f"connections: {figures.connections}  (" + ", ".join(f"{k} {v}" for k, v in sorted(protos.items())) + ")")
    for e in edges:
        lines.append(f"  {e.source} -> {e.target}  [{e.protocol}]")
    lines.append(f"endpoints: {figures.endpoints}")
    subs, dbs = nested_by_kind(model.components.values())
    if subs:
        owners = {n.parent for n in subs}
        lines.append(f"subsystems: {figures.subsystems} in {len(owners)} components, "
                     f"{figures.subsystem_links} links between them and out of them")
    if dbs:
        servers = {n.parent for n in dbs}
        lines.append(f"databases: {len(dbs)} on {len(servers)} servers: "
                     + ", ".join(sorted(f"{n.parent}/{n.name}" for n in dbs)))
    stats = derived_stats(model)
    skipped = dict(stats.get("skipped", {})) or result.skipped  # type: ignore[call-overload]
    parsed = sum(r.parsed_files for r in result.extracts)
    cached = sum(r.cached_files for r in result.extracts)
    lines.append(f"files: {stats['files']} analysed, {parsed} parsed, {cached} from cache; skipped: "
                 + (", ".join(f"{k} {v}" for k, v in skipped.items()) or "none"))
    if model.unresolved:
        lines.append(f"unresolved references: {len(model.unresolved)}")
        for u in model.unresolved[:5]:
            lines.append(f"  {u.component}: {u.value[:60]}  ({u.evidence})")
    lines.append(f"warnings: {len(model.warnings)}")
    for w in model.warnings[:5]:
        lines.append(f"  {w.repository}:{w.path}:{w.line}: {w.message}")
    for f in result.failures:
        lines.append(f"failed: {f}")
    return lines


def print_summary(result: AnalysisResult) -> None:
    for line in summary_lines(result):
        click.echo(line)
