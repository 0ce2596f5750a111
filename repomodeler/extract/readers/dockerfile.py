"""Dockerfiles: base images, exposed ports, commands, the image's environment and the build artifacts it runs."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import PurePosixPath
from typing import Iterator

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.makefile import GO_FLAGS_WITH_VALUE, GO_SHARED_BUILD
from repomodeler.paths import RECIPE_FILE_NAMES, norm_path
from repomodeler.records import Fact

_ARTIFACT = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*?)(?:-\d[A-Za-z0-9_.-]*)?\.(?:jar|war|ear)\b")


# A RUN command that first changes into a folder and builds there (`cd webapi && dotnet publish`).
_RUN_CD = re.compile(r"^\s*cd\s+['\"]?([A-Za-z0-9_./-]+)['\"]?\s*(?:&&|;)")


def _substitute(text: str, env: dict[str, str]) -> str:
    """Expand ``$NAME`` and ``${NAME}`` with the Dockerfile's own ENV/ARG values (others stay as written)."""
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), m.group(0)), text)


def _instructions(text: str) -> Iterator[tuple[int, str]]:
    """Dockerfile instructions with backslash continuations joined, each with its first line number."""
    start, parts = 0, []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not parts:
            if not line or line.startswith("#"):
                continue
            start = i
        elif line.startswith("#"):
            continue
        if line.endswith("\\"):
            parts.append(line[:-1].strip())
            continue
        parts.append(line)
        yield start, " ".join(p for p in parts if p)
        parts = []
    if parts:
        yield start, " ".join(p for p in parts if p)


