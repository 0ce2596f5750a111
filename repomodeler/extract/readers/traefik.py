"""Traefik's dynamic configuration (its file provider: ``http.services.<name>.loadBalancer.servers``): the
servers of each service are where the proxy forwards the routers naming it, as ``proxy.route`` facts.

Why: a Traefik run by compose or by a chart often takes its routing table from a file it is handed (mounted
from ``traefik/dynamic.yml``, or a ConfigMap key holding it) rather than from container labels; the services
it names (``url: "http://backend"``, a TCP service's ``address: "db:5432"``) are the backends people reach
through it, with the routers' path rules as evidence.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact

# `PathPrefix(`/api`)`, `Path("/blob")`: the first path a router's rule matches
_RULE_PATH = re.compile(r"Path(?:Prefix)?\(\s*[`\"']([^`\"']+)[`\"']")


def is_traefik_dynamic(text: str) -> bool:
    """Does the text look like Traefik's dynamic configuration (routers and load-balanced services)?"""
    return bool(re.search(r"^\s*(http|tcp):\s*$", text, re.M)) and "loadBalancer" in text and "servers" in text


def traefik_routes(repo: str, path: str, text: str, first_line: int = 1) -> list[Fact]:
    """The servers of each HTTP and TCP service; `first_line` is the file line of the text's first line
    (the text may be a ConfigMap value inside a manifest)."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for protocol, key in (("http", "url"), ("tcp", "address")):
            section = get(doc, protocol)
            locations: dict[str, str] = {}
            for _name, router in items(get(section, "routers")):
                service = scalar(get(router, "service")) or ""
                m = _RULE_PATH.search(scalar(get(router, "rule")) or "")
                if service and m and service not in locations:
                    locations[service] = m.group(1)
            for name, service in items(get(section, "services")):
                for server in seq(get(get(service, "loadBalancer"), "servers")):
                    node = get(server, key)
                    upstream = scalar(node)
                    if not upstream:
                        continue
                    if protocol == "tcp" and "://" not in upstream:
                        upstream = f"tcp://{upstream}"
                    facts.append(fact("proxy.route", repo, path, first_line - 1 + node_line(node), upstream=upstream,
                                      location=locations.get(name.value, ""), via=f"traefik service {name.value}",
                                      software="traefik"))
    return facts


def read_traefik(repo: str, path: str, text: str) -> list[Fact]:
    return traefik_routes(repo, path, text)


READERS = (
    # (a file in a folder named for Traefik, traefik/dynamic.yml, or named for it, traefik-dynamic.yaml; and a
    # file provider's customary names, dynamic.yml, dynamic_conf.yml, when it holds load-balanced services)
    Reader("traefik", "proxy", 120, read_traefik,
           patterns=(r"traefik[^/]*/(?:[^/]+/)*[^/]*\.ya?ml", r"[^/]*traefik[^/]*\.ya?ml", r"dynamic(?:[-_]conf(?:ig)?)?\.ya?ml"),
           sniff=lambda path, head: is_traefik_dynamic(head)),
)
