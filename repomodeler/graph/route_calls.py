"""Calls inside one system to routes its own components serve, when the call names no host.

Why a module of its own: the client-call rules link a call through the host its URL names.  Two kinds
of caller never name one.  A browser app calls the server that hands it out through relative paths
(``client.post("/documents.info")``, ``fetch(`/api/repos/${id}`)``) or realtime clients whose URL is the
page's origin (``io(window.location.origin, {path: "/realtime"})``).  A repository's own client package
(an SDK beside the server: ``fmt.Sprintf("%s/api/repos/%d", c.addr, id)``) takes its host from a flag or
a setting the user gives at run time.  What ties both to a component is the path: exactly one
component of the system serves it.  So the path templates are matched against the routes the
components declare (path parameters are wildcards, and a mount prefix the route or the client's base
URL holds may be missing on one side), and the caller is linked to the one component that serves
them, with the call's line and the route's line as evidence.

Inside a component split into processes, a route belongs to the process whose code declares it: the
process's own port when the decomposition moved it there, else the one process whose entry module
reaches the route's file through its imports (``server/services/web.ts`` -> ``../routes/api``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.expressions import UNKNOWN, Binding, Evaluator, Value
from repomodeler.graph.naming import is_under
from repomodeler.graph.packages import folder
from repomodeler.graph.scripts import file_graph
from repomodeler.graph.connections import as_expression
from repomodeler.graph.catalog import LOCAL_HOSTS
from repomodeler.graph.values import client_path, http_verb, parse_hosts
from repomodeler.languages import language_for_path
from repomodeler.records import Evidence, Fact

# tRPC: the adapters that mount a router in a server (an app's client reaches the component mounting it).
TRPC_ADAPTERS = ("@trpc/server/adapters/fetch", "@trpc/server/adapters/next", "@trpc/server/adapters/express",
                 "@trpc/server/adapters/standalone", "@trpc/server/adapters/fastify", "@trpc/server/adapters/node-http",
                 "@trpc/server/adapters/ws", "@trpc/server/adapters/aws-lambda", "@hono/trpc-server", "trpc-koa-adapter")
# A realtime or RPC client library and the server library that answers it: a browser app importing the
# client reaches the one component whose code runs the server.
REALTIME_PAIRS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("socket.io-client", ("socket.io",)),
    ("@hocuspocus/provider", ("@hocuspocus/server",)),
    ("sockjs-client", ("sockjs",)),
    ("engine.io-client", ("engine.io",)),
    ("@feathersjs/socketio-client", ("@feathersjs/socketio",)),
    ("@microsoft/signalr", ("Microsoft.AspNetCore.SignalR",)),
) + tuple((client, TRPC_ADAPTERS) for client in ("@trpc/client", "@trpc/react-query", "@trpc/tanstack-react-query",
                                                  "@trpc/next"))
# Paths every server answers the same way: they say nothing about which server is called.
PROBES = frozenset({"health", "healthz", "healthcheck", "livez", "readyz", "ready", "live", "liveness", "readiness",
                    "ping", "metrics", "status", "version", "favicon.ico", "robots.txt", "login", "logout"})
# Path segments that only scope an API (a mount prefix, a version): not enough to tell servers apart.
SCOPES = re.compile(r"^(api|apis|rest|v\d+(\.\d+)?|internal|public)$")
_PARAM = re.compile(r"^(\{[^}]*\}|:[A-Za-z_]\w*\??|<[^>]*>|%[-0-9.]*[sdvq]|\$\{[^}]*\}|\*\w*|\{\?\})$")
SERVING_KINDS = ("service", "gateway")
MAX_EVIDENCE = 3  # call/route line pairs kept on one link (the endpoints attribute lists every call)


@lru_cache(maxsize=65536)
def segments(path: str) -> tuple[str | None, ...]:
    """A path's segments, ``None`` for a parameter (``{id}``, ``:id``, ``%d``, ``${id}``, an unknown part)."""
    p = path.split("?")[0].split("#")[0]
    out: list[str | None] = []
    for s in p.strip("/").split("/"):
        if not s:
            continue
        out.append(None if _PARAM.match(s) or UNKNOWN in s or "${" in s or "{" in s else s)
    return tuple(out)


def _telling(segs: tuple[str | None, ...]) -> bool:
    """Do these segments tell one server from another (a literal beyond API scopes and probes)?"""
    literal = [s for s in segs if s is not None and not SCOPES.match(s.lower())]
    return bool(literal) and not (len(literal) == 1 and literal[0].lower() in PROBES)


