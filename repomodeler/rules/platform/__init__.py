"""Rules of the platform group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="platform.same-code",
        message=("Deployments in different descriptor files (compose, Kubernetes, Tye, an Aspire AppHost) that run "
                 "the same build root are one component, known by all their names; two services of one file "
                 "running one build stay two instances"),
        unit="same_code_deployments",
        reads=("program.command",),
        writes=("components", "aliases", "attributes", "roots", "connections", "ports"),
        after=("dotnet.aspire-resources",),
    ),
    Rule(
        id="platform.roles",
        message=("A service whose dependencies and annotations make it a platform server (service registry, config "
                 "server, tracing, admin) takes that role"),
        unit="platform_roles",
        reads=("compose.mount", "program.command", "config.env", "manifest.dependency", "annotation", "config.property"),
        writes=("kinds", "attributes"),
        after=("gateway.by-dependency",),
        state=("component_signs",),
    ),
    Rule(
        id="platform.role-clients",
        message=("A service with the client library of a platform role (discovery client, config client, tracing) "
                 "uses the component serving that role"),
        unit="role_clients",
        reads=("manifest.dependency", "annotation", "config.property"),
        writes=("components", "connections", "unresolved"),
        after=("platform.roles", "config.address-values", "messaging.topics"),
        state=("component_signs", "role_clients_of"),
    ),
    Rule(
        id="platform.undeployed-code",
        message=("A service project with no recipe and no deployment, beside the folders of services the "
                 "repository's deployment builds and runs (src/Services/Billing beside src/Services/Catalogs), is "
                 "code no deployment runs, not a running component; so is a program of an open-core repository's "
                 "licensed edition (ee/, enterprise/) that the deployment it ships does not run"),
        unit="undeployed_code",
        reads=("docker.from",),
        writes=("kinds", "attributes", "connections"),
        after=("platform.same-code", "build.units", "iac.workloads"),
    ),
)
