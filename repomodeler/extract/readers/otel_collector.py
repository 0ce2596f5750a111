"""OpenTelemetry collector configuration: the backends its exporters ship telemetry to."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


_OTEL_COLLECTOR_HINT = re.compile(r"^receivers\s*:", re.M)


def read_otel_collector(repo: str, path: str, text: str) -> list[Fact]:
    """An OpenTelemetry collector's configuration: each exporter ships telemetry to its ``endpoint``
    (``otlp/jaeger: endpoint: http://jaeger:4317``), the backends the collector writes to.  Only
    exporters a pipeline of ``service.pipelines`` uses, when the file declares pipelines."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        used: set[str] | None = None
        pipelines = get(get(doc, "service"), "pipelines")
        if pipelines is not None:
            used = {scalar(e) or "" for _k, p in items(pipelines) for e in seq(get(p, "exporters"))}
        for k, exporter in items(get(doc, "exporters")):
            name = str(k.value)
            if used is not None and name not in used:
                continue
            for field_name in ("endpoint", "url"):
                value = scalar(get(exporter, field_name))
                if value and not value.startswith(("0.0.0.0", "localhost", "127.")):
                    facts.append(fact("monitoring.target", repo, path, node_line(get(exporter, field_name)),
                                       value=value if "://" in value else f"tcp://{value}",
                                       via=f"OpenTelemetry collector exporter {name}"))
    return facts


READERS = (
    Reader("otel_collector", "descriptor", 410, read_otel_collector, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: bool(_OTEL_COLLECTOR_HINT.search(head)),
           shadows=("grafana", "compose", "kubernetes", "spring.content")),
)
