"""Prometheus configuration: every static scrape target is a component Prometheus reads metrics from; every
static Alertmanager target is one it sends alerts to."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


_PROMETHEUS_HINT = re.compile(r"^scrape_configs\s*:", re.M)


def read_prometheus(repo: str, path: str, text: str) -> list[Fact]:
    """prometheus.yml: every static scrape target is a component Prometheus reads metrics from."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for job in seq(get(doc, "scrape_configs")):
            for sc in seq(get(job, "static_configs")):
                for t in seq(get(sc, "targets")):
                    value = scalar(t)
                    if value:
                        facts.append(fact("monitoring.target", repo, path, node_line(t), value=value,
                                           job=scalar(get(job, "job_name")), via="prometheus scrape"))
        # `alerting: alertmanagers: [{static_configs: [{targets: [alertmanager:9093]}]}]`: where Prometheus
        # sends the alerts its rules fire
        for manager in seq(get(get(doc, "alerting"), "alertmanagers")):
            for sc in seq(get(manager, "static_configs")):
                for t in seq(get(sc, "targets")):
                    value = scalar(t)
                    if value:
                        facts.append(fact("monitoring.target", repo, path, node_line(t), value=value,
                                           job="", via="prometheus alerts"))
    return facts


READERS = (
    Reader("prometheus", "descriptor", 400, read_prometheus, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: bool(_PROMETHEUS_HINT.search(head)),
           shadows=("otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
