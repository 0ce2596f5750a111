"""Knowledge tables: which images, URL schemes, ports and libraries mean which technology.

Kept apart from the resolver so that recognising a new database or broker is a one-line change.
"""

from __future__ import annotations

import ipaddress
import functools
import re
from functools import lru_cache

# (image name pattern, technology, component kind)
IMAGE_TECH: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(p), tech, kind)
    for p, tech, kind in (
        # (pgvector/pgvector, ankane/pgvector: PostgreSQL with the vector extension; supabase/postgres;
        # pgautoupgrade/pgautoupgrade: PostgreSQL upgrading its data folder to its own version on start)
        (r"(^|/)(postgres|postgis|timescaledb|bitnami/postgresql|postgresql|percona-(server-)?postgresql|pgvector|pgautoupgrade)", "postgres",
         "database"),
        (r"(^|/)(mysql|mariadb|percona(?!.*(mongo|postgres)))", "mysql", "database"),
        (r"(^|/)(mongo|percona-server-mongodb)", "mongodb", "database"),
        (r"(^|/)(mssql|sqlserver|mcr.microsoft.com/mssql)", "sqlserver", "database"),
        (r"(^|/)(cassandra|scylla)", "cassandra", "database"),
        (r"(^|/)(elasticsearch|opensearch|elastic/elasticsearch)", "elasticsearch", "database"),
        (r"(^|/)neo4j", "neo4j", "database"),
        (r"(^|/)(couchdb|couchbase|influxdb|clickhouse|cockroach|dynamodb|arangodb|eventstore|eventstoredb|ravendb"
         r"|rethinkdb|questdb|surrealdb|meilisearch|typesense|qdrant|weaviate)", "database", "database"),
        (r"(^|/)(minio)", "s3", "database"),
        # (Azurite: the Azure Storage emulator, the blob/queue/table store a local run uses in place of a storage account)
        (r"(^|/)azurite", "azure-storage", "database"),
        (r"(^|/)(redis|valkey|keydb|bitnami/redis)", "redis", "cache"),
        (r"(^|/)memcached", "memcached", "cache"),
        (r"(^|/)(cp-kafka|cp-server|confluent-local|kafka|redpanda|bitnami/kafka)", "kafka", "broker"),
        (r"(^|/)(rabbitmq|bitnami/rabbitmq)", "rabbitmq", "broker"),
        (r"(^|/)(nats)", "nats", "broker"),
        (r"(^|/)(activemq|artemis)", "activemq", "broker"),
        (r"(^|/)(pulsar)", "pulsar", "broker"),
        (r"(^|/)(eclipse-mosquitto|mosquitto|emqx|vernemq|hivemq)", "mqtt", "broker"),
        (r"(^|/)(nginx|traefik|envoy|haproxy|kong|caddy|httpd)", "proxy", "gateway"),
    )
)

TECH_PROTOCOL: dict[str, str] = {
    "postgres": "sql", "mysql": "sql", "sqlserver": "sql", "database": "tcp", "cassandra": "tcp", "neo4j": "bolt",
    "mongodb": "mongodb", "redis": "redis", "memcached": "tcp", "kafka": "kafka", "rabbitmq": "amqp",
    "activemq": "amqp", "nats": "nats", "elasticsearch": "elasticsearch", "pulsar": "tcp", "s3": "http", "azure-storage": "http",
    "proxy": "http", "mqtt": "mqtt", "servicebus": "amqp", "eventhubs": "amqp",
}

TECH_KIND: dict[str, str] = {
    "neo4j": "database", "postgres": "database", "mysql": "database", "sqlserver": "database", "mongodb": "database",
    "cassandra": "database", "elasticsearch": "database", "redis": "cache", "memcached": "cache",
    "kafka": "broker", "rabbitmq": "broker", "activemq": "broker", "nats": "broker", "mqtt": "broker",
    "servicebus": "broker", "eventhubs": "broker",
}

SCHEME_TECH: dict[str, str | None] = {
    "postgres": "postgres", "postgresql": "postgres", "postgresql+psycopg2": "postgres",
    "postgresql+asyncpg": "postgres", "postgresql+psycopg": "postgres",
    "mysql": "mysql", "mysql+pymysql": "mysql", "mariadb": "mysql", "sqlserver": "sqlserver", "mssql": "sqlserver",
    "mongodb": "mongodb", "mongodb+srv": "mongodb", "redis": "redis", "rediss": "redis",
    "amqp": "rabbitmq", "amqps": "rabbitmq", "kafka": "kafka", "nats": "nats",
    "bolt": "neo4j", "bolt+s": "neo4j", "neo4j": "neo4j", "neo4j+s": "neo4j", "cassandra": "cassandra",
    "mqtt": "mqtt", "mqtts": "mqtt",
    "http": None, "https": None, "https+http": None, "http+https": None, "grpc": None, "ws": None, "wss": None, "lb": None, "dns": None,
}

SCHEME_PROTOCOL: dict[str, str] = {"http": "http", "https": "http", "https+http": "http", "http+https": "http", "ws": "http", "wss": "http", "grpc": "grpc",
                                   "lb": "http", "dns": "grpc"}
MESSAGING_TECH_PROTOCOL: dict[str, str] = {"kafka": "kafka", "rabbitmq": "amqp", "amqp": "amqp", "nats": "nats",
                                           "redis": "redis", "activemq": "amqp", "mqtt": "mqtt"}
HTTP_VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})

PORT_PROTOCOL: dict[int, str] = {
    5432: "sql", 3306: "sql", 1433: "sql", 27017: "mongodb", 6379: "redis", 9092: "kafka", 29092: "kafka",
    5672: "amqp", 4222: "nats", 9200: "elasticsearch", 50051: "grpc", 1883: "mqtt", 8883: "mqtt",
}

