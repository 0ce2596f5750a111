"""Deployment descriptors, configuration and package manifests, read into facts with line numbers.

These formats need no tree-sitter: YAML is read with PyYAML's node API (so every value keeps its
line, and aliases are never expanded: a "billion laughs" file costs one pass over its nodes),
the rest line by line.  Each reader returns facts and warnings and never raises for bad input.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import PurePosixPath
from typing import Callable, Iterator

import yaml

from repomodeler.extract.entries import (compose_command, package_json_entries, pyproject_entries, read_cmake,
                                         read_makefile, read_procfile, read_setup_cfg, read_setup_py)
from repomodeler.records import Fact, Warning_

MAX_YAML_NODES = 200_000

Reader = Callable[[str, str, str], tuple[list[Fact], list[Warning_]]]


def _fact(kind: str, repo: str, path: str, line: int, **attrs: object) -> Fact:
    clean = tuple(sorted((k, str(v)) for k, v in attrs.items() if v is not None and v != ""))
    return Fact(kind=kind, repository=repo, path=path, line=line, language="config", attrs=clean)


# --------------------------------------------------------------------------- YAML helpers
class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise ValueError(f"more than {MAX_YAML_NODES} YAML nodes once aliases are expanded "
                             "(too large, or an alias bomb)")


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _scalar(node: yaml.Node | None) -> str | None:
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    return None


def _get(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _items(node: yaml.Node | None) -> Iterator[tuple[yaml.ScalarNode, yaml.Node]]:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                yield k, v


def _seq(node: yaml.Node | None) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _count_nodes(node: yaml.Node, budget: _Budget) -> None:
    """Count nodes as the readers will visit them, i.e. with every alias expanded.

    Counting the expanded tree (bounded by the budget, so a "billion laughs" file stops after
    MAX_YAML_NODES steps, and a recursive alias too) guarantees that no reader below can do more
    work than the budget allows, however the aliases are nested.
    """
    stack = [node]
    while stack:
        n = stack.pop()
        budget.spend()
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.append(k)
                stack.append(v)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)


MAX_YAML_DEPTH = 400  # deeper nesting is refused like Python's recursion limit used to refuse it


def _compose(text: str, budget: _Budget) -> list[yaml.Node | None]:
    """Compose every document from libyaml's events, without recursion.

    PyYAML's composers are slow (pure Python: 6 s for a 1.4 MB compose file of 10,000 services) or
    unsafe (libyaml's, CSafeLoader's ``compose``, recurses in C and crashes the process with a
    segmentation fault on deeply nested flow collections, "[[[[..."). libyaml's *parser* keeps its
    state on the heap, so its events are read here and the nodes built with an explicit stack:
    the same nodes (value, start and end marks, style) as ``yaml.compose_all``, at C speed, each
    node counted against the budget as it is made.
    """
    loader = yaml.CSafeLoader(text)
    docs: list[yaml.Node | None] = []
    stack: list[yaml.Node] = []  # open collections
    pending: list[yaml.Node | None] = []  # per open mapping: its key waiting for a value
    anchors: dict[str, yaml.Node] = {}
    root: yaml.Node | None = None

    def attach(node: yaml.Node) -> None:
        nonlocal root
        if not stack:
            root = node
        elif isinstance(stack[-1], yaml.SequenceNode):
            stack[-1].value.append(node)
        elif pending[-1] is None:
            pending[-1] = node
        else:
            stack[-1].value.append((pending[-1], node))
            pending[-1] = None

    try:
        while True:
            event = loader.get_event()
            if event is None or type(event) is yaml.StreamEndEvent:
                break
            kind = type(event)
            if kind is yaml.ScalarEvent:
                budget.spend()
                node: yaml.Node = yaml.ScalarNode(event.tag or "tag:yaml.org,2002:str", event.value,
                                                  event.start_mark, event.end_mark, style=event.style or None)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                budget.spend()
                if len(stack) >= MAX_YAML_DEPTH:
                    raise RecursionError(f"YAML nested deeper than {MAX_YAML_DEPTH} levels")
                cls = yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode
                node = cls(event.tag or ("tag:yaml.org,2002:map" if cls is yaml.MappingNode else "tag:yaml.org,2002:seq"),
                           [], event.start_mark, None, flow_style=event.flow_style)
                if event.anchor is not None:
                    anchors[event.anchor] = node
                attach(node)
                stack.append(node)
                pending.append(None)
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                closed = stack.pop()
                pending.pop()
                closed.end_mark = event.end_mark
                continue
            elif kind is yaml.AliasEvent:
                if event.anchor not in anchors:
                    raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                                      event.start_mark)
                node = anchors[event.anchor]
            elif kind is yaml.DocumentStartEvent:
                root = None
                anchors = {}
                continue
            elif kind is yaml.DocumentEndEvent:
                docs.append(root)
                continue
            else:  # stream start
                continue
            if kind is yaml.ScalarEvent and event.anchor is not None:
                anchors[event.anchor] = node
            attach(node)
    finally:
        loader.dispose()
    return docs


class _BudgetLoader(yaml.SafeLoader):
    """Pure-Python SafeLoader that stops composing once a file has made MAX_YAML_NODES nodes; used
    only to describe a syntax error the way users of this tool have always seen it."""

    budget: _Budget

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        self.budget.spend()
        return super().compose_node(parent, index)


def _describe_error(text: str, error: yaml.YAMLError) -> yaml.YAMLError:
    """The pure-Python parser's error for `text` (its wording names what it expected and what it
    found), or `error` if that parser finds none."""
    loader = _BudgetLoader(text)
    loader.budget = _Budget(MAX_YAML_NODES)
    try:
        while loader.check_node():
            loader.get_node()
    except yaml.YAMLError as exc:
        return exc
    finally:
        loader.dispose()
    return error


def load_yaml_documents(text: str) -> list[yaml.Node]:
    """Compose (not construct) every document; raise ValueError on a bomb or a huge document."""
    budget = _Budget(MAX_YAML_NODES)
    docs: list[yaml.Node] = []
    try:
        composed = _compose(text, _Budget(MAX_YAML_NODES))
    except yaml.YAMLError as exc:
        raise _describe_error(text, exc) from None
    for doc in composed:
        if doc is None:
            continue
        _count_nodes(doc, budget)
        docs.append(doc)
    return docs


def _env_pairs(node: yaml.Node | None, passed_on: bool = True) -> Iterator[tuple[str, str, int]]:
    """Compose `environment:` as a mapping or as a list of NAME=value.  A name without a value
    (``- CART_ADDR``, ``CART_ADDR:``) passes on the variable of the environment compose runs in,
    where its ``.env`` file sets it: it reads as ``${CART_ADDR}``."""
    for k, v in _items(node):
        value = _scalar(v)
        if value is not None and (v.tag == "tag:yaml.org,2002:null" or (value in ("", "~", "null") and not getattr(v, "style", None))):
            value = None  # `NAME:` with nothing after it (a plain empty scalar is YAML's null)
        yield k.value, value if value is not None else (f"${{{k.value}}}" if passed_on else ""), _line(k)
    for item in _seq(node):
        text = _scalar(item)
        if text is None:
            continue
        name, eq, value = text.partition("=")
        yield name.strip(), value.strip() if eq or not passed_on else f"${{{name.strip()}}}", _line(item)


# --------------------------------------------------------------------------- compose
_COMPOSE_TOP_KEYS = frozenset({"version", "services", "networks", "volumes", "secrets", "configs", "name", "include"})


def _legacy_services(doc: yaml.Node) -> yaml.Node | None:
    """Compose file format 1: services at the top level, no `services:` key.  The document counts
    as one only when every top-level entry looks like a service (has an image or a build)."""
    entries = list(_items(doc))
    if not entries or not isinstance(doc, yaml.MappingNode):
        return None
    if any(k.value in _COMPOSE_TOP_KEYS or str(k.value).startswith("x-") for k, _v in entries):
        return None
    if all(_get(v, "image") is not None or _get(v, "build") is not None for _k, v in entries):
        return doc
    return None


def _is_service(name: str, svc: yaml.Node) -> bool:
    """A reserved top-level key indented under `services:` by mistake (`networks:`, `volumes:`,
    `x-defaults:`) is not a service unless it carries an image or a build."""
    if name in _COMPOSE_TOP_KEYS or str(name).startswith("x-"):
        return any(k.value in ("image", "build") for k, _v in _items(svc))
    return True


def read_compose(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts: list[Fact] = []
    docs = load_yaml_documents(text)
    for doc in docs:
        services = _get(doc, "services")
        if services is None:
            services = _legacy_services(doc)
        if services is None:
            continue
        folder = str(PurePosixPath(path).parent)
        folder = "" if folder == "." else folder
        for key, svc in _items(services):
            name = key.value
            if not _is_service(name, svc):
                continue
            build = _get(svc, "build")
            context = _scalar(build) if build is not None and _scalar(build) is not None else _scalar(_get(build, "context"))
            dockerfile = _scalar(_get(build, "dockerfile"))
            ports = [p for p in (_scalar(x) for x in _seq(_get(svc, "ports"))) if p]
            expose = [p for p in (_scalar(x) for x in _seq(_get(svc, "expose"))) if p]
            sidecar = _dapr_sidecar(svc)
            if sidecar is not None:  # a Dapr sidecar is part of the service it runs beside, no component
                facts.append(_fact("dapr.app_id", repo, path, _line(key), app_id=sidecar[0], owner=sidecar[1]))
                continue
            facts.append(_fact(
                "compose.service", repo, path, _line(key), name=name, image=_scalar(_get(svc, "image")),
                build_context=context, dockerfile=dockerfile, compose_dir=folder,
                container_name=_scalar(_get(svc, "container_name")), hostname=_scalar(_get(svc, "hostname")),
                ports=",".join(ports), expose=",".join(expose), working_dir=_scalar(_get(svc, "working_dir")),
                profiles=",".join(sorted(p for p in (_scalar(x) for x in _seq(_get(svc, "profiles"))) if p)),
            ))
            # What this service runs from the image (a worker beside the web server): entrypoint, then command.
            parts, first = [], None
            for field_name in ("entrypoint", "command"):
                node = _get(svc, field_name)
                text = compose_command(_scalar(node) if isinstance(node, yaml.ScalarNode)
                                       else [_scalar(x) or "" for x in _seq(node)] if node is not None else None)
                if text:
                    parts.append(text)
                    first = first or node
            if parts and first is not None:
                facts.append(_fact("program.command", repo, path, _line(first), owner=name, command=" ".join(parts)[:500],
                                   source="compose", context=context))
            for env_name, value, line in _env_pairs(_get(svc, "environment")):
                facts.append(_fact("config.env", repo, path, line, owner=name, name=env_name, value=value,
                                   source="compose"))
            for label, value, line in _env_pairs(_get(svc, "labels"), passed_on=False):
                if label.startswith("traefik."):  # Traefik routes to the containers that carry its labels
                    facts.append(_fact("compose.label", repo, path, line, owner=name, name=label, value=value))
            depends = _get(svc, "depends_on")
            for item in _seq(depends):
                target = _scalar(item)
                if target:
                    facts.append(_fact("compose.depends", repo, path, _line(item), owner=name, target=target))
            for k, _v in _items(depends):
                facts.append(_fact("compose.depends", repo, path, _line(k), owner=name, target=k.value))
            for item in _seq(_get(svc, "links")):
                target = _scalar(item)
                if target:
                    facts.append(_fact("compose.depends", repo, path, _line(item), owner=name,
                                       target=target.split(":")[0], link="true"))
            for item in _seq(_get(svc, "volumes")):
                spec = _scalar(item) or _scalar(_get(item, "source"))
                host = spec.split(":")[0] if spec and _scalar(item) else spec
                if host and host.startswith((".", "/")) and (":" in (spec or "") or _get(item, "source") is not None):
                    # A bind mount: the host file or folder is configuration the container reads.
                    inside = (spec.split(":")[1] if _scalar(item) and spec.count(":") >= 1
                              else _scalar(_get(item, "target"))) or ""
                    facts.append(_fact("compose.mount", repo, path, _line(item), owner=name, source=host,
                                       target=inside))
            for item in _seq(_get(svc, "env_file")):
                ref = _scalar(item)
                if ref:
                    facts.append(_fact("compose.env_file", repo, path, _line(item), owner=name, file=ref))
            if _scalar(_get(svc, "env_file")):
                facts.append(_fact("compose.env_file", repo, path, _line(_get(svc, "env_file")), owner=name,
                                   file=_scalar(_get(svc, "env_file"))))
    return facts, []


# --------------------------------------------------------------------------- kubernetes
_WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet", "Pod"}


def _pod_spec(doc: yaml.Node, kind: str) -> yaml.Node | None:
    if kind == "Pod":
        return _get(doc, "spec")
    if kind == "CronJob":
        return _get(_get(_get(_get(_get(doc, "spec"), "jobTemplate"), "spec"), "template"), "spec")
    return _get(_get(_get(doc, "spec"), "template"), "spec")


_APP_LABELS = ("app", "app.kubernetes.io/name", "k8s-app", "service")


def _app_label(labels: yaml.Node | None) -> str | None:
    """The application a workload's pods belong to, by the labels that conventionally name it."""
    for k in _APP_LABELS:
        value = _scalar(_get(labels, k))
        if value and "{{" not in value:
            return value
    return None


