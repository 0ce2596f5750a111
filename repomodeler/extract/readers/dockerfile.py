"""Dockerfiles: base images, exposed ports, commands, the image's environment and the build artifacts it runs."""

from __future__ import annotations

import json
import re
from typing import Iterator

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.makefile import GO_SHARED_BUILD
from repomodeler.records import Fact

_ARTIFACT = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*?)(?:-\d[A-Za-z0-9_.-]*)?\.(?:jar|war|ear)\b")


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
    for i, line in _instructions(text):
        m = re.match(r"(?i)^(FROM|EXPOSE|ENTRYPOINT|CMD|ADD|COPY|ENV|ARG|RUN)\s+(.*)$", line)
        if not m:
            continue
        instr, arg = m.group(1).upper(), m.group(2).strip()
        if instr in ("ENV", "ARG"):
            pairs = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)", arg)
            if not pairs and instr == "ENV" and len(arg.split(None, 1)) == 2:
                pairs = [tuple(arg.split(None, 1))]
            for k, v in pairs:
                env[k] = v.strip().strip("'\"")
                if instr == "ENV":  # the image's environment: a deployment default the container starts with
                    facts.append(fact("config.env", repo, path, i, owner="", name=k, value=env[k], source="dockerfile"))
            continue
        if instr == "FROM":
            facts.append(fact("docker.from", repo, path, i, image=arg.split()[0]))
        elif instr == "EXPOSE":
            for port in arg.split():
                facts.append(fact("docker.expose", repo, path, i, port=_substitute(port, env).split("/")[0]))
        elif instr in ("ENTRYPOINT", "CMD"):
            facts.append(fact("docker.command", repo, path, i, instruction=instr, command=arg[:500]))
        elif instr == "RUN" and GO_SHARED_BUILD.search(arg):  # go build -buildmode=plugin: code the program loads
            facts.append(fact("program.plugin_build", repo, path, i, command=arg[:500]))
        if instr in ("ADD", "COPY"):  # what the build context puts in the image (not another stage's files)
            words = _copy_words(_substitute(arg, env))
            if words is not None and len(words) >= 2:
                facts.append(fact("docker.copy", repo, path, i, sources=",".join(words[:-1]), target=words[-1]))
        if instr in ("ADD", "COPY", "ENTRYPOINT", "CMD"):
            for name in sorted(set(_ARTIFACT.findall(_substitute(arg, env)[:2000]))):
                if "$" not in name and "*" not in name and name.lower() not in ("app", "application", "target"):
                    facts.append(fact("docker.artifact", repo, path, i, name=name))
    return facts


def _copy_words(arg: str) -> list[str] | None:
    """COPY's sources and destination (flags dropped; JSON form too), None when it copies from another
    build stage or image (``--from=build``): those files are not the build context's."""
    if arg.startswith("["):
        try:
            words = [str(w) for w in json.loads(arg)]
        except ValueError:
            return None
    else:
        words = arg.split()
    if any(w.startswith("--from") for w in words):
        return None
    return [w for w in words if not w.startswith("--")]


READERS = (
    Reader("dockerfile", "descriptor", 100, read_dockerfile, patterns=(r"Dockerfile[^/]*", r"[^/]*\.[Dd]ockerfile"),
           line_based=True,
           shadows=("dotenv", "procfile", "spring.name", "helm.template", "helm.values", "beats", "prometheus",
                    "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
