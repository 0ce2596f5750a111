"""Stores a hosting platform provisions as add-ons (Heroku's ``app.json`` ``addons``).

Why: an application deployed on Heroku gets its database, cache and broker from add-ons, not from a compose
file or a manifest: ``heroku-postgresql`` is its PostgreSQL server, ``heroku-redis`` its Redis, ``memcachier``
its Memcached, ``cloudamqp`` its RabbitMQ; each hands the application its address in a setting.  Those are
the stores of the system as deployed there.  The model follows that platform when the system deploys nothing
else, or when the repository's Procfile (Heroku's process types) is what splits its code into processes; a
repository whose compose file or manifests run the system elsewhere keeps its add-ons as the other platform's
copy of what those run.  An add-on of a technology the system already has (a compose file's ``postgres``) is
that store; the application owning ``app.json`` uses each.  SaaS add-ons (mail, logs, monitoring, schedulers)
are not stores and are not read here.
"""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL
from repomodeler.records import Fact

# Add-ons that are a store, broker or search server, by the add-on's name: (technology, kind).
STORE_ADDONS: dict[str, tuple[str, str]] = {
    "heroku-postgresql": ("postgres", "database"),
    "heroku-redis": ("redis", "cache"), "rediscloud": ("redis", "cache"), "redistogo": ("redis", "cache"),
    "redisgreen": ("redis", "cache"), "openredis": ("redis", "cache"), "stackhero-redis": ("redis", "cache"),
    "memcachier": ("memcached", "cache"), "memcachedcloud": ("memcached", "cache"),
    "cloudamqp": ("rabbitmq", "broker"), "rabbitmq-bigwig": ("rabbitmq", "broker"),
    "stackhero-rabbitmq": ("rabbitmq", "broker"),
    "mongolab": ("mongodb", "database"), "ormongo": ("mongodb", "database"), "mongohq": ("mongodb", "database"),
    "objectrocket": ("mongodb", "database"),
    "cleardb": ("mysql", "database"), "jawsdb": ("mysql", "database"), "jawsdb-maria": ("mysql", "database"),
    "stackhero-mysql": ("mysql", "database"), "stackhero-postgresql": ("postgres", "database"),
    "bonsai": ("elasticsearch", "search"), "searchbox": ("elasticsearch", "search"),
    "foundelasticsearch": ("elasticsearch", "search"),
    "heroku-kafka": ("kafka", "broker"), "cloudkarafka": ("kafka", "broker"),
}


class PlatformAddonRules(ResolverBase):
    """``stores.platform-addons``."""

    def platform_addons(self) -> None:
        addons = sorted((f for f in self.by_kind["platform.addon"] if f.get("service") in STORE_ADDONS), key=Fact.order)
        for f in addons:
            if not (self.deploys_nothing or self._follows_procfile(f.repository)):
                continue  # (another deployment runs the system; the add-ons are Heroku's copy of its stores)
            cid = self.owner_of(f.repository, f.path)
            app = self.model.components.get(cid) if cid else None
            if app is None or app.kind not in ("service", "gateway"):
                continue
            tech, kind = STORE_ADDONS[f.get("service") or ""]
            existing = sorted(c.id for c in self.model.components.values()
                              if c.attributes.get("technology") == tech and c.kind == kind)
            if len(existing) > 1:
                continue  # (which of them the add-on is, nothing says)
            target = existing[0] if existing else self.add_component(tech, kind, f.repository, f.evidence, attributes={
                "technology": tech, "provisioned_by": f"heroku add-on {f.get('plan')}"}).id
            self.model.components[target].evidence.add(f.evidence)
            self.connect(app.id, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                         attributes={"via": f"heroku add-on {f.get('plan')}"})

    def _follows_procfile(self, repo: str) -> bool:
        """Did the Procfile of `repo` split its code into the processes the model draws (Heroku's process types)?"""
        return any(c.repository == repo and c.attributes.get("launched_by") == "procfile"
                   for c in self.model.components.values())