# Import / dependency name prefixes of client libraries, per technology.
DRIVER_TECH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), tech)
    for p, tech in (
        # (a Python driver's submodules too: `import psycopg2.extensions`, `from pymysql.cursors import ...`)
        (r"^((psycopg2?|psycopg_pool|asyncpg)(\..*)?|pg|postgres|pg-promise|github\.com/lib/pq|github\.com/jackc/pgx.*"
         r"|org\.postgresql.*|Npgsql(\..*)?|Postgrex(\..*)?)$",
         "postgres"),
        (r"^((pymysql|MySQLdb|aiomysql)(\..*)?|mysqlclient|mysql2?|mysql\.connector(\..*)?|github\.com/go-sql-driver/mysql|com\.mysql.*"
         r"|MySqlConnector|MySql\.Data.*|MyXQL(\..*)?)$", "mysql"),
        # (.NET namespaces such as StackExchange.Redis and Microsoft.Data.SqlClient are left out: a C#
        # `global using` imports them for a whole project, which shows no use.)
        (r"^(mssql|tedious|github\.com/(denisenkom|microsoft)/go-mssqldb.*|com\.microsoft\.sqlserver.*)$", "sqlserver"),
        # (Go's community driver mgo, `gopkg.in/mgo.v2` and its fork `github.com/globalsign/mgo`, too)
        (r"^(pymongo(\..*)?|motor.*|mongoose|mongodb|mongoengine|go\.mongodb\.org/mongo-driver.*|com\.mongodb.*|MongoDB\.Driver.*"
         r"|gopkg\.in/mgo\.v2(/.*)?|github\.com/globalsign/mgo(/.*)?)$",
         "mongodb"),
        (r"^(cassandra(\..*)?|cassandra-driver|github\.com/gocql/gocql|github\.com/apache/cassandra-gocql-driver.*"
         r"|com\.datastax.*)$", "cassandra"),
        (r"^(neo4j(\..*)?|neo4j-driver|github\.com/neo4j/neo4j-go-driver.*|org\.neo4j\.driver.*)$", "neo4j"),
        (r"^(pymemcache.*|pylibmc|memjs|github\.com/bradfitz/gomemcache/memcache|net\.spy\.memcached.*)$", "memcached"),
        # (and job queues that keep their jobs in Redis whatever the deployment: Bull, BullMQ, Bee-Queue, asynq,
        # RQ, arq)
        (r"^(redis(\..*)?|aioredis|ioredis|github\.com/(go-redis|redis)/.*|github\.com/gomodule/redigo/redis"
         r"|redis\.clients.*|io\.lettuce.*|Redix(\..*)?"
         r"|bull|bullmq|@nestjs/bull(mq)?|bee-queue|github\.com/hibiken/asynq|rq(\..*)?|arq(\..*)?)$", "redis"),
        (r"^((pika|aio_pika)(\..*)?|amqplib|amqp-connection-manager|github\.com/streadway/amqp|github\.com/rabbitmq/amqp091-go|com\.rabbitmq.*|AMQP(\..*)?)$", "rabbitmq"),
        (r"^(kafka(\..*)?|confluent_kafka|aiokafka|kafkajs|github\.com/(Shopify|IBM)/sarama|github\.com/bsm/sarama-cluster|github\.com/segmentio/kafka-go|github\.com/confluentinc/confluent-kafka-go(/v\d+)?/kafka|github\.com/twmb/franz-go/pkg/kgo|node-rdkafka|@confluentinc/kafka-javascript|org\.apache\.kafka.*|KafkaEx(\..*)?|BroadwayKafka(\..*)?)$", "kafka"),
        (r"^(nats|nats\.aio.*|github\.com/nats-io/nats\.go)$", "nats"),
        (r"^(Tortoise(311)?(\..*)?)$", "mqtt"),
        (r"^(elasticsearch.*|@elastic/elasticsearch|github\.com/elastic/go-elasticsearch.*|github\.com/olivere/elastic.*"
         r"|opensearchpy|@opensearch-project/opensearch|github\.com/opensearch-project/opensearch-go.*"
         r"|org\.elasticsearch\.client.*|co\.elastic\.clients.*|Elastic\.Clients\.Elasticsearch.*)$", "elasticsearch"),
    )
)

