"""Kong's declarative configuration (DB-less mode: ``kong.yml`` with ``_format_version``): each service's
upstream is where the gateway forwards its routes, as ``proxy.route`` facts.

Why: Kong in DB-less mode reads its whole routing table from this file (or from a ConfigMap key holding it, as
charts mount it); the services it names (``host: api``/``port: 8000`` or ``url: http://api:8000``) are the
backends people reach through the gateway, with the routes' paths as evidence.
"""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


def is_kong_declarative(text: str) -> bool:
    return "_format_version" in text[:4096] and "services:" in text


def kong_routes(repo: str, path: str, text: str, first_line: int = 1, configmap: str = "") -> list[Fact]:
    """The upstream of each service of a declarative configuration; `first_line` is the file line of the
    text's first line (the text may be a ConfigMap value inside a manifest, `configmap`: then the gateway is
    the workload mounting that ConfigMap)."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        if scalar(get(doc, "_format_version")) is None:
            continue
        for service in seq(get(doc, "services")):
            name = scalar(get(service, "name")) or ""
            url, host = scalar(get(service, "url")), scalar(get(service, "host"))
            if url:
                upstream = url
            elif host:
                port = scalar(get(service, "port"))
                upstream = f"{scalar(get(service, 'protocol')) or 'http'}://{host}{':' + port if port else ''}"
            else:
                continue
            paths = sorted({p for r in seq(get(service, "routes")) for p in (scalar(x) for x in seq(get(r, "paths"))) if p})
            line = first_line - 1 + node_line(get(service, "url") or get(service, "host") or service)
            facts.append(fact("proxy.route", repo, path, line, upstream=upstream, location=paths[0] if paths else "",
                              via=f"kong service {name}".strip(), software="kong", configmap=configmap))
    return facts


def read_kong(repo: str, path: str, text: str) -> list[Fact]:
    return kong_routes(repo, path, text)


READERS = (
    Reader("kong", "proxy", 110, read_kong, patterns=(r"kong[^/]*\.ya?ml",),
           sniff=lambda path, head: is_kong_declarative(head)),
)
