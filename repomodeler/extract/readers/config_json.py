"""Service configuration documents (``config.json``, ``service-config.json``): the settings whose values
are addresses, for code that reads them by key (see graph/connections.py config_documents)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.appsettings import json_settings
from repomodeler.records import Fact

# (an address at a fixed IP, `192.168.0.11:17010`, counts: a compose network gives services such addresses)
HOST_VALUE = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|[A-Za-z][A-Za-z0-9_.-]*:\d{2,5}|\d{1,3}(?:\.\d{1,3}){3}:\d{2,5})$")
# An ADO.NET-style connection string (``Server=sqldata;Database=orders;User Id=sa``) names its host by key.
CONNECTION_STRING = re.compile(r"(?i)(^|;)\s*(server|data source|host|hostname|address|addr|endpoint)\s*=\s*[^;]+")


# A key naming a bare host (``"xlsform": {"host": "pyxform", "port": 80}``), and its port beside it.
_HOST_KEY = re.compile(r"(?i)(^|\.)(host|hostname)$")
_PLAIN_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")


def read_config_json(repo: str, path: str, text: str) -> list[Fact]:
    """A service configuration document (config.json, service-config.json, or its template
    ``config.json.template`` filled from the environment when the container starts): its settings whose
    values are addresses (``"ProfileMongoAddress": "mongodb-profile:27017"``, a section's ``host`` with the
    ``port`` beside it), for code that reads them by key, and for the image its recipe copies it into
    (see graph/connections.py config_documents)."""
    if not path.endswith(".json"):
        # a template's unquoted placeholders (`"maximumPoolSize": ${DB_POOL_SIZE}`) are values to be filled
        text = re.sub(r"(:\s*)\$\{?[A-Za-z_]\w*\}?", r"\1null", text)
    settings = json_settings(text, ".")
    ports = {key.rpartition(".")[0]: value for key, value, _line in settings
             if key.rpartition(".")[2].lower() == "port" and value.strip().isdigit()}
    out: list[Fact] = []
    for key, value, line in settings:
        v = value.strip()
        if HOST_VALUE.match(v):
            out.append(fact("config.document", repo, path, line, name=key, value=value))
        elif _HOST_KEY.search(key) and _PLAIN_HOST.match(v) and key.rpartition(".")[0] in ports:
            out.append(fact("config.document", repo, path, line, name=key, value=v,
                            port=ports[key.rpartition(".")[0]]))
    return out


def read_secrets_json(repo: str, path: str, text: str) -> list[Fact]:
    """A secrets file (``secrets.json``, ``eshop-secrets.json``: what a local-file secret store such as
    Dapr's ``secretstores.local.file`` or .NET user secrets serves the applications): its nested keys
    joined with ``:`` (``ConnectionStrings:CatalogDB``), kept when the value is an address or a
    connection string. The secret values themselves are never kept beyond what names a host."""
    return [fact("config.secret", repo, path, line, name=key, value=_host_part(value))
            for key, value, line in json_settings(text, ":")
            if HOST_VALUE.match(value.strip()) or CONNECTION_STRING.search(value)]


# The parts of a connection string that say where, never who or with what password.
_WHERE_KEYS = re.compile(r"(?i)^\s*(server|data source|host|hostname|address|addr|endpoint|port|database|initial catalog)\s*$")


def _host_part(value: str) -> str:
    """What names the host, without credentials: a URL without its user information
    (``redis://:pw@cache:6379`` -> ``redis://cache:6379``), a connection string reduced to its
    server, port and database (``Server=sqldata;Database=orders;User Id=sa;Password=x`` ->
    ``Server=sqldata;Database=orders``)."""
    v = value.strip()
    if HOST_VALUE.match(v):
        return re.sub(r"^([a-z][a-z0-9+.-]*://)[^/@]*@", r"\1", v)
    pairs = [p.split("=", 1) for p in v.split(";") if "=" in p]
    return ";".join(f"{k.strip()}={w.strip()}" for k, w in pairs if _WHERE_KEYS.match(k))


def _not_tool_config(path: str, head: str) -> bool:
    return not PurePosixPath(path).name.lower().startswith(("tsconfig", "jsconfig"))


def _server_settings(path: str, head: str) -> bool:
    """A JSON document in a settings folder that is a server's settings (an object, not a tool's or package's
    manifest, nor a JSON schema or a translation table)."""
    name = PurePosixPath(path).name.lower()
    return head.lstrip().startswith("{") and _not_tool_config(path, head) and not name.endswith(
        (".schema.json", ".lock.json")) and name not in ("package.json", "composer.json", "manifest.json")


READERS = (
    Reader("config_json", "descriptor", 330, read_config_json, patterns=(r"(?:[a-z0-9]+[-_.])*config\.json(?:\.(?:template|tmpl|tpl))?",),
           sniff=_not_tool_config, shadows=("appsettings", "appsettings.other", "config_json.conf")),
    # a program's settings file kept in a settings folder and mounted into its container
    # (docker/conf/metanode.json holding `"masterAddr": ["192.168.0.11:17010"]`)
    Reader("config_json.conf", "descriptor", 333, read_config_json, patterns=(r"(?:conf|config|configs|etc)/[^/]+\.json",),
           sniff=_server_settings),
    Reader("secrets_json", "descriptor", 331, read_secrets_json, patterns=(r"(?:[a-z0-9]+[-_.])*secrets?\.json",)),
)
