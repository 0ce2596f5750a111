"""``package.json``: the npm package, its dependencies, installed commands and start scripts."""

from __future__ import annotations

import json
import re
from fnmatch import fnmatchcase
from typing import Any

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import LineIndex, first_line, first_match_line, section_index
from repomodeler.records import Fact


# A package script that runs one file with a JavaScript runtime: node dist/server.js, ts-node src/worker.ts.
_JS_RUN = re.compile(r"(?:^|&&\s*|;\s*)(?:(?:cross-env|env)\s+)?(?:\S+=\S+\s+)*(?:npx\s+)?"
                     r"(node|nodemon|ts-node|ts-node-dev|tsx|bun|deno\s+run|babel-node)\b")

# A framework's production server serving the package (`next start`, `nuxt start`, `remix-serve build`).
_FRAMEWORK_START = re.compile(r"(?:^|&&\s*|;\s*)(?:\S+=\S+\s+)*(?:npx\s+)?(?:(?:next|nuxt)\s+start|remix-serve)\b")
_PARALLEL = re.compile(r"(?:^|&&\s*|;\s*|\s)(concurrently|run-p|run-s|npm-run-all2?)\s")
# What a parallel runner names: `npm:start:web` / `"npm:worker"`, or the bare script names after run-p.
_PARALLEL_REFS = re.compile(r"(?:npm|yarn|pnpm|bun):([\w:*.-]+)|(?<=\s)(?!-)([\w:*.-]+)(?=\s|$)")

# Frameworks a UI component library leaves to the app that uses it (its peerDependencies).
_PEER_UI = frozenset({"react", "react-dom", "vue", "@angular/core", "svelte", "solid-js", "preact", "lit"})


def published_as(data: dict[str, Any]) -> str | None:
    """How a package says it is code for others to use, not an app of its own: a component library
    leaving the UI framework to its user (``peerDependencies`` on react, vue, @angular/core...), a
    package declaring entry points for importers (``exports``, ``module``, ``types``), or an editor
    extension (``engines.vscode``). None for an app."""
    peers = data.get("peerDependencies")
    if isinstance(peers, dict) and any(str(p).lower() in _PEER_UI for p in peers):
        return "ui library"
    engines = data.get("engines")
    if isinstance(engines, dict) and "vscode" in engines:
        return "editor extension"
    if any(k in data for k in ("exports", "module", "types", "typings")):
        return "package"
    return None


def read_package_json(repo: str, path: str, text: str) -> list[Fact]:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("package.json is not an object")
    name = data.get("name") if isinstance(data.get("name"), str) else None
    bin_ = data.get("bin")  # "bin": "cli.js" installs a command named like the package
    commands = ([name.rsplit("/", 1)[-1]] if isinstance(bin_, str) and name else
                sorted(str(k) for k in bin_) if isinstance(bin_, dict) else [])
    facts = [fact("manifest", repo, path, first_line(text, '"name"'), ecosystem="npm", name=name,
                   main=data.get("main") if isinstance(data.get("main"), str) else None,
                   start=(data.get("scripts") or {}).get("start") if isinstance(data.get("scripts"), dict) else None,
                   commands=", ".join(commands) or None, library=published_as(data))]
    keys = LineIndex(text, r'"((?:[^"\\\n]|\\.)*)"')
    # devDependencies are facts of their own kind: what a package needs to build or check (types,
    # linters, shared configs), not what it runs with, so roles keyed on dependencies ignore them;
    # between packages of one workspace they still are build-time edges (graph/connections.py).
    for section in ("dependencies", "devDependencies"):
        deps = data.get(section)
        if not isinstance(deps, dict):
            continue
        # (a devDependency's line inside its own section, not where it is first named)
        index, base = (keys, 0) if section == "dependencies" else section_index(text, section)
        for dep in sorted(deps):
            line = base + index.line(str(dep))
            facts.append(fact("manifest.dependency", repo, path, line, ecosystem="npm", name=str(dep))
                         if section == "dependencies" else
                         fact("manifest.dev_dependency", repo, path, line, ecosystem="npm", name=str(dep)))
    facts.extend(package_json_entries(repo, path, text, data))
    return facts


def package_json_entries(repo: str, path: str, text: str, data: dict[str, Any]) -> list[Fact]:
    """``bin`` entries, and ``scripts`` that run one file with a JavaScript runtime."""
    out: list[Fact] = []
    name = data.get("name") if isinstance(data.get("name"), str) else None
    bin_ = data.get("bin")
    bins = ({name.rsplit("/", 1)[-1]: bin_} if isinstance(bin_, str) and name else
            dict(bin_) if isinstance(bin_, dict) else {})
    bin_line = first_match_line(text, r'"bin"\s*:')
    for cmd, target in sorted(bins.items()):
        if isinstance(target, str):
            line = first_match_line(text, rf'"{re.escape(str(cmd))}"\s*:\s*"{re.escape(target)}"', bin_line)
            out.append(fact("program.entry", repo, path, line, name=str(cmd), target=target, source="bin"))
    scripts = data.get("scripts")
    if isinstance(scripts, dict):
        # Scripts a parallel runner starts (`concurrently "npm:start:*"`, `run-p web worker`) run
        # side by side, whatever they run (`next start` too).
        named = {str(k) for k, v in scripts.items() if isinstance(v, str) and _PARALLEL.search(v)}
        for command in [str(scripts[k]) for k in named]:
            for refs in _PARALLEL_REFS.findall(command):
                named |= {str(k) for ref in refs if ref for k in scripts if fnmatchcase(str(k), ref)}
        for script, command in sorted(scripts.items()):
            if isinstance(command, str) and (_JS_RUN.search(command) or _FRAMEWORK_START.search(command)
                                             or str(script) in named):
                line = first_match_line(text, rf'"{re.escape(str(script))}"\s*:\s*"')
                # a framework's server alone (`next start`) is a program only where another command runs
                # it (a parallel runner, `yarn workspace web start`): many packages keep it for development
                only_named = not _JS_RUN.search(command) and str(script) not in named
                out.append(fact("program.command", repo, path, line, owner=str(script), command=command[:500],
                                 source="npm-script", **({"when_named": "true"} if only_named else {})))
    return out


READERS = (
    Reader("npm", "descriptor", 120, read_package_json, names=frozenset({"package.json"})),
)
