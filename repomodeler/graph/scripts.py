"""Programs of Python and JavaScript/TypeScript code, and the files each one runs.

Go says what a program is in the code (``package main``); Python and JavaScript say it beside the
code.  A program is:

* an installed command: a console script (``[project.scripts]``, ``[tool.poetry.scripts]``,
  ``console_scripts`` in ``setup.cfg``/``setup.py``) or a ``package.json`` ``bin`` entry;
* a command line a deployment or a package script runs (Dockerfile ``CMD``/``ENTRYPOINT``, compose
  ``command:``, a ``Procfile`` line, a ``scripts`` entry such as ``"start": "node dist/server.js"``)
  that starts a module or file of the repository: ``python -m pkg.worker`` or ``python worker.py``
  (a module with an ``if __name__ == "__main__":`` guard, or a package's ``__main__.py``),
  ``node``/``ts-node``/``tsx`` of a file, or a server launcher naming an application module
  (``gunicorn pkg.wsgi:app``, ``uvicorn pkg.main:app``, ``celery -A pkg worker``: the launcher itself
  starts the server or the worker loop).

Each program starts in one entry file; the files it runs are the closure of the file-level imports
from there (``file_graph``), which is how processes that share a folder (``shop/cli.py`` and
``shop/server.py``) still get code of their own.  Tools, scripts, tests, examples, migrations and
management commands are not programs.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import defaultdict
from collections.abc import Iterable
from fnmatch import fnmatchcase
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from repomodeler.graph.naming import norm_path
from repomodeler.graph.packages import JS_EXTENSIONS, folder
from repomodeler.records import Evidence, Fact

SCRIPT_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx"})
# Package scripts that build, check or administer rather than run the system.
NOT_A_PROCESS_SCRIPT = re.compile(
    r"(^|[:_-])(test|tests|lint|format|fmt|build|compile|bundle|watch|clean|prepare|prepublish|publish|release|deploy|"
    r"docs?|bench|benchmark|storybook|typecheck|tsc|migrate|migration|migrations|seed|seeds|generate|gen|codegen|"
    r"install|postinstall|preinstall|coverage|e2e|cy|cypress|playwright|jest|mocha|vitest|check|pre\w*|post\w*)($|[:_-])",
    re.I)
# Entry files in these folders are tooling, not processes.
TOOL_PARTS = frozenset({"tools", "tool", "scripts", "script", "bin-tools", "hack", "ci", "dev", "devtools", "codegen",
                        "gen", "generate", "generator", "generators", "bench", "benchmark", "benchmarks", "example",
                        "examples", "sample", "samples", "demo", "demos", "test", "tests", "testing", "e2e", "mock",
                        "mocks", "docs", "doc", "migrations", "migration", "alembic", "management", "commands", "fixtures",
                        "setup", "__tests__"})
TOOL_FILES = frozenset({"manage.py", "setup.py", "conftest.py", "noxfile.py", "fabfile.py", "dodo.py"})
# Package scripts that run the package itself rather than one of its processes.
GENERIC_SCRIPT = re.compile(r"^(start|serve|server|dev|develop|development|prod|production|main|app|default|run|debug|"
                            r"local|staging|docker|container|web|next|nuxt|remix)$")
# Launchers that start a server or a worker loop around an application module they are given.
# Reloaders that run `python -m <module> ...` again on every change (hupper -m celery -A app worker).
PY_RELOADERS = frozenset({"hupper"})
SERVER_LAUNCHERS = frozenset({"gunicorn", "uvicorn", "hypercorn", "daphne", "waitress-serve", "granian"})
PY_RUNNERS = re.compile(r"^(python[\d.]*|pypy[\d.]*|py)$")
JS_RUNNERS = frozenset({"node", "nodemon", "ts-node", "ts-node-dev", "tsx", "bun", "babel-node", "deno"})
BUILD_DIRS = ("dist", "build", "lib", "out")


@dataclass
class Launch:
    """What one command line starts: a Python module, a file, or an installed command."""

    kind: str  # "module" | "file" | "command"
    value: str
    launcher: str = ""  # "server" | "worker" when the launcher itself serves


@dataclass
class ScriptProgram:
    name: str
    entry: str  # repository path of the file it starts in
    evidence: list[Evidence]
    source: str  # console_scripts | bin | dockerfile | compose | procfile | makefile | npm-script
    launcher: str = ""
    owner: str = ""  # the compose service, Procfile type or package script that runs it
    spawn_names: set[str] = field(default_factory=set)  # how a spawn names it (module, file, command)
    main: bool = False  # a deployment or the package's own start script runs it: the package itself
    command: str = ""  # the subcommand of another program that runs it (``shop serve``)
    # where a parallel runner (``concurrently``) starts it beside others: those run as processes together
    side_by_side: set[Evidence] = field(default_factory=set)


def started_binary(command: str) -> str:
    """The file name of the executable a command line or exec-form list starts (``["/keda", "--zap"]`` -> ``keda``)."""
    return PurePosixPath(re.sub(r'^[\["\s]+', "", command).split(" ")[0].strip('",]')).name.lower()


def script_program_name(script: str) -> str:
    """The program a package script runs: "" for the package itself ("start", and "start:prod",
    "start:debug" or "start-dev", the package in another mode), else its last part ("start:worker" runs
    "worker")."""
    if all(GENERIC_SCRIPT.match(part) for part in re.split(r"[:_-]", script)):
        return ""
    return script.split(":")[-1]


def split_command(command: str) -> list[list[str]]:
    """The simple commands of a command line (exec form JSON arrays, ``sh -c``, ``&&`` chains)."""
    text = command.strip()
    if text.startswith("["):
        try:
            words = json.loads(text)
            if isinstance(words, list) and all(isinstance(w, str) for w in words):
                text = " ".join(shlex.quote(w) for w in words)
        except ValueError:
            pass
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError:
        words = text.split()
    if len(words) >= 3 and PurePosixPath(words[0]).name in ("sh", "bash", "ash") and words[1] in ("-c", "-lc"):
        return split_command(words[2])
    out: list[list[str]] = [[]]
    for w in words:
        if w in ("&&", ";", "||", "|"):
            out.append([])
        elif w.endswith(";") and len(w) > 1:  # `... 2>&1; then ...`: the word ends the command
            out[-1].append(w[:-1])
            out.append([])
        else:
            out[-1].append(w)
    return [c for c in out if c]


def parse_launch(words: list[str]) -> Launch | None:
    """What one simple command starts, or None (pip install, a migration, an unknown program)."""
    words = [w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]  # VAR=value prefixes
    while words and (words[0] in ("exec", "npx", "cross-env", "env", "poetry", "pipenv", "uv", "pdm", "hatch", "rye",
                                  "dumb-init", "tini", "--", "run", "gosu", "su-exec", "nohup", "then", "else", "do")
                     or (words[0] == "timeout" and len(words) > 2 and re.match(r"^\d+[smhd]?$", words[1]))):
        words = words[2:] if words[0] == "timeout" else words[1:]  # (`timeout 300 node x.js`, a shell `then` branch)
    if not words:
        return None
    prog = PurePosixPath(words[0]).name
    args = words[1:]
    if PY_RUNNERS.match(prog) or prog in PY_RELOADERS:
        i = 0
        while i < len(args):
            a = args[i]
            if a == "-m" and i + 1 < len(args):
                if args[i + 1] in SERVER_LAUNCHERS or args[i + 1] == "celery":
                    return parse_launch(args[i + 1:])  # python -m celery -A app worker: the launcher itself
                return Launch("module", args[i + 1])
            if a.startswith("-m") and len(a) > 2:
                return Launch("module", a[2:])
            if a.startswith("-"):
                i += 1
                continue
            return Launch("file", a) if a.endswith((".py", ".pyw")) else None
        return None
    if prog in SERVER_LAUNCHERS:
        for a in args:
            if not a.startswith("-") and re.match(r"^[A-Za-z_][\w.]*(:[\w.()]*)?$", a):
                return Launch("module", a.split(":")[0], launcher="server")
        return None
    if prog == "celery":
        app = None
        for i, a in enumerate(args):
            if a in ("-A", "--app") and i + 1 < len(args):
                app = args[i + 1]
            elif a.startswith("--app="):
                app = a.split("=", 1)[1]
        role = next((a for a in args if a in ("worker", "beat")), None)
        if app and role:
            return Launch("module", app.split(":")[0], launcher="worker")
        return None
    if prog in JS_RUNNERS:
        for a in args:
            if a in ("run",) and prog in ("deno", "bun"):
                continue
            if a.startswith("-"):
                continue
            if re.search(r"\.(m|c)?[jt]sx?$", a) or "/" in a:
                return Launch("file", a)
            return None
        return None
    if prog.endswith((".py", ".js", ".mjs", ".cjs", ".ts")):
        return Launch("file", words[0])
    if prog in ("npm", "yarn", "pnpm") and args:
        rest = [a for a in args if not a.startswith("-")]
        if rest and rest[0] == "start":
            return Launch("command", "npm:start")
        if len(rest) >= 2 and rest[0] == "run":
            return Launch("command", f"npm:{rest[1]}")
        if rest and prog != "npm":
            return Launch("command", f"npm:{rest[0]}")
        return None
    if re.match(r"^[a-z][\w.-]*$", prog):
        return Launch("command", prog)
    return None


def workspace_script(words: list[str]) -> tuple[str, str] | None:
    """(package name, script) of a package manager running a script of one workspace package:
    ``yarn workspace @acme/web start``, ``npm run start -w web``, ``pnpm --filter api dev`` (None: not one)."""
    words = [w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]
    if words[:1] == ["dotenv"]:  # dotenv-cli: `dotenv [-e file] -- command`
        words = words[words.index("--") + 1:] if "--" in words else []
    if not words or words[0] not in ("yarn", "npm", "pnpm"):
        return None
    prog, args = words[0], words[1:]
    if prog == "yarn" and len(args) >= 3 and args[0] == "workspace":
        rest = [a for a in args[2:] if not a.startswith("-")]
        script = rest[1] if rest[:1] == ["run"] and len(rest) > 1 else rest[0] if rest else ""
        return (args[1], script) if script else None
    package, rest, i = "", [], 0
    while i < len(args):
        a = args[i]
        if a in ("-w", "--workspace", "--filter", "-F") and i + 1 < len(args):
            package, i = args[i + 1], i + 2
            continue
        if a.startswith(("--workspace=", "--filter=")):
            package = a.split("=", 1)[1]
        elif not a.startswith("-"):
            rest.append(a)
        i += 1
    if not package or not rest:
        return None
    script = rest[1] if rest[0] == "run" and len(rest) > 1 else rest[0]
    return package, script


# Runners that start several commands side by side (``concurrently "node api.js" "npm:worker"``,
# ``run-p start:*``): each command they are given is started as if it stood alone.
PARALLEL_RUNNERS = frozenset({"concurrently", "run-p", "run-s", "npm-run-all", "npm-run-all2"})
CONCURRENTLY_VALUE_OPTIONS = frozenset({"-n", "--names", "-c", "--prefix-colors", "-p", "--prefix", "-s", "--success",
                                        "--restart-tries", "--restart-after", "-l", "--prefix-length", "-t",
                                        "--timestamp-format", "--name-separator", "-m", "--max-processes",
                                        "--default-input-target", "--pad-prefix", "--passthrough-arguments"})


def parallel_commands(words: list[str]) -> list[tuple[str, str]] | None:
    """(name, command line) of each command a parallel runner starts (name: its ``--names`` entry,
    else empty), or None when `words` does not start one.  Script names become ``npm run NAME``."""
    words = [w for w in words if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)]
    while words and words[0] in ("npx", "exec", "pnpm", "yarn", "cross-env", "--"):
        if words[0] in ("pnpm", "yarn") and len(words) > 1 and words[1] not in PARALLEL_RUNNERS and words[1] != "exec":
            return None
        words = words[1:]
    if not words or PurePosixPath(words[0]).name not in PARALLEL_RUNNERS:
        return None
    prog, args = PurePosixPath(words[0]).name, words[1:]
    if prog != "concurrently":  # npm-run-all: script names, -p/--parallel/-s/--sequential flags
        return [("", f"npm run {a}") for a in args if not a.startswith("-")]
    names: list[str] = []
    commands: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--names=") or (a in ("-n", "--names") and i + 1 < len(args)):
            value = a.split("=", 1)[1] if "=" in a else args[i + 1]
            names = [n.strip() for n in value.split(",")]
            i += 1 if "=" in a else 2
            continue
        if a in CONCURRENTLY_VALUE_OPTIONS:
            i += 2
            continue
        if not a.startswith("-"):
            m = re.match(r"^(npm|yarn|pnpm|bun):(.+)$", a)
            commands.append(f"npm run {m.group(2)}" if m else a)
        i += 1
    return [(names[k] if k < len(names) else "", c) for k, c in enumerate(commands)]


def python_module_file(files: set[str], module: str, bases: Iterable[str], as_main: bool) -> str | None:
    """The file ``python -m module`` (``as_main``) or an import of ``module`` runs, below one of `bases`."""
    parts = [p for p in module.split(".") if p]
    if not parts or not all(re.match(r"^[A-Za-z_]\w*$", p) for p in parts):
        return None
    rel = "/".join(parts)
    for base in bases:
        stem = f"{base}/{rel}" if base else rel
        cands = ([f"{stem}/__main__.py", f"{stem}.py", f"{stem}/__init__.py"] if as_main
                 else [f"{stem}.py", f"{stem}/__init__.py"])
        for c in cands:
            if c in files:
                return c
    return None


def js_source_file(files: set[str], base: str, target: str) -> str | None:
    """The source file a runtime path names: itself, or its TypeScript source when the path is build
    output that is not committed (``dist/server.js`` -> ``src/server.ts``)."""
    rel = norm_path(f"{base}/{target}" if base else target)
    stem = re.sub(r"\.(m|c)?[jt]sx?$", "", rel)
    cands = [rel, *(stem + ext for ext in JS_EXTENSIONS), *(f"{stem}/index{ext}" for ext in JS_EXTENSIONS)]
    inner = stem[len(base) + 1:] if base and stem.startswith(base + "/") else stem
    head, _, tail = inner.partition("/")
    if head in BUILD_DIRS and tail:
        for src in ("src", ""):
            s = "/".join(p for p in (base, src, tail) if p)
            cands.extend(s + ext for ext in JS_EXTENSIONS)
            cands.extend(f"{s}/index{ext}" for ext in JS_EXTENSIONS)
    for c in cands:
        if c in files:
            return c
    return None


# Web frameworks whose own command line serves the app of the folder it runs in (`next start`), and the
# files that stand for that app (its configuration, else its root page or layout).
FRAMEWORK_SERVERS: dict[str, tuple[str, ...]] = {
    "next": ("next.config.js", "next.config.mjs", "next.config.ts", "pages/_app.tsx", "pages/_app.jsx",
             "pages/_app.js", "src/pages/_app.tsx", "app/layout.tsx", "src/app/layout.tsx"),
    "nuxt": ("nuxt.config.ts", "nuxt.config.js", "app.vue"),
    "remix-serve": ("remix.config.js", "app/root.tsx"),
}


def framework_entry(files: set[str], base: str, command: str) -> str | None:
    """The file standing for the app a framework's server command serves from `base` (None: not one)."""
    for name in FRAMEWORK_SERVERS.get(command, ()):
        candidate = f"{base}/{name}" if base else name
        if candidate in files:
            return candidate
    return None


