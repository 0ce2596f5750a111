"""consul-template templates: a proxy whose routes are rendered from the Consul catalog.

Why a reader of its own: a proxy configured by consul-template (``000-default.ctmpl`` rendered into
Apache's site, an nginx or HAProxy template) names no upstream; it iterates the services registered in
Consul (``{{range services}}``) and writes a route to each (``ProxyPass /{{.Name}} balancer://{{.Name}}``).
The template says that the proxy reaches every service registered there; the graph connects it to the
registry's clients (rule ``discovery.gateway-routes``).
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_RANGE_SERVICES = re.compile(r"\{\{-?\s*range\s+services\b")
# A proxy directive inside the range, by the software it configures.
_DIRECTIVES = (
    (re.compile(r"\b(ProxyPass|BalancerMember)\b"), "httpd"),
    (re.compile(r"\b(proxy_pass|upstream)\b"), "nginx"),
    (re.compile(r"^\s*(backend|server)\s", re.M), "haproxy"),
)


def read_consul_template(repo: str, path: str, text: str) -> list[Fact]:
    """``proxy.catalog``: the line of a ``{{range services}}`` whose body writes proxy routes."""
    m = _RANGE_SERVICES.search(text)
    if not m:
        return []
    body = text[m.end():]
    software = next((s for pattern, s in _DIRECTIVES if pattern.search(body)), None)
    if software is None:
        return []
    line = text.count("\n", 0, m.start()) + 1
    return [fact("proxy.catalog", repo, path, line, registry="consul", software=software)]


READERS = (
    Reader("consul_template", "proxy", 110, read_consul_template, patterns=(r"[^/]*\.ctmpl",)),
)
