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
    Rule(
        id="observability.scrape-processes",
        message=("A scrape target on a container that runs several processes, in a job named like one of them "
                 "(job_name: order-api for looklook:4001), is a scrape of that process; the container keeps only "
                 "the targets no process's job names"),
        unit="scrape_processes",
        reads=("monitoring.target",),
        writes=("connections",),
        after=("observability.scrape-targets", "process.programs", "process.supervised", "process.shared-code",
               "process.one-container"),
    ),
)
