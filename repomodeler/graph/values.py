"""Reading values found in code and configuration: hosts in URLs, HTTP verbs and routes, gRPC names.

Pure functions of their arguments, kept apart from the resolver so each reading rule is small,
named and testable on its own."""

from __future__ import annotations

import re
from dataclasses import dataclass

from repomodeler.graph.catalog import KUBE_API_HOST
from repomodeler.records import Fact

URL_PATTERN = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*)://(?:[^/\s'\"]*@)?(?P<host>\[[^\]]+\]|[^:/?#\s,'\"$`{}@%]+)(?::(?P<port>\d{1,5}))?")
# A host name as written, not a placeholder of a format string (`%s`, `{0}`, `<host>`, `*`).
REAL_HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_][A-Za-z0-9_.-]*)$")
PLACEHOLDER = re.compile(r"\$\{(?P<name>[A-Za-z0-9_.\-]+)(?:(?P<op>:?-|:)(?P<default>[^{}]*))?\}")
HOSTPORT_PATTERN = re.compile(r"^(?P<host>[A-Za-z][A-Za-z0-9.-]*):(?P<port>\d{2,5})$")
# Framework words used where an HTTP verb is expected, and the verb they mean.
METHOD_WORDS = {"GETMAPPING": "GET", "POSTMAPPING": "POST", "PUTMAPPING": "PUT", "DELETEMAPPING": "DELETE",
                "PATCHMAPPING": "PATCH", "REQUESTMAPPING": "ANY", "ROUTE": "GET", "API_ROUTE": "ANY",
                "HANDLEFUNC": "ANY", "HANDLE": "ANY", "ALL": "ANY", "WEBSOCKET": "WS"}


KEYVALUE_HOST = re.compile(r"(?i)(?:^|[;\s]|^[a-z]+:)(?:server|host|data source|hostname)\s*=\s*(?:tcp:)?"
                           r"([A-Za-z][A-Za-z0-9_.-]*)(?:[,:](\d{2,5}))?(?=$|[;\s])")
KEYVALUE_PORT = re.compile(r"(?i)(?:^|[;\s])port\s*=\s*(\d{2,5})")


@dataclass(frozen=True)
class HostRef:
    host: str
    port: int | None
    scheme: str | None
    database: str | None = None  # the logical database a connection string names (``.../orders``)


# Schemes whose URL path names a logical database (jdbc:mysql://db:3306/orders, mongodb://m/users).
DATABASE_SCHEMES = frozenset({"postgres", "postgresql", "postgresql+psycopg2", "postgresql+asyncpg",
                              "postgresql+psycopg", "mysql", "mysql+pymysql", "mariadb", "sqlserver", "mssql",
                              "mongodb", "mongodb+srv", "cockroachdb", "oracle"})
DATABASE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,127}$")
KEYVALUE_DATABASE = re.compile(r"(?i)(?:^|[;\s])(?:database|initial catalog|dbname)\s*=\s*([A-Za-z_][A-Za-z0-9_.-]*)(?=$|[;\s])")
SQLSERVER_DATABASE = re.compile(r"(?i);\s*databaseName\s*=\s*([A-Za-z_][A-Za-z0-9_-]*)")


def database_name(path: str) -> str | None:
    """The database a connection URL's path names: ``/orders?ssl=true`` -> ``orders``; None for an
    empty path, a placeholder or a number (a Redis index is not a database name)."""
    first = re.split(r"[/?#;\s'\"]", path.lstrip("/"), maxsplit=1)[0] if path.startswith("/") else ""
    return first if first and DATABASE_NAME.match(first) else None


# A path segment that is a stand-in for the user's own value: `/your-account-id`, `/<bucket>`, `/YOUR_TOKEN`,
# `/xxxxxx` (a segment a template leaves for the reader to replace).
TEMPLATE_PATH = re.compile(r"^[^'\"\s]*?/(?:your(?:[-_][^/'\"\s]*)?|<[^/>]*>|x{4,}|changeme|replace[-_]?me)(?=[/?#'\"\s]|$)",
                           re.I)


# A cluster DNS name whose namespace the program fills in (``"keda-operator.%s.svc.cluster.local:9666"`` formatted
# with the pod's namespace, ``"{}.{ns}.svc"``): the Service is named, the namespace is whichever it runs in.
NAMESPACE_PLACEHOLDER = re.compile(r"(?<=[a-z0-9])\.(?:%[sv]|\{[A-Za-z0-9_]*\}|\$\{[A-Za-z0-9_.]*\})\.svc\b")


