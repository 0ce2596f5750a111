"""Envoy configuration: the endpoints of its clusters."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


_ENVOY_ADDRESS = re.compile(r"^\s*address:\s*['\"]?([A-Za-z0-9_.-]+)['\"]?\s*$")
_ENVOY_PORT = re.compile(r"^\s*port_value:\s*(\d+)")


def read_envoy(repo: str, path: str, text: str) -> list[Fact]:
    """Envoy cluster endpoints: a `socket_address` with `address:` and `port_value:` lines."""
    facts: list[Fact] = []
    lines = text.splitlines()
    for i, raw in enumerate(lines, start=1):
        m = _ENVOY_ADDRESS.match(raw)
        if not m or m.group(1) in ("0.0.0.0", "::", "127.0.0.1"):
            continue
        port = next((p.group(1) for p in (_ENVOY_PORT.match(x) for x in lines[i:i + 3]) if p), None)
        if port:
            facts.append(fact("proxy.route", repo, path, i, upstream=f"{m.group(1)}:{port}", via="envoy cluster"))
    return facts


READERS = (
    Reader("envoy", "proxy", 100, read_envoy, patterns=(r"envoy[^/]*\.ya?ml",), ignore_case=False),
)
