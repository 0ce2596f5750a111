"""The audit: what a staged model must pass before it may replace the published one.

Kept apart from the pipeline so the publish rule reads in one place: nothing reaches ``--out``
unless every edge end exists, every evidence location exists at the pinned commit, the number of
components did not collapse versus the model it replaces, and (unless ``--no-validate``) the SysML
passes the strict check. :mod:`repomodeler.publish` calls nothing here; the pipeline runs
:func:`audit` on the staging folder while it holds the output lock, so the "previous model" it
compares with is the one it will replace.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from repomodeler.extract.cache import FactCache, default_cache_path
from repomodeler.records import ExtractResult, RepomodelerError
from repomodeler.validate import SysmlEngine

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.pipeline import AnalyzeOptions


def audit(graph: nx.MultiDiGraph, extracts: list[ExtractResult], staging: Path, out: Path,
          options: "AnalyzeOptions", engine: SysmlEngine | None) -> None:
    """Check a staged model before it may replace the published one; raise with the reason if not."""
    check_graph(graph, extracts)
    check_no_collapse(graph, out, options)
    if options.validate:
        check_sysml(staging, options, engine)


def check_graph(graph: nx.MultiDiGraph, extracts: list[ExtractResult]) -> None:
    """Every edge end exists and every element has evidence at a real line of the pinned commit."""
    repo_names = {r.repository.name for r in extracts}
    lines = {(r.repository.name, p): n for r in extracts for p, n in r.line_counts.items()}
    for u, v in graph.edges():
        if u not in graph.nodes or v not in graph.nodes:
            raise RepomodelerError(f"error: audit failed: connection {u} -> {v} has a missing end; nothing was published")

    def check(ev, what: str) -> None:  # type: ignore[no-untyped-def]
        if ev.repository not in repo_names or (ev.repository, ev.path) not in lines or not (
                1 <= ev.line <= max(lines[(ev.repository, ev.path)], 1)):
            raise RepomodelerError(f"error: audit failed: evidence {ev} of {what} does not exist at the pinned "
                                   "commit; nothing was published (please report this bug)")

    for n, d in graph.nodes(data=True):
        if not d["evidence"]:
            raise RepomodelerError(f"error: audit failed: component {n} has no evidence; nothing was published")
        for ev in d["evidence"]:
            check(ev, f"component {n}")
        for port in d["ports"]:
            for ep in port.endpoints:
                for ev in ep.evidence:
                    check(ev, f"endpoint {ep.method} {ep.path} of {n}")
    for u, v, d in graph.edges(data=True):
        if not d["evidence"]:
            raise RepomodelerError(f"error: audit failed: connection {d['id']} has no evidence; nothing was published")
        for ev in d["evidence"]:
            check(ev, f"connection {d['id']}")


def check_no_collapse(graph: nx.MultiDiGraph, out: Path, options: "AnalyzeOptions") -> None:
    """Refuse a model with far fewer components than the one it replaces (unless --accept-drop)."""
    previous = out / "model.json"
    if not previous.exists() or options.accept_drop:
        return
    from repomodeler.model import read_file
    from repomodeler.model.graph import top_level_ids

    try:  # components are the top level: the parts inside them do not count
        before = len(read_file(previous).top_level())
    except (RepomodelerError, RecursionError):
        before = 0
    now = len(top_level_ids(graph))
    if before >= 4 and now < before * options.drop_threshold:
        raise RepomodelerError(
            f"error: audit failed: components dropped from {before} to {now} since the last run of this system; "
            "the previous model was kept (pass --accept-drop if this is intended)")


def check_sysml(staging: Path, options: "AnalyzeOptions", engine: SysmlEngine | None) -> None:
    """The strict SysML v2 check of the staged model.sysml with the RepoModeler library beside it
    (skipped when this structure passed before)."""
    from repomodeler.validate import structure_digest

    files = [staging / name for name in ("RepoModeler.sysml", "model.sysml") if (staging / name).is_file()]
    digest = structure_digest("\n".join(f.read_text(encoding="utf-8") for f in files))
    cache = FactCache(default_cache_path()) if options.use_cache else None
    try:
        if cache is not None and cache.is_validated(digest):
            return  # a model of this exact structure passed the check before
        own = engine is None
        engine = engine or SysmlEngine.start()
        try:
            diags = [d for d in engine.validate(files) if d.severity == "error"]
        finally:
            if own:
                engine.close()
        if diags:
            raise RepomodelerError(
                f"error: the emitted SysML failed the check ({diags[0].format()}); the previous model was kept"
            )
        if cache is not None:
            cache.mark_validated(digest)
    finally:
        if cache is not None:
            cache.close()
