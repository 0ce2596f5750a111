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
from repomodeler.graph.catalog import TECH_KIND, TECH_PROTOCOL
from repomodeler.records import Fact

# Add-ons that are a store, broker or search server, by the add-on's name: the technology (its kind is the
# catalog's, TECH_KIND, so a compose file's store of that technology is the same one).
STORE_ADDONS: dict[str, str] = {
    "heroku-postgresql": "postgres", "stackhero-postgresql": "postgres",
    "heroku-redis": "redis", "rediscloud": "redis", "redistogo": "redis", "redisgreen": "redis", "openredis": "redis",
    "stackhero-redis": "redis",
    "memcachier": "memcached", "memcachedcloud": "memcached",
    "cloudamqp": "rabbitmq", "rabbitmq-bigwig": "rabbitmq", "stackhero-rabbitmq": "rabbitmq",
    "mongolab": "mongodb", "ormongo": "mongodb", "mongohq": "mongodb", "objectrocket": "mongodb",
    "cleardb": "mysql", "jawsdb": "mysql", "jawsdb-maria": "mysql", "stackhero-mysql": "mysql",
    "bonsai": "elasticsearch", "searchbox": "elasticsearch", "foundelasticsearch": "elasticsearch",
    "heroku-kafka": "kafka", "cloudkarafka": "kafka",
}


class PlatformAddonRules(ResolverBase):
    """``stores.platform-addons``."""

    def platform_addons(self) -> None:
        addons = sorted((f for f in self.by_kind["platform.addon"] if f.get("service") in STORE_ADDONS), key=Fact.order)
        # repositories whose Procfile split the code into the processes drawn (Heroku's process types)
        procfile_repos = {c.repository for c in self.model.components.values() if c.attributes.get("launched_by") == "procfile"}
        for f in addons:
            if not (self.deploys_nothing or f.repository in procfile_repos):
                continue  # (another deployment runs the system; the add-ons are Heroku's copy of its stores)
            cid = self.owner_of(f.repository, f.path)
            app = self.model.components.get(cid) if cid else None
            if app is None or app.kind not in ("service", "gateway"):
                continue
            tech = STORE_ADDONS[f.get("service") or ""]
            kind = TECH_KIND.get(tech, "database")
            existing = sorted(c.id for c in self.model.components.values()
                              if c.attributes.get("technology") == tech and c.kind == kind)
            if len(existing) > 1:
                continue  # (which of them the add-on is, nothing says)
            target = existing[0] if existing else self.add_component(tech, kind, f.repository, f.evidence, attributes={
                "technology": tech, "provisioned_by": f"heroku add-on {f.get('plan')}"}).id
            self.model.components[target].evidence.add(f.evidence)
            self.connect(app.id, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                         attributes={"via": f"heroku add-on {f.get('plan')}"})
