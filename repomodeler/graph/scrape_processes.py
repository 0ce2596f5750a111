"""A scrape job named after one process of a container that runs several: Prometheus reads that process.

Why a rule of its own: a development container often runs every program of a repository at once (a
file watcher starting each service's binary), each serving its metrics on a port of its own.  Prometheus
then scrapes one host at many ports (``looklook:4001``, ``looklook:4002``...), and the job names which
program answers there (``job_name: order-api``).  The address rule reads the host: the container.  Once
the process rules have told the container's programs apart, a job named like one of them is a scrape of
that program, with the target's line; the container keeps only the targets no job of a process names.
"""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence


class ScrapeProcessRules(ResolverBase):
    """``observability.scrape-processes``."""

    def scrape_processes(self) -> None:
        """Move each scrape of a container running several processes to the process its job names."""
        jobs: dict[tuple[str, str, int], str] = {
            (f.repository, f.path, f.line): (f.get("job") or "").lower()
            for f in self.by_kind["monitoring.target"] if f.get("job")}
        for key in sorted(self.model.connections):
            conn = self.model.connections.get(key)
            if conn is None or not (conn.attributes.get("via") or "").startswith("prometheus scrape"):
                continue
            source, host = key[0], key[1]
            processes = {c.id for c in self.model.components.values() if c.attributes.get("part_of") == host}
            if not processes:
                continue
            moved: list[Evidence] = []
            for ev in sorted(conn.evidence):
                target = self.alias.get(jobs.get((ev.repository, ev.path, ev.line), ""))
                if target in processes:
                    self.connect(source, target, key[2], [ev], kind=conn.kind,
                                 attributes={"via": "prometheus scrape job"})
                    moved.append(ev)
            if moved and len(moved) == len(conn.evidence):
                self.model.connections.pop(key)
                self.created_by.pop(key, None)
