"""Services a program reaches without an address in the repository: the local container engine its
SDK talks to, and the SQL database its drivers are for when the operator picks it by a setting.

Why rules of their own: the store and SDK rules link through an address (a URL, a host setting) or to a
store some deployment declares.  Two common cases have neither.  A container engine's SDK client
(Docker, containerd, Podman: ``client.NewClientWithOpts(client.FromEnv)``) talks to the engine on the same machine through its
socket (``DOCKER_HOST``, ``/var/run/docker.sock``): the engine is an external system the program
drives.  A program importing several SQL drivers behind an ORM or ``database/sql``
(``xorm``, ``gorm``, ``sqlx``: ``lib/pq``, ``go-sql-driver/mysql``, ``go-sqlite3``; a Rails application's
``pg``/``mysql2``/``sqlite3`` gems) lets a setting choose the database: it still uses one database, of
whichever engine the operator configures.  Both are read
from imports in the code each process runs, after the processes are told apart, so the link starts at
the process whose code it is (``agent -> docker-engine``, ``server -> database``).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from collections import defaultdict

from repomodeler.graph.base import OBJECT_STORES, ResolverBase
from repomodeler.graph.embedded_engines import ENGINE_SETTING
from repomodeler.records import Evidence, Fact

# Client libraries of container engines (the module name the language imports) and the engine each drives.
ENGINE_SDKS: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple((re.compile(p), engine, aliases) for p, engine, aliases in (
    (r"^(github\.com/docker/docker/client|github\.com/moby/moby/client|github\.com/fsouza/go-dockerclient"
     r"|docker|dockerode|docker-modem|com\.github\.dockerjava(\..*)?|Docker\.DotNet(\..*)?|bollard|docker-api)$",
     "docker-engine", ("docker", "docker-daemon")),
    (r"^github\.com/containerd/containerd(/v\d+)?(/client)?$", "containerd", ("containerd.sock",)),
    (r"^github\.com/containers/podman/v\d+/pkg/bindings$", "podman", ("podman.sock",)),
    # the Kubernetes Container Runtime Interface (a node agent's gRPC client of containerd or CRI-O, whichever the
    # node runs): the node's container runtime
    (r"^k8s\.io/cri-api/pkg/apis/runtime/v1(alpha2)?$|^k8s\.io/cri-client/pkg$", "container-runtime",
     ("container runtime", "cri", "cri-o", "runtime socket")),
))
# The engine a CRI client reaches when the program drives no engine by its own client library.
CRI_ENGINE = "container-runtime"
# The engine's socket on the host, bind-mounted into a container (`/var/run/docker.sock:/var/run/docker.sock`):
# the container drives that engine (a stack manager, a CI server starting build containers),
# whatever language or tool (an SDK, the `docker` CLI) it does so with.  Only a container running the system's own
# code (or an image this repository's recipe builds) counts: Traefik's Docker provider or a Datadog agent mounting the
# socket watch containers; they are not the system driving its engine.
ENGINE_SOCKETS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^/(var/)?run/(user/\$?\{?\w*\}?/)?docker\.sock$"), "docker-engine"),
    (re.compile(r"^/(var/)?run/(user/\$?\{?\w*\}?/)?podman/podman\.sock$"), "podman"),
    (re.compile(r"^/(var/)?run/containerd/containerd\.sock$"), "containerd"),
)


def container_engine(module: str) -> tuple[str, tuple[str, ...]] | None:
    """(engine, its other names) of the container engine whose client library `module` is."""
    for pattern, engine, aliases in ENGINE_SDKS:
        if pattern.match(module):
            return engine, aliases
    return None
# SQL drivers: the database engine each is for.  sqlite is a file inside the program, not a server.
SQL_DRIVERS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), tech) for p, tech in (
    # (GORM's dialect packages too, v2's gorm.io/driver/postgres and v1's github.com/jinzhu/gorm/dialects/postgres)
    (r"^(github\.com/lib/pq|github\.com/jackc/pgx(/v\d+)?(/stdlib)?|gorm\.io/driver/postgres"
     r"|github\.com/jinzhu/gorm/dialects/postgres)$", "postgres"),
    (r"^(github\.com/go-sql-driver/mysql|gorm\.io/driver/mysql|github\.com/jinzhu/gorm/dialects/mysql)$", "mysql"),
    (r"^(github\.com/(denisenkom|microsoft)/go-mssqldb|gorm\.io/driver/sqlserver|github\.com/jinzhu/gorm/dialects/mssql)$",
     "sqlserver"),
    (r"^(github\.com/mattn/go-sqlite3|modernc\.org/sqlite|github\.com/glebarez/sqlite|gorm\.io/driver/sqlite"
     r"|github\.com/jinzhu/gorm/dialects/sqlite)$", "sqlite"),
    # Python's standard-library SQLite module and its async and alternative wrappers (`import sqlite3`)
    (r"^(sqlite3|aiosqlite|apsw|pysqlite2)(\..*)?$", "sqlite"),
    # Rust's SQLite drivers (sqlx's SQLite module, rusqlite, Diesel's SQLite backend)
    (r"^(sqlx::sqlite|rusqlite|diesel::sqlite)(::.*)?$", "sqlite"),
    # CakePHP's datasource drivers, which its config names by class (`'driver' => Mysql::class`)
    (r"^Cake\\Database\\Driver\\Mysql$", "mysql"),
    (r"^Cake\\Database\\Driver\\Postgres$", "postgres"),
    (r"^Cake\\Database\\Driver\\Sqlserver$", "sqlserver"),
    (r"^Cake\\Database\\Driver\\Sqlite$", "sqlite"),
))
SERVER_ENGINES = frozenset({"postgres", "mysql", "sqlserver"})
# Stores drawn as databases that no SQL driver serves: search engines, document, wide-column and vector stores.
NON_SQL_STORES = frozenset({"elasticsearch", "opensearch", "solr", "meilisearch", "typesense", "mongodb", "couchdb",
                            "cassandra", "scylladb", "influxdb", "neo4j", "dynamodb", "qdrant", "weaviate", "milvus",
                            "chroma"})
# Stores a program's client library implies where the system runs none (stores.driver-clients).
DRIVER_IMPLIED = frozenset({"redis"})
# ... and object-document mappers, whose models are kept in MongoDB (Mongoid, Mongoose, MongoEngine, Beanie, ODMantic):
# the application's own database, not one connector among many a tool offers.
ODM_IMPLIED = re.compile(r"^(mongoid|mongoose|mongoengine|beanie|odmantic)$")
# An ORM schema's provider (Prisma's `provider = "postgresql"`), by the engine it names.
ORM_PROVIDERS: dict[str, str] = {"postgresql": "postgres", "postgres": "postgres", "cockroachdb": "postgres", "npgsql": "postgres",
                                 "mysql": "mysql", "sqlserver": "sqlserver", "sqlite": "sqlite"}
# Words naming SQL engines in file names (a family of dialect files is one database the operator picks).
SQL_WORDS = frozenset({"mysql", "postgres", "postgresql", "pg", "pgx", "sqlite", "sqlite3", "mssql", "sqlserver", "mariadb",
                       "oracle", "tidb", "cockroach", "cockroachdb", "sql", "db", "dm", "kingbase", "opengauss"})
# Words naming other technologies an adapter family holds files for (event sources, sinks, backends).
OTHER_TECH_WORDS = frozenset({"redis", "kafka", "rabbitmq", "amqp", "mongodb", "mongo", "nats", "elasticsearch", "opensearch",
                              "cassandra", "prometheus", "influxdb", "pulsar", "sqs", "kinesis", "pubsub", "memcached",
                              "etcd", "consul", "zookeeper", "graphite", "datadog", "clickhouse", "dynamodb", "s3",
                              "mqtt", "activemq", "couchbase", "couchdb", "neo4j", "solr", "loki", "splunk"})
# Ruby's database adapters, by gem (a Rails application names its drivers in the Gemfile, not in imports).
SQL_GEMS: dict[str, str] = {"pg": "postgres", "activerecord-postgis-adapter": "postgres", "mysql2": "mysql",
                            "trilogy": "mysql", "activerecord-trilogy-adapter": "mysql", "tiny_tds": "sqlserver",
                            "activerecord-sqlserver-adapter": "sqlserver", "sqlite3": "sqlite"}


def sql_engine(module: str) -> str | None:
    for pattern, tech in SQL_DRIVERS:
        if pattern.match(module):
            return tech
    return None


# SQLite's drivers as other ecosystems' manifests name them (npm, Cargo, Maven/Gradle artifacts): a program
# depending on one keeps a database file of its own (drawn when it is deployed or serves and uses no server).
SQLITE_PACKAGES: dict[str, frozenset[str]] = {
    # (not libSQL's client: it reaches a libSQL server, Turso, as often as a file)
    "npm": frozenset({"sqlite3", "better-sqlite3", "sqlite", "@louislam/sqlite3"}),
    "cargo": frozenset({"rusqlite", "libsqlite3-sys"}),
    "maven": frozenset({"sqlite-jdbc"}),  # (Gradle's external dependencies are read as Maven artifacts)
    # Hex packages (mix.exs): Ecto's SQLite adapter and the driver under it
    "hex": frozenset({"ecto_sqlite3", "exqlite"}),
    # NuGet packages: ADO.NET's and Entity Framework Core's SQLite providers
    "dotnet": frozenset({"microsoft.data.sqlite", "microsoft.data.sqlite.core", "microsoft.entityframeworkcore.sqlite",
                         "microsoft.entityframeworkcore.sqlite.core", "system.data.sqlite", "system.data.sqlite.core",
                         "sqlite-net-pcl"}),
}


# A Django setting naming its database engine (`'ENGINE': 'django.db.backends.postgresql'`): the application
# imports no driver itself (Django does), the setting says which server it uses.
DJANGO_ENGINE = re.compile(r"django\.db\.backends\.(postgresql(?:_psycopg2)?|mysql|oracle|sqlite3)\b|"
                           r"django\.contrib\.gis\.db\.backends\.(postgis|mysql|spatialite)\b")
DJANGO_ENGINES = {"postgresql": "postgres", "postgresql_psycopg2": "postgres", "postgis": "postgres", "mysql": "mysql",
                  "oracle": "oracle", "sqlite3": "sqlite", "spatialite": "sqlite"}


# PDO's drivers, by the prefix of a data source name (`sqlite:/data/grocy.db`, `pgsql:host=db`); an in-memory
# SQLite (`sqlite::memory:`) keeps nothing.
PDO_DRIVERS = {"sqlite": "sqlite", "mysql": "mysql", "pgsql": "postgres", "sqlsrv": "sqlserver", "dblib": "sqlserver"}


def sql_driver_of(f: Fact) -> str | None:
    """The database engine whose driver the import, Ruby gem or SQLite package `f` is (or that the Django setting
    or the PDO data source name `f` names)."""
    if f.kind == "manifest.dependency":
        if f.get("optional") == "true":  # (a Cargo dependency only a feature nobody turns on by default builds)
            return None
        ecosystem, name = f.get("ecosystem") or "", (f.get("name") or "").lower()
        if ecosystem == "ruby":
            return SQL_GEMS.get(name)
        known = SQLITE_PACKAGES.get(ecosystem, frozenset())
        # (a NuGet fork keeps the name it forks under a namespace of its own: System.Data.SQLite.Core.Servarr)
        return "sqlite" if name in known or (ecosystem == "dotnet" and any(name.startswith(f"{k}.") for k in known)) \
            else None
    if f.kind == "value.assign":
        m = DJANGO_ENGINE.search(f.get("expr") or "")
        return DJANGO_ENGINES.get(m.group(1) or m.group(2)) if m else None
    if f.kind == "orm.datasource":  # a Prisma schema's provider, an EF Core context's (`UseNpgsql`: npgsql)
        engine = (f.get("engine") or "").lower()
        return ORM_PROVIDERS.get(engine.removeprefix("use") if f.get("orm") == "efcore" else engine)
    if f.kind == "sql.dsn":
        dsn = (f.get("dsn") or "").lower().lstrip("\\")
        if ":" not in dsn:  # a driver's name in a settings array (Doctrine's `pdo_mysql`, `mysqli`), or PHP's class
            if dsn == "sqlite3":  # (`new SQLite3($file)`)
                return "sqlite"
            if re.match(r"^(mysqli?_|pg_)", dsn):  # (PHP's procedural mysqli_connect, pg_connect)
                return "postgres" if dsn.startswith("pg_") else "mysql"
            return "mysql" if dsn == "mysqli" else PDO_DRIVERS.get(dsn.removeprefix("pdo_")) if dsn.startswith("pdo_") else None
        return None if ":memory:" in dsn else PDO_DRIVERS.get(dsn.split(":", 1)[0])
    return sql_engine(f.get("module") or "")


class LocalServiceRules(ResolverBase):
    """The container engine and the operator-chosen SQL database of a system's programs."""

    def container_engine_clients(self) -> None:
        users: dict[tuple[str, str], Fact] = {}  # (process, engine) -> the first import of its client library
        mounted: dict[tuple[str, str], Fact] = {}  # (process, engine) -> the engine's socket its container mounts
        names: dict[str, tuple[str, ...]] = {}
        for f in self.by_kind["import"]:
            found = container_engine(f.get("module") or "")
            if found is None:
                continue
            names[found[0]] = found[1]
            for o in self._code_runners(f):
                users.setdefault((o, found[0]), f)
        for f in self.by_kind["compose.mount"]:  # the engine's socket mounted into the container
            engine = next((e for pattern, e in ENGINE_SOCKETS if pattern.match(f.get("source") or "")), None)
            cid = self.alias.get((f.get("owner") or "").lower()) if engine else None
            # (the system's own program: a proxy discovering containers by labels, a monitoring agent reading
            # their logs, a third-party executor, are infrastructure around the system, not what it does)
            # (its image the project's own: built here, or published under the project's name, as nginx-proxy's
            # compose file runs nginxproxy/nginx-proxy)
            if engine and cid and self.model.components[cid].kind in ("service", "gateway") \
                    and self.built_here(self.model.components[cid]):  # type: ignore[attr-defined]
                names.setdefault(engine, next((a for p, e, a in ENGINE_SDKS if e == engine), ()))
                users.setdefault((cid, engine), f)
                mounted.setdefault((cid, engine), f)
        engines: dict[str, str] = {}
        for (cid, name), f in sorted(users.items()):
            if name == CRI_ENGINE and any(o == cid and n != CRI_ENGINE for o, n in users):
                continue  # its own client of docker or containerd says which engine it drives
            if name not in engines:
                existing = self.alias.get(name)
                engines[name] = existing if existing and self.model.components[existing].kind == "external" else \
                    self.add_component(name, "external", None, f.evidence, aliases=names[name],
                                       attributes={"role": "container engine on the program's host",
                                                   "address": "its socket on the host (DOCKER_HOST, /run/containerd/containerd.sock)"}).id
            # (the socket the deployment mounts says so beside the client's import: a plug-in's import alone may be an
            # optional integration, the mount is the deployment's own)
            also = [mounted[(cid, name)].evidence] if (cid, name) in mounted and mounted[(cid, name)] is not f else []
            self.connect(cid, engines[name], "http" if name not in ("containerd", CRI_ENGINE) else "grpc", [f.evidence, *also],
                         kind="calls",
                         attributes={"via": f"container engine sdk {f.get('module')}" if f.kind == "import"
                                     else f"engine socket {f.get('source')} mounted"})

    def sql_driver_stores(self) -> None:
        drivers: dict[str, dict[str, Evidence]] = defaultdict(dict)  # process -> engine -> first import
        linkers: dict[str, set[str]] | None = None  # library -> what links it (read once, when first needed)
        choosers: set[str] | None = None  # components reading a setting that picks the engine (read when needed)
        configured: dict[str, dict[str, Evidence]] = defaultdict(dict)  # process -> engines its settings name
        for f in [*self.by_kind["import"], *self.by_kind["manifest.dependency"], *self.by_kind["value.assign"],
                  *self.by_kind["sql.dsn"], *self.by_kind["orm.datasource"]]:
            tech = sql_driver_of(f)
            if tech is None or self._in_adapter_family(f.repository, f.path):
                continue
            runners = self._code_runners(f)
            if f.kind == "value.assign":
                # a Django settings module's engine, unless a setting picks among several (LD_DB_ENGINE=sqlite by
                # default beside a postgresql branch: stores.embedded-engines reads that choice)
                if choosers is None:
                    choosers = {o for e in self.by_kind["env.read"] if ENGINE_SETTING.search(e.get("name") or "")
                                for o in self._code_runners(e)}
                runners = [o for o in runners if o not in choosers]
            if not runners and tech == "sqlite":
                # an SQLite package of a library project (a .NET class library referencing EF Core's SQLite
                # provider) keeps the data of the one program linking that library, directly or through others
                if linkers is None:
                    linkers = defaultdict(set)
                    for (source, target, protocol) in self.model.connections:
                        if protocol == "library":
                            linkers[target].add(source)
                runners = self._sole_library_user(self.owner_of(f.repository, f.path), linkers)
            for o in runners:
                if f.kind in ("value.assign", "orm.datasource"):  # (the engine its settings or schema name)
                    configured[o].setdefault(tech, f.evidence)
                else:
                    drivers[o].setdefault(tech, f.evidence)
        for o, named in configured.items():
            if "sqlite" in named and named.keys() & SERVER_ENGINES:
                # (Django's SQLite settings beside a production settings module naming PostgreSQL: the file is the
                # developer's default, the server the deployment's)
                named = configured[o] = {t: ev for t, ev in named.items() if t != "sqlite"}
            if len(named) == 1:  # (settings naming several engines, `if DB == "mysql"`, pick one by a setting)
                for tech, ev in named.items():
                    drivers[o].setdefault(tech, ev)
        for cid in sorted(drivers):
            techs = drivers[cid]
            if not techs.keys() & SERVER_ENGINES:
                # only SQLite drivers: the program keeps its data in a file of its own; for a server the system
                # deploys, that serves a port (a music server's `navidrome.db`) or whose code starts a server (a
                # backend in one binary run by hand, `./pocketbase serve`) that file is the system's database,
                # drawn as an embedded one; a tool's file (a cache, a helper) stays the tool's
                comp = self.model.components[cid]
                # (or that people open over HTTP, a front door: a web host whose endpoints its libraries declare;
                # not a command-line tool people start)
                if "sqlite" in techs and (comp.ports or comp.attributes.get("deployment") or any(
                        cid in self._code_runners(f) for f in self.by_kind["server.start"]) or any(
                        k[1] == cid and k[2] == "http" and self.model.components[k[0]].kind == "user"
                        for k in self.model.connections)):
                    self.embedded_database(cid, [techs["sqlite"]], "embedded sqlite driver")
                continue
            if any(k[0] == cid and self.model.components[k[1]].kind == "database"
                   and self.model.components[k[1]].attributes.get("technology") not in OBJECT_STORES | NON_SQL_STORES
                   for k in self.model.connections):
                continue  # its database is known (an address, a deployment); an object store it also keeps files in
                # (GoToSocial's S3 media storage), or a search or document store it indexes into, is not the one its
                # SQL drivers serve
            engines = sorted(techs)
            evidence = [techs[t] for t in engines]
            existing = sorted(c.id for c in self.model.components.values() if c.kind == "database"
                              and c.attributes.get("technology") in (*engines, "sql"))
            if "sqlite" in techs and not any(
                    c.kind == "database" and c.attributes.get("technology") not in OBJECT_STORES
                    and (c.attributes.get("deployment") or c.attributes.get("technology") in SERVER_ENGINES)
                    for c in self.model.components.values()):
                # SQLite among the engines a setting picks, and no database server deployed anywhere in the system:
                # the setting's default, which needs no server (yarr, GoToSocial, Maddy run on their SQLite file
                # until the operator points them at PostgreSQL)
                self.embedded_database(cid, [techs["sqlite"]], "embedded sqlite driver (no database server deployed)")
                continue
            if len(existing) == 1:
                target = existing[0]
            elif existing:
                continue  # several databases of those engines: which one is not told
            elif configured.get(cid, {}).keys() == set(engines):
                # the engine its settings name (Django's `django.db.backends.postgresql`): a server of that engine,
                # known by it, its host a setting
                store = self.add_component(engines[0], "database", self.model.components[cid].repository, evidence[0],
                                           attributes={"technology": engines[0], "implied_by": "the database engine "
                                                       "the program's settings name (its host is a setting)"})
                target = store.id
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

    def _sole_library_user(self, lib: str | None, linkers: dict[str, set[str]]) -> list[str]:
        """The one service or gateway linking library `lib` through library links (`linkers`: library -> the
        components linking it), directly or through other libraries; [] when it is no library, or none or
        several link it."""
        if lib is None or self.model.components[lib].kind != "library":
            return []
        seen, todo, users = {lib}, [lib], set()
        while todo:
            for source in sorted(linkers.get(todo.pop(), ())):
                kind = self.model.components[source].kind
                if kind in ("service", "gateway"):
                    users.add(source)
                elif kind == "library" and source not in seen:
                    seen.add(source)
                    todo.append(source)
        return sorted(users) if len(users) == 1 else []

    def _in_adapter_family(self, repo: str, path: str) -> bool:
        """Is the file one of a family of adapters, one file per technology (``mysql_scaler.go`` beside
        ``postgresql_scaler.go``, ``redis_scaler.go`` and others: an autoscaler's event sources)?  Its driver
        reaches whichever database a user points that adapter at, not the program's own store."""
        folder_path, _, name = path.rpartition("/")
        # (or a folder per technology: a store's backends, backend/sqlite/ beside backend/postgres/, redis/, s3/,
        # kafka/: Stalwart's, where the operator picks one)
        parts = PurePosixPath(folder_path).parts
        for k in range(len(parts) - 1, 0, -1):
            if parts[k].lower() in SQL_WORDS:
                siblings = self._module_names(repo, "/".join(parts[:k])) - {parts[k].lower()}
                if len(siblings) >= 4 and len(siblings & OTHER_TECH_WORDS) >= 2:
                    return True
        words = re.split(r"[_-]", name.rsplit(".", 1)[0].lower())
        if len(words) < 2 or name.lower().endswith(("_test.go", "_test.py")):
            return False
        siblings = self._file_stem_words().get((repo, folder_path), [])
        # the word that varies across the family names each adapter's technology: the file's own word is the
        # engine of its driver, its siblings' words other technologies (redis_scaler.go, kafka_scaler.go); a
        # family of SQL dialects (db_mysql.go, db_postgres.go) or of parts (db_connect.go, db_table.go) is not
        by_suffix = {w[0] for w in siblings if len(w) >= 2 and w[1:] == words[1:]}
        by_prefix = {w[-1] for w in siblings if len(w) >= 2 and w[:-1] == words[:-1]}
        return any(mine in SQL_WORDS and len(varying) >= 4 and len(varying & OTHER_TECH_WORDS) >= 2
                   for mine, varying in ((words[0], by_suffix), (words[-1], by_prefix)))

    def _file_stem_words(self) -> dict[tuple[str, str], list[list[str]]]:
        """(repository, folder) -> the words of each of its files' names (tests left out), read once."""
        memo = getattr(self, "_stem_words_memo", None)
        if memo is None:
            memo = defaultdict(list)
            for r, p in sorted(self.inventory_paths):
                if not p.endswith(("_test.go", "_test.py")):
                    d, _, n = p.rpartition("/")
                    memo[(r, d)].append(re.split(r"[_-]", n.rsplit(".", 1)[0].lower()))
            self._stem_words_memo = memo
        return memo

    def _code_runners(self, f: Fact) -> list[str]:
        """The running components whose code makes the import: the process running the file, or each
        process holding a package several of them run (a library since process.shared-code); never a
        library itself."""
        runners = getattr(self, "_runners", None)
        owners = runners(f.repository, f.path) if runners is not None else [self.owner_of(f.repository, f.path)]
        out: list[str] = []
        holders = getattr(self, "package_holders", None) or {}
        packages = getattr(self, "packages", None)
        for o in owners:
            comp = self.model.components.get(o) if o else None
            if comp is None:
                continue
            if comp.kind in ("service", "gateway"):
                out.append(comp.id)
            elif packages is not None:  # code shared by processes: each process holding its package runs it
                d = packages.package_of(f.repository, f.path)
                out.extend(sorted(h for h in holders.get((f.repository, d), ())
                                  if self.model.components[h].kind in ("service", "gateway")))
        if f.path.endswith(".go"):
            # (a Go package of the module, internal/util/db.go, runs in every deployed program whose own
            # package imports it, directly or through others: cmd/scanner as much as the server holding the root)
            out.extend(self._go_importers(f.repository, f.path.rpartition("/")[0]))
        return sorted(set(out))

    def _go_importers(self, repo: str, package: str) -> list[str]:
        """The deployed services and gateways whose own code (a source root that is not the whole repository,
        ``cmd/scanner``) imports Go package folder `package` of the repository's module, directly or through
        its other packages."""
        if not self._go_import_graph(repo):
            return []
        out = []
        for comp in self.model.components.values():
            if comp.kind not in ("service", "gateway") or not comp.attributes.get("deployment"):
                continue
            roots = frozenset(root for r, root in comp.source_roots if r == repo)
            if roots and not any(root in ("", ".") for root in roots) and package in self._go_reach(repo, roots):
                out.append(comp.id)
        return out

    def _go_import_graph(self, repo: str) -> dict[str, set[str]]:
        """Go package folder -> the package folders of the repository's own modules it imports (a memo of
        facts: the go.mod module paths and the import lines)."""
        graphs: dict[str, dict[str, set[str]]] | None = getattr(self, "_go_import_graphs", None)
        if graphs is None:
            graphs = self._go_import_graphs = {}
        if repo not in graphs:
            modules = sorted(((m.path.rpartition("/")[0], (m.get("name") or "").strip())
                              for m in self.by_kind["manifest"]
                              if m.repository == repo and m.get("ecosystem") == "go" and m.get("name")),
                             key=lambda x: (-len(x[1]), x))
            graph: dict[str, set[str]] = defaultdict(set)
            for f in self.by_kind["import"]:
                if f.repository != repo or not f.path.endswith(".go"):
                    continue
                module = (f.get("module") or "").strip().strip('"`')
                for root, name in modules:
                    if module == name or module.startswith(name + "/"):
                        target = module[len(name):].strip("/")
                        graph[f.path.rpartition("/")[0]].add(f"{root}/{target}".strip("/") if root else target)
                        break
            graphs[repo] = dict(graph)
        return graphs[repo]

    def _go_reach(self, repo: str, roots: frozenset[str]) -> set[str]:
        """The package folders the Go packages under `roots` import, directly or through others (a memo of
        facts, by the roots asked about)."""
        reaches: dict[tuple[str, frozenset[str]], set[str]] | None = getattr(self, "_go_reaches", None)
        if reaches is None:
            reaches = self._go_reaches = {}
        if (repo, roots) not in reaches:
            graph = self._go_import_graph(repo)
            seen: set[str] = set()
            frontier = sorted(d for d in graph if any(d == root or d.startswith(root + "/") for root in roots))
            while frontier:
                for t in sorted(graph.get(frontier.pop(), ())):
                    if t not in seen:
                        seen.add(t)
                        frontier.append(t)
            reaches[(repo, roots)] = seen
        return reaches[(repo, roots)]

    def driver_client_stores(self) -> None:
        """A serving program importing the client of a store that is always a server of its own (Redis:
        redis, ioredis, go-redis, a Bull queue) and reaching no store of that technology, in a system that runs
        none, uses one all the same: the client is how the program reaches it, its address a setting the
        operator gives.  Introduced once, named by its technology, so every program importing that client
        reaches the one store.  (Redis, and MongoDB through an object-document mapper keeping the application's
        models, Mongoid or Mongoose: a bare MongoDB, Elasticsearch or Cassandra client is as often one connector among
        many a query or integration tool offers, measured as more wrong than right.)"""
        from repomodeler.graph.catalog import TECH_KIND, TECH_PROTOCOL, tech_for_gem, tech_for_module

        first: dict[tuple[str, str], Evidence] = {}
        # (a Ruby application's gems too: Bundler loads them all, so its Gemfile names its clients, `sidekiq`)
        gems = [f for f in self.by_kind["manifest.dependency"] if f.get("ecosystem") == "ruby"]
        # (an object-document mapper counts where the repository's build declares it: an import of one left in a
        # deprecated plug-in of a project that moved to another database declares nothing)
        declared = {(d.repository, (d.get("name") or "").lower()) for d in self.by_kind["manifest.dependency"]}
        for f in sorted([*self.by_kind["import"], *gems], key=Fact.order):
            tech = tech_for_module(f.get("module") or "") if f.kind == "import" else tech_for_gem(f.get("name") or "")
            odm = (f.get("module") if f.kind == "import" else f.get("name")) or ""
            if tech not in DRIVER_IMPLIED and not (tech == "mongodb" and ODM_IMPLIED.match(odm)
                                                   and (f.repository, odm.lower()) in declared):
                continue
            for o in self._code_runners(f):
                first.setdefault((o, tech), f.evidence)
        serving: set[str] | None = None
        for (cid, tech), ev in sorted(first.items()):
            comp = self.model.components[cid]
            if any(c.attributes.get("technology") == tech and c.kind in ("database", "cache", "broker")
                   for c in self.model.components.values()):
                continue  # a store of it runs (or is known): the address and driver rules say who reaches it
            if serving is None:
                serving = {o for g in self.by_kind["server.start"] for o in self._code_runners(g)}
            if not (comp.ports or comp.attributes.get("deployment") or cid in serving):
                continue  # a tool's or a library's client: not a program the system runs
            target = self.alias.get(tech)
            if target is None or self.model.components[target].attributes.get("technology") != tech:
                target = self.add_component(tech, TECH_KIND.get(tech, "database"), None, ev, attributes={
                    "technology": tech,
                    "implied_by": "the store's client library the program imports (its address a setting)"}).id
            self.connect(cid, target, TECH_PROTOCOL.get(tech, "tcp"), [ev], kind="uses",
                         attributes={"via": "its client library (the address is a setting)"})
