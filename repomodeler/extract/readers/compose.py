"""docker-compose files: services, their images, builds, ports, environment, dependencies and mounts."""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath
from typing import Any, Iterator

from repomodeler.extract.readers._base import Reader, check_command, fact, idle_command
from repomodeler.extract.readers._templates import TEMPLATE_SUFFIX, holds_directives, strip_template
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.records import Fact

_COMPOSE_HINT = re.compile(r"^services\s*:", re.M)
_SERVICE_RUNS = re.compile(r"^\s+(image|build|extends|ports|expose|volumes|environment|env_file|depends_on|networks|"
                           r"container_name|healthcheck|restart|labels|deploy|profiles)\s*:", re.M)


def _env_pairs(node: yaml.Node | None, passed_on: bool = True) -> Iterator[tuple[str, str, int]]:
    """Compose `environment:` as a mapping or as a list of NAME=value.  A name without a value
    (``- CART_ADDR``, ``CART_ADDR:``) passes on the variable of the environment compose runs in,
    where its ``.env`` file sets it: it reads as ``${CART_ADDR}``."""
    for k, v in items(node):
        value = scalar(v)
        if value is not None and (v.tag == "tag:yaml.org,2002:null" or (value in ("", "~", "null") and not getattr(v, "style", None))):
            value = None  # `NAME:` with nothing after it (a plain empty scalar is YAML's null)
        yield k.value, value if value is not None else (f"${{{k.value}}}" if passed_on else ""), node_line(k)
    for item in seq(node):
        text = scalar(item)
        if text is None:
            continue
        name, eq, value = text.partition("=")
        yield name.strip(), value.strip() if eq or not passed_on else f"${{{name.strip()}}}", node_line(item)


def _port(node: yaml.Node) -> str | None:
    """A ``ports:`` entry as the short syntax writes it: ``"8080:80"``, or the long syntax's
    ``{target: 80, published: 8080, protocol: udp}`` as ``8080:80/udp`` (a target alone: ``80``)."""
    text = scalar(node)
    if text is not None:
        return text
    target, published, protocol = scalar(get(node, "target")), scalar(get(node, "published")), scalar(get(node, "protocol"))
    if not target:
        return None
    out = f"{published}:{target}" if published else target
    return f"{out}/{protocol}" if protocol and protocol != "tcp" else out


# --------------------------------------------------------------------------- compose
_COMPOSE_TOP_KEYS = frozenset({"version", "services", "networks", "volumes", "secrets", "configs", "name", "include"})


def _legacy_services(doc: yaml.Node) -> yaml.Node | None:
    """Compose file format 1: services at the top level, no `services:` key.  The document counts
    as one only when every top-level entry looks like a service (has an image or a build)."""
    entries = list(items(doc))
    if not entries or not isinstance(doc, yaml.MappingNode):
        return None
    if any(k.value in _COMPOSE_TOP_KEYS or str(k.value).startswith("x-") for k, _v in entries):
        return None
    if all(get(v, "image") is not None or get(v, "build") is not None for _k, v in entries):
        return doc
    return None


def _is_service(name: str, svc: yaml.Node) -> bool:
    """A reserved top-level key indented under `services:` by mistake (`networks:`, `volumes:`,
    `x-defaults:`) is not a service unless it carries an image or a build."""
    if name in _COMPOSE_TOP_KEYS or str(name).startswith("x-"):
        return any(k.value in ("image", "build") for k, _v in items(svc))
    return True


# Keys of a compose service; a `services:` entry with none of them but with a dependency-injection key is no container.
_SERVICE_KEYS = frozenset({"image", "build", "command", "entrypoint", "environment", "env_file", "ports", "expose",
                           "volumes", "depends_on", "extends", "container_name", "restart", "networks", "deploy",
                           "healthcheck", "labels", "links", "profiles", "hostname", "working_dir", "user"})
_INJECTION_KEYS = frozenset({"class", "arguments", "calls", "factory", "alias", "tags", "autowire", "autoconfigure",
                             "resource", "exclude", "public", "parent", "decorates", "bind"})


