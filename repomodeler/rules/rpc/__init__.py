"""Rules of the rpc group (remote calls through interfaces and registries a system defines itself);
each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="rpc.interface-proxies",
        message=("A component obtaining a proxy of an interface (Clients.withService(I.class), create(I.class)) that "
                 "exactly one other running component implements calls that component"),
        unit="rpc_interface_links",
        reads=("rpc.proxy", "code.implements"),
        writes=("connections",),
        after=("build.launched-programs", "process.programs"),
    ),
)
