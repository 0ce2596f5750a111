"""Rules of the observability group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="observability.scrape-targets",
        message=("A Prometheus scrape target or monitoring address (an Alloy scrape target, writer or exporter "
                 "endpoint) connects the monitoring server to the component it names; Prometheus sends alerts to the "
                 "Alertmanagers its configuration names; of deployments sharing the configuration folder, the one "
                 "running Prometheus reads it"),
        unit="monitoring_targets",
        reads=("compose.service", "monitoring.target", "config.env", "server.start"),
        writes=("connections", "unresolved", "attributes"),
        after=("build.units", "compose.depends-on"),
        state=("databases_named", "env_values", "ports_published", "ports_served"),
    ),
)
