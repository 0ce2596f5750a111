"""Helm charts read as the manifests they render to: the repository-level step after per-file extraction.

Per-file readers see one file at a time, and a chart's template needs several at once (its Chart.yaml,
values.yaml, the defines of templates/_helpers.tpl, unpacked subcharts).  So after the per-file
outcomes, every chart of a repository is rendered (:mod:`repomodeler.extract.helm_render`) and each
rendered template is read by the Kubernetes reader, every fact pointing at the template line that
produced it.  Real runs (:func:`repomodeler.extract.extract_repository`) and in-memory extraction
call the same :func:`helm_chart_facts`, so fixture cases and analyses agree.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Iterator, Mapping

from repomodeler.extract.helm_render import RenderedTemplate, chart_dependencies, render_chart
from repomodeler.records import Fact, Warning_

RULE = "read_helm_chart"  # the rule recorded on the facts of rendered templates
CHART_FILE = "Chart.yaml"


def _folder(path: str) -> str:
    """The folder of `path` as a prefix: ``""`` or ``"deploy/chart/"``."""
    return path[:path.rfind("/") + 1]


def _prefixes(path: str) -> Iterator[str]:
    """Every folder `path` lies in, as a prefix, the repository's root (``""``) first."""
    yield ""
    for i, ch in enumerate(path):
        if ch == "/":
            yield path[:i + 1]


def chart_roots(paths: Iterable[str]) -> list[str]:
    """Folders (as prefixes) of the charts to render: a Chart.yaml whose folder is not an unpacked
    subchart (``<chart>/charts/<name>/``) of another chart, and which has templates or subcharts."""
    paths = sorted(set(paths))
    folders = {_folder(p) for p in paths if p.rsplit("/", 1)[-1] == CHART_FILE}
    if not folders:
        return []
    occupied = {prefix for p in paths for prefix in _prefixes(p)}  # every folder holding a file
    roots = []
    for folder in sorted(folders):
        parts = folder.rstrip("/").split("/")
        parent = "/".join(parts[:-2]) + "/" if len(parts) > 2 else ""
        if len(parts) >= 2 and parts[-2] == "charts" and parent in folders:
            continue  # rendered as part of its parent, with the parent's values
        if folder + "templates/" in occupied or folder + "charts/" in occupied:
            roots.append(folder)
    return roots


def _member(relative: str) -> bool:
    """Is this file (relative to a chart folder) one rendering needs: Chart.yaml, values.yaml,
    requirements.yaml or a template (.yaml, .yml, .tpl), of the chart or of an unpacked subchart?"""
    parts = relative.split("/")
    while len(parts) > 2 and parts[0] == "charts":
        parts = parts[2:]
    if parts[0] == "templates":
        return len(parts) > 1 and parts[-1].endswith((".yaml", ".yml", ".tpl"))
    return len(parts) == 1 and parts[0] in (CHART_FILE, "values.yaml", "requirements.yaml")


def _chart_files(root: str, paths: Iterable[str]) -> list[str]:
    """The paths of the chart at `root` that rendering it needs."""
    return sorted(p for p in paths if p.startswith(root) and _member(p[len(root):]))


def chart_inputs(paths: Iterable[str]) -> list[str]:
    """The files the chart step reads, of the listed `paths` (none for a repository without charts)."""
    paths = sorted(set(paths))
    roots = set(chart_roots(paths))
    return [p for p in paths if any(r in roots and _member(p[len(r):]) for r in _prefixes(p))]


def helm_chart_facts(repository: str, files: Mapping[str, str]) -> tuple[list[Fact], list[Warning_]]:
    """Facts of every chart among `files` ({repository path: text}; files of no chart are ignored):
    each chart rendered, each rendered template read as Kubernetes YAML.  Never raises."""
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    for root in chart_roots(files):
        chart_files = {p[len(root):]: files[p] for p in _chart_files(root, files)}
        result = render_chart(chart_files)
        for dep in chart_dependencies(chart_files):
            facts.append(Fact(kind="helm.dependency", repository=repository, path=root + CHART_FILE,
                              line=max(dep.line, 1), language="config", rule=RULE,
                              attrs=tuple(sorted({"name": dep.name, "key": dep.key, "release": dep.release}.items()))))
        for w in result.warnings:
            warnings.append(Warning_(repository, root + w.path if w.path else root + CHART_FILE, w.line, w.message))
        for template in result.templates:
            fs, ws = _read_rendered(repository, root + template.path, template)
            facts.extend(fs)
            warnings.extend(ws)
    return sorted(set(facts), key=Fact.order), sorted(set(warnings))


def _read_rendered(repository: str, path: str, template: RenderedTemplate) -> tuple[list[Fact], list[Warning_]]:
    """The Kubernetes facts of one rendered template, their lines mapped back to the template's."""
    from repomodeler.extract.readers.kubernetes import read_kubernetes

    text = template.text
    if not text.strip():
        return [], []  # switched off by its values (an ingress with ingress.enabled false)
    try:
        facts = read_kubernetes(repository, path, text)
    except RecursionError:
        return [], [Warning_(repository, path, 0, "rendered Helm template nested too deeply; skipped")]
    except Exception as exc:  # YAML the values render badly, a reader's surprise: this template only
        mark = getattr(exc, "problem_mark", None)
        line = template.template_line(mark.line + 1) if mark is not None else 0
        detail = (str(getattr(exc, "problem", None) or exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        return [], [Warning_(repository, path, line, f"rendered Helm template is not valid YAML ({detail}); skipped")]
    return [replace(f, line=template.template_line(f.line), rule=RULE) for f in facts], []