def _label_set(labels: yaml.Node | None) -> str:
    """Labels or a selector as sorted ``key=value`` pairs joined by commas; empty when any value is
    a template (Helm ``{{ }}``) whose value is only known at deploy time."""
    pairs = []
    for k, v in _items(labels):
        value = _scalar(v)
        if value is None or "{{" in value or "{{" in k.value:
            return ""
        pairs.append(f"{k.value}={value}")
    return ",".join(sorted(pairs))


def read_kubernetes(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        kind = _scalar(_get(doc, "kind"))
        if PurePosixPath(path).name.startswith("kustomization") and kind != "Component" and any(
                (_scalar(r) or "").startswith("../") and not (_scalar(r) or "").endswith((".yaml", ".yml", ".json"))
                for r in _seq(_get(doc, "resources"))):
            # A kustomize overlay (`resources: [../../base]`): one deployment variant (development,
            # production) of a base. What only an overlay adds is opted into, like a compose variant.
            facts.append(_fact("k8s.variant", repo, path, _line(doc), folder=str(PurePosixPath(path).parent)))
            continue
        if not kind or _get(doc, "apiVersion") is None:
            continue
        if kind == "Component" and PurePosixPath(path).name.startswith("kustomization"):
            # An optional kustomize Component: what it adds is a variant people opt into, not the base system.
            facts.append(_fact("k8s.variant", repo, path, _line(doc), folder=str(PurePosixPath(path).parent)))
            continue
        meta = _get(doc, "metadata")
        name_node = _get(meta, "name")
        name = _scalar(name_node)
        if not name:
            continue
        line = _line(name_node) if name_node is not None else _line(doc)
        if kind in _WORKLOADS:
            spec = _pod_spec(doc, kind)
            labels = _get(_get(_get(_get(doc, "spec"), "template"), "metadata"), "labels") or _get(meta, "labels")
            app = _app_label(labels)
            containers = _seq(_get(spec, "containers"))
            image = _scalar(_get(containers[0], "image")) if containers else None
            ports = []
            for c in containers:
                for p in _seq(_get(c, "ports")):
                    cp = _scalar(_get(p, "containerPort"))
                    if cp:
                        ports.append(cp)
            facts.append(_fact("k8s.workload", repo, path, line, name=name, workload_kind=kind, image=image,
                               app=app, ports=",".join(ports), labels=_label_set(labels),
                               service_account=_scalar(_get(spec, "serviceAccountName")) or ""))
            annotations = _get(_get(_get(_get(doc, "spec"), "template"), "metadata"), "annotations")
            app_id = _get(annotations, "dapr.io/app-id")
            if _scalar(app_id):  # the Dapr sidecar injected beside it answers to this app id
                facts.append(_fact("dapr.app_id", repo, path, _line(app_id), app_id=_scalar(app_id), owner=name))
            for c in containers:
                for e in _seq(_get(c, "env")):
                    en = _get(e, "name")
                    value = _scalar(_get(e, "value"))
                    if _scalar(en) and value is not None:
                        facts.append(_fact("config.env", repo, path, _line(en), owner=name, name=_scalar(en),
                                           value=value, source="kubernetes"))
                    key_ref = _get(_get(e, "valueFrom"), "configMapKeyRef")
                    if _scalar(en) and key_ref is not None and _scalar(_get(key_ref, "name")) and _scalar(_get(key_ref, "key")):
                        # SPRING_DATASOURCE_URL from ConfigMap sql-config, key connection_string
                        facts.append(_fact("k8s.env_key_ref", repo, path, _line(en), owner=name, name=_scalar(en),
                                           configmap=_scalar(_get(key_ref, "name")), key=_scalar(_get(key_ref, "key"))))
                for ef in _seq(_get(c, "envFrom")):
                    ref = _scalar(_get(_get(ef, "configMapRef"), "name"))
                    if ref:
                        facts.append(_fact("k8s.env_from", repo, path, _line(ef), owner=name, configmap=ref))
        elif kind == "Service":
            spec = _get(doc, "spec")
            selector = _get(spec, "selector")
            app = _app_label(selector)
            ports = [p for p in (_scalar(_get(x, "port")) for x in _seq(_get(spec, "ports"))) if p]
            facts.append(_fact("k8s.service", repo, path, line, name=name, app=app, ports=",".join(ports),
                               type=_scalar(_get(spec, "type")), selector=_label_set(selector)))
        elif kind == "ClusterRoleBinding":
            # Cluster-wide rights for a service account: what controllers, operators and agents need.
            for subject in _seq(_get(doc, "subjects")):
                if _scalar(_get(subject, "kind")) == "ServiceAccount" and _scalar(_get(subject, "name")):
                    facts.append(_fact("k8s.cluster_binding", repo, path, _line(subject),
                                       service_account=_scalar(_get(subject, "name")) or "", binding=name))
        elif kind == "ConfigMap":
            for k, v in _items(_get(doc, "data")):
                value = _scalar(v)
                if value is not None:
                    facts.append(_fact("k8s.configmap", repo, path, _line(k), configmap=name, name=k.value, value=value))
        elif kind == "Ingress":
            facts.append(_fact("k8s.ingress_resource", repo, path, line, ingress=name))
            for rule in _seq(_get(_get(doc, "spec"), "rules")):
                for p in _seq(_get(_get(rule, "http"), "paths")):
                    svc = _get(_get(_get(p, "backend"), "service"), "name") or _get(_get(p, "backend"), "serviceName")
                    if _scalar(svc):
                        facts.append(_fact("k8s.ingress", repo, path, _line(svc), ingress=name, target=_scalar(svc),
                                           route=_scalar(_get(p, "path"))))
    return facts, []


# --------------------------------------------------------------------------- Dockerfile, .env
_ARTIFACT = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.-]*?)(?:-\d[A-Za-z0-9_.-]*)?\.(?:jar|war|ear)\b")


