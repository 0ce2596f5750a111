"""Shared SysML checks for tests: the strict engine and the tree-sitter grammar.

``assert_valid_sysml`` is what every test that produces a model should call: it loads the given
text(s) or file(s) together in one OpenSysML engine session in strict mode (about a second) and
fails with the diagnostics, each with its line, when there is any error.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Iterable, Union

from repomodeler.validate import Diagnostic, validate_files

Source = Union[str, Path]


def _as_paths(sources: Source | Iterable[Source], tmp: Path) -> list[Path]:
    items = [sources] if isinstance(sources, (str, Path)) else list(sources)
    paths: list[Path] = []
    for i, item in enumerate(items):
        if isinstance(item, Path):
            paths.extend(sorted(item.rglob("*.sysml")) if item.is_dir() else [item])
        else:
            path = tmp / f"model{i}.sysml"
            path.write_text(item, encoding="utf-8")
            paths.append(path)
    return paths


def sysml_diagnostics(sources: Source | Iterable[Source]) -> list[Diagnostic]:
    """Engine diagnostics (errors and warnings) for SysML text(s) and/or files/folders loaded together."""
    with tempfile.TemporaryDirectory(prefix="sysml-check-") as tmp:
        paths = _as_paths(sources, Path(tmp))
        assert paths, "no SysML given to check"
        return validate_files(paths, strict=True)


def _excerpt(sources: Source | Iterable[Source], diag: Diagnostic) -> str:
    try:
        lines = Path(diag.path).read_text(encoding="utf-8").splitlines()
        return lines[diag.line - 1].strip() if 0 < diag.line <= len(lines) else ""
    except OSError:
        return ""


def assert_valid_sysml(sources: Source | Iterable[Source]) -> None:
    """Fail unless the strict engine reports zero errors for the text(s)/file(s) loaded together.

    A ``str`` is SysML text, a ``Path`` a file or a folder of ``.sysml`` files; a list mixes them.
    Texts in one call are loaded together, so give each model (library + system) its own call.
    """
    with tempfile.TemporaryDirectory(prefix="sysml-check-") as tmp:
        paths = _as_paths(sources, Path(tmp))
        assert paths, "no SysML given to check"
        diags = validate_files(paths, strict=True)
        errors = [d for d in diags if d.severity == "error"]
        report = "\n".join(f"{d.format()}\n    {_excerpt(sources, d)}" for d in errors[:30])
    assert not errors, f"{len(errors)} SysML error(s):\n{report}"


def tree_sitter_errors(text: str) -> list[tuple[int, str]]:
    """(line, snippet) of every ERROR or MISSING node tree-sitter-sysml finds: [] when the text parses."""
    import tree_sitter
    import tree_sitter_sysml

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_sysml.language()))
    data = text.encode("utf-8")
    tree = parser.parse(data)
    found: list[tuple[int, str]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            found.append((node.start_point[0] + 1, data[node.start_byte:node.end_byte].decode("utf-8", "replace")[:60]))
            continue
        if node.has_error:
            stack.extend(node.children)
    return sorted(found)


def engine_cells(files: list[Path], cells: list[str]) -> list[str]:
    """Load `files` in one strict engine session, then run each of `cells` (e.g. ``%render``); their outputs."""
    from repomodeler.validate import run_engine

    return run_engine(files, cells)


def make_graph(name: str, components: list[dict], edges: list[dict], repositories: list[dict] | None = None):
    """A graph shaped like graph/network.py builds it, from plain test data.

    components: dicts with id, kind and optional name, repository, language, attributes, evidence
    [(repo, path, line)], ports {protocol: [(method, path)]}, parent (a part inside that node); edges: dicts with source, target, protocol and
    optional kind, attributes, evidence.  Repositories default to those the components name, unpinned.
    """
    import networkx as nx

    from repomodeler.records import Endpoint, Evidence, Port

    def ev(items, default):
        return tuple(sorted(Evidence(*e) for e in (items or [default])))

    repos = repositories or [{"name": r, "url": None, "commit": None, "ref": None}
                             for r in sorted({c["repository"] for c in components if c.get("repository")})]
    g = nx.MultiDiGraph()
    g.graph.update(name=name, repositories=repos, warnings=[], unresolved=[], stats={})
    for c in sorted(components, key=lambda c: c["id"]):
        repo = c.get("repository")
        default = (repo or "ext", "docker-compose.yml", 1)
        ports = []
        for proto, eps in sorted((c.get("ports") or {}).items()):
            endpoints = [Endpoint(m, p, [Evidence(repo or "ext", f"src/{c['id']}.py", i + 10)]) for i, (m, p) in enumerate(eps)]
            ports.append(Port(name=proto, protocol=proto, direction="provided", endpoints=endpoints,
                              evidence=[e for ep in endpoints for e in ep.evidence] or [Evidence(*default)]))
        g.add_node(c["id"], name=c.get("name", c["id"]), kind=c["kind"], repository=repo, language=c.get("language"),
                   evidence=ev(c.get("evidence"), default), attributes=dict(sorted((c.get("attributes") or {}).items())),
                   ports=ports, **({"parent": c["parent"]} if c.get("parent") else {}))
    for e in edges:
        src_repo = g.nodes[e["source"]]["repository"] or "ext"
        g.add_edge(e["source"], e["target"], key=e["protocol"], id=f"{e['source']}->{e['target']}:{e['protocol']}",
                   kind=e.get("kind", "calls"), protocol=e["protocol"],
                   evidence=ev(e.get("evidence"), (src_repo, f"src/{e['source']}.py", 5)),
                   attributes=dict(sorted((e.get("attributes") or {}).items())))
    return g
