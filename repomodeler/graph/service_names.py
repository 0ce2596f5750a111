"""The other names a deployed service answers to: its compose network aliases.

Why: on a compose network a container is reached by its service name and by every alias the
service declares for that network (``networks: {backend: {aliases: [api.shop.local]}}``, often a
dotted name that looks like a public host so that TLS certificates and browser-facing settings can
use it).  A URL naming such an alias (``API_URL=https://api.shop.local:5000``) reaches that service,
not a system on the internet.  The aliases are often given in an override file
(``docker-compose.override.yml``) that repeats the service with nothing but its networks.
(``hostname:`` and ``container_name:`` are names of the service already, given where the service
becomes a component: see ``compose.services``.)
"""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase


class ServiceNameRules(ResolverBase):
    """A compose service's network aliases become names of its component."""

    def network_aliases(self) -> None:
        for f in self.by_kind["compose.network_alias"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            name = (f.get("alias") or "").strip().lower()
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
