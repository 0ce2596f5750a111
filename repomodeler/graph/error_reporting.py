"""The error-tracking service a program's own code reports to by default.

Why: a program that ships its vendor's Sentry DSN in its code (``dsn = "https://8077...@sentry.sonarr.tv/11"``, a
Go setting's ``default=https://15b6...@o1218932.ingest.sentry.io/6360942``) sends its crashes and errors there as
soon as it runs, with nothing for the operator to configure: its documents and diagrams draw that service ("Sentry").
A DSN is a URL of its own shape (a public key of hexadecimal digits as the user part, a numeric project id as the
path), so it is recognised by that shape whatever the host, the vendor's sentry.io or a self-hosted Sentry of the
vendor's.  A program that only reads a DSN setting left empty (``SENTRY_DSN=``) reports nowhere until the operator
opts in, and is not drawn; a Sentry the system runs itself (its compose service answering to the DSN's host) is a
component already.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence, Fact

# https://<public key>[:<secret>]@<host>[:port]/[<path>/]<project id>
SENTRY_DSN = re.compile(r"^https?://[0-9a-f]{16,}(?::[0-9a-f]{16,})?@([A-Za-z0-9][A-Za-z0-9.-]*\.[A-Za-z]{2,})(?::\d+)?"
                        r"/(?:[\w.-]+/)*\d+/?$")
# a Go struct tag's default (`env:"ZINC_SENTRY_DSN,default=https://...@o1.ingest.sentry.io/2"`)
TAG_DEFAULT = re.compile(r"\bdefault=([^,\"`\s]+)")


class ErrorReportingRules(ResolverBase):
    """``code.error-reporting``."""

    def error_reporting(self) -> None:
        found: dict[str, list[tuple[str, Evidence]]] = {}  # reporting component -> (DSN host, line)
        literals = [(f, f.get("value") or "") for f in self.by_kind["string.url"]]
        literals += [(f, m.group(1)) for f in self.by_kind["config.tag"]
                     for m in TAG_DEFAULT.finditer(f.get("expr") or "")]
        for f, value in sorted(literals, key=lambda p: (Fact.order(p[0]), p[1])):
            m = SENTRY_DSN.match(value.strip().strip("\"'`"))
            if m is None:
                continue
            host = m.group(1).lower()
            own = self.alias.get(host) or self.alias.get(host.split(".")[0])
            if own and self.model.components[own].kind != "external":
                continue  # the system's own Sentry (a service answering to the host): connected by its address
            owner = self.owner_of(f.repository, f.path)
            comp = self.model.components.get(owner) if owner else None
            if comp is None or comp.kind not in ("service", "gateway", "webapp"):
                continue
            found.setdefault(comp.id, []).append((host, f.evidence))
        for owner, uses in sorted(found.items()):
            hosts = sorted({h for h, _ev in uses})
            existing = self.alias.get("sentry")
            target = existing if existing and self.model.components[existing].kind == "external" else self.add_component(
                "sentry", "external", None, uses[0][1], aliases=tuple(hosts), attributes={
                    "role": "error tracking the program reports to by default (Sentry DSN in its code)",
                    "host": ", ".join(hosts)}).id
            self.model.components[target].evidence.add(uses[0][1])
            self.connect(owner, target, "https", [ev for _h, ev in uses[:3]], kind="calls",
                         attributes={"via": f"Sentry DSN of {hosts[0]}"})