def _same(a: tuple[str | None, ...], b: tuple[str | None, ...]) -> bool:
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def path_matches(call: str, route: str) -> bool:
    """Does the call's path reach the route?  Equal with parameters as wildcards, or one is the other
    with a mount prefix in front (a router mounted under ``/api`` declares ``/documents.info``; a client
    whose base URL is ``/api`` asks for ``/documents.info``), when the common part tells servers apart."""
    c, r = segments(call), segments(route)
    if not c or not r:
        return False
    if _same(c, r):
        return _telling(c)
    short, long_ = (c, r) if len(c) < len(r) else (r, c)
    tail = long_[len(long_) - len(short):]
    head = long_[:len(long_) - len(short)]
    # the missing prefix is a mount point: literal scopes (api, v1), never a parameter
    # ... and, the match being looser, a parameter stands only for a parameter (never `/v1/models/{name}` for
    # a client's `/api/v1/models/pull`)
    aligned = all((x is None) == (y is None) and x == y for x, y in zip(short, tail))
    return aligned and _telling(short) and all(h is not None and SCOPES.match(h.lower()) for h in head)


@lru_cache(maxsize=1024)
def verb(method: str) -> str:
    """The HTTP verb a client method is named for (``_get``, ``postJson``, ``del``), else ''."""
    word = re.sub(r"^[_$]|(Json|JSON)$", "", method or "")
    return http_verb("delete" if word.lower() == "del" else word) or ""


def _verb_fits(call_method: str, route_method: str) -> bool:
    call = verb(call_method)
    route = http_verb(route_method) or ""
    return not call or not route or call == route or route == "ANY" or call == "ANY"