def is_private_address(host: str) -> bool:
    """An IP literal of a private network (``192.168.99.100``, a docker-machine VM; ``10.0.0.7``, a LAN
    host): the address of a machine that runs parts of the system, so the port, not the host, says
    which component it reaches."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_private
    except ValueError:
        return False


# Kubernetes cluster DNS: [<pod>.]<service>.<namespace>.svc[.cluster.local] (a StatefulSet's pod behind its
# headless Service: mongodb-0.mongodb-headless.default.svc.cluster.local); group 1 is the Service
CLUSTER_DNS = re.compile(r"^(?:[a-z0-9][a-z0-9-]*\.)?([a-z0-9][a-z0-9-]*)\.[a-z0-9-]+\.svc(\.cluster\.local)?\.?$")
# The cloud instance's own metadata endpoint (credentials, project id): part of the platform every
# program runs on, not a dependency of the architecture.
METADATA_HOSTS = frozenset({"metadata.google.internal", "metadata.goog", "169.254.169.254", "169.254.170.2",
                            "fd00:ec2::254", "metadata.azure.com"})
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]", "host.docker.internal", "+", "*", "::"})
# Configuration keys whose value is the host of a known technology (spring.rabbitmq.host: rabbitmq).
KEY_SCHEME: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I), scheme) for p, scheme in (
    (r"(^|[._])rabbitmq[._](host|addresses)$|^RABBITMQ_(HOST|ADDR)$", "amqp"),
    # (and .NET's `Redis:Configuration` / `ConnectionStrings:Redis`, a StackExchange.Redis configuration string)
    (r"(^|[._])redis[._]host$|^REDIS_(HOST|ADDR)$|(^|[.:])redis:(configuration|connection(string)?|endpoint|server)$"
     r"|^connectionstrings:redis$", "redis"),
    (r"(^|[._])mongodb[._]host$|^MONGO(DB)?_HOST$", "mongodb"),
    (r"(^|[._])cassandra[._]contact[-_]?points(\[0\])?$|^CASSANDRA_(HOST|CONTACT_POINTS)$", "cassandra"),
    (r"(^|[._])kafka[._]bootstrap[._-]servers$|^KAFKA_(BROKERS|BOOTSTRAP_SERVERS)$", "kafka"),
    (r"(^|[._])mqtt[._](host|broker)$|^MQTT_(HOST|BROKER|BROKER_HOST|SERVER)$", "mqtt"),
))
# Keys whose URL is where the user's browser is sent (OAuth authorization and redirect endpoints,
# callbacks, logout pages), not a call the component makes: `userAuthorizationUri`, `redirect-uri`.
# The API documentation UI (`springdoc.*`, `swagger-ui.*`) runs in the browser too.
# So are the links a page shows people (the terms of service, the privacy policy, help and documentation pages:
# `PASSBOLT_LEGAL_TERMSURL`, `PRIVACY_POLICY_URL`, `HELP_LINK`), and the links of its footer or menu
# (`FOOTER_CHAT_LINK`, `FOOTER_GITHUB_LINK`, `NAVBAR_FORUM_URL`).
BROWSER_URL_KEY = re.compile(r"(^|[._-])(footer|nav(bar)?|menu|social)[._-]([a-z0-9]+[._-])*(ur[il]|links?)(\[\d+\])?$"
                             r"|((^|[._-])(user[-_]?)?authori[sz]ation[-_]?ur[il]|redirect[-_]?ur[il]s?|callback[-_]?ur[il]"
                             r"|logout[-_]?(success[-_]?)?ur[il]"
                             r"|(terms|tos|privacy|legal|imprint|help|docs?|documentation|faq|support)([-_]?(of[-_]?service"
                             r"|policy|page|center|centre))?[-_]?(ur[il]|link))(\[\d+\])?$|^(springdoc|swagger[-_]?ui)\.", re.I)
# Settings of a browser test harness (`PASSBOLT_SELENIUM_SSO_AZURE_URL`, `PLAYWRIGHT_BASE_URL`, `CYPRESS_API_URL`), or
# named for the tests (`TEST_URL`, `E2E_TEST_HOST`): the tests' addresses, not the system's.
TEST_HARNESS_KEY = re.compile(r"(^|[._-])(selenium|playwright|cypress|e2e|puppeteer|webdriver)([._-]|$)|(^|[._-])test[._-]",
                              re.I)
MAIL_HOST_KEY = re.compile(r"^(spring\.mail\.host|mail\.smtp\.host|(SMTP|MAIL|EMAIL)_(HOST|HOSTNAME|SERVER|FQDN|RELAY_HOST))$", re.I)
# Setting names that say a link is not HTTP (ACTIVEMQ_HOST, Smtp:Server, Redis:Endpoint).
NOT_HTTP_KEY = re.compile(r"mq|amqp|rabbit|kafka|nats|redis|mongo|postgres|mysql|maria|sql|jdbc|jms|stomp|smtp|mail|"
                          r"ldap|broker|queue|tcp|socket|elastic|memcache|cassandra|zookeeper|etcd|grpc|database|db", re.I)
# (FQDN: a fully qualified domain name, a host by definition: SMTP_FQDN=mail)
HOST_ENV_NAME = re.compile(r"(HOST|ADDR|ADDRESS|SERVER|URL|URI|ENDPOINT|BROKER|BROKERS|DSN|SERVICE|CONN|NODES|SEEDS|FQDN)", re.I)
ENTRY_FILES = re.compile(
    r"(^|/)(main\.py|app\.py|server\.py|manage\.py|wsgi\.py|asgi\.py|__main__\.py|index\.[cm]?[jt]s|server\.[cm]?[jt]s|"
    r"app\.[cm]?[jt]s|main\.[cm]?[jt]s|main\.go|[A-Za-z]*Application\.java|Main\.java|Program\.cs|main\.rs|config\.ru|application\.ex|index\.php)$"
)  # (application.ex: an OTP application's callback module, which starts its supervision tree)


# Domains reserved for documentation and tests (RFC 2606, RFC 6761): `example.com`, `shop.example`,
# `api.test`, `x.invalid`. A value naming one is a placeholder someone fills in, never a system called.
# So are the hosts of namespace and schema identifiers (`http://www.w3.org/2001/04/xmldsig-more#rsa-sha256`,
# `http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name`, `https://json-schema.org/draft/2020-12/schema`):
# names that look like URLs, never fetched.
# A URL's stand-in host in documentation and help text (`postgres://user:password@host:5432/database`).
# So is a null literal an env template sets to say "unset" (`REDIS_HOST=null`, `None`, `undefined`).
PLACEHOLDER_HOST = re.compile(r"^(host|hostname|your[-_]?host(name)?|db[-_]?host|server[-_]?(name|host)|ip[-_]?address|"
                              r"(your|my)[-_][a-z0-9-]*(host|hostname|server|endpoint)|null|none|nil|undefined)$", re.I)
RESERVED_EXAMPLE = re.compile(r"(^|\.)(example\.(com|net|org)|example|test|invalid|tld)$|"
                              # a name under `.localhost` (RFC 6761: always the loopback, web-ex.dev.localhost
                              # of a dev server), and a documentation site (*.readthedocs.io): never a system called
                              r"\.localhost$|(^|\.)readthedocs\.(io|org)$|"
                              # public names that resolve to the loopback (oauth2-proxy.localtest.me, app.lvh.me) or
                              # to the address they spell (10.0.0.1.nip.io): a developer's own machine
                              r"(^|\.)(localtest\.me|lvh\.me|vcap\.me|localho\.st|traefik\.me|nip\.io|sslip\.io|xip\.io)$|"
                              # names of the local network's own resolution (RFC 6762's mDNS `.local`, RFC 8375's
                              # `home.arpa`): a machine on the user's network, no system on the internet
                              r"(?<!cluster)\.(local|localdomain|home\.arpa)$|"
                              # an app store's page of the project's mobile app, a link people follow
                              r"^(apps\.apple\.com|play\.google\.com)$|"
                              # a vendor's host with an `example` label (`cluster0.example.mongodb.net` in a form's hint)
                              r"(^|\.)example\.|"
                              # a template's stand-in for the operator's own (your-endpoint-here.openai.azure.com)
                              r"^(your|<)[^.]*\.|(^|[-_.])(placeholder|changeme|replace-?me)([-_.]|$)|"
                              # (a value saying it was left unset, `https://url.not.set`, `host.not.configured`)
                              r"(^|\.)not\.(set|configured|defined)(\.|$)|"
                              # (`changemeregion.api.cognitive.microsoft.com`, a run of x's standing for a name,
                              # `kuberoxxxxxxxx.loca.lt`, `x.x.x.x`, `somedomain.com`, `mydomain.org`)
                              r"(^|[-_.])changeme|x{4,}|^x(\.x){3}$|(^|\.)(some|your|my)[-_]?domain\.[a-z]+$|"
                              # (my-custom-s3-compatible.service.com, your-own-server.com: a stand-in's first label)
                              r"^(my|your)[-_](custom|own)[-_]|"
                              # a top-level label no DNS name has: a stand-in an installer replaces
                              # (`api.NETMAKER_SUBDOMAIN`, sed-substituted in a manifest)
                              r"\.[A-Za-z0-9-]*_[A-Za-z0-9_-]*$|"
                              # public fake and echo APIs that samples, demos and debugging pages call
                              # (jsonplaceholder, httpbin, reqres, PokeAPI, a tutorial's demo endpoint): no system's part
                              r"^(jsonplaceholder\.typicode\.com|(www\.)?httpbin\.org|(www\.)?reqres\.in|pokeapi\.co"
                              r"|(www\.)?dummyjson\.com|fakestoreapi\.com|randomuser\.me|swapi\.(dev|co|tech)"
                              r"|catfact\.ninja|postman-echo\.com|javascript\.info)$|"
                              r"^(www\.)?(w3\.org|schemas\.xmlsoap\.org|schemas\.microsoft\.com|"
                              r"schemas\.openxmlformats\.org|purl\.org|xmlns\.com|json-schema\.org|"
                              r"docs\.oasis-open\.org|ns\.adobe\.com|schema\.org)$")


# Words after a technology's name in an image name that make it a tool for that technology.
TOOL_WORDS = frozenset({"ui", "gui", "web", "exporter", "commander", "express", "admin", "insight", "insights",
                        "manager", "dashboard", "connect", "rest", "browser", "monitor", "cli", "console",
                        # an application talking to it (rabbitmq-client, kafka-producer) or managing it (an operator)
                        "client", "clients", "consumer", "consumers", "producer", "producers", "publisher",
                        "subscriber", "operator"})


# Words ending an image name's parts that make it a project's program, not the store it is named after
# (`kafka-ml-backend`, `kafka-ml-pthexecutor`, `kafka-ml-kafka_control_logger`).
APPLICATION_WORDS = ("backend", "frontend", "executor", "logger", "worker", "processor")


@lru_cache(maxsize=65536)
def tech_for_image(image: str | None) -> tuple[str, str] | None:
    """(technology, kind) for a container image, or None for an application image."""
    if not image:
        return None
    name = image.split("@")[0].rsplit(":", 1)[0] if ":" in image.split("/")[-1] else image.split("@")[0]
    if TOOL_WORDS & set(re.split(r"[-_]", name.lower().rsplit("/", 1)[-1])[1:]):
        return None  # kafka-ui, mongo-express, redis_exporter, cp-kafka-connect: a tool for it, not the store itself
    if any(w.endswith(APPLICATION_WORDS) for w in re.split(r"[-_]", name.lower().rsplit("/", 1)[-1])[1:]):
        return None  # kafka-ml-backend, kafka-ml-pthexecutor: a project named after the technology, its programs
    low = name.lower()
    # (a match in the registry or namespace only names the vendor when the image's own name is a program of
    # theirs beside the store, `clickhouse/clickstack-otel-collector`; `mssql/server` is the store)
    vendor_program = bool(VENDOR_PROGRAM_WORDS & set(re.split(r"[-_.]", low.rsplit("/", 1)[-1])))
    for pattern, tech, kind in IMAGE_TECH:
        if any(not vendor_program or "/" not in low[m.end():] for m in pattern.finditer(low)):
            return tech, kind
    # A vendor's build of a technology named as a word of the image (eventuateio/eventuate-mysql8,
    # acme/shop-kafka): the technology, when exactly one technology is named.
    words = re.split(r"[-_]", name.lower().rsplit("/", 1)[-1])
    if PROGRAM_WORDS & set(words[1:]):
        return None  # zabbix-server-mysql, zabbix-proxy-sqlite3: a program's build for that store, its client
    found = {(tech, kind) for w in words[1:] for pattern, tech, kind in IMAGE_TECH
             if kind != "gateway" and pattern.search(re.sub(r"\d+$", "", w))}
    return found.pop() if len(found) == 1 else None


def store_named(name: str) -> tuple[str, str] | None:
    """(technology, kind) of a store, cache or broker a deployment names its service after
    (``minio``, ``redis``, ``postgres``), for a service running an image of no known technology
    (``pgsty/silo``, an S3-compatible server): people name such a service for what it is. None for other names."""
    found = tech_for_image(name.lower()) if re.fullmatch(r"[a-z]+\d*", name.lower()) else None
    return found if found and found[1] in ("database", "cache", "broker") else None


# The kinds of component that keep or carry data (stores and brokers): what a program reaches by using a client package.
STORE_KINDS = frozenset({"database", "cache", "broker", "search", "storage"})


# Words of a vendor's program published beside its store (an OpenTelemetry collector, an agent, an exporter).
# (`nginxproxy/acme-companion`: the certificate helper beside the vendor's proxy, not the proxy)
VENDOR_PROGRAM_WORDS = frozenset({"collector", "otel", "opentelemetry", "agent", "exporter", "operator", "ui", "proxy",
                                  "companion",
                                  # the vendor's management UI (redpandadata/console beside redpandadata/redpanda)
                                  "console", "dashboard", "studio", "gui", "admin"})


# Words naming a program's role in an image named for a store too (zabbix-server-mysql: the server, built
# for MySQL): the image runs that program, not the store.
PROGRAM_WORDS = frozenset({"server", "proxy", "agent", "gateway", "api", "worker", "frontend", "backend", "service"})


# The Kubernetes API server by its in-cluster address (the `kubernetes` Service of the default namespace), and the
# other names people give it.
KUBE_API_HOST = "kubernetes.default.svc"
KUBE_API_ALIASES = ("kube-api", "kubernetes api", "kube-apiserver", "kubernetes")


# Client libraries of hosted services: a component importing one (or depending on it in its manifest)
# calls that service, an external system, by its API host; the other names are what people call it.
SDK_SERVICES: tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...] = tuple(
    (re.compile(p), host, names) for p, host, names in (
        (r"^(stripe(\..*)?|com\.stripe.*|github\.com/stripe/stripe-go.*|Stripe(\..*)?)$", "api.stripe.com", ("stripe",)),
        (r"^(sendgrid(\..*)?|@sendgrid/.*|com\.sendgrid.*|github\.com/sendgrid/.*|SendGrid(\..*)?)$", "api.sendgrid.com",
         ("sendgrid",)),
        (r"^(twilio(\..*)?|com\.twilio.*|github\.com/twilio/twilio-go.*|Twilio(\..*)?)$", "api.twilio.com", ("twilio",)),
        (r"^(mailgun(\..*)?|mailgun\.js|github\.com/mailgun/mailgun-go.*)$", "api.mailgun.net", ("mailgun",)),
        (r"^(openai(\..*)?|@azure/openai|Azure\.AI\.OpenAI(\..*)?|OpenAI(\..*)?|github\.com/sashabaranov/go-openai"
         r"|github\.com/openai/openai-go.*|com\.openai.*|com\.theokanning\.openai.*)$", "api.openai.com", ("openai",)),
        (r"^(anthropic(\..*)?|@anthropic-ai/sdk|github\.com/anthropics/anthropic-sdk-go.*)$", "api.anthropic.com",
         ("anthropic",)),
        # Temporal's workflow service, which its clients and workers dial (a cluster of the system's own, or Temporal
        # Cloud under tmprl.cloud)
        (r"^(go\.temporal\.io/sdk(/.*)?|@temporalio/(client|worker)|temporalio\.(client|worker)(\..*)?|io\.temporal\.(client|worker)(\..*)?"
         r"|Temporalio\.(Client|Worker)(\..*)?)$", "tmprl.cloud", ("temporal", "temporal-frontend", "temporal-server")),
        (r"^(google\.cloud\.firestore.*|@google-cloud/firestore|cloud\.google\.com/go/firestore.*"
         r"|com\.google\.cloud\.firestore.*|firebase_admin\.firestore)$", "firestore.googleapis.com", ("firestore",)),
        (r"^(google\.cloud\.storage.*|@google-cloud/storage|cloud\.google\.com/go/storage.*"
         r"|com\.google\.cloud\.storage.*)$", "storage.googleapis.com", ("cloud storage", "gcs")),
        (r"^(google\.cloud\.pubsub.*|@google-cloud/pubsub|cloud\.google\.com/go/pubsub.*|com\.google\.cloud\.pubsub.*)$",
         "pubsub.googleapis.com", ("cloud pub/sub", "pubsub")),
        (r"^(@aws-sdk/client-s3|github\.com/aws/aws-sdk-go(-v2)?/service/s3.*|software\.amazon\.awssdk\.services\.s3.*"
         r"|com\.amazonaws\.services\.s3.*|Amazon\.S3(\..*)?)$", "s3.amazonaws.com", ("s3", "amazon s3")),
        # Amazon's queues and notification topics (SQS, SNS)
        (r"^(@aws-sdk/client-sqs|sqs-consumer|sqs-producer|github\.com/aws/aws-sdk-go(-v2)?/service/sqs.*"
         r"|software\.amazon\.awssdk\.services\.sqs.*|com\.amazonaws\.services\.sqs.*|Amazon\.SQS(\..*)?)$",
         "sqs.amazonaws.com", ("sqs", "amazon sqs")),
        (r"^(@aws-sdk/client-sns|github\.com/aws/aws-sdk-go(-v2)?/service/sns.*|software\.amazon\.awssdk\.services\.sns.*"
         r"|com\.amazonaws\.services\.sns.*|Amazon\.SimpleNotificationService(\..*)?)$", "sns.amazonaws.com",
         ("sns", "amazon sns")),
        (r"^(azure\.storage\.blob.*|@azure/storage-blob|Azure\.Storage\.Blobs(\..*)?|com\.azure\.storage\.blob.*"
         r"|github\.com/Azure/azure-sdk-for-go/sdk/storage/azblob.*)$", "blob.core.windows.net", ("azure blob storage",)),
        # The Kubernetes API server, a platform daemon a controller drives through its client library
        # (container engines: rule code.container-engine)
        # A controller watches the Kubernetes API (informers, controller-runtime): the API server is its
        # central dependency. A plain clientset (one optional backend creating pods) is not counted, nor
        # controller-runtime's helpers that reach no API server (reloading a certificate file, logging, metrics,
        # a webhook's server, test environments).
        (r"^(k8s\.io/client-go/(tools/cache|informers|dynamic/dynamicinformer)"
         r"|sigs\.k8s\.io/controller-runtime(/pkg/(?!(certwatcher|log|metrics|webhook|envtest|scheme|healthz)(/|$)).*)?"
         r"|kubernetes\.watch|io\.fabric8\.kubernetes\.client\.informers.*|io\.kubernetes\.client\.informer.*"
         r"|kopf)$",
         KUBE_API_HOST, KUBE_API_ALIASES),
        # Sign-in services: Firebase Authentication (the admin SDKs verifying its tokens, the web SDK signing
        # users in), Amazon Cognito, Auth0
        (r"^(firebase\.google\.com/go(/v\d+)?/auth|firebase_admin\.auth|firebase/auth|@firebase/auth"
         r"|com\.google\.firebase\.auth.*|FirebaseAdmin\.Auth(\..*)?)$", "identitytoolkit.googleapis.com",
         ("firebase auth", "firebase-auth", "firebase authentication")),
        (r"^(amazon-cognito-identity-js|@aws-sdk/client-cognito-identity-provider"
         r"|github\.com/aws/aws-sdk-go(-v2)?/service/cognitoidentityprovider.*"
         r"|software\.amazon\.awssdk\.services\.cognitoidentityprovider.*|Amazon\.CognitoIdentityProvider(\..*)?)$",
         "cognito-idp.amazonaws.com", ("cognito", "amazon cognito")),
        # (Auth0's SDKs only: its generic JWT libraries, com.auth0.jwt and @auth0/angular-jwt, verify tokens
        # of any issuer offline)
        (r"^(auth0|auth0-js|auth0\.(authentication|management)(\..*)?"
         r"|@auth0/(auth0-react|auth0-spa-js|auth0-angular|auth0-vue|nextjs-auth0|auth0-js)"
         r"|github\.com/auth0/go-auth0.*|com\.auth0\.client.*"
         r"|Auth0\.(AuthenticationApi|ManagementApi|AspNetCore\.Authentication)(\..*)?)$", "auth0.com", ("auth0",)),
        # Push notifications to mobile apps (Firebase Cloud Messaging through the admin SDKs)
        (r"^(firebase\.google\.com/go(/v\d+)?/messaging|firebase_admin\.messaging|firebase-admin/messaging"
         r"|com\.google\.firebase\.messaging.*|FirebaseAdmin\.Messaging(\..*)?)$", "fcm.googleapis.com",
         ("firebase cloud messaging", "fcm", "firebase")),
        # Sending mail, chat and payments through a vendor's API
        (r"^(resend|github\.com/resend/resend-go.*|com\.resend.*)$", "api.resend.com", ("resend",)),
        # Serverless data services of a Vercel-hosted app's stack, reached over HTTPS by their SDKs: Upstash's
        # Redis and QStash queue, Vercel Blob, Tinybird's analytics API
        (r"^(@upstash/redis|upstash[-_]redis)$", "upstash.io", ("upstash", "upstash redis")),
        (r"^(@upstash/qstash|qstash)$", "qstash.upstash.io", ("qstash", "upstash qstash")),
        (r"^@vercel/blob$", "blob.vercel-storage.com", ("vercel blob",)),
        (r"^(@tinybirdco/[\w.-]+|@chronark/zod-bird)$", "api.tinybird.co", ("tinybird",)),
        (r"^(postmark|postmarker(\..*)?|github\.com/mrz1836/postmark|com\.postmarkapp.*)$", "api.postmarkapp.com",
         ("postmark",)),
        (r"^(@slack/web-api|@slack/bolt|slack_sdk(\..*)?|slack_bolt(\..*)?|github\.com/slack-go/slack.*|com\.slack\.api.*)$",
         "slack.com", ("slack",)),
        (r"^(@paypal/checkout-server-sdk|@paypal/paypal-server-sdk|paypalrestsdk|paypalcheckoutsdk(\..*)?"
         r"|com\.paypal.*)$", "api.paypal.com", ("paypal",)),
        (r"^(@google/generative-ai|@google/genai|google\.generativeai(\..*)?|google\.genai(\..*)?"
         r"|github\.com/google/generative-ai-go.*|google\.golang\.org/genai)$", "generativelanguage.googleapis.com",
         ("gemini", "google gemini")),
        (r"^(@mistralai/mistralai|mistralai(\..*)?)$", "api.mistral.ai", ("mistral",)),
        (r"^(algoliasearch(/.*)?|com\.algolia.*|github\.com/algolia/algoliasearch-client-go.*)$", "algolia.net",
         ("algolia",)),
        (r"^(@supabase/supabase-js|supabase(\..*)?|github\.com/supabase-community/supabase-go)$", "supabase.co",
         ("supabase",)),
        # (more hosted APIs by their official clients: language models, vector search, auth, payments, mail, realtime)
        (r"^(cohere(\..*)?|cohere-ai|github\.com/cohere-ai/cohere-go.*)$", "api.cohere.com", ("cohere",)),
        (r"^(groq(\..*)?|groq-sdk)$", "api.groq.com", ("groq",)),
        (r"^(pinecone(\..*)?|@pinecone-database/pinecone|github\.com/pinecone-io/go-pinecone.*)$", "pinecone.io",
         ("pinecone",)),
        (r"^(@clerk/(nextjs|backend|clerk-sdk-node|express|fastify|remix)|clerk_backend_api(\..*)?)$", "clerk.com",
         ("clerk",)),
        (r"^(braintree(\..*)?|com\.braintreegateway.*)$", "api.braintreegateway.com", ("braintree",)),
        (r"^(@lemonsqueezy/lemonsqueezy\.js)$", "api.lemonsqueezy.com", ("lemon squeezy", "lemonsqueezy")),
        (r"^(@paddle/paddle-node-sdk|paddle_billing(\..*)?)$", "api.paddle.com", ("paddle",)),
        (r"^(@mollie/api-client|mollie(\..*)?)$", "api.mollie.com", ("mollie",)),
        (r"^(@getbrevo/brevo|sib-api-v3-sdk|brevo(\..*)?|sib_api_v3_sdk(\..*)?)$", "api.brevo.com",
         ("brevo", "sendinblue")),
        (r"^(@mailchimp/mailchimp_marketing|@mailchimp/mailchimp_transactional|mailchimp3|mailchimp_marketing(\..*)?)$",
         "api.mailchimp.com", ("mailchimp",)),
        # (by their qualified names only: `replicate` and `pusher` are as often a project's own module)
        (r"^(github\.com/pusher/pusher-http-go.*|com\.pusher.*)$", "api.pusherapp.com", ("pusher",)),
        (r"^(@octokit/rest|@octokit/core|octokit|github\.com/google/go-github(/v\d+)?(/.*)?)$", "api.github.com",
         ("github", "github api")),
        # Certificates by ACME: a program built on a library whose point is automatic HTTPS (Caddy's certmagic and
        # acmez, greenlock, rustls-acme) obtains and renews its certificates from the CA, Let's Encrypt by default.
        # (General ACME clients, lego, Go's autocert, acme-client, are most often an option a flag turns on: not drawn.)
        (r"^(github\.com/caddyserver/certmagic(/.*)?|github\.com/mholt/acmez(/v\d+)?(/.*)?"
         r"|greenlock|greenlock-express|rustls_acme(::.*)?|tokio_rustls_acme(::.*)?)$", "acme-v02.api.letsencrypt.org",
         ("letsencrypt", "let's encrypt", "acme ca")),
        # GOV.UK Notify (the UK government's e-mail, text and letter service) by its official clients and the
        # Rails mailers built on them
        (r"^(notifications-ruby-client|notifications/client|mail-notify|govuk_notify_rails"
         r"|notifications_python_client(\..*)?|notifications-python-client|notifications-node-client"
         r"|uk\.gov\.service\.notify.*|GovukNotify(\..*)?)$", "api.notifications.service.gov.uk",
         ("gov.uk notify", "govuk notify", "notify")),
        (r"^(azure\.keyvault.*|@azure/keyvault-.*|Azure\.Security\.KeyVault(\..*)?|com\.azure\.security\.keyvault.*"
         r"|github\.com/Azure/azure-sdk-for-go/sdk/security/keyvault.*)$", "vault.azure.net", ("key vault", "azure key vault")),
    )
)


# Hosted services whose API host does not say the product's name (a government service under service.gov.uk): the
# external system is named by the product, as people know it, its host kept as its address.
SDK_PRODUCT_NAMES: dict[str, str] = {"api.notifications.service.gov.uk": "govuk-notify", "tmprl.cloud": "temporal"}


@functools.lru_cache(maxsize=8192)
def sdk_service(module: str) -> tuple[str, tuple[str, ...]] | None:
    """(API host, names) of the hosted service whose client library `module` is, if any (memoised: a
    system imports the same modules in many files, and each lookup tries every pattern)."""
    for pattern, host, names in SDK_SERVICES:
        if pattern.match(module):
            return host, names
    return None


# Client libraries that put one interface over every object store (S3, GCS, Azure Blob, Swift...): a
# component importing one keeps data in an object-storage bucket whose provider is chosen at deploy time.
OBJECT_STORE_HOSTS = ("s3.amazonaws.com", "storage.googleapis.com", "blob.core.windows.net")
# Rails Active Storage's cloud services (config/storage.yml `service:`): the provider's storage API and its names.
ACTIVE_STORAGE_HOSTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "S3": ("s3.amazonaws.com", ("s3", "amazon s3")),
    "GCS": ("storage.googleapis.com", ("cloud storage", "gcs")),
    "AzureStorage": ("blob.core.windows.net", ("azure blob storage", "blob storage")),
}
OBJECT_STORE_LIBRARIES = re.compile(
    r"^(github\.com/thanos-io/objstore(/.*)?|gocloud\.dev/blob(/.*)?|github\.com/minio/minio-go(/v\d+)?(/.*)?"
    r"|github\.com/graymeta/stow(/.*)?|opendal(::.*)?|object_store(::.*)?|org\.jclouds\.blobstore.*)$")


# Ruby gems (Bundler has no imports to read: Rails loads every gem of the Gemfile) that are a store's or
# broker's client, by the gem's name; gems named as another language's driver (pg, mysql2, redis) are
# read by DRIVER_TECH.  Sidekiq and Resque keep their queues in Redis.
# A job queue's gem, or one wrapping or extending it (govuk_sidekiq, sidekiq-scheduler, sidekiq-pro): group 1 the queue.
RUBY_QUEUE_GEM = r"^(?:[a-z0-9]+[-_])?(sidekiq|resque)(?:[-_][a-z0-9_-]+)?$"
GEM_TECH: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), tech) for p, tech in (
    (r"^(trilogy|activerecord-trilogy-adapter)$", "mysql"),
    (r"^(activerecord-postgis-adapter)$", "postgres"),
    (r"^(mongoid|mongo)$", "mongodb"),
    (r"^(redis-client|hiredis|redis-namespace|kredis)$|" + RUBY_QUEUE_GEM, "redis"),
    (r"^(bunny|sneakers|march_hare)$", "rabbitmq"),
    (r"^(ruby-kafka|rdkafka|karafka|racecar|waterdrop|phobos)$", "kafka"),
    (r"^(searchkick|chewy|elasticsearch-model|elasticsearch-rails|opensearch-ruby)$", "elasticsearch"),
    (r"^dalli$", "memcached"),
))


def tech_for_gem(gem: str) -> str | None:
    """The store or broker technology whose client the Ruby gem `gem` is (``pg``: postgres, ``sidekiq``: redis)."""
    for pattern, tech in GEM_TECH:
        if pattern.match(gem):
            return tech
    return tech_for_module(gem)


def tech_for_module(module: str) -> str | None:
    for pattern, tech in DRIVER_TECH:
        if pattern.match(module):
            return tech
    return None


def image_basename(image: str) -> str:
    last = image.split("@")[0].split("/")[-1]
    return last.split(":")[0]


# Ports an image's program listens on by default (its own documentation's), matched on the image's
# base name: a container whose deployment declares no port (host networking, `network_mode: host`)
# still serves there, so `localhost:8500` on that machine is Consul's.
IMAGE_PORTS: tuple[tuple[re.Pattern[str], tuple[int, ...]], ...] = tuple(
    (re.compile(p), ports) for p, ports in (
        (r"^consul$", (8500,)), (r"^(zipkin|openzipkin)$", (9411,)), (r"^(all-in-one|jaeger.*)$", (16686, 14268)),
        (r"^vault$", (8200,)), (r"^etcd$", (2379,)), (r"^(zookeeper|cp-zookeeper)$", (2181,)),
        (r"^mongo(db)?$", (27017,)), (r"^(postgres|postgis|postgresql|timescaledb|pgvector|pgautoupgrade)$", (5432,)),
        (r"^(mysql|mariadb|percona)$", (3306,)), (r"^(redis|valkey|keydb)$", (6379,)), (r"^memcached$", (11211,)),
        (r"^(elasticsearch|opensearch)$", (9200,)), (r"^(kafka|cp-kafka)$", (9092,)), (r"^rabbitmq$", (5672,)),
        (r"^nats$", (4222,)), (r"^(cassandra|scylla)$", (9042,)), (r"^neo4j$", (7687,)), (r"^(mssql|mssql-server)$", (1433,)),
    )
)


# The images of programs whose configuration files a reader reads (the fact's `program`): the
# container running one of them runs the file when no mount or build says which does.
# Images running Prometheus (the official one, a vendor's build of it: cp-enterprise-prometheus, bitnami/prometheus).
PROMETHEUS_IMAGE = re.compile(r"(^|/)[a-z0-9-]*prometheus([:@]|$)")

PROGRAM_IMAGES: dict[str, re.Pattern[str]] = {
    "alloy": re.compile(r"(^|/)grafana/(alloy|agent)([:@]|$)"),
}


def image_ports(image: str) -> tuple[int, ...]:
    """The ports the image's program listens on by default (``consul`` -> 8500), () when unknown."""
    base = image_basename(image).lower()
    return next((ports for pattern, ports in IMAGE_PORTS if pattern.match(base)), ())


