"""Services a program reaches without an address in the repository: the local container engine its
Docker SDK talks to, and the SQL database its drivers are for when the operator picks it by a setting.

Why rules of their own: the store and SDK rules link through an address (a URL, a host setting) or to a
store some deployment declares.  Two common cases have neither.  A Docker SDK client
(``client.NewClientWithOpts(client.FromEnv)``) talks to the engine on the same machine through its
socket (``DOCKER_HOST``, ``/var/run/docker.sock``): the engine is an external system the program
drives.  A program importing several SQL drivers behind an ORM or ``database/sql``
(``xorm``, ``gorm``, ``sqlx``: ``lib/pq``, ``go-sql-driver/mysql``, ``go-sqlite3``) lets a setting choose
the database: it still uses one database, of whichever engine the operator configures.  Both are read
from imports in the code each process runs, after the processes are told apart, so the link starts at
the process whose code it is (``agent -> docker-engine``, ``server -> database``).
"""

from __future__ import annotations

import re
from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence, Fact

# Client libraries of the Docker Engine API, by the module name the language imports.
DOCKER_SDKS = re.compile(
    r"^(github\.com/docker/docker/client|github\.com/moby/moby/client|github\.com/fsouza/go-dockerclient"
    r"|docker|dockerode|docker-modem|com\.github\.dockerjava(\..*)?|Docker\.DotNet(\..*)?|bollard|docker-api)$")
ENGINE = "docker-engine"
# SQL drivers: the database engine each is for.  sqlite is a file inside the program, not a server.
SQL_DRIVERS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), tech) for p, tech in (
    (r"^(github\.com/lib/pq|github\.com/jackc/pgx(/v\d+)?(/stdlib)?|gorm\.io/driver/postgres)$", "postgres"),
    (r"^(github\.com/go-sql-driver/mysql|gorm\.io/driver/mysql)$", "mysql"),
    (r"^(github\.com/(denisenkom|microsoft)/go-mssqldb|gorm\.io/driver/sqlserver)$", "sqlserver"),
    (r"^(github\.com/mattn/go-sqlite3|modernc\.org/sqlite|github\.com/glebarez/sqlite|gorm\.io/driver/sqlite)$", "sqlite"),
))
SERVER_ENGINES = frozenset({"postgres", "mysql", "sqlserver"})


def sql_engine(module: str) -> str | None:
    for pattern, tech in SQL_DRIVERS:
        if pattern.match(module):
            return tech
    return None


class LocalServiceRules(ResolverBase):
    """The container engine and the operator-chosen SQL database of a system's programs."""

    def container_engine_clients(self) -> None:
        users: dict[str, Fact] = {}
        for f in self.by_kind["import"]:
            if DOCKER_SDKS.match(f.get("module") or ""):
                for o in self._code_runners(f):
                    users.setdefault(o, f)
        engine: str | None = None
        for cid, f in sorted(users.items()):
            if engine is None:
                existing = self.alias.get(ENGINE)
                engine = existing if existing and self.model.components[existing].kind == "external" else \
                    self.add_component(ENGINE, "external", None, f.evidence, aliases=("docker", "docker-daemon"),
                                       attributes={"role": "container engine on the program's host",
                                                   "address": "DOCKER_HOST or /var/run/docker.sock"}).id
            self.connect(cid, engine, "http", [f.evidence], kind="calls", attributes={"via": f"docker sdk {f.get('module')}"})

    def sql_driver_stores(self) -> None:
        drivers: dict[str, dict[str, Evidence]] = defaultdict(dict)  # process -> engine -> first import
        for f in self.by_kind["import"]:
            tech = sql_engine(f.get("module") or "")
            if tech is None:
                continue
            for o in self._code_runners(f):
                drivers[o].setdefault(tech, f.evidence)
        for cid in sorted(drivers):
            techs = drivers[cid]
            if not techs.keys() & SERVER_ENGINES:
                continue  # only an embedded file database: part of the program
            if any(k[0] == cid and self.model.components[k[1]].kind == "database" for k in self.model.connections):
                continue  # its database is known (an address, a deployment)
            engines = sorted(techs)
            evidence = [techs[t] for t in engines]
            existing = sorted(c.id for c in self.model.components.values() if c.kind == "database"
                              and c.attributes.get("technology") in (*engines, "sql") and not c.parent)
            if len(existing) == 1:
                target = existing[0]
            elif existing:
                continue  # several databases of those engines: which one is not told
            else:
                comp = self.model.components[cid]
                family = comp.attributes.get("part_of") or cid
                store = self.add_component(f"{self.model.components[family].name}-database", "database", comp.repository,
                                           evidence[0], attributes={
                                               "technology": engines[0] if len(engines) == 1 else "sql",
                                               "engines": ", ".join(engines),
                                               "implied_by": "SQL drivers the program imports (the engine is a setting)"})
                target = store.id
            self.connect(cid, target, "sql", evidence, kind="uses",
                         attributes={"via": "sql drivers " + ", ".join(engines)})

    def _code_runners(self, f: Fact) -> list[str]:
        """The running components whose code makes the import: the process running the file, or each
        process holding a package several of them run; never a library, nor the component its processes
        were split from."""
        runners = getattr(self, "_runners", None)
        owners = runners(f.repository, f.path) if runners is not None else [self.owner_of(f.repository, f.path)]
        out: list[str] = []
        holders = getattr(self, "package_holders", None) or {}
        packages = getattr(self, "packages", None)
        for o in owners:
            comp = self.model.components.get(o) if o else None
            if comp is None:
                continue
            split = any(c.attributes.get("part_of") == comp.id for c in self.model.components.values())
            if comp.kind in ("service", "gateway") and not split:
                out.append(comp.id)
            elif packages is not None:  # code shared by processes: each process holding its package runs it
                d = packages.package_of(f.repository, f.path)
                out.extend(sorted(h for h in holders.get((f.repository, d), ())
                                  if self.model.components[h].kind in ("service", "gateway")))
        return sorted(set(out))
