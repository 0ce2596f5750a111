"""Rules of the subsystem group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="subsystem.packages",
        message="A component's packages are its subsystems, linked by the imports between them",
        unit="subsystems",
        reads=("package.doc",),
        writes=("components", "aliases", "ports", "connections", "attributes"),
        after=("process.programs", "process.links", "stores.logical-databases"),
        state=("package_owner", "packages"),
    ),
)