def read_dockerfile(repo: str, path: str, text: str) -> list[Fact]:
    """FROM, EXPOSE, ENTRYPOINT/CMD, and the build artifacts the image runs or copies in
    (``ADD ${APP}-1.0.jar /app/``, ``CMD java -jar target/orders-0.1.jar``): the artifact name is how
    an alternative recipe or a deployment that only names an image is tied to the module that builds it."""
    facts: list[Fact] = []
    env: dict[str, str] = {}
    stages: list[tuple[int, str, set[str]]] = []  # (FROM line, stage key, keys of the stages it builds on)
    workdir, workdirs = "/", {}  # the current stage's working folder, and each stage's last one
    context_at: dict[str, str] = {}  # stage -> where it copied the whole build context (`COPY . /service`)
    for i, line in _instructions(text):
        m = re.match(r"(?i)^(FROM|EXPOSE|ENTRYPOINT|CMD|ADD|COPY|ENV|ARG|RUN|WORKDIR)\s+(.*)$", line)
        if not m:
            continue
        instr, arg = m.group(1).upper(), m.group(2).strip()
        if instr == "FROM":
            words = [w for w in arg.split() if not w.startswith("--")]
            named = words[2].lower() if len(words) >= 3 and words[1].lower() == "as" else ""
            base = words[0].lower() if words else ""
            keys = {k for _l, k, _n in stages}
            stages.append((i, named or str(len(stages)), {base} if base in keys else set()))
            workdir = workdirs.get(base, "/") if base in keys else "/"  # a stage built FROM another starts where it ended
        stage = stages[-1][1] if stages else "0"
        for ref in re.findall(r"(?:^|\s)--(?:from=|mount=\S*?\bfrom=)([^\s,]+)", arg) if instr in ("COPY", "ADD", "RUN") else ():
            ref = ref.lower()
            ref = stages[int(ref)][1] if ref.isdigit() and int(ref) < len(stages) else ref
            if stages and ref in {k for _l, k, _n in stages[:-1]}:
                stages[-1][2].add(ref)
                if instr in ("COPY", "ADD"):
                    # a build output taken from that stage (`COPY --from=builder /app/server/build/libs/*.jar`):
                    # the folder above the output folder is the package it built
                    for built in _built_folders(arg, workdirs.get(ref, "/")):
                        facts.append(fact("docker.workspace_target", repo, path, i, how="workdir", target=built,
                                          stage=stage, from_stage=ref))
                    # an output path a build argument writes (`COPY --from=builder /app/apps/${SCOPE}/.next/standalone`):
                    # which package it is, the argument's value says (compose `args: [SCOPE=builder]`)
                    words = [w for w in _substitute(arg, env).split() if not w.startswith("--")]
                    for src in sorted({w for w in words[:-1] if re.search(r"\$\{?[A-Za-z_]", w)}):
                        facts.append(fact("docker.workspace_target", repo, path, i, how="copy_template", target=src,
                                          stage=stage, from_stage=ref))
        if instr == "WORKDIR":
            wd = _substitute(arg.strip("'\""), env)
            workdir = norm_posix(wd if wd.startswith("/") else f"{workdir}/{wd}")
            if stages:
                workdirs[stages[-1][1]] = workdir
            if "$" not in workdir and workdir != "/":
                facts.append(fact("docker.workspace_target", repo, path, i, how="workdir", target=workdir, stage=stage))
            elif re.search(r"\$\{?[A-Za-z_]", workdir):
                # `WORKDIR /src/${service}/cmd/${cmd}`: a folder the build's arguments choose (compose `args:`)
                facts.append(fact("docker.workspace_target", repo, path, i, how="workdir_template", target=workdir,
                                  stage=stage))
            continue
        if instr == "RUN":
            for value in sorted(_workspace_targets(_substitute(arg, env))):
                facts.append(fact("docker.workspace_target", repo, path, i, how="package", target=value, stage=stage))
            # `RUN cd webapi && dotnet publish ...`: that command works in a folder of the copied context, as
            # a WORKDIR there would
            into = _RUN_CD.match(_substitute(arg, env))
            if into and "$" not in into.group(1):
                wd = into.group(1).rstrip("/")
                wd = norm_posix(wd if wd.startswith("/") else f"{workdir}/{wd}")
                if wd != "/":
                    facts.append(fact("docker.workspace_target", repo, path, i, how="workdir", target=wd, stage=stage))
        if instr in ("ENV", "ARG"):
            pairs = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)", arg)
            if not pairs and instr == "ENV" and len(arg.split(None, 1)) == 2:
                pairs = [tuple(arg.split(None, 1))]
            for k, v in pairs:
                # (`ARG DB_TYPE=sqlite` then `ENV DB_TYPE=$DB_TYPE`: the image's environment holds the argument's default)
                env[k] = _substitute(v.strip().strip("'\""), env)
                if instr == "ENV":  # the image's environment: a deployment default the container starts with
                    facts.append(fact("config.env", repo, path, i, owner="", name=k, value=env[k], source="dockerfile"))
            continue
        if instr == "FROM":
            # (`FROM --platform=$BUILDPLATFORM rust:1.80 AS builder`: the image is the first word that is no flag)
            image = next((w for w in arg.split() if not w.startswith("--")), "")
            if "$" in image and "$" not in _substitute(image, env):
                # `ARG IMAGE_HOST=python` ... `FROM ${IMAGE_HOST}:${IMAGE_LABEL}`: the image the arguments' defaults
                # name, which a build given no arguments starts from
                image = _substitute(image, env)
            if image:
                facts.append(fact("docker.from", repo, path, i, image=image))
        elif instr == "EXPOSE":
            for port in arg.split():
                facts.append(fact("docker.expose", repo, path, i, port=_substitute(port, env).split("/")[0]))
        elif instr in ("ENTRYPOINT", "CMD"):
            facts.append(fact("docker.command", repo, path, i, instruction=instr, command=arg[:500]))
        elif instr == "RUN" and GO_SHARED_BUILD.search(arg):  # go build -buildmode=plugin: code the program loads
            facts.append(fact("program.plugin_build", repo, path, i, command=arg[:500]))
        elif instr == "RUN":
            # (the working folder under the copied context: `go build` there builds that folder's package)
            root = context_at.get(stage)
            here = workdir[len(root):].strip("/") if root and (workdir == root or workdir.startswith(root.rstrip("/") + "/")) \
                else None
            for binary, code in go_builds(_substitute(arg, env), path, here):
                facts.append(fact("program.build", repo, path, i, binary=binary, code=code, source="dockerfile"))
        if instr in ("ADD", "COPY"):  # what the build context puts in the image (not another stage's files)
            words = _copy_words(_substitute(arg, env))
            if words is not None and len(words) == 2 and words[0].rstrip("/") in (".", "") and "--from" not in arg \
                    and "$" not in words[1]:
                target = words[1].rstrip("/") or "/"
                context_at[stage] = norm_posix(target if target.startswith("/") else f"{workdir}/{target}")
            if words is not None and len(words) >= 2:
                facts.append(fact("docker.copy", repo, path, i, sources=",".join(words[:-1]), target=words[-1]))
                # the folders (and files) COPY takes from the context; "." for the whole context
                for src in sorted({s.strip("/").removeprefix("./") or "." for s in words[:-1]
                                   if not any(ch in s for ch in "*?[$:")}):
                    facts.append(fact("docker.workspace_target", repo, path, i, how="copy", target=src, stage=stage))
        if instr in ("ADD", "COPY", "ENTRYPOINT", "CMD"):
            for name in sorted(set(_ARTIFACT.findall(_substitute(arg, env)[:2000]))):
                if "$" not in name and "*" not in name and name.lower() not in ("app", "application", "target"):
                    facts.append(fact("docker.artifact", repo, path, i, name=name))
    for line, key, needs in stages:  # the stages of a multi-stage build and those each builds on
        facts.append(fact("docker.stage", repo, path, line, stage=key, needs=",".join(sorted(needs))))
    return facts


