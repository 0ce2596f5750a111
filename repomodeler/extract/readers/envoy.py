"""Envoy configuration: the endpoints of its clusters, and routes rewritten to Dapr service invocation."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


_ENVOY_ADDRESS = re.compile(r"^\s*address:\s*['\"]?([A-Za-z0-9_.-]+)['\"]?\s*$")
_ENVOY_PORT = re.compile(r"^\s*port_value:\s*(\d+)")
# A route rewritten onto the sidecar's invoke API (`prefix_rewrite: "/v1.0/invoke/basket-api/method/"`):
# Envoy sends the request to its Dapr sidecar, which calls the app of that id.
_DAPR_INVOKE = re.compile(r"^\s*(?:prefix_rewrite|path|regex_rewrite|substitution):\s*['\"]?/v1\.0/invoke/([A-Za-z0-9_.-]+)/method")


def read_envoy(repo: str, path: str, text: str) -> list[Fact]:
    """Envoy cluster endpoints (a `socket_address` with `address:` and `port_value:` lines) and routes
    rewritten to Dapr's service invocation API (the app id they reach)."""
    facts: list[Fact] = []
    lines = text.splitlines()
    for i, raw in enumerate(lines, start=1):
        invoke = _DAPR_INVOKE.match(raw)
        if invoke:
            facts.append(fact("dapr.invoke_route", repo, path, i, app_id=invoke.group(1), via="envoy route"))
            continue
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
