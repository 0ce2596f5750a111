"""Project Tye's application file (``tye.yaml``): the services a developer runs together, each named and
tied to its code (a ``project:`` .csproj, or a ``dockerFile:`` with its ``dockerFileContext``), with its
environment and port bindings.

Why: like a compose file, it is where a service's deployed name meets the folder of its code; a
repository whose compose file only pulls prebuilt images (``image: ghcr.io/acme/orders:1.0``) says
which code runs under which name nowhere else. Its services are read as compose services (name,
build, ports) that tie names to code; its ``env`` entries are a developer's machine's settings
(``localhost``, ``host.docker.internal``), not the deployment's, and are not read.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


def read_tye(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    folder = str(PurePosixPath(path).parent)
    folder = "" if folder == "." else folder
    for doc in load_yaml_documents(text):
        for svc in seq(get(doc, "services")):
            name_node = get(svc, "name")
            name = scalar(name_node)
            if not name:
                continue
            project, dockerfile = scalar(get(svc, "project")), scalar(get(svc, "dockerFile"))
            context = scalar(get(svc, "dockerFileContext"))
            if project:  # the project's folder is what is built
                context = str(PurePosixPath(project).parent) if project.endswith("proj") else project
            elif dockerfile and not context:
                context = str(PurePosixPath(dockerfile).parent)
            context = context.rstrip("/") or "." if context else context
            if dockerfile and context:  # Tye names the Dockerfile from its own folder, compose from the context
                try:
                    dockerfile = str(PurePosixPath(dockerfile).relative_to(PurePosixPath(context)))
                except ValueError:
                    pass
            ports: list[str] = []
            for binding in seq(get(svc, "bindings")):
                port, inner = scalar(get(binding, "port")), scalar(get(binding, "containerPort"))
                if port and inner:
                    ports.append(f"{port}:{inner}")
                elif port:
                    ports.append(f"{port}:{port}")
            facts.append(fact("compose.service", repo, path, node_line(name_node), name=name,
                              image=scalar(get(svc, "image")), build_context=context, dockerfile=dockerfile,
                              compose_dir=folder, ports=",".join(ports), source="tye"))
    return facts


READERS = (
    Reader("tye", "descriptor", 429, read_tye, patterns=(r"tye\.ya?ml",), shadows=("compose", "kubernetes")),
)