# Words in dependency/import names that show a client library of each technology.
TECH_WORDS: dict[str, tuple[str, ...]] = {
    "rabbitmq": ("amqp", "rabbit", "pika"), "kafka": ("kafka",), "mongodb": ("mongo",), "redis": ("redis", "lettuce", "jedis", "redix"),
    "postgres": ("postgres", "psycopg", "pgx", "npgsql", "jdbc", "postgrex"), "mysql": ("mysql", "mariadb", "jdbc", "myxql"),
    "elasticsearch": ("elastic",), "nats": ("nats",), "mqtt": ("mqtt", "tortoise"),
}


# Platform roles.  Each role lists, per sign kind, a regular expression over the lowercased name:
# `manifest.dependency` (artifact id), `annotation` (class annotation), `property` ("key=value"),
# `image` (container image).  A server is recognised by any of its signs.
ROLE_SERVERS: dict[str, dict[str, str]] = {
    "registry": {"manifest.dependency": r"^spring-cloud-(starter-)?(netflix-)?eureka-server$",
                 "annotation": r"^enableeurekaserver$",
                 "image": r"(^|/)(consul|eureka|eureka-server|nacos-server|nacos/nacos-server|nacos/nacos)([:@]|$)"},
    "config": {"manifest.dependency": r"^spring-cloud-config-server$", "annotation": r"^enableconfigserver$"},
    "tracing": {"manifest.dependency": r"^zipkin-(server|autoconfigure-ui)$",
                "annotation": r"^enablezipkin(stream)?server$",
                "image": r"(^|/)(openzipkin/zipkin|zipkin|jaegertracing/|jaeger)"},
    "turbine": {"manifest.dependency": r"^spring-cloud-(starter-)?(netflix-)?turbine(-stream|-amqp)?$",
                "annotation": r"^enableturbine(stream|amqp)?$"},
    "dashboard": {"annotation": r"^enablehystrixdashboard$", "image": r"(^|/)grafana(-oss|-enterprise)?([:@]|$)"},
    "admin": {"manifest.dependency": r"^spring-boot-admin-(starter-)?server$", "annotation": r"^enableadminserver$"},
    "metrics": {"image": r"(^|/)(prom/prometheus|prometheus)"},
    # Operators' and developers' tools with a user interface of their own: log servers, mail catchers.
    "logging": {"image": r"(^|/)(datalust/seq|seq|graylog/graylog|graylog|kibana|grafana/loki|loki)([-:]|$)"},
    "mail": {"image": r"(^|/)(maildev/maildev|maildev|mailhog/mailhog|mailhog|axllent/mailpit|mailpit|rnwood/smtp4dev|"
                      r"smtp4dev|sj26/mailcatcher|schickling/mailcatcher|mailcatcher)([-:]|$)"},
    # Coordination stores other infrastructure keeps its state in (Kafka's ZooKeeper, etcd): no client role.
    "coordination": {"image": r"(^|/)([a-z0-9]+-)?(zookeeper|etcd)([-:]|$)"},
    # A component that serves a user interface: a front-end framework, a server-side view engine, static files.
    "ui": {"manifest.dependency": r"^(react|react-dom|@angular/core|vue|next|nuxt|svelte|@sveltejs/kit|ember-source|"
                                  r"serve-static|spring-boot-starter-(thymeleaf|freemarker|mustache|groovy-templates)|"
                                  r"microsoft\.aspnetcore\.spaservices(\.extensions)?|microsoft\.aspnetcore\.mvc\.razor\."
                                  r"runtimecompilation|aspnetcore\.healthchecks\.ui|streamlit|gradio|dash)$"},
    "auth": {"annotation": r"^enableauthorizationserver$",
             "manifest.dependency": r"^spring-(security-oauth2-authorization-server|boot-starter-oauth2-authorization-server)$"
                                    r"|^(identityserver4|duende\.identityserver|openiddict\.server(\.aspnetcore)?)$",
             "image": r"(^|/)(keycloak|jboss/keycloak|quay\.io/keycloak)"},
}
# Spring Cloud Gateway route and discovery-locator keys, old and 2025 names (server.webflux / server.webmvc / mvc).
GATEWAY_ROUTES_KEY = re.compile(r"^spring\.cloud\.gateway\.((server\.)?(webflux|webmvc|mvc)\.)?routes")
GATEWAY_LOCATOR_PROPERTY = r"^spring\.cloud\.gateway\.((server\.)?(webflux|webmvc|mvc)\.)?discovery\.locator\.enabled=true$"
# Servers that a starter alone does not start: Spring Cloud's Eureka, Config, Turbine and Spring Boot
# Admin servers run only under their @Enable annotation (a Zipkin server jar has a main of its own).
ENABLED_BY_ANNOTATION = frozenset({"registry", "config", "turbine", "admin"})

