"""Rules of the proxy group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="proxy.virtual-hosts",
        message="A reverse proxy's server_name or Host rule is a name of the component it routes to",
        unit="virtual_hosts",
        reads=("proxy.route", "docker.copy", "compose.mount", "k8s.config_volume"),
        writes=("aliases",),
        after=("build.units", "spring.application-name"),
    ),
    Rule(
        id="proxy.routes",
        message=("A reverse proxy's routes (nginx, Apache, HAProxy, Envoy, Caddy, Kong's declarative file, Traefik's "
                 "file-provider configuration, also kept in a ConfigMap key, a chart's file put there with .Files.Get; an nginx "
                 "file or Kong's configuration in a ConfigMap is the routing of "
                 "the workload that mounts that ConfigMap; a file in a development folder that the compose file mounts "
                 "into the proxy is its configuration) connect it to the upstreams they "
                 "name; a configuration beside the one a proxy deployment mounts is that proxy's, and so is one of the name a "
                 "proxy mounts from where the repository holds no such file (an installer copies it there); a site file no "
                 "deployment runs is the installation's web server in front of the app (where the repository runs a proxy of its "
                 "own, a site file nothing copies or mounts in a program's folder is an operator's alternative, not that "
                 "program's); an upstream a template names "
                 "by an environment variable (proxy_pass $BACKEND_URI) is the value the deployment or the image's "
                 "entrypoint gives it"),
        unit="proxies",
        reads=("proxy.route", "config.env", "docker.copy", "compose.mount", "k8s.config_volume"),
        writes=("connections", "components", "kinds", "unresolved", "attributes"),
        after=("config.address-values", "compose.depends-on"),
        state=("env_values", "protocol_unknown", "ports_served"),
    ),
    Rule(
        id="proxy.traefik-labels",
        message="Traefik router labels on a compose service put Traefik in front of that service",
        unit="traefik",
        reads=("compose.label",),
        writes=("connections",),
        after=("compose.services", "compose.depends-on"),
    ),
    Rule(
        id="proxy.nginx-proxy-hosts",
        message=("nginx-proxy (the nginx that writes its routes from the containers on the Docker socket) routes to "
                 "each compose service whose environment carries VIRTUAL_HOST; its certificate companion is no proxy"),
        unit="nginx_proxy",
        reads=("config.env",),
        writes=("connections",),
        after=("compose.services", "compose.depends-on"),
    ),
    Rule(
        id="proxy.acme-certificates",
        message=("A deployment's ACME client (a certbot container renewing certificates, nginx-proxy's ACME "
                 "companion, Traefik with a certificate resolver, a product's acme image) gets the system's TLS "
                 "certificates from Let's Encrypt at run time: it calls that certificate authority"),
        unit="acme_certificates",
        reads=("compose.service", "program.command"),
        writes=("components", "connections"),
        after=("compose.services", "compose.depends-on"),
    ),
)
