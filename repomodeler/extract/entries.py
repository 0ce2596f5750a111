"""Programs a repository declares outside its code: installed commands and start commands.

A Python package installs console scripts (``[project.scripts]``, ``[tool.poetry.scripts]``,
``console_scripts`` in ``setup.cfg`` / ``setup.py``); a JavaScript package installs ``bin`` entries
and starts files from its ``scripts``; a ``Procfile`` or a compose ``command:`` names the command
each process type runs.  Each becomes a fact the process rules (``graph/processes.py``) read:

* ``program.entry``: an installed command and what it runs (``name``, ``target``: ``pkg.mod:func``
  or a file path relative to the manifest's folder, ``source``);
* ``program.command``: a command line a deployment or a package script runs (``owner``: the process
  type, compose service or script name, ``command``, ``source``).

Nothing here decides what is a process: tools, tests and build scripts are filtered by the rules.
"""

from __future__ import annotations

import configparser
import json
import re
from typing import Any

from repomodeler.records import Fact, Warning_

_SCRIPT_ENTRY = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*=\s*([A-Za-z_][\w.]*)(?::([A-Za-z_][\w.]*))?")
# A package script that runs one file with a JavaScript runtime: node dist/server.js, ts-node src/worker.ts.
_JS_RUN = re.compile(r"(?:^|&&\s*|;\s*)(?:(?:cross-env|env)\s+)?(?:\S+=\S+\s+)*(?:npx\s+)?"
                     r"(node|nodemon|ts-node|ts-node-dev|tsx|bun|deno\s+run|babel-node)\b")


def _fact(kind: str, repo: str, path: str, line: int, **attrs: object) -> Fact:
    clean = tuple(sorted((k, str(v)) for k, v in attrs.items() if v is not None and v != ""))
    return Fact(kind=kind, repository=repo, path=path, line=line, language="config", attrs=clean)


def _line_of(text: str, pattern: str, default: int = 1) -> int:
    m = re.search(pattern, text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else default


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
            line = _line_of(text, rf"^\s*[\"']?{re.escape(str(name))}[\"']?\s*=")
            out.append(_fact("program.entry", repo, path, line, name=str(name), target=target.strip(),
                             source="console_scripts"))
    return out


def _console_lines(value: str, text: str, repo: str, path: str) -> list[Fact]:
    out = []
    for raw in value.splitlines():
        m = _SCRIPT_ENTRY.match(raw)
        if m:
            target = m.group(2) + (f":{m.group(3)}" if m.group(3) else "")
            line = _line_of(text, rf"{re.escape(m.group(1))}\s*=\s*{re.escape(m.group(2))}")
            out.append(_fact("program.entry", repo, path, line, name=m.group(1), target=target, source="console_scripts"))
    return out


def read_setup_cfg(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """``[options.entry_points]`` ``console_scripts =`` lines of a setuptools ``setup.cfg``."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    facts: list[Fact] = []
    if parser.has_option("options.entry_points", "console_scripts"):
        facts = _console_lines(parser.get("options.entry_points", "console_scripts"), text, repo, path)
    return facts, []


def read_setup_py(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """``entry_points={"console_scripts": ["name = pkg.mod:main"]}`` of a ``setup.py`` (the literal
    strings after ``console_scripts``; a computed list is not followed)."""
    facts = [_fact("manifest", repo, path, 1, ecosystem="python", name=None)]
    m = re.search(r"[\"']console_scripts[\"']\s*:\s*\[([^\]]*)\]", text)
    if m:
        for s in re.findall(r"[\"']([^\"'\n]+)[\"']", m.group(1)):
            facts.extend(_console_lines(s, text, repo, path))
    return facts, []


def read_procfile(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """``web: gunicorn app:app`` / ``worker: celery -A app worker``: one process type a line."""
    facts = []
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^([A-Za-z0-9_\-]+)\s*:\s*(\S.*)$", raw)
        if m:
            facts.append(_fact("program.command", repo, path, i, owner=m.group(1), command=m.group(2).strip()[:500],
                               source="procfile"))
    return facts, []


# A recipe command that starts one program: python services/movies.py, python -m shop.worker,
# node server.js, go run ./cmd/api (after `. venv/bin/activate;`, before a trailing `&`).
_MAKE_RUN = re.compile(r"^(?:python[0-9.]*|node|go\s+run|ts-node|tsx|bun|deno\s+run)\s+\S")


def read_makefile(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """Makefile recipes that start programs (``launch:`` running ``python services/movies.py &`` for
    each service): one ``program.command`` a program, named by the file or module it runs."""
    facts = []
    target = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^([A-Za-z0-9_.\-]+)\s*:(?!=)", raw)
        if m:
            target = m.group(1)
            continue
        if not raw.startswith("\t") or re.search(r"\b(test|tests|lint|check|coverage|clean|install|build)\b", target):
            continue
        for part in re.split(r";|&&|\|\|", raw.strip().lstrip("@-")):
            command = part.strip().rstrip("&").strip()
            if not _MAKE_RUN.match(command) or "$(" in command or re.search(r"\b(pytest|unittest|pip)\b", command):
                continue
            if " -m " in f" {command} ":  # python -m shop.worker: the module's last part
                name = command.split(" -m ", 1)[1].split()[0].rsplit(".", 1)[-1]
            else:  # python services/movies.py, go run ./cmd/api: the file or folder, without extension
                name = re.sub(r"\.(py|[cm]?[jt]s)$", "", command.split()[-1].rstrip("/").rsplit("/", 1)[-1])
            facts.append(_fact("program.command", repo, path, i, owner=name or target, command=command[:500],
                               source="makefile"))
    return facts, []


def read_cmake(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """``add_executable(UserService UserService.cpp ...)``: a program the repository builds, named
    as a deployment starts it (compose ``entrypoint: UserService``); its code is this folder."""
    facts = []
    for m in re.finditer(r"(?im)^\s*add_executable\s*\(\s*([A-Za-z_][A-Za-z0-9_.+-]*)", text):
        facts.append(_fact("program.binary", repo, path, text.count("\n", 0, m.start()) + 1, name=m.group(1),
                           source="cmake"))
    return facts, []


def package_json_entries(repo: str, path: str, text: str, data: dict[str, Any]) -> list[Fact]:
    """``bin`` entries, and ``scripts`` that run one file with a JavaScript runtime."""
    out: list[Fact] = []
    name = data.get("name") if isinstance(data.get("name"), str) else None
    bin_ = data.get("bin")
    bins = ({name.rsplit("/", 1)[-1]: bin_} if isinstance(bin_, str) and name else
            dict(bin_) if isinstance(bin_, dict) else {})
    bin_line = _line_of(text, r'"bin"\s*:')
    for cmd, target in sorted(bins.items()):
        if isinstance(target, str):
            line = _line_of(text, rf'"{re.escape(str(cmd))}"\s*:\s*"{re.escape(target)}"', bin_line)
            out.append(_fact("program.entry", repo, path, line, name=str(cmd), target=target, source="bin"))
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        for script, command in sorted(scripts.items()):
            if isinstance(command, str) and _JS_RUN.search(command):
                line = _line_of(text, rf'"{re.escape(str(script))}"\s*:\s*"')
                out.append(_fact("program.command", repo, path, line, owner=str(script), command=command[:500],
                                 source="npm-script"))
    return out


def compose_command(value: Any) -> str | None:
    """A compose ``command:`` as one line (a list is joined the way a shell would read it)."""
    if isinstance(value, str):
        return value.strip()[:500] or None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(json.dumps(v) if (" " in v or not v) else v for v in value)[:500] or None
    return None
