"""Prometheus configuration: every static scrape target is a component Prometheus reads metrics from; every
static Alertmanager target is one it sends alerts to.

Targets kept in files of their own (``file_sd_configs: [{files: ['/etc/prometheus/*_targets.yml']}]``, each
file a list of ``{targets: [...], labels: {...}}``) are read too: the configuration's patterns as
``monitoring.sd_files``, the files' targets as ``monitoring.sd_target``; the graph
(:mod:`repomodeler.graph.file_sd`) takes the targets of the files a pattern names."""

from __future__ import annotations

import re
from dataclasses import replace

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


_PROMETHEUS_HINT = re.compile(r"^scrape_configs\s*:", re.M)
# a file of scrape targets for file-based discovery: a top-level list of `- targets:` / `- labels:` entries
# (each blank or comment line before it matches in one way only: `\s*` there, able to take a line's
# newline too, made a file opening with a few dozen blank lines take hours to rule out)
_TARGETS_HINT = re.compile(r"\A(?:[ \t]*(?:(?:#|---)[^\n]*)?\n)*- (?:targets|labels)\s*:", re.M)


# A relabelling keeping only the objects whose annotation asks to be scraped (the example configurations'
# `kubernetes-service-endpoints` and `kubernetes-pods` jobs): group 1 is the object's kind.
_SCRAPE_ANNOTATION = re.compile(r"^__meta_kubernetes_(service|pod)_annotation_prometheus_io_scrape$")


def is_prometheus_config(text: str) -> bool:
    """Is a text (a ConfigMap's value) a Prometheus configuration?"""
    return bool(_PROMETHEUS_HINT.search(text))


def prometheus_facts(repo: str, path: str, text: str, first_line: int = 1, configmap: str = "") -> list[Fact]:
    """The facts of a Prometheus configuration kept as a ConfigMap's value inside a manifest: lines counted
    from the value's first line, each fact naming the ConfigMap (its Prometheus is the workload mounting it)."""
    return [replace(f, line=f.line + first_line - 1, attrs=tuple(sorted({**dict(f.attrs), "configmap": configmap}.items())))
            for f in read_prometheus(repo, path, text)]


def read_prometheus(repo: str, path: str, text: str) -> list[Fact]:
    """prometheus.yml: every static scrape target is a component Prometheus reads metrics from; a job discovering
    Kubernetes services or pods and keeping those annotated `prometheus.io/scrape: "true"` scrapes each of them
    (``monitoring.k8s_scrape``, the kind of object it keeps)."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for group in seq(doc):  # a targets file of file-based discovery
            job = scalar(get(get(group, "labels"), "job")) or ""
            for t in seq(get(group, "targets")):
                if scalar(t):
                    facts.append(fact("monitoring.sd_target", repo, path, node_line(t), value=scalar(t), job=job))
        for job in seq(get(doc, "scrape_configs")):
            for sd in seq(get(job, "file_sd_configs")):
                for pattern in seq(get(sd, "files")):
                    if scalar(pattern):
                        facts.append(fact("monitoring.sd_files", repo, path, node_line(pattern), pattern=scalar(pattern),
                                           job=scalar(get(job, "job_name"))))
            if seq(get(job, "kubernetes_sd_configs")):
                for relabel in seq(get(job, "relabel_configs")):
                    if (scalar(get(relabel, "action")) or "replace").lower() != "keep":
                        continue
                    for label in seq(get(relabel, "source_labels")):
                        m = _SCRAPE_ANNOTATION.match(scalar(label) or "")
                        if m:
                            facts.append(fact("monitoring.k8s_scrape", repo, path, node_line(label), kind=m.group(1),
                                              job=scalar(get(job, "job_name"))))
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
           sniff=lambda path, head: bool(_PROMETHEUS_HINT.search(head) or _TARGETS_HINT.match(head)),
           shadows=("otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
)
