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
# Hosted services that deliver an application's mail and messages (by their API hosts).
MAIL_DELIVERY_HOSTS = frozenset({"api.notifications.service.gov.uk", "api.sendgrid.com", "api.postmarkapp.com",
                                 "api.mailgun.net", "api.resend.com", "api.brevo.com", "api.mailchimp.com"})
# A deployment or process that runs an application's background jobs, by its name or command.
JOB_RUNNER = re.compile(r"(?i)worker|jobs|sidekiq|resque|delayed[-_]?job|good[-_]?job|solid[-_]?queue")


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

    def mail_delivery_workers(self) -> None:
        """A Ruby application's mail goes out from its job worker: ActionMailer's ``deliver_later`` enqueues each
        message, and the worker running the application's code (a Sidekiq process of its Procfile, a deployment of
        its image started as ``bin/jobs``) delivers it through the mail service's client. The worker calls the mail
        service too, with the application's line as evidence."""
        for (src, dst, protocol), conn in sorted(self.model.connections.items()):
            comp, target = self.model.components[src], self.model.components[dst]
            if target.kind != "external" or (target.attributes.get("host") or "") not in MAIL_DELIVERY_HOSTS \
                    or comp.language != "ruby" or comp.kind != "service":
                continue
            image = comp.attributes.get("image") or ""
            for c in sorted(self.model.components.values(), key=lambda c: c.id):
                if c.id == src or c.kind != "service" or not (
                        JOB_RUNNER.search(c.name) or JOB_RUNNER.search(c.attributes.get("command") or "")):
                    continue
                same_code = c.attributes.get("part_of") == src or (image and c.attributes.get("image") == image) \
                    or bool(c.source_roots & comp.source_roots)
                if same_code and (c.id, dst, protocol) not in self.model.connections:
                    self.connect(c.id, dst, protocol, sorted(conn.evidence)[:1],
                                 attributes={"via": f"mail {src} hands its job worker (deliver_later)"})
