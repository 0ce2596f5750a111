"""Rules of the messaging group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="messaging.topics",
        message=("Publishing to and subscribing from a topic or queue through a broker client connects the "
                 "component to the broker, with the topic"),
        unit="messaging",
        reads=("messaging.publish", "messaging.subscribe", "client.var", "manifest.dependency", "import"),
        writes=("connections", "components", "attributes", "unresolved"),
        after=("code.store-drivers",),
        state=("env_values",),
    ),
)