def is_tool_entry(path: str) -> bool:
    parts = [p.lower() for p in PurePosixPath(path).parts]
    return PurePosixPath(path).name.lower() in TOOL_FILES or any(p in TOOL_PARTS for p in parts[:-1]) \
        or bool(re.search(r"(^|[._-])(test|tests|spec|setup|migrate|seed)([._-]|$)", PurePosixPath(path).stem.lower()))


def find_programs(repo: str, files: set[str], facts: dict[str, list[Fact]], script_main: set[str]) -> list[ScriptProgram]:
    """The programs of one repository's Python and JavaScript code, one per entry file (the several
    ways one entry is declared merged: ``shop-api`` and ``python -m shop.api.app``)."""
    found: list[ScriptProgram] = []
    py_bases = sorted({""} | {d for d in (folder(p) for p in files) if PurePosixPath(d).name in ("src", "lib")},
                      key=lambda d: (d.count("/"), d))
    commands: dict[str, ScriptProgram] = {}  # installed command -> its program
    npm_scripts: dict[tuple[str, str], Fact] = {}
    for f in facts.get("program.entry", []):
        if f.repository != repo:
            continue
        target, name = f.get("target") or "", f.get("name") or ""
        base = folder(f.path)
        if f.get("source") == "bin":
            entry = js_source_file(files, base, target)
        else:
            module = target.split(":")[0]
            entry = python_module_file(files, module, [base, *(f"{b}/{base}".strip("/") for b in py_bases), *py_bases],
                                       as_main=False)
        if entry is None:
            continue
        p = ScriptProgram(name=name, entry=entry, evidence=[f.evidence], source=f.get("source") or "",
                          spawn_names={name, target.split(":")[0]})
        commands[name] = p
        found.append(p)
    for f in facts.get("program.command", []):
        if f.repository == repo and f.get("source") == "npm-script":
            npm_scripts[(folder(f.path), f.get("owner") or "")] = f
    # (fact, owner, base folder, launch, source, started beside others by a parallel runner)
    launches: list[tuple[Fact, str, str, Launch, str, bool]] = []
    dirs = {str(parent) for p in files for parent in PurePosixPath(p).parents if str(parent) != "."}
    packages = {f.get("name") or "": folder(f.path) for f in facts.get("manifest", [])
                if f.repository == repo and f.get("ecosystem") == "npm" and f.get("name")}

    def expand(f: Fact, command: str, owner: str, base: str, inner: bool, depth: int, source: str,
               parallel_run: bool = False) -> None:
        """Collect what `command` starts, run in `base`: through ``cd``, parallel runners and package
        scripts it names (`inner`: only files and further scripts, as a script another one names)."""
        for words in split_command(command):
            if len(words) == 2 and words[0] == "cd":
                if words[1].startswith("/"):  # a folder inside the image: the repository folder it ends in
                    tail = [p for p in words[1].split("/") if p]
                    base = next(("/".join(tail[k:]) for k in range(len(tail)) if "/".join(tail[k:]) in dirs), base)
                elif not words[1].startswith(("~", "$")):
                    base = norm_path(f"{base}/{words[1]}" if base else words[1]).strip("/")
                    base = "" if base == "." else base
                continue
            parallel = parallel_commands(words)
            if parallel is not None:
                if depth < 3:
                    for name, line in parallel:  # each named by --names, else by the script it runs
                        # a --names entry names a program as a script does ("web" is the package itself)
                        expand(f, line, name or (owner if len(parallel) == 1 else ""), base, inner, depth + 1,
                               "npm-script" if name else source, len(parallel) > 1)
                continue
            selected = workspace_script(words)
            here, named_by = base, owner
            if selected is not None:  # a workspace package's script: the program is named by its package
                at = packages.get(selected[0])
                if at is None:
                    continue
                here, named_by, words = at, owner or selected[0].rsplit("/", 1)[-1], ["npm", "run", selected[1]]
            launch = parse_launch(words)
            if launch is None:
                continue
            if launch.kind == "command" and launch.value.startswith("npm:"):
                if depth >= 3:
                    continue
                pattern = launch.value[4:]
                names = sorted(n for (d, n) in npm_scripts if d == here and fnmatchcase(n, pattern)) \
                    if any(c in pattern for c in "*?[") else [pattern]
                for name in names:
                    script = npm_scripts.get((here, name))
                    if script is not None and not NOT_A_PROCESS_SCRIPT.search(name):
                        # a script a parallel runner names is a process of its own, named by its script
                        expand(f, script.get("command") or "", named_by or name, folder(script.path), True, depth + 1,
                               "npm-script" if not owner or source == "dockerfile" else source,
                               parallel_run or len(names) > 1)
                continue
            if inner and launch.kind != "file" and not (launch.kind == "command"
                                                        and framework_entry(files, base, launch.value)):
                continue  # (a named script's framework server, `next start` in its package, does run)
            launches.append((f, owner, base, launch, source, parallel_run))

    for f in [*facts.get("program.command", []), *facts.get("docker.command", [])]:
        if f.repository != repo:
            continue
        owner = f.get("owner") or ""
        if f.get("source") == "npm-script" and (NOT_A_PROCESS_SCRIPT.search(owner) or f.get("when_named")):
            continue  # (a script run only where another command names it: see expand)
        base = folder(f.path)
        context = f.get("context") or ""  # a compose service runs its command in its build context
        if context and not context.startswith(("/", "http:", "https:", "git@")) and "://" not in context:
            base = norm_path(f"{base}/{context}" if base else context).strip("/")
            base = "" if base == "." else base
        expand(f, f.get("command") or "", owner, base, False, 0,
               f.get("source") or ("dockerfile" if f.kind == "docker.command" else ""))
    for f, owner, base, launch, source, parallel_run in launches:
        beside = {f.evidence} if parallel_run else set()
        entry = None
        if launch.kind == "command":
            prog = commands.get(launch.value)
            if prog is not None:
                prog.evidence.append(f.evidence)
                prog.owner = prog.owner or owner
                continue
            entry = framework_entry(files, base, launch.value)
            if entry is not None and owner:  # `next start` in packages/front-end: that app's server
                name = script_program_name(owner) if source == "npm-script" else owner
                found.append(ScriptProgram(name=name, entry=entry, evidence=[f.evidence], source=source, main=not name,
                                           launcher="server", owner=owner, spawn_names={owner}, side_by_side=beside))
            continue
        if launch.kind == "module":
            bases = [base, *(f"{base}/{b}".strip("/") for b in ("src", "app")), *py_bases]
            entry = python_module_file(files, launch.value, bases, as_main=not launch.launcher)
            if entry is None and launch.launcher and "." in launch.value:  # celery -A worker.celery: module.attribute
                entry = python_module_file(files, launch.value.rsplit(".", 1)[0], bases, as_main=False)
            if entry is not None and not launch.launcher and not entry.endswith("__main__.py") \
                    and entry not in script_main:
                entry = None
        elif launch.value.endswith((".py", ".pyw")):
            cand = norm_path(f"{base}/{launch.value}" if base and not launch.value.startswith("/") else launch.value)
            cand = cand.lstrip("/")
            entry = cand if cand in files and cand in script_main else None
            if entry is None:  # an absolute path inside the image: /app/worker.py -> worker.py below the context
                tail = launch.value.lstrip("/").split("/")
                for k in range(1, len(tail)):
                    c = "/".join(p for p in (base, *tail[k:]) if p)
                    if c in files and c in script_main:
                        entry = c
                        break
        else:
            entry = js_source_file(files, base, launch.value)
        if entry is None:
            continue
        name = owner
        if source == "npm-script":
            name = script_program_name(owner)
        elif source == "dockerfile":
            name = ""
        found.append(ScriptProgram(name=name, entry=entry, evidence=[f.evidence], main=not name,
                                   source=source, launcher=launch.launcher, owner=owner,
                                   spawn_names={launch.value, PurePosixPath(launch.value).name}, side_by_side=beside))
    by_entry: dict[str, ScriptProgram] = {}
    rank = {"console_scripts": 0, "bin": 0, "procfile": 1, "compose": 1, "makefile": 1, "pm2": 1, "npm-script": 2,
            "dockerfile": 3}
    for p in sorted(found, key=lambda p: (p.entry, rank.get(p.source, 9), p.name)):
        if is_tool_entry(p.entry):
            continue
        if p.entry in by_entry:
            keep = by_entry[p.entry]
            keep.evidence.extend(p.evidence)
            keep.spawn_names |= p.spawn_names
            keep.launcher = keep.launcher or p.launcher
            keep.owner = keep.owner or p.owner
            keep.name = keep.name or p.name
            keep.main = keep.main or (p.main and not keep.name)  # a process manager's name outranks a start script
            keep.side_by_side |= p.side_by_side
        else:
            by_entry[p.entry] = p
    for p in by_entry.values():
        p.evidence = sorted(set(p.evidence))
        p.spawn_names |= {p.entry, PurePosixPath(p.entry).name}
        if p.entry.endswith(".py"):
            mod = p.entry[:-3].replace("/", ".")
            p.spawn_names |= {mod, mod.removesuffix(".__main__")}
        p.spawn_names.discard("")
    return [by_entry[k] for k in sorted(by_entry)]