class RouteCallRules(ResolverBase):
    """Browser apps and a repository's own client packages linked to the routes they call."""

    # ------------------------------------------------------------------ browser apps
    def browser_route_calls(self) -> None:
        apps = sorted(c.id for c in self.model.components.values() if c.kind == "webapp")
        if not apps:
            return
        found: dict[tuple[str, str], list[tuple[Evidence, Evidence, str]]] = defaultdict(list)
        endpoints = self._endpoints()
        for f in [*self.by_kind["http.relative_call"], *self.by_kind["http.client"]]:
            app = self.owner_of(f.repository, f.path)
            if app not in apps:
                continue
            paths = [f.get("path") or ""] if f.kind == "http.relative_call" else self._origin_paths(f)
            method = f.get("method") or ""
            for path in sorted(set(filter(None, paths))):
                hits = self._providers(path, method, app, endpoints)
                if len(hits) == 1:
                    (target, route_ev), = hits.items()
                    found[(app, target)].append((f.evidence, route_ev, f"{verb(method) or 'ANY'} {_clean(path)}"))
        # A call whose route lies in code several processes of a split component run (a plug-in's routes)
        # goes to the process the app's other calls show serves its API, when there is one.
        for (app, target) in sorted(found):
            children = {t for (a, t) in found if a == app and t != target and self._part_of(t) == target}
            if len(children) == 1:
                found[(app, children.pop())].extend(found.pop((app, target)))
        for (app, target), calls in sorted(found.items()):
            self._link(app, target, calls, "calls the routes it serves (relative paths of the app's API client)")
        # The origin the app was loaded from answers most of its relative calls (a path or two may be
        # another local server's, proxied in development).
        for app in sorted({a for a, _t in found}):
            counts = sorted(((len({c[2] for c in calls}), t) for (a, t), calls in found.items() if a == app), reverse=True)
            best, server = counts[0]
            if best > sum(n for n, _t in counts[1:]):
                self._same_origin(app, server, min(c[0] for c in found[(app, server)]))
        self._realtime(apps)

    def _same_origin(self, app: str, server: str, call: Evidence) -> None:
        """The app's relative paths go to the origin it was loaded from: the server answering them hands
        it out.  A link from the app to the whole component split into processes was standing in for
        that process; the people who open the app reach that server."""
        family = self._part_of(server)
        if family != server and (app, family, "http") in self.model.connections \
                and self.model.connections[(app, family, "http")].attributes.get("same_origin") == "true":
            old = self.model.connections.pop((app, family, "http"))
            conn = self.model.connections[(app, server, "http")]
            conn.evidence.update(old.evidence)  # what showed the app is the server's stays the evidence
        for k in sorted(k for k in self.model.connections if k[1] == app and k[2] == "http"
                        and self.model.components[k[0]].kind == "user"):
            if (k[0], server, "http") not in self.model.connections:
                self.connect(k[0], server, "http", [min(self.model.connections[k].evidence), call], kind="calls",
                             attributes={"via": "opens the browser app this server hands out (same origin)"})

    def _origin_paths(self, f: Fact) -> list[str]:
        """The paths a browser app's client call asks of the origin it was loaded from: a relative URL
        (``/api/x``), or a base that is empty in the built app (``${API_BASE}/api/x`` with
        ``API_BASE = DEV ? "http://127.0.0.1:3001" : ""``; a loopback base is the development server).
        A base naming another host, or one a setting gives (``process.env.VUE_APP_BACKEND``), is a call
        elsewhere: none."""
        url = f.get("url") or ""
        relative = _relative_url(url)
        if relative:
            return [relative]
        if "://" in url.split("${", 1)[0]:
            return []  # a literal scheme and host: the client-call rules link it
        paths: list[str] = []
        for value in self._evaluate_text(url, f):
            hosts = parse_hosts(value.text)
            if hosts and not all(h.host in LOCAL_HOSTS for h in hosts):
                return []
            if not hosts and not value.text.startswith("/"):
                return []  # a base nothing here gives (a setting naming the API's host): not the page's origin
            text = value.text.replace(UNKNOWN, "{}")  # an unknown part of a path is a parameter
            path = client_path(text) if hosts else text
            if path:
                paths.append(path)
        return paths

    def _realtime(self, apps: list[str]) -> None:
        """A realtime client (socket.io, Hocuspocus, SignalR...) in a browser app reaches the one
        component running its server library."""
        servers: dict[str, list[Fact]] = defaultdict(list)
        clients: list[tuple[str, Fact, tuple[str, ...]]] = []
        wanted = {s for _c, ss in REALTIME_PAIRS for s in ss}
        pairs = dict(REALTIME_PAIRS)
        for f in self.by_kind["import"]:
            module = f.get("module") or ""
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            if module in pairs and owner in apps:
                clients.append((owner, f, pairs[module]))
            elif module in wanted and owner not in apps:
                servers[module].append(f)
        for app, f, libs in sorted(clients, key=lambda c: (c[0], c[1].order())):
            targets: dict[str, Evidence] = {}
            for lib in libs:
                for s in servers.get(lib, []):
                    for t in self._runners(s.repository, s.path):
                        own = s.path in self._entries(t, s.repository)
                        if t not in targets or own and targets[t].path not in self._entries(t, s.repository):
                            targets[t] = s.evidence  # the import in the process's own entry module shows it best
            # a library package mounting the server (a workspace's api package) runs in the services
            # depending on it
            for t in [t for t in targets if self.model.components[t].kind == "library"]:
                ev = targets.pop(t)
                for (src, dst, protocol) in self.model.connections:
                    if dst == t and protocol == "library" and src != app \
                            and self.model.components[src].kind in SERVING_KINDS:
                        targets.setdefault(src, ev)
            # code of a split component that no one process runs alone stands for "one of them": when one
            # process runs the server itself, it is that one
            parts = {t for t in targets if self._part_of(t) != t and self._part_of(t) in targets}
            for t in {self._part_of(p) for p in parts}:
                del targets[t]
            if len(targets) == 1:
                (target, ev), = targets.items()
                self._link(app, target, [(f.evidence, ev, "")],
                           f"realtime client {f.get('module')} reaches its server")

    # ------------------------------------------------------------------ client packages
    def client_package_calls(self) -> None:
        """A client package whose calls take their host at run time (a flag, a setting) calls the one
        component serving the paths it builds; the programs making that client are the callers."""
        unresolved = {(u.evidence.repository, folder(u.evidence.path)) for u in self.model.unresolved
                      if language_for_path(u.evidence.path) is not None}
        calls: dict[tuple[str, str], list[tuple[Fact, str]]] = defaultdict(list)
        for f in self.by_kind["value.assign"]:
            pkg = (f.repository, folder(f.path))
            if pkg not in unresolved or not f.get("scope"):
                continue  # a package whose client calls all resolve; a constant (not a URL being built)
            for value in self._evaluate(f):
                path = _template_path(value.text)
                if path:
                    calls[pkg].append((f, path))
        endpoints = self._endpoints() if calls else []
        for pkg in sorted(calls):
            found: dict[str, list[tuple[Evidence, Evidence, str]]] = defaultdict(list)
            for f, path in sorted(calls[pkg], key=lambda c: (c[0].order(), c[1])):
                hits = self._providers(path, "", None, endpoints)
                if len(hits) == 1:
                    (target, route_ev), = hits.items()
                    found[target].append((f.evidence, route_ev, f"ANY {_clean(path)}"))
            if len(found) != 1:
                continue  # paths served by several components, or none: the package's server is not told
            (target, evidence), = found.items()
            built = {_clean(p) for _f, p in calls[pkg]}
            if 2 * len({c for _c, _r, c in evidence}) < len(built):
                continue  # most of its paths are served by nothing here: a client of another product's API
                #           whose paths happen to look like this system's
            for user, made in sorted(self._client_makers(pkg).items()):
                if user == target:
                    continue
                self._link(user, target, evidence, f"client package {pkg[1]} (paths it builds)", extra=[made])

    def _client_makers(self, pkg: tuple[str, str]) -> dict[str, Evidence]:
        """The components and processes whose code makes a client of the package (``woodpecker.NewClient``),
        else those importing it; never code inside the package itself."""
        repo, d = pkg
        makers: dict[str, Evidence] = {}
        importers: dict[str, Evidence] = {}
        importing_files: set[tuple[str, str]] = set()
        for f in self.by_kind["import"]:
            module = f.get("module") or ""
            if f.repository != repo or is_under(f.path, d) or not (module.endswith("/" + d) or module == d):
                continue
            importing_files.add((f.repository, f.path))
            for o in self._runners(f.repository, f.path):
                importers.setdefault(o, f.evidence)
        for f in self.by_kind["code.client_new"]:
            if (f.repository, f.path) not in importing_files:
                continue
            if (f.get("package") or "") != PurePosixPath(d).name:
                continue
            for o in self._runners(f.repository, f.path):
                makers.setdefault(o, f.evidence)
        return makers or importers

    # ------------------------------------------------------------------ shared
    def _evaluate(self, f: Fact) -> list[Value]:
        return self._evaluate_text(f.get("expr") or "", f)

    def _evaluate_text(self, text: str, f: Fact) -> list[Value]:
        def lookup(name: str, site: Evidence, language: str) -> list[Binding]:
            # `DEV ? "http://127.0.0.1:3001" : ""`: a base chosen by a build switch takes either value
            return [Binding(alt, False, b.evidence, b.language) if alt != b.text else b
                    for b in self.constants.value_of(site.repository, site.path, name, site.line, language)
                    for alt in (_alternatives(b.text) if not b.literal else [b.text])]

        def env(name: str, default: str | None) -> list[Value]:
            return [Value(default)] if default is not None else []

        try:
            return Evaluator(lookup, env).evaluate(as_expression(text, f.language), f.evidence, f.language)
        except (ValueError, RecursionError):  # an expression the evaluator does not read: no value
            return []

    def _providers(self, path: str, method: str, caller: str | None,
                   endpoints: list[tuple[str, str, str, Evidence]]) -> dict[str, Evidence]:
        """The components (processes, inside a split one) serving a route the path reaches, each with
        the route's line."""
        hits: dict[str, Evidence] = {}
        for cid, route_method, route, ev in endpoints:
            if cid == caller or not _verb_fits(method, route_method) or not path_matches(path, route):
                continue
            where = self._runners(ev.repository, ev.path) if ev.path else []
            for target in where if where and all(self._part_of(w) == cid for w in where) else [cid]:
                if target != caller:
                    hits.setdefault(target, ev)
        return hits

    def _endpoints(self) -> list[tuple[str, str, str, Evidence]]:
        """(component, method, path, the route's line) of every HTTP endpoint a serving component provides."""
        rows = []
        for comp in sorted(self.model.components.values(), key=lambda c: c.id):
            if comp.kind not in SERVING_KINDS:
                continue
            for port in comp.ports.values():
                for ep in port.endpoints:
                    if ep.method != "RPC":
                        rows.append((comp.id, ep.method, ep.path, min(ep.evidence) if ep.evidence else min(comp.evidence)))
        return rows

    def _part_of(self, cid: str) -> str:
        return self.model.components[cid].attributes.get("part_of") or cid if cid in self.model.components else cid

    def _runners(self, repo: str, path: str) -> list[str]:
        """The component that runs the code at `path`: the process the decomposition gave the file, or,
        for a component whose processes are chosen by name (``--services=web,websockets``) and own no
        files, the one process whose entry module reaches the file through its imports."""
        process_of = getattr(self, "process_of_file", None)
        owner = None
        if process_of is not None and getattr(self, "process_parent", None):
            owner = process_of(repo, path)
        owner = owner or self.owner_of(repo, path)
        if owner is None:
            return []
        children = sorted(c.id for c in self.model.components.values() if c.attributes.get("part_of") == owner)
        if not children:
            return [owner]
        reach = self._reach(repo)
        runners = []
        for child in children:
            entries = self._entries(child, repo)
            if any(path == e or path in reach.get(e, set()) for e in entries):
                runners.append(child)
        return runners if len(runners) == 1 else [owner]

    def _entries(self, cid: str, repo: str) -> set[str]:
        """The code files a component's or process's evidence names (a selected service's module)."""
        return {e.path for e in self.model.components[cid].evidence
                if e.repository == repo and language_for_path(e.path) is not None}

    def _reach(self, repo: str) -> "_Reach":
        """File -> every file of the repository its imports reach (JavaScript relative paths, Python
        modules): the import graph built once a repository, each file's closure when first asked (only
        the entry files of processes are, so closing every file of a large repository was wasted)."""
        cache: dict[str, _Reach] | None = getattr(self, "_import_reach", None)
        if cache is None:
            cache = self._import_reach = {}
        if repo not in cache:
            files = {x.path for r in self.results if r.repository.name == repo for x in r.inventory.files}
            cache[repo] = _Reach(file_graph(repo, files, self.by_kind["import"], self.by_kind["module.var"]))
        return cache[repo]

    def _link(self, source: str, target: str, calls: list[tuple[Evidence, Evidence, str]], via: str,
              extra: list[Evidence] | None = None) -> None:
        pairs = sorted(set(calls), key=lambda c: (c[0], c[1], c[2]))
        evidence = sorted({e for call, route, _p in pairs[:MAX_EVIDENCE] for e in (call, route)} | set(extra or []))
        attrs = {"via": via}
        if self.model.components[source].kind == "webapp":
            attrs["same_origin"] = "true"  # a relative path or the page's own origin: the server that served it
        self.connect(source, target, "http", evidence, kind="calls", attributes=attrs)
        conn = self.model.connections[(source, target, "http")]
        listed = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
        listed |= {p for _c, _r, p in pairs if p}
        if listed:
            conn.attributes["endpoints"] = ", ".join(sorted(listed))


