"""A program's own ``key = value`` settings files in a configuration folder (``conf/broker.conf``,
``config/server.properties``) or bundled with a Java program (``src/main/resources/canal.properties``,
read from its class path): the addresses and ports the program is started with.

Why: a server started by a launcher script (``bin/mqbroker -c conf/broker.conf``) reads its settings
from such a file, not from a framework's ``application.yml``; the file holds where it listens
(``listenPort=10911``) and where its peers listen (``namesrvAddr=127.0.0.1:9876``).  Only keys that
name an address or a port become facts (``config.setting``); a file that is not key = value lines
(an nginx or supervisord file, a section-based INI) is someone else's.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import flatten_yaml, load_yaml_documents
from repomodeler.records import Fact

_LINE = re.compile(r"^\s*(?P<key>[A-Za-z_][A-Za-z0-9_.\-]*)\s*[=:]\s*(?P<value>.*?)\s*$")
# Keys whose value is an address, a host or a port (namesrvAddr, listenPort, server.port, zookeeper.connect).
ADDRESS_KEY = re.compile(r"(?i)(addr|address|addresses|addrs|host|hosts|port|url|uri|endpoints?|servers?|connect"
                         r"|listeners)$")


# HOCON (a Play or Akka program's application.conf): `include "base"` lines and `${?VAR}` substitutions
_INCLUDE = re.compile(r"""(?m)^\s*include\s+(?:required\s*\()?["']""")
_SUBSTITUTION = re.compile(r"\$\{\?[A-Za-z_][\w.]*\}")


def _is_settings(path: str, head: str) -> bool:
    """Every line that says something is ``key = value`` (or ``key: value``); Spring's files are Spring's."""
    name = path.rpartition("/")[2].lower()
    if name.startswith(("application", "bootstrap")):
        return False
    whole = head.splitlines()[:-1] if "\n" in head and not head.endswith("\n") else head.splitlines()
    # (the head of a long file ends inside a line: that line is judged by its whole, so not at all)
    # (HOCON's `include "base"` lines, a Play or Akka program's `conf/application.conf` pulling in others, are
    # no settings of their own)
    lines = [ln for ln in whole if ln.strip() and not ln.lstrip().startswith(("#", "!", ";", "//"))
             and not _INCLUDE.match(ln)]
    return bool(lines) and all(_LINE.match(ln) for ln in lines[:200] if not ln.startswith((" ", "\t")))


def read_settings(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    # A HOCON file (`include "base"`, `${?LILA_URL}` substitutions) is a Play/Akka program's application.conf kept
    # in a deployment's conf/ folder and mounted over the program's own (`./conf/lila.conf:/lila/conf/application.conf`):
    # the settings of the deployments that mount it, like a mounted INI file's, not of a launcher naming it
    # (so is a file named for the format, `collector/config.hocon` mounted where the command points, `--config
    # /snowplow/collector/config.hocon`)
    hocon = path.endswith(".hocon") or path.endswith(".conf") and bool(_INCLUDE.search(text) or _SUBSTITUTION.search(text))
    for i, raw in enumerate(text.splitlines(), start=1):
        if raw.lstrip().startswith(("#", "!", ";", "//")):
            continue
        m = _LINE.match(raw)
        if m and ADDRESS_KEY.search(m.group("key")) and m.group("value"):
            value = m.group("value")
            if len(value) > 1 and value[0] == value[-1] == '"':
                value = value[1:-1]  # (HOCON's quoted string, `mongodb.uri = "mongodb://mongodb?appName=lila"`)
            if hocon:
                facts.append(fact("config.property", repo, path, i, name=m.group("key"), value=value,
                                  named_only="true", mounted="true"))
            else:
                facts.append(fact("config.setting", repo, path, i, name=m.group("key"), value=value))
    return facts


# (``configs/`` is not read: there sit the configurations of the tools a deployment mounts, Tempo's, Loki's.)
# What another reader's YAML looks like: Kubernetes and compose files, Spring's, CI pipelines.
_OTHER_YAML = re.compile(r"^(apiVersion|kind|services|spring|on|jobs|steps|stages|pipeline|version)\s*:", re.M)


# A JSON Schema (its `$schema` names the JSON Schema meta-schema): it describes the settings a program takes,
# with documentation links (`see_also`) and examples, and sets none of them.
_JSON_SCHEMA = re.compile(r"""^["']?\$schema["']?\s*:\s*["']?https?://json-schema\.org/""", re.M)


def _is_program_yaml(path: str, head: str) -> bool:
    """A program's own YAML settings (go-zero's ``etc/order.yaml``): a mapping
    of its own keys, not a Kubernetes, compose, Spring or CI file kept in the same folder, nor the JSON
    Schema describing them (``settings.yaml`` beside ``settings.py``)."""
    return bool(re.search(r"^[A-Za-z_][\w-]*\s*:", head, re.M)) and not _OTHER_YAML.search(head) \
        and "{{" not in head and not _JSON_SCHEMA.search(head)


def read_program_yaml(repo: str, path: str, text: str) -> list[Fact]:
    """The program's settings, flattened (``DB.DataSource``, ``Redis.Host``, ``OrderRpcConf.Endpoints[0]``) as the
    properties it is configured with: owned, like a framework's settings file, by the program whose folder holds it."""
    return [fact("config.property", repo, path, line, name=key, value=value)
            for doc in load_yaml_documents(text) for key, value, line in _flat(doc)]


def read_named_yaml(repo: str, path: str, text: str) -> list[Fact]:
    """A YAML file of a ``conf/`` folder (``conf/openlibrary.yml``, ``conf/infobase.yml``), or a ``config.yaml``: the settings
    of the program a deployment points at it (``OL_CONFIG=/openlibrary/conf/openlibrary.yml``), and of no
    one else: many a ``conf/`` folder also keeps tools' files and alternatives nothing starts with."""
    return [fact("config.property", repo, path, line, name=key, value=value, named_only="true")
            for doc in load_yaml_documents(text) for key, value, line in _flat(doc)]


# A section-based INI file: `[section]` headers and `key = value` lines (st2.conf, pgbouncer.ini).
_SECTION = re.compile(r"^\s*\[[A-Za-z0-9_.:\- ]+\]\s*$")


def _is_ini(path: str, head: str) -> bool:
    """Sections and ``key = value`` lines only, with one section at least and one key under it: a
    program's INI settings (not an nginx or Apache file, whose blocks and directives are no such lines)."""
    whole = head.splitlines()[:-1] if "\n" in head and not head.endswith("\n") else head.splitlines()
    lines = [ln for ln in whole if ln.strip() and not ln.lstrip().startswith(("#", ";"))]
    sections = [ln for ln in lines if _SECTION.match(ln)]
    keys = [ln for ln in lines if not _SECTION.match(ln)]
    return bool(sections) and bool(keys) and _SECTION.match(lines[0]) is not None and all(
        _LINE.match(ln) or ln.startswith((" ", "\t")) for ln in keys[:200])


def read_ini(repo: str, path: str, text: str) -> list[Fact]:
    """The address settings of an INI file (``[messaging] url = amqp://rabbitmq:5672``, ``[database] host =
    mongo``) as properties named ``section.key``, of the deployments that mount the file and of no one else:
    a repository keeps INI files for tools and tests too."""
    facts: list[Fact] = []
    section = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        if raw.lstrip().startswith(("#", ";")):
            continue
        if _SECTION.match(raw):
            section = raw.strip()[1:-1].strip()
            continue
        m = _LINE.match(raw)
        if m and section and ADDRESS_KEY.search(m.group("key")) and m.group("value"):
            facts.append(fact("config.property", repo, path, i, name=f"{section}.{m.group('key')}",
                              value=m.group("value"), named_only="true", mounted="true"))
    return facts


def _flat(doc: object) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    flatten_yaml(doc, "", out)  # type: ignore[arg-type]
    return out


READERS = (
    # (also a program's settings file by that name, `settings.yml`, wherever it is kept: in the program's folder,
    # or in a folder a compose service mounts as its configuration; a `config.yaml` is too often a template of
    # every section a program may use, localhost defaults included, to say what it connects to)
    Reader("settings_files.yaml", "descriptor", 905, read_program_yaml,
           patterns=(r"etc/(?:[^/]+/)*[^/]+\.ya?ml", r"settings\.ya?ml"),
           sniff=_is_program_yaml, line_based=True),
    # (a program's `config.yaml`, read only for the deployments that mount it or name it: as a file nobody
    # points a program at, often a template of every section a program may use)
    Reader("settings_files.named_yaml", "descriptor", 906, read_named_yaml,
           patterns=(r"conf/[^/]+\.ya?ml", r"(?:[^/]*[-_.])?config\.ya?ml"), sniff=_is_program_yaml, line_based=True),
    # (a section-based INI file, `files/st2.docker.conf`, read for the deployments that mount it)
    Reader("settings_files.ini", "descriptor", 910, read_ini, patterns=(r"[^/]+\.(?:conf|ini)",), sniff=_is_ini,
           line_based=True),
    Reader("settings_files.hocon", "descriptor", 901, read_settings, patterns=(r"[^/]+\.hocon",), line_based=True),
    Reader("settings_files", "descriptor", 900, read_settings,
           patterns=(r"(?:conf|config|etc)/(?:[^/]+/)*[^/]+\.(?:conf|properties)",
                     r"src/main/resources/(?:[^/]+/)*[^/]+\.properties"), sniff=_is_settings,
           line_based=True),
)