def _substitute(text: str, env: dict[str, str]) -> str:
    """Expand ``$NAME`` and ``${NAME}`` with the Dockerfile's own ENV/ARG values (others stay as written)."""
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), m.group(0)), text)


def _instructions(text: str) -> Iterator[tuple[int, str]]:
    """Dockerfile instructions with backslash continuations joined, each with its first line number."""
    start, parts = 0, []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not parts:
            if not line or line.startswith("#"):
                continue
            start = i
        elif line.startswith("#"):
            continue
        if line.endswith("\\"):
            parts.append(line[:-1].strip())
            continue
        parts.append(line)
        yield start, " ".join(p for p in parts if p)
        parts = []
    if parts:
        yield start, " ".join(p for p in parts if p)


def read_dockerfile(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """FROM, EXPOSE, ENTRYPOINT/CMD, and the build artifacts the image runs or copies in
    (``ADD ${APP}-1.0.jar /app/``, ``CMD java -jar target/orders-0.1.jar``): the artifact name is how
    an alternative recipe or a deployment that only names an image is tied to the module that builds it."""
    facts: list[Fact] = []
    env: dict[str, str] = {}
    for i, line in _instructions(text):
        m = re.match(r"(?i)^(FROM|EXPOSE|ENTRYPOINT|CMD|ADD|COPY|ENV|ARG)\s+(.*)$", line)
        if not m:
            continue
        instr, arg = m.group(1).upper(), m.group(2).strip()
        if instr in ("ENV", "ARG"):
            pairs = re.findall(r"([A-Za-z_][A-Za-z0-9_]*)=(\"[^\"]*\"|'[^']*'|\S*)", arg)
            if not pairs and instr == "ENV" and len(arg.split(None, 1)) == 2:
                pairs = [tuple(arg.split(None, 1))]
            for k, v in pairs:
                env[k] = v.strip().strip("'\"")
                if instr == "ENV":  # the image's environment: a deployment default the container starts with
                    facts.append(_fact("config.env", repo, path, i, owner="", name=k, value=env[k], source="dockerfile"))
            continue
        if instr == "FROM":
            facts.append(_fact("docker.from", repo, path, i, image=arg.split()[0]))
        elif instr == "EXPOSE":
            for port in arg.split():
                facts.append(_fact("docker.expose", repo, path, i, port=_substitute(port, env).split("/")[0]))
        elif instr in ("ENTRYPOINT", "CMD"):
            facts.append(_fact("docker.command", repo, path, i, instruction=instr, command=arg[:500]))
        if instr in ("ADD", "COPY", "ENTRYPOINT", "CMD"):
            for name in sorted(set(_ARTIFACT.findall(_substitute(arg, env)[:2000]))):
                if "$" not in name and "*" not in name and name.lower() not in ("app", "application", "target"):
                    facts.append(_fact("docker.artifact", repo, path, i, name=name))
    return facts, []


def read_dotenv(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts: list[Fact] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if value[:1] in ("'", '"') and value[0] in value[1:]:
            value = value[1:value.index(value[0], 1)]  # quoted: up to the closing quote, comment or not
        else:
            value = re.split(r"\s+#", value, maxsplit=1)[0].strip()  # `x=1   # a comment` is x=1
        if re.match(r"^[A-Za-z_][A-Za-z0-9_.]*$", name.strip()):
            facts.append(_fact("config.env", repo, path, i, owner="", name=name.strip(), value=value, source="dotenv"))
    return facts, []


# --------------------------------------------------------------------------- Spring configuration
def _flatten_yaml(node: yaml.Node, prefix: str, out: list[tuple[str, str, int]], sep: str = ".") -> None:
    for k, v in _items(node):
        key = f"{prefix}{sep}{k.value}" if prefix else str(k.value)
        if isinstance(v, yaml.MappingNode):
            _flatten_yaml(v, key, out, sep)
        elif isinstance(v, yaml.ScalarNode):
            out.append((key, str(v.value), _line(k)))
        elif isinstance(v, yaml.SequenceNode):
            for idx, item in enumerate(v.value):
                if isinstance(item, yaml.ScalarNode):
                    out.append((f"{key}[{idx}]", str(item.value), _line(item)))
                elif isinstance(item, yaml.MappingNode):
                    _flatten_yaml(item, f"{key}[{idx}]", out, sep)


def read_spring_config(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    entries: list[tuple[str, str, int]] = []
    if path.endswith(".properties"):
        for i, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith(("#", "!")):
                continue
            m = re.match(r"^([^=:\s]+)\s*[=:]\s*(.*)$", line)
            if m:
                entries.append((m.group(1), m.group(2).strip(), i))
        documents = [entries]
    else:
        documents = []
        for doc in load_yaml_documents(text):
            part: list[tuple[str, str, int]] = []
            _flatten_yaml(doc, "", part)
            documents.append(part)
    profile = ""
    m = re.search(r"(?:application|bootstrap)-([^/.]+)\.(?:ya?ml|properties)$", path)
    if m:
        profile = m.group(1)
    facts: list[Fact] = []
    active = _file_active_profiles(documents)
    for part in documents:
        doc_profile = _document_profile(part, active)
        for key, value, line in part:
            facts.append(_fact("config.property", repo, path, line, name=key, value=value, profile=profile or doc_profile,
                               **({"profile_document": "true"} if doc_profile and not profile else {})))
    return facts, []


_PROFILE_KEYS = ("spring.profiles", "spring.config.activate.on-profile")


def _profile_names(value: str) -> list[str]:
    return [t for t in re.split(r"[\s,|&()]+", value) if t]


def _file_active_profiles(documents: list[list[tuple[str, str, int]]]) -> set[str]:
    """Profiles a file activates itself: ``spring.profiles.active``/``include`` in a document that
    belongs to no profile."""
    active: set[str] = set()
    for part in documents:
        if any(k in _PROFILE_KEYS or re.match(r"^spring\.profiles\[\d+\]$", k) for k, _v, _l in part):
            continue
        for key, value, _line in part:
            if re.match(r"^spring\.profiles\.(active|include)(\[\d+\])?$", key):
                active.update(_profile_names(value))
    return active


def _document_profile(part: list[tuple[str, str, int]], active: set[str]) -> str:
    """The profile a ``---`` document of a Spring YAML file applies to (``spring.config.activate.on-profile``,
    legacy ``spring.profiles``), or "" when it always applies: no profile, a negation (``!test``), the
    ``default`` profile, or a profile the file activates itself."""
    names = [n for k, v, _l in part if k in _PROFILE_KEYS or re.match(r"^(spring\.profiles|spring\.config\.activate"
                                                                       r"\.on-profile)\[\d+\]$", k)
             for n in _profile_names(v)]
    if not names or any(n.startswith("!") or n == "default" or n in active for n in names):
        return ""
    return ",".join(names)


# ASP.NET Core loads appsettings.json, then appsettings.{Environment}.json; the environment is
# "Production" unless ASPNETCORE_ENVIRONMENT/DOTNET_ENVIRONMENT says otherwise, so both are what a
# deployed service reads.  Other environments (Development, Docker, Staging...) are profiles: like a
# Spring profile they may link to components the system has, never introduce new ones.
DOTNET_DEFAULT_ENVIRONMENTS = frozenset({"", "production"})
# A string (kept), or what YAML would not read: a comment, a comma before a closing bracket.
_JSON_COMMENT_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|,(?=(?:\s|//[^\n]*|/\*.*?\*/)*[}\]])', re.S)


def _json_as_yaml(text: str) -> str:
    """JSON as the .NET configuration reader accepts it (comments, trailing commas, a byte-order
    mark, tabs) turned into YAML flow text with every value on the line it was written on."""
    def blank(m: re.Match[str]) -> str:
        token = m.group()
        return token if token.startswith('"') else re.sub(r"[^\n]", " ", token)

    return _JSON_COMMENT_OR_STRING.sub(blank, text.lstrip("\ufeff")).replace("\t", " ")


HOST_VALUE = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|[A-Za-z][A-Za-z0-9_.-]*:\d{2,5})$")


def _json_settings(text: str, sep: str) -> list[tuple[str, str, int]]:
    """(flattened key, value, line) of every setting of a JSON configuration document."""
    entries: list[tuple[str, str, int]] = []
    for doc in load_yaml_documents(_json_as_yaml(text)):
        _flatten_yaml(doc, "", entries, sep)
    return entries


def read_config_json(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """A service configuration document (config.json, service-config.json): its settings whose
    values are addresses (``"ProfileMongoAddress": "mongodb-profile:27017"``), for code that reads
    them by key (see graph/connections.py config_documents)."""
    return [_fact("config.document", repo, path, line, name=key, value=value)
            for key, value, line in _json_settings(text, ".") if HOST_VALUE.match(value.strip())], []


def read_dotnet_settings(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """``appsettings[.Environment].json`` (and Ocelot's ``ocelot[.Environment].json`` routes): every
    setting as a property named the .NET way (``ConnectionStrings:OrdersDb``, ``RabbitMQ:Host``,
    ``Routes[0]:DownstreamHostAndPorts[0]:Host``), at its line."""
    m = re.match(r"^(?:appsettings|ocelot)\.(.+)\.json$", PurePosixPath(path).name, re.I)
    environment = m.group(1) if m else ""
    profile = "" if environment.lower() in DOTNET_DEFAULT_ENVIRONMENTS else environment
    return [_fact("config.property", repo, path, line, name=key, value=value, profile=profile)
            for key, value, line in _json_settings(text, ":")], []


# --------------------------------------------------------------------------- monitoring configuration
def read_prometheus(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """prometheus.yml: every static scrape target is a component Prometheus reads metrics from."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for job in _seq(_get(doc, "scrape_configs")):
            for sc in _seq(_get(job, "static_configs")):
                for t in _seq(_get(sc, "targets")):
                    value = _scalar(t)
                    if value:
                        facts.append(_fact("monitoring.target", repo, path, _line(t), value=value,
                                           job=_scalar(_get(job, "job_name")), via="prometheus scrape"))
    return facts, []


def _dapr_sidecar(svc: yaml.Node) -> tuple[str, str] | None:
    """(app id, the service it runs beside) of a Dapr sidecar container (``image: daprio/daprd``,
    ``command: ["./daprd", "-app-id", "orders"]``, ``network_mode: "service:orders"``)."""
    if not (_scalar(_get(svc, "image")) or "").startswith("daprio/daprd"):
        return None
    node = _get(svc, "command")
    words = (_scalar(node) or "").split() if isinstance(node, yaml.ScalarNode) else [_scalar(x) or "" for x in _seq(node)]
    app_id = next((words[i + 1] for i, w in enumerate(words[:-1]) if w in ("-app-id", "--app-id")), None)
    app_id = app_id or next((w.split("=", 1)[1] for w in words if w.startswith(("-app-id=", "--app-id="))), None)
    mode = _scalar(_get(svc, "network_mode")) or ""
    owner = mode.split(":", 1)[1] if mode.startswith("service:") else ""
    return (app_id, owner) if app_id and owner else None


def read_otel_collector(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """An OpenTelemetry collector's configuration: each exporter ships telemetry to its ``endpoint``
    (``otlp/jaeger: endpoint: http://jaeger:4317``), the backends the collector writes to.  Only
    exporters a pipeline of ``service.pipelines`` uses, when the file declares pipelines."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        used: set[str] | None = None
        pipelines = _get(_get(doc, "service"), "pipelines")
        if pipelines is not None:
            used = {_scalar(e) or "" for _k, p in _items(pipelines) for e in _seq(_get(p, "exporters"))}
        for k, exporter in _items(_get(doc, "exporters")):
            name = str(k.value)
            if used is not None and name not in used:
                continue
            for field_name in ("endpoint", "url"):
                value = _scalar(_get(exporter, field_name))
                if value and not value.startswith(("0.0.0.0", "localhost", "127.")):
                    facts.append(_fact("monitoring.target", repo, path, _line(_get(exporter, field_name)),
                                       value=value if "://" in value else f"tcp://{value}",
                                       via=f"OpenTelemetry collector exporter {name}"))
    return facts, []


def read_logback(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """Logback appenders that ship logs over the network (logstash-logback-encoder's
    ``<destination>logstash:5000</destination>``): the log sink the component writes to."""
    facts: list[Fact] = []
    # <springProperty name="host" source="logstash.host" defaultValue="logstash"/> / <property name=.. value=..>
    defaults = {m.group(1): m.group(2) for m in re.finditer(
        r"<(?:springProperty|property)\b(?=[^>]*\bname=\"([^\"]+)\")(?=[^>]*\b(?:defaultValue|value)=\"([^\"]+)\")[^>]*>", text)}

    def fill(ref: re.Match[str]) -> str:  # ${LOGSTASH_HOST:-logstash:5000}, ${host} from a property above
        return ref.group(3) if ref.group(3) is not None else defaults.get(ref.group(1), ref.group(0))
    for m in re.finditer(r"<(destination|remoteHost|host)>\s*([^<\s]+)\s*</\1>", text):
        value = re.sub(r"\$\{([A-Za-z0-9_.-]+)(:-?([^}]*))?\}", fill, m.group(2))
        if "$" in value or not re.match(r"^[A-Za-z0-9_.-]+(:\d+)?$", value):
            continue
        facts.append(_fact("monitoring.target", repo, path, text.count("\n", 0, m.start()) + 1,
                           value=f"tcp://{value}", via="log shipping (logback)"))
    return facts, []


def read_beats(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """Filebeat/Metricbeat ``output.logstash.hosts`` / ``output.elasticsearch.hosts``: where it ships."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        entries: list[tuple[str, str, int]] = []
        _flatten_yaml(doc, "", entries)
        for key, value, line in entries:
            m = re.match(r"^output\.(logstash|elasticsearch|kafka|redis)\.hosts(\[\d+\])?$", key)
            if m and value:
                facts.append(_fact("monitoring.target", repo, path, line,
                                   value=value if "://" in value else f"tcp://{value}", via=f"log shipping ({m.group(1)})"))
    return facts, []


def read_grafana_datasources(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """Grafana datasource provisioning: Grafana queries each datasource URL."""
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for ds in _seq(_get(doc, "datasources")):
            url = _get(ds, "url")
            if _scalar(url):
                facts.append(_fact("monitoring.target", repo, path, _line(url), value=_scalar(url),
                                   via=f"grafana datasource {_scalar(_get(ds, 'type')) or ''}".strip()))
    return facts, []


# --------------------------------------------------------------------------- package manifests
def _line_of(text: str, needle: str, default: int = 1) -> int:
    idx = text.find(needle)
    return text.count("\n", 0, idx) + 1 if idx >= 0 else default


class _LineIndex:
    """First line of each needle found by one regex pass, so a manifest with many dependencies is
    read in linear time (searching the text once per dependency is quadratic on hostile input)."""

    def __init__(self, text: str, pattern: str) -> None:
        self._first: dict[str, int] = {}
        line, pos = 1, 0
        for m in re.finditer(pattern, text):
            line += text.count("\n", pos, m.start())
            pos = m.start()
            self._first.setdefault(m.group(1), line)

    def line(self, key: str, default: int = 1) -> int:
        return self._first.get(key, default)


def read_package_json(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("package.json is not an object")
    name = data.get("name") if isinstance(data.get("name"), str) else None
    bin_ = data.get("bin")  # "bin": "cli.js" installs a command named like the package
    commands = ([name.rsplit("/", 1)[-1]] if isinstance(bin_, str) and name else
                sorted(str(k) for k in bin_) if isinstance(bin_, dict) else [])
    facts = [_fact("manifest", repo, path, _line_of(text, '"name"'), ecosystem="npm", name=name,
                   main=data.get("main") if isinstance(data.get("main"), str) else None,
                   start=(data.get("scripts") or {}).get("start") if isinstance(data.get("scripts"), dict) else None,
                   commands=", ".join(commands) or None)]
    keys = _LineIndex(text, r'"((?:[^"\\\n]|\\.)*)"')
    # devDependencies are facts of their own kind: what a package needs to build or check (types,
    # linters, shared configs), not what it runs with, so roles keyed on dependencies ignore them;
    # between packages of one workspace they still are build-time edges (graph/connections.py).
    for section in ("dependencies", "devDependencies"):
        deps = data.get(section)
        if not isinstance(deps, dict):
            continue
        index, base = keys, 0
        if section != "dependencies":  # the key's line inside its own section, not where it is first named
            m = re.search(r'"devDependencies"\s*:', text)
            if m:
                index, base = _LineIndex(text[m.end():], r'"((?:[^"\\\n]|\\.)*)"'), text.count("\n", 0, m.end())
        for dep in sorted(deps):
            line = base + index.line(str(dep))
            facts.append(_fact("manifest.dependency", repo, path, line, ecosystem="npm", name=str(dep))
                         if section == "dependencies" else
                         _fact("manifest.dev_dependency", repo, path, line, ecosystem="npm", name=str(dep)))
    facts.extend(package_json_entries(repo, path, text, data))
    return facts, []


def read_pyproject(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    data = tomllib.loads(text)
    project = data.get("project") or (data.get("tool", {}).get("poetry") if isinstance(data.get("tool"), dict) else {}) or {}
    name = project.get("name") if isinstance(project, dict) else None
    scripts = project.get("scripts") if isinstance(project, dict) else None  # console scripts: installed commands
    commands = sorted(str(k) for k in scripts) if isinstance(scripts, dict) else []
    facts = [_fact("manifest", repo, path, _line_of(text, "name"), ecosystem="python", name=name,
                   commands=", ".join(commands) or None)]
    deps = project.get("dependencies", []) if isinstance(project, dict) else []
    names = deps if isinstance(deps, list) else list(deps) if isinstance(deps, dict) else []
    words = _LineIndex(text, r"([A-Za-z0-9_.-]+)")
    for dep in names:
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)", str(dep))
        if m and m.group(1).lower() != "python":
            facts.append(_fact("manifest.dependency", repo, path, words.line(m.group(1)), ecosystem="python",
                               name=m.group(1).lower()))
    facts.extend(pyproject_entries(repo, path, text, data))
    return facts, []


def read_requirements(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts = [_fact("manifest", repo, path, 1, ecosystem="python", name=None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)", raw.split("#", 1)[0])
        if m and not raw.strip().startswith("-"):
            facts.append(_fact("manifest.dependency", repo, path, i, ecosystem="python", name=m.group(1).lower()))
    return facts, []


def read_go_mod(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts: list[Fact] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = re.match(r"^module\s+(\S+)", line)
        if m:
            facts.append(_fact("manifest", repo, path, i, ecosystem="go", name=m.group(1)))
            continue
        m = re.match(r"^(?:require\s+)?([a-zA-Z0-9.-]+\.[a-z]{2,}/\S+)\s+v\S+", line)
        if m:
            facts.append(_fact("manifest.dependency", repo, path, i, ecosystem="go", name=m.group(1)))
    return facts, []


def read_pom(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    if "<!ENTITY" in text:
        raise ValueError("pom.xml declares entities; refusing to expand them")
    root = ET.fromstring(text)
    ns = {"m": root.tag[1:].split("}")[0]} if root.tag.startswith("{") else {}
    q = (lambda t: f"m:{t}") if ns else (lambda t: t)
    artifact = root.findtext(q("artifactId"), namespaces=ns)
    packaging = (root.findtext(q("packaging"), namespaces=ns) or "").strip().lower() or None
    facts = [_fact("manifest", repo, path, _line_of(text, "<artifactId>"), ecosystem="maven", name=artifact,
                   packaging=packaging)]
    artifacts = _LineIndex(text, r"<artifactId>([^<]*)</artifactId>")
    for dep in root.findall(f"{q('dependencies')}/{q('dependency')}", ns):
        aid = dep.findtext(q("artifactId"), namespaces=ns)
        if aid:
            # A dependency of type war/ear bundles a deployable web application (an all-in-one image's
            # module); it is not a library the module links against.
            bundled = (dep.findtext(q("type"), namespaces=ns) or "").strip().lower() in ("war", "ear")
            facts.append(_fact("manifest.bundle" if bundled else "manifest.dependency", repo, path,
                               artifacts.line(aid), ecosystem="maven", name=aid))
    return facts, []


def read_gradle(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    facts = [_fact("manifest", repo, path, 1, ecosystem="gradle", name=None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.search(r"(?:implementation|api|compile|runtimeOnly)\s*\(?\s*['\"]([^:'\"]+):([^:'\"]+)", raw)
        if m:
            facts.append(_fact("manifest.dependency", repo, path, i, ecosystem="maven", name=m.group(2)))
    return facts, []


def read_csproj(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
    """A .NET project: one build unit named after the file, its package and project references.
    An Aspire app host (``Aspire.AppHost.Sdk`` / ``IsAspireHost``) is a deployment descriptor: its
    project references are the services it runs, not libraries it links."""
    if "<!ENTITY" in text:
        raise ValueError("project file declares entities; refusing to expand them")
    name = PurePosixPath(path).stem
    host = bool(re.search(r"Aspire\.AppHost\.Sdk|<IsAspireHost>\s*true", text, re.I))
    facts = [_fact("manifest", repo, path, 1, ecosystem="dotnet", name=name, aspire_host="true" if host else None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        for kind, ref in re.findall(r"<(PackageReference|ProjectReference)\s+Include\s*=\s*\"([^\"]+)\"", raw):
            if kind == "ProjectReference":
                if host:
                    continue
                ref = PurePosixPath(ref.replace("\\", "/")).stem
            facts.append(_fact("manifest.dependency", repo, path, i, ecosystem="dotnet", name=ref))
    return facts, []


def _generic_manifest(ecosystem: str) -> Reader:
    def read(repo: str, path: str, text: str) -> tuple[list[Fact], list[Warning_]]:
        return [_fact("manifest", repo, path, 1, ecosystem=ecosystem, name=None)], []
    return read


_PROMETHEUS_HINT = re.compile(r"^scrape_configs\s*:", re.M)
_OTEL_COLLECTOR_HINT = re.compile(r"^receivers\s*:", re.M)
_DATASOURCES_HINT = re.compile(r"^datasources\s*:", re.M)
_K8S_HINT = re.compile(r"^\s*apiVersion\s*:", re.M)
_COMPOSE_HINT = re.compile(r"^services\s*:", re.M)
# Top-level keys of Spring configuration, nested (`spring:`) or dotted (`spring.data.mongodb:`, `server.port: 7001`).
_SPRING_HINT = re.compile(r"^((spring|eureka|zuul|ribbon|hystrix|feign|security|management)(\.[\w.-]+)?"
                          r"|(server|logging)\.[\w.-]+)\s*:", re.M)


def reader_for(path: str, head: str) -> Reader | None:
    """Pick the reader for a non-source file by its name (and, for YAML, by what it looks like)."""
    name = PurePosixPath(path).name
    low = name.lower()
    if low.startswith("dockerfile") or low.endswith(".dockerfile"):
        return read_dockerfile
    if low == ".env" or low.startswith(".env.") or low.endswith(".env"):
        return read_dotenv
    if low == "package.json":
        return read_package_json
    if low == "pyproject.toml":
        return read_pyproject
    if low.startswith("requirements") and low.endswith(".txt"):
        return read_requirements
    if low == "go.mod":
        return read_go_mod
    if low == "pom.xml":
        return read_pom
    if low in ("build.gradle", "build.gradle.kts"):
        return read_gradle
    if low.endswith((".csproj", ".fsproj", ".vbproj")):
        return read_csproj
    if low == "setup.py":
        return read_setup_py
    if low == "setup.cfg":
        return read_setup_cfg
    if name == "Procfile" or low.startswith("procfile."):
        return read_procfile
    if low in ("makefile", "gnumakefile"):
        return read_makefile
    if low == "cmakelists.txt":
        return read_cmake
    if low in ("cargo.toml", "gemfile", "composer.json"):
        return _generic_manifest({"cargo.toml": "cargo", "gemfile": "ruby", "composer.json": "php"}.get(low, "dotnet"))
    if re.match(r"^(application|bootstrap)[^/]*\.(ya?ml|properties)$", low):
        return read_spring_config
    if low.endswith((".yml", ".yaml")) and "/templates/" in f"/{path}" and "{{" in head:
        return None  # a Helm/Go template, not YAML until rendered (its values.yaml is read instead)
    if re.match(r"^values[^/]*\.ya?ml$", low):
        return read_spring_config  # Helm values: flattened keys, owned by the chart's component
    if re.match(r"^logback[^/]*\.xml$", low):
        return read_logback
    if re.match(r"^([a-z0-9]+[-_.])*config\.json$", low) and not low.startswith(("tsconfig", "jsconfig")):
        return read_config_json
    if re.match(r"^(appsettings|ocelot)(\.[^/]+)?\.json$", low):
        return read_dotnet_settings  # ASP.NET Core settings; Ocelot API gateway routes
    if low.endswith((".yml", ".yaml")) and re.match(r"^(file|metric|packet|heart)beat", low):
        return read_beats
    if low in ("kustomization.yaml", "kustomization.yml"):
        return read_kubernetes  # may omit apiVersion/kind
    if low.endswith((".yml", ".yaml")):
        if _PROMETHEUS_HINT.search(head):
            return read_prometheus
        if _OTEL_COLLECTOR_HINT.search(head):
            return read_otel_collector
        if _DATASOURCES_HINT.search(head):
            return read_grafana_datasources
        if (low.startswith(("docker-compose", "compose")) or _COMPOSE_HINT.search(head)):
            return read_compose
        if _K8S_HINT.search(head):
            return read_kubernetes
        if _SPRING_HINT.search(head):  # Spring Cloud Config repositories: <app>.yml, shared/application.yml
            return read_spring_config
    return None


MAX_LINE = 20_000
# Readers that scan line by line with regular expressions: over-long lines are cut to MAX_LINE so
# no pattern can spend quadratic time on a hostile line (a minified blob named Dockerfile, say).
_LINE_READERS = frozenset({"read_dockerfile", "read_dotenv", "read_requirements", "read_go_mod", "read_gradle",
                           "read_spring_config", "read_procfile", "read_setup_py", "read_makefile"})


def _cut_long_lines(text: str) -> tuple[str, int | None]:
    """Text with every line cut to MAX_LINE characters, and the first cut line (or None)."""
    if len(text) <= MAX_LINE:
        return text, None
    lines = text.split("\n")
    first = next((i + 1 for i, ln in enumerate(lines) if len(ln) > MAX_LINE), None)
    if first is None:
        return text, None
    return "\n".join(ln[:MAX_LINE] for ln in lines), first


def extract_descriptor(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Read one descriptor/manifest file; a malformed one yields a warning naming it, never an exception."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        return [], [Warning_(repo, path, line, f"not valid UTF-8 near line {line}; skipped")]
    reader = reader_for(path, text[:4096])
    if reader is None:
        return [], []
    notes: list[Warning_] = []
    if getattr(reader, "__name__", "") in _LINE_READERS:
        text, cut = _cut_long_lines(text)
        if cut is not None:
            notes.append(Warning_(repo, path, cut, f"line {cut} is longer than {MAX_LINE} characters; "
                                                   "read its start only"))
    try:
        facts, warnings = reader(repo, path, text)
    except RecursionError:
        return [], [Warning_(repo, path, 0, f"malformed {PurePosixPath(path).name}: nested too deeply; skipped")]
    except (yaml.YAMLError, ValueError, json.JSONDecodeError, tomllib.TOMLDecodeError, ET.ParseError, configparser.Error,
            TypeError, AttributeError, KeyError, IndexError, OverflowError, UnicodeError) as exc:
        line, detail = _error_position(exc)
        return [], [Warning_(repo, path, line, f"malformed {PurePosixPath(path).name}: {detail[:200]}; skipped")]
    return sorted(set(facts), key=Fact.order), sorted(set(warnings + notes))


def _error_position(exc: Exception) -> tuple[int, str]:
    """(line, one-line description) of a parser error, the line being 0 when the parser gave none."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        line = exc.problem_mark.line + 1
        return line, f"{exc.problem or exc.context or 'invalid YAML'} at line {line}"
    if isinstance(exc, json.JSONDecodeError):
        return exc.lineno, f"{exc.msg} at line {exc.lineno}"
    if isinstance(exc, ET.ParseError) and getattr(exc, "position", None):
        line = exc.position[0]
        return line, str(exc).splitlines()[0] if str(exc).strip() else f"invalid XML at line {line}"
    text = str(exc).strip()
    return 0, (text.splitlines()[0] if text else type(exc).__name__)