def go_builds(command: str, path: str, here: str | None = None) -> list[tuple[str, str]]:
    """(binary, package folder) of each ``go build -o /usr/local/bin/openmeter-jobs ./cmd/jobs`` in a RUN
    line (cross-compiling wrappers such as ``xx-go`` and ``CGO_ENABLED=0`` prefixes included): the name a
    deployment's command starts the program by.  The package path is the recipe folder's (the build
    context copied in whole); one package, a relative path (``./cmd/jobs``, ``cmd/jobs/main.go``) and a plain
    binary name only.  Makefile recipes are read with it too.  `here`: the working folder under the copied
    context (``COPY . /service`` then ``WORKDIR /service/api/services/sales``), where a ``go build`` naming no
    package builds that folder's, its binary named after the folder unless ``-o`` names it."""
    out: list[tuple[str, str]] = []
    for part in re.split(r"&&|\|\||;", command):
        try:
            words = shlex.split(part)
        except ValueError:
            continue
        at = next((k for k, w in enumerate(words[:-1]) if re.fullmatch(r"(?:[\w.-]*-)?go", PurePosixPath(w).name)
                   and words[k + 1] == "build"), None)
        if at is None:
            continue
        rest, binary, packages, k = words[at + 2:], "", [], 0
        while k < len(rest):
            w = rest[k]
            if w.startswith("--"):
                w = w[1:]  # (Go takes --flag as -flag: `--ldflags $(LDFLAGS)`)
            if w == "-o" and k + 1 < len(rest):
                binary, k = rest[k + 1], k + 2
                continue
            if w.startswith("-o="):
                binary = w[3:]
            elif w in GO_FLAGS_WITH_VALUE:
                k += 1
            elif not w.startswith("-"):
                packages.append(w)
            k += 1
        name = PurePosixPath(binary).name if binary and not binary.endswith("/") else ""
        if not packages and here:  # (the working folder's package: `go build -ldflags ...` in api/services/sales)
            packages, name = ["./" + here], name or PurePosixPath(here).name
        # (a package by its relative folder, ./cmd/api, or by its main file, cmd/api/main.go: never an import path)
        if len(packages) != 1 or not name or "$" in name or "." in name:
            continue  # (`go build -ldflags "..."` builds the folder it runs in: no package named)
        relative = packages[0].startswith("./") or (
            packages[0].endswith(".go") and not packages[0].startswith(("/", "$", "..")))
        if not relative:
            continue
        target = packages[0][:-3].rsplit("/", 1)[0] if packages[0].endswith(".go") else packages[0]
        # (a recipe kept in a subfolder may be built from the repository's root: both readings, the graph
        # keeps the one naming a program's folder)
        for base in sorted({str(PurePosixPath(path).parent), "."}):
            code = norm_path(str(PurePosixPath(base).joinpath(target)))
            if code not in ("", ".") and (name, code) not in out:
                out.append((name, code))
    return out


# Folders a build writes its output to, under the package it builds.
_OUTPUT_DIRS = frozenset({"build", "target", "dist", "out", "bin", "lib", "libs", ".next", "publish"})


def _built_folders(arg: str, workdir: str) -> list[str]:
    """The package folders (as image paths under the stage's working folder) whose build outputs a
    ``COPY --from=stage`` takes: ``/conductor/server/build/libs/*boot*.jar`` with the stage working in
    ``/conductor`` gives ``/conductor/server``."""
    words = [w for w in arg.split() if not w.startswith("--")]
    out = []
    for src in words[:-1]:
        absolute = norm_posix(src if src.startswith("/") else f"{workdir}/{src}")
        if workdir == "/" or not absolute.startswith(workdir.rstrip("/") + "/") or "$" in absolute:
            continue
        parts = absolute.split("/")
        at = next((k for k, part in enumerate(parts) if k > workdir.count("/") and part in _OUTPUT_DIRS), None)
        if at is not None and at > workdir.rstrip("/").count("/") + 1:
            out.append("/".join(parts[:at]))
    return sorted(set(out))