def _container_services(services: yaml.Node) -> bool:
    """A dependency-injection container's configuration (Symfony's `config/services.yaml`, a bundle's
    `config/packages/*.yaml`) also keeps a top-level `services:` map, of objects inside one PHP process: ids
    mapped to a class, an alias (`"@other.id"`) or a resource, never to an image or a build.  No entry with a
    compose key and some entry of that form (a scalar, or an injection key) tells it apart."""
    entries = list(items(services))
    if not entries or not isinstance(services, yaml.MappingNode):
        return False
    if any(k.value in _SERVICE_KEYS for _n, svc in entries for k, _v in items(svc)):
        return False
    return any(isinstance(svc, yaml.ScalarNode) and (scalar(svc) or "").startswith("@")
               or any(k.value in _INJECTION_KEYS for k, _v in items(svc))
               or "\\" in str(name.value) or name.value == "_defaults" for name, svc in entries)


# Commands of a container that exits at once: it only holds volumes for others (`volumes_from`).
DATA_ONLY_COMMANDS = frozenset({"/bin/true", "true", "/bin/false", "false", "/bin/echo", "echo"})


# `${NAME:-default}` / `${NAME-default}`: a default the file gives a variable
_DEFAULTED = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-([^}$\s]+)\}")


# Logging drivers that send a container's output over the network, and the options giving the address.
LOG_DRIVERS = frozenset({"syslog", "gelf", "fluentd", "loki", "splunk", "logstash"})
LOG_ADDRESS_OPTIONS = frozenset({"syslog-address", "gelf-address", "fluentd-address", "loki-url", "splunk-url"})


def _build_args(node: object) -> str:
    """A build's arguments as sorted ``k=v`` pairs joined by newlines (a value may hold commas), valued ones only."""
    pairs: dict[str, str] = {}
    for k, v in items(node):  # type: ignore[arg-type]
        if scalar(v) is not None and scalar(v) != "":
            pairs[str(k.value)] = scalar(v) or ""
    for item in seq(node):  # type: ignore[arg-type]
        text = scalar(item) or ""
        if "=" in text:
            k, _, v = text.partition("=")
            if k.strip() and v.strip():
                pairs[k.strip()] = v.strip()
    return "\n".join(f"{k}={v}" for k, v in sorted(pairs.items()))


# `${NAME}` standing bare as an item of a flow sequence (after `[` or `,`), which YAML cannot read
_BARE_FLOW_VARIABLE = re.compile(r"([\[,]\s*)(\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-[^}\s]*)?\})(?=\s*[,\]])")


def _profiles(svc: yaml.Node) -> str:
    """The profiles a service starts with, comma-separated; none (always started) when one of them is the empty
    profile (`profiles: [core, infra, '']`, ReportPortal's): the one a plain `docker compose up` runs."""
    names = [scalar(x) for x in seq(get(svc, "profiles"))]
    if any(n is not None and not n.strip() for n in names):
        return ""
    return ",".join(sorted(n for n in names if n))


