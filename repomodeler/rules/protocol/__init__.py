"""Rules of the protocol group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="protocol.fold-unknown",
        message="A tcp link from a bare host:port folds into a link of known protocol between the same components",
        unit="fold_unknown_protocols",
        reads=(),
        writes=("connections",),
        after=("config.address-values", "config.document-keys", "code.address-literals", "compose.depends-on",
               "proxy.routes", "grpc.services"),
        state=("protocol_unknown",),
    ),
)