def file_graph(repo: str, files: set[str], imports: Iterable[Fact], module_vars: Iterable[Fact]) -> dict[str, set[str]]:
    """File -> files of the repository it imports (Python modules, JavaScript relative paths)."""
    g: dict[str, set[str]] = defaultdict(set)
    dirs = {folder(p) for p in files}
    found: dict[tuple[str, str, str | None], list[str]] = {}  # the answer depends on the importer's folder only
    for f in [*imports, *module_vars]:
        if f.repository != repo or f.path not in files:
            continue
        module = f.get("module") or ""
        if f.path.endswith((".py", ".pyw")):
            name = f.get("name") if f.kind == "module.var" else None
            key = (folder(f.path), module, name)
            if key not in found:
                found[key] = python_import_files(files, dirs, f.path, module, name)
            targets = found[key]
        else:
            t = js_source_file(files, folder(f.path), module) if module.startswith(".") else None
            targets = [t] if t else []
        for t in targets:
            if t != f.path:
                g[f.path].add(t)
    return g


def python_import_files(files: set[str], dirs: set[str], path: str, module: str, name: str | None) -> list[str]:
    """The files an import in `path` names: ``module`` (``a.b`` -> ``a/b.py``), and ``module/name.py``
    for ``from module import name``."""
    if module.startswith("."):
        dots = len(module) - len(module.lstrip("."))
        base = folder(path)
        for _ in range(dots - 1):
            base = folder(base)
        parts = [p for p in module.lstrip(".").split(".") if p]
        bases = [base]
    else:
        parts = [p for p in module.split(".") if p]
        bases, base = [], folder(path)
        while True:  # the nearest ancestor folder the first part is found in (src layouts, scripts beside helpers)
            head = f"{base}/{parts[0]}" if base and parts else (parts[0] if parts else "")
            if head and (head in dirs or f"{head}.py" in files):
                bases = [base]
                break
            if not base:
                break
            base = folder(base)
    out = []
    for b in bases:
        stem = "/".join(p for p in (b, *parts) if p)
        for c in (f"{stem}.py", f"{stem}/__init__.py"):
            if c in files:
                out.append(c)
                break
        if name:
            sub = f"{stem}/{name}.py" if stem else f"{name}.py"
            if sub in files:
                out.append(sub)
    return out


