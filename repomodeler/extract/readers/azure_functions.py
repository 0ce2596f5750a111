"""Azure Functions descriptors: ``host.json`` marks a function app's folder, each function's
``function.json`` lists its trigger and bindings, ``local.settings.json`` its app settings.

A function app written in JavaScript, Python or PowerShell declares its wiring in files rather than
code: ``{"bindings": [{"type": "eventGridTrigger", "direction": "in"}, {"type": "cosmosDB",
"direction": "out", "databaseName": "shop", "connectionStringSetting": "CosmosConnection"}]}``.
Each binding becomes a ``functions.binding`` fact (the same fact the C# attributes give,
grammars/csharp/azure_functions.scm); an ``httpTrigger`` is an ``http.route`` of the app as well.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

# The binding property that names the queue, topic, hub, container or table a binding uses.
_TARGET_KEYS = ("queueName", "topicName", "eventHubName", "hubName", "collectionName", "containerName", "tableName",
                "path", "commandText")
_CONNECTION_KEYS = ("connection", "connectionStringSetting")


def read_host_json(repo: str, path: str, text: str) -> list[Fact]:
    """A ``host.json`` is the root of a function app: the folder deploys as one app."""
    return [fact("functions.host", repo, path, 1)]


def read_local_settings(repo: str, path: str, text: str) -> list[Fact]:
    """``local.settings.json``: the app settings (``Values``) a function app runs with locally, the same
    names its deployed app settings have; each is a ``config.env`` of the app whose folder holds it."""
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    values = doc.get("Values") if isinstance(doc, dict) else None
    if not isinstance(values, dict):
        return []
    facts = []
    for name, value in values.items():
        if isinstance(name, str) and isinstance(value, (str, int, float, bool)):
            at = text.find(f'"{name}"')
            line = text.count("\n", 0, at) + 1 if at >= 0 else 1
            facts.append(fact("config.env", repo, path, line, owner="", name=name, value=str(value),
                              source="functions"))
    return facts


def read_function_json(repo: str, path: str, text: str) -> list[Fact]:
    """One function's bindings; the function is named after its folder."""
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    bindings = doc.get("bindings") if isinstance(doc, dict) else None
    if not isinstance(bindings, list):
        return []
    function = PurePosixPath(path).parent.name
    facts: list[Fact] = []
    seen = 0
    for b in bindings:
        if not isinstance(b, dict) or not isinstance(b.get("type"), str):
            continue
        btype = b["type"]
        # the line of this binding: the n-th `"type"` key of the file
        at = -1
        for _ in range(seen + 1):
            at = text.find('"type"', at + 1)
        seen += 1
        line = text.count("\n", 0, at) + 1 if at >= 0 else 1
        target = next((str(b[k]) for k in _TARGET_KEYS if isinstance(b.get(k), str) and b.get(k)), "")
        connection = next((str(b[k]) for k in _CONNECTION_KEYS if isinstance(b.get(k), str) and b.get(k)), "")
        facts.append(fact("functions.binding", repo, path, line, binding=btype, direction=str(b.get("direction") or ""),
                          target=target, connection=connection, function=function,
                          database=str(b.get("databaseName") or "")))
        if btype == "httpTrigger":
            methods = [m for m in b.get("methods") or [] if isinstance(m, str)] or ["ANY"]
            route = str(b.get("route") or function)
            for m in methods:
                facts.append(fact("http.route", repo, path, line, method=m.upper(), path="/" + route.lstrip("/"),
                                  framework="azure-functions"))
    return facts


READERS = (
    Reader("azure_functions.host", "descriptor", 331, read_host_json, names=frozenset({"host.json"})),
    Reader("azure_functions.function", "descriptor", 332, read_function_json, names=frozenset({"function.json"})),
    Reader("azure_functions.settings", "descriptor", 333, read_local_settings,
           patterns=(r"local\.settings(?:\.[a-z]+)?\.json",)),
)
