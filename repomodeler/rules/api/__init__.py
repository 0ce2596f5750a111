"""Rules of the api group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="api.endpoints",
        message="HTTP routes a component's code declares are the endpoints of its provided HTTP port",
        unit="endpoints",
        reads=("http.route", "http.router", "http.mount", "module.var", "openapi.schema", "openapi.property",
               "http.body", "dto.class", "dto.field"),
        writes=("ports", "messages"),
        after=("build.units",),
    ),
)