# The cluster's API server by its in-cluster names: the kubernetes Service of the default namespace.
KUBE_API_NAMES = re.compile(r"^kubernetes\.default(\.svc(\.cluster\.local)?)?\.?$")


def parse_hosts(value: str) -> list[HostRef]:
    """Every host a configuration value or literal names: URLs, host:port lists."""
    refs: list[HostRef] = []
    value = NAMESPACE_PLACEHOLDER.sub(".namespace.svc", value)
    for m in URL_PATTERN.finditer(value):
        authority = re.split(r"[/\s'\"]", value[m.end("scheme") + 3:], maxsplit=1)[0]
        if not REAL_HOST.match(m.group("host")) or (
                "@" in authority and m.start("host") < m.end("scheme") + 3 + authority.rindex("@")):
            continue  # http://<svc>/ , http://*/ : filled in elsewhere (http://%s/ does not even match)
        host = m.group("host").strip("[]")
        if not m.group("port") and value[m.end("host"):] == ":":
            # `"mysql://root:" + pwd + "@127.0.0.1"`: the literal stops inside the user's part (a password is
            # joined on next), so what stands where a host would is the user name, root
            continue
        if TEMPLATE_PATH.search(re.match(r"\S*", value[m.end("host"):]).group()):  # (this URL's own path only)
            # a URL whose path holds a stand-in (`https://sqs.us-east-1.amazonaws.com/your-account-id`, a framework
            # config's default for a queue nobody chose): a template to fill in, not an address called
            continue
        if host.endswith(".") and (value[m.end("host"):m.end("host") + 1] in ("$", "{") or "." not in host[:-1]):
            # `wss://broker.${DOMAIN}` (or that with the domain left empty, `wss://broker.`): a name under the
            # operator's domain, filled in at install time; not the container or host `broker`
            continue
        port = int(m.group("port")) if m.group("port") else None
        scheme = m.group("scheme").lower()
        db = None
        if scheme in DATABASE_SCHEMES:
            rest = value[m.end():]
            db = database_name(rest)
            if db is None and (sq := SQLSERVER_DATABASE.match(rest)):
                db = sq.group(1)  # jdbc:sqlserver://db:1433;databaseName=orders
        host = host.lower()
        if KUBE_API_NAMES.match(host):
            host = KUBE_API_HOST  # (https://kubernetes.default, ...svc.cluster.local: one API server)
        refs.append(HostRef(host, port, scheme, db))
    if refs:
        return refs
    for part in value.split(","):
        m = HOSTPORT_PATTERN.match(part.strip())
        if m:
            refs.append(HostRef(m.group("host").lower(), int(m.group("port")), None))
    if not refs:  # Go MySQL driver DSN: user:password@tcp(db:3306)/name
        m = re.search(r"@(?:tcp|unix)\(([A-Za-z][A-Za-z0-9_.-]*)(?::(\d{2,5}))?\)", value)
        if m:
            refs.append(HostRef(m.group(1).lower(), int(m.group(2)) if m.group(2) else None, "mysql",
                                database_name(value[m.end():])))
    if not refs:  # ADO.NET / libpq key=value strings: "Server=db;Port=5432;..." or "host=db port=5432"
        m = KEYVALUE_HOST.search(value)
        if m:
            port = KEYVALUE_PORT.search(value)
            db = KEYVALUE_DATABASE.search(value)
            refs.append(HostRef(m.group(1).lower(), int(m.group(2) or (port.group(1) if port else 0)) or None, None,
                                db.group(1) if db else None))
    return refs


def call_arguments(text: str) -> list[str]:
    """The arguments at the start of `text` up to the call's closing parenthesis, split at top-level
    commas (``a, f(b, c), "d")`` -> ``["a", " f(b, c)", ' "d"']``)."""
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur)
            cur = ""
            continue
        cur += ch
    args.append(cur)
    return args


