"""Rules of the stores group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="stores.platform-addons",
        message=("A store, broker or search server a hosting platform provisions as an add-on (Heroku app.json "
                 "addons: heroku-postgresql, heroku-redis, memcachier, cloudamqp...) is used by the application "
                 "owning that file, a store of that technology the system has already being that one; read when "
                 "the system deploys nothing else or when its Procfile splits the code into the processes drawn"),
        unit="platform_addons",
        reads=("platform.addon",),
        writes=("components", "connections"),
        after=("process.supervised", "stores.implied", "stores.configured-sections"),
    ),
    Rule(
        id="stores.implied",
        message=("A store technology a service clearly uses (starter, driver, a Quarkus datasource extension, embedded default; in a system that "
                 "deploys nothing, a store URL on the loopback in its settings or its code's defaults, a setting or constant "
                 "named for a store holding the loopback at its standard port (ELASTICSEARCH_URL = 'localhost:9200'), or a key naming the "
                 "store's host on the loopback: spring.redis.host: ${REDIS_HOST:127.0.0.1}, or a section's host there "
                 "beside a store's standard port) with no deployed store of that kind introduces that store; a store "
                 "found on this machine is the machine's one server of that technology, shared by every service whose "
                 "settings name it there, even where a driver implies it too"),
        unit="implied_stores",
        reads=("manifest.dependency", "annotation", "config.property", "config.env", "string.url", "const.string"),
        writes=("components", "connections"),
        after=("config.address-values", "code.address-literals", "code.config-reads", "code.store-drivers",
               "platform.role-clients"),
        state=("component_signs",),
    ),
    Rule(
        id="stores.configured-sections",
        message=("A component's own configuration section named after a store or broker technology holding its "
                 "address (redis.host, mongodb.uri, nats.url) connects it to that store, introduced when the "
                 "system has none; "
                 "a section's list of hosts (Etcd.Hosts[0]) counts, and each file naming the store adds its line to the link"),
        unit="configured_sections",
        reads=("config.property", "manifest.dependency", "import"),
        writes=("components", "connections"),
        after=("stores.implied",),
    ),
    Rule(
        id="stores.logical-databases",
        message=("Databases named in connection strings to one database server are logical databases inside that "
                 "server"),
        unit="logical_databases",
        reads=(),
        writes=("components", "connections", "attributes"),
        after=("protocol.fold-unknown", "process.programs", "process.links"),
        state=("databases_named",),
    ),
    Rule(
        id="stores.sql-drivers",
        message=("A process importing SQL drivers of database servers (its own code, or a package of its Go module "
                 "its own packages import, directly or through others: internal/util opening the pool for cmd/scanner; "
                 "a search or document store it also reaches is no SQL database; "
                 "behind an ORM or database/sql, a Ruby "
                 "application's adapter gems, a Django setting's engine where no setting picks among several, a Prisma schema's "
                 "datasource provider, a PDO data source name; "
                 "the engine a setting picks) with no database known uses one database: the system's one of those engines, else "
                 "one introduced; a deployed or serving process importing only SQLite drivers (or depending on an npm, "
                 "Cargo, Maven, NuGet or Hex SQLite package) keeps its data in an embedded database, drawn as sqlite (a tool's "
                 "file stays the tool's); "
                 "an Entity Framework Core context's provider (UseSqlServer, UseNpgsql) names its engine"),
        unit="sql_driver_stores",
        reads=("import", "module.var", "manifest.dependency", "server.start", "env.read", "value.assign", "sql.dsn",
               "orm.datasource", "manifest"),
        writes=("components", "connections"),
        after=("process.links", "process.supervised", "process.shared-code", "code.store-drivers", "stores.implied",
               "stores.platform-addons"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
    Rule(
        id="stores.embedded-engines",
        message=("A service whose database-engine setting (DB_ENGINE, DATABASE_TYPE, DB_DIALECT, DB_CONNECTION, "
                 "storage.type; as configured, else its code's default) names an embedded engine (SQLite, BoltDB), or "
                 "whose code sets its database URL to an SQLite one or opens one by such a URL (create_engine('sqlite:///"
                 "...')) or opens a libSQL client on a local file (url: 'file:...'), whose database URL setting defaults "
                 "to an SQLite file in its code with no deployment setting it (os.environ.get('DATABASE_URL', "
                 "'sqlite:///data.db')), or whose deployment hands it such a URL (ENV DATABASE_URL=file:./db.sqlite for a "
                 "libSQL client), keeps its data in an embedded database, unless it already uses a database server"),
        unit="embedded_engines",
        reads=("env.read", "value.assign", "value.invoke", "import", "manifest"),
        writes=("components", "connections"),
        after=("stores.sql-drivers", "config.address-values", "code.address-literals", "compose.depends-on"),
        state=("env_values", "file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
    Rule(
        id="stores.driver-clients",
        message=("A deployed or serving program importing the client library of Redis (redis, ioredis, go-redis; a job "
                 "queue keeping its jobs there: Bull, BullMQ, RQ, asynq; a Ruby application's gem, Sidekiq or a wrapper of it) that reaches no Redis, in a system that runs "
                 "none, uses one: introduced once by its technology, its address a setting; "
                 "an object-document mapper the build declares (Mongoid, Mongoose) implies MongoDB so"),
        unit="driver_client_stores",
        reads=("import", "module.var", "server.start", "manifest.dependency", "manifest"),
        writes=("components", "connections"),
        after=("stores.embedded-engines", "stores.configured-sections", "code.store-drivers"),
        state=("file_owner", "package_owner", "package_holders", "packages", "process_parent"),
    ),
)
