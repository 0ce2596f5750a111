"""Databases a compose file offers as alternatives of one: a test matrix of SQL engines; and the one
store two compose files of one application name differently.

Why: an application supporting several SQL engines keeps a development stack with one container of each
(``db_mysql``, ``db_postgres``, ``db_maria``, ``db_ms``) and is pointed at one of them by a setting. It uses
one database, whichever the operator picks; its documents draw one. Drawn apart, the application seems to
need all of them. When one compose file runs three or more databases of different engines for the same
applications (an application using each of them, or none using any), two of them SQL engines and the others
SQL or Cassandra (a workflow server's persistence: Cassandra, MySQL, PostgreSQL), they are one database,
known by every name.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL

# How many different engines in one file make a test matrix.
ENGINES = 3


class StoreAlternativeRules(ResolverBase):
    """``compose.database-alternatives``, ``compose.stack-variant-stores``."""

    def stack_variant_stores(self) -> None:
        """Two compose files running the same application, each beside one store of a technology under a
        name of its own (``db`` in contrib/docker/docker-compose.yml, ``postgres`` in the workers' variant
        contrib/docker_compose_workers/docker-compose.yaml): two ways of deploying one system, whose
        application keeps its data in one PostgreSQL. One store, known by both names. A file holding two
        stores of the technology (one per service) says they are different stores, and is left alone."""
        stores: dict[tuple[str, str], dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
        apps: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["compose.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if cid is None or cid not in self.model.components:
                continue
            comp = self.model.components[cid]
            tech = (comp.attributes.get("technology") or "").lower()
            if comp.kind in ("database", "cache", "broker", "search") and tech:
                stores[(f.repository, f.path)][(comp.kind, tech)].add(cid)
            elif comp.kind in ("service", "gateway", "webapp"):
                apps[(f.repository, f.path)].add(cid)
        # (kind, technology) -> [(file, its one store of it)]
        single: dict[tuple[str, str, str], list[tuple[tuple[str, str], str]]] = defaultdict(list)
        for file_, by_tech in sorted(stores.items()):
            for (kind, tech), members in sorted(by_tech.items()):
                if len(members) == 1:
                    single[(file_[0], kind, tech)].append((file_, next(iter(members))))
        for _tech, found in sorted(single.items()):
            same: dict[str, str] = {}  # store -> the store it is one with

            def root(c: str) -> str:
                while same.get(c, c) != c:
                    c = same[c]
                return c

            for i, (fa, a) in enumerate(found):
                for fb, b in found[i + 1:]:
                    if a != b and fa != fb and apps[fa] & apps[fb] and root(a) != root(b):
                        ra, rb = sorted((root(a), root(b)), key=lambda c: (min(self.model.components[c].evidence), c))
                        same[rb] = ra
            for cid in sorted(same, key=lambda c: (min(self.model.components[c].evidence), c), reverse=True):
                keep = root(cid)
                if cid != keep and cid in self.model.components and keep in self.model.components:
                    self.fold_component(cid, keep)

    def database_alternatives(self) -> None:
        by_file: dict[tuple[str, str], list[str]] = defaultdict(list)
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            tech = (comp.attributes.get("technology") or "").lower()
            # (the catalog's SQL engines, by their one name: MariaDB is mysql, SQL Server sqlserver; and, beside two
            # SQL engines, a wide-column one the same programs can be pointed at instead: Cassandra)
            if comp.kind != "database" or (TECH_PROTOCOL.get(tech) != "sql" and tech != "cassandra") \
                    or comp.attributes.get("deployment") != "compose":
                continue
            first = min(comp.evidence)
            by_file[(first.repository, first.path)].append(cid)
        for _file, members in sorted(by_file.items()):
            engines = {(self.model.components[c].attributes.get("technology") or "").lower() for c in members}
            if len(engines) < ENGINES or sum(TECH_PROTOCOL.get(e) == "sql" for e in engines) < 2:
                continue
            callers = [frozenset(k[0] for k in self.model.connections if k[1] == c) for c in members]
            used = [c for c in callers if c]
            if used and not frozenset.intersection(*used):
                continue  # different applications use different ones: not alternatives of one
            keep = min(members, key=lambda c: (min(self.model.components[c].evidence), c))
            for cid in sorted(set(members) - {keep}):
                self.fold_component(cid, keep)
