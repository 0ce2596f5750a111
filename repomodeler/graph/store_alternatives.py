"""Databases a compose file offers as alternatives of one: a test matrix of SQL engines.

Why: an application supporting several SQL engines keeps a development stack with one container of each
(``db_mysql``, ``db_postgres``, ``db_maria``, ``db_ms``) and is pointed at one of them by a setting. It uses
one database, whichever the operator picks; its documents draw one. Drawn apart, the application seems to
need all of them. When one compose file runs three or more databases of different SQL engines for the same
applications (an application using each of them, or none using any), they are one database, known by every name.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL

# How many different engines in one file make a test matrix.
ENGINES = 3


class StoreAlternativeRules(ResolverBase):
    """``compose.database-alternatives``."""

    def database_alternatives(self) -> None:
        by_file: dict[tuple[str, str], list[str]] = defaultdict(list)
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            tech = (comp.attributes.get("technology") or "").lower()
            # (the catalog's SQL engines, by their one name: MariaDB is mysql, SQL Server sqlserver)
            if comp.kind != "database" or TECH_PROTOCOL.get(tech) != "sql" or comp.attributes.get("deployment") != "compose":
                continue
            first = min(comp.evidence)
            by_file[(first.repository, first.path)].append(cid)
        for _file, members in sorted(by_file.items()):
            engines = {(self.model.components[c].attributes.get("technology") or "").lower() for c in members}
            if len(engines) < ENGINES:
                continue
            callers = [frozenset(k[0] for k in self.model.connections if k[1] == c) for c in members]
            used = [c for c in callers if c]
            if used and not frozenset.intersection(*used):
                continue  # different applications use different ones: not alternatives of one
            keep = min(members, key=lambda c: (min(self.model.components[c].evidence), c))
            for cid in sorted(set(members) - {keep}):
                self.fold_component(cid, keep)
