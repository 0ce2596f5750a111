"""The Azure Developer CLI's project file (``azure.yaml``): the services ``azd deploy`` builds and ships.

Why: it is not a compose file, though it has ``services:``. Each service names the folder of its code
(``project: ./src/api``), the language and where it is hosted (``host: appservice``, ``containerapp``,
``function``, ``staticwebapp``, ``aks``), and optionally its Dockerfile (``docker: {path: ...}``). Read as
compose services that tie each deployed name to its code, with the host kept as the deployment; the
infrastructure (Bicep, Terraform under ``infra/``) is read by the IaC readers.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar
from repomodeler.records import Fact


def read_azd(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    folder = str(PurePosixPath(path).parent)
    folder = "" if folder == "." else folder
    for doc in load_yaml_documents(text):
        for name_node, svc in items(get(doc, "services")):
            name = scalar(name_node)
            project = (scalar(get(svc, "project")) or "").strip()
            if not name or not project:
                continue
            context = project.rstrip("/") or "."
            docker = get(svc, "docker")
            dockerfile = scalar(get(docker, "path")) if docker is not None else None
            facts.append(fact("compose.service", repo, path, node_line(name_node), name=name,
                              image=scalar(get(docker, "image")) if docker is not None else None,
                              build_context=context, dockerfile=dockerfile or None, compose_dir=folder,
                              source="azd", host=scalar(get(svc, "host")) or ""))
    return facts


def _is_azd(path: str, head: str) -> bool:
    return "services:" in head


READERS = (
    Reader("azd", "descriptor", 428, read_azd, patterns=(r"azure\.ya?ml",), sniff=_is_azd,
           shadows=("compose", "kubernetes", "spring.content")),
)
