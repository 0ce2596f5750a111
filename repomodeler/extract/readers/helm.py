"""Helm charts: values files are read as flattened settings owned by the chart's component; the
templates are Go templates, not YAML until rendered, so they are claimed and left unread."""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader
from repomodeler.extract.readers.spring import read_spring_config


READERS = (
    # A Helm/Go template ({{ }} in its first 4096 characters) below a templates/ folder: no YAML
    # reader of the family may read it (its values.yaml is read instead).
    Reader("helm.template", "descriptor", 300, None, patterns=(r"templates/(?:[^/]*/)*[^/]*\.ya?ml",),
           sniff=lambda path, head: "{{" in head, ignore_case=False,
           shadows=("helm.values", "beats", "kubernetes.kustomization", "prometheus", "otel_collector", "grafana",
                    "compose", "kubernetes", "spring.content")),
    Reader("helm.values", "descriptor", 310, read_spring_config, patterns=(r"values[^/]*\.ya?ml",), line_based=True,
           shadows=("prometheus", "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
