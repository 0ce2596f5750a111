"""Service configuration documents (``config.json``, ``service-config.json``): the settings whose values
are addresses, for code that reads them by key (see graph/connections.py config_documents)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.appsettings import json_settings
from repomodeler.records import Fact

HOST_VALUE = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|[A-Za-z][A-Za-z0-9_.-]*:\d{2,5})$")


def read_config_json(repo: str, path: str, text: str) -> list[Fact]:
    """A service configuration document (config.json, service-config.json): its settings whose
    values are addresses (``"ProfileMongoAddress": "mongodb-profile:27017"``), for code that reads
    them by key (see graph/connections.py config_documents)."""
    return [fact("config.document", repo, path, line, name=key, value=value)
            for key, value, line in json_settings(text, ".") if HOST_VALUE.match(value.strip())]


def _not_tool_config(path: str, head: str) -> bool:
    return not PurePosixPath(path).name.lower().startswith(("tsconfig", "jsconfig"))


READERS = (
    Reader("config_json", "descriptor", 330, read_config_json, patterns=(r"(?:[a-z0-9]+[-_.])*config\.json",),
           sniff=_not_tool_config, shadows=("appsettings", "appsettings.other")),
)
