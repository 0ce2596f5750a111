"""Rules that find connections: configuration values, code literals and client calls, gRPC stubs,
drivers, messaging topics, compose dependencies, libraries, proxies, ingress and entry points."""

from __future__ import annotations

import re
from dataclasses import replace
from collections import defaultdict
from collections.abc import Iterable
from pathlib import PurePosixPath

from repomodeler.extract.readers._templates import TEMPLATE_SUFFIX
from repomodeler.graph.base import (HARNESS_DIR, OPENSHIFT_ROUTE_HOST, PLATFORM_APP_HOST, ResolverBase, env_template_of,
                                    env_template_only)
from repomodeler.graph.packages import folder
from repomodeler.graph.catalog import (
    STORE_KINDS,
    image_basename,
    tech_for_image,
    ACTIVE_STORAGE_HOSTS,
    SDK_PRODUCT_NAMES,
    OBJECT_STORE_HOSTS,
    PROGRAM_IMAGES,
    PROMETHEUS_IMAGE,
    PLACEHOLDER_HOST,
    RESERVED_EXAMPLE,
    OBJECT_STORE_LIBRARIES,
    METADATA_HOSTS,
    BROWSER_URL_KEY,
    TEST_HARNESS_KEY,
    CLUSTER_DNS,
    HOST_ENV_NAME,
    NOT_HTTP_KEY,
    KEY_SCHEME,
    MAIL_HOST_KEY,
    HTTP_VERBS,
    LOCAL_HOSTS,
    MESSAGING_TECH_PROTOCOL,
    PORT_PROTOCOL,
    SCHEME_PROTOCOL,
    SCHEME_TECH,
    TECH_KIND,
    TECH_PROTOCOL,
    TECH_WORDS,
    image_ports,
    is_private_address,
    sdk_service,
    tech_for_gem,
    tech_for_module,
)
from repomodeler.graph.identity import image_repo, key
from repomodeler.graph.listen_ports import listen_port_value, listens_by_key
from repomodeler.graph.setting_reads import canonical, env_file_candidates
from repomodeler.graph.protos import ProtoTypes
from repomodeler.graph.components import selected_workloads
from repomodeler.graph.naming import (
    COMPOSE_DEFAULT,
    OS_IMAGE,
    image_language,
    is_under,
    join_path,
    norm_path,
    infra_role,
    dependency_key,
)
from repomodeler.graph.expressions import UNKNOWN, Evaluator, Value
from repomodeler.graph.values import (
    URL_PATTERN,
    HostRef,
    call_arguments,
    expand_placeholders,
    client_path,
    env_form,
    grpc_service_name,
    http_verb,
    parse_hosts,
)
from repomodeler.records import Component, Connection, Endpoint, Evidence, Fact, Port, Unresolved


def host_known(text: str) -> bool:
    """Does `text` name a host in full (``http://orders:8080/{?}``), not one cut short by a part that
    could not be known (``http://orders-{?}``, ``http://{?}``)?"""
    matches = list(URL_PATTERN.finditer(text))
    return bool(parse_hosts(text)) and all(not text[m.end():].startswith(UNKNOWN) for m in matches) and (
        bool(matches) or UNKNOWN not in text)


def as_expression(expr: str, language: str) -> str:
    """The source text of an expression extraction may have handed over unquoted: a captured string
    literal loses its quotes (``f"http://{HOST}"`` arrives as ``http://{HOST}``), so such text is read
    again as the literal it was (an interpolated one in the languages that have them)."""
    text = expr.strip()
    if not any(q in text for q in "\"'`"):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://|^/|^\$", text) or "${" in text:
            if language in ("javascript", "typescript", "tsx"):
                return f"`{text}`"
            if language == "python" and "{" in text:
                return f'f"{text}"'
            if language == "csharp" and "{" in text:
                return f'$"{text}"'
            return f'"{text}"'
        return text
    for q in "\"'":
        if text.count(q) % 2 == 1:  # "a" + b + "c" whose outer quotes were taken as one literal's
            return f"{q}{text}{q}"
    return text


# Object-storage URIs (s3://bucket/path): the scheme names the cloud service holding the bucket.
OBJECT_STORE_SCHEMES: dict[str, tuple[str, tuple[str, ...]]] = {
    **{s: ("s3.amazonaws.com", ("s3", "amazon s3", "object storage")) for s in ("s3", "s3a", "s3n")},
    **{s: ("storage.googleapis.com", ("cloud storage", "gcs", "object storage")) for s in ("gs", "gcs")},
    **{s: ("blob.core.windows.net", ("azure blob storage", "object storage"))
       for s in ("azblob", "abfs", "abfss", "wasb", "wasbs", "az")},
}


def prose(value: str) -> bool:
    """Is a setting's value text with a URL in it (``Huginn - https://github.com/huginn/huginn``) rather
    than an address or a list of addresses (``redis://a:6379 redis://b:6379``)?"""
    words = value.strip().strip("'\"").split()
    if len(words) < 2 or not any("://" in w and parse_hosts(w) for w in words):
        return False
    # plain words beside the URL (not key=value pairs of a connection string, nor more addresses)
    return any(not parse_hosts(w) and not re.search(r"[=;:/@,]", w) for w in words)


# Keys choosing one implementation among a section's alternatives (registry.type: zookeeper), and the
# technologies such a section holds a subsection for.
SELECTOR_LEAVES = frozenset({"type", "kind", "provider", "backend", "plugin"})
ALTERNATIVE_TECHS = frozenset({*TECH_KIND, *(t for t in SCHEME_TECH.values() if t), "consul", "etcd", "zookeeper",
                               "nacos", "eureka"})


def disabled_settings(properties: Iterable[Fact]) -> set[tuple[str, str, str]]:
    """(repository, file, key) of the settings in a section the same file switches off: a sibling or an
    enclosing section's ``enable``/``enabled`` set to false (``security.authentication.oauth2.enable:
    false`` beside ``...oauth2.provider.github.token-uri``), or the subsection of a technology a sibling
    selector does not choose (``registry.type: etcd`` beside ``registry.zookeeper.connect-string``)."""
    off: set[tuple[str, str, str]] = set()
    for f in properties:
        name = (f.get("name") or "").replace(":", ".")  # (.NET's `vault:enabled` is the same nesting)
        head, _, last = name.rpartition(".")
        value = (f.get("value") or "").strip().lower()
        if head and last.lower() in ("enable", "enabled") and value == "false":
            off.add((f.repository, f.path, head))
        elif head and last.lower() in SELECTOR_LEAVES and value in ALTERNATIVE_TECHS:
            # registry.type: etcd beside registry.zookeeper.connect-string: the zookeeper section is not used
            off.update((f.repository, f.path, f"{head}.{tech}") for tech in ALTERNATIVE_TECHS if tech != value)
    if not off:
        return set()
    out: set[tuple[str, str, str]] = set()
    for f in properties:
        name = f.get("name") or ""
        parts = name.replace(":", ".").split(".")
        if any((f.repository, f.path, ".".join(parts[:i])) in off for i in range(1, len(parts))):
            out.add((f.repository, f.path, name))
    return out


# A setting holding a host alone, whose port a sibling `<section>.port` gives (jsreport.host / jsreport.port).
# Files holding a program's settings: configuration files, and settings modules of code
# (settings.py, sentry.conf.py, config/database.js).
SETTINGS_FILE = re.compile(r"(?i)((^|/)(settings|config|conf|configuration|constants)(/|([._-][^/]*)?\.(py|rb|js|ts|php|exs?)$)"
                           r"|\.conf(\.example)?\.py$|\.(ya?ml|json|toml|ini|properties|env|conf|cfg|hjson)$)")
# Names of a Kubernetes cluster's ingress controller (its Service, Deployment or image)
INGRESS_CONTROLLER = re.compile(r"(?i)(^|[./-])(ingress-nginx(-controller)?|nginx-ingress(-controller)?|ingress-controller|"
                                r"istio-ingressgateway|[a-z0-9]*-ingressgateway|haproxy-ingress|emissary-ingress|"
                                # (Contour's Envoy, which carries out its HTTPProxy routes)
                                r"contour-envoy|envoyproxy/envoy)([./:-]|$)")
# Gems plugging a hosted service into Rails as ActionMailer's delivery method (GOV.UK Notify's, Postmark's, SendGrid's).
RAILS_DELIVERY_GEM = re.compile(r"^(mail-notify|govuk_notify_rails|[a-z0-9_-]+[-_](rails|actionmailer))$")
# A peer's address at a fixed IP (`192.168.0.11:17010`), as a compose network's `ipv4_address` gives it.
FIXED_ADDRESS = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){3}):(\d{2,5})$")
HOST_ONLY_KEY = re.compile(r"(?i)(^|\.)(host|hostname)$")
# Settings a web framework builds into the pages it sends to browsers (Next.js, Vite, Create React App, Vue CLI, Nuxt,
# SvelteKit, Expo, Gatsby): the addresses they hold are reached from the user's browser.
BROWSER_SETTING = re.compile(r"^(NEXT_PUBLIC_|VITE_|REACT_APP_|VUE_APP_|NUXT_PUBLIC_|PUBLIC_|EXPO_PUBLIC_|GATSBY_)[A-Z0-9_]+$")
# A URL whose host is a name under a domain left to fill in: `wss://broker.${DOMAIN}`, or with the domain
# interpolated empty, `https://api.` (see values.parse_hosts, which takes neither for a host).
OPERATOR_DOMAIN_URL = re.compile(r"://(?:[^/\s@]*@)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.(?:\$|\{|$|[:/])")

# The role of a web server that only a site configuration (not a deployment) puts in front of the application.
SITE_SERVER_ROLE = "web server in front of the application (its site configuration)"

# Templates an installer renders configuration from (Jinja, Handlebars, Go templates, Mustache).
TEMPLATE_FILE = re.compile(r"\." + TEMPLATE_SUFFIX + "$", re.I)
# Folders of maintenance code run by hand or by CI, not by the deployed program (release scripts, doc
# fetchers, coding agents' skills, load tests): what their code calls is no connection of the system.
# (``scripts/`` anywhere, a package's one-off migration and seeding scripts too; code generators; ``tools/``,
# ``hack/``, ``dev/``, ``release/`` and ``build-scripts/`` at the root only: a package's own ``dojo/tools/`` is
# code of the program)
MAINTENANCE_CODE = re.compile(r"(^|/)scripts?/|^(?:tools|hack|dev|release|build[-_]scripts?)/|(^|/)(\.agents?|\.github|"
                              r"\.claude|\.cursor|loadtests?|load[-_]tests?|[^/]*-loadtest|benchmarks?|code[-_]?gen(eration)?)/"
                              # (and a Rust package's build script, which Cargo runs while compiling it)
                              r"|(^|/)build\.rs$")
# A connection URL written as a template whose host is filled in from a setting (an f-string, a format
# string, a template literal): ``f"postgresql+psycopg2://{user}@{HOST}:{port}/db"``, ``"redis://%s:%d"``.
DSN_TEMPLATE = re.compile(r"""^[fF]?["'`]([a-z][a-z0-9+]*)://(?:[^"'`/]*@)?[^"'`/@]*?(?:\{|\$\{|%s|%\()""")
# Profiles a developer runs on their own machine: their localhost is not a container of the deployment.
DEVELOPER_PROFILES = frozenset({"development", "dev", "local", "localdev", "local-dev"})



# A key naming the program itself, not a peer (OTEL_SERVICE_NAME=saleor, spring.application.name,
# APP_NAME): its bare value is how the program reports itself to tracing and logs.
SELF_NAME_KEY = re.compile(r"(^|[._-])(otel[._-])?(service|app|application)[._-]?name$", re.I)


# The standard ports of data stores and brokers: on a machine's address, the port says which one it is.
# A host named for a store's technology (`redis`, `mongo`, `rabbitmq`) at that technology's own port, in a value with
# no scheme: that store (`_resolve_value`); the scheme its technology's URLs take.
NAMED_STORE_ADDRESS = re.compile(r"^([A-Za-z][A-Za-z0-9]*):(\d{2,5})$")
STORE_HOST_NAMES = {"postgres": "postgres", "postgresql": "postgres", "mysql": "mysql", "mariadb": "mysql",
                    "mongo": "mongodb", "mongodb": "mongodb", "redis": "redis", "kafka": "kafka", "rabbitmq": "rabbitmq",
                    "rabbit": "rabbitmq", "nats": "nats", "cassandra": "cassandra", "mssql": "sqlserver",
                    "sqlserver": "sqlserver"}
TECH_SCHEME = {tech: next(s for s, t in SCHEME_TECH.items() if t == tech) for tech in set(STORE_HOST_NAMES.values())}
# Servers other than stores that a deployment reaches on the Docker host by their standard port (a local model server).
HOST_SERVER_PORTS = {11434: "ollama"}
STORE_PORTS = {5432: "postgres", 3306: "mysql", 1433: "sqlserver", 27017: "mongodb", 6379: "redis", 9092: "kafka",
               5672: "rabbitmq", 4222: "nats", 9200: "elasticsearch", 11211: "memcached", 9042: "cassandra"}

# A setting's value naming an SQLite database file (an SQLAlchemy, Doctrine or Go DSN; JDBC's form).
# A class made to send HTTP requests to one base address, built with that address (`new HttpRequestBuilder(
# "https://services.acme.tv/v1/")`, `WebClient.create("https://...")`, `RestClient("https://...")`, Python's
# `httpx.Client(base_url=...)`): what it sends goes there, as with a URL in a client's call.
CLIENT_CONSTRUCTOR = re.compile(r"(^|[.\s])(new\s+)?[A-Z]?\w*(Http|Rest|Web|Api|GraphQL|Graphql)\w*(Client|Request|RequestBuilder)"
                                r"(\.(create|builder|new))?$|^httpx\.(Async)?Client$")
# an expression building such a client from a URL literal (`WebClient.create("https://...")`): the callee's name
CLIENT_BUILT = re.compile(r"""^(?:new\s+)?([A-Za-z_][\w.]*)\(\s*(?:base_url\s*=\s*)?[`"']https?://""")
# Names of a field or constant holding an API client's base address (BaseURL, apiBaseUrl, API_URL, api_endpoint).
# A setting that may give a service its own public address (CONCOURSE_EXTERNAL_URL, ROOT_URL, APP_URL, SITE_URL,
# BASE_URL): one is, when it names a port the service publishes on this machine (see _told_own_address) ...
OWN_ADDRESS_KEY = re.compile(r"(^|[._-])(external|public|site|root|base|app)[-_]?ur[li]$", re.I)
# ... and one named for the application itself, whatever it names (APP_URL, SITE_URL, PUBLIC_URL, and under the
# product's prefix, ORO_APP_URL; not API_BASE_URL or PAYMENT_API_BASE_URL, another system's address)
OWN_SITE_KEY = re.compile(r"^([A-Za-z0-9]+[._-])?(app|site|public|external|root)[._-]?ur[li]$", re.I)
BASE_URL_NAME = re.compile(r"(?i)(^|[._])(api[_-]?)?base[_-]?(url|uri)$|(^|[._])api[_-]?(url|uri|endpoint|base)$|^baseurl$")
# Mail hosts that stand in for the operator's relay in a framework's sample settings: test inboxes (Mailtrap)
SAMPLE_MAIL_HOST = re.compile(r"(^|\.)mailtrap\.io$")
SQLITE_URL = re.compile(r"^(jdbc:)?sqlite3?:", re.I)
# A JDBC URL of a Java database embedded in the program, kept in a file (`jdbc:h2:./data/db`, `jdbc:hsqldb:file:db/x`,
# `jdbc:derby:appdb`): not in memory (`jdbc:h2:mem:test`) nor a server of it (`jdbc:h2:tcp://db/x`, `jdbc:hsqldb:hsql://`).
EMBEDDED_JDBC_URL = re.compile(r"^jdbc:(h2|hsqldb|derby):(?!(mem|memory|tcp|ssl|hsqls?|https?|res):|//)", re.I)
# A Quarkus property for one profile (`%prod.quarkus.datasource.jdbc.url`): the profile's name.
QUARKUS_PROFILE = re.compile(r"^%([\w-]+)\.")



# Commands of a background worker or scheduler (Laravel's queue worker and scheduler, Celery's worker and beat,
# Sidekiq, RQ, Dramatiq, Huey): a process taking jobs, not requests.
WORKER_COMMAND = re.compile(r"\bartisan\s+(queue:(work|listen)|schedule:(run|work)|horizon)\b|\bcelery\b.*\b(worker|beat)\b"
                            r"|\bsidekiq\b|\brq\s+worker\b|\bdramatiq\b|\bhuey_consumer\b|\brun_huey\b")

# A deployment file's key that sets an environment variable (a Helm values file's `generic-service.env.API_HOST`,
# `env.API_HOST`, `extraEnv.API_HOST`): group 1 is the variable.
DEPLOYED_ENV_KEY = re.compile(r"(?:^|\.)(?:env|extraEnv|environment|envVars)\.([A-Z][A-Z0-9_]*)$")
# A settings template committed for people to copy (.env.example, env.sample, .env-dist, .env.template).
SETTINGS_TEMPLATE = re.compile(r"(^|/)[^/]*[._-](example|sample|dist|template|tmpl)$|(^|/)(example|sample|template)\.env$", re.I)


def _same_spelling(value: str) -> str:
    """A setting's value as compared across files: unquoted, lower case, the loopback spelled one way."""
    text = value.strip().strip("\"'").lower()
    return re.sub(r"(?<![\w.-])(127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?![\w.-])", "localhost", text)



# LocalStack's domain, which resolves to the machine running it: an address under it is the LocalStack the system runs.
LOCALSTACK_HOST = re.compile(r"(^|\.)localhost\.localstack\.cloud$")

