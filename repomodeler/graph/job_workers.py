"""The background worker a job-queue library implies, in a system that deploys nothing.

Why: a web application using Celery, RQ, Sidekiq or delayed_job hands work to jobs, and the jobs run in a
second process started beside the web server (``celery worker``, ``rq worker``, ``bundle exec sidekiq``,
``bin/delayed_job start``).  A deployment draws that process when there is one; a repository that ships no
deployment (its install guide starts the worker) says so only through the library.  The worker runs the
application's own code, so it reaches the stores the application reaches; it is drawn as ``<name>-worker`` with
the dependency line as its evidence (rule ``process.job-workers``).
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import RUBY_QUEUE_GEM

# Job-queue libraries whose jobs run in a worker process of their own (not in the web process: Oban, BullMQ
# workers in the server, Laravel's sync driver), by package name.
JOB_QUEUE_PACKAGES = frozenset({
    "celery", "rq", "dramatiq", "huey", "arq",                                  # Python
    "sidekiq", "delayed_job", "delayed_job_active_record", "resque", "good_job",  # Ruby
    "solid_queue", "que", "laravel/horizon",
})
# A Ruby gem wrapping or extending a job queue (govuk_sidekiq, an organisation's configured Sidekiq; sidekiq-scheduler,
# sidekiq-cron): the application runs that queue's worker.
GEM_QUEUE_FAMILY = re.compile(RUBY_QUEUE_GEM)


def job_queue_package(name: str, ecosystem: str) -> str | None:
    """The job queue a dependency is (its package name), or None."""
    name = name.lower()
    if name in JOB_QUEUE_PACKAGES:
        return name
    m = GEM_QUEUE_FAMILY.match(name) if ecosystem == "ruby" else None
    return m.group(1) if m else None


# Words naming a worker process already drawn (netbox-rq, celery-worker, sidekiq, jobs).
JOB_WORDS = frozenset({"worker", "workers", "rq", "rqworker", "celery", "sidekiq", "jobs", "resque", "horizon", "queue",
                       "dramatiq", "huey", "arq", "delayed_job"})
# What the worker shares with the application: the stores and brokers it reaches.
SHARED_KINDS = frozenset({"database", "cache", "queue", "broker", "storage", "search"})


class JobWorkerRules(ResolverBase):
    """``process.job-workers``."""

    def job_workers(self) -> None:
        if not self.deploys_nothing:
            return  # (a deployment draws its workers, or runs none)
        for f in sorted(self.by_kind["manifest.dependency"], key=lambda f: (f.repository, f.path, f.line)):
            name = job_queue_package(f.get("name") or "", f.get("ecosystem") or "")
            if name is None:
                continue
            cid = self.owner_of(f.repository, f.path)
            comp = self.model.components.get(cid) if cid else None
            if comp is None or comp.kind != "service" or comp.attributes.get("job_worker"):
                continue
            if any(c.id != cid and c.kind == "service" and c.repository == comp.repository
                   and JOB_WORDS & set(re.split(r"[-_.\s]+", c.name.lower())) for c in self.model.components.values()):
                continue  # its worker is drawn already (a program of its own, a systemd unit's netbox-rq)
            worker = self.add_component(f"{comp.name}-worker", "service", comp.repository, f.evidence,
                                        attributes={"job_worker": name, "role": f"runs the jobs {name} hands it"},
                                        by_alias=False)
            comp.attributes["job_worker"] = worker.id
            worker.language = comp.language
            for (s, t, protocol), conn in sorted(self.model.connections.items()):
                if s == cid and self.model.components[t].kind in SHARED_KINDS:
                    self.connect(worker.id, t, protocol, sorted(conn.evidence)[:1] + [f.evidence],
                                 attributes={"via": f"the application's code, run by its {name} worker"})
