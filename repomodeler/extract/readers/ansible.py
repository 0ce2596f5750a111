"""Ansible tasks that run containers (``docker_container``, ``podman_container``): an Ansible deployment's workloads.

Why: a platform deployed by Ansible (each role's ``tasks/deploy.yml`` starting one container on the hosts of
its group) writes its architecture in those tasks; read as plain YAML they are nothing. Each task starting a
container is a workload: named by the task's ``name:`` (Jinja expressions taken out: ``kafka{{ idx }}`` is
``kafka``; a name that is only an expression is the image's, else the role's), running the image it names (a Jinja default's
literal, ``default('apache/couchdb:' ~ version)``; else the role's name stands for the image), with the
literal environment entries it hands the container (its `env:`, or the mapping a `set_fact` built); an address
setting whose value the inventory fills in (``KAFKA_HOSTS: "{{ kafka_connect_string }}"``) names its component
by the word before the address word (``kafka``), which links only where a component goes by that name. A task removing or stopping a container (a role's
``clean.yml``) starts nothing.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import name_words
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.records import Fact

CONTAINER_MODULES = frozenset({"docker_container", "community.docker.docker_container", "podman_container",
                               "containers.podman.podman_container"})
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_QUOTED = re.compile(r"""['"]([^'"{}\s]+)['"]""")
BLOCK_KEYS = ("block", "rescue", "always")
MAX_DEPTH = 6


def _plain(text: str | None) -> str:
    """A name with its Jinja expressions taken out (``zookeeper{{ idx }}`` -> ``zookeeper``)."""
    return re.sub(r"^[^A-Za-z0-9]+|[^A-Za-z0-9]+$", "", _JINJA.sub("", text or ""))


def _image(text: str | None, variables: dict[str, str]) -> str:
    """The image a task names: its literal part (``nginx:{{ version }}`` -> ``nginx``), else the literal a Jinja
    default gives (``{{ couchdb.docker_image | default('apache/couchdb:' ~ couchdb.version) }}``), also
    through a variable of the task's ``vars:``."""
    text = (text or "").strip()
    expr = re.fullmatch(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}", text)
    if expr and expr.group(1) in variables:
        text = variables[expr.group(1)]
    literal = _JINJA.sub("", text).strip(" /:")
    if literal and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*(:[A-Za-z0-9._-]*)?", literal):
        return literal.rstrip(":")
    for m in _QUOTED.finditer(text):  # default('apache/couchdb:' ~ ...)
        candidate = m.group(1).rstrip(":")
        if "/" in candidate or re.fullmatch(r"[a-z0-9][a-z0-9._-]*", candidate):
            return candidate
    return ""


def _role(path: str) -> str:
    parts = PurePosixPath(path).parts
    return parts[parts.index("roles") + 1] if "roles" in parts[:-1] and parts.index("roles") + 1 < len(parts) - 1 else ""


def _tasks(node: yaml.Node | None, depth: int = 0) -> list[yaml.Node]:
    """The task mappings of a list of tasks, those inside ``block:``/``rescue:``/``always:`` included."""
    out: list[yaml.Node] = []
    for task in seq(node):
        if not isinstance(task, yaml.MappingNode):
            continue
        out.append(task)
        if depth < MAX_DEPTH:
            for key in BLOCK_KEYS:
                out.extend(_tasks(get(task, key), depth + 1))
            out.extend(_tasks(get(task, "tasks"), depth + 1))  # a play's tasks
    return out


# The last word of a setting holding an address (KAFKA_HOSTS, CONFIG_whisk_couchdb_host, ETCD_ENDPOINTS).
ADDRESS_WORD = re.compile(r"^(hosts?|url|uri|address|addr|endpoints?|servers?|connect)$", re.I)
# Words of a setting's name that say nothing of which component it names.
GENERIC_WORDS = frozenset({"config", "conf", "settings", "app", "service", "services", "server", "client", "api",
                           "db", "default", "local", "public", "internal", "external"})


def _addressed(key: str) -> str:
    """The component a templated address setting names by its key: the word before the address word
    (``KAFKA_HOSTS`` -> ``kafka``, ``CONFIG_whisk_couchdb_host`` -> ``couchdb``); '' when none does."""
    words = name_words(key)
    if len(words) < 2 or not ADDRESS_WORD.match(words[-1]):
        return ""
    before = words[-2]
    return before if before.isalpha() and len(before) >= 3 and before not in GENERIC_WORDS else ""


def _env_entries(spec: yaml.Node, facts_set: dict[str, yaml.Node]) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
    """The container's environment: its `env:` mapping, or the mapping a `set_fact` of the same file built
    (`env: "{{ env }}"`)."""
    env = get(spec, "env")
    ref = re.fullmatch(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}", (scalar(env) or "").strip()) if env is not None else None
    if ref and ref.group(1) in facts_set:
        env = facts_set[ref.group(1)]
    return list(items(env))


def read_ansible_tasks(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    role = _role(path)
    for doc in load_yaml_documents(text):
        facts_set = {str(k.value): v for task in _tasks(doc) for k, v in items(get(task, "set_fact"))
                     if isinstance(v, yaml.MappingNode)}
        for task in _tasks(doc):
            variables = {str(k.value): scalar(v) or "" for k, v in items(get(task, "vars"))}
            for key, spec in items(task):
                if str(key.value) not in CONTAINER_MODULES or not isinstance(spec, yaml.MappingNode):
                    continue
                if (scalar(get(spec, "state")) or "started").strip().lower() in ("absent", "stopped"):
                    continue  # removing or stopping the container (a role's clean.yml)
                image = _image(scalar(get(spec, "image")), variables)
                # (a name that is only an expression, `{{ scheduler_name }}`: the image's, else the role's)
                name = _plain(scalar(get(spec, "name"))) or _plain(image.rsplit("/", 1)[-1].split(":")[0]) or role
                if not name:
                    continue
                image = image or role or name
                ports = []
                for p in seq(get(spec, "ports")):
                    container = _JINJA.sub("", scalar(p) or "").rsplit(":", 1)[-1].split("/")[0]
                    if container.isdigit():
                        ports.append(container)
                command = _JINJA.sub("", scalar(get(spec, "command")) or "").strip()[:300]
                facts.append(fact("k8s.workload", repo, path, node_line(key), name=name, workload_kind="AnsibleContainer",
                                  image=image, app=name, ports=",".join(ports), labels="", command=command,
                                  service_account=""))
                for env_key, env_value in _env_entries(spec, facts_set):
                    value = scalar(env_value)
                    if value is not None and "{{" not in value and "{%" not in value:
                        facts.append(fact("config.env", repo, path, node_line(env_key), owner=name,
                                          name=str(env_key.value), value=value, source="ansible"))
                    elif value is not None and _addressed(str(env_key.value)):
                        # an address the inventory fills in (`KAFKA_HOSTS: "{{ kafka_connect_string }}"`): the
                        # key says whose; linked only when a component goes by that name
                        facts.append(fact("config.env", repo, path, node_line(env_key), owner=name,
                                          name=str(env_key.value), value=_addressed(str(env_key.value)),
                                          source="ansible", templated="true"))
    return facts


READERS = (
    Reader("ansible", "descriptor", 175, read_ansible_tasks, patterns=(r"roles/[^/]+/tasks/[^/]+\.ya?ml",)),
)
