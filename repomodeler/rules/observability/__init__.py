"""Rules of the observability group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="observability.scrape-targets",
        message=("A Prometheus scrape target or monitoring address (an Alloy scrape target, writer or exporter "
                 "endpoint) connects the monitoring server to the component it names; Prometheus sends alerts to the "
                 "Alertmanagers its configuration names; of deployments sharing the configuration folder, the one "
                 "running Prometheus reads it; a configuration kept in a ConfigMap is the mounting workload's, and its "
                 "Kubernetes discovery keeping what is annotated prometheus.io/scrape: \"true\" scrapes the workloads "
                 "behind each annotated Service (each annotated workload)"),
        unit="monitoring_targets",
        reads=("compose.service", "monitoring.target", "config.env", "server.start", "monitoring.k8s_scrape",
               "k8s.service", "k8s.workload", "k8s.config_volume"),
        writes=("connections", "unresolved", "attributes"),
        after=("build.units", "compose.depends-on"),
        state=("databases_named", "env_values", "ports_published", "ports_served"),
    ),
)
