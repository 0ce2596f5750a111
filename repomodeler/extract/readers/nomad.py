"""HashiCorp Nomad job files (``*.nomad``, ``*.nomad.hcl``): the workloads a Nomad cluster runs.

A job holds groups; a group holds the tasks that run together (a container each, with the Docker or
Podman driver), the network ports they listen on, and the services it registers in Consul or Nomad's
own catalog. A service's tags carry routing rules for Traefik's Consul Catalog provider, and its
Consul Connect ``upstreams`` are the services the group calls through its sidecar.

The facts are the shapes the Kubernetes reader gives, so one resolver serves both: a task is a
``k8s.workload`` (its image, ports, environment as ``config.env``), a service a ``k8s.service`` selecting
its group's workload, a service tag a ``compose.label`` of the workload (Traefik reads them alike), and
an upstream the address Nomad hands the task (``NOMAD_UPSTREAM_ADDR_<name>``), ``<name>:<port>``.
Parsed with the tree-sitter HCL grammar, as Terraform files are.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.terraform import _named, _parser, _text
from repomodeler.records import Fact

# Drivers that run a container image (exec, java and raw_exec run a binary on the client).
_CONTAINER_DRIVERS = frozenset({"docker", "podman", "containerd-driver"})


class _Job:
    def __init__(self, repo: str, path: str, text: str) -> None:
        self.repo, self.path = repo, path
        self.src = text.encode()
        self.facts: list[Fact] = []
        self.variables: dict[str, str] = {}

    def read(self) -> list[Fact]:
        tree = _parser().parse(self.src)
        body = next((c for c in tree.root_node.children if c.type == "body"), None)
        for var in _blocks(body, "variable"):  # the file's variables' defaults fill ${var.x} in its values
            default = self.field(var, "default")
            if default is not None and "${" not in default:
                self.variables[self.label(var)] = default
        for block in _blocks(body, "job"):
            job = self.label(block)
            groups = list(_blocks(_body(block), "group"))
            for group in groups:
                self.group(job, group, len(groups) == 1)
        return self.facts

    def label(self, block) -> str:  # type: ignore[no-untyped-def]
        for c in block.children:
            if c.type == "string_lit":
                return self.string(c)
            if c.type == "identifier" and c is not block.children[0]:
                return _text(c, self.src)
        return ""

    def string(self, node) -> str:  # type: ignore[no-untyped-def]
        """A quoted string's text, interpolations kept as written (``ghcr.io/acme/api:${var.tag}``)."""
        text = _text(node, self.src)
        text = text[1:-1] if len(text) >= 2 and text[0] == '"' and text[-1] == '"' else text
        return re.sub(r"\$\{var\.([\w-]+)\}", lambda m: self.variables.get(m.group(1), m.group(0)), text)

    def value(self, attr) -> str | None:  # type: ignore[no-untyped-def]
        """An attribute's value when it is a string or a number, else None."""
        expr = next((c for c in attr.children if c.type == "expression"), None)
        node = expr
        while node is not None and node.type in ("expression", "literal_value", "template_expr"):
            inner = _named(node)
            if len(inner) != 1:
                break
            node = inner[0]
        if node is None:
            return None
        if node.type in ("string_lit", "quoted_template"):
            return self.string(node)
        if node.type in ("numeric_lit", "bool_lit"):
            return _text(node, self.src)
        return None

    def strings(self, attr) -> list[tuple[str, int]]:  # type: ignore[no-untyped-def]
        """The strings of a list attribute (``tags = ["a", "b"]``), each with its line."""
        out = []
        stack = [c for c in attr.children if c.type == "expression"]
        while stack:
            node = stack.pop(0)
            if node.type in ("string_lit", "quoted_template"):
                out.append((self.string(node), node.start_point[0] + 1))
            else:
                stack[:0] = _named(node)
        return out

    def attrs(self, block) -> dict[str, tuple[object, int]]:  # type: ignore[no-untyped-def]
        return {_text(a.children[0], self.src): (a, a.start_point[0] + 1)
                for a in (_body(block).children if _body(block) is not None else []) if a.type == "attribute"}

    def field(self, block, key: str) -> str | None:  # type: ignore[no-untyped-def]
        """The string or number an attribute of `block` holds, else None."""
        attr = self.attrs(block).get(key) if block is not None else None
        return self.value(attr[0]) if attr is not None else None

    def group(self, job: str, group, only: bool) -> None:  # type: ignore[no-untyped-def]
        gname = self.label(group) or job
        selector = f"nomad-group={job}.{gname}"
        ports = []
        for network in _blocks(_body(group), "network"):
            for port in _blocks(_body(network), "port"):
                attrs = self.attrs(port)
                for key in ("to", "static"):
                    if key in attrs and (v := self.value(attrs[key][0])) and v.isdigit():
                        ports.append(v)
                        break
        services = list(_blocks(_body(group), "service"))
        tasks = [t for t in _blocks(_body(group), "task") if self.field(t, "driver") in _CONTAINER_DRIVERS
                 and not list(_blocks(_body(t), "lifecycle"))]  # prestart/sidecar helpers are not the workload
        for task in tasks:
            tname = self.label(task)
            # the one task of a job's one group is known by the job's name (product-api, whose group is `svc`
            # and whose service `product-api-http`), else by its own
            name = (job if only and len(tasks) == 1 and job else tname) or gname
            config = next(iter(_blocks(_body(task), "config")), None)
            image, command = self.field(config, "image"), self.field(config, "command")
            self.facts.append(fact("k8s.workload", self.repo, self.path, task.start_point[0] + 1, name=name,
                                   workload_kind="NomadTask", image=image or "", app=name, ports=",".join(ports),
                                   labels=selector, command=command or "", service_account=""))
            for env in _blocks(_body(task), "env"):
                for key, (attr, line) in sorted(self.attrs(env).items(), key=lambda kv: kv[1][1]):
                    value = self.value(attr)
                    if value is not None:
                        self.facts.append(fact("config.env", self.repo, self.path, line, owner=name, name=key,
                                               value=value, source="nomad"))
            if len(tasks) == 1:
                self.services(name, selector, services)

    def services(self, owner: str, selector: str, services: list) -> None:  # type: ignore[type-arg]
        for svc in services:
            attrs = self.attrs(svc)
            sname, port = self.field(svc, "name"), self.field(svc, "port")
            if sname:
                self.facts.append(fact("k8s.service", self.repo, self.path, svc.start_point[0] + 1, name=sname,
                                       app=owner, ports=port if port and port.isdigit() else "", type="",
                                       selector=selector))
            if "tags" in attrs:
                for tag, line in self.strings(attrs["tags"][0]):
                    key, eq, value = tag.partition("=")
                    if key and eq:  # a routing setting (traefik.enable=true), not a bare tag (http)
                        self.facts.append(fact("compose.label", self.repo, self.path, line, owner=owner,
                                               name=key.strip(), value=value.strip(), source="nomad"))
            for upstream in _descend(svc, ("connect", "sidecar_service", "proxy", "upstreams")):
                dest, bind = self.field(upstream, "destination_name"), self.field(upstream, "local_bind_port")
                if dest:
                    env = "NOMAD_UPSTREAM_ADDR_" + dest.replace("-", "_")
                    self.facts.append(fact("config.env", self.repo, self.path, upstream.start_point[0] + 1,
                                           owner=owner, name=env, value=f"{dest}:{bind}" if bind else dest,
                                           source="nomad"))


def _body(block):  # type: ignore[no-untyped-def]
    return next((c for c in block.children if c.type == "body"), None) if block is not None else None


def _blocks(body, kind: str):  # type: ignore[no-untyped-def]
    """The blocks of one type directly in a body."""
    for c in (body.children if body is not None else []):
        if c.type == "block" and c.children and c.children[0].type == "identifier" and \
                c.children[0].text.decode() == kind:
            yield c


def _descend(block, path: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """The blocks at a path of nested block types below `block` (connect > sidecar_service > ...)."""
    level = [block]
    for kind in path:
        level = [b for parent in level for b in _blocks(_body(parent), kind)]
    return level


def read_nomad(repo: str, path: str, text: str) -> list[Fact]:
    """One Nomad job file's workloads, services, their routing tags and Connect upstreams."""
    return _Job(repo, path, text).read()


READERS = (
    Reader("nomad", "descriptor", 432, read_nomad, patterns=(r"[^/]*\.nomad", r"[^/]*\.nomad\.hcl")),
)
