"""Rules of the config group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="config.address-values",
        message=("A setting (env var, config property, ConfigMap) whose value is an address of another component "
                 "connects its owner to it; an unknown data-store address introduces that store"),
        unit="config_connections",
        reads=("config.property", "config.env", "compose.env_file", "compose.service", "k8s.configmap", "k8s.env_from",
               "k8s.env_key_ref", "env.read", "config.read", "manifest.dependency", "annotation", "import"),
        writes=("connections", "components", "unresolved"),
        after=("platform.roles", "spring.application-name", "proxy.virtual-hosts"),
        state=("component_signs", "databases_named", "env_values", "ports_published", "ports_served",
               "protocol_unknown"),
    ),
    Rule(
        id="config.document-keys",
        message=("An address read by key from a configuration document connects the code reading the key to the "
                 "component at that address"),
        unit="config_documents",
        reads=("config.document", "config.key"),
        writes=("connections", "unresolved"),
        after=("config.address-values",),
        state=("protocol_unknown",),
    ),
    Rule(
        id="config.underscore-service-hosts",
        message=("A bare host:port whose host is a compose service's name with an underscore (reader_service:5003), "
                 "given to a service in its settings, connects it to that service"),
        unit="underscore_service_hosts",
        reads=("compose.service", "config.env"),
        writes=("connections",),
        after=("config.address-values",),
        state=("protocol_unknown",),
    ),
    Rule(
        id="config.command-line-addresses",
        message=("An address a deployment passes to a service on its command line (hbbs -r relay:21117, "
                 "--upstream http://api:8000) connects it to that component of the system"),
        unit="command_line_addresses",
        reads=("program.command", "k8s.workload", "config.env"),
        writes=("connections",),
        after=("config.address-values", "process.shared-code"),
        state=("ports_served", "ports_published"),
    ),
)
