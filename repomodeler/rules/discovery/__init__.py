"""Rules of the discovery group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="discovery.service-lookups",
        message=("A service looked up by name in a registry (discovery client, load-balanced client, Dapr invoke) "
                 "is a connection to the service of that name; so is a store or broker a client call of its "
                 "technology is handed, by a literal or by a host built in code (a variable, an interpolated "
                 "string, either branch of a conditional)"),
        unit="service_lookups",
        reads=("service.lookup", "const.enum", "code.constant_arg", "string.url", "dapr.invoke_route", "store.client_call"),
        writes=("connections",),
        after=("spring.application-name", "dapr.app-ids"),
        state=("env_values",),
    ),
    Rule(
        id="discovery.gateway-routes",
        message=("A gateway routing through the service registry (discovery locator, Zuul without routes), or a "
                 "proxy whose routes a template renders from the registry's catalog (consul-template's "
                 "`{{range services}}`), reaches the services registered there"),
        unit="discovery_routes",
        reads=("manifest.dependency", "annotation", "config.property", "proxy.catalog"),
        writes=("connections",),
        after=("platform.role-clients", "api.endpoints"),
        state=("component_signs", "role_clients_of"),
    ),
)