def read_compose(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    file_defaults: dict[str, str] = {}
    for m in _DEFAULTED.finditer(text):
        file_defaults.setdefault(m.group(1), m.group(2))
    try:
        docs = load_yaml_documents(text)
    except yaml.YAMLError:
        # a compose file holding its installer's directives (`{% if RUN_MYSQL %}` lines in a plain
        # docker-compose.yml of a Jinja-rendering tool) is read as the template it is
        if holds_directives(text):
            docs = load_yaml_documents(strip_template(text))
        else:
            # a variable written bare in a flow sequence (`test: ['CMD-SHELL', ${HEALTHCHECK_TEST_COMMAND}]`), which
            # an installer fills in before compose reads it: read as the quoted string it stands for; anything else
            # still fails, and the file is listed as unreadable
            quoted = _BARE_FLOW_VARIABLE.sub(lambda m: f'{m.group(1)}"{m.group(2)}"', text)
            if quoted == text:
                raise
            docs = load_yaml_documents(quoted)
    for doc in docs:
        # `include: [./docker-compose-base.yml]` (or `- path: [a.yml, b.yml]`): files compose loads with this one
        for item in seq(get(doc, "include")):
            paths = [scalar(item)] if scalar(item) else [scalar(x) for x in (seq(get(item, "path"))
                                                                              or [get(item, "path")])]
            for included in paths:
                if included:
                    facts.append(fact("compose.include", repo, path, node_line(item), file=included))
        services = get(doc, "services")
        if services is None:
            services = _legacy_services(doc)
        if services is None:
            continue
        if _container_services(services):
            continue  # a dependency-injection container's `services:` (Symfony), objects of one process
        folder = str(PurePosixPath(path).parent)
        folder = "" if folder == "." else folder
        # the images other services build on as a cache (`cache_from`): a service that only builds such an image
        # (a `dependencies` stage, no command, no ports) prepares the others' builds and runs nothing itself
        caches = {scalar(x) for _k, other in items(services) for x in seq(get(get(other, "build"), "cache_from"))
                  if scalar(x)}
        for key, svc in items(services):
            name = key.value
            if not _is_service(name, svc):
                continue
            if scalar(get(svc, "image")) in caches and get(svc, "command") is None and get(svc, "ports") is None \
                    and get(svc, "entrypoint") is None:
                continue
            if str(name).lower() == "sut":
                continue  # Docker Hub's automated tests: the "system under test" service runs the test suite
            build = get(svc, "build")
            context = scalar(build) if build is not None and scalar(build) is not None else scalar(get(build, "context"))
            dockerfile = scalar(get(build, "dockerfile"))
            if build is not None and context is None and dockerfile is None and isinstance(build, yaml.MappingNode):
                # `build: {target: ...}` naming neither a context nor a recipe builds the project folder's Dockerfile
                # (compose-spec #376; one naming only its recipe is read so by ComponentRules.build_root)
                context = "."
            build_target = scalar(get(build, "target")) if build is not None and scalar(build) is None else None
            # build arguments (`args: {service: consumer, cmd: service}`, or a list of k=v): the recipe's ARGs
            build_args = _build_args(get(build, "args")) if build is not None and scalar(build) is None else ""
            ports = [p for p in (_port(x) for x in seq(get(svc, "ports"))) if p]
            expose = [p for p in (scalar(x) for x in seq(get(svc, "expose"))) if p]
            command = get(svc, "command")
            if isinstance(command, yaml.ScalarNode) and (scalar(command) or "").strip() in DATA_ONLY_COMMANDS:
                continue  # a data-only container (`command: /bin/true`): it exits at once and only holds volumes
            command_line = scalar(command) or "" if isinstance(command, yaml.ScalarNode) \
                else " ".join(x for x in (scalar(w) for w in seq(command)) if x)
            if idle_command(command_line):
                continue  # a toolbox container kept alive to be exec'd into (`sleep infinity`): it runs nothing
            # (one named for the tests, `test_unit`, stays: it tells a test stack from the deployment)
            if not re.match(r"tests?\b|tests?[-_]", str(name), re.I) and check_command(command_line):
                continue  # a developer's check (golangci-lint, `make testcover`, run_format.sh): it serves nothing
            sidecar = _dapr_sidecar(svc)
            if sidecar is not None:  # a Dapr sidecar is part of the service it runs beside, no component
                if sidecar[0]:  # its app id may be given in another file (docker-compose.override.yml)
                    facts.append(fact("dapr.app_id", repo, path, node_line(key), app_id=sidecar[0], owner=sidecar[1]))
                continue
            facts.append(fact(
                "compose.service", repo, path, node_line(key), name=name, image=scalar(get(svc, "image")),
                build_context=context, dockerfile=dockerfile, build_target=build_target, compose_dir=folder,
                container_name=scalar(get(svc, "container_name")), hostname=scalar(get(svc, "hostname")),
                ports=",".join(ports), expose=",".join(expose), working_dir=scalar(get(svc, "working_dir")),
                profiles=_profiles(svc),
                build_args=build_args, network_mode=scalar(get(svc, "network_mode")),
            ))
            # `extends: {file: common.yml, service: base}` (or `extends: base` in this file): the service takes
            # what it does not say itself from that one (graph/compose_extends.py merges them)
            extends = get(svc, "extends")
            base = scalar(extends) if isinstance(extends, yaml.ScalarNode) else scalar(get(extends, "service"))
            if base:
                facts.append(fact("compose.extends", repo, path, node_line(extends), owner=name, service=base,
                                   file=(scalar(get(extends, "file")) or "") if not isinstance(extends, yaml.ScalarNode) else ""))
            # What this service runs from the image (a worker beside the web server): entrypoint, then command.
            parts, first = [], None
            for field_name in ("entrypoint", "command"):
                node = get(svc, field_name)
                text = compose_command(scalar(node) if isinstance(node, yaml.ScalarNode)
                                       else [scalar(x) or "" for x in seq(node)] if node is not None else None)
                if text:
                    parts.append(text)
                    first = first or node
            if parts and first is not None:
                facts.append(fact("program.command", repo, path, node_line(first), owner=name, command=" ".join(parts)[:500],
                                   source="compose", context=context))
            for env_name, value, line in _env_pairs(get(svc, "environment")):
                if value == f"${{{env_name}}}" and env_name in file_defaults:
                    # passed on from compose's environment; where that is unset, the value this file
                    # itself gives the variable elsewhere (`aliases: [${XMPP_SERVER:-xmpp.meet.jitsi}]`)
                    value = f"${{{env_name}:-{file_defaults[env_name]}}}"
                facts.append(fact("config.env", repo, path, line, owner=name, name=env_name, value=value,
                                   source="compose"))
            for label, value, line in _env_pairs(get(svc, "labels"), passed_on=False):
                # Traefik routes to the containers that carry its labels; kompose's say how a service is
                # exposed once the file becomes Kubernetes objects
                if label.startswith(("traefik.", "kompose.service.")):
                    facts.append(fact("compose.label", repo, path, line, owner=name, name=label, value=value))
            depends = get(svc, "depends_on")
            for item in seq(depends):
                target = scalar(item)
                if target:
                    facts.append(fact("compose.depends", repo, path, node_line(item), owner=name, target=target))
            for k, v in items(depends):
                # `condition: service_completed_successfully`: a job that must have run to its end first
                facts.append(fact("compose.depends", repo, path, node_line(k), owner=name, target=k.value,
                                   condition=scalar(get(v, "condition"))))
            for item in seq(get(svc, "links")):
                target = scalar(item)
                if target:
                    facts.append(fact("compose.depends", repo, path, node_line(item), owner=name,
                                       target=target.split(":")[0], link="true"))
                    linked, _, link_alias = target.partition(":")
                    if link_alias.strip() and link_alias.strip() != linked.strip():
                        # `links: [db:database]`: the linked service answers to `database` too (for this one)
                        facts.append(fact("compose.network_alias", repo, path, node_line(item), owner=linked.strip(),
                                           alias=link_alias.strip(), network=f"link from {name}"))
            for item in seq(get(svc, "volumes")):
                spec = scalar(item) or scalar(get(item, "source"))
                # (`${OL_MOUNT_DIR:-.}:/openlibrary`: the folder mounted unless the variable is set)
                spec = re.sub(r"^\$\{[A-Za-z_]\w*:?-([.~/][^}]*)\}", r"\1", spec) if spec else spec
                # (`${PWD}/prometheus.yml:/etc/prometheus/prometheus.yml`: the folder compose is started from, the
                # compose file's own as its guide runs it)
                spec = re.sub(r"^\$\{?PWD\}?(?=/|:|$)", ".", spec) if spec else spec
                host = spec.split(":")[0] if spec and scalar(item) else spec
                variable = re.match(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?(/[^:]*)?:(/[^:]+)", spec or "")
                if variable and scalar(item):
                    # `${APP_ROOT}:/var/www/html`: a folder the user names at run time, mounted into the container
                    facts.append(fact("compose.variable_mount", repo, path, node_line(item), owner=name,
                                       variable=variable.group(1), rest=(variable.group(2) or "").strip("/"),
                                       target=variable.group(3)))
                if host and host.startswith((".", "/")) and (":" in (spec or "") or get(item, "source") is not None):
                    # A bind mount: the host file or folder is configuration the container reads.
                    inside = (spec.split(":")[1] if scalar(item) and spec.count(":") >= 1
                              else scalar(get(item, "target"))) or ""
                    facts.append(fact("compose.mount", repo, path, node_line(item), owner=name, source=host,
                                       target=inside))
            # `configs: [{source: gateway_config, target: /etc/nginx/conf.d/default.conf}]`, the file the top-level
            # `configs:` gives that name (`gateway_config: {file: ./gateway.conf}`): in the container like a bind mount
            for item in seq(get(svc, "configs")):
                source = scalar(item) or scalar(get(item, "source"))
                file = scalar(get(get(get(doc, "configs"), source), "file")) if source else None
                if file and "$" not in file:
                    facts.append(fact("compose.mount", repo, path, node_line(item), owner=name,
                                       source=file if file.startswith((".", "/")) else f"./{file}",
                                       target=scalar(get(item, "target")) or f"/{source}"))
            for item in seq(get(svc, "env_file")):
                ref = scalar(item) or scalar(get(item, "path"))  # (`- path: .env_local` with `required:`)
                if ref:
                    facts.append(fact("compose.env_file", repo, path, node_line(item), owner=name, file=ref))
            if scalar(get(svc, "env_file")):
                facts.append(fact("compose.env_file", repo, path, node_line(get(svc, "env_file")), owner=name,
                                   file=scalar(get(svc, "env_file"))))
            # A logging driver shipping the container's output to a collector (syslog, GELF, Fluentd, Loki):
            # the Docker daemon sends it there for the service
            logging = get(svc, "logging")
            driver = (scalar(get(logging, "driver")) or "").lower()
            for k, v in items(get(logging, "options")):
                if driver in LOG_DRIVERS and k.value.lower() in LOG_ADDRESS_OPTIONS and scalar(v):
                    facts.append(fact("compose.log_target", repo, path, node_line(v), owner=name, driver=driver,
                                       address=scalar(v)))
            # `networks: {backend: {aliases: [api.shop.local]}}`: more names the service answers to on that network;
            # `ipv4_address: 10.7.7.5`, the fixed address the others' settings name it by
            for network, settings in items(get(svc, "networks")):
                fixed = [get(settings, k) for k in ("ipv4_address", "ipv6_address")]
                for item in [*seq(get(settings, "aliases")), *(n for n in fixed if n is not None)]:
                    alias = scalar(item)
                    if alias:
                        facts.append(fact("compose.network_alias", repo, path, node_line(item), owner=name,
                                           alias=alias, network=network.value))
    return facts


def read_compose_template(repo: str, path: str, text: str) -> list[Fact]:
    """A compose file's template, read as the compose file it renders (see :mod:`._templates`)."""
    return read_compose(repo, path, strip_template(text))


def _dapr_sidecar(svc: yaml.Node) -> tuple[str, str] | None:
    """(app id, the service it runs beside) of a Dapr sidecar container (``image: daprio/daprd``,
    ``command: ["./daprd", "-app-id", "orders"]``, ``network_mode: "service:orders"``); the app id is
    empty when this file does not give the command (an override file does), and so is the service
    when this file gives only the command (the base file has the image and network_mode)."""
    node = get(svc, "command")
    words = (scalar(node) or "").split() if isinstance(node, yaml.ScalarNode) else [scalar(x) or "" for x in seq(node)]
    if not (scalar(get(svc, "image")) or "").startswith("daprio/daprd") and \
            not (words and PurePosixPath(words[0]).name == "daprd"):
        return None
    app_id = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-app-id", "--app-id")), None)
    app_id = app_id or next((w.split("=", 1)[1] for w in words if w.startswith(("-app-id=", "--app-id="))), None)
    mode = scalar(get(svc, "network_mode")) or ""
    owner = mode.split(":", 1)[1] if mode.startswith("service:") else ""
    return (app_id or "", owner) if owner or app_id else None


def compose_command(value: Any) -> str | None:
    """A compose ``command:`` as one line (a list is joined the way a shell would read it)."""
    if isinstance(value, str):
        return value.strip()[:500] or None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(json.dumps(v) if (" " in v or not v) else v for v in value)[:500] or None
    return None


def _is_compose(path: str, head: str) -> bool:
    """Named like a compose file, or a YAML file with a top-level ``services:`` whose services carry compose's
    own keys (``image:``, ``build:``, ``ports:``, ``volumes:``, ``environment:``...; an override fragment such as
    ``webserver.port.yml`` publishing a port counts): another tool's list of services (a coding agent's
    ``.amp/services.yaml`` of commands, a ``port:`` and a ``portal:``) is none."""
    low = PurePosixPath(path).name.lower()
    return low.startswith(("docker-compose", "compose")) or bool(_COMPOSE_HINT.search(head)) \
        and bool(_SERVICE_RUNS.search(head))


READERS = (
    # docker-compose*.yml / compose*.yaml, or any YAML with a top-level services: key
    Reader("compose", "descriptor", 430, read_compose, patterns=(r"[^/]*\.ya?ml",), sniff=_is_compose,
           shadows=("kubernetes", "spring.content")),
    # An installer's template of the compose file (docker-compose.yml.jinja, DockerCompose.hbs): read as the
    # file it writes, its directives taken out (see _templates).
    # (``docker-compose.tmpl.yml`` too: ordered before the plain reader, which would take it for YAML)
    Reader("compose.template", "descriptor", 429, read_compose_template,
           patterns=(r"[^/]*(?:compose|Compose)[^/]*\." + TEMPLATE_SUFFIX,
                     r"[^/]*(?:compose|Compose)[^/]*\." + TEMPLATE_SUFFIX + r"\.ya?ml"), ignore_case=False),
)
