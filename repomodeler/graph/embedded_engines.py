"""The embedded database a setting picks: ``LD_DB_ENGINE=sqlite``, ``DB_CONNECTION=sqlite``, ``SEMAPHORE_DB_DIALECT=bolt``.

Why a rule of its own: many self-hosted programs support several database engines and let one setting
choose (``DB_ENGINE``, ``DATABASE_TYPE``, ``DB_DIALECT``, ``storage.type``), defaulting to a file kept
inside the program (SQLite, BoltDB) so that one container is a working installation.  The drivers the
program imports name every engine it supports, so the driver rules cannot tell which one runs; the
setting can.  Where the deployment or the configuration gives it an embedded engine (or, with nothing
configured, the code's own default is one), and the program is not otherwise known to use a database
server, it keeps its data in an embedded database: ``sqlite`` (or ``boltdb``), with the setting's line.
A value naming a database server leaves the choice to the rules that read addresses.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence

# A setting choosing the database engine: DB_ENGINE, DATABASE_TYPE, LD_DB_ENGINE, SEMAPHORE_DB_DIALECT,
# DB_CONNECTION (Laravel), DB_CLIENT (Knex), storage.type, database.driver.
ENGINE_SETTING = re.compile(r"(?i)(^|[_.])(db|database|datastore|storage|store|meta_?store)[_.]?"
                            r"(engine|type|dialect|driver|client|backend|kind|provider|connection|adapter)$")
# Values naming an embedded engine, and the database each is.
EMBEDDED_ENGINES = {"sqlite": "sqlite", "sqlite3": "sqlite", "better-sqlite3": "sqlite", "better_sqlite3": "sqlite",
                    "bolt": "boltdb", "boltdb": "boltdb", "bbolt": "boltdb"}

# A name holding a database's URL (SQLALCHEMY_DATABASE_URI, DATABASE_URL, DB_DSN, db_connection_url) and an SQLite URL literal
# opening its value (`"sqlite:///" + path`, f"sqlite:///{path}").
DATABASE_URL_NAME = re.compile(r"(?i)(^|_)(database|db)(_[a-z]+)*_?(url|uri|dsn)$")
SQLITE_LITERAL = re.compile(r"""^[fr]?["']sqlite3?(\+\w+)?:""", re.I)
# libSQL's clients (SQLite's fork): given a `file:` URL they open a local SQLite file, given `libsql://` a server.
LIBSQL_CLIENT = re.compile(r"^(@libsql/client(/.*)?|libsql(::.*)?|libsql_client(::.*)?|github\.com/tursodatabase/libsql-client-go(/.*)?)$")
LIBSQL_FILE_URL = re.compile(r"""\burl\s*[:=]\s*[`"']file:""")
IN_MEMORY_SQLITE = re.compile(r"""^[fr]?(["'])sqlite3?(\+\w+)?:(//)?(/?:memory:)?\1""", re.I)


def _sqlite_file_url(value: str, libsql: bool) -> bool:
    """Does a database URL open an SQLite file (``sqlite:///data/app.db``; ``file:./db.sqlite`` for a libSQL
    client), not an in-memory one?"""
    url = value.strip().strip("\"'")
    if re.match(r"(?i)^sqlite3?(\+\w+)?:", url):
        return not re.match(r"(?i)^sqlite3?(\+\w+)?:(//)?(/?:memory:)?$", url)
    return libsql and url.startswith("file:")


def embedded_engine(value: str) -> str | None:
    """The embedded database a setting's value names (``sqlite3``, ``django.db.backends.sqlite3``, ``bolt``)."""
    word = value.strip().strip("\"'").lower().rsplit(".", 1)[-1]
    return EMBEDDED_ENGINES.get(word)