class ConnectionRules(ResolverBase):
    """Rules that connect components; they may also introduce the components a value names."""

    def _protocol(self, ref: HostRef, target: str, env_name: str = "") -> str:
        if ref.scheme in ("http", "https") and "GRPC" in env_name.upper():
            return "grpc"  # GrpcSettings:DiscountUrl = http://discount:8080 (gRPC runs over HTTP/2)
        if ref.scheme in SCHEME_PROTOCOL:
            return SCHEME_PROTOCOL[ref.scheme]
        if ref.scheme and SCHEME_TECH.get(ref.scheme):
            return TECH_PROTOCOL.get(SCHEME_TECH[ref.scheme] or "", "tcp")
        tech = self.model.components[target].attributes.get("technology", "")
        if tech in TECH_PROTOCOL:
            return TECH_PROTOCOL[tech]
        if ref.port in PORT_PROTOCOL:
            return PORT_PROTOCOL[ref.port]
        if "GRPC" in env_name.upper():
            return "grpc"
        if re.search(r"zuul|routes|gateway|url|uri", env_name, re.I):
            return "http"
        return "tcp"

    def uses_technology(self, owner: str, tech: str) -> bool:
        """Does the component depend on a client library of this technology (manifest or import)?"""
        words = TECH_WORDS.get(tech, (tech,))
        for f in [*self.by_kind["manifest.dependency"], *self.by_kind["import"]]:
            name = (f.get("name") or f.get("module") or "").lower()
            if any(w in name for w in words) and self.owner_of(f.repository, f.path) == owner:
                return True
        return False

    def setting(self, owner: str, repository: str, name: str) -> str | None:
        """The value a deployment or configuration gives `name` for `owner` (a .env file's value counts
        for every component of its repository); None when nothing sets it or it is ambiguous."""
        # passed on as is (`${NAME}`): the variable itself, not a value for it; passed on with a default
        # (`${NAME:-http://api:8000}`): that default, where nothing else sets the variable
        itself = re.compile(rf"^\$\{{{re.escape(name)}:?-(?P<default>[^}}]*)\}}$")
        given = self.env_values.get((owner, name), [])
        values = {(m.group("default") if (m := itself.match(v)) else v) for v, _ev in given} - {f"${{{name}}}", ""}
        if not values:
            # a committed template of the .env (env.example) counts only for a variable the deployment
            # passes on from compose's environment (`environment: [DATASOURCE]`; with an empty default,
            # `AWS_ENDPOINT_URL=${AWS_ENDPOINT_URL:-}`, the same), which that file sets
            passed_on = any(v == f"${{{name}}}" or ((m := itself.match(v)) and not m.group("default"))
                            for v, _ev in given)
            values = {f.get("value") or "" for f in self.by_kind["config.env"]
                      if f.repository == repository and not f.get("owner") and f.get("name") == name
                      and (passed_on or not env_template_only(f.path))}
        values.discard("")
        return values.pop() if len(values) == 1 else None

    def _deployment_overrides(self, owner: str, name: str, origin: Evidence) -> bool:
        """Does the owner's deployment set the setting `name` (however spelled: ``RabbitMQ:Uri`` in
        appsettings.json, ``RabbitMQ__Uri`` in compose) elsewhere than `origin`? A loopback default in a
        configuration file the deployment overrides is a developer's value, not an unknown peer."""
        if not name:
            return False
        want = canonical(name)
        return any(canonical(n) == want and any(ev.path != origin.path for _v, ev in pairs)
                   for (o, n), pairs in self.env_values.items() if o == owner)

    def _handed_store(self, owner: str, tech: str, origin: Evidence) -> bool:
        """Does the owner's deployment (a setting given elsewhere than `origin`) name a store of the system
        with technology `tech`?"""
        for (o, _n), pairs in self.env_values.items():
            if o != owner:
                continue
            for v, ev in pairs:
                if ev.path == origin.path:
                    continue
                for ref in parse_hosts(v):
                    held = self.alias.get(ref.host.lower())
                    if held is not None and self.model.components[held].attributes.get("technology") == tech:
                        return True
        return False

    def _profile_activation_facts(self) -> list[Fact]:
        """The default settings activating Spring profiles (`spring.profiles.active`), found once (facts only)."""
        found: list[Fact] | None = getattr(self, "_profile_activations", None)
        if found is None:
            found = [g for g in self.by_kind["config.property"] if not g.get("profile")
                     and re.match(r"^spring\.profiles\.active(\[\d+\])?$", g.get("name") or "")]
            self._profile_activations = found
        return found

    def _activated_profiles(self, owner: str) -> set[str]:
        """The profiles a component's own default configuration activates (`spring.profiles.active: dev` in the
        application.yml its code holds, the config repository's `<app>-dev.yml` then being its settings; not the
        tests' profile)."""
        out: set[str] = set()
        for g in self._profile_activation_facts():  # (whose each is, is asked each time: owners change)
            if self.owner_of(g.repository, g.path) == owner:
                out |= {w for w in re.split(r"[,\s]+", (g.get("value") or "").lower())
                        if w and "$" not in w and "@" not in w and w != "test"}
        return out

    def _resolve_value(self, owner: str, value: str, evidence: list[Evidence], *, env_name: str = "",
                       allow_external: bool, origin: Evidence, needs_client: bool = False,
                       introduce: bool = True, setting: str = "", developer: bool = False) -> None:
        """Connect `owner` to the components `value` names.  `introduce=False` (an image's built-in
        default environment) only links to components the system already has.  `setting` names the
        configuration key code read the value from (it may tell the protocol, as env_name does).
        `developer`: a developer's profile (``appsettings.Development.json``), whose ``localhost`` is the
        developer's machine running things by hand, not a container of the deployment."""
        if "${" in value:
            value = expand_placeholders(value, lambda n: self.setting(owner, origin.repository, n))
        scheme = next((s for pattern, s in KEY_SCHEME if pattern.search(env_name)), None) if env_name else None
        if scheme == "redis" and "://" not in value and "," in value:
            value = value.split(",")[0]  # StackExchange.Redis's `redis:6379,password=...,ssl=False`: the first endpoint
        if scheme and "://" not in value and re.match(r"^[A-Za-z0-9_.-]+(:\d+)?$", value.strip()):
            value = f"{scheme}://{value.strip()}"  # the key names the technology of the host it holds
        elif re.search(r"[.\[]", env_name) and (named := NAMED_STORE_ADDRESS.match(value.strip())) is not None \
                and STORE_PORTS.get(int(named.group(2))) == STORE_HOST_NAMES.get(named.group(1).lower()) \
                and (tech_scheme := TECH_SCHEME.get(STORE_HOST_NAMES.get(named.group(1).lower(), ""))):
            # `redis:6379`, `kafka:9092`: a host named for a store's technology at that technology's own port in the
            # program's own settings file (a go-zero `CacheRedis: [{Host: redis:6379}]`), whatever the key is called (an
            # environment variable a deployment hands over, `CACHE=redis:6379`, may be read by nobody: not this)
            value = f"{tech_scheme}://{value.strip()}"
        refs = parse_hosts(value)
        if not refs and OPERATOR_DOMAIN_URL.search(value):
            # a name under the operator's domain, filled in at install time (`wss://broker.${DOMAIN}`): listed
            self.model.unresolved.append(Unresolved(owner, value, evidence[0]))
            return
        # A bare name is a host when the key's own name says so: the last segment of a dotted property
        # (`spring.redis.host`), not a word further up (`management.endpoints.web.exposure.include[1]`).
        # So is a bare Kubernetes cluster DNS name (`MQTT_HOST: mosquitto.traffic.svc.cluster.local`).
        bare = value.strip().lower()
        dns_name = CLUSTER_DNS.match(bare)
        if not refs and env_name and HOST_ENV_NAME.search(re.sub(r"\[\d+\]$", "", env_name).rsplit(".", 1)[-1]) \
                and not SELF_NAME_KEY.search(env_name) and (bare in self.alias or (dns_name is not None and dns_name.group(1) in self.alias)):
            refs = [HostRef(bare, None, None)]
        for ref in refs:
            if ref.host in METADATA_HOSTS:
                continue  # the cloud instance's metadata endpoint: the platform's, not a dependency
            attrs = {"via": f"env {env_name}" if env_name else "literal"}
            store = OBJECT_STORE_SCHEMES.get(ref.scheme or "")
            if store is not None and "$" not in ref.host and "{" not in ref.host:
                # s3://bucket/indexes: the bucket lives in the cloud's object storage, an external system
                target = self.alias.get(store[0])
                if target is None and introduce:
                    target = self.add_component(store[0], "external", None, origin, store[1],
                                                attributes={"host": store[0]}).id
                if target is not None:
                    attrs["bucket"] = ref.host
                    self.connect(owner, target, "https", evidence, attributes=attrs)
                continue
            target = self.alias.get(ref.host)
            if target is None and LOCALSTACK_HOST.search(ref.host):
                # LocalStack's own domain (`localhost.localstack.cloud`, `s3.localhost.localstack.cloud`, a bucket's
                # `assets.s3.localhost...`), which resolves to the machine: the LocalStack the system runs
                target = self.localstack()
            if target is None and "." in ref.host and not CLUSTER_DNS.match(ref.host):
                target = self.cluster_service(ref.host)  # router-internal.default: the Service in that namespace
            if target is None and (dns := CLUSTER_DNS.match(ref.host)):
                # tempo.observability.svc.cluster.local: the Service `tempo` (of some namespace), not the internet
                target = self.alias.get(dns.group(1))
                tech = SCHEME_TECH.get(ref.scheme or "") if ref.scheme else None
                if target is None and tech in TECH_KIND and introduce and "$" not in ref.host:
                    # amqp://rabbitmq.default.svc.cluster.local: a RabbitMQ Service installed apart (a chart
                    # release the inputs do not hold), named by its Service; the scheme says what it is
                    target = self.add_component(dns.group(1), TECH_KIND[tech], origin.repository, origin,
                                                attributes={"technology": tech, "host": ref.host}).id
                elif target is None and introduce and "$" not in ref.host and "{" not in ref.host \
                        and not dns.group(1).startswith("example") and not ref.host.startswith("kubernetes.default.") \
                        and env_name and self._code_names_setting(owner, env_name):
                    # http://prometheus-server.prometheus-system.svc: a Service of the cluster the system does not
                    # install (another team's monitoring, a shared gateway), reached by its name, where the
                    # program's code reads the setting handing it over (a setting nobody reads is listed, and so is
                    # a default written in the code, tracing's jaeger-collector.jaeger.svc, switched off by default)
                    target = self.add_component(dns.group(1), "external", None, origin, attributes={
                        "host": ref.host, "role": "a Service of the cluster installed apart"}).id
                if target is None:
                    self.model.unresolved.append(Unresolved(owner, value, origin))
                    continue
            if target is None and ref.host == "host.docker.internal" and not developer and introduce \
                    and self.served_on(ref.port, owner) is None:
                # OLLAMA_URL=http://host.docker.internal:11434: a server the operator runs on the Docker host, known by
                # its standard port (a store's, Ollama's), which no service of the deployment publishes
                target = self._server_on_docker_host(ref, origin)
            if target is None and ref.host in LOCAL_HOSTS:
                if not developer and BROWSER_SETTING.match(env_name or setting) and self._own_loopback(owner, origin):
                    # NEXT_PUBLIC_API_URL=http://localhost:8888 handed to a web front end's container: a setting
                    # built into the pages the browser runs, where localhost is the user's machine; the compose
                    # service publishing that port there is what the user's browser reaches
                    published = sorted(self.ports_published.get(ref.port, set()) - {owner}) if ref.port else []
                    if len(published) == 1:
                        self.connect(self.people_actor(origin), published[0], "http", evidence, kind="calls",
                                     attributes={"via": f"browser setting {env_name or setting}"})
                    continue
                if developer or self._own_loopback(owner, origin):
                    continue
                # http://localhost:8761: the module serving 8761 (a store's scheme without a port, `redis://localhost`
                # from .NET's `Redis:Configuration: localhost`, is at that store's standard port)
                tech = SCHEME_TECH.get(ref.scheme or "") if ref.port is None and ref.scheme else None
                port = ref.port or next((p for p, t in STORE_PORTS.items() if tech and t == tech), None)
                target = self.served_on(port, owner)
                if target is None:
                    if ref.port is not None and owner not in getattr(self, "ports_served", {}).get(ref.port, ()) \
                            and not self._deployment_overrides(owner, env_name or setting, origin):
                        self.model.unresolved.append(Unresolved(owner, value, origin))  # nobody, or several, serve there
                    continue
            if target is None and is_private_address(ref.host):
                target = self.served_on(ref.port, owner)  # 192.168.99.100:3306: a machine; the port says who
                if target is None and introduce:
                    target = self._store_on_machine(ref, origin)
                if target is None:
                    self.model.unresolved.append(Unresolved(owner, value, origin))
                    continue
            if target is None:
                tech = SCHEME_TECH.get(ref.scheme or "") if ref.scheme else None
                if not introduce:
                    continue
                if tech and self._handed_store(owner, tech, origin):
                    # a default in code naming a host nobody deploys (mongodb://mongo-deployments:27017), in a
                    # service whose deployment hands it a deployed store of that technology: the developer's default
                    self.model.unresolved.append(Unresolved(owner, value, origin))
                    continue
                if tech and "$" not in ref.host and "{" not in ref.host and not PLACEHOLDER_HOST.match(ref.host) \
                        and not RESERVED_EXAMPLE.search(ref.host):
                    comp = self.add_component(ref.host, TECH_KIND.get(tech, "database"), origin.repository, origin,
                                              attributes={"technology": tech, "host": ref.host})
                    target = comp.id
                elif (allow_external and ref.scheme in ("http", "https", "grpc", "ws", "wss") and "." in ref.host
                      and not re.match(r"^\d+\.\d+\.\d+\.\d+$", ref.host) and not RESERVED_EXAMPLE.search(ref.host)):
                    comp = self.add_component(ref.host, "external", None, origin, attributes={"host": ref.host})
                    target = comp.id
                elif "." in ref.host and not allow_external:
                    continue  # a public URL that is not used to call anything (a namespace, a link)
                else:
                    self.model.unresolved.append(Unresolved(owner, value, origin))
                    continue
            tcomp = self.model.components[target]
            if needs_client and tcomp.kind in ("database", "cache", "broker") and not self.uses_technology(
                    owner, tcomp.attributes.get("technology", "")):
                continue  # shared config names it, but this service has no client for it
            if env_name and tcomp.kind in STORE_KINDS and self._stock_web_server(owner):
                # a stock web server's image (nginx) handed the application's environment whole (`<<: *common-env`):
                # it proxies and serves files, and reaches no store by a setting
                continue
            protocol = self._protocol(ref, target, env_name or setting)
            if (protocol == "tcp" and ref.scheme is None and ref.port not in PORT_PROTOCOL
                    and not NOT_HTTP_KEY.search(env_name or setting)):
                self.protocol_unknown.add((owner, target, protocol))  # a bare host:port, nothing says how
            self.connect(owner, target, protocol, evidence, attributes=attrs)
            if ref.database and tcomp.kind == "database":
                self.databases_named[(target, ref.database)].update(evidence)

    def _stock_web_server(self, cid: str) -> bool:
        """Does the component run a stock web server or reverse proxy image (nginx, httpd, caddy, traefik, haproxy,
        envoy), no code of the system's own?"""
        comp = self.model.components[cid]
        image = image_basename(comp.attributes.get("image") or "").lower()
        return comp.kind in ("gateway", "proxy") and not self.has_code(comp) \
            and image in ("nginx", "httpd", "apache", "caddy", "traefik", "haproxy", "envoy", "openresty")

    def _server_on_docker_host(self, ref: HostRef, origin: Evidence) -> str | None:
        """The server of the technology a Docker-host address's port is the standard one of (a store's, Ollama's
        11434): the system's one component of it, else one introduced, named for it. None for another port."""
        tech = STORE_PORTS.get(ref.port or 0) or HOST_SERVER_PORTS.get(ref.port or 0)
        if tech is None:
            return None
        known = sorted(c.id for c in self.model.components.values()
                       if c.attributes.get("technology") == tech and c.kind != "external")
        if known:
            return known[0] if len(known) == 1 else None
        return self.add_component(tech, TECH_KIND.get(tech, "service"), origin.repository, origin, attributes={
            "technology": tech, "host": ref.host, "role": "a server run on the Docker host"}).id

    def _store_on_machine(self, ref: HostRef, origin: Evidence) -> str | None:
        """A data store at a private network address no component of the inputs serves
        (``jdbc:mysql://192.168.28.130:3306/users``, ``spring.data.redis.host`` on the developer's VM): the
        store of the technology its scheme, else its standard port, names, running on that machine; one
        per machine and technology, named after the technology. None when neither names a store."""
        tech = SCHEME_TECH.get(ref.scheme or "") if ref.scheme else None
        tech = tech or STORE_PORTS.get(ref.port or 0)
        if not tech or tech not in TECH_KIND:
            return None
        for comp in self.model.components.values():
            if comp.attributes.get("host") == ref.host and comp.attributes.get("technology") == tech:
                return comp.id
        taken = self.alias.get(tech)
        name = tech if taken is None else f"{tech}-{ref.host}"
        return self.add_component(name, TECH_KIND[tech], origin.repository, origin,
                                  attributes={"technology": tech, "host": ref.host}).id

    def built_here(self, comp: Component, repo: str | None = None) -> bool:
        """Is the component a program of the system's own (of repository `repo`, when given): its code is here, its
        image is built here, or its image is the one the project publishes under the name its commit gives it
        (never the repository's label, which for a local folder is only the user's name for it)?"""
        if repo is not None and comp.repository != repo and not any(r == repo for r, _ in comp.source_roots):
            return False
        own_image = image_basename(comp.attributes.get("image") or "").lower() in {
            n.lower() for n in self.project_names(repo if repo is not None else comp.repository or "")}
        return bool(self.has_code(comp) or comp.attributes.get("built_by") or own_image)

    def has_code(self, comp: Component) -> bool:
        """Does any source code of the system sit under the component's folders (not only a Dockerfile)?"""
        return self._code_under(comp.source_roots)

    def _code_under(self, roots: Iterable[tuple[str, str]]) -> bool:
        roots = list(roots)
        if not roots:
            return False
        if self._code_files is None:
            self._code_files = [(r.repository.name, f.path) for r in self.results for f in r.inventory.files
                                if f.language and f.role == "source"]
        return any(r == repo and is_under(p, root) for repo, root in roots for r, p in self._code_files)

    def has_server_code(self, comp: Component) -> bool:
        """Does code of the component other than a browser app sit under its folders?  A published image's
        web UI kept here (an AngularJS app in `www/`, its package named like the service) runs in the user's
        browser: the server's own code, which reaches its stores, is not here."""
        return self._code_under((repo, root) for repo, root in comp.source_roots
                                if not self.browser_package(repo, root))  # type: ignore[attr-defined]

    def application_image(self, comp: Component, mounted_ok: bool = False) -> bool:
        """Is the component a service running the system's own published image, whose code lives
        elsewhere (``ghcr.io/saleor/saleor`` in a compose-only repository, run twice as api and worker)?
        An image of no known technology (store, broker, proxy, tool), run by a compose service, with no code
        here: what a shared ``env_file`` hands it (its database, cache and broker URLs) is what it
        connects to."""
        image = comp.attributes.get("image") or ""
        if not image and comp.kind == "service" and comp.attributes.get("deployment") == "compose" \
                and not comp.attributes.get("technology") and not self.has_code(comp):
            # built by a recipe with no code of its own, adding patches and scripts to the product's published
            # image (`FROM ckan/ckan-base:2.11`): that image is the application it runs
            # (named for the service, `ckan` FROM ckan/ckan-base: not a tool's image, google/cloud-sdk under an
            # emulator, that takes only what compose interpolates)
            base = self._recipe_base(comp)
            words = set(re.split(r"[^a-z0-9]+", (base or "").split(":")[0].lower()))
            return bool(base) and "$" not in base and tech_for_image(base) is None and image_language(base) is None \
                and not OS_IMAGE.search(base) and comp.name.lower() in words
        # a variable tag (`netbox:${VERSION-v4.1}`) still names the image; a variable repository does not
        repository = re.sub(r":\$\{[^}]*\}$|:\$[A-Za-z_]\w*$", "", image)
        # (a bind mount of a folder the repository does not hold, ./uploads made at run time, gives it nothing here)
        held = [(r, root) for r, root in comp.source_roots
                if (r, root) in self.inventory_paths or (r, root) in self.inventory_folders]
        # (waiting for stores, a product's image whose web UI's code is here is still the server: `webapp`
        # thehiveproject/cortex beside www/; the front end's own image, named for its folder or as a front end,
        # public.ecr.aws/acme/frontend of frontend/, only waits)
        base = key(image_basename(repository))
        own_image = bool(base) and base not in {key(PurePosixPath(root).name) for _r, root in comp.source_roots} \
            and not re.fullmatch(r"(web)?(front(end)?|ui|client|web|webapp|app|dashboard|console|portal|admin)s?", base)
        return comp.kind in (("service", "webapp") if mounted_ok and own_image else ("service",)) \
            and comp.attributes.get("deployment") == "compose" and bool(image) \
            and "$" not in repository and not comp.attributes.get("technology") and tech_for_image(repository) is None \
            and (not held or (mounted_ok and not self.has_server_code(comp) and not any(
                f.get("build_context") for f in self._compose_services().get((comp.repository, comp.name.lower()), ()))))
        # (when it waits for stores, `mounted_ok`: a configuration file of this repository mounted into it,
        # Revolt.toml, is no code of it; a build of it here is, even from a folder this commit lacks. What a
        # shared env file hands such an image stays unlinked: a third-party image given its own config file,
        # powersync-service, reads only that)

    def _recipe_base(self, comp: Component) -> str | None:
        """The image the last stage of the component's ``Dockerfile`` (in its one build folder) starts from."""
        if len(comp.source_roots) != 1:
            return None
        (repo, root), = comp.source_roots
        recipe = join_path(root, "Dockerfile")
        froms = [f for f in self.by_kind["docker.from"] if f.repository == repo and f.path == recipe]
        return max(froms, key=lambda f: f.line).get("image") if froms else None

    def stack_settings_file(self, repo: str, path: str) -> bool:
        """A ``.env`` in a deployment folder (a compose file beside it, no code): Compose's interpolation
        source, the whole stack's settings. Not the settings of the component whose folder holds it,
        nor of a third-party image handed it whole (an nginx given ``env_file: .env``), which take only
        what the compose file interpolates from it."""
        if self._stack_dirs is None:
            compose_dirs = {(f.repository, folder(f.path)) for f in self.by_kind["compose.service"]}
            code_dirs = {(r.repository.name, folder(x.path)) for r in self.results for x in r.inventory.files
                         if x.language and x.role == "source"}
            self._stack_dirs = compose_dirs - code_dirs
        return PurePosixPath(path).name == ".env" and (repo, folder(path)) in self._stack_dirs

    _stack_dirs: set[tuple[str, str]] | None = None

    def env_file_settings(self) -> list[tuple[str, Fact]]:
        """Compose ``env_file: .env``: the file's settings are the service's environment.  A file kept
        out of git is represented by its committed template (``.env.example``, ``.sample``, ``.dist``)."""
        dotenv: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["config.env"]:
            if f.get("source") == "dotenv":
                dotenv[(f.repository, f.path)].append(f)
        out: list[tuple[str, Fact]] = []
        users: dict[tuple[str, str], int] = defaultdict(int)
        coded: dict[tuple[str, str], bool] = defaultdict(bool)  # is the file handed to a program whose code is here?
        for f in self.by_kind["compose.env_file"]:
            users[(f.repository, self.env_file_path(f))] += 1
            holder = self.alias.get((f.get("owner") or "").lower())
            if holder is not None and self.model.components[holder].kind in ("service", "gateway", "webapp") \
                    and self.has_code(self.model.components[holder]):
                coded[(f.repository, self.env_file_path(f))] = True
        # (images a compose service builds here: a service running one, `image: local/socorro_app` beside the build
        # tagging it, runs the system's own code)
        built_here = {image_repo(g.get("image") or "") for g in self.by_kind["compose.service"]
                      if g.get("image") and (g.get("build_context") or g.get("dockerfile"))}
        for f in self.by_kind["compose.env_file"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None:
                continue
            path = self.env_file_path(f)
            comp = self.model.components[owner]
            if (users[(f.repository, path)] > 1 or self.stack_settings_file(f.repository, path)) and (
                    comp.kind in ("database", "cache", "broker") or not self.has_code(comp)
                    and (not self.application_image(comp) or coded[(f.repository, path)]
                         and image_repo(comp.attributes.get("image") or "") not in built_here)):
                # One file for the whole project (a MariaDB's root password beside the services' addresses):
                # a store or a third-party image takes what it knows from it, and calls nobody by it.  (A published
                # image with no code here is the application only where no program of the repository shares the
                # file: beside the system's own programs, which read it, it is another product given the file
                # whole, Fedora's fcrepo beside a Rails app, a collector beside the processors it feeds.)
                continue
            for candidate in env_file_candidates(path):
                if (f.repository, candidate) in dotenv:
                    out.extend((owner, s) for s in dotenv[(f.repository, candidate)])
                    break
        return out

    def _named_components(self, value: str) -> list[Component]:
        """The components a value names by host, URL or bare name (a Kubernetes service's cluster DNS name,
        devlake.devlake.svc.cluster.local, names the service)."""
        hosts = [r.host for r in parse_hosts(value)] or [value.strip().split(":")[0]]
        hosts = [h.split(".")[0] if re.search(r"\.svc(\.cluster\.local)?$", h) else h for h in hosts]
        return [self.model.components[cid] for h in hosts if h and (cid := self.alias.get(h.lower())) is not None]

    def _names_application(self, value: str) -> bool:
        """Does the value name a service or web app of the system?"""
        return any(c.kind in ("service", "webapp", "gateway") for c in self._named_components(value))

    def _names_front_door(self, value: str) -> bool:
        """Does the value name a gateway or reverse proxy of the system?"""
        return any(c.kind in ("gateway", "proxy") or c.attributes.get("technology") == "proxy"
                   for c in self._named_components(value))

    @staticmethod
    def _store_value(value: str) -> bool:
        """A data-store address (postgres://, jdbc:mysql://, mongodb://...): drivers and frameworks read
        those by convention (SPRING_DATASOURCE_URL), not through a read the code spells out."""
        return any(SCHEME_TECH.get(r.scheme or "") for r in parse_hosts(value))

    def _published_recipe(self, comp) -> bool:
        """Is the component the repository's own program, at its root, built by the recipe at the root (the
        image its project publishes), one image of it (dex's; not Argo Workflows' recipe building images of its
        controller, its executor and its CLI)?"""
        roots = {r for r, root in comp.source_roots if root in ("", ".")}
        if not any(f.repository in roots and folder(f.path) in ("", ".") for f in self.by_kind["docker.from"]):
            return False
        # the recipe's final images: stages built from others that no stage builds on (argoexec, workflow-controller
        # and the CLI in one recipe are three images, not the one server)
        stages = [f for f in self.by_kind["docker.stage"] if f.repository in roots and folder(f.path) in ("", ".")]
        needed = {n for f in stages for n in (f.get("needs") or "").split(",") if n}
        finals = {(f.path, f.get("stage")) for f in stages if f.get("needs") and f.get("stage") not in needed}
        return len(finals) <= 1

    def _code_names_setting(self, owner: str, name: str) -> bool:
        """Does the owner's code read the setting `name`, or spell its name in a constant it reads it by
        (``PrometheusServerEndpointEnvVar = "PROMETHEUS_SERVER_ENDPOINT"``)?"""
        if name in self.names_read().get(owner, set()):
            return True
        return any(f.get("value") == name and self.owner_of(f.repository, f.path) == owner
                   for f in self.by_kind["const.string"])

    def names_read(self) -> dict[str, set[str]]:
        """Per component, the environment/config names its code reads (env reads, ``@Value`` keys)."""
        names: dict[str, set[str]] = defaultdict(set)
        for f in self.by_kind["env.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner and f.get("name"):
                names[owner].add(f.get("name") or "")
        for f in self.by_kind["config.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner:
                names[owner].update(re.findall(r"[A-Za-z_][A-Za-z0-9_.\-]*", f.get("expr") or ""))
        return names

    def config_connections(self) -> None:
        self.index_served_ports()
        env_reads: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for f in self.by_kind["env.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner and f.get("name"):
                env_reads[(owner, f.get("name") or "")].append(f.evidence)
        configmaps: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["k8s.configmap"]:
            configmaps[f.get("configmap") or ""].append(f)
        pairs: list[tuple[str, Fact]] = []
        handed = {(r, p) for (r, _n), paths in self._compose_env_files().items() for p in paths}
        handed_to: dict[tuple[str | None, str], set[str]] = defaultdict(set)  # env file -> the services handed it
        for (r, n), paths in self._compose_env_files().items():
            for p in paths:
                if (holder := self.alias.get(n)) is not None:
                    handed_to[(r, p)].add(holder)
        for f in self.by_kind["config.env"]:
            owner = self.config_owner(f)
            if owner and not (f.get("source") == "dotenv" and (self.stack_settings_file(f.repository, f.path)
                                                                or env_template_only(f.path)
                                                                # (an env file compose hands other services is
                                                                # theirs, not its folder's owner's: a static
                                                                # file server built from the project's root)
                                                                or bool(handed_to.get((f.repository, f.path)))
                                                                and owner not in handed_to[(f.repository, f.path)]
                                                                # (the template of a .env compose hands its
                                                                # services: theirs, see env_file_settings)
                                                                or any(env_template_of(f.path, p) for r, p in handed
                                                                       if r == f.repository))):
                pairs.append((owner, f))
        shared: set[tuple[str, Fact]] = set()  # settings one file gives several components
        read_names = self.names_read()
        for owner, f in self.env_file_settings():
            reads = read_names.get(owner)
            if reads is None or (f.get("name") or "") in reads or self._store_value(f.get("value") or ""):
                pairs.append((owner, f))
                if reads is not None:  # one file for several services: a store counts only with its client
                    shared.add((owner, f))
        # (the workloads each ConfigMap is handed to: one written for a single workload is that workload's own)
        handed_to: dict[str, set[str]] = defaultdict(set)
        for f in self.by_kind["k8s.env_from"]:
            owner = self.config_owner(f)
            if owner:
                handed_to[f.get("configmap") or ""].add(owner)
        for f in self.by_kind["k8s.env_from"]:
            owner = self.config_owner(f)
            if owner:
                # A shared ConfigMap hands every key to every workload; a key counts for a workload whose
                # code reads it (or for one whose code reads nothing we can see); a store's address in it counts
                # only with the store's client, unless the ConfigMap is the workload's alone.
                reads = read_names.get(owner)
                store = self.model.components[owner].kind in ("database", "cache")
                alone = len(handed_to[f.get("configmap") or ""]) == 1
                for cm in configmaps.get(f.get("configmap") or "", []):
                    if store and self._names_application(cm.get("value") or ""):
                        continue  # a database image does not call the services the others' keys name
                    if reads is None or (cm.get("name") or "") in reads or self._store_value(cm.get("value") or ""):
                        pairs.append((owner, cm))
                        if reads is not None and not alone:
                            shared.add((owner, cm))
        extra: dict[Fact, Evidence] = {}  # a setting taken from a ConfigMap key -> the key's line
        for f in self.by_kind["k8s.env_key_ref"]:
            owner = self.config_owner(f)
            for cm in configmaps.get(f.get("configmap") or "", []) if owner else []:
                if cm.get("name") == f.get("key") and cm.get("value"):
                    setting = replace(f, kind="config.env", attrs=tuple(sorted(
                        {"owner": f.get("owner") or "", "name": f.get("name") or "", "value": cm.get("value") or "",
                         "source": "kubernetes"}.items())))
                    pairs.append((owner, setting))
                    extra[setting] = cm.evidence
        for f in self.by_kind["config.property"]:
            owners = self.property_owners(f)
            common = PurePosixPath(f.path).stem.lower().startswith(("application", "bootstrap"))
            for owner in owners:
                pairs.append((owner, f))
                if common and owner != self.owner_of(f.repository, f.path):
                    shared.add((owner, f))  # a config repository's shared file, not the service's own
        # what the deployment's own files set a variable to (a chart's values `generic-service.env.API_HOST`, a
        # manifest's or compose file's environment): a settings template's example value for it yields to that
        # (compared as written, the loopback's spellings taken as one: `127.0.0.1:9000` is `localhost:9000`)
        deployed_values: dict[tuple[str, str], set[str]] = defaultdict(set)
        for g in self.by_kind["config.property"]:
            m = DEPLOYED_ENV_KEY.search(g.get("name") or "")
            if m and g.get("value"):
                deployed_values[(g.repository, m.group(1))].add(_same_spelling(g.get("value") or ""))
        for g in self.by_kind["config.env"]:
            if g.get("source") not in ("dotenv", "dockerfile") and g.get("value"):
                deployed_values[(g.repository, g.get("name") or "")].add(_same_spelling(g.get("value") or ""))
        pairs = [(owner, f) for owner, f in pairs if not (
            f.kind == "config.env" and f.get("source") == "dotenv" and SETTINGS_TEMPLATE.search(f.path)
            and deployed_values.get((f.repository, f.get("name") or ""), set()) - {_same_spelling(f.get("value") or "")})]
        for owner, f in pairs:
            name, value = f.get("name") or "", f.get("value") or ""
            self.env_values[(owner, name)].append((value, f.evidence))
        # A Spring setting other settings interpolate (`issuer-uri: http://${app.auth-server}:9999`) is a
        # variable: it links where it is used (expanded there), not wherever it is set.
        interpolated = {(g.repository, m.group(1)) for g in self.by_kind["config.property"]
                        for m in re.finditer(r"\$\{([^}:]+)(?::[^}]*)?\}", g.get("value") or "")}
        disabled = disabled_settings(self.by_kind["config.property"])
        # a section's port beside its host (jsreport.port); not the file's own top-level or server port,
        # which say where the program itself listens (hostname: localhost / port: 8536, server.port)
        ports_beside = {(g.repository, g.path, (g.get("name") or "").rpartition(".")[0]): g
                        for g in self.by_kind["config.property"]
                        if (g.get("name") or "").rpartition(".")[2].lower() == "port" and g.get("value")
                        and "." in (g.get("name") or "") and not listens_by_key(g.get("name") or "", g.path)}
        sqlite_files: dict[str, list[Evidence]] = {}  # component -> the setting naming its SQLite file
        embedded_files: dict[str, tuple[str, list[Evidence]]] = {}  # component -> (engine, setting) of an H2/HSQLDB/Derby file
        for owner, f in pairs:
            name, value = f.get("name") or "", f.get("value") or ""
            beside = ports_beside.get((f.repository, f.path, name.rpartition(".")[0])) \
                if f.kind == "config.property" and HOST_ONLY_KEY.search(name) else None
            if beside is not None and self._loopback_host(owner, f.repository, value):
                # jsreport.host: localhost beside jsreport.port: 5488 is one address, localhost:5488 (a
                # named host needs no port to be found, and a mail host is kept as written)
                value = f"{value.strip()}:{beside.get('value')}"
            if f.kind == "config.property" and (f.repository, name) in interpolated:
                continue
            if BROWSER_URL_KEY.search(name) or TEST_HARNESS_KEY.search(name):
                continue  # where the user's browser is sent (or a link shown to people), or a browser test's, not a call
            if OWN_SITE_KEY.search(name) and (not self._names_application(value) or self._names_front_door(value)):
                # the application's own public address (ORO_APP_URL=http://oro.demo), no service it calls; so is one
                # naming the reverse proxy in front of it (APP_URL=http://nginx, which hands requests back to it)
                continue
            if self.withheld(owner, f.evidence):
                continue  # a handed setting its code does not read, or one naming callers (config.*-settings)
            if prose(value):
                continue  # a sentence naming a URL (a user agent "Huginn - https://github.com/..."), no address
            if f.kind == "config.property" and (f.repository, f.path, name) in disabled:
                continue  # a section switched off (`oauth2.enable: false` beside its provider URLs)
            chain = [f.evidence, *([extra[f]] if f in extra else []), *([beside.evidence] if beside else []),
                     *env_reads.get((owner, name), [])]
            if (owner, f) in shared and not self.uses_role_of(owner, name):
                continue  # a shared file's setting for a client library this component does not have
            if MAIL_HOST_KEY.search(name) and re.match(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$", value.strip()):
                # (a framework's stock sample, Laravel's `MAIL_HOST=smtp.mailtrap.io`, a test inbox, names no relay
                # of the system: the operator's mail server is drawn from the code sending mail, code.mail-senders)
                if not SAMPLE_MAIL_HOST.search(value.strip().lower()):
                    self.mail_server(owner, value.strip().lower(), chain)
                continue
            if SQLITE_URL.match(value.strip().strip("\"'")):
                sqlite_files.setdefault(owner, chain)
                continue
            embedded = EMBEDDED_JDBC_URL.match(value.strip().strip("\"'"))
            if embedded:
                # a database file inside the program (H2, HSQLDB, Derby), unless only a developer's or the tests'
                # profile sets it (`%dev.quarkus.datasource.jdbc.url`)
                profile = QUARKUS_PROFILE.match(name)
                if not (profile and (profile.group(1).lower() in DEVELOPER_PROFILES or profile.group(1).lower() == "test")):
                    embedded_files.setdefault(owner, (embedded.group(1).lower(), chain))
                continue
            # An image's built-in environment and a non-default profile (`application-docker.yml`) link to
            # components the system has; only the default configuration introduces new ones (and a profile the
            # service's own configuration activates, `spring.profiles.active: dev`, is its default)
            default = f.get("source") != "dockerfile" and (
                not f.get("profile") or (f.get("profile") or "").lower() in self._activated_profiles(owner))
            self._resolve_value(owner, value, chain, env_name=name, allow_external=default,
                                origin=f.evidence, needs_client=(owner, f) in shared, introduce=default,
                                developer=(f.get("profile") or "").lower() in DEVELOPER_PROFILES)
        # a setting naming an SQLite file (`DATABASE_URL=sqlite:///%kernel.project_dir%/data/db/app.sqlite`): the
        # service keeps its data in an embedded database, unless it is configured with a database server
        for owner, chain in sorted(sqlite_files.items()):
            self.embedded_database(owner, chain, "sqlite file setting")
        for owner, (engine, chain) in sorted(embedded_files.items()):
            self.embedded_database(owner, chain, f"{engine} file setting", technology=engine)
        # Defaults in code: os.getenv("X", "http://orders:8080") only counts when no config sets X.
        configured = {(owner, f.get("name")) for owner, f in pairs}
        for f in self.by_kind["env.read"]:
            owner = self.owner_of(f.repository, f.path)
            default = f.get("default")
            if owner and default and (owner, f.get("name")) not in configured and not prose(default) \
                    and not BROWSER_URL_KEY.search(f.get("name") or "") and not TEST_HARNESS_KEY.search(f.get("name") or ""):
                self._resolve_value(owner, default, [f.evidence], env_name=f.get("name") or "",
                                    allow_external=True, origin=f.evidence)

    def config_documents(self) -> None:
        """Code reading an address by its key from a configuration document of its repository
        (``result["ProfileMongoAddress"]``, config.json holding ``"mongodb-profile:27017"``) reaches
        the component at that address; only components the system has (a key is no declaration)."""
        values: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["config.document"]:
            values[(f.repository, f.get("name") or "")].append(f)
        for f in self.by_kind["config.key"]:
            owner = self.owner_of(f.repository, f.path)
            key_name = f.get("key") or ""
            for doc in values.get((f.repository, key_name), []) if owner else []:
                self._resolve_value(owner, doc.get("value") or "", [f.evidence, doc.evidence], env_name=key_name,
                                    allow_external=False, origin=f.evidence, introduce=False)
        # A document a recipe copies into its image (`COPY files/service/config.json.template /usr/share/odk/`)
        # is the configuration of the deployments built with that recipe: its addresses are theirs to call.
        copied = self._recipe_copies_by_deployment()
        # ... and so is one a compose service mounts (`./conf/metanode.json:/cfs/conf/metanode.json`): the
        # program reads its settings there, the addresses of its peers (at the fixed IPs the network gives them)
        mounted: dict[tuple[str, str], list[tuple[str, Evidence]]] = defaultdict(list)
        for m in sorted(self.by_kind["compose.mount"], key=Fact.order):
            source = m.get("source") or ""
            cid = self.alias.get((m.get("owner") or "").lower())
            if cid is None or source.startswith("/") or "$" in source or not source.endswith(".json"):
                continue
            mounted[(m.repository, norm_path(join_path(folder(m.path), source)))].append((cid, m.evidence))
        for f in sorted(self.by_kind["config.document"], key=Fact.order):
            value = f.get("value") or ""
            for owner, copy in copied.get((f.repository, f.path), []):
                self._resolve_value(owner, value, [f.evidence, copy], env_name=f.get("name") or "",
                                    allow_external=False, origin=f.evidence, introduce=False)
            fixed = FIXED_ADDRESS.match(value.strip())
            for owner, mount in mounted.get((f.repository, f.path), []):
                target = self.alias.get(fixed.group(1)) if fixed else None
                if fixed and target is not None and target != owner:
                    # a peer at the fixed IP the compose network gives it (`192.168.0.11:17010`, master1)
                    self.connect(owner, target, PORT_PROTOCOL.get(int(fixed.group(2)), "tcp"), [f.evidence, mount],
                                 attributes={"via": f"setting {f.get('name')}"})
                elif not fixed:
                    self._resolve_value(owner, value, [f.evidence, mount], env_name=f.get("name") or "",
                                        allow_external=False, origin=f.evidence, introduce=False)

    def _recipe_copies_by_deployment(self) -> dict[tuple[str, str], list[tuple[str, Evidence]]]:
        """(repository, file) -> (deployment, the COPY line) for each file a compose service's recipe copies
        from its build context into the image it runs."""
        out: dict[tuple[str, str], list[tuple[str, Evidence]]] = defaultdict(list)
        copies: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for c in self.by_kind["docker.copy"]:
            copies[(c.repository, c.path)].append(c)
        for f in self.by_kind["compose.service"]:
            context = self.compose_interpolate(f, f.get("build_context"))
            if context is None and f.get("dockerfile"):
                context = "."
            cid = self.alias.get((f.get("name") or "").lower())
            if context is None or cid is None or re.match(r"^[a-z]+://", context):
                continue
            root = norm_path(join_path(f.get("compose_dir") or folder(f.path), context))
            dockerfile = norm_path(join_path(root, self.compose_interpolate(f, f.get("dockerfile")) or "Dockerfile"))
            for c in copies.get((f.repository, dockerfile), []):
                for src in (c.get("sources") or "").split(","):
                    src = src.strip()
                    if src and not any(ch in src for ch in "*?[$") and src not in (".", "./"):
                        out[(f.repository, norm_path(join_path(root, src)))].append((cid, c.evidence))
        return {k: sorted(set(v)) for k, v in out.items()}

    def _loopback_host(self, owner: str, repository: str, value: str) -> bool:
        """Is the setting's value a bare loopback or private-network host (``${JSREPORT_HOST:localhost}``),
        one whose port decides who it reaches?"""
        host = expand_placeholders(value, lambda n: self.setting(owner, repository, n)).strip().lower()
        return host in LOCAL_HOSTS or is_private_address(host)

    _COMPOSE_OR_ENV_FILE = re.compile(r"(^|/)((docker-)?compose[^/]*\.ya?ml|\.env[^/]*|[^/]*\.env|env\.[^/]*)$", re.I)

    def _own_loopback(self, owner: str, origin: Evidence) -> bool:
        """Is a loopback address (``WEB_APP_URL=http://localhost:3000``) handed to ``owner`` by its compose file or
        env file, while it runs in a container of its own network (no ``network_mode``)?  There, localhost is that
        container itself, not another service publishing the port on the machine: such values are the addresses
        browsers use, or the program's own.  A browser app's container hands its settings to the browser, where
        localhost is the user's machine and the published ports are reached."""
        if not self._COMPOSE_OR_ENV_FILE.search(origin.path):
            return False
        comp = self.model.components.get(owner)
        if comp is None or comp.attributes.get("deployment") != "compose" or comp.kind == "webapp":
            return False  # (a browser app's settings are the browser's: its localhost is the user's machine)
        names = {comp.name.lower(), *(a.lower() for a in comp.aliases)}
        services = self._compose_services()
        mine = [f for n in sorted(names) for f in services.get((comp.repository, n), ())]
        if not mine or any(f.get("network_mode") for f in mine):
            return False
        if origin.path in {f.path for f in mine}:
            return True  # the service's own `environment:` in its compose file
        # an env file its compose service is given (`env_file: .env`, kept out of git as `.env.example`); not an
        # env file in the program's own folder, read when a developer runs it on the machine
        env_files = self._compose_env_files()
        given = {g for n in names for g in env_files.get((comp.repository, n), ())}
        return any(origin.path == g or origin.path.startswith(g + ".") or env_template_of(origin.path, g) for g in given)

    def _compose_services(self) -> dict[tuple[str | None, str], list[Fact]]:
        """(repository, service name) -> its compose.service facts; built once, asked for every
        loopback value and replica host."""
        cached = getattr(self, "_compose_by_name", None)
        if cached is None:
            services: dict[tuple[str | None, str], list[Fact]] = defaultdict(list)
            for f in self.by_kind["compose.service"]:
                services[(f.repository, (f.get("name") or "").lower())].append(f)
            cached = self._compose_by_name = dict(services)
        return cached

    def env_file_path(self, f: Fact) -> str:
        """The file (from the repository's root) a compose ``env_file:`` entry names, with the variables
        compose fills from the ``.env`` beside the compose file (``${ENV_VARS_DIRECTORY}/.env_srv``)."""
        named = self.compose_interpolate(f, f.get("file") or "") or ""  # type: ignore[attr-defined]
        return norm_path(join_path(PurePosixPath(f.path).parent.as_posix(), named))

    def _env_by_owner(self) -> dict[tuple[str | None, str, str], list[Fact]]:
        """(repository, file, owner) -> the config.env facts of that owner in that file, in fact order;
        built once, asked for every depends_on entry."""
        cached = getattr(self, "_env_owner_index", None)
        if cached is None:
            index: dict[tuple[str | None, str, str], list[Fact]] = defaultdict(list)
            dotenv: dict[tuple[str | None, str], list[Fact]] = defaultdict(list)
            for g in sorted(self.by_kind["config.env"], key=Fact.order):
                index[(g.repository, g.path, (g.get("owner") or "").lower())].append(g)
                if g.get("source") == "dotenv":
                    dotenv[(g.repository, g.path)].append(g)
            # (repository, "", service) -> what the env files compose hands the service say (`env_file:`)
            for (repo, service), files in sorted(self._compose_env_files().items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
                for path in sorted(files):
                    found = next((dotenv[(repo, c)] for c in env_file_candidates(path) if (repo, c) in dotenv), [])
                    index[(repo, "", service)].extend(found)
            cached = self._env_owner_index = dict(index)
        return cached

    def _compose_env_files(self) -> dict[tuple[str | None, str], set[str]]:
        """(repository, service name) -> the env files its compose service is given, from the root."""
        cached = getattr(self, "_compose_env_by_name", None)
        if cached is None:
            env_files: dict[tuple[str | None, str], set[str]] = defaultdict(set)
            for f in self.by_kind["compose.env_file"]:
                env_files[(f.repository, (f.get("owner") or "").lower())].add(
                    self.env_file_path(f))
            cached = self._compose_env_by_name = dict(env_files)
        return cached

    def served_on(self, port: int | None, owner: str) -> str | None:
        """The one component (other than `owner`) that serves on `port`: its ``server.port``, a
        container port its deployment declares, or its Dockerfile's EXPOSE."""
        if port is None or getattr(self, "ports_served", None) is None:
            return None
        serving = self.ports_served.get(port, set())
        if owner in serving:
            return None  # localhost on its own port is the component itself
        if len(serving) > 1:  # localhost:4317 from a developer's machine: the one publishing it there
            serving = serving & self.ports_published.get(port, set())
        if not serving and self._server_on_the_machine(owner):
            # a program run on the machine itself reaching a compose service through the host port it publishes
            # (`localhost:5555` for `ports: ["5555:5432"]`)
            serving = self.ports_published.get(port, set()) - {owner}
        return next(iter(serving)) if len(serving) == 1 else None

    def _server_on_the_machine(self, owner: str) -> bool:
        """Is `owner` a server that no compose file runs (started on the machine by hand)?  A library's, a browser
        app's or a client app's settings are not: their `localhost` is the user's machine."""
        comp = self.model.components.get(owner)
        if comp is None or comp.kind not in ("service", "gateway") or comp.attributes.get("deployment") == "compose":
            return False
        return bool(comp.ports or comp.attributes.get("exposed")) \
            or any(self.owner_of(f.repository, f.path) == owner for f in self.by_kind["server.start"])

    def index_served_ports(self) -> None:
        """Which components serve on which port (read once, before values are resolved): a listen
        setting of their own (``server.port``, ``micronaut.server.port: ${SERVICE_PORT:8081}``), a
        container port their deployment declares, else the default port of their image (a Consul
        container on the host network serves 8500 without declaring it)."""
        served: dict[int, set[str]] = defaultdict(set)
        for f in self.by_kind["config.property"]:
            port = listen_port_value(f.get("value") or "")
            if port and not f.get("profile") and listens_by_key(f.get("name") or "", f.path):
                o = self.owner_of(f.repository, f.path)
                if o:
                    served[port].add(o)
        published: dict[int, set[str]] = defaultdict(set)
        for c in self.model.components.values():
            if not c.attributes.get("ports") and c.attributes.get("image"):
                for port in image_ports(c.attributes["image"]):
                    served[port].add(c.id)
            for p in re.split(r"[,\s]+", c.attributes.get("ports", "")):
                inner = p.split("/")[0].rsplit(":", 1)[-1]
                if inner.isdigit():
                    served[int(inner)].add(c.id)
                host = p.split("/")[0].rsplit(":", 2)[-2] if p.count(":") >= 1 else ""
                if host.isdigit():
                    published[int(host)].add(c.id)
        self.ports_served = served
        self.ports_published = published

    def mail_server(self, owner: str, host: str, chain: list[Evidence]) -> None:
        """``spring.mail.host: smtp.gmail.com``, ``SMTP_HOST``: the mail server the component sends through."""
        target = self.alias.get(host)
        if target is None:
            if host in LOCAL_HOSTS or re.match(r"^\d+(\.\d+){3}$", host) or RESERVED_EXAMPLE.search(host):
                return
            target = self.add_component(host, "external", None, chain[0],
                                        attributes={"host": host, "technology": "smtp"}).id
        self.connect(owner, target, "tcp", chain, attributes={"via": "mail server"})

    _REPLICA = re.compile(r"^(?P<scheme>[a-z]+://)(?P<host>[A-Za-z0-9_.-]+?)(?P<rest>(:\d+)?(/.*)?)$")

    def _replica_host(self, value: str) -> str:
        """A compose replica's container name (``saga-example_saga-account_2``, ``shop-api-1``: project, service,
        number, as Compose names the containers of a scaled service) as the service's own name."""
        m = self._REPLICA.match(value)
        if m is None or m.group("host").lower() in self.alias:
            return value
        host = m.group("host").lower()
        numbered = re.match(r"^(.+?)[_-]\d{1,3}$", host)
        if numbered is None:
            return value
        stem = numbered.group(1)
        services = {name for _repo, name in self._compose_services()}
        for i, ch in enumerate(stem):
            if ch in "_-" and stem[i + 1:] in services and stem[i + 1:] in self.alias:
                return m.group("scheme") + stem[i + 1:] + m.group("rest")
        return value

    def monitoring_targets(self) -> None:
        """Prometheus ``scrape_configs`` targets and Grafana datasource URLs: the monitoring component
        (the one built from or mounting that file's folder) reads from each target it names."""
        self._kubernetes_discovered_targets()
        for f in self.by_kind["monitoring.target"]:
            owner = self.configmap_mounter(f) or self.owner_of(f.repository, f.path)
            if f.get("program"):
                owner = self.config_runner(f.get("program") or "", owner)
            if owner is None:
                continue
            if (f.get("via") or "").startswith("prometheus") and not f.get("configmap"):
                owner = self._prometheus_mounting(f, owner)
            value = f.get("value") or ""
            if "${" in value:  # `env("LOKI_URL")`: the deployment's value, which may carry its own scheme
                value = expand_placeholders(value, lambda n: self.setting(owner, f.repository, n))
            if "://" not in value:
                value = f"http://{value}"
            value = self._replica_host(value)
            before = set(self.model.connections)
            self._resolve_value(owner, value, [f.evidence], allow_external=False, origin=f.evidence,
                                introduce=False)
            made = set(self.model.connections) - before
            for k in made:
                self.model.connections[k].attributes["via"] = f.get("via") or "monitoring target"
            if not made and not any(k[0] == owner and f.evidence in c.evidence for k, c in self.model.connections.items()):
                # a target no component answers to (yet): listed, so a process found later can take it
                self.model.unresolved.append(Unresolved(owner, value, f.evidence))

    def _kubernetes_discovered_targets(self) -> None:
        """A Prometheus job discovering the cluster's Services (or pods) and keeping those annotated
        `prometheus.io/scrape: "true"` scrapes the workloads behind each annotated Service (each annotated
        workload): the Prometheus running that configuration reads their metrics."""
        jobs = self.by_kind["monitoring.k8s_scrape"]
        if not jobs:
            return
        running = [(w, w.get("name") or "") for w in self.by_kind["k8s.workload"] if w.get("labels") and w.get("name")]
        for f in sorted(jobs, key=Fact.order):
            owner = self.configmap_mounter(f) or self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            targets: list[tuple[str, Evidence]] = []
            if f.get("kind") == "service":
                for svc in self.by_kind["k8s.service"]:
                    if svc.repository == f.repository and svc.get("scrape"):
                        targets += [(name, svc.evidence) for _w, name in selected_workloads(svc, running)]
            else:
                targets = [(w.get("name") or "", w.evidence) for w in self.by_kind["k8s.workload"]
                           if w.repository == f.repository and w.get("scrape")]
            for name, evidence in sorted(set(targets)):
                target = self.alias.get(name.lower())
                if target is None or target == owner or self.model.components[target].kind == "user":
                    continue
                self.connect(owner, target, "http", [f.evidence, evidence],
                             attributes={"via": f"prometheus kubernetes discovery ({f.get('job') or f.get('kind')})"})

    def configmap_mounter(self, f: Fact) -> str | None:
        """The one workload mounting the ConfigMap a configuration was kept in (`configmap` of the fact), if any."""
        if not f.get("configmap"):
            return None
        mounting = {cid for v in self.by_kind["k8s.config_volume"]
                    if v.repository == f.repository and v.get("configmap") == f.get("configmap")
                    and (cid := self.alias.get((v.get("owner") or "").lower())) is not None}
        return mounting.pop() if len(mounting) == 1 else None

    def _prometheus_mounting(self, f: Fact, owner: str) -> str:
        """Of the deployments mounting the folder of a Prometheus configuration (Prometheus, its
        Alertmanager and a console sharing ``./config``), the one running a Prometheus image reads it;
        the folder's owner otherwise."""
        if PROMETHEUS_IMAGE.search((self.model.components[owner].attributes.get("image") or "").lower()):
            return owner
        running = sorted(c.id for c in self.model.components.values()
                         if PROMETHEUS_IMAGE.search((c.attributes.get("image") or "").lower())
                         and any(r == f.repository and is_under(f.path, root) for r, root in c.source_roots))
        return running[0] if len(running) == 1 else owner

    def config_runner(self, program: str, owner: str | None) -> str | None:
        """The component running a program's configuration file (`program` as a fact names it: an
        Alloy pipeline): the one whose folders hold the file (the container mounting it, the image
        built from its folder), unless that is an application with code of its own (the file kept
        in its repository for a deployment elsewhere); else the one component running the program's
        image; else none."""
        if owner is not None and not self.has_code(self.model.components[owner]):
            return owner
        pattern = PROGRAM_IMAGES.get(program)
        runners = sorted(c.id for c in self.model.components.values()
                         if pattern is not None and pattern.search((c.attributes.get("image") or "").lower()))
        return runners[0] if len(runners) == 1 else None

    def maintenance_code(self, owner: str, f: Fact) -> bool:
        """Is the fact in maintenance code (MAINTENANCE_CODE) of a component whose own code it is not?  A
        deployment built from ``tools/`` runs that folder's code: for it, it is the program's."""
        if any(r == f.repository and is_under(f.path, d) for r, d in self.generator_dirs):
            return True  # a code generator `//go:generate` runs (go_plugins.generator_folders)
        m = MAINTENANCE_CODE.search(f.path)
        if m is None:
            return False
        folder_ = f.path[:m.end()].rstrip("/")
        return not any(r == f.repository and root and is_under(root, folder_)
                       for r, root in self.model.components[owner].source_roots)

    def localstack(self) -> str | None:
        """The one LocalStack (AWS's services emulated on the machine, `localstack/localstack`) the system runs."""
        stacks = sorted(c.id for c in self.model.components.values()
                        if re.search(r"(^|/)localstack(:|$)", c.attributes.get("image") or "", re.I))
        return stacks[0] if len(stacks) == 1 else None

    def sdk_services(self) -> None:
        """A service importing the client library of a hosted service (Stripe, SendGrid, OpenAI,
        Firestore, S3, Key Vault...) calls that service: an external system named by its API host,
        the same node a URL literal of that host would make. A browser app signing users in with a
        hosted identity service's SDK (Firebase Auth, Cognito, Auth0) calls it too."""
        # `from google.cloud import firestore` imports the module google.cloud: the name makes the library
        named = [(f, f"{f.get('module')}.{f.get('name')}") for f in self.by_kind["module.var"] if f.get("name")]
        localstack = self.localstack()
        # (a Rails application's Gemfile gems are loaded at boot, Bundler.require: a gem plugging a hosted service into
        # Rails itself, `gem "mail-notify"` as ActionMailer's delivery method, is used with no line of the application's
        # code naming it; a plain client, `gem "stripe"`, is used where the code calls it, which an import shows)
        gems = [(f, f.get("name") or "") for f in self.by_kind["manifest.dependency"] if f.get("ecosystem") == "ruby"
                and RAILS_DELIVERY_GEM.match(f.get("name") or "")]
        for f, module in sorted([*((f, f.get("module") or "") for f in self.by_kind["import"]), *named, *gems],
                                key=lambda p: (p[0].order(), p[1])):
            found = sdk_service(module)
            if found is None and OBJECT_STORE_LIBRARIES.match(module):
                self._object_store_user(f, module)
                continue
            owner = self.owner_of(f.repository, f.path) if found else None
            if owner is not None and self.maintenance_code(owner, f):
                continue
            if not found or owner is None or self.model.components[owner].kind not in ("service", "gateway", "webapp"):
                continue
            host, names = found
            target = self._hosted_target(host, names)
            if target is None and host.endswith(".amazonaws.com"):
                # the system runs LocalStack (AWS's services emulated on the machine): the AWS client reaches it
                target = localstack
            if target is None and host in ("sqs.amazonaws.com", "sns.amazonaws.com"):
                # a queue or topic client is drawn only to the LocalStack standing in for it: elsewhere it is
                # often one messaging provider of several the operator picks from (SQS beside RabbitMQ)
                continue
            if target is None:
                target = self._hosted_node(host, names, f.evidence)
            elif self._system_code(target):
                continue  # a service of the system with code of its own answers to that name: not the hosted service
            # a store, or a deployment with no code of its own, answering to the name is the hosted service's
            # local stand-in (the Firestore emulator a compose file runs): the client reaches it there
            self.connect(owner, target, "http", [f.evidence], attributes={"via": f"sdk {module}"})
        self._active_storage_services()
        self._fold_object_store_providers()
        self._alternative_object_stores()

    def _hosted_target(self, host: str, names: tuple[str, ...]) -> str | None:
        """The component a hosted service's client reaches: the one answering to its host or names, else for S3
        the system's one S3-compatible store (MinIO) the client is pointed at."""
        target = self.alias.get(host) or next((self.alias[n] for n in names if n in self.alias), None)
        if target is None and host == "s3.amazonaws.com":
            s3 = sorted(c.id for c in self.model.components.values()
                        if c.kind == "database" and c.attributes.get("technology") == "s3")
            target = s3[0] if len(s3) == 1 else None
        return target

    def _system_code(self, cid: str) -> bool:
        """Is `cid` a program of the system with code of its own (answering to a hosted service's name), not a
        store or a stand-in for the hosted service?"""
        comp = self.model.components[cid]
        return comp.kind not in ("external", "database", "cache", "broker") and self.has_code(comp)

    def _hosted_node(self, host: str, names: tuple[str, ...], evidence: Evidence) -> str:
        """The external system of a hosted service, named by its API host."""
        return self.add_component(SDK_PRODUCT_NAMES.get(host, host), "external", None, evidence,
                                  aliases=(*names, host) if host in SDK_PRODUCT_NAMES else names,
                                  attributes={"host": host}).id

    def _active_storage_services(self) -> None:
        """A Rails application whose production environment keeps uploaded files in an Active Storage service
        of a cloud provider (``config.active_storage.service = :amazon`` in ``config/environments/production.rb``,
        ``amazon: {service: S3}`` in ``config/storage.yml``) uses that provider's storage API, through the storage
        library Rails brings, as if it imported the provider's client (the system's own S3-compatible store when
        it deploys one, MinIO).  A production environment choosing between services (``:amazon`` when a bucket's
        keys are set, else ``:local``) leaves it to the operator, and none is drawn."""
        # (repository, config folder) -> the services its production environment assigns, each at its line
        chosen: dict[tuple[str, str], dict[str, Evidence]] = defaultdict(dict)
        for c in sorted(self.by_kind["storage.choice"], key=Fact.order):
            chosen[(c.repository, folder(folder(c.path)))].setdefault(c.get("name") or "", c.evidence)
        for f in sorted(self.by_kind["storage.service"], key=Fact.order):
            picked = chosen.get((f.repository, folder(f.path)), {})
            owner = self.owner_of(f.repository, f.path)
            if set(picked) != {f.get("name")} or owner is None \
                    or self.model.components[owner].kind not in ("service", "webapp"):
                continue
            host, names = ACTIVE_STORAGE_HOSTS[f.get("service") or ""]
            target = self._hosted_target(host, names)
            if target is not None and self._system_code(target):
                continue
            if target is None:
                target = self._hosted_node(host, names, f.evidence)
            self.connect(owner, target, "http", [f.evidence, *picked.values()],
                         attributes={"via": f"Active Storage service {f.get('name')} ({f.get('service')})"})

    def _alternative_object_stores(self) -> None:
        """One module importing the object-storage SDKs of several providers (S3, Cloud Storage, Azure
        Blob: ``StorageService`` picking one by a setting) keeps data in one object store, of whichever
        provider the operator configures: the system's S3-compatible store when it deploys one (MinIO),
        else one ``object-storage`` node. The providers it merely supports are not drawn as calls."""
        hosts: dict[tuple[str, str], dict[str, Evidence]] = defaultdict(dict)
        named = [(f, f"{f.get('module')}.{f.get('name')}") for f in self.by_kind["module.var"] if f.get("name")]
        for f, module in [*((f, f.get("module") or "") for f in self.by_kind["import"]), *named]:
            found = sdk_service(module)
            if found is not None and found[0] in OBJECT_STORE_HOSTS:
                hosts[(f.repository, f.path)].setdefault(found[0], f.evidence)
        files = {k: v for k, v in hosts.items() if len(v) >= 2}
        if not files:
            return
        s3 = sorted(c.id for c in self.model.components.values()
                    if c.kind == "database" and c.attributes.get("technology") == "s3")
        for (repo, path), found in sorted(files.items()):
            owner = self.owner_of(repo, path)
            if owner is None:
                continue
            moved = False
            for host in sorted(found):
                cid = self.alias.get(host)
                key = (owner, cid, "http") if cid else None
                conn = self.model.connections.get(key) if key else None
                if conn is None or {e.path for e in conn.evidence} - {path}:
                    continue  # reached from elsewhere too: a use of that provider of its own
                self.model.connections.pop(key)
                self.created_by.pop(key, None)
                moved = True
                if self.model.components[cid].kind == "external" and not any(cid in k[:2] for k in self.model.connections):
                    self.drop_component(cid)
            if not moved:
                continue
            target = s3[0] if len(s3) == 1 else self.alias.get("object-storage")
            if target is None:
                target = self.add_component("object-storage", "database", None, min(found.values()),
                                            aliases=("object storage",),
                                            attributes={"role": "object storage (the provider is configured)",
                                                        "technology": "s3"}).id
            self.connect(owner, target, "http", sorted(found.values()),
                         attributes={"via": "object storage of a configured provider (" + ", ".join(sorted(found)) + ")"})

    def _fold_object_store_providers(self) -> None:
        """A provider's storage API (``s3.amazonaws.com``) that only users of the system's provider-neutral
        object storage call is that same storage, reached through the provider's own client: one node."""
        store = self.alias.get("object-storage")
        if store is None or not self.model.components[store].attributes.get("role", "").startswith("object storage"):
            return
        users = {k[0] for k in self.model.connections if k[1] == store}
        for host in OBJECT_STORE_HOSTS:
            cid = self.alias.get(host)
            comp = self.model.components.get(cid) if cid else None
            if comp is None or comp.kind != "external":
                continue
            links = sorted(k for k in self.model.connections if cid in (k[0], k[1]))
            if any(k[1] != cid or k[0] not in users for k in links):
                continue  # someone reaches the provider without the neutral library: keep it apart
            for k in links:
                conn = self.model.connections.pop(k)
                self.created_by.pop(k, None)
                self.connect(conn.source, store, conn.protocol, sorted(conn.evidence), kind=conn.kind,
                             attributes=dict(conn.attributes))
            del self.model.components[cid]
            self.created_by.pop(cid, None)
            for a in [a for a, t in self.alias.items() if t == cid]:
                self.alias[a] = store

    def _object_store_user(self, f: Fact, module: str) -> None:
        """A service importing a provider-neutral object-storage library keeps data in a bucket: the
        system's object store (one the deployment runs, like MinIO, else one `object-storage` node)."""
        owner = self.owner_of(f.repository, f.path)
        if owner is None or self.model.components[owner].kind not in ("service", "gateway"):
            return
        stores = sorted(c.id for c in self.model.components.values()
                        if c.kind == "database" and c.attributes.get("technology") == "s3")
        target = stores[0] if len(stores) == 1 else self.alias.get("object-storage")
        if target is None:
            target = self.add_component("object-storage", "database", None, f.evidence, aliases=("object storage",),
                                        attributes={"role": "object storage (the provider is configured)",
                                                    "technology": "s3"}).id
        self.connect(owner, target, "http", [f.evidence], attributes={"via": f"object storage library {module}"})

    def _constant_users(self, f: Fact, owner: str) -> list[tuple[str, list[Evidence]]]:
        """For a literal that is a named constant (``DefaultRepoServerAddr = "repo-server:8081"`` in a
        shared ``common`` package) used by code in other files (a flag default
        ``common.DefaultRepoServerAddr`` in a server's command): the components whose code uses it,
        each with the lines using it. The address is theirs, and the lines say which of a program's
        processes uses it; the package that only declares it calls nobody. Empty when it is used nowhere
        else (then the declaring component is the caller, as before)."""
        names = self._constant_names.get((f.repository, f.path, f.line))
        if not names:
            return []
        users: dict[str, set[Evidence]] = defaultdict(set)
        for name in names:
            declared = self._declared_at.get((f.repository, name), [])
            for site in self._name_uses.get((f.repository, name), []):
                # (a name several modules declare, each its own `config.SettingMongoDefault`: a use takes the
                # declaration nearest it, the one sharing the longest folder path)
                if len(declared) > 1 and _shared_depth(f.path, site.path) < max(_shared_depth(d, site.path)
                                                                             for d in declared):
                    continue
                user = self.owner_of(site.repository, site.path) if site.path != f.path else None
                if user is not None:
                    users[user].add(site)
        return [(u, sorted(sites)[:5]) for u, sites in sorted(users.items())]

    @property
    def _constant_names(self) -> dict[tuple[str, str, int], list[str]]:
        """(repository, path, line) -> names of the string constants declared on that line."""
        if self._constants_by_line is None:
            self._constants_by_line = defaultdict(list)
            for c in self.by_kind["const.string"]:
                if c.get("name"):
                    self._constants_by_line[(c.repository, c.path, c.line)].append(c.get("name") or "")
        return self._constants_by_line

    @property
    def _declared_at(self) -> dict[tuple[str, str], list[str]]:
        """(repository, constant name) -> the files declaring a string constant of that name."""
        if self._declarations is None:
            self._declarations = defaultdict(list)
            for c in self.by_kind["const.string"]:
                key = (c.repository, c.get("name") or "")
                if key[1] and c.path not in self._declarations[key]:
                    self._declarations[key].append(c.path)
        return self._declarations

    @property
    def _name_uses(self) -> dict[tuple[str, str], list[Evidence]]:
        """(repository, constant name) -> lines whose call arguments or assigned expressions name it
        (``common.DefaultRepoServerAddr``, ``DEFAULT_URL``)."""
        if self._uses_by_name is None:
            declared = {(c.repository, c.get("name") or "") for c in self.by_kind["const.string"] if c.get("name")}
            self._uses_by_name = defaultdict(list)
            for v in [*self.by_kind["value.invoke"], *self.by_kind["value.assign"]]:
                text = v.get("args") or v.get("expr") or ""
                for word in set(re.findall(r"(?<![\w\"'])([A-Za-z_]\w*)(?![\w\"'(])", text)):
                    if (v.repository, word) in declared:
                        self._uses_by_name[(v.repository, word)].append(v.evidence)
        return self._uses_by_name

    _constants_by_line: dict[tuple[str, str, int], list[str]] | None = None
    _uses_by_name: dict[tuple[str, str], list[Evidence]] | None = None
    _declarations: dict[tuple[str, str], list[str]] | None = None

    def code_connections(self) -> None:
        client_lines = {(f.repository, f.path, f.line) for f in self.by_kind["http.client"]}
        # a URL given as an API client's base address in a configuration's defaults (`BaseURL:
        # "https://api.themoviedb.org/3"` in the struct a config constructor returns): what the client built from it
        # calls, like a URL in the call.  (A module constant of that name is as often an optional integration's, or a
        # link a page shows: Flagsmith's LAUNCH_DARKLY_API_BASE_URL, a contact page's baseUrl; not counted.)
        client_lines |= {(f.repository, f.path, f.line) for f in self.by_kind["value.field"]
                         if BASE_URL_NAME.search(f.get("name") or "") and re.match(r"""^[`"']https?://""", f.get("expr") or "")}
        client_lines |= {(f.repository, f.path, f.line) for f in self.by_kind["value.invoke"]
                         if CLIENT_CONSTRUCTOR.search((f.get("callee") or "").strip())
                         and re.match(r"""^\(\s*(base_url\s*=\s*)?[`"']https?://""", f.get("args") or "")}
        client_lines |= {(f.repository, f.path, f.line) for f in self.by_kind["value.assign"]
                         if (m := CLIENT_BUILT.match(f.get("expr") or "")) and CLIENT_CONSTRUCTOR.search(m.group(1))}
        env_default_lines = {(f.repository, f.path, f.line) for f in self.by_kind["env.read"] if f.get("default")}
        browser_urls = {(f.repository, f.path, f.line, f.get("value")) for f in self.by_kind["string.browser_url"]}
        for f in [*self.by_kind["string.url"], *self.by_kind["string.hostport"], *self.by_kind["string.dsn"]]:
            if (f.repository, f.path, f.line) in env_default_lines:
                continue  # handled with its environment variable
            if (f.repository, f.path, f.line, f.get("value")) in browser_urls:
                continue  # .redirectUri("https://..."): where the user's browser is sent, not a call
            if self.in_browser(f):
                continue
            owner = self.owner_of(f.repository, f.path)
            if owner is None or self.withheld(owner, f.evidence) or self.maintenance_code(owner, f):
                continue  # (withheld: a literal naming callers, config.caller-settings)
            in_call = (f.repository, f.path, f.line) in client_lines
            for user, sites in self._constant_users(f, owner) or [(owner, [])]:
                self._resolve_value(user, f.get("value") or "", [f.evidence, *sites],
                                    allow_external=in_call, origin=f.evidence)

    def driver_connections(self) -> None:
        # an import of a driver, or a connection URL the code builds from settings
        # (f"postgresql+psycopg2://{user}:{pw}@{DATABASE_HOSTNAME}:{port}/{name}"): the scheme names the store's
        # technology while the host stays a setting nothing here sets
        uses = [(f, tech_for_module(f.get("module") or ""), f"driver {f.get('module')}") for f in self.by_kind["import"]]
        # a Ruby application's gems: Bundler loads them all, so the Gemfile is where its drivers are named
        uses += [(f, tech_for_gem(f.get("name") or ""), f"gem {f.get('name')}") for f in self.by_kind["manifest.dependency"]
                 if f.get("ecosystem") == "ruby"]
        for f in self.by_kind["value.assign"]:
            m = DSN_TEMPLATE.match(f.get("expr") or "")
            if m and SCHEME_TECH.get(m.group(1).lower()):
                uses.append((f, SCHEME_TECH[m.group(1).lower()], f"connection URL {m.group(1)}:// built from settings"))
        for f, tech, via in uses:
            owner = self.owner_of(f.repository, f.path) if tech else None
            if not tech or owner is None or self.model.components[owner].kind == "library":
                continue  # a library does not run: the services using it reach the store
            if any(c.source == owner and self.model.components[c.target].attributes.get("technology") == tech
                   for c in self.model.connections.values()):
                continue
            candidates = sorted(c.id for c in self.model.components.values()
                                if c.attributes.get("technology") == tech and c.id != owner)
            if len(candidates) == 1:
                self.connect(owner, candidates[0], TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                             attributes={"via": via})

    def log_driver_connections(self) -> None:
        """A compose service whose logging driver ships its output to a collector of the system
        (``driver: syslog``, ``syslog-address: tcp://localhost:1514`` on the host where the log container
        publishes 1514; ``gelf-address: udp://logstash:12201``) sends its logs there: a connection."""
        from repomodeler.graph.catalog import LOCAL_HOSTS
        from repomodeler.graph.values import parse_hosts

        for f in self.by_kind["compose.log_target"]:
            source = self.alias.get((f.get("owner") or "").lower())
            refs = parse_hosts(f.get("address") or "")
            if source is None or not refs:
                continue
            host, port = refs[0].host, refs[0].port
            if host in LOCAL_HOSTS:  # the daemon's host: the one container publishing that port there
                publishing = self.ports_published.get(port, set()) - {source} if port else set()
                target = next(iter(publishing)) if len(publishing) == 1 else self.served_on(port, source)
            else:
                target = self.alias.get(host)
            if target and target != source:
                self.connect(source, target, f.get("driver") or "tcp", [f.evidence],
                             attributes={"via": f"{f.get('driver')} logging driver"})

    def depends_connections(self) -> None:
        between: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)  # one scan, not one per entry
        for k in self.model.connections:
            between[(k[0], k[1])].append(k)
        for f in self.by_kind["compose.depends"]:
            source = self.alias.get((f.get("owner") or "").lower())
            target = self.alias.get((f.get("target") or "").lower())
            if not source or not target or source == target:
                continue
            existing = sorted(between.get((source, target), ()))
            if existing:
                self.model.connections[existing[0]].evidence.add(f.evidence)
                continue
            tcomp = self.model.components[target]
            waits_for_store = self.application_image(self.model.components[source], mounted_ok=True) \
                and not self.has_code(tcomp) and (
                tcomp.kind in ("database", "cache", "broker") or bool(tcomp.attributes.get("technology")))
            # (waiting for a store to answer its health check, `condition: service_healthy`, is waiting to use it:
            # Leantime's server on its MySQL, the address in an env file the operator writes from a sample)
            waits_for_store = waits_for_store or (
                f.get("condition") == "service_healthy" and not self.has_code(tcomp)
                and tcomp.kind in ("database", "cache", "broker") and bool(tcomp.attributes.get("technology")))
            named = self._store_setting(f, tcomp) if not f.get("link") and not waits_for_store else None
            if named is None and not f.get("link") and not waits_for_store:
                named = self._store_host_setting(f, tcomp)
            if not f.get("link") and not waits_for_store and named is None:
                # depends_on orders start-up; only `links` declares that one container reaches another, except
                # for the system's own published image (its code and settings are not here), whose built-in
                # defaults reach the stores and mail relay it waits for (plausible -> plausible_db), and for
                # a service handed a setting named for the store it waits for (REDISPASS beside
                # depends_on: redis-mailcow)
                continue
            tech = self.model.components[target].attributes.get("technology", "")
            self.connect(source, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence, *([named] if named else [])],
                         kind="depends_on", attributes={"via": "depends_on and a setting for it" if named else "depends_on"})
            between[(source, target)] = [(source, target, TECH_PROTOCOL.get(tech, "tcp"))]

    def _store_host_setting(self, depends: Fact, store: Component) -> Evidence | None:
        """The line of a setting the compose service waiting for `store` is handed whose value names the store's
        service as a host, in whatever form the program parses it (Mayan's ``MAYAN_DATABASES: "{...'HOST':
        'postgresql'}"`` and ``MAYAN_DOCKER_WAIT: "postgresql:5432 redis:6379"``): waiting for it and being told
        where it is.  The address rules pass over such a value when no code here reads the setting by that name
        (it is read under a prefix, or by the entrypoint script); None otherwise."""
        if store.kind not in ("database", "cache", "broker") or not store.attributes.get("technology"):
            return None
        host = re.escape((depends.get("target") or "").lower())
        if not host:
            return None
        mention = re.compile(rf"(^|[\s'\"@/,=]){host}(:\d+|['\"]|\s|,|/|$)")
        for g in self._settings_of_waiting(depends):
            if mention.search((g.get("value") or "").lower()):
                return g.evidence
        return None

    def _settings_of_waiting(self, depends: Fact) -> list[Fact]:
        """The settings the compose service that waits (depends_on) is handed: in its compose file, then in the env
        files it is given."""
        owner = (depends.get("owner") or "").lower()
        index = self._env_by_owner()
        return [*index.get((depends.repository, depends.path, owner), ()), *index.get((depends.repository, "", owner), ())]

    def _store_setting(self, depends: Fact, store: Component) -> Evidence | None:
        """The line of a setting the compose service that waits for `store` (depends_on) is handed, named
        for the store's technology (``REDISPASS`` for a Redis, ``MONGO_DB`` for a MongoDB) or, for a
        database, for a database (``DBNAME``, ``DB_USER``), that is a login (a password, a user, a database
        name; not a port or a pool size) and no address (the address rules place those, and one may name
        another host, ``REDIS_ADDR=host.docker.internal:6379``):
        waiting for the store and being given what it takes to log in to it say together that the
        service uses it. None otherwise."""
        tech = store.attributes.get("technology", "")
        if store.kind not in ("database", "cache", "broker") or not tech:
            return None
        words = tuple(w.upper() for w in (tech, *TECH_WORDS.get(tech, ())) if w != "jdbc")
        for g in self._settings_of_waiting(depends):
            value = g.get("value") or ""
            key_name = (g.get("name") or "").upper()
            secret_file = key_name.endswith("_FILE") and value.startswith("/run/secrets/")  # (MYSQL_USER_FILE)
            if not secret_file and (parse_hosts(value) or re.search(r"[:/@]", re.sub(r"\$\{[^}]*\}", "", value))):
                continue  # an address (REDIS_ADDR=host.docker.internal:6379): the address rules place it
            if not re.search(r"PASS|PWD|USER|NAME|SECRET|AUTH|TOKEN|DATABASE", key_name):
                continue  # a port, a pool size, a timeout: tuning, not what it takes to log in
            tokens = key_name.split("_")
            if any(t.startswith(words) for t in tokens if words) or (store.kind == "database" and any(
                    t.startswith("DB") or t == "DATABASE" for t in tokens)):
                return g.evidence
        return None

    def library_dependencies(self) -> None:
        """Package-manifest dependencies on a library of the system become build-time edges."""
        libraries = {}
        for c in self.model.components.values():
            if c.kind == "library":
                libraries[dependency_key(c.attributes.get("package", c.name))] = c.id
        # A devDependency on a library of the system is a build-time edge as well (an app that
        # imports its API package's types); devDependencies on anything else are tooling.
        for f in sorted([*self.by_kind["manifest.dependency"], *self.by_kind["manifest.dev_dependency"]], key=Fact.order):
            lib = libraries.get(dependency_key(f.get("name") or ""))
            owner = self.owner_of(f.repository, f.path)
            if lib and owner and owner != lib:
                self.connect(owner, lib, "library", [f.evidence], kind="depends_on",
                             attributes={"via": f"{f.get('ecosystem') or 'package'} dependency"})

    def proxy_owner(self, f: Fact) -> str | None:
        """The component a proxy configuration file belongs to (else the repository's one gateway).  A file
        beside the configuration a proxy deployment mounts (the other of ``nginx-key.conf`` and
        ``nginx-x509.conf``) is that proxy's, not the code module's whose folder holds it."""
        mounter = self.configmap_mounter(f)  # (an nginx file kept in a ConfigMap: the workload mounting it)
        if mounter is not None:
            return mounter
        owner = self.owner_of(f.repository, f.path)
        comp = self.model.components.get(owner) if owner else None
        if comp is None or (comp.kind != "gateway" and not self._PROXY_IMAGE.search(comp.attributes.get("image", ""))):
            beside = self._proxy_mounting(f.repository, f.path.rpartition("/")[0]) or self._proxy_mounting_missing(f)
            if beside is not None:
                return beside
            if TEMPLATE_FILE.search(f.path):
                # an installer's template of the site (NginxConfig.hbs, nginx.http.conf.jinja in the setup
                # tool's folder) configures the one proxy the system deploys, not the installer
                proxies = sorted(c.id for c in self.model.components.values() if c.repository == f.repository
                                 and (c.kind == "gateway" or self._PROXY_IMAGE.search(c.attributes.get("image", ""))))
                if len(proxies) == 1:
                    return proxies[0]
        if owner is None:
            gateways = sorted(c.id for c in self.model.components.values()
                              if c.kind == "gateway" and c.repository == f.repository)
            owner = gateways[0] if len(gateways) == 1 else None
        elif comp is not None and comp.kind == "service" and not self._PROXY_IMAGE.search(comp.attributes.get("image", "")) \
                and self._runs_proxy(f.repository) and not self._site_file_used(f):
            # a site file for an operator's own web server (external_proxy_config/nginx/app.site.conf, "use this
            # instead of the nginx service"), where the repository runs its proxy: nothing here runs it, and the
            # program whose folder holds it is no proxy
            return None
        elif comp is not None and comp.kind == "service" and not self._PROXY_IMAGE.search(comp.attributes.get("image", "")) \
                and self._variant_mounted(f):
            # the site of the proxy an opt-in variant's compose file runs (oauth2proxy/nginx.conf mounted by
            # oauth2proxy/docker-compose-oauth2proxy.yml): that stack's, not the program's whose folder holds it
            return None
        return owner

    def _variant_mounted(self, f: Fact) -> bool:
        """Does an opt-in variant's compose file mount the configuration `f` is in (the file or its folder)?"""
        folder_ = f.path.rpartition("/")[0]
        return any(repo == f.repository and (is_under(f.path, mounted) or folder_ == mounted)
                   for repo, mounted in self.variant_mounts)

    def _runs_proxy(self, repo: str) -> bool:
        """Does the repository deploy a web server or proxy of its own (a gateway, a proxy image)?"""
        return any(c.repository == repo and (c.kind == "gateway" or self._PROXY_IMAGE.search(c.attributes.get("image", "")))
                   for c in self.model.components.values())

    def _site_file_used(self, f: Fact) -> bool:
        """Does a recipe copy the web server configuration `f` is in, or a compose service mount it?"""
        folder_ = f.path.rpartition("/")[0]
        for c in self.by_kind["docker.copy"]:
            if c.repository == f.repository and any(
                    s.strip("./") and (f.path.endswith(s.strip("./")) or folder_.endswith(s.strip("./").rstrip("/"))
                                       # a folder the recipe copies whole (COPY conf/etc/ /etc/ beside the Dockerfile)
                                       or is_under(f.path, norm_path(join_path(folder(c.path), s.strip()))))
                    for s in (c.get("sources") or "").split(",")):
                return True
        for c in self.by_kind["compose.mount"]:
            src = (c.get("source") or "").strip("./").rstrip("/")
            if c.repository == f.repository and src and (f.path.endswith(src) or folder_.endswith(src)):
                return True
        return False

    def virtual_hosts(self) -> None:
        """A reverse proxy answers for the host names of its server blocks (``server_name
        api.shop.local;``): a URL naming such a host reaches the proxy, not an external system.
        Single-label names (``server_name orders;``) are container names the platform's DNS gives
        to the containers themselves, so only dotted names count, and a name a component already
        answers to keeps it."""
        for f in self.by_kind["proxy.route"]:
            names = [n.lower() for n in (f.get("server_names") or "").split() if "." in n and "*" not in n
                     and n.lower() not in LOCAL_HOSTS and not re.match(r"^\d+\.\d+\.\d+\.\d+$", n)]
            owner = self.proxy_owner(f) if names else None
            if owner is None:
                continue
            comp = self.model.components[owner]
            for n in names:
                if n not in self.alias:
                    self.alias[n] = owner
                    comp.aliases.add(n)
                    comp.evidence.add(f.evidence)
                    self.credit(comp.rules)

    def proxies(self) -> None:
        """Reverse proxies (nginx, httpd, Caddy): the proxy forwards to the upstreams it names."""
        site_servers: dict[tuple[str, str], str | None] = {}
        for f in self.by_kind["proxy.route"]:
            if f.get("named_upstream"):
                continue  # its servers are facts of their own
            if (f.repository, f.path) not in site_servers:
                site_servers[(f.repository, f.path)] = self._site_server(f)
            owner = site_servers[(f.repository, f.path)] or self.proxy_owner(f)
            if owner is not None and (f.get("upstream") or "").startswith("unix:"):
                self._socket_upstream(owner, f)
                continue
            if owner is None:
                self.model.unresolved.append(Unresolved("(proxy)", f.get("upstream") or "", f.evidence))
                continue
            comp = self.model.components[owner]
            if comp.kind == "service":
                comp.kind = "gateway"
            # an environment variable a template gets filled with (envsubst: `proxy_pass $BACKEND_URI/api`;
            # nginx's own variables are lower case): the value the deployment or the entrypoint gives it
            value = re.sub(r"\$([A-Z][A-Z0-9_]*)", r"${\1}", f.get("upstream") or "")
            if "://" not in value and not value.startswith("${"):
                value = f"http://{value}"
            attrs = {"via": "reverse proxy" + (f" {f.get('location')}" if f.get("location") else "")}
            before = set(self.model.connections)
            self._resolve_value(owner, value, [f.evidence], allow_external=True, origin=f.evidence)
            for key in set(self.model.connections) - before:
                self.model.connections[key].attributes.update(attrs)

    _PROXY_IMAGE = re.compile(r"(^|/)(nginx|traefik|envoy|haproxy|kong|caddy|httpd|apache)", re.I)

    def _proxy_mounts(self, repo: str) -> list[tuple[str, str]]:
        """(proxy deployment, repository path it mounts) for the proxy deployments (a gateway, a proxy image)
        of the repository; a mount whose path holds a variable is left out."""
        out = []
        for m in self.by_kind["compose.mount"]:
            cid = self.alias.get((m.get("owner") or "").lower()) if m.repository == repo else None
            comp = self.model.components.get(cid) if cid else None
            if cid is None or comp is None or not (
                    comp.kind == "gateway" or self._PROXY_IMAGE.search(comp.attributes.get("image", ""))):
                continue
            source = COMPOSE_DEFAULT.sub(lambda x: x.group(1), m.get("source") or "")
            base = m.get("compose_dir") or m.path.rpartition("/")[0]
            if "$" not in source:
                out.append((cid, norm_path(PurePosixPath(base).joinpath(source).as_posix())))
        return out

    def _proxy_mounting(self, repo: str, folder_: str) -> str | None:
        """The one proxy deployment (a gateway, or a proxy image) mounting a file of that folder."""
        found = {cid for cid, path in self._proxy_mounts(repo) if path.rpartition("/")[0] == folder_}
        return found.pop() if len(found) == 1 else None

    def _proxy_mounting_missing(self, f: Fact) -> str | None:
        """The one proxy deployment mounting, by this file's name, a file the repository does not hold
        where it mounts it from (compose/ mounts ./Caddyfile; the install script copies docker/Caddyfile
        there): this file is what it runs with."""
        name = PurePosixPath(f.path).name
        found = {cid for cid, path in self._proxy_mounts(f.repository)
                 if PurePosixPath(path).name == name and (f.repository, path) not in self.inventory_paths}
        return found.pop() if len(found) == 1 else None

    def _site_server(self, f: Fact) -> str | None:
        """A site configuration for a web server that nothing here runs (no Dockerfile copies it, no
        compose service mounts it, it sits in no proxy's code): the installation guide's web server in
        front of the application, a gateway named after the server software (``nginx``)."""
        software = f.get("software")
        owner = self.owner_of(f.repository, f.path)
        comp = self.model.components.get(owner) if owner else None
        if not software or f.get("configmap") or (comp is not None and comp.kind == "webapp"):
            # (a file kept in a ConfigMap is a cluster workload's, see proxy_owner)
            return None
        if self._runs_proxy(f.repository):
            return None  # the repository runs a proxy: the configuration is that proxy's
        if HARNESS_DIR.search(f.path):
            return None  # a test harness's balancer (integration/ops/overrides/nginx.conf), not the installation's
        if self._variant_mounted(f):
            return None  # an opt-in variant's compose file runs it (the multi-role stack's load balancer)
        if self._site_file_used(f):
            return None
        existing = self.alias.get(software)
        if existing is not None:
            return existing if self.model.components[existing].kind == "gateway" else None
        return self.add_component(software, "gateway", f.repository, f.evidence,
                                  attributes={"role": SITE_SERVER_ROLE}).id

    def _socket_upstream(self, owner: str, f: Fact) -> None:
        """``server unix:/srv/app/tmp/sockets/puma.sock``: the application server listening on that socket,
        the one component of the repository that serves HTTP (or the one whose command names the socket)."""
        stem = (f.get("upstream") or "").rsplit("/", 1)[-1].split(".")[0].lower()
        serving = sorted(c.id for c in self.model.components.values()
                         if c.repository == f.repository and c.kind == "service" and "http" in c.ports and c.id != owner)
        named = [c for c in serving if stem and stem in (self.model.components[c].attributes.get("command") or "").lower()]
        target = named[0] if len(named) == 1 else serving[0] if len(serving) == 1 else None
        if target is None:
            self.model.unresolved.append(Unresolved("(proxy)", f.get("upstream") or "", f.evidence))
            return
        self.connect(owner, target, "http", [f.evidence], attributes={"via": f"reverse proxy to the socket {stem}"})

    def traefik(self) -> None:
        """Traefik routes to the compose services that carry `traefik.*` labels."""
        proxies = sorted(c.id for c in self.model.components.values()
                         if "traefik" in (c.attributes.get("image") or "").lower())
        if len(proxies) != 1:
            return
        for f in self.by_kind["compose.label"]:
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None or owner == proxies[0] or not (f.get("name") or "").startswith("traefik."):
                continue
            if f.get("name") == "traefik.enable" and (f.get("value") or "").lower() == "false":
                continue
            self.connect(proxies[0], owner, "http", [f.evidence], attributes={"via": "traefik labels"})

    # nginx-proxy (nginxproxy/nginx-proxy, jwilder/nginx-proxy): an nginx that writes its own routes from the
    # containers it sees on the Docker socket, one per container carrying VIRTUAL_HOST
    _NGINX_PROXY_IMAGE = re.compile(r"(^|/)(nginx-proxy|nginxproxy/nginx-proxy)(:|$)", re.I)

    def nginx_proxy(self) -> None:
        """nginx-proxy routes to the compose services whose environment carries ``VIRTUAL_HOST`` (the host
        name it serves them under, often a variable of the operator's domain): no route is written in any
        file, the proxy generates them from the running containers' environment."""
        proxies = sorted(c.id for c in self.model.components.values()
                         if self._NGINX_PROXY_IMAGE.search(c.attributes.get("image") or ""))
        if len(proxies) != 1:
            return
        for f in sorted(self.by_kind["config.env"], key=Fact.order):
            if f.get("source") != "compose" or f.get("name") != "VIRTUAL_HOST" or not (f.get("value") or "").strip():
                continue
            owner = self.alias.get((f.get("owner") or "").lower())
            if owner is None or owner == proxies[0]:
                continue
            self.connect(proxies[0], owner, "http", [f.evidence], attributes={"via": "nginx-proxy VIRTUAL_HOST"})

    def ingress(self) -> None:
        """A Kubernetes Ingress is a routing rule the cluster's ingress controller (or the cloud's load
        balancer) carries out, not a running part of the system: the services it routes to are front
        doors, entered from outside through that Ingress (see `entry_points`)."""
        declared = {(f.repository, f.path, f.get("ingress")): f.evidence for f in self.by_kind["k8s.ingress_resource"]}
        for f in self.by_kind["k8s.ingress"]:
            if self.in_k8s_variant(f):
                continue  # added only by an overlay or optional component (a production Ingress)
            target = self.alias.get((f.get("target") or "").lower())
            if not target:
                continue
            head = declared.get((f.repository, f.path, f.get("ingress")), f.evidence)
            self.credit(self.model.components[target].rules)
            self.ingress_routes[target].append((f.get("ingress") or "ingress", f.get("route") or "", head, f.evidence))

    def mesh_gateways(self) -> None:
        """An Istio Gateway is carried out by the mesh's ingress gateway pods its selector picks (installed with
        Istio: `istio: ingressgateway` is istio-ingressgateway), not by anything the repository runs: a gateway
        component the outside enters through (a front door), routing to the Services that the VirtualServices
        bound to that Gateway name (`bookinfo.default.svc.cluster.local`)."""
        gateways: dict[tuple[str, str], str] = {}
        # a Gateway routing to a workload a LoadBalancer Service already publishes is an optional way in (the
        # mesh set up beside a deployment that stands without it): the published Service stays the front door
        published = {cid for f in self.by_kind["k8s.service"] if f.get("type") == "LoadBalancer"
                     for cid in [self.alias.get((f.get("name") or "").lower())] if cid}
        # (... or a compose file publishes on the host: the system runs without the mesh)
        published |= {c.id for c in self.model.components.values() if c.attributes.get("deployment") == "compose"
                      and any(":" in p for p in (c.attributes.get("ports") or "").split(","))}
        optional = {(f.repository, (f.get("gateway") or "").rsplit("/", 1)[-1]) for f in self.by_kind["k8s.mesh_route"]
                    if self.alias.get((f.get("target") or "").split(".")[0].lower()) in published}
        for f in sorted(self.by_kind["k8s.mesh_gateway"], key=Fact.order):
            if self.in_k8s_variant(f) or (f.repository, f.get("gateway") or "") in optional:
                continue
            labels = dict(p.split("=", 1) for p in (f.get("selector") or "").split(",") if "=" in p)
            label = labels.get("istio") or labels.get("app") or next(iter(sorted(labels.values())), "") or "ingressgateway"
            name = label if label.lower().startswith("istio") else f"istio-{label}"
            comp = self.add_component(name, "gateway", f.repository, f.evidence,
                                      attributes={"technology": "istio", "gateway": f.get("gateway") or ""})
            gateways.setdefault((f.repository, f.get("gateway") or ""), comp.id)
            self.ingress_routes[comp.id].append((f.get("gateway") or "gateway", "", f.evidence, f.evidence))
        for f in sorted(self.by_kind["k8s.mesh_route"], key=Fact.order):
            # (a Gateway of another namespace is named `istio-system/shop-gateway`)
            gateway = gateways.get((f.repository, (f.get("gateway") or "").rsplit("/", 1)[-1]))
            host = (f.get("target") or "").split(".")[0].lower()
            target = self.alias.get(host)
            if gateway is None or target is None or self.in_k8s_variant(f):
                continue
            self.connect(gateway, target, "http", [f.evidence],
                         attributes={"via": "Istio VirtualService", "route": f.get("route") or ""})

    # ------------------------------------------------------------------ value resolution
    def resolve_expression(self, owner: str, f: Fact, expr: str) -> list[tuple[str, list[Evidence]]]:
        """Values an expression may take: literals, same-file constants, env reads and their config values,
        Spring ``${key:default}`` placeholders.  Each value comes with the chain of evidence that gave it."""
        values: list[tuple[str, list[Evidence]]] = []
        for m in re.finditer(r"\$\{([A-Za-z0-9_.\-]+)(?::([^}]*))?\}", expr):
            key, default = m.group(1), m.group(2)
            configured = (self.env_values.get((owner, key)) or self.env_values.get((owner, env_form(key)))
                          or self.env_values.get((owner, key.replace(":", "__"))))
            if configured:
                values.extend((v, [f.evidence, ev]) for v, ev in configured)
            elif default:
                values.append((default, [f.evidence]))
        if parse_hosts(expr):
            values.append((expr, [f.evidence]))
        values.extend(self.built_strings(owner, f, expr))
        m = re.match(r"^\s*([A-Za-z0-9_]+(?::[A-Za-z0-9_]+)+)\s*$", expr)  # ASP.NET "Services:Catalog"
        if m:
            values.extend((v, [f.evidence, ev]) for v, ev in self.env_values.get((owner, m.group(1).replace(":", "__")), []))
        for ident in sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", expr))):
            for c in self.consts.get((f.repository, f.path, ident), []):
                values.append((c.get("value") or "", [f.evidence, c.evidence]))
            configured = self.env_values.get((owner, ident))
            if configured:
                values.extend((v, [f.evidence, ev]) for v, ev in configured)
        # The expression evaluated through the names it uses, wherever their scope puts them (constants
        # of other files, local variables, concatenation and format calls): URLs whose host is known.
        known = {v for v, _c in values}
        for value in self.code_values(owner, f, expr):
            if value.text not in known and host_known(value.text):
                known.add(value.text)
                values.append((value.text, [f.evidence, *(e for e in value.chain if e != f.evidence)]))
        return values

    def code_values(self, owner: str, f: Fact, expr: str) -> list[Value]:
        """What an expression of code may evaluate to (see graph/expressions.py), names looked up in the
        constants index by scope and environment reads in the owner's configuration."""
        if not expr.strip() or f.language in ("config", "yaml", "json", "properties", "xml", "toml", ""):
            return []

        def env(name: str, default: str | None) -> list[Value]:
            configured = self.env_values.get((owner, name))
            if configured:
                return [Value(v, (ev,)) for v, ev in configured]
            return [Value(default)] if default is not None else []

        evaluator = Evaluator(lambda name, site, language: self.constants.value_of(
            site.repository, site.path, name, site.line, language), env)
        return evaluator.evaluate(as_expression(expr, f.language), f.evidence, f.language)

    def argument_value(self, owner: str, f: Fact, arg: str) -> tuple[str, list[Evidence]] | None:
        """The one value an argument of a format call has: a literal, a same-file constant, a configured
        setting, or an environment read with its default (``getenv("CART", "cart")``)."""
        arg = arg.strip()
        lit = re.fullmatch(r"""[fbrFBR]?(["'`])([^"'`]*)\1""", arg)
        if lit:
            return lit.group(2), [f.evidence]
        env = re.search(r"""(?:getenv|Getenv|getProperty|get|env)\s*\(\s*["']([A-Za-z0-9_.\-]+)["']\s*(?:,\s*["']([^"']*)["'])?""", arg)
        if env:
            configured = self.env_values.get((owner, env.group(1)))
            if configured:
                return configured[0][0], [f.evidence, configured[0][1]]
            if env.group(2):
                return env.group(2), [f.evidence]
            return None
        ident = re.fullmatch(r"(?:this\.|self\.)?([A-Za-z_][A-Za-z0-9_]*)", arg)
        if ident:
            for c in self.consts.get((f.repository, f.path, ident.group(1)), []):
                return c.get("value") or "", [f.evidence, c.evidence]
            configured = self.env_values.get((owner, ident.group(1)))
            if configured:
                return configured[0][0], [f.evidence, configured[0][1]]
        if re.fullmatch(r"(?:this\.|self\.)?[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*", arg):
            # a constant of another file, a local variable, Config.HOST: the first value fully known
            for value in self.code_values(owner, f, arg):
                if value.known:
                    return value.text, [f.evidence, *(e for e in value.chain if e != f.evidence)]
        return None

    def built_strings(self, owner: str, f: Fact, expr: str) -> list[tuple[str, list[Evidence]]]:
        """URLs built at run time: ``String.format("http://%s/x", host)``, ``fmt.Sprintf``, ``"..." % host``,
        f-strings and template literals.  The argument that fills the host is resolved like any other
        value; when it cannot be, nothing is produced (a placeholder never becomes a host)."""
        out: list[tuple[str, list[Evidence]]] = []
        fmt = re.search(r"""(["'])([a-zA-Z][a-zA-Z0-9+.-]*://[^"']*%[-0-9.]*[sdv][^"']*)\1\s*(?:,|%)\s*\(?(.*)""", expr)
        if fmt:
            args = call_arguments(fmt.group(3))
            chain: list[Evidence] = []
            text = fmt.group(2)
            for i, spec in enumerate(re.findall(r"%[-0-9.]*[sdv]", text)):
                found = self.argument_value(owner, f, args[i]) if i < len(args) else None
                if found is None:
                    break
                text = text.replace(spec, found[0], 1)
                chain.extend(found[1])
            else:
                if parse_hosts(text):
                    out.append((text, sorted(set(chain)) or [f.evidence]))
        templates = [lit[1] for lit in re.findall(r"""[fF]?(["'`])([a-zA-Z][a-zA-Z0-9+.-]*://\$?\{[^"'`]*)\1""", expr)]
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://\$?\{", expr.strip()):
            templates.append(expr.strip())  # a template literal captured without its backticks
        for template in templates:
            text, chain, ok = template, [f.evidence], True
            for m in re.finditer(r"\$?\{([^{}]+)\}", template):
                found = self.argument_value(owner, f, m.group(1))
                if found is None:
                    ok = False
                    break
                text = text.replace(m.group(0), found[0], 1)
                chain.extend(found[1])
            if ok and parse_hosts(text):
                out.append((text, sorted(set(chain))))
        return out

    def client_calls(self) -> None:
        """HTTP client calls: resolve the URL expression to a component and record the endpoint called.

        A Feign method (``feign`` attribute) calls the component its client is named after; an
        http(s) URL to a foreign host reached through a constant introduces an external system."""
        relative: list[Fact] = []
        file_targets: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        for f in self.by_kind["http.client"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None or self.in_browser(f) or self.maintenance_code(owner, f):
                continue
            expr = f.get("url") or ""
            method = http_verb(f.get("method") or "") or ""
            endpoint_path = client_path(expr)
            if expr.startswith("/") and not f.get("feign"):
                relative.append(f)  # a path on a client whose base URL is set elsewhere in the file
                continue
            targets: list[tuple[str, str, list[Evidence]]] = []
            feign = self.alias.get((f.get("feign") or "").lower())
            if feign and feign != owner:
                targets.append((feign, "http", [f.evidence]))
                if expr.startswith("/"):
                    endpoint_path = expr  # a declared path template, not an expression
            named_host = False
            for value, chain in self.resolve_expression(owner, f, expr):
                for ref in parse_hosts(value):
                    named_host = True
                    if ref.host in METADATA_HOSTS:
                        continue  # the cloud instance's metadata endpoint: the platform's, not a dependency
                    target = self.alias.get(ref.host)
                    if target is None and (dns := CLUSTER_DNS.match(ref.host)):
                        # agenda-service.default.svc.cluster.local: the Service of that name in the cluster, never
                        # the internet; of no component here, it is listed unresolved
                        target = self.alias.get(dns.group(1))
                        if target is None and not INGRESS_CONTROLLER.search(ref.host):
                            # (the cluster's ingress controller is drawn apart: frontdoor.ingress-controller)
                            self.model.unresolved.append(Unresolved(owner, value, chain[-1]))
                            continue
                    if target is None and (PLATFORM_APP_HOST.match(ref.host) or OPENSHIFT_ROUTE_HOST.match(ref.host)):
                        target = self.cluster_service(ref.host)  # a Cloud Run service's generated URL, of a component
                    if target is None and ref.scheme in ("http", "https") and "." in ref.host \
                            and ref.host not in LOCAL_HOSTS and not re.match(r"^[\d.]+$", ref.host) \
                            and not RESERVED_EXAMPLE.search(ref.host):
                        target = self.add_component(ref.host, "external", None, chain[-1],
                                                    attributes={"host": ref.host}).id
                    if target is None or target == owner:
                        continue
                    proto = self._protocol(ref, target)
                    targets.append((target, proto if proto != "tcp" else "http", chain))
            if not targets and not named_host and expr.strip() and not self.constants.reads_setting(
                    f.repository, f.path, expr):
                # Nothing tells where this call goes: listed with its expression, never dropped silently.
                self.model.unresolved.append(Unresolved(owner, expr, f.evidence))
            for target, proto, chain in targets:
                file_targets[(f.repository, f.path)].add((target, proto))
                self.connect(owner, target, proto, chain, attributes={"via": "http client"})
                if endpoint_path:
                    conn = self.model.connections[(owner, target, proto)]
                    call = f"{method if method in HTTP_VERBS else 'ANY'} {endpoint_path}"
                    calls = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
                    calls.add(call)
                    conn.attributes["endpoints"] = ", ".join(sorted(calls))

        # Relative calls (@conn.get("/api/quotes"), client.GetAsync("/x") on a BaseAddress client) belong to
        # the one service the file's clients are configured for; with several candidates, none is guessed.
        for f in relative:
            candidates = file_targets.get((f.repository, f.path), set())
            owner = self.owner_of(f.repository, f.path)
            if len(candidates) != 1 or owner is None:
                continue
            target, proto = next(iter(candidates))
            conn = self.model.connections[(owner, target, proto)]
            conn.evidence.add(f.evidence)
            method = http_verb(f.get("method") or "") or ""
            calls = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
            calls.add(f"{method if method in HTTP_VERBS else 'ANY'} {client_path(f.get('url') or '')}")
            conn.attributes["endpoints"] = ", ".join(sorted(calls))

    def config_reads(self) -> None:
        """Spring ``@Value("${orders.url:http://orders:8080}")``, Laravel ``config('services.musicbrainz.endpoint')``
        (the value its ``config/services.php`` sets, or the environment variable it names there) and Feign clients."""
        defaults = {(d.repository, d.get("name") or ""): d for d in sorted(self.by_kind["config.default"], key=Fact.order)}
        for f in self.by_kind["config.read"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            values = self.resolve_expression(owner, f, f.get("expr") or "")
            default = defaults.get((f.repository, f.get("expr") or "")) if not values else None
            if default is not None:
                configured = self.env_values.get((owner, default.get("env") or "")) if default.get("env") else None
                values = [(v, [f.evidence, default.evidence, ev]) for v, ev in configured] if configured else \
                    [(default.get("value") or "", [f.evidence, default.evidence])] if default.get("value") else []
            for value, chain in values:
                self._resolve_value(owner, value, chain, allow_external=True, origin=f.evidence,
                                    setting=f.get("expr") or "")
        library_users = None  # (imports by module, library -> dependents), indexed at the first library's client
        for f in self.by_kind["feign.client"]:
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            name = f.get("name") or ""
            chain = [f.evidence]
            if not name and f.get("name_ref"):  # value = ServiceNameConstants.SYSTEM_SERVICE: the constant's value
                found = self.argument_value(owner, f, f.get("name_ref") or "")
                if found is None:
                    continue
                name, chain = found[0], found[1]
            if "${" in name:  # @FeignClient("${stock.service.name}"): the service the setting names
                name = expand_placeholders(name, lambda n: self.setting(owner, f.repository, n))
            target = self.alias.get(name.lower())
            if target:
                if library_users is None and self.model.components[owner].kind == "library":
                    library_users = self._library_user_index()
                for caller, via in self._feign_callers(f, owner, library_users):
                    if caller != target:
                        self.connect(caller, target, "http", [*chain, *via], attributes={"via": "feign client"})
            elif "://" in name:  # Micronaut's @Client("http://orders:8080"): an address, not a service id
                self._resolve_value(owner, name, [f.evidence], allow_external=True, origin=f.evidence)
            elif f.get("url"):
                for value, chain in self.resolve_expression(owner, f, f.get("url") or ""):
                    self._resolve_value(owner, value, chain, allow_external=True, origin=f.evidence)

    def _library_user_index(self) -> tuple[dict[tuple[str, str], list[Fact]], dict[str, set[str]]]:
        """Import facts by (repository, module) and, for each library component, the components depending on
        it: built once for all the Feign clients kept in libraries."""
        imports: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for i in self.by_kind["import"]:
            imports[(i.repository, i.get("module") or "")].append(i)
        dependents: dict[str, set[str]] = defaultdict(set)  # library -> components depending on it
        for (source, target, _p), conn in self.model.connections.items():
            if conn.kind == "depends_on" and self.model.components[target].kind == "library":
                dependents[target].add(source)
        return imports, dependents

    def _feign_callers(self, f: Fact, owner: str, index: tuple[dict[tuple[str, str], list[Fact]], dict[str, set[str]]]
                       | None) -> list[tuple[str, list[Evidence]]]:
        """Who calls through a Feign client interface: its own component, or, for an interface kept in a
        shared API library (ruoyi-api-system's RemoteUserService), the components whose code imports it (by
        its class or its package), directly or through a library of theirs that does (a logging library
        calling RemoteLogService)."""
        if index is None or self.model.components[owner].kind != "library":
            return [(owner, [])]
        imports, dependents = index
        stem = PurePosixPath(f.path).stem
        package = PurePosixPath(f.path).parent.as_posix().partition("/java/")[2].replace("/", ".")
        wanted = [f"{package}.{stem}", package] if package else []
        users: dict[str, list[Evidence]] = {}
        for i in sorted((i for m in wanted for i in imports.get((f.repository, m), [])), key=Fact.order):
            who = self.owner_of(i.repository, i.path)
            if who is not None and who != owner:
                users.setdefault(who, [i.evidence])
        out: dict[str, list[Evidence]] = {}
        todo = sorted(users.items())
        seen: set[str] = set()
        while todo:
            who, via = todo.pop()
            if who in seen:
                continue
            seen.add(who)
            if self.model.components[who].kind == "library":
                todo.extend((d, via) for d in sorted(dependents.get(who, ())))
            elif self.model.components[who].kind in ("service", "gateway", "webapp"):
                out.setdefault(who, via)
        return sorted(out.items()) or [(owner, [])]

    def grpc(self) -> None:
        """gRPC: proto services become ports of the component that registers a server for them, each rpc
        an endpoint typed by its request and response messages (kept in the model's ``messages`` with every
        message and enum their fields reach); client stubs connect to that component."""
        types = ProtoTypes(self.by_kind["proto.message"], self.by_kind["proto.field"], self.by_kind["proto.enum"],
                           self.by_kind["proto.enum_value"])
        rpcs: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["grpc.rpc"]:
            rpcs[grpc_service_name(f.get("service") or "")].append(f)
        providers: dict[str, str] = {}
        for f in self.by_kind["grpc.server"]:
            owner = self.owner_of(f.repository, f.path)
            name = grpc_service_name(f.get("service") or "", f.get("strip"))
            if owner is None or not name:
                continue
            providers.setdefault(name, owner)
            comp = self.model.components[owner]
            port = comp.ports.setdefault("grpc", Port(name="grpc", protocol="grpc", direction="provided"))
            port.evidence.append(f.evidence)
            proto_service = next((r.get("service") for r in rpcs.get(name, [])), None) or name
            for r in rpcs.get(name, []):
                path = f"{proto_service}/{r.get('rpc')}"
                if not any(ep.path == path for ep in port.endpoints):
                    package = r.get("package") or ""
                    port.endpoints.append(Endpoint(
                        method="RPC", path=path, evidence=[r.evidence], package=package,
                        request=types.resolve(r.get("request") or "", package),
                        response=types.resolve(r.get("response") or "", package), stream=r.get("stream") or ""))
                    types.closure([(t, r.evidence) for t in (port.endpoints[-1].request, port.endpoints[-1].response)],
                                  self.model.messages)
            if not rpcs.get(name) and not any(ep.path == proto_service for ep in port.endpoints):
                port.endpoints.append(Endpoint(method="RPC", path=proto_service, evidence=[f.evidence]))
        for f in self.by_kind["grpc.client"]:
            owner = self.owner_of(f.repository, f.path)
            name = grpc_service_name(f.get("service") or "", f.get("strip"))
            if owner is None or not name:
                continue
            target = providers.get(name)
            if target is None and f.get("needs_server"):
                continue  # NewSearchClient: a gRPC client only if code here registers SearchServer
            if target is None:
                # No server found in code (one written in a language not read, or generated elsewhere):
                # the one service deployed under the gRPC service's name (`currency` for CurrencyService).
                named = self.named_like_grpc_service(name)
                if named is None or named == owner:
                    self.model.unresolved.append(Unresolved(owner, f"gRPC client of {name}", f.evidence))
                    continue
                self.connect(owner, named, "grpc", [f.evidence], attributes={"via": f"grpc stub {name} (named service)"})
                continue
            self.connect(owner, target, "grpc", [f.evidence], attributes={"via": f"grpc stub {name}"})

    def named_like_grpc_service(self, name: str) -> str | None:
        """The one service component whose name is the gRPC service's (``currencyservice``), with or
        without its ``service`` suffix (``currency``)."""
        wanted = {name, name[: -len("service")]} - {""} if name.endswith("service") else {name}
        found = {cid for cid, c in self.model.components.items() if c.kind == "service"
                 and ({key(c.name), *(key(a) for a in c.aliases)} & wanted)}
        return found.pop() if len(found) == 1 else None

    def messaging(self) -> None:
        """Producers and consumers of topics/queues: edges to the broker with the topics they use."""
        client_vars = {(f.repository, f.path, f.get("name")): f.get("technology") for f in self.by_kind["client.var"]}
        for f in [*self.by_kind["messaging.publish"], *self.by_kind["messaging.subscribe"]]:
            owner = self.owner_of(f.repository, f.path)
            tech = (f.get("technology") or "").lower()
            if f.get("needs_client"):  # `x.publish(...)` counts only when x is known to hold a client
                tech = (client_vars.get((f.repository, f.path, f.get("client"))) or "").lower()
                if not tech:
                    continue
            if owner is not None and not tech:
                # A framework abstraction (NestJS @EventPattern): the system's only broker, if it has one.
                brokers = sorted({c.attributes.get("technology", "") for c in self.model.components.values()
                                  if c.kind == "broker"})
                tech = brokers[0] if len(brokers) == 1 else ""
            if owner is None or not tech:
                continue
            protocol = MESSAGING_TECH_PROTOCOL.get(tech, "tcp")
            brokers = sorted(c.id for c in self.model.components.values()
                             if c.attributes.get("technology") == tech and c.id != owner)
            connected = [b for b in brokers if any(k[0] == owner and k[1] == b for k in self.model.connections)]
            if connected:
                broker = connected[0]
            elif len(brokers) == 1:
                broker = brokers[0]
            elif not brokers:
                if not self.uses_technology(owner, tech) and any(
                        d.repository == f.repository for d in self.by_kind["manifest.dependency"]):
                    # the call's shape only (`consumer.subscribe(...)` of a messaging system's own client
                    # API) with no client library of that technology among the build's dependencies
                    self.model.unresolved.append(Unresolved(
                        owner, f"{tech}-style {f.kind.split('.')[-1]} call, but no {tech} client library among the dependencies",
                        f.evidence))
                    continue
                if self.alias.get(tech) == owner:
                    continue  # the caller itself goes by the technology's name (a `kafka` sink module): not its broker
                broker = self.add_component(tech, TECH_KIND.get(tech, "broker"), f.repository, f.evidence,
                                            attributes={"technology": tech}).id
            else:
                self.model.unresolved.append(Unresolved(owner, f"{tech} client with several candidate brokers",
                                                        f.evidence))
                continue
            topic_values = [v for v, _c in self.resolve_expression(owner, f, f.get("topic") or "")
                            if v and not parse_hosts(v)] or ([f.get("topic")] if f.get("topic") else [])
            role = "publishes" if f.kind == "messaging.publish" else "subscribes"
            existing = [k for k in self.model.connections if k[0] == owner and k[1] == broker]
            key = existing[0] if existing else (owner, broker, protocol)
            if not existing:
                self.connect(owner, broker, protocol, [f.evidence], kind=role)
            conn = self.model.connections[key]
            conn.evidence.add(f.evidence)
            self.credit(conn.rules)
            topics = set(filter(None, conn.attributes.get(role, "").split(", "))) | set(topic_values)
            conn.attributes[role] = ", ".join(sorted(t for t in topics if t))
            conn.kind = "publishes" if conn.attributes.get("publishes") else "subscribes"
            all_topics = set(filter(None, conn.attributes.get("publishes", "").split(", "))) | set(
                filter(None, conn.attributes.get("subscribes", "").split(", ")))
            conn.attributes["topic"] = ", ".join(sorted(all_topics))
            btopics = set(filter(None, self.model.components[broker].attributes.get("topics", "").split(", ")))
            self.model.components[broker].attributes["topics"] = ", ".join(sorted(btopics | all_topics))

    def _told_own_address(self, published: dict[str, Evidence]) -> dict[str, Evidence]:
        """Compose services whose deployment tells them their own public address as a port they publish on
        this machine (``CONCOURSE_EXTERNAL_URL: http://localhost:8080`` beside ``ports: [8080:8080]``): the
        address people open, whatever else inside calls the service too (host ports: ``index_served_ports``)."""
        out: dict[str, Evidence] = {}
        for f in sorted(self.by_kind["config.env"], key=Fact.order):
            if f.get("source") != "compose" or not OWN_ADDRESS_KEY.search(f.get("name") or ""):
                continue
            cid = self.alias.get((f.get("owner") or "").lower())
            comp = self.model.components.get(cid) if cid else None
            if comp is None or cid not in published or comp.kind not in ("service", "gateway") or infra_role(comp):
                continue
            if any(h.host in ("localhost", "127.0.0.1") and h.port is not None
                   and cid in self.ports_published.get(h.port, set()) for h in parse_hosts(f.get("value") or "")):
                out.setdefault(cid, f.evidence)
        return out

    def entry_points(self) -> None:
        """People and clients outside the system enter through its front doors.

        Front doors are, in order of preference: gateways and reverse proxies (kind ``gateway``) that
        no other gateway forwards to, plus workloads a Kubernetes Service publishes (LoadBalancer,
        NodePort) or an Ingress routes to; when there are none, the services that provide an API and
        that no component calls.  Brokers, registries, config servers and dashboards that merely
        publish a port are not front doors.  The actor gets an id no component has."""
        # A browser app's calls to the server that hands it out (same origin) are the user's: that server
        # stays a front door.  An app in a container of its own calls backends behind it, as any front end.
        webapps = {c.id for c in self.model.components.values() if c.kind == "webapp"}
        same_origin = {k for k, c in self.model.connections.items() if c.attributes.get("same_origin") == "true"}
        # shared code (a library, a module whose programs deployments run) runs in no process of its own:
        # what it names is not a caller
        shared = self.enclosing_build_units()
        called = {k[1] for k in self.model.connections if k not in same_origin
                  and self.model.components[k[0]].kind != "library" and k[0] not in shared}
        gateways = {c.id for c in self.model.components.values() if c.kind == "gateway"}
        forwarded = {k[1] for k in self.model.connections if k[0] in gateways}
        published: dict[str, Evidence] = {}
        published_for_development: dict[str, Evidence] = {}
        # kompose turns a compose file into Kubernetes objects: `kompose.service.type: clusterip` keeps the
        # service's ports inside the cluster, whatever `ports:` says
        internal_only = {(f.repository, f.path, (f.get("owner") or "").lower()) for f in self.by_kind["compose.label"]
                         if f.get("name") == "kompose.service.type" and (f.get("value") or "").lower() == "clusterip"}
        # a background worker or scheduler repeating the web service by a YAML anchor (`laravel.queue: <<: *app`
        # with `command: php artisan queue:work`) inherits its `ports:` but serves nobody on them
        background = {(f.repository, f.path, (f.get("owner") or "").lower()) for f in self.by_kind["program.command"]
                      if f.get("source") == "compose" and WORKER_COMMAND.search(f.get("command") or "")}
        for f in self.by_kind["compose.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if (f.repository, f.path, (f.get("name") or "").lower()) in internal_only | background:
                continue
            if cid and f.get("ports"):
                development = re.search(r"[.-](dev|override|local|debug)\.ya?ml$", f.path)
                (published_for_development if development else published).setdefault(cid, f.evidence)
        # Ports published only by an override file (docker-compose.override.yml, what `docker compose
        # up` loads too) are the only way in when the main file publishes none.
        published = published or published_for_development
        targets: dict[str, Evidence] = {}
        for cid in sorted(gateways - forwarded):
            targets[cid] = published.get(cid) or sorted(self.model.components[cid].evidence)[0]
        # A web server only an installation guide's site configuration puts in front (no deployment here
        # runs it) is one way in; a deployment publishing the application itself is another.
        site = {c.id for c in self.model.components.values() if c.attributes.get("role") == SITE_SERVER_ROLE}
        for cid in sorted(published):
            if site and {k[0] for k in self.model.connections if k[1] == cid and k not in same_origin} <= site \
                    and self.model.components[cid].kind == "service" and not infra_role(self.model.components[cid]):
                targets.setdefault(cid, published[cid])
        # A published service nobody calls that calls a gateway is the front end people open (a web
        # app in front of the API gateway).
        for cid in sorted(set(published) - called):
            comp = self.model.components[cid]
            if comp.kind == "service" and not infra_role(comp) and any(
                    k[0] == cid and k[1] in gateways for k in self.model.connections):
                targets.setdefault(cid, published[cid])
        for cid in sorted(c.id for c in self.model.components.values()
                          if c.kind == "service" and "ui" in c.attributes.get("platform_role", "").split(",")):
            if cid not in forwarded:  # a user interface people open directly
                targets.setdefault(cid, published.get(cid) or sorted(self.model.components[cid].evidence)[0])
        for cid in sorted(webapps - forwarded):  # the browser app people open
            targets.setdefault(cid, sorted(self.model.components[cid].evidence)[0])
        for cid in sorted(c.id for c in self.model.components.values() if c.attributes.get("published") == "true"):
            targets.setdefault(cid, sorted(self.model.components[cid].evidence)[0])  # Aspire WithExternalHttpEndpoints
        # A Service declared again elsewhere (an add-on's copy of the manifests) as ClusterIP is internal:
        # it is published only when every declaration of that Service publishes it.
        internal = {(f.repository, f.get("name")) for f in self.by_kind["k8s.service"]
                    if f.get("type") not in ("LoadBalancer", "NodePort")}
        for f in self.by_kind["k8s.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if (f.repository, f.get("name")) in internal:
                continue
            if cid and f.get("type") in ("LoadBalancer", "NodePort") and self.model.components[cid].kind in (
                    "service", "gateway") and not infra_role(self.model.components[cid]):
                targets.setdefault(cid, f.evidence)
        ingress_doors = {cid for cid in self.ingress_routes if self.model.components[cid].kind in ("service", "gateway")}
        for cid in sorted(ingress_doors):
            targets.setdefault(cid, min(ev for _n, _r, ev, _rev in self.ingress_routes[cid]))
        if gateways - forwarded and not ingress_doors:
            # Stacks kept side by side (single-node/ and multi-node/ compose files, or the root's stack beside
            # an overlay in a subfolder that adds a proxy): one whose own compose file puts no gateway in front
            # has its own doors, the published services nobody calls.
            stacks: dict[str, set[tuple[str, str]]] = defaultdict(set)  # component -> compose folders defining it
            for f in self.by_kind["compose.service"]:
                cid = self.alias.get((f.get("name") or "").lower())
                if cid:
                    stacks[cid].add((f.repository, folder(f.path)))
            fronted = {s for g in gateways - forwarded for s in stacks.get(g, ())}
            for cid in sorted(published):
                comp = self.model.components[cid]
                # (a stack of its own: beside the fronted one or above it, not a port of it kept in its
                # subfolder, windows/docker-compose.yml under the root's stack)
                own = any(r == r2 and d != d2 and not is_under(d, d2)
                          for r, d in stacks.get(cid, set()) - fronted for r2, d2 in fronted)
                if own and comp.kind == "service" and cid not in called and not infra_role(comp):
                    targets.setdefault(cid, published[cid])
        told = self._told_own_address(published)
        for cid, ev in sorted(told.items()):
            targets.setdefault(cid, ev)
        unpublished: set[str] = set()  # doors for want of any published one: the system's unpublished servers
        if not gateways - forwarded and not ingress_doors:
            # No gateway or Ingress in front: the APIs nobody inside calls are used from outside.  Where
            # the deployment publishes ports (compose `ports:`, a LoadBalancer or NodePort Service), it
            # says which those are: a service it does not publish is reached from inside only (by Dapr
            # invocation, a queue, a caller whose address did not resolve), not by people.
            publishes = bool(published) or bool(targets)
            # (only where no deployment here runs any code of the system: the deployments are someone's test rig)
            deploys_code = any(c.source_roots and c.language and c.attributes.get("deployment")
                               for c in self.model.components.values())
            for cid in sorted(self.model.components):
                comp = self.model.components[cid]
                # (the repository's own server that no deployment here runs, only the image it publishes, the
                # compose file beside it starting test backends: not an internal service of that deployment)
                undeployed_server = not deploys_code and bool(comp.ports) and bool(comp.source_roots) \
                    and not comp.attributes.get("deployment") \
                    and not comp.attributes.get("part_of") and not comp.attributes.get("processes") \
                    and self._published_recipe(comp)
                # (where nothing publishes: a server with an API of its own, or whose image's recipe EXPOSEs the
                # ports it listens on, a mail server's 25 and 443, though no route of it was read)
                if (comp.kind == "service" and cid not in called and not infra_role(comp)
                        and (cid in published or undeployed_server if publishes
                             else bool(comp.ports or comp.attributes.get("exposed")))):
                    targets[cid] = published.get(cid) or sorted(comp.evidence)[0]
                    if not publishes:
                        unpublished.add(cid)  # (a port of its own that nothing publishes)
            if not targets:
                # Every published service is also called from inside (a gateway its workers call back):
                # the ones published beyond this machine are still where people come in.
                for f in self.by_kind["compose.service"]:
                    cid = self.alias.get((f.get("name") or "").lower())
                    comp = self.model.components.get(cid) if cid else None
                    if comp is not None and comp.kind == "service" and not infra_role(comp) and any(
                            not re.match(r"^\s*(127\.0\.0\.1|localhost|\[?::1\]?):", p)
                            for p in (f.get("ports") or "").split(",") if p.strip()):
                        targets.setdefault(cid, f.evidence)
            if not targets:
                # A system made only of platform software (a log server and its data node, a monitoring
                # stack): the published program nobody inside calls is the one its people open, on this
                # machine or beyond it.
                for cid in sorted(set(published) - called):
                    if self.model.components[cid].kind == "service":
                        targets.setdefault(cid, published[cid])
        # A published service another front door calls (an API behind the web app, published too for
        # testing) is reached through that front door.  Health checks are not calls (a status page
        # polling every service), people sign in at an authorization server themselves, and an
        # endpoint declared external (Aspire's WithExternalHttpEndpoints) is meant to be reached.
        callers: dict[str, set[str]] = defaultdict(set)
        for (source, target, _p), conn in self.model.connections.items():
            via = conn.attributes.get("via", "")
            if not (re.search(r"health", via, re.I) or re.search(r"HC$", via)) and (source, target, _p) not in same_origin:
                callers[target].add(source)
        doors = set(targets)
        for cid in sorted(doors):
            attributes = self.model.components[cid].attributes
            # (two published products calling each other, an integration of peers, are both doors: only a
            # door called by another it does not call itself is behind that one)
            fronts = {d for d in callers[cid] & (doors - {cid} - site) if d not in callers or cid not in callers[d]}
            if (cid not in ingress_doors and "auth" not in attributes.get("platform_role", "").split(",")
                    and attributes.get("published") != "true" and cid not in told and fronts):
                del targets[cid]
        if not targets:
            # Nothing published, routed or served with a known port: a system of one program nobody else calls
            # (a server installed from its package, `npm install -g` and run) is what its people use
            # (a command-line tool, by its name or its command framework, is people's too, but run, not
            # opened: rule frontdoor.command-line)
            from repomodeler.graph.command_line import COMMAND_FRAMEWORKS, cli_name
            alone = [c for c in self.model.components.values() if c.kind in ("service", "gateway", "webapp")
                     and not c.attributes.get("part_of") and not infra_role(c) and c.id not in called]
            lone = alone[0] if len(alone) == 1 and alone[0].evidence and not cli_name(alone[0].name) else None
            if lone is not None and not any(COMMAND_FRAMEWORKS.match(f.get("module") or "")
                                            and self.owner_of(f.repository, f.path) == lone.id
                                            for f in self.by_kind["import"]):
                targets[lone.id] = sorted(lone.evidence)[0]
                unpublished.add(lone.id)
        if not targets:
            return
        # (the actor a browser setting already showed reaching a service, else a new one)
        actor = self.people_actor(sorted(targets.values())[0])
        user = self.model.components[actor]
        self.credit(user.rules)
        for cid, ev in sorted(targets.items()):
            user.evidence.add(ev)
            routes = self.ingress_routes.get(cid, [])
            if routes:  # through an Ingress: its declaration and the rule routing to this service
                names = sorted({n for n, _r, _e, _re in routes})
                paths = sorted({r for _n, r, _e, _re in routes if r})
                attrs = {"via": "ingress " + ", ".join(names), **({"routes": ", ".join(paths)} if paths else {})}
                self.connect(actor, cid, "http", [ev, *(e for _n, _r, h, r in routes for e in (h, r))],
                             kind="calls", attributes=attrs)
                continue
            self.connect(actor, cid, "http", [ev], kind="calls", attributes={
                "via": "published entry point", **({"door": "unpublished"} if cid in unpublished else {})})
        calls = {(f.repository, f.path, f.line) for f in self.browser_facts if f.kind == "http.client"}
        for f in sorted(set(self.browser_facts)):
            value = f.get("value") or f.get("url") or ""
            in_call = f.kind == "http.client" or (f.repository, f.path, f.line) in calls
            before = set(self.model.connections)
            self._resolve_value(actor, value, [f.evidence], allow_external=in_call, origin=f.evidence)
            for k in set(self.model.connections) - before:
                self.model.connections[k].attributes["via"] = "browser code"

    def init_job_connections(self) -> None:
        """A one-shot job others wait for (``depends_on: {configurator: {condition:
        service_completed_successfully}}``) running their own image prepares what they run with: a
        configurator writing the database and cache addresses into the settings they share, a
        migration. The stores it is handed are theirs too; the job itself runs once."""
        images = {self.alias.get((f.get("name") or "").lower()): image_repo(self.compose_interpolate(f, f.get("image")) or "")
                  for f in self.by_kind["compose.service"] if f.get("image")}
        for f in sorted(self.by_kind["compose.depends"], key=Fact.order):
            if f.get("condition") != "service_completed_successfully":
                continue
            waiting = self.alias.get((f.get("owner") or "").lower())
            job = self.alias.get((f.get("target") or "").lower())
            if not waiting or not job or waiting == job or not images.get(job) or images.get(job) != images.get(waiting):
                continue
            for (source, target, protocol), conn in sorted(self.model.connections.items()):
                if source == job and target != waiting \
                        and self.model.components[target].kind in ("database", "cache", "broker", "storage"):
                    self.connect(waiting, target, protocol, [f.evidence, *sorted(conn.evidence)], kind=conn.kind,
                                 attributes={"via": f"prepared by {self.model.components[job].name}"})

    def shared_build_connections(self) -> None:
        """Deployments that build one context and run different commands of it (``web``, ``worker`` and
        sixteen consumers of one image, each ``command: run ...``) load the same configuration and data
        layer: a connection its settings files make (a settings module naming the database, the cache,
        the broker), and its code's use of a store (the repositories every process builds), is made by
        each of them, not by whichever was found first. A call in feature code to another service (a
        sign-in page calling an identity provider) is the process's that runs that code, and connections
        a deployment's own settings make (its environment) stay its own."""
        # (whole, the group's key) -> members: `whole` for a whole repository built alike
        groups: dict[tuple[bool, frozenset[tuple[str, str]] | tuple[str, ...]], list[str]] = defaultdict(list)
        # (a context that is the whole repository holds every program of a monorepo: no one build; unless the
        # services build it the very same way, one recipe, target and arguments: one image, as a YAML anchor
        # `<<: *default-app` gives web and worker)
        same_image = self._same_root_builds()
        for c in self.model.components.values():
            if c.kind in ("service", "gateway") and c.source_roots and c.attributes.get("deployment") in ("compose", "kubernetes"):
                # (a service of that one image holding no folder of its own, only the repository or files mounted
                # into it, `./.env:/var/www/.env`: the worker beside the web server the code went to)
                whole_or_files = all(root in ("", ".") or (r, root) not in self.inventory_folders for r, root in c.source_roots)
                if c.id in same_image and whole_or_files and same_image[c.id][2] in ("", "."):
                    groups[(True, same_image[c.id])].append(c.id)
                elif c.kind != "service":
                    continue  # (a gateway only when it serves that image's code, its routes its own pages)
                elif all(root not in ("", ".") for _r, root in c.source_roots):
                    groups[(False, frozenset(c.source_roots))].append(c.id)
                elif c.id in same_image:
                    groups[(True, same_image[c.id])].append(c.id)
        # the deployment's own files (a compose file, manifests) say what each deployment is handed
        descriptors = {(f.repository, f.path) for k in ("compose.service", "k8s.workload") for f in self.by_kind[k]}
        # ... and the settings files one deployment's environment points it at (`INFOBASE_CONFIG=conf/infobase.yml`)
        descriptors |= set(self.settings_file_users())
        for (whole, _key), members in sorted(groups.items(), key=lambda kv: sorted(kv[1])):
            if len(members) < 2:
                continue
            members = sorted(members)
            roots = frozenset(r for m in members for r in self.model.components[m].source_roots)
            # (of a whole repository built alike, only its settings files: the stores its code can reach are
            # the process's that takes them, a frontend and a backend of one binary told apart by flags)

            def in_build(e: Evidence, store: bool) -> bool:
                return (e.repository, e.path) not in descriptors \
                    and ((store and not whole) or bool(SETTINGS_FILE.search(e.path))) \
                    and any(e.repository == r and is_under(e.path, root) for r, root in roots)

            made = [(k, conn, shown) for k, conn in sorted(self.model.connections.items())
                    if k[0] in members and k[1] not in members and conn.kind != "depends_on"
                    # (of a whole repository built alike, only the stores the deployment itself runs: a settings
                    # file of a platform lists every service and vendor one process of it may call)
                    and (not whole or self.model.components[k[1]].kind in ("database", "cache", "broker", "storage")
                         and bool(self.model.components[k[1]].attributes.get("deployment")))
                    # (a monitoring server's targets: its own program's configuration, not the build's)
                    and "observability.scrape-targets" not in conn.rules
                    for store in [self.model.components[k[1]].kind in ("database", "cache", "broker", "storage")]
                    for shown in [sorted(e for e in conn.evidence if in_build(e, store))] if shown]
            for (source, target, protocol), conn, shown in made:
                for other in members:
                    if other != source and target != other:
                        self.connect(other, target, protocol, shown, kind=conn.kind,
                                     attributes={**{k: v for k, v in conn.attributes.items() if k in ("via",)},
                                                 "shared_build": source})

    def _same_root_builds(self) -> dict[str, tuple[str, ...]]:
        """Component -> the build its compose service makes of the whole repository (file, context,
        recipe, target, arguments), for builds two services or more make alike; services of one file running
        one application image with the whole repository mounted where they work count as one such build."""
        builds: dict[tuple[str, ...], set[str]] = defaultdict(set)
        for f in self.by_kind["compose.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            if cid is None:
                continue
            if not f.get("build_context"):
                # (services of one file running one image of an application with the repository mounted where they
                # work, `.:/edx/app/catalog`, the web app and its Celery workers: one build of the whole repository)
                image = self.compose_interpolate(f, f.get("image")) or ""
                comp = self.model.components[cid]
                if image and tech_for_image(image) is None and comp.kind == "service" \
                        and (f.repository, "") in comp.source_roots:
                    builds[(f.repository or "", f.path, "", f"image {image}", "", "")].add(cid)
                continue
            builds[(f.repository or "", f.path, f.get("build_context") or "", f.get("dockerfile") or "",
                    f.get("build_target") or "", f.get("build_args") or "")].add(cid)
        return {cid: build for build, cids in builds.items() if len(cids) > 1 for cid in cids}

    def ingress_controller(self) -> None:
        """An Ingress is carried out by the cluster's ingress controller. When the system itself names
        that controller (a server-rendered page calling
        ``ingress-nginx-controller.ingress-nginx.svc.cluster.local`` to reach its own APIs), the
        controller is a part of the picture: people enter through it and it forwards to the services
        the Ingress routes name, with the routes as evidence. Without such a component the routes stay
        the user's own entries (`entry_points`)."""
        # (an ingress controller's default backend, serving the 404 page for unmatched hosts, is not it)
        found = sorted(c.id for c in self.model.components.values()
                       if c.kind in ("external", "gateway", "service")
                       and any(INGRESS_CONTROLLER.search(n) for n in (c.id, c.name, *c.aliases,
                                                                     c.attributes.get("host") or "",
                                                                     c.attributes.get("image") or ""))
                       and not any(re.search(r"default-?backend", n or "") for n in (
                           c.name, c.attributes.get("image") or "")))
        if len(found) != 1:
            return
        controller = found[0]
        through = sorted(k for k, conn in self.model.connections.items()
                         if self.model.components[k[0]].kind == "user" and k[1] != controller
                         and conn.attributes.get("via", "").startswith("ingress "))
        if not through:
            return
        comp = self.model.components[controller]
        if comp.kind == "external":
            comp.kind = "gateway"  # the cluster's front door, not a system outside it
            comp.attributes["role"] = "ingress controller"
        self.credit(comp.rules)
        for key in through:
            conn = self.model.connections.pop(key)
            self.created_by.pop(key, None)
            heads = sorted(conn.evidence)
            self.connect(key[0], controller, key[2], heads, kind="calls",
                         attributes={"via": conn.attributes.get("via", "")})
            self.connect(controller, key[1], key[2], heads, kind="calls",
                         attributes={k: v for k, v in conn.attributes.items() if k in ("via", "routes")})

    def logical_databases(self) -> None:
        """Two databases on one server are two stores: each database a connection string names
        (``jdbc:mysql://mysql:3306/orders``, ``Database=catalogdb``) becomes a part of the server
        component, and the services that name it connect to it. The server stays the deployed
        component; its parts say which service keeps its data where."""
        into: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for key in sorted(self.model.connections):
            into[key[1]].append(key)
        for (server, db), evidence in sorted(self.databases_named.items()):
            if server not in self.model.components:
                continue
            comp = self.model.components[server]
            pid = f"{server}/{db}"
            part = self.model.parts.get(pid)
            if part is None:
                part = self.model.parts[pid] = Component(id=pid, name=db, kind="database", repository=comp.repository,
                                                         parent=server)
                part.attributes.update({"database": db, "technology": comp.attributes.get("technology", "")})
                self.created_by[pid] = "logical_databases"
            part.evidence.add(min(evidence))
            for key in into.get(server, []):
                conn = self.model.connections[key]
                evs = conn.evidence & evidence
                if not evs:
                    continue
                names = set(filter(None, conn.attributes.get("databases", "").split(", "))) | {db}
                conn.attributes["databases"] = ", ".join(sorted(names))
                link_key = (conn.source, pid, conn.protocol)
                link = self.model.part_links.get(link_key)
                if link is None:
                    link = self.model.part_links[link_key] = Connection(source=conn.source, target=pid, kind=conn.kind,
                                                                        protocol=conn.protocol)
                    link.attributes.update({"via": conn.attributes.get("via", ""), "resolved_by": "logical_databases",
                                            "database": db})
                link.evidence.update(evs)
            comp.attributes["databases"] = ", ".join(sorted(
                {*filter(None, comp.attributes.get("databases", "").split(", ")), db}))

    def fold_unknown_protocols(self) -> None:
        """A 'tcp' edge (protocol unknown) merges into a known-protocol edge between the same pair;
        else, when every API the target provides is gRPC, it is a gRPC call (``AD_ADDR=ad:9555``
        handed to a generated client); when it is HTTP and nothing about the link says otherwise (a
        bare host:port under a key naming no other technology: ``"Orders": "orders:5100"`` in a web
        app's settings, the orders service serving routes), an HTTP call."""
        known: dict[tuple[str, str], list[tuple[str, str, str]]] = defaultdict(list)
        for k in sorted(self.model.connections):
            if k[2] != "tcp":
                known[k[:2]].append(k)
        for key in sorted(k for k in self.model.connections if k[2] == "tcp"):
            others = known.get(key[:2])
            target_ports = {p.protocol for p in self.model.components[key[1]].ports.values() if p.direction == "provided"}
            if not others and (target_ports == {"grpc"} or target_ports == {"http"} and key in self.protocol_unknown):
                (protocol,) = target_ports
                typed_key = (key[0], key[1], protocol)
                self.model.connections[typed_key] = self.model.connections[key]
                self.model.connections[typed_key].protocol = protocol
                self.credit(self.model.connections[typed_key].rules)
                self.created_by[typed_key] = self.created_by.get(key, "")
                others = known[key[:2]] = [typed_key]
            if others:
                tcp = self.model.connections.pop(key)
                target = self.model.connections[others[0]]
                if target is not tcp:
                    target.evidence.update(tcp.evidence)
                    target.rules |= tcp.rules
                    self.credit(target.rules)
                    for k, v in tcp.attributes.items():
                        target.attributes.setdefault(k, v)


def _shared_depth(a: str, b: str) -> int:
    """How many leading folders paths `a` and `b` share."""
    n = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1]):
        if x != y:
            break
        n += 1
    return n
