"""Rules of the spring group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="spring.application-name",
        message=("spring.application.name (Micronaut: micronaut.application.name; Steeltoe on .NET: Spring:Application:Name "
                 "in appsettings.json) names the service other services, configuration and declarative clients use; "
                 "`@artifactId@` is the module's Maven artifactId"),
        unit="spring_identity",
        reads=("config.property", "manifest"),
        writes=("aliases",),
        after=("build.units", "build.deployed-programs"),
    ),
    Rule(
        id="spring.zuul-named-routes",
        message="A Zuul route named for a service id routes the gateway to that service",
        unit="zuul_named_routes",
        reads=("config.property", "manifest.dependency"),
        writes=("connections",),
        after=("gateway.by-dependency", "config.address-values"),
    ),
)
