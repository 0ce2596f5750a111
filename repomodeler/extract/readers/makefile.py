"""Makefiles: recipes that start programs."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._docker_build import DOCKER_BUILD, command_image
from repomodeler.extract.readers.compose_launch import makefile_launches
from repomodeler.records import Fact


# A recipe command that starts one program: python services/movies.py, python -m shop.worker,
# node server.js, go run ./cmd/api (after `. venv/bin/activate;`, before a trailing `&`).
_MAKE_RUN = re.compile(r"^(?:python[0-9.]*|node|go\s+run|ts-node|tsx|bun|deno\s+run)\s+\S")
# `go build`/`go run` flags followed by a value (`-o main`, `-ldflags "..."`), not a package path.
GO_FLAGS_WITH_VALUE = frozenset({"-o", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-p", "-modfile",
                                 "-pkgdir", "-exec", "-C", "-buildmode"})
# A recipe building Go code as a plugin or shared library (go build -buildmode=plugin -o x.so ./plugins/x).
GO_SHARED_BUILD = re.compile(r"\bgo\s+build\b[^;&|]*-buildmode[= ]\s*(?:plugin|c-shared)\b")


def read_makefile(repo: str, path: str, text: str) -> list[Fact]:
    """Makefile recipes that start programs (``launch:`` running ``python services/movies.py &`` for
    each service): one ``program.command`` a program, named by the file or module it runs.  Recipes
    building Go code as a plugin (``go build -buildmode=plugin``) are ``program.plugin_build``: what they
    build is loaded by a program, not run (graph/go_plugins.py); one building a program
    (``go build -o bin/api-server ./cmd/api``) is ``program.build``: the binary's name for that package.  A start target's ``docker compose -f
    ... up`` names the compose files the system runs with (``compose.launch``, see
    :mod:`.compose_launch`); a ``docker build --tag IMAGE`` recipe, the image a folder's code is built into
    (``manifest.image``, as a workflow's, :mod:`.workflows`)."""
    facts = makefile_launches(repo, path, text.splitlines())
    target = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^([A-Za-z0-9_.\-]+)\s*:(?!=)", raw)
        if m:
            target = m.group(1)
            continue
        if raw.startswith("\t") and (d := DOCKER_BUILD.search(raw)) is not None \
                and (built := command_image(d.group(1))) is not None:
            # `docker build --tag attendize_web --target web .`: the image a recipe tags holds the folder's code
            facts.append(fact("manifest.image", repo, path, i, ecosystem="docker", image=built[0], module=built[1],
                              tool="makefile"))
        if raw.startswith("\t") and GO_SHARED_BUILD.search(raw):
            facts.append(fact("program.plugin_build", repo, path, i, command=raw.strip()[:500]))
        elif raw.startswith("\t") and re.search(r"\bgo\s+build\b", raw):
            # `go build -o bin/keda-adapter cmd/adapter/main.go`: the name the program's images start it by
            from repomodeler.extract.readers.dockerfile import go_builds  # (it reads the Go flags named here)
            for binary, code in go_builds(raw.strip().lstrip("@-"), path):
                facts.append(fact("program.build", repo, path, i, binary=binary, code=code, source="makefile"))
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
            facts.append(fact("program.command", repo, path, i, owner=name or target, command=command[:500],
                               source="makefile"))
    return facts


READERS = (
    Reader("makefile", "descriptor", 220, read_makefile, names=frozenset({"Makefile", "makefile", "GNUmakefile"}),
           line_based=True),
)
