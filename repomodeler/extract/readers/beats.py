"""Filebeat/Metricbeat configuration: where the beat ships what it collects."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import flatten_yaml, load_yaml_documents
from repomodeler.records import Fact


def read_beats(repo: str, path: str, text: str) -> list[Fact]:
    """Filebeat/Metricbeat ``output.logstash.hosts`` / ``output.elasticsearch.hosts``: where it ships."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        entries: list[tuple[str, str, int]] = []
        flatten_yaml(doc, "", entries)
        for key, value, line in entries:
            m = re.match(r"^output\.(logstash|elasticsearch|kafka|redis)\.hosts(\[\d+\])?$", key)
            if m and value:
                facts.append(fact("monitoring.target", repo, path, line,
                                   value=value if "://" in value else f"tcp://{value}", via=f"log shipping ({m.group(1)})"))
    return facts


READERS = (
    Reader("beats", "descriptor", 350, read_beats, patterns=(r"(?:file|metric|packet|heart)beat[^/]*\.ya?ml",),
           shadows=("prometheus", "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
