"""The compose files a project's own start command runs together.

Docker Compose loads ``compose.yaml`` (or ``docker-compose.yml``) and its ``.override`` alone; the
other files beside it are opt-in.  A project that splits its stack into layers says which ones make
up the system in its start command: a Makefile's ``start:`` recipe running ``docker compose -f
compose.yaml -f compose.full.yaml -f compose.observability.yaml up``, or a ``start.sh`` doing the
same.  Those files are then the system as it runs by default, not opt-in variants.

Facts: ``compose.launch`` with ``files`` (the compose files, comma separated, as paths relative to the
repository root), ``profiles`` (``--profile`` values, comma separated) and ``target`` (the Makefile
target or the script's name).  Variables the file itself assigns (``FILES = -f a.yml``, ``FILES=-f a.yml``)
are expanded; a value that stays unknown leaves its word out.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

# Makefile targets and script names that start the system (not tests, builds or alternatives).
START_TARGETS = frozenset({"start", "up", "run", "deploy", "launch", "start-all", "up-all", "run-all",
                           "compose-up", "docker-up", "serve", "quickstart"})
# (an installer, `bootstrap.sh` or `install.sh`, that fetches the compose files and ends by starting them names
# the files the system runs as)
START_SCRIPT = re.compile(r"^(start|run|launch|up|deploy|quickstart|install|bootstrap|setup)([-_](all|stack|system))?\.sh$",
                          re.I)
_COMPOSE_UP = re.compile(r"\bdocker[- ]compose\b.*\bup\b")
_MAKE_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::|\+)?=\s*(.*)$")
_SHELL_ASSIGN = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_MAKE_REF = re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
_SHELL_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _expand(text: str, values: dict[str, str], ref: re.Pattern[str], depth: int = 0) -> str:
    """`text` with the file's own variables put in (nested up to a few levels; unknown ones vanish)."""
    if depth > 8:
        return text
    def put(m: re.Match[str]) -> str:
        name = next(g for g in m.groups() if g)
        return _expand(values.get(name, ""), values, ref, depth + 1)
    return ref.sub(put, text)


def _files_and_profiles(command: str) -> tuple[list[str], list[str]]:
    try:
        words = shlex.split(command, comments=False)
    except ValueError:
        words = command.split()
    files, profiles = [], []
    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w in ("-f", "--file") and nxt:
            files.append(nxt)
        elif w.startswith("--file="):
            files.append(w.split("=", 1)[1])
        elif w == "--profile" and nxt:
            profiles.append(nxt)
        elif w.startswith("--profile="):
            profiles.append(w.split("=", 1)[1])
    return files, profiles


def _launch(repo: str, path: str, line: int, command: str, target: str) -> Fact | None:
    files, profiles = _files_and_profiles(command)
    folder = PurePosixPath(path).parent
    files = [str(PurePosixPath(folder, f)) if str(folder) != "." else str(PurePosixPath(f)) for f in files
             if f and not f.startswith(("$", "/", "-"))]
    if not files and not profiles:
        return None
    return fact("compose.launch", repo, path, line, files=",".join(files), profiles=",".join(profiles),
                target=target)


def makefile_launches(repo: str, path: str, lines: list[str]) -> list[Fact]:
    """``docker compose ... up`` in the recipes of a Makefile's start targets."""
    values: dict[str, str] = {}
    for raw in lines:
        m = _MAKE_ASSIGN.match(raw)
        if m and not raw.startswith("\t"):
            values.setdefault(m.group(1), m.group(2).split("#", 1)[0].strip())
    out: list[Fact] = []
    target = ""
    for i, raw in enumerate(lines, start=1):
        m = re.match(r"^([A-Za-z0-9_.\-]+)\s*:(?!=)", raw)
        if m:
            target = m.group(1)
            continue
        if not raw.startswith("\t") or target not in START_TARGETS:
            continue
        command = _expand(raw.strip().lstrip("@-"), values, _MAKE_REF)
        if _COMPOSE_UP.search(command):
            f = _launch(repo, path, i, command, target)
            if f is not None:
                out.append(f)
    return out


def read_start_script(repo: str, path: str, text: str) -> list[Fact]:
    """``docker compose -f ... up`` in a start script (``start.sh``, ``launch-all.sh``)."""
    name = PurePosixPath(path).name
    if not START_SCRIPT.match(name):
        return []
    values: dict[str, str] = {}
    lines = text.splitlines()
    for raw in lines:
        m = _SHELL_ASSIGN.match(raw.strip())
        if m:
            values.setdefault(m.group(1), m.group(2).strip().strip("\"'"))
    out: list[Fact] = []
    for i, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped.startswith("#"):
            continue
        command = _expand(stripped, values, _SHELL_REF)
        if _COMPOSE_UP.search(command):
            f = _launch(repo, path, i, command, name)
            if f is not None:
                out.append(f)
    return out


_INSTALLER = re.compile(r"^(install|bootstrap|setup)\b", re.I)


def _has_compose_up(path: str, head: str) -> bool:
    # (an installer asks its questions first and starts the stack at its end, past the start the sniff sees:
    # one that speaks of compose at all is read)
    if _INSTALLER.match(PurePosixPath(path).name):
        return bool(re.search(r"\bdocker[- ]compose\b", head))
    return bool(_COMPOSE_UP.search(head))


READERS = (
    Reader("compose_launch", "descriptor", 219, read_start_script,
           patterns=(r"(?:start|run|launch|up|deploy|quickstart|install|bootstrap|setup)(?:[-_](?:all|stack|system))?\.sh",),
           sniff=_has_compose_up, line_based=True, shadows=("launchers.script",)),
)
