"""The names a deployed service answers to beyond its component's: compose network aliases, and
service names with underscores.

Why: on a compose network a container is reached by its service name and by every alias the
service declares for that network (``networks: {backend: {aliases: [api.shop.local]}}``, often a
dotted name that looks like a public host so that TLS certificates and browser-facing settings can
use it).  A URL naming such an alias (``API_URL=https://api.shop.local:5000``) reaches that service,
not a system on the internet.  The aliases are often given in an override file
(``docker-compose.override.yml``) that repeats the service with nothing but its networks.
(``hostname:`` and ``container_name:`` are names of the service already, given where the service
becomes a component: see ``compose.services``.)

Compose service names may hold underscores (``reader_service``), which host names in URLs and DNS
do not, so a bare ``host:port`` with one (``READER_SERVICE=reader_service:5003``) is not read as
an address by the general value reader (``HOSTPORT_PATTERN``, which would otherwise take
``LOG_LEVEL:10``-like settings for hosts).  Where a compose service of exactly that name (or
container name, or host name) exists, the setting names it: the container network resolves it.
(Kubernetes names cannot hold underscores, so only compose names count.)
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import BROWSER_URL_KEY, NOT_HTTP_KEY, PORT_PROTOCOL
from repomodeler.graph.values import HostRef

# host:port whose host has an underscore: `reader_service:5003`
UNDERSCORE_HOSTPORT = re.compile(r"^(?P<host>[A-Za-z][A-Za-z0-9.-]*_[A-Za-z0-9_.-]*):(?P<port>\d{2,5})$")


class ServiceNameRules(ResolverBase):
    """A compose service's network aliases become names of its component."""

    def network_aliases(self) -> None:
        for f in self.by_kind["compose.network_alias"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            # `${XMPP_SERVER:-xmpp.meet.jitsi}`: what compose makes of it with the .env beside the file
            name = (self.compose_interpolate(f, f.get("alias")) or "").strip().lower()
            if owner is None or not name or "$" in name or "{" in name:
                continue  # a service no component stands for (a sidecar), or an alias set at deploy time
            claimed = self.alias.get(name)
            if claimed is not None and claimed != owner:
                continue  # another component's own name: the alias of a second service on another network
            comp = self.model.components[owner]
            if claimed is None:
                self.alias[name] = owner
            comp.aliases.add(name)
            comp.evidence.add(f.evidence)
            self.credit(comp.rules)

    def underscore_service_hosts(self) -> None:
        """``NAME=reader_service:5003`` in a service's settings: a link to the compose service of that name."""
        names: set[str] = set()
        for f in self.by_kind["compose.service"]:
            names.update(n.lower() for n in (f.get("name"), f.get("container_name"), f.get("hostname")) if n and "_" in n)
        if not names:
            return
        for f in self.by_kind["config.env"]:
            if not f.get("owner"):
                continue  # a settings file of the repository, not what a deployment hands one service
            owner = self.config_owner(f)
            setting = f.get("name") or ""
            if owner is None or BROWSER_URL_KEY.search(setting):
                continue
            for part in (f.get("value") or "").split(","):
                m = UNDERSCORE_HOSTPORT.match(part.strip())
                host = m.group("host").lower() if m else ""
                target = self.alias.get(host) if host in names else None
                if m is None or target is None or target == owner:
                    continue
                ref = HostRef(host, int(m.group("port")), None)
                protocol = self._protocol(ref, target, setting)  # type: ignore[attr-defined]
                if protocol == "tcp" and ref.port not in PORT_PROTOCOL and not NOT_HTTP_KEY.search(setting):
                    self.protocol_unknown.add((owner, target, protocol))  # nothing says how: the fold decides
                self.connect(owner, target, protocol, [f.evidence], attributes={"via": f"env {setting}"})
