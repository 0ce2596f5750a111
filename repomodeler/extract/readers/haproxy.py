"""HAProxy configuration: the servers of its ``backend`` and ``listen`` sections."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


_HAPROXY_SECTION = re.compile(r"^(backend|listen|frontend|global|defaults)\b\s*(\S*)")
_HAPROXY_SERVER = re.compile(r"^\s+server\s+\S+\s+([A-Za-z0-9_.-]+:\d+)")


def read_haproxy(repo: str, path: str, text: str) -> list[Fact]:
    """HAProxy: ``server s1 orders:8080 check`` lines of a ``backend`` or ``listen`` section."""
    facts: list[Fact] = []
    section, name = "", ""
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        m = _HAPROXY_SECTION.match(line)
        if m:
            section, name = m.group(1), m.group(2)
            continue
        m = _HAPROXY_SERVER.match(line)
        if m and section in ("backend", "listen"):
            facts.append(fact("proxy.route", repo, path, i, upstream=m.group(1), via=f"haproxy backend {name}".strip()))
    return facts


READERS = (
    Reader("haproxy", "proxy", 100, read_haproxy, patterns=(r"haproxy[^/]*\.cfg",), ignore_case=False),
)
