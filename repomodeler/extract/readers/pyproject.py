"""``pyproject.toml``: the Python project, its dependencies and console scripts."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import LineIndex, first_line, first_match_line
from repomodeler.records import Fact


def read_pyproject(repo: str, path: str, text: str) -> list[Fact]:
    data = tomllib.loads(text)
    project = data.get("project") or (data.get("tool", {}).get("poetry") if isinstance(data.get("tool"), dict) else {}) or {}
    name = project.get("name") if isinstance(project, dict) else None
    scripts = project.get("scripts") if isinstance(project, dict) else None  # console scripts: installed commands
    commands = sorted(str(k) for k in scripts) if isinstance(scripts, dict) else []
    facts = [fact("manifest", repo, path, first_line(text, "name"), ecosystem="python", name=name,
                   commands=", ".join(commands) or None)]
    deps = project.get("dependencies", []) if isinstance(project, dict) else []
    names = deps if isinstance(deps, list) else list(deps) if isinstance(deps, dict) else []
    words = LineIndex(text, r"([A-Za-z0-9_.-]+)")
    for dep in names:
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)", str(dep))
        if m and m.group(1).lower() != "python":
            facts.append(fact("manifest.dependency", repo, path, words.line(m.group(1)), ecosystem="python",
                               name=m.group(1).lower()))
    facts.extend(pyproject_entries(repo, path, text, data))
    return facts


def pyproject_entries(repo: str, path: str, text: str, data: dict[str, Any]) -> list[Fact]:
    """Console scripts of ``[project.scripts]`` and ``[tool.poetry.scripts]``."""
    tables: list[dict[str, Any]] = []
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("scripts"), dict):
        tables.append(project["scripts"])
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    if isinstance(poetry, dict) and isinstance(poetry.get("scripts"), dict):
        tables.append(poetry["scripts"])
    out = []
    for table in tables:
        for name, target in sorted(table.items()):
            if isinstance(target, dict):  # poetry: {reference = "pkg.mod:main", type = "console"}
                target = target.get("reference") or target.get("callable")
            if not isinstance(target, str):
                continue
            line = first_match_line(text, rf"^\s*[\"']?{re.escape(str(name))}[\"']?\s*=")
            out.append(fact("program.entry", repo, path, line, name=str(name), target=target.strip(),
                             source="console_scripts"))
    return out


READERS = (
    Reader("pyproject", "descriptor", 130, read_pyproject, names=frozenset({"pyproject.toml"})),
)