class EmbeddedEngineRules(ResolverBase):
    """``stores.embedded-engines``."""

    def embedded_engines(self) -> None:
        """Each service whose engine setting (configured, else its code's default) names an embedded
        database keeps its data in one, unless it already uses a database server."""
        chosen: dict[str, tuple[str, Evidence]] = {}
        configured: set[tuple[str, str]] = set()
        for (owner, name), values in sorted(self.env_values.items()):
            if not ENGINE_SETTING.search(name):
                continue
            if any(v.strip() for v, _ev in values):
                configured.add((owner, name))  # (left empty, `LD_DB_ENGINE=` in .env.sample, the code's default holds)
            techs = {embedded_engine(v) for v, _ev in values if v.strip()}
            if len(techs) == 1 and None not in techs:  # (every value given names the same embedded engine)
                tech = techs.pop()
                assert tech is not None
                chosen.setdefault(owner, (tech, min(ev for _v, ev in values)))
        # a database URL a deployment hands the service naming an SQLite file (`ENV DATABASE_URL=file:./data/db.sqlite`
        # for a libSQL client, `sqlite:////data/app.db`); any other URL leaves it to the rules reading addresses
        libsql_repos = {f.repository for f in self.by_kind["import"] if LIBSQL_CLIENT.match(f.get("module") or "")}
        for (owner, name), values in sorted(self.env_values.items()):
            given = [(v, ev) for v, ev in values if v.strip()]
            if not DATABASE_URL_NAME.search(name) or not given:
                continue
            configured.add((owner, name))
            comp = self.model.components.get(owner)
            if comp is not None and all(_sqlite_file_url(v, comp.repository in libsql_repos) for v, _ev in given):
                chosen.setdefault(owner, ("sqlite", min(ev for _v, ev in given)))
        # the code's default, for a setting nothing configures (os.getenv("LD_DB_ENGINE", "sqlite")); a database
        # URL's default an SQLite file (os.environ.get("DATABASE_URL", "sqlite:///config/data.sqlite")) likewise
        for f in sorted(self.by_kind["env.read"], key=lambda f: f.order()):
            name, default = f.get("name") or "", f.get("default") or ""
            tech = embedded_engine(default) if ENGINE_SETTING.search(name) else None
            if tech is None and DATABASE_URL_NAME.search(name) and _sqlite_file_url(default, libsql=False):
                tech = "sqlite"
            if tech is None:
                continue
            for owner in self._code_runners(f):
                if (owner, name) not in configured:
                    chosen.setdefault(owner, (tech, f.evidence))
        # a database URL the code sets itself (SQLALCHEMY_DATABASE_URI = "sqlite:///" + str(ROOT / "info.db"))
        for f in sorted(self.by_kind["value.assign"], key=lambda f: f.order()):
            if DATABASE_URL_NAME.search(f.get("name") or "") and SQLITE_LITERAL.match(f.get("expr") or ""):
                for owner in self._code_runners(f):
                    chosen.setdefault(owner, ("sqlite", f.evidence))
        # ... or hands straight to the call opening it (create_engine('sqlite:///{0}'.format(app_db_path)); an
        # in-memory database, `sqlite://` alone or `:memory:`, keeps nothing), or opens a libSQL client on a local
        # file (createClient({ url: 'file:/data/app.db' })): SQLite's file
        libsql_files = {(f.repository, f.path) for f in self.by_kind["import"] if LIBSQL_CLIENT.match(f.get("module") or "")}
        for f in sorted(self.by_kind["value.invoke"], key=lambda f: f.order()):
            args = f.get("args") or ""
            first = args.strip().lstrip("(").strip()
            if (SQLITE_LITERAL.match(first) and not IN_MEMORY_SQLITE.match(first)) \
                    or ((f.repository, f.path) in libsql_files and LIBSQL_FILE_URL.search(args)):
                for owner in self._code_runners(f):
                    chosen.setdefault(owner, ("sqlite", f.evidence))
        for owner, (tech, evidence) in sorted(chosen.items()):
            self.embedded_database(owner, [evidence], "database engine setting", technology=tech)
