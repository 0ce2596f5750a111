"""Rules of the gateway group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="gateway.by-dependency",
        message=("A service with a gateway library or route configuration (Spring Cloud Gateway, Zuul, YARP, "
                 "Ocelot) is a gateway"),
        unit="spring_gateways",
        reads=("manifest.dependency", "annotation", "config.property", "gateway.code"),
        writes=("kinds",),
        after=("spring.application-name",),
        state=("framework_gateways",),
    ),
)