def template_programs(template: str, here: str, programs: set[str]) -> list[str]:
    """The `programs` (Python files with a main guard) a spawned path built from names fits: ``f"service/{name}/main.py"``
    (read without its quotes) fits ``service/thumbnail/main.py`` and ``service/exif/main.py``, relative to the
    repository or to `here`, the spawning file's folder.  A pattern of placeholders alone, or with no ``.py`` file at
    its end, fits nothing."""
    text = template.strip().removeprefix("./")
    if not text.endswith(".py") or not re.sub(r"\{[^{}]*\}", "", text).strip("/. "):
        return []
    fits = re.compile("".join("[^/]+" if re.fullmatch(r"\{[^{}]*\}", part) else re.escape(part)
                              for part in re.split(r"(\{[^{}]*\})", text)))
    return sorted(p for p in programs if fits.fullmatch(p) or (here and p.startswith(here + "/")
                                                                and fits.fullmatch(p[len(here) + 1:])))


def spawned_programs(repo: str, files: set[str], spawns: Iterable[Fact], script_main: set[str],
                     known: set[str]) -> list[ScriptProgram]:
    """Modules and files another program starts (``subprocess.Popen([sys.executable, "-m", "pkg.runner"])``,
    ``fork("./worker.js")``) that no manifest or deployment declares: programs too."""
    out: dict[str, ScriptProgram] = {}
    py_bases = sorted({""} | {d for d in (folder(p) for p in files) if PurePosixPath(d).name in ("src", "lib")},
                      key=lambda d: (d.count("/"), d))
    for f in spawns:
        if f.repository != repo or f.path not in files:
            continue
        arg = f.get("arg") or ""
        entry = None
        if f.get("template") and f.path.endswith((".py", ".pyw")):
            # f"service/{service}/main.py": every program file the pattern fits (service/thumbnail/main.py...)
            for entry in template_programs(f.get("template") or "", folder(f.path), script_main & files):
                if entry not in known and entry != f.path and not is_tool_entry(entry):
                    p = out.setdefault(entry, ScriptProgram(name="", entry=entry, evidence=[], source="spawn"))
                    p.evidence.append(f.evidence)
            continue
        if f.path.endswith((".py", ".pyw")):
            if re.match(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$", arg):
                entry = python_module_file(files, arg, py_bases, as_main=True)
            elif arg.endswith(".py"):
                cand = norm_path(f"{folder(f.path)}/{arg}")
                entry = cand if cand in files else (arg if arg in files else None)
            if entry is not None and not entry.endswith("__main__.py") and entry not in script_main:
                entry = None
        elif re.search(r"\.(m|c)?[jt]sx?$", arg):
            entry = js_source_file(files, folder(f.path), arg)
            base = folder(f.path)
            while entry is None and base:  # relative to the package root: "dist/runner.js"
                base = folder(base)
                entry = js_source_file(files, base, arg)
        if entry is None or entry in known or entry == f.path or is_tool_entry(entry):
            continue
        p = out.setdefault(entry, ScriptProgram(name="", entry=entry, evidence=[], source="spawn"))
        p.evidence.append(f.evidence)
        p.spawn_names.add(arg)
    for p in out.values():
        p.evidence = sorted(set(p.evidence))
        stem = PurePosixPath(p.entry).stem
        p.name = PurePosixPath(p.entry).parent.name if stem in ("__main__", "index", "main") else stem
        p.spawn_names |= {p.entry, PurePosixPath(p.entry).name}
    return [out[k] for k in sorted(out)]
