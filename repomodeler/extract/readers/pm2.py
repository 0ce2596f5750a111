"""PM2 process files (``ecosystem.config.js``, ``pm2.json``): the programs one container or host runs.

``pm2-runtime start ecosystem.config.js`` starts every app the file lists, each its own process: a
Node.js monorepo's back end and front end in one image, a worker beside an API. An app names its
``script`` (run by Node unless an ``interpreter`` says otherwise), the folder it runs in (``cwd``) and
its ``args``; each becomes a ``program.command`` fact, as a Procfile entry does, run in that folder
(its ``context``). A framework's command line installed under ``node_modules``
(``node_modules/next/dist/bin/next start``) is that command (``next start``).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_NAME = re.compile(r"""(?m)^\s*["']?name["']?\s*:\s*["'`]([^"'`$]+)["'`]""")
# node_modules/next/dist/bin/next, node_modules/.bin/nuxt: the command a package installs
_INSTALLED = re.compile(r"(?:^|/)node_modules/(?:\.bin/|(?:@[^/]+/)?[^/]+/(?:dist/)?bin/)([\w.-]+?)(?:\.[cm]?js)?$")


def _field(segment: str, key: str) -> str:
    m = re.search(rf"""(?m)^\s*["']?{key}["']?\s*:\s*["'`]([^"'`]*)["'`]""", segment)
    return m.group(1).strip() if m else ""


def _app(repo: str, path: str, line: int, name: str, script: str, cwd: str, args: str, interpreter: str) -> Fact:
    folder = str(PurePosixPath(path).parent)
    context = posixpath.normpath(str(PurePosixPath(folder if folder != "." else "").joinpath(cwd or ".")))
    context = "" if context in (".", "") else context.strip("/")
    installed = _INSTALLED.search(script)
    if installed:
        command = " ".join(p for p in (installed.group(1), args) if p)
    else:
        runner = interpreter or ("python" if script.endswith(".py") else "" if script.endswith(".sh") else "node")
        command = " ".join(p for p in (runner, script.removeprefix("./"), args) if p)
    return fact("program.command", repo, path, line, owner=name, command=command[:500], source="pm2",
                context=context)


def read_pm2(repo: str, path: str, text: str) -> list[Fact]:
    """One ``program.command`` per app of the file (owner: the app's name)."""
    facts: list[Fact] = []
    if path.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            return facts
        apps = data.get("apps") if isinstance(data, dict) else data
        lines = text.splitlines()
        for app in apps if isinstance(apps, list) else []:
            if isinstance(app, dict) and isinstance(app.get("name"), str) and isinstance(app.get("script"), str):
                line = next((i for i, raw in enumerate(lines, start=1) if f'"{app["name"]}"' in raw), 1)
                facts.append(_app(repo, path, line, app["name"], app["script"], str(app.get("cwd") or ""),
                                  app["args"] if isinstance(app.get("args"), str) else "",
                                  str(app.get("interpreter") or "")))
        return facts
    names = list(_NAME.finditer(text))
    for i, m in enumerate(names):
        # the app's object: from its name to the next app's name (or the end)
        segment = text[m.start():names[i + 1].start() if i + 1 < len(names) else len(text)]
        script = _field(segment, "script")
        if script:
            facts.append(_app(repo, path, text.count("\n", 0, m.start()) + 1, m.group(1).strip(), script,
                              _field(segment, "cwd"), _field(segment, "args"), _field(segment, "interpreter")))
    return facts


READERS = (
    Reader("pm2", "descriptor", 212, read_pm2,
           patterns=(r"ecosystem\.config\.[cm]?js", r"ecosystem(?:\.[^/]*)?\.json", r"pm2(?:\.[^/]*)?\.json"),
           line_based=True),
)