def expand_placeholders(value: str, lookup) -> str:
    """Fill ``${NAME}``, compose's ``${NAME:-default}`` / ``${NAME-default}`` and Spring's
    ``${key:default}`` from `lookup(name)` (the deployment's settings), else from the default written
    in place; a placeholder with neither stays as written (and so never becomes a host), and so does
    compose's ``${NAME:?message}``, whose text is the error shown when the variable is unset."""
    def own(name: str, found: str | None) -> bool:
        # (a compose value interpolating the variable of its own name, `PGHOST=${PGHOST-${DB_HOST:-postgres14}}`,
        # reads the shell that starts compose, not itself: its default stands)
        return bool(found) and not re.search(r"\$\{" + re.escape(name) + r"\b", found or "")

    def fill(m: re.Match[str]) -> str:
        name = m.group("name")
        found = lookup(name)
        if own(name, found):
            return found
        head, dash, tail = name.partition("-")
        if m.group("op") is None and dash and re.fullmatch(r"[A-Z_][A-Z0-9_]*", head):
            # compose's ${NAME-default} (no colon): the default when NAME is unset (a dashed setting key,
            # ${my-service.url}, is lower case)
            found = lookup(head)
            return found if own(head, found) else tail
        if m.group("op") == ":" and (m.group("default") or "")[:1] in ("?", "+"):
            return m.group(0)  # compose's ${NAME:?message} (required) and ${NAME:+other}: no default value
        return m.group("default") if m.group("default") is not None else m.group(0)
    for _ in range(3):  # nested defaults: ${A:-${B:-x}}
        new = PLACEHOLDER.sub(fill, value)
        if new == value:
            break
        value = new
    return value


def router_prefix(routers: dict[tuple[str, str, str], Fact], f: Fact) -> str:
    """Join the prefixes of the router a route is registered on and of its parents (same file)."""
    parts: list[str] = []
    name = f.get("router") or ""
    seen: set[str] = set()
    while name and name not in seen:
        seen.add(name)
        r = routers.get((f.repository, f.path, name))
        if r is None:
            break
        parts.insert(0, (r.get("prefix") or "").strip("/"))
        name = r.get("parent") or ""
    return "/".join(p for p in parts if p)


def route_of(f: Fact, prefix_of_router: str = "") -> tuple[str, str]:
    if f.get("framework") == "graphql":  # operations, not paths: Query.orders
        return (f.get("method") or "QUERY"), (f.get("path") or "")
    method = (f.get("method") or "ANY").strip('"').upper()
    method = METHOD_WORDS.get(method, method)
    method = http_verb(method) or method
    path = (f.get("path") or "").strip()
    if path.startswith(":") and f.get("framework") == "rails":
        path = path[1:]  # `resources :orders`
    m = re.match(r"^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+(\S+)$", path)
    if m:  # Go 1.22 "GET /x" patterns
        method, path = m.group(1), m.group(2)
    own_prefix = (f.get("prefix") or "").strip()
    if own_prefix.startswith(":") and f.get("framework") == "rails":
        own_prefix = own_prefix[1:]  # `namespace :api`
    prefix = "/".join(p for p in (prefix_of_router.strip("/"), own_prefix.strip("/")) if p)
    if f.get("controller"):
        controller = re.sub(r"Controller$", "", f.get("controller") or "")
        prefix = prefix.replace("[controller]", controller.lower())
        path = path.replace("[controller]", controller.lower())
    if prefix:
        path = "/" + "/".join(s for s in (prefix.strip("/"), path.strip("/")) if s)
    if path and not path.startswith("/") and not path.startswith("^"):
        path = "/" + path
    return method, path or "/"




def env_form(key: str) -> str:
    """Spring relaxed binding: orders.service-url -> ORDERS_SERVICE_URL."""
    return re.sub(r"[.\-]", "_", key).upper()


def http_verb(word: str) -> str | None:
    """An HTTP verb from the many ways code spells it: POST, http.MethodPost, HttpGet, getForObject..."""
    w = word.strip("\"'").split(".")[-1]
    w = re.sub(r"^(Method|Http|HTTP|Map|MAP)", "", w)
    m = re.match(r"^(get|post|put|delete|patch|head|options)", w, re.I)
    return m.group(1).upper() if m else None


def grpc_service_name(raw: str, strip: str | None = None) -> str:
    """The proto service name behind a stub/server identifier (RegisterCartServiceServer -> cartservice)."""
    name = raw.strip().split(".")[-1]
    if strip:
        try:
            name = re.sub(strip, "", name) or name
        except re.error:
            pass
    name = name.replace("Coroutine", "")
    for prefix in ("Register", "New", "add_"):
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix):]
    for suffix in ("_to_server", "Servicer", "Server", "ImplBase", "BlockingStub", "FutureStub", "Stub", "Client",
                   "Base", "Grpc"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return name.lower()


def client_path(expr: str) -> str:
    """The path part of a client URL expression: '/orders' in f"{BASE}/orders" or `${URL}/orders/${id}`."""
    m = re.search(r"[a-z]+://[^/\s'\"`]+(/[^\s'\"`?]*)", expr)
    if m:
        return m.group(1)
    m = re.search(r"(?:^|[\"'`}+\s])(/[A-Za-z0-9_\-./{}$:]*)", expr)
    if m:
        path = re.sub(r"\$\{[^}]*\}|\{[^}]*\}", "{}", m.group(1))
        return path
    return ""
