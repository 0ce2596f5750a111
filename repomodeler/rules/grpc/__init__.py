"""Rules of the grpc group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="grpc.services",
        message=("gRPC services a component registers are its provided gRPC port with typed endpoints; a generated "
                 "stub of another component's service is a gRPC connection"),
        unit="grpc",
        reads=("grpc.rpc", "grpc.server", "grpc.client", "proto.message", "proto.field", "proto.enum",
               "proto.enum_value"),
        writes=("ports", "connections", "unresolved", "messages"),
        after=("build.units", "config.address-values", "code.address-literals", "code.client-calls", "code.config-reads"),
    ),
)
