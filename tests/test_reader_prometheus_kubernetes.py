"""Prometheus configurations kept in a Kubernetes ConfigMap, and the annotation-driven discovery jobs they hold."""

from repomodeler.extract.readers.kubernetes import read_kubernetes
from repomodeler.extract.readers.prometheus import read_prometheus

MANIFEST = """apiVersion: v1
kind: ConfigMap
metadata:
  name: prom-conf
data:
  prometheus.yml: |-
    alerting:
      alertmanagers:
      - static_configs:
        - targets: ["alertmanager:9093"]
    scrape_configs:
      - job_name: pods
        kubernetes_sd_configs:
        - role: pod
        relabel_configs:
        - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_scrape]
          action: keep
          regex: true
        - source_labels: [__meta_kubernetes_pod_annotation_prometheus_io_path]
          action: replace
          target_label: __metrics_path__
---
apiVersion: v1
kind: Service
metadata:
  name: api
  annotations:
    prometheus.io/scrape: "true"
spec:
  selector: {app: api}
"""


def test_a_configmap_value_is_read_as_the_prometheus_configuration_it_holds() -> None:
    facts = read_kubernetes("r", "k8s/prom.yaml", MANIFEST)
    targets = [(f.line, f.get("value"), f.get("configmap")) for f in facts if f.kind == "monitoring.target"]
    assert targets == [(10, "alertmanager:9093", "prom-conf")]  # the manifest's own line
    jobs = [(f.line, f.get("kind"), f.get("job")) for f in facts if f.kind == "monitoring.k8s_scrape"]
    assert jobs == [(16, "pod", "pods")]  # only the keep on the scrape annotation, not the path's replace
    assert [f.get("scrape") for f in facts if f.kind == "k8s.service"] == ["true"]


def test_a_discovery_job_without_the_annotation_keep_scrapes_nothing_by_annotation() -> None:
    text = ("scrape_configs:\n  - job_name: nodes\n    kubernetes_sd_configs:\n    - role: node\n"
            "    relabel_configs:\n    - action: labelmap\n      regex: __meta_kubernetes_node_label_(.+)\n")
    assert [f for f in read_prometheus("r", "prometheus.yml", text) if f.kind == "monitoring.k8s_scrape"] == []
