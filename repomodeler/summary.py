"""The one-screen summary printed after `analyze`.

It reads the model in its model.json form: a rerun that kept the published model prints it from
that file without building the graph again."""

from __future__ import annotations

from collections import Counter

import click

from repomodeler.pipeline import AnalysisResult


def _model(result: AnalysisResult) -> dict:
    if result.model is not None:
        return result.model
    from repomodeler.emit.model_json import graph_to_dict

    return graph_to_dict(result.graph)


def _where(ev: dict) -> str:
    return f"{ev['repository']}:{ev['path']}:{ev['line']}"


def summary_lines(result: AnalysisResult) -> list[str]:
    model = _model(result)
    lines = [f"system {result.name}  ->  {result.out}"]
    lines.append("repositories:")
    for r in model["repositories"]:
        lines.append(f"  {r['name']:<24} {(r['commit'] or 'working tree (not git)')[:12]}")
    # Parts inside components (subsystems) are summed up, not listed.
    nested = {n["id"]: n for n in model["nodes"] if n.get("parent")}
    nodes = [n for n in model["nodes"] if n["id"] not in nested]
    edges = [e for e in model["edges"] if e["source"] not in nested and e["target"] not in nested]
    kinds = Counter(n["kind"] for n in nodes)
    lines.append(f"components: {len(nodes)}  (" + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) + ")")
    for n in sorted(nodes, key=lambda n: n["id"]):
        extra = n["language"] or n["attributes"].get("technology") or ""
        lines.append(f"  {n['kind']:<9} {n['id']:<28} {extra}")
    protos = Counter(e["protocol"] for e in edges)
    lines.append(f"connections: {len(edges)}  (" + ", ".join(f"{k} {v}" for k, v in sorted(protos.items())) + ")")
    for e in sorted(edges, key=lambda e: (e["source"], e["target"], e["protocol"])):
        lines.append(f"  {e['source']} -> {e['target']}  [{e['protocol']}]")
    endpoints = sum(len(p["endpoints"]) for n in nodes for p in n["ports"])
    lines.append(f"endpoints: {endpoints}")
    subs = {k: n for k, n in nested.items() if n["kind"] != "database"}
    dbs = {k: n for k, n in nested.items() if n["kind"] == "database"}
    if subs:
        owners = {n["parent"] for n in subs.values()}
        links = sum(1 for e in model["edges"] if e["target"] in subs)
        lines.append(f"subsystems: {len(subs)} in {len(owners)} components, {links} links between them")
    if dbs:
        servers = {n["parent"] for n in dbs.values()}
        lines.append(f"databases: {len(dbs)} on {len(servers)} servers: "
                     + ", ".join(sorted(f"{n['parent']}/{n['name']}" for n in dbs.values())))
    stats = model["stats"]
    skipped = dict(stats.get("skipped", {})) or result.skipped
    parsed = sum(r.parsed_files for r in result.extracts)
    cached = sum(r.cached_files for r in result.extracts)
    lines.append(f"files: {stats['files']} analysed, {parsed} parsed, {cached} from cache; skipped: "
                 + (", ".join(f"{k} {v}" for k, v in skipped.items()) or "none"))
    if model["unresolved"]:
        lines.append(f"unresolved references: {len(model['unresolved'])}")
        for u in model["unresolved"][:5]:
            lines.append(f"  {u['component']}: {u['value'][:60]}  ({_where(u['evidence'])})")
    warnings = model["warnings"]
    lines.append(f"warnings: {len(warnings)}")
    for w in warnings[:5]:
        lines.append(f"  {w['repository']}:{w['path']}:{w['line']}: {w['message']}")
    for f in result.failures:
        lines.append(f"failed: {f}")
    return lines


def print_summary(result: AnalysisResult) -> None:
    for line in summary_lines(result):
        click.echo(line)
