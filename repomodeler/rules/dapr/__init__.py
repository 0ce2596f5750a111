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
    Rule(
        id="dapr.components",
        message=("A Dapr component (kind: Component: pub/sub, state store, binding) connects the apps in its scopes "
                 "(a pub/sub or state store without scopes: the components whose code publishes, subscribes or "
                 "keeps state through Dapr naming it, themselves or through a library) to the store or broker its "
                 "metadata's address or its type names; a scoped component whose backing service the inputs do not "
                 "deploy (a cloud store, a host deployed elsewhere) is itself that store or broker, unless the deployment's templates "
                 "declare one store of its technology (a Bicep Service Bus namespace for pubsub.azure.servicebus): that one, known by "
                 "the component's name too; one addressed on the "
                 "developer's machine (localhost, Dapr's self-hosted mode) is the store of its technology that dapr "
                 "init starts, linked from the code that uses it"),
        unit="dapr_components",
        reads=("dapr.component", "dapr.app_id", "dapr.pubsub", "dapr.state", "server.start"),
        writes=("components", "aliases", "attributes", "connections", "unresolved"),
        after=("dapr.app-ids", "compose.services", "build.units", "config.address-values", "build.library-dependencies",
               "kubernetes.remote-releases"),
        state=("ports_served", "ports_published",),
    ),
    Rule(
        id="dapr.name-resolution",
        message=("A Dapr configuration resolving app ids through a registry server (nameResolution: consul) connects "
                 "every app with a sidecar to that registry"),
        unit="dapr_name_resolution",
        reads=("dapr.name_resolution", "dapr.app_id"),
        writes=("components", "connections", "attributes"),
        after=("dapr.app-ids", "compose.services", "build.units"),
    ),
)