# npm dependencies of a package that runs as a service: server and UI frameworks, messaging, RPC and
# data clients. A package with none of them, deployed by nothing, is a script (see is_node_script).
NODE_SERVICE_DEPENDENCY = re.compile(
    r"^(express|fastify|koa|hapi|restify|next|nuxt|react|react-dom|vue|svelte|"
    r"ember-source|socket\.io|ws|graphql-yoga|apollo-server|@apollo/server|grpc|amqplib|kafkajs|"
    r"nats|ioredis|redis|mongodb|mongoose|pg|mysql2?|typeorm|prisma|sequelize|aws-sdk|"
    r"serve-static|http-server|micro|polka|sails|loopback|feathers|electron|"
    r"astro|gatsby|vite|webpack|parcel|react-scripts)$"
    # scoped packages: any package of these scopes (@grpc/grpc-js, @nestjs/core, @aws-sdk/client-s3)
    r"|^@(koa|hapi|nestjs|angular|sveltejs|grpc|prisma|aws-sdk|loopback|feathersjs|remix-run)/")

# Clients of a role: they connect to the one server of that role in the system.
ROLE_CLIENTS: dict[str, dict[str, str]] = {
    "registry": {"manifest.dependency": r"^spring-cloud-starter-(netflix-)?eureka(-client)?$|^spring-cloud-netflix-eureka-client$"
                                        r"|consul-(discovery|config|all)$|nacos-(discovery|config)$|zookeeper-discovery$",
                 "annotation": r"^enable(discovery|eureka)client$",
                 "property": r"^eureka\.client\.service-?url\."},
    "config": {"manifest.dependency": r"^spring-cloud-(starter-config|config-client)$",
               "property": r"^spring\.cloud\.config\.uri=|^spring\.config\.import=.*configserver:"},
    "tracing": {"manifest.dependency": r"^spring-cloud-(starter-zipkin|sleuth-zipkin|sleuth-stream)$|^zipkin-reporter"
                                       r"|^opentelemetry-exporter-zipkin$|^micrometer-tracing-bridge-brave$",
                "property": r"^spring\.zipkin\.base-?url=|^management\.zipkin\.tracing\.endpoint="},
    "admin": {"manifest.dependency": r"^spring-boot-admin-starter-client$",
              "property": r"^spring\.boot\.admin\.client\.url="},
    "auth": {"annotation": r"^enable(resourceserver|oauth2sso|oauth2client)$",
             "manifest.dependency": r"^spring-boot-starter-oauth2-resource-server$",
             "property": r"^security\.oauth2\.resource\.|^spring\.security\.oauth2\.resourceserver\."},
}

