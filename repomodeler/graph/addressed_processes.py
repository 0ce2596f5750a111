"""An address on a container that runs several processes: the process it reaches.

Why a rule of its own: a development container often runs every program of a repository at once (a
file watcher starting each service's binary), each listening on a port of its own.  A proxy then routes
to one host at many ports (``proxy_pass http://looklook:1001``, ``looklook:1002``...), and Prometheus
scrapes it the same way, each in a job named after the program that answers (``job_name: order-api``).
The address rules read the host: the container.  Once the process rules have told the container's
programs apart, the port says which program it is (the one whose settings make it listen there,
``Port: 1001``), and so does a scrape job named like one of them; the container keeps only the routes
and targets that name none.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.listen_ports import listen_port_value, listens_by_key
from repomodeler.records import Evidence

_PORT = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^/:\s]+:(\d{2,5})(?:/|$)", re.I)


class AddressedProcessRules(ResolverBase):
    """``process.addressed-processes``."""

    def addressed_processes(self) -> None:
        """Move each route or scrape of a container running several processes to the process its port (or
        its scrape job's name) says it reaches."""
        groups: dict[str, set[str]] = {}
        for c in self.model.components.values():
            parent = c.attributes.get("part_of")
            if parent and c.kind in ("service", "gateway"):
                groups.setdefault(parent, set()).add(c.id)
        if not groups:
            return
        # (repository, file, line) -> the address written there, and the scrape job it is in
        addresses: dict[tuple[str, str, int], tuple[str, str]] = {}
        for f in self.by_kind["proxy.route"]:
            addresses[(f.repository, f.path, f.line)] = (f.get("upstream") or "", "")
        for f in self.by_kind["monitoring.target"]:
            addresses[(f.repository, f.path, f.line)] = (f.get("value") or "", (f.get("job") or "").lower())
        process_of = getattr(self, "process_of_file", None) or self.owner_of
        listening: dict[tuple[str, int], set[str]] = {}  # (container, port) -> its processes listening there
        for f in self.by_kind["config.property"]:
            port = listen_port_value(f.get("value") or "") if listens_by_key(f.get("name") or "", f.path) else None
            # (the process whose program folder holds the settings file: app/order/cmd/api/etc/order.yaml)
            owner = process_of(f.repository, f.path) if port and not f.get("profile") else None
            parent = self.model.components[owner].attributes.get("part_of") if owner else None
            if parent in groups and port:
                listening.setdefault((parent, port), set()).add(owner)  # type: ignore[arg-type]
        for key in sorted(self.model.connections):
            conn = self.model.connections.get(key)
            source, host = key[0], key[1]
            if conn is None or host not in groups:
                continue
            moved: list[Evidence] = []
            for ev in sorted(conn.evidence):
                value, job = addresses.get((ev.repository, ev.path, ev.line), ("", ""))
                m = _PORT.match(value.strip())
                by_port = listening.get((host, int(m.group(1))), set()) if m else set()
                named = self.alias.get(job) if job else None
                target = named if named in groups[host] else (next(iter(by_port)) if len(by_port) == 1 else None)
                if target is not None and target != source:
                    self.connect(source, target, key[2], [ev], kind=conn.kind,
                                 attributes={"via": conn.attributes.get("via") or "address"})
                    moved.append(ev)
            if moved and len(moved) == len(conn.evidence):
                self.model.connections.pop(key)
                self.created_by.pop(key, None)
