"""Helm charts: values files are read as flattened settings owned by the chart's component; the
templates are Go templates, not YAML until rendered, so they are claimed and left unread here: the
chart as a whole is rendered after the per-file readers (:mod:`repomodeler.extract.helm_charts`),
which is why helper files (``templates/_helpers.tpl``) are claimed too, so the inventory lists them."""

from __future__ import annotations

from repomodeler.extract.readers._base import Reader
from repomodeler.extract.readers.spring import read_spring_config


READERS = (
    # A Helm/Go template ({{ }} in its first 4096 characters) below a templates/ folder: no YAML
    # reader of the family may read it (its values.yaml is read instead).  A .tpl there is a chart's
    # helpers when it defines some ({{ define "x" }}); a compose file's template is left to compose, and so
    # is a Jinja template there (`{% if %}`: no Go template has one), an installer's docker-compose.yml.
    Reader("helm.template", "descriptor", 300, None,
           patterns=(r"templates/(?:[^/]*/)*[^/]*\.ya?ml", r"templates/(?:[^/]*/)*[^/]*\.tpl"),
           sniff=lambda path, head: "{{" in head and "{%" not in head and (not path.endswith(".tpl") or "define" in head),
           ignore_case=False,
           shadows=("helm.values", "beats", "kubernetes.kustomization", "prometheus", "otel_collector", "grafana",
                    "compose", "compose.template", "kubernetes", "spring.content")),
    Reader("helm.values", "descriptor", 310, read_spring_config, patterns=(r"values[^/]*\.ya?ml",), line_based=True,
           shadows=("prometheus", "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