def norm_posix(path: str) -> str:
    """An absolute image path with ``.``, ``..`` and doubled slashes resolved."""
    return "/" + norm_path(path)


# A workspace tool's flag that names the one package a command works on, by tool.
_PACKAGE_FLAGS = {
    "turbo": ("--filter", "-F", "--scope"),
    "pnpm": ("--filter", "-F"),
    "bun": ("--filter", "-F"),
    "npm": ("--workspace", "-w"),
    "lerna": ("--scope",),
}


def _workspace_targets(command: str) -> set[str]:
    """The packages a RUN line's workspace tools build, install or prune by name or folder
    (``turbo prune --scope=@acme/web``, ``pnpm --filter @acme/api build``, ``npm run build -w apps/api``,
    ``yarn workspace @acme/api build``, ``nx build api``): the monorepo package this stage makes.
    Selectors of several packages (globs, exclusions, changed-since ranges) name none."""
    out: set[str] = set()
    for part in re.split(r"&&|\|\||[;|]", command):
        try:
            words = shlex.split(part)
        except ValueError:
            words = part.split()
        names = [w.rsplit("/", 1)[-1].split("@")[0] for w in words[:6]]  # npx turbo@2 prune: the tool turbo
        tools = [k for k, w in enumerate(names) if w in (*_PACKAGE_FLAGS, "yarn", "nx")]
        if not tools:
            continue
        at = tools[-1] if names[tools[-1]] in ("turbo", "nx", "lerna") else tools[0]
        tool, rest = names[at], words[at + 1:]
        values: list[str] = []
        flags = _PACKAGE_FLAGS.get(tool, ())
        for k, w in enumerate(rest):
            name, eq, value = w.partition("=")
            if name in flags:
                values.append(value if eq else (rest[k + 1] if k + 1 < len(rest) else ""))
        positional = [w for k, w in enumerate(rest) if not w.startswith("-")
                      and not (k and rest[k - 1] in flags)]
        if tool == "turbo" and positional[:1] == ["prune"]:
            values += positional[1:]
        elif tool == "yarn" and len(positional) >= 2 and positional[0] == "workspace":
            values.append(positional[1])
        elif tool == "yarn" and len(positional) >= 3 and positional[:2] == ["workspaces", "focus"]:
            values += positional[2:]
        elif tool == "nx" and positional[:1] == ["run"] and len(positional) >= 2 and ":" in positional[1]:
            values.append(positional[1].split(":")[0])
        elif tool == "nx" and len(positional) >= 2 and positional[0] not in (
                "run", "run-many", "affected", "graph", "reset", "daemon", "init", "migrate", "show", "list", "exec",
                "release", "format", "format:write", "format:check", "report", "add", "generate", "g", "watch"):
            values.append(positional[1])
        for value in values:
            value = value.strip("'\"")
            if value.startswith("{") and value.endswith("}"):
                value = value[1:-1]
            value = re.sub(r"^\.\.\.\^?|\^?\.\.\.$", "", value).removeprefix("./").rstrip("/")
            if value and not value.startswith("!") and not any(ch in value for ch in "*[$"):
                out.add(value)
    return out


def _copy_words(arg: str) -> list[str] | None:
    """COPY's sources and destination (flags dropped; JSON form too), None when it copies from another
    build stage or image (``--from=build``): those files are not the build context's."""
    flags, rest = [], arg.strip()
    while rest.startswith("--"):  # `COPY --chown=node:node ["a b.md", "c"]`: flags before the JSON form
        flag, _, rest = rest.partition(" ")
        flags.append(flag)
        rest = rest.lstrip()
    if rest.startswith("["):
        try:
            words = flags + [str(w) for w in json.loads(rest)]
        except ValueError:
            return None
    else:
        words = arg.split()
    if any(w.startswith("--from") for w in words):
        return None
    return [w for w in words if not w.startswith("--")]


READERS = (
    Reader("dockerfile", "descriptor", 100, read_dockerfile, patterns=RECIPE_FILE_NAMES,
           line_based=True,
           shadows=("dotenv", "procfile", "spring.name", "helm.template", "helm.values", "beats", "prometheus",
                    "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