# Property prefixes that configure the client of a role: a shared configuration file's value for
# them applies only to components that carry that client.
ROLE_PROPERTIES: tuple[tuple[str, str], ...] = (
    ("security.oauth2.resource.", "auth"), ("spring.security.oauth2.resourceserver.", "auth"),
    ("eureka.client.", "registry"), ("spring.zipkin.", "tracing"), ("spring.boot.admin.client.", "admin"),
)

# Message binders whose broker is known by technology (Spring Cloud Bus/Stream, Hystrix/Turbine streams).
BROKER_BINDERS: dict[str, dict[str, str]] = {
    "rabbitmq": {"manifest.dependency": r"^spring-cloud-(starter-bus-amqp|starter-stream-rabbit|stream-binder-rabbit"
                                        r"|netflix-hystrix-amqp|netflix-turbine-amqp|starter-turbine-amqp)$"},
    "kafka": {"manifest.dependency": r"^spring-cloud-(starter-bus-kafka|starter-stream-kafka|stream-binder-kafka)$"},
}

# Data-access dependencies that imply a store: (technology, dependency pattern, needs a driver that an
# embedded database on the classpath would replace).
IMPLIED_STORES: tuple[tuple[str, str, bool], ...] = (
    ("mongodb", r"^spring-boot-starter-data-mongodb(-reactive)?$", False),
    ("neo4j", r"^spring-(boot-starter-)?data-neo4j$", False),
    ("cassandra", r"^spring-boot-starter-data-cassandra(-reactive)?$", False),
    ("elasticsearch", r"^spring-boot-starter-data-elasticsearch$", False),
    ("mysql", r"^mysql-connector-(java|j)$", True),
    ("postgres", r"^postgresql$", True),
    ("sqlserver", r"^mssql-jdbc$", True),
    # Quarkus' datasource extensions: the application's datasource is of that kind, its URL given at deployment
    ("postgres", r"^quarkus-(jdbc-postgresql|reactive-pg-client)$", True),
    ("mysql", r"^quarkus-(jdbc-mysql|jdbc-mariadb|reactive-mysql-client)$", True),
    ("sqlserver", r"^quarkus-(jdbc-mssql|reactive-mssql-client)$", True),
    ("mongodb", r"^quarkus-mongodb-(client|panache)$", False),
    # Hex packages (mix.exs) of the Elixir drivers: the release talks to that store (ecto_sql alone does
    # not say which database: its adapter's driver, listed beside it, does).
    ("postgres", r"^postgrex$", False),
    ("mysql", r"^myxql$", False),
    ("redis", r"^redix$", False),
    ("rabbitmq", r"^amqp$", False),
    ("kafka", r"^(brod|broadway_kafka|kafka_ex)$", False),
    ("mongodb", r"^mongodb_driver$", False),
    ("mqtt", r"^(tortoise|tortoise311|emqtt)$", False),
)
# ... of which these are Hex packages, read only from an Elixir project's mix.exs: a Python lock file's `amqp` is the
# AMQP library Celery installs whatever its broker.
HEX_STORE_PATTERNS = frozenset({r"^postgrex$", r"^myxql$", r"^redix$", r"^amqp$", r"^(brod|broadway_kafka|kafka_ex)$",
                                r"^mongodb_driver$", r"^(tortoise|tortoise311|emqtt)$"})
EMBEDDED_DATABASES = r"^(h2|hsqldb|derby)$"


# The host names managed Azure services give an account (`<account>.documents.azure.com`), and the technology
# the templates' store of that service carries.
AZURE_SERVICE_TECH = {"documents.azure.com": "cosmosdb", "servicebus.windows.net": "servicebus",
                      "redis.cache.windows.net": "redis", "blob.core.windows.net": "azure-storage",
                      "queue.core.windows.net": "azure-storage", "table.core.windows.net": "azure-storage"}
AZURE_SERVICE_HOST = re.compile(r"^[a-z0-9][a-z0-9-]*\.(" + "|".join(re.escape(h) for h in AZURE_SERVICE_TECH) + r")$")
