"""Store settings a Kubernetes workload takes from a Secret.

Why: a cluster deployment hands its workloads their connection strings from Secrets an operator or an
infrastructure module fills in (``DATABASE_URL`` from ``peoplefinder-rds-output``, key ``url``): the value is
never in the repository, so no address names the store. The setting's name, or the Secret's, still says which
store it is (a database URL, an OpenSearch endpoint, a Redis URL); where the system runs exactly one store of
that kind, the workload uses that store, with the line handing the setting as evidence. A setting naming no store,
or a system with two stores of the kind, draws nothing.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL
from repomodeler.graph.platform import STORE_NAME_WORDS

# The store families a setting's words name (the words platform.py knows stores by, with the names of their kin: Valkey
# for Redis, OpenSearch beside Elasticsearch), by the technologies of the catalogue each covers.
_KIN_WORDS = {"redis": {"valkey"}, "elasticsearch": {"opensearch"}, "postgres": {"pgsql"}}
_KIN_TECHS = {"elasticsearch": {"opensearch"}, "rabbitmq": {"amqp"}}
_FAMILIES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(words | _KIN_WORDS.get(tech, set())), frozenset({tech} | _KIN_TECHS.get(tech, set())))
    for tech, words in sorted(STORE_NAME_WORDS.items()))
# A relational database named by its role only (DATABASE_URL, DB_HOST, a Secret named for RDS or Cloud SQL).
_SQL_WORDS = frozenset({"database", "db", "rds", "cloudsql", "sql"})
_SQL_TECHS = frozenset({"postgres", "mysql", "sqlserver"})
# ... as an address or a connection string, not a password or a user name
_ADDRESS_WORDS = frozenset({"url", "uri", "dsn", "host", "hostname", "endpoint", "address", "addr", "connection"})


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", text.lower()) if w}


class SecretSettingRules(ResolverBase):
    """``kubernetes.secret-store-settings``."""

    def secret_store_settings(self) -> None:
        stores: dict[str, list[str]] = {}
        for c in sorted(self.model.components.values(), key=lambda c: c.id):
            tech = (c.attributes.get("technology") or "").lower()
            if c.kind in ("database", "cache", "broker", "search") and tech:
                stores.setdefault(tech, []).append(c.id)
        for f in sorted(self.by_kind["k8s.env_secret_ref"], key=lambda f: f.order()):
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None or self.model.components[owner].kind not in ("service", "gateway"):
                continue
            setting = _words(f.get("name") or "")
            if not setting & _ADDRESS_WORDS:
                continue
            techs = self._named(setting | _words(f.get("secret") or ""), setting)
            found = sorted({cid for t in techs for cid in stores.get(t, [])})
            if len(found) != 1 or found[0] == owner:
                continue
            target = found[0]
            if any(k[0] == owner and k[1] == target for k in self.model.connections):
                continue
            tech = (self.model.components[target].attributes.get("technology") or "").lower()
            self.connect(owner, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                         attributes={"via": f"setting {f.get('name')} from secret {f.get('secret')}"})

    @staticmethod
    def _named(words: set[str], setting: set[str]) -> frozenset[str]:
        """The technologies the words name: a store's own name first, else (in the setting's name) a database."""
        for names, techs in _FAMILIES:
            if words & names:
                return techs
        return _SQL_TECHS if setting & _SQL_WORDS or words & {"rds", "cloudsql"} else frozenset()
