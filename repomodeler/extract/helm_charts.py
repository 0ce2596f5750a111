"""Helm charts read as the manifests they render to: the repository-level step after per-file extraction.

Per-file readers see one file at a time, and a chart's template needs several at once (its Chart.yaml,
values.yaml, the defines of templates/_helpers.tpl, unpacked subcharts).  So after the per-file
outcomes, every chart of a repository is rendered (:mod:`repomodeler.extract.helm_render`) and each
rendered template is read by the Kubernetes reader, every fact pointing at the template line that
produced it.  Real runs (:func:`repomodeler.extract.extract_repository`) and in-memory extraction
call the same :func:`helm_chart_facts`, so fixture cases and analyses agree.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Iterable, Iterator, Mapping

from repomodeler.extract.helm_render import RenderedTemplate, chart_dependencies, render_chart
from repomodeler.paths import join_path, norm_path
from repomodeler.records import Fact, Warning_

RULE = "read_helm_chart"  # the rule recorded on the facts of rendered templates
CHART_FILE = "Chart.yaml"
# A chart folder named with its version (`deployment-chart_4-18-0`, `cronjob-chart-1.2.0`): the chart's name and version.
_VERSIONED_CHART = re.compile(r"^(.+?)[_-]v?(\d+[-._]\d+(?:[-._]\d+)?)$")


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
    # A folder of charts several of which are versions of one chart (`deployment-chart_4-18-0`, `deployment-chart_4-20-0`,
    # `reference-chart_3-1-0`): the catalog of charts a platform offers its users' applications, which it installs
    # for them, not a deployment of the system itself
    versions: dict[tuple[str, str], int] = {}
    for root in roots:
        m = _VERSIONED_CHART.match(root.rstrip("/").rsplit("/", 1)[-1])
        if m:
            key = (_folder(root.rstrip("/")), m.group(1))
            versions[key] = versions.get(key, 0) + 1
    catalogs = {parent for (parent, _name), n in versions.items() if n >= 2}
    return [r for r in roots if _folder(r.rstrip("/")) not in catalogs]


def _member(relative: str) -> bool:
    """Is this file (relative to a chart folder) one rendering needs: Chart.yaml, values.yaml,
    requirements.yaml, a template (.yaml, .yml, .tpl) or a text file of files/, of the chart or of an unpacked
    subchart?"""
    parts = relative.split("/")
    while len(parts) > 2 and parts[0] == "charts":
        parts = parts[2:]
    if parts[0] == "templates":
        return len(parts) > 1 and parts[-1].endswith((".yaml", ".yml", ".tpl"))
    if len(parts) > 1 and parts[0] == "files":
        # (the chart's own files its templates read with .Files.Get: a gateway's kong.yml put into a ConfigMap)
        return parts[-1].endswith(CHART_TEXT_FILES)
    return len(parts) == 1 and parts[0] in (CHART_FILE, "values.yaml", "requirements.yaml")


# Text files a chart keeps in files/ for its templates to read (.Files.Get, .Files.Glob).
CHART_TEXT_FILES = (".yaml", ".yml", ".conf", ".json", ".toml", ".properties", ".ini", ".xml", ".lua", ".sh", ".txt",
                    ".tpl", ".cfg")


def _chart_files(root: str, paths: Iterable[str]) -> list[str]:
    """The paths of the chart at `root` that rendering it needs."""
    return sorted(p for p in paths if p.startswith(root) and _member(p[len(root):]))


def chart_inputs(paths: Iterable[str]) -> list[str]:
    """The files the chart step reads, of the listed `paths` (none for a repository without charts)."""
    paths = sorted(set(paths))
    roots = set(chart_roots(paths))
    return [p for p in paths if any(r in roots and _member(p[len(r):]) for r in _prefixes(p))]


def helm_chart_facts(repository: str, files: Mapping[str, str],
                     installs: Iterable[Fact] = ()) -> tuple[list[Fact], list[Warning_]]:
    """Facts of every chart among `files` ({repository path: text}; files of no chart are ignored):
    each chart rendered, each rendered template read as Kubernetes YAML.  A chart the project's
    documents install (``helm.install`` facts, see :mod:`~.readers.helm_install`) is rendered once per
    release of the first code block installing it, with that release's name and values; any other
    chart once, as a release named after it, with its defaults.  Never raises."""
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    installs = sorted(installs, key=_install_order)
    for root in chart_roots(files):
        chart_files = {p[len(root):]: files[p] for p in _chart_files(root, files)}
        for dep in chart_dependencies(chart_files):
            facts.append(Fact(kind="helm.dependency", repository=repository, path=root + CHART_FILE,
                              line=max(dep.line, 1), language="config", rule=RULE,
                              attrs=tuple(sorted({"name": dep.name, "key": dep.key, "release": dep.release}.items()))))
        releases = _releases_of(root, _chart_name(chart_files), installs)
        for install in releases or [None]:
            overrides: dict[str, object] = {}
            if install is not None:
                overrides, problems = install_values(install, root, files)
                warnings.extend(problems)
                # the documented release itself, at its install command: what deploys the chart
                facts.append(Fact(kind="helm.release", repository=repository, path=install.path, line=install.line,
                                  language="config", rule=RULE,
                                  attrs=tuple(sorted({"release": install.get("release") or "",
                                                      "chart": root + CHART_FILE}.items()))))
            result = render_chart(chart_files, install.get("release") or None if install else None, overrides)
            for w in result.warnings:
                warnings.append(Warning_(repository, root + w.path if w.path else root + CHART_FILE, w.line, w.message))
            for template in result.templates:
                fs, ws = _read_rendered(repository, root + template.path, template)
                facts.extend(fs)
                warnings.extend(ws)
    return sorted(set(facts), key=Fact.order), sorted(set(warnings))


def _install_order(f: Fact) -> tuple:
    """Documents in the order a reader meets them: the root README first, then by depth and path."""
    top_readme = "/" not in f.path and f.path.lower().startswith("readme")
    return (not top_readme, f.path.count("/"), f.path, int(f.get("block") or 0), f.line)


def _chart_name(chart_files: Mapping[str, str]) -> str:
    from repomodeler.extract.helm_render import _load_value  # (budgeted: the repository's YAML is untrusted)

    try:
        meta = _load_value(chart_files.get(CHART_FILE, "")) or {}
    except Exception:  # the renderer warns about a malformed Chart.yaml
        return ""
    return str(meta.get("name") or "") if isinstance(meta, dict) else ""


_VERSION_TAIL = re.compile(r"-v?\d+(?:\.\d+)*(?:[-+][\w.]+)?$")


def _names_chart(ref: str, doc_folder: str, root: str, name: str) -> bool:
    """Does the chart reference of an install command (``charts/delivery/``, ``./chart``,
    ``delivery-v0.1.0.tgz``, ``podinfo/podinfo``, ``oci://ghcr.io/org/charts/podinfo``) name the chart
    in folder ``root`` called ``name``?"""
    folder = root.rstrip("/")
    ref = ref.strip()
    if ref.startswith("oci://"):
        ref = ref[len("oci://"):]
    path = ref.rstrip("/")
    while path.startswith("./"):
        path = path[2:]
    if path and folder and (path == folder or norm_path(join_path(doc_folder, path)) == folder):
        return True
    last = path.rsplit("/", 1)[-1]
    if last.endswith(".tgz"):  # a packaged chart: name-version.tgz
        last = _VERSION_TAIL.sub("", last[:-len(".tgz")])
    own = folder.rsplit("/", 1)[-1] if folder else ""
    return bool(last) and last in {name, own} - {""}




# Release names a chart's instructions use as a stand-in for the user's own (`helm install my-release ./chart`).
PLACEHOLDER_RELEASE = re.compile(r"^(my-?release|release-?name|my-?name|my-?app|name|example|test|<.*>|\$.*|\{\{.*)$", re.I)


# A contributor's guide (CONTRIBUTING.md, DEVELOPMENT.md, docs/development/...): its installs set up a developer's
# cluster with test values (a fake ACME server, local images), not the deployment the project documents.
DEVELOPER_GUIDE = re.compile(r"(^|/)(contributing|development|developing|develop|hacking|dev)([/._-]|$)", re.I)


def _releases_of(root: str, name: str, installs: list[Fact]) -> list[Fact]:
    """The installs of the chart at ``root``: those of the first code block (in reading order) that
    installs it.  Later blocks are alternatives (another registry, another environment).  A stand-in
    release name (`my-release`) says nothing of the deployment, nor does a contributor's guide: such
    installs are passed over."""
    installs = [f for f in installs if not PLACEHOLDER_RELEASE.match(f.get("release") or "")
                and not DEVELOPER_GUIDE.search(f.path)]
    for f in installs:
        doc_folder = f.path.rsplit("/", 1)[0] if "/" in f.path else ""
        if _names_chart(f.get("chart") or "", doc_folder, root, name):
            block = (f.path, f.get("block"))
            return [g for g in installs if (g.path, g.get("block")) == block
                    and _names_chart(g.get("chart") or "", doc_folder, root, name)]
    return []


def install_value_files(installs: Iterable[Fact], paths: set[str]) -> set[str]:
    """The listed files the installs' ``-f`` options may name (read with the charts)."""
    out: set[str] = set()
    for f in installs:
        doc_folder = f.path.rsplit("/", 1)[0] if "/" in f.path else ""
        for written in filter(None, (f.get("values") or "").split(",")):
            out |= {p for p in (norm_path(join_path(doc_folder, written)), norm_path(written)) if p in paths}
    return out


def install_values(install: Fact, root: str, files: Mapping[str, str]) -> tuple[dict[str, object], list[Warning_]]:
    """The values an install gives: its ``-f`` files (found beside the document, at the repository's
    root or in the chart) merged in order, then its ``--set`` values."""
    from repomodeler.extract.helm_render import _deep_merge, _load_value

    values: dict[str, object] = {}
    warnings: list[Warning_] = []
    doc_folder = install.path.rsplit("/", 1)[0] if "/" in install.path else ""
    for written in filter(None, (install.get("values") or "").split(",")):
        found = next((p for p in map(norm_path, (join_path(doc_folder, written), written, join_path(root, written)))
                      if p in files), None)
        if found is None:
            continue  # a file the user writes (my-values.yaml) or one outside the repository
        try:
            loaded = _load_value(files[found])
        except Exception:  # YAML syntax errors, the reading budgets
            warnings.append(Warning_(install.repository, found, 0, "Helm values file is not valid YAML; skipped"))
            continue
        if isinstance(loaded, dict):
            values = _deep_merge(values, loaded)
    try:
        sets = json.loads(install.get("sets") or "[]")
    except ValueError:
        sets = []
    for flag, text in sets:
        for key, value in _set_pairs(text):
            _put(values, key, value if flag == "--set-string" else _typed(value))
    return values, warnings


def _set_pairs(text: str) -> list[tuple[str, str]]:
    """``a.b=1,c[0].d=x`` as (key, value) pairs; ``\\,`` is a comma inside a value."""
    pairs, part, parts, i = [], "", [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            part += text[i + 1]
            i += 2
            continue
        if ch == ",":
            parts.append(part)
            part = ""
        else:
            part += ch
        i += 1
    parts.append(part)
    for p in parts:
        key, eq, value = p.partition("=")
        if eq and key.strip():
            pairs.append((key.strip(), value))
    return pairs


def _typed(value: str) -> object:
    if value in ("true", "false"):
        return value == "true"
    if value == "null":
        return None
    if re.fullmatch(r"-?\d{1,18}", value) and not (len(value) > 1 and value.lstrip("-").startswith("0")):
        return int(value)
    return value


_KEY_PART = re.compile(r"([^.\[\]]+)((?:\[\d+\])*)")


def _put(values: dict[str, object], key: str, value: object) -> None:
    """Set ``key`` (``ingress.hosts[0].name``) in nested ``values`` as ``helm --set`` does."""
    target: object = values
    steps: list[object] = []
    for m in _KEY_PART.finditer(key):
        steps.append(m.group(1))
        steps.extend(int(x) for x in re.findall(r"\d+", m.group(2)))
    if not steps or any(isinstance(s, int) and s > 64 for s in steps):
        return
    for step, nxt in zip(steps, steps[1:] + [None]):
        fresh: object = [] if isinstance(nxt, int) else {}
        if isinstance(step, int):
            if not isinstance(target, list):
                return
            while len(target) <= step:
                target.append({} if nxt is not None and not isinstance(nxt, int) else None)
            if nxt is None:
                target[step] = value
                return
            if not isinstance(target[step], (dict, list)):
                target[step] = fresh
            target = target[step]
        else:
            if not isinstance(target, dict):
                return
            if nxt is None:
                target[step] = value
                return
            if not isinstance(target.get(step), (dict, list)):
                target[step] = fresh
            target = target[step]


def _read_rendered(repository: str, path: str, template: RenderedTemplate) -> tuple[list[Fact], list[Warning_]]:
    """The Kubernetes facts of one rendered template, their lines mapped back to the template's."""
    from repomodeler.extract.readers.kubernetes import read_kubernetes

    text = template.text
    if not text.strip():
        return [], []  # switched off by its values (an ingress with ingress.enabled false)
    repaired: set[int] = set()
    while True:
        try:
            facts = read_kubernetes(repository, path, text)
            break
        except RecursionError:
            return [], [Warning_(repository, path, 0, "rendered Helm template nested too deeply; skipped")]
        except Exception as exc:  # YAML the values render badly, a reader's surprise: this template only
            mark = getattr(exc, "problem_mark", None)
            fixed = _quote_value_line(text, mark.line) if mark is not None and len(repaired) < MAX_REPAIRS \
                and mark.line not in repaired else None
            if fixed is not None:
                repaired.add(mark.line)
                text = fixed
                continue
            line = template.template_line(mark.line + 1) if mark is not None else 0
            detail = (str(getattr(exc, "problem", None) or exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            return [], [Warning_(repository, path, line, f"rendered Helm template is not valid YAML ({detail}); skipped")]
    return [replace(f, line=template.template_line(f.line), rule=RULE) for f in facts], []


# At most this many lines of one rendered template are mended before it is given up.
MAX_REPAIRS = 20
_KEY_VALUE_LINE = re.compile(r"^(\s*(?:-\s+)?[\w.\-/\"']+:\s+)(\S.*?)\s*$")


def _quote_value_line(text: str, index: int) -> str | None:
    """``text`` with the scalar on line ``index`` (0-based) made a quoted string, or None when that line
    is not ``key: value``. Charts leave values for install time (``helm install --set image.tag=…``):
    rendered with the chart's empty defaults, ``image: {{ .Values.registry }}/{{ .Values.name }}:{{ .Values.tag }}``
    becomes ``image: /:``, which is not YAML, and one such line would cost the whole workload. A value
    made only of the separators the template put around its missing parts is left empty."""
    lines = text.split("\n")
    if not 0 <= index < len(lines):
        return None
    m = _KEY_VALUE_LINE.match(lines[index])
    if not m or m.group(2)[0] in "'\"|>&*!{[":
        return None
    value = m.group(2)
    quoted = "''" if not re.search(r"[A-Za-z0-9]", value) else "'" + value.replace("'", "''") + "'"
    lines[index] = m.group(1) + quoted
    return "\n".join(lines)
