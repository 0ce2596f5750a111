"""Grafana datasource provisioning: Grafana queries each datasource URL."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


_DATASOURCES_HINT = re.compile(r"^datasources\s*:", re.M)


def read_grafana_datasources(repo: str, path: str, text: str) -> list[Fact]:
    """Grafana datasource provisioning: Grafana queries each datasource URL."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for ds in seq(get(doc, "datasources")):
            url = get(ds, "url")
            if scalar(url):
                facts.append(fact("monitoring.target", repo, path, node_line(url), value=scalar(url),
                                   via=f"grafana datasource {scalar(get(ds, 'type')) or ''}".strip()))
    return facts


READERS = (
    Reader("grafana", "descriptor", 420, read_grafana_datasources, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: bool(_DATASOURCES_HINT.search(head)),
           shadows=("compose", "kubernetes", "spring.content")),
)
