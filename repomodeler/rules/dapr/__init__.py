"""Rules of the dapr group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="dapr.app-ids",
        message=("A Dapr sidecar's app id (dapr.io/app-id, daprd -app-id) is a name of the component it runs "
                 "beside"),
        unit="dapr_app_ids",
        reads=("dapr.app_id",),
        writes=("aliases",),
        after=("build.units",),
    ),
)