class _Reach:
    """The files each file's imports reach, transitively, computed per file on first use."""

    def __init__(self, graph: dict[str, set[str]]) -> None:
        self.graph = graph
        self.closed: dict[str, set[str]] = {}

    def get(self, start: str, default: set[str] | None = None) -> set[str]:
        if start not in self.graph:
            return default if default is not None else set()
        if start not in self.closed:
            seen: set[str] = set()
            todo = [start]
            while todo:
                for t in self.graph.get(todo.pop(), ()):
                    if t not in seen:
                        seen.add(t)
                        todo.append(t)
            self.closed[start] = seen
        return self.closed[start]


_TERNARY_TOKEN = re.compile(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`|\?\.|\?\?|[?:()\[\]{}])""")


def _alternatives(text: str) -> list[str]:
    """The two values of a conditional expression ``cond ? a : b`` (JavaScript, Java, C#...) at the top
    level of `text`, else `text` itself."""
    depth, question, colon = 0, -1, -1
    for m in _TERNARY_TOKEN.finditer(text):
        tok = m.group()
        if tok in "([{":
            depth += 1
        elif tok in ")]}":
            depth -= 1
        elif depth == 0 and tok == "?" and question < 0:
            question = m.start()
        elif depth == 0 and tok == ":" and question >= 0 and colon < 0:
            colon = m.start()
    if question < 0 or colon < 0:
        return [text]
    return [text[question + 1:colon].strip(), text[colon + 1:].strip()]


def _relative_url(url: str) -> str:
    """The path of a client call's URL when it names no host (``/api/x``, `` `/api/${id}` ``), else ''."""
    u = url.strip().strip("`'\"")
    return u if u.startswith("/") and not u.startswith("//") else ""


def _template_path(text: str) -> str:
    """The path of a URL template whose host is not known here (``{?}/api/repos/{?}``), else ''."""
    if parse_hosts(text):
        return ""
    m = re.match(r"^(?:[a-z]+://)?" + re.escape(UNKNOWN) + r"(/.*)$", text, re.S)
    if not m:
        return ""
    path = re.split(r"[\s?#]", m.group(1).replace(UNKNOWN, "{}"), maxsplit=1)[0]  # unknown parts are parameters
    return path if segments(path) else ""


def _clean(path: str) -> str:
    """A path as the endpoints attribute lists it: parameters as ``{}``."""
    return "/" + "/".join("{}" if s is None else s for s in segments(path))

