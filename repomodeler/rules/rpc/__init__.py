"""Rules of the rpc group (remote calls through interfaces and registries a system defines itself);
each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="rpc.interface-proxies",
        message=("A component obtaining a proxy of an interface (Clients.withService(I.class), create(I.class), a "
                 "field an RPC framework injects, @DubboReference) that exactly one other running component implements "
                 "calls that component; a proxy a library of the system holds is called by each service using it"),
        unit="rpc_interface_links",
        reads=("rpc.proxy", "code.implements"),
        writes=("connections",),
        after=("build.launched-programs", "process.programs"),
    ),
    Rule(
        id="rpc.selected-registry",
        message=("A process whose configuration selects a registry by type (registry.type: zookeeper) and gives the "
                 "selected one's address (registry.zookeeper.connect-string) uses it: the system's one component of "
                 "that technology when the address is local, else one introduced for it"),
        unit="selected_registries",
        reads=("config.property", "manifest.dependency"),
        writes=("connections", "components"),
        after=("config.address-values", "stores.configured-sections"),
    ),
    Rule(
        id="rpc.named-addresses",
        message=("A field, variable or setting named for another running component's address (namesrvAddr, "
                 "NAMESRV_ADDR, brokerAddress) in a component's own code connects it to that component; in the "
                 "system's client library it is how people's applications reach that component"),
        unit="named_addresses",
        reads=("code.address_name", "env.read", "config.property"),
        writes=("connections", "components"),
        after=("build.launched-programs", "process.programs", "frontdoor.entry-points"),
        state=("process_parent",),
    ),
    Rule(
        id="rpc.listen-port-addresses",
        message=("A loopback address (namesrvAddr=127.0.0.1:9876) whose port is where exactly one other program "
                 "listens by its own code or settings (setListenPort(9876), listenPort, server.port) connects its "
                 "holder to that program; a settings file in a configuration folder is the program's it is named for"),
        unit="listen_port_addresses",
        reads=("config.setting", "config.property", "const.string", "server.listen_port"),
        writes=("connections",),
        after=("process.host-programs", "process.programs"),
        state=("file_owner", "package_owner", "packages", "process_parent"),
    ),
    Rule(
        id="rpc.registry-keys",
        message=("A client block of a program's settings naming the key a server registers under in a registry "
                 "(go-zero's UserRpc: {Etcd: {Key: user.rpc}} and the server's own Etcd: {Key: user.rpc}) connects "
                 "the program to the one program registered under that key"),
        unit="registry_key_clients",
        reads=("config.property",),
        writes=("connections",),
        after=("process.host-programs", "process.programs"),
        state=("file_owner", "package_owner", "packages", "process_parent"),
    ),
    Rule(
        id="rpc.moleculer-actions",
        message=("A Moleculer action called through the broker by name (ctx.call(\"v1.boards.resolve\"), a gateway "
                 "alias, whitelist or autoAliases route onto it) connects the deployment running the calling service, or each service "
                 "mixing in the calling helper, to the deployment running the service whose schema declares that name "
                 "(name: \"boards\", version: 1); a deployment of a shared image whose environment names the service "
                 "files it loads (the runner's SERVICES: accounts.service.js, SERVICES: users,orders) runs those, "
                 "and what their code connects to (a database adapter's address, mail sent) is its connection"),
        unit="moleculer_actions",
        reads=("moleculer.service", "moleculer.version", "moleculer.call", "moleculer.auto_aliases", "moleculer.rest", "import",
               "config.env"),
        writes=("connections",),
        after=("discovery.service-lookups", "code.mail-senders", "code.store-drivers", "code.address-literals"),
    ),
)
