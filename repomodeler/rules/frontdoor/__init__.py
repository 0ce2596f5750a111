"""Rules of the frontdoor group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="frontdoor.entry-points",
        message=("The user reaches the system through its front doors: published ports, ingress, gateways and web "
                 "apps nobody else calls (a kompose clusterip label keeps a compose service's ports inside); two "
                 "published products calling each other are both doors; a stack in a sibling folder with no gateway "
                 "of its own has its own doors; a system of platform software only is opened at its published "
                 "program nobody calls; a service its deployment tells its own public address on a port it publishes "
                 "(EXTERNAL_URL: http://localhost:8080) is a door, whoever else calls it; with no door known at all, "
                 "the one running program nobody calls (not a command-line tool) is"),
        unit="entry_points",
        reads=("compose.service", "k8s.service", "config.env", "compose.label", "import", "program.command", "docker.from",
               "docker.stage"),
        writes=("components", "connections", "attributes", "unresolved"),
        after=("protocol.fold-unknown", "kubernetes.ingress", "proxy.traefik-labels", "proxy.nginx-proxy-hosts",
               "discovery.gateway-routes", "spring.zuul-named-routes", "code.address-literals",
               "code.client-calls"),
        state=("browser_facts", "env_values", "ingress_routes", "ports_served", "ports_published"),
    ),
    Rule(
        id="frontdoor.ingress-controller",
        message=("When the system names its cluster's ingress controller (a page rendered on the server calling "
                 "ingress-nginx by its cluster address; Contour's Envoy it deploys), people enter through that controller "
                 "and it forwards to the services the Ingress routes name"),
        unit="ingress_controller",
        reads=(),
        writes=("connections", "attributes", "kinds"),
        after=("frontdoor.entry-points",),
    ),
    Rule(
        id="frontdoor.command-line",
        message=("People run the system's command-line programs: a program named as a CLI (cli, *ctl, admin), or one "
                 "registering commands with a command framework (cobra, urfave/cli, click, commander, picocli...) "
                 "that serves nothing (a sign-in callback it binds to the loopback address aside), which nothing starts, "
                 "calls or deploys, is reached by the user"),
        unit="command_line_users",
        reads=("import", "module.var", "server.start", "value.field", "value.assign"),
        writes=("components", "connections"),
        after=("frontdoor.entry-points", "process.links", "process.supervised", "routes.browser-calls",
               "routes.client-packages"),
        state=("file_owner", "package_owner", "packages", "process_parent"),
    ),
    Rule(
        id="frontdoor.hosting-rewrites",
        message=("A static hosting's rewrites (Firebase Hosting's run.serviceId, function) to a Cloud Run service or a "
                 "Cloud Function connect the web app it serves to that backend"),
        unit="hosting_rewrites",
        reads=("hosting.rewrite",),
        writes=("connections", "unresolved"),
        after=("compose.services", "build.units", "frontend.webapps"),
    ),
)
