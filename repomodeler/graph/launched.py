"""Java programs a launcher script starts: ``bin/mqnamesrv`` runs ``org.acme.namesrv.NamesrvStartup``,
so the build module holding that class is a running program (a service named after its module, known
by the script's name too), not a library or nothing at all.

Why: a Java server started by a shell script in ``bin/`` from its own ``main`` class has no Spring
Boot annotation, Dockerfile or deployment saying it runs; its module looked like code others link.
The script naming the class is the evidence that it runs, and the class's ``main`` method the entry.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.catalog import TECH_PROTOCOL
from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import is_under
from repomodeler.graph.packages import folder
from repomodeler.graph.processes import _closure
from repomodeler.graph.scripts import SCRIPT_LANGUAGES, file_graph
from repomodeler.graph.identity import image_repo as _image_repo
from repomodeler.graph.values import parse_hosts
from repomodeler.records import Component, Connection, Evidence, Fact, Unresolved

BUILD_FILES = ("pom.xml", "build.gradle", "build.gradle.kts")


# Store servers a process manager may start beside the application (a Procfile's `redis: redis-server ...`).
STORE_SERVERS: dict[str, tuple[str, str]] = {
    "redis-server": ("redis", "cache"), "valkey-server": ("redis", "cache"), "memcached": ("memcached", "cache"),
    "mongod": ("mongodb", "database"), "postgres": ("postgres", "database"), "mysqld": ("mysql", "database"),
    "mariadbd": ("mysql", "database"), "rabbitmq-server": ("rabbitmq", "broker"), "nats-server": ("nats", "broker"),
    "minio": ("s3", "storage"), "etcd": ("etcd", "registry"), "mosquitto": ("mosquitto", "broker"),
    "clickhouse-server": ("clickhouse", "database"), "influxd": ("influxdb", "database"), "nsqd": ("nsq", "broker"),
}
# ... and by the name a process manager gives the program, where its command runs a start script of the
# store (supervisord's `[program:minio]` running `/bin/sh /app/start-minio.sh`).
STORE_PROGRAMS: dict[str, str] = {"redis": "redis-server", "valkey": "valkey-server", "memcached": "memcached",
                                  "mongodb": "mongod", "mongo": "mongod", "postgres": "postgres", "postgresql": "postgres",
                                  "mysql": "mysqld", "mariadb": "mariadbd", "rabbitmq": "rabbitmq-server",
                                  "nats": "nats-server", "minio": "minio", "etcd": "etcd", "mosquitto": "mosquitto",
                                  "clickhouse": "clickhouse-server", "influxdb": "influxd", "nsqd": "nsqd"}
SHELLS = frozenset({"sh", "bash", "ash", "dash", "zsh"})
# Web servers a process manager starts beside the application in its container (nginx in front of php-fpm):
# the container's front door, a gateway of its own in front of the application.
WEB_SERVERS: dict[str, str] = {
    "nginx": "nginx", "openresty": "nginx", "caddy": "caddy", "haproxy": "haproxy", "httpd": "apache",
    "apache2": "apache", "apachectl": "apache", "apache2ctl": "apache", "lighttpd": "lighttpd", "traefik": "traefik",
}
# Application servers that run the component's own code (a PHP FastCGI pool, a WSGI/ASGI/Rack server, the
# JavaScript runtime): the line starting one is the component's own program, not a process beside it.
APP_SERVERS = re.compile(r"^(php-fpm[\d.]*|php[\d.]*-fpm|gunicorn|uvicorn|hypercorn|daphne|granian|puma|unicorn|"
                         r"passenger|thin|hypnotoad|starman|plackup|node|nodejs|bun|deno)$")

class LaunchRules(ResolverBase):
    """Build modules started by launcher scripts."""

    def launched_programs(self) -> None:
        mains: dict[tuple[str, str], list[Fact]] = {}  # (repository, path suffix of the class) -> main facts
        for f in self.by_kind["program.java_main"]:
            mains.setdefault((f.repository, f"{PurePosixPath(f.path).stem}"), []).append(f)
        modules = {(m.repository, folder(m.path)) for m in self.by_kind["manifest"]
                   if PurePosixPath(m.path).name in BUILD_FILES}
        for launch in self.by_kind["program.launch"]:
            cls = launch.get("java_class") or ""
            suffix = cls.replace(".", "/") + ".java"
            found = sorted(f for f in mains.get((launch.repository, cls.rsplit(".", 1)[-1]), [])
                           if f.path == suffix or f.path.endswith("/" + suffix))
            if not found:
                continue  # a class of a library the script puts on the class path: not this repository's program
            main = found[0]
            module = max((d for r, d in modules if r == main.repository and is_under(main.path, d)), key=len, default="")
            script = launch.get("script") or ""
            name = PurePosixPath(module).name or script or main.repository
            comp = next((c for c in self.model.components.values()
                         if (main.repository, module) in c.source_roots and c.kind in ("service", "library")), None)
            if comp is None:
                comp = self.add_component(name, "service", main.repository, launch.evidence, (script,))
                comp.source_roots.add((main.repository, module))
            else:
                if comp.kind == "library":
                    comp.kind = "service"  # it links into others too, but a script starts it: it runs
                self.add_component(comp.id, comp.kind, main.repository, launch.evidence, (script,))
            comp.evidence.add(main.evidence)
            comp.attributes.setdefault("main_class", cls)
            comp.language = comp.language or "java"



# Process managers in the order their programs describe the deployment best: the supervisor inside the
# image (s6, supervisord, uWSGI's attached daemons) over a Procfile, over systemd units for an install on a host.
# (a container's start script running a web server or a store in the background, `nginx -g 'daemon off;' &`, last)
SUPERVISORS = ("s6", "supervisord", "uwsgi", "procfile", "systemd", "modd", "script", "cron")
# Program words that say the process only schedules work onto the broker (it reads no data itself).
# One-off steps a platform runs before or after a deploy (Heroku's `release:`), not kept running.
ONE_OFF = re.compile(r"^(release|postdeploy|predeploy|migrate|setup|init)$|\b(migrate|db:migrate|collectstatic|db:setup)\b")
# A developer's process file by its name (`Procfile.dev` for foreman, goreman or overmind beside the real one).
DEV_PROCESS_FILE = re.compile(r"(^|/)Procfile[._-](dev|development|local|test|debug)$", re.I)
# ... of which the one that starts the application where nothing deploys it (Rails' `bin/dev`: foreman -f Procfile.dev)
MACHINE_PROCESS_FILE = re.compile(r"(^|/)Procfile[._-](dev|development)$", re.I)
# Commands of a developer's process file rather than a deployment's.
# (and a front end's development server, webpack-dev-server, `vite dev`, and a mail catcher the app sends its mail to)
DEV_COMMAND = re.compile(r"\bgo run\b|\bnodemon\b|--watch\b|(^|[\s'\"=./])(test|tests|hack)/|\b(npm|yarn|pnpm) (run )?dev\b"
                         r"|\b(webpack|shakapacker|webpacker)-dev-server\b|\bvite dev\b|\bbin/vite\s+dev\b|\bmailcatcher\b|\bmailhog\b")
# A program's argument or setting naming the services it runs (``--services=web,worker``, ``SERVICES=web``).
SELECT_SERVICES = re.compile(r"(?:--services?[=\s]+|\bSERVICES=)(?P<names>['\"]?[A-Za-z][\w-]*(?:,[A-Za-z][\w-]*)*['\"]?)")
# Folders that hold one module per service a program can start.
SERVICE_FOLDERS = frozenset({"services", "service", "apps", "processes", "workers"})
SCHEDULER = re.compile(r"\bcelery\b.*\bbeat\b|\bbeat\b.*\bcelery\b|\brq(scheduler)?\s+scheduler\b|\bscheduler\b")


def _command_signature(command: str) -> tuple[str, tuple[str, ...]] | None:
    """A command's program name and its first two plain arguments (no option, setting or path):
    ``celery -A app worker --pool=threads`` -> ``('celery', ('app', 'worker'))``; None without an argument."""
    words = command.replace('"', " ").replace("'", " ").split()
    if not words:
        return None
    plain = tuple(w for w in words[1:] if not w.startswith("-") and "=" not in w and "/" not in w and "$" not in w)[:2]
    return (PurePosixPath(words[0]).name.lower(), plain) if plain else None


class SupervisedRules(ResolverBase):
    """Programs a process manager keeps running beside the component's main one."""

    def image_command_processes(self) -> None:
        """Deployments of an image the repository's recipe builds for a component of code (``built_by``)
        that start another command of it (compose ``command: init bin/worker.rb``): the same code runs
        there with the same settings, so they use the stores that component uses."""
        built: dict[str, str] = {}
        for c in sorted(self.model.components.values(), key=lambda c: c.id):
            if c.attributes.get("built_by") and c.source_roots and c.attributes.get("image"):
                built.setdefault(_image_repo(c.attributes["image"]), c.id)
        commands = {(f.repository, (f.get("owner") or "").lower()): f for f in sorted(self.by_kind["program.command"], key=Fact.order)
                    if f.get("source") == "compose"}
        for c in sorted(self.model.components.values(), key=lambda c: c.id):
            code = built.get(_image_repo(c.attributes.get("image") or "")) if not c.source_roots else None
            command = commands.get((c.repository or "", c.name.lower()))
            if code is None or code == c.id or command is None:
                continue
            c.attributes["runs_code_of"] = code
            c.evidence.add(command.evidence)
            self.credit(c.rules)
            for conn in sorted(self.model.connections.values(), key=lambda x: (x.target, x.protocol)):
                if conn.source == code and _configured_service(self.model.components[conn.target]):
                    self.connect(c.id, conn.target, conn.protocol, [command.evidence, *sorted(conn.evidence)[:1]],
                                 kind=conn.kind, attributes={"via": f"runs {self.model.components[code].name}'s code with its settings"})

    def supervised_processes(self) -> None:
        groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)  # (host component, source) -> programs
        parents: dict[str, str] = getattr(self, "process_parent", None) or {}  # none when process.programs is off
        if getattr(self, "process_primaries", None) is None:
            self.process_primaries = set()
        once = {(f.repository, folder(f.path)) for f in self.by_kind["program.lifecycle"] if f.get("lifecycle") != "longrun"}
        # modd is a developer's file watcher: its modd.conf starts the system's programs only where a deployment
        # runs modd itself (a container of a modd image, a command starting it); else it is how one works on the code
        runs_modd = {f.repository for k, key in (("compose.service", "image"), ("docker.from", "image"),
                                                  ("program.command", "command"), ("docker.command", "command"),
                                                  ("k8s.workload", "image"))
                     for f in self.by_kind[k] if re.search(r"(^|[/\s-])modd\b", f.get(key) or "")}
        # folders with a plain Procfile: the one a platform (Heroku, Dokku) reads; `Procfile.concurrency` or
        # `Procfile.worker` beside it is another way someone starts the processes by hand (foreman -f)
        procfiles = {(f.repository, folder(f.path)) for f in self.by_kind["program.command"]
                     if f.get("source") == "procfile" and PurePosixPath(f.path).name == "Procfile"}
        # (where no Procfile is kept and the deployments only start the stores, published images, beside the
        # application run on the machine, the developer's `Procfile.dev` that `bin/dev` starts is how it runs: its
        # processes less the asset watchers and dev servers)
        on_machine = {r for r in self.runs_on_machine if not any(p[0] == r for p in procfiles)}
        for f in self.by_kind["program.command"]:
            source = f.get("source") or ""
            machine_file = source == "procfile" and f.repository in on_machine and MACHINE_PROCESS_FILE.search(f.path)
            if machine_file and DEV_COMMAND.search(f.get("command") or ""):
                continue
            if source not in SUPERVISORS or f.get("optional") or ONE_OFF.search(f.get("owner") or "") \
                    or ONE_OFF.search(f.get("command") or "") or (f.repository, folder(f.path)) in once \
                    or DEV_PROCESS_FILE.search(f.path) and not machine_file \
                    or (source == "modd" and f.repository not in runs_modd) \
                    or (source == "procfile" and PurePosixPath(f.path).name != "Procfile"
                        and (f.repository, folder(f.path)) in procfiles):
                continue  # started only when a feature switch is set, a one-off step, or a developer's process
                #           file (Procfile.dev, a variant beside the Procfile): not the system as it runs
            host = self.owner_of(f.repository, f.path)
            host = parents.get(host, host) if host else None
            comp = self.model.components.get(host) if host else None
            if comp is not None and comp.kind in ("service", "gateway"):
                groups[(comp.id, source)].append(f)
        deployed = self._scripts_deployed() if groups else {}
        for host in sorted({h for h, _s in groups}):
            if (host, "cron") in groups:  # (beside whatever process manager starts the cron daemon)
                self._cron_jobs(host, sorted(groups[(host, "cron")], key=Fact.order))
            source = next((s for s in SUPERVISORS if (host, s) in groups and s != "cron"), None)
            if source is None:
                continue
            programs = sorted(groups[(host, source)], key=Fact.order)
            if source == "script":
                # a start script's web server or store beside the application (only those are read from it)
                self._script_programs(host, programs)
                continue
            owners = {f.get("owner") for f in programs}
            if len(owners) < 2:
                continue  # one program: the component itself
            if source == "procfile" and self._image_split_by_deployment(host):
                continue  # the deployment runs the image as several services (web, sidekiq): the Procfile is the
                #           same processes for a platform (Heroku, foreman) the deployment does not use
            if any(DEV_COMMAND.search(f.get("command") or "") for f in programs):
                continue  # a developer's Procfile (goreman, foreman): `go run`, test fixtures, file watchers
            if any(self.alias.get((o or "").lower()) not in (None, host) for o in owners):
                continue  # the deployment or the code split already made some of them components: the rest
                #           are more copies of those (web-uploads beside web, worker-beat beside worker)
            comp = self.model.components[host]
            if source == "uwsgi":
                self.process_primaries.add(host)  # the application server itself serves the component's web app
            names = {comp.id.lower(), comp.name.lower(), *comp.aliases}
            # a line starting a store's own server (`redis: redis-server config/redis.conf`) runs that store beside
            # the application in its container: the store, which the application's processes use
            for f in programs:
                words = (f.get("command") or "").split()
                if words and PurePosixPath(words[0]).name.lower() in names:
                    continue  # the component's own binary (nats-server's unit of nats-server): not a store beside it
                if self.alias.get((f.get("owner") or "").lower()) is None:
                    self._store_beside(host, source, f)
            # (supervisord's programs fold into their container, which the documents draw: process.one-container)
            app_server = None
            if source != "supervisord":
                self._supervised_web_servers(host, source, programs)
                app_servers = [f for f in programs if APP_SERVERS.match(_program_word(f))]
                if len(app_servers) == 1 and not any((f.get("owner") or "").lower() in names for f in programs):
                    app_server = app_servers[0]  # php-fpm beside nginx and cron: the component's own program
            stores = [c for c in self.model.connections.values() if c.source == host
                      and _configured_service(self.model.components[c.target])]
            for f in programs:
                owner = f.get("owner") or ""
                if self.model.components.get(self.alias.get(owner.lower(), "")) is not None \
                        and self.model.components[self.alias[owner.lower()]].attributes.get("launched_by") == source \
                        and self.model.components[self.alias[owner.lower()]].kind in ("database", "cache", "broker",
                                                                                      "gateway"):
                    continue  # the store or web server started above
                if owner.lower() in names or any(n.endswith(f"-{owner.lower()}") for n in names):
                    self.process_primaries.add(host)  # the component's own program (svc-webserver of `webserver`)
                    continue
                if source == "procfile" and owner.lower() == "web" and not SELECT_SERVICES.search(f.get("command") or ""):
                    # the one process type a platform routes HTTP requests to (Heroku's `web`): the component's
                    # own server, which users reach, not a process beside it
                    self.process_primaries.add(host)
                    comp.evidence.add(f.evidence)
                    continue
                # the unit starts a binary a deployment of this system runs under that name (`ExecStart=/usr/bin/hbbr`
                # beside a compose service `hbbr`): the same process, installed another way
                words = (f.get("command") or "").split()
                binary = PurePosixPath(words[0]).name.lower() if words else ""
                if binary and binary in names:
                    # the unit starts the component's own binary (util/nats-server-hardened.service running
                    # /usr/sbin/nats-server): the component installed on a host, known by the unit's name too
                    self.process_primaries.add(host)
                    self.add_component(host, comp.kind, f.repository, f.evidence, (owner,))
                    continue
                runs = self.alias.get(binary) if binary else None
                if runs is not None and self.model.components[runs].kind in ("service", "gateway") \
                        and self.model.components[runs].attributes.get("deployment"):
                    if runs == host:
                        self.process_primaries.add(host)
                    self.add_component(runs, self.model.components[runs].kind, f.repository, f.evidence, (owner,))
                    continue
                existing = self.alias.get(owner.lower())
                if existing is not None and existing != host:
                    continue  # a component of that name exists (a deployment runs it): not a new process
                same = self._deployment_running(f, deployed)
                if same is None and source == "systemd":
                    same = self._deployment_same_command(f)
                    if same is not None and same == host:
                        self.add_component(host, comp.kind, f.repository, f.evidence, (owner,))
                        continue  # the unit installs this very deployment's process on a host
                if same is not None and same != host:
                    # a deployment runs the same script (compose `command: init bin/threaded.rb` and the
                    # Procfile's `jobs: rails runner bin/threaded.rb`): one process, known by both names
                    self.add_component(same, self.model.components[same].kind, f.repository, f.evidence, (owner,))
                    continue
                if f is app_server:
                    self.process_primaries.add(host)
                    continue
                if source == "systemd" and comp.attributes.get("deployment") in ("compose", "kubernetes"):
                    continue  # a host install's unit starting nothing a deployment runs (a Debian package's importer
                    #           service): the component runs in its container, where no systemd starts it
                selected = self._selected_services(f, host)
                own = self._service_serving_routes(host, f.repository, selected)
                for name, code in selected or [(owner, None)]:
                    if name != owner and self.alias.get(name.lower()) not in (None, host):
                        continue
                    if name == own and code is not None:
                        # the service whose module reaches the program's route declarations is the
                        # program as users meet it (its API and its app): the component itself, known
                        # by the service's name too, not a second box beside one that runs nothing alone
                        self.add_component(host, comp.kind, f.repository, code, (name,))
                        self.process_primaries.add(host)
                        continue
                    attrs = {"part_of": host, "process": name, "command": f.get("command") or "", "launched_by": source}
                    if code is not None:
                        attrs["selected_by"] = f"{owner}: {SELECT_SERVICES.search(f.get('command') or '').group(0)}"
                    proc = self.add_component(name, "service", f.repository, f.evidence, attributes=attrs)
                    if code is not None:
                        proc.evidence.add(code)
                    proc.language = proc.language or comp.language
                    # (a scheduler only puts due tasks on the broker)
                    self._use_stores_of(proc.id, host, f.evidence, stores,
                                        brokers_only=bool(SCHEDULER.search(f.get("command") or "")))

    def supervised_stores(self) -> None:
        """Processes started beside a component (``part_of``, launched by a process manager) use the stores its
        code turned out to use once every store rule has run: a driver's database, a platform's add-on."""
        for proc in sorted(self.model.components.values(), key=lambda c: c.id):
            host = self.model.components.get(proc.attributes.get("part_of") or "")
            if host is None or proc.kind != "service" or proc.attributes.get("launched_by") not in SUPERVISORS \
                    or not proc.evidence:
                continue
            self._use_stores_of(proc.id, host.id, sorted(proc.evidence)[0], self._configured_links(host.id),
                                brokers_only=bool(SCHEDULER.search(proc.attributes.get("command") or "")))

    def _cron_jobs(self, host: str, jobs: list[Fact]) -> None:
        """A crontab an image installs (`COPY cronjobs /etc/cron.d/cronjobs`) whose jobs run the application's
        code (`php /var/www/html/endpoints/cronjobs/sendnotifications.php`, `php artisan schedule:run`): the cron
        daemon running them is a scheduler process of the component, `<component>-cron`, using the stores it is
        configured with.  A crontab no image installs (a developer's, an example) starts nothing."""
        comp = self.model.components[host]
        by_file: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in jobs:
            by_file[(f.repository, f.path)].append(f)
        copied = {PurePosixPath(src.strip()).name for f in self.by_kind["docker.copy"]
                  for src in (f.get("sources") or "").split(",") if src.strip()}
        for (repo, path), lines in sorted(by_file.items()):
            if PurePosixPath(path).name not in copied:
                continue
            code = [f for f in lines if re.search(r"\b(php|python3?|node|ruby|bundle|rails|artisan|manage\.py)\b|/bin/", f.get("command") or "")]
            if not code:
                continue  # (log rotation, certificate renewal: housekeeping, not the application's jobs)
            proc = self.add_component(f"{comp.name}-cron", "service", repo, code[0].evidence, attributes={
                "part_of": host, "process": "cron", "command": code[0].get("command") or "", "launched_by": "cron"})
            proc.language = proc.language or comp.language
            self._use_stores_of(proc.id, host, code[0].evidence, self._configured_links(host))

    def _configured_links(self, host: str) -> list[Connection]:
        """`host`'s links to the stores, brokers and mail server its settings configure, by target."""
        return [c for c in sorted(self.model.connections.values(), key=lambda x: (x.target, x.protocol))
                if c.source == host and _configured_service(self.model.components[c.target])]

    def _use_stores_of(self, proc: str, host: str, evidence: Evidence, stores: list[Connection],
                       brokers_only: bool = False) -> None:
        """A process running `host`'s code with its settings uses the stores `host` is configured with (`stores`:
        its links to them), or only its caches and brokers (a scheduler putting due tasks on the broker)."""
        for conn in stores:
            if brokers_only and self.model.components[conn.target].kind not in ("cache", "broker"):
                continue
            self.connect(proc, conn.target, conn.protocol, [evidence, *sorted(conn.evidence)[:1]], kind=conn.kind,
                         attributes={"via": f"runs {self.model.components[host].name}'s code with its settings"})

    def _script_programs(self, host: str, programs: list[Fact]) -> None:
        """A container start script's background programs: its web server is the container's front door in front
        of the application, its store server (`redis-server /app/redis.conf &`) the one the application uses, unless
        the model has that store already (the application's client found it)."""
        self._supervised_web_servers(host, "script", programs)
        for f in programs:
            self._store_beside(host, "script", f, unless_known=True)

    def _store_beside(self, host: str, source: str, f: Fact, unless_known: bool = False) -> None:
        """A process manager's line starting a store's own server (`redis-server config/redis.conf`) runs that
        store beside the application in its container: the store, which the application uses.  `unless_known`:
        not when the model has a store of that technology already (the application's client found it)."""
        words = (f.get("command") or "").split()
        server = STORE_SERVERS.get(PurePosixPath(words[0]).name.lower()) if words else None
        if server is None and words and (PurePosixPath(words[0]).name.lower() in SHELLS or words[0].endswith(".sh")):
            server = STORE_SERVERS.get(STORE_PROGRAMS.get((f.get("owner") or "").lower(), ""))
        if server is None:
            return
        tech, kind = server
        if unless_known and any(c.attributes.get("technology") == tech or c.id == (f.get("owner") or tech)
                                for c in self.model.components.values() if c.kind == kind):
            return
        store = self.add_component(f.get("owner") or tech, kind, f.repository, f.evidence, attributes={
            "technology": tech, "launched_by": source, "command": f.get("command") or "",
            "host": self.model.components[host].name})
        self.connect(host, store.id, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence], kind="uses",
                     attributes={"via": f"{source} runs it in the same container"})

    def _supervised_web_servers(self, host: str, source: str, programs: list[Fact]) -> None:
        """A line of s6, a Procfile or systemd starting a web server (``nginx -g "daemon off;"``) beside the
        application in its container: that web server is the container's front door, a gateway in front of the
        application (the FastCGI pool, the WSGI server) it passes requests to. The people the container's published
        ports let in reach it."""
        comp = self.model.components[host]
        for f in programs:
            tech = WEB_SERVERS.get(_program_word(f))
            owner = f.get("owner") or ""
            if tech is None or self.alias.get(owner.lower()) is not None:
                continue
            gateway = self.add_component(owner or tech, "gateway", f.repository, f.evidence, attributes={
                "technology": tech, "launched_by": source, "command": f.get("command") or "", "host": comp.name,
                "role": f"web server in front of {comp.name} in its container"})
            self.connect(gateway.id, host, "http", [f.evidence], kind="calls",
                         attributes={"via": f"{source} runs it in front of {comp.name} in the same container"})
            for k in sorted(k for k in self.model.connections if k[1] == host and k[2] == "http"
                            and self.model.components[k[0]].kind == "user"):
                conn = self.model.connections[k]
                if (conn.attributes.get("via") or "") != "published entry point":
                    continue
                self.connect(k[0], gateway.id, "http", sorted(conn.evidence), kind=conn.kind,
                             attributes={"via": "published entry point"})
                self.model.connections.pop(k)
                self.created_by.pop(k, None)

    def _service_serving_routes(self, host: str, repo: str, selected: list[tuple[str, Evidence]]) -> str | None:
        """The one selected service whose module reaches (through relative imports) a file declaring
        the host's HTTP routes, else None."""
        routes = {e.path for p in self.model.components[host].ports.values() if p.protocol == "http"
                  for ep in p.endpoints for e in ep.evidence if e.repository == repo}
        packages = getattr(self, "packages", None)
        if len(selected) < 1 or not routes or packages is None:
            return None
        files = {p for (r, p), lang in packages.files.items() if r == repo and lang in SCRIPT_LANGUAGES}
        graph = file_graph(repo, files, [f for f in self.by_kind["import"] if f.repository == repo],
                           [f for f in self.by_kind["module.var"] if f.repository == repo])
        serving = [name for name, code in selected if _closure(graph, {code.path}, set()) & routes]
        return serving[0] if len(serving) == 1 else None

    def _image_split_by_deployment(self, host: str) -> bool:
        """Does a deployment run `host`'s image as another service too (compose `dawarich_app` and
        `dawarich_sidekiq` both of `freikin/dawarich`, with their own commands)?  Then the deployment, not a
        Procfile, says which processes the code runs as."""
        image = _image_repo(self.model.components[host].attributes.get("image") or "")
        return bool(image) and any(
            c.id != host and c.kind in ("service", "gateway") and c.attributes.get("deployment")
            and _image_repo(c.attributes.get("image") or "") == image for c in self.model.components.values())

    def _scripts_deployed(self) -> dict[tuple[str, str], str]:
        """(repository, script file) -> the one deployed component whose own command runs that script."""
        paths = self.code_paths
        found: dict[tuple[str, str], set[str]] = defaultdict(set)
        for c in self.by_kind["program.command"]:
            cid = self.alias.get((c.get("owner") or "").lower()) if c.get("source") in ("compose", "kubernetes") else None
            for word in (c.get("command") or "").replace('"', " ").split():
                if cid and (c.repository, word.removeprefix("./")) in paths:
                    found[(c.repository, word.removeprefix("./"))].add(cid)
        return {k: next(iter(v)) for k, v in found.items() if len(v) == 1}

    def _deployment_same_command(self, f: Fact) -> str | None:
        """The one container deployment (compose, Kubernetes) starting the program a host's unit starts, told
        by the program's name and its first arguments (`/opt/app/venv/bin/celery -A app worker -l info` and
        compose's `celery -A app worker --pool=threads`): the unit installs that process on a host instead."""
        mine = _command_signature(f.get("command") or "")
        if mine is None:
            return None
        hits = set()
        for (repo, owner), command in sorted(self.deployment_commands.items()):
            if repo != f.repository:
                continue
            theirs = _command_signature(command)
            cid = self.alias.get(owner)
            if cid is not None and theirs is not None and theirs[0] == mine[0] \
                    and theirs[1][:len(mine[1])] == mine[1][:len(theirs[1])]:
                hits.add(cid)
        return hits.pop() if len(hits) == 1 else None

    @staticmethod
    def _deployment_running(f: Fact, deployed: dict[tuple[str, str], str]) -> str | None:
        """The one deployed component running a script file of the repository that the program's
        command runs too (``bin/threaded.rb``), else None."""
        hits = {deployed.get((f.repository, w.removeprefix("./"))) for w in (f.get("command") or "").replace('"', " ").split()} - {None}
        return hits.pop() if len(hits) == 1 else None

    def _selected_services(self, f: Fact, host: str) -> list[tuple[str, Evidence]]:
        """Services one program starts by name (``yarn start --services=web,websockets``, ``SERVICES=a,b``)
        when the code has one module per service name in one folder (``server/services/web.ts``,
        ``server/services/websockets.ts``): each named service runs in that process, so each is a
        process of its own in the picture, with its module as evidence. Names that are not all modules
        of one folder select nothing (a flag with another meaning)."""
        m = SELECT_SERVICES.search(f.get("command") or "")
        if not m:
            return []
        names = [n for n in re.split(r"[,\s]+", m.group("names").strip("'\"")) if n]
        if not names or len(set(names)) != len(names) or not all(re.fullmatch(r"[A-Za-z][\w-]*", n) for n in names):
            return []
        roots = sorted(root for r, root in self.model.components[host].source_roots if r == f.repository)
        by_folder: dict[str, dict[str, str]] = defaultdict(dict)
        for r in self.results:
            if r.repository.name != f.repository:
                continue
            for x in r.inventory.files:
                p = PurePosixPath(x.path)
                if x.language and p.stem in names and PurePosixPath(p.parent).name in SERVICE_FOLDERS \
                        and any(is_under(x.path, root) for root in roots):
                    by_folder[folder(x.path)].setdefault(p.stem, x.path)
        whole = sorted(d for d, found in by_folder.items() if len(found) == len(names))
        if len(whole) != 1:
            return []
        return [(n, Evidence(f.repository, by_folder[whole[0]][n], 1)) for n in names]


# A Procfile manager starting every process of the Procfile in one container (`honcho start`, `foreman start`).
PROCFILE_MANAGER = re.compile(r"\b(honcho|foreman|overmind|forego|hivemind)\b", re.I)
PROCFILE = re.compile(r"(^|/)Procfile(\.[A-Za-z0-9_-]+)?$")


class OneContainerRules(ResolverBase):
    """Programs supervisord keeps running inside one container are that container's processes."""

    def one_container_processes(self) -> None:
        """supervisord is how a project packs its server, workers and scheduler into one container (one
        image, one compose service, one Kubernetes workload), and its documents draw that container:
        the programs of a ``supervisord.conf`` are the processes of the deployment that starts
        supervisord (its command names it), else of the component they were found in. Each folds into
        that component: its links and names move over, and the component lists its ``processes``."""
        supervised = {f.evidence for f in self.by_kind["program.command"] if f.get("source") == "supervisord"}
        # (so are a Procfile's processes where the image recipe beside it starts a Procfile manager, `CMD ["honcho",
        # "start"]`: one container runs them all, as supervisord's do)
        managed = {folder(d.path) for d in self.by_kind["docker.command"]
                   if d.get("instruction") in ("CMD", "ENTRYPOINT") and PROCFILE_MANAGER.search(d.get("command") or "")}
        procs = sorted((c for c in self.model.components.values() if c.attributes.get("process")
                        and c.attributes.get("part_of") in self.model.components
                        and (c.attributes.get("launched_by") == "supervisord" or c.evidence & supervised
                             or any(PROCFILE.search(e.path) and folder(e.path) in managed for e in c.evidence))),
                       key=lambda c: c.id)
        # what each deployment starts instead of its image's command (compose `command:`, a workload's command)
        started = {(f.repository, (f.get("owner") or "").lower()): f.get("command") or ""
                   for f in sorted(self.by_kind["program.command"], key=Fact.order) if f.get("source") == "compose"}
        # the deployments that start supervisord, found once (folding a process changes none of them)
        supervising = sorted((c.id, _image_repo(c.attributes.get("image") or "")) for c in (
            self.model.components.values() if procs else ()) if c.attributes.get("deployment")
            and re.search(r"supervisor", " ".join((
                c.attributes.get("runs") or "", c.attributes.get("command") or "",
                started.get((c.repository or "", c.name.lower()), ""))), re.I))
        for proc in procs:
            host = self.model.components[proc.attributes["part_of"]]
            image = _image_repo(host.attributes.get("image") or "")
            runners = [cid for cid, cimage in supervising if cid != proc.id and cid in self.model.components
                       and (cid == host.id or (image and cimage == image))]
            into = runners[0] if len(runners) == 1 else host.id
            if proc.id not in self.model.components or into == proc.id:
                continue
            name, before = proc.name, set(self.model.components[into].attributes)
            self.fold_component(proc.id, into)
            kept = self.model.components[into]
            for k in ("part_of", "process", "launched_by", "command", "selected_by", "patterns", "resolved_by"):
                if k not in before:  # (what made the process one: not the container's)
                    kept.attributes.pop(k, None)
            listed = set(filter(None, (kept.attributes.get("processes") or "").split(", ")))
            kept.attributes["processes"] = ", ".join(sorted(listed | {name}))
            if kept.kind == "library" and kept.attributes.get("deployment"):
                # (a deployment taken for the code its processes share is, once they fold into it, what runs them)
                kept.kind = "service"
                if kept.attributes.get("role") == "code its processes share":
                    kept.attributes.pop("role")


class SpawnedBinaryRules(ResolverBase):
    """Programs a process starts by name that the repository's build ships (``llama-server``)."""

    def spawned_binaries(self) -> None:
        finders = {(f.repository, f.get("function") or ""): f for f in self.by_kind["program.finder"]}
        shipped: dict[tuple[str, str], Fact] = {}
        for f in sorted([*self.by_kind["program.shipped"], *self.by_kind["program.binary"]], key=Fact.order):
            shipped.setdefault((f.repository, (f.get("name") or "").lower()), f)
        for f in self.by_kind["process.spawn_via"]:
            finder = finders.get((f.repository, f.get("finder") or ""))
            program = (finder.get("program") or "") if finder else ""
            ship = shipped.get((f.repository, program.lower()))
            if finder is None or ship is None:
                continue  # a tool of the host (git, docker) or a program found some other way
            source = self._spawner(f)
            if source is None:
                continue
            existing = self.alias.get(program.lower())
            if existing is not None and existing != source and existing in self.model.components:
                target = existing
            else:
                comp = self.add_component(program, "service", f.repository, ship.evidence,
                                          attributes={"process": program, "spawned_by": source,
                                                      "role": "program the product ships and starts"})
                target = comp.id
            self.connect(source, target, "process", [f.evidence, finder.evidence], kind="spawns",
                         attributes={"via": f"starts the '{program}' program it looks up"})

    def _spawner(self, f: Fact) -> str | None:
        """The process that runs the spawn site: its package's owner, unless several processes link that
        package; then the one of them that serves (has ports) and is not itself started by another of them
        (the server, not the runner it spawns), when there is exactly one."""
        process_of = getattr(self, "process_of_file", None)
        if process_of is None or getattr(self, "packages", None) is None:
            return self.owner_of(f.repository, f.path)
        owner = process_of(f.repository, f.path) or self.owner_of(f.repository, f.path)
        d = self.packages.package_of(f.repository, f.path)
        holders = sorted(h for h in self.package_holders.get((f.repository, d or ""), set())
                         if h in self.process_parent and self.model.components[h].ports)
        started = {k[1] for k in self.model.connections if k[2] == "process" and k[0] in holders}
        serving = [h for h in holders if h not in started]
        return serving[0] if len(serving) == 1 else owner


def _configured_service(comp: Component) -> bool:
    """A store, broker or mail server: what a program's settings configure, so every process running
    that code with those settings uses it (a worker sends the mail the web server is set up to send)."""
    return comp.kind in ("database", "cache", "broker") or comp.attributes.get("technology") == "smtp"


class NamedProcessRules(ResolverBase):
    """Addresses that name a process the process rules found after the settings were read."""

    def named_processes(self) -> None:
        """A setting or literal naming a host no component answered to when addresses were resolved
        (``functions_provider_url=http://faasd-provider:8081/`` in a compose file, a scrape target
        ``faasd-provider:8081``) may name a process the code's programs turned out to be (a systemd
        unit running ``faasd provider``): it connects to that process, and leaves the unresolved list."""
        keep: list[Unresolved] = []
        for u in self.model.unresolved:
            hits = [(ref, self.alias.get(ref.host)) for ref in parse_hosts(u.value)]
            targets = [(ref, t) for ref, t in hits if t is not None and t != u.component
                       and t in self.model.components and u.component in self.model.components
                       and self.model.components[t].kind in ("service", "gateway")]
            if not targets or len(targets) != len(hits):
                keep.append(u)
                continue
            for ref, target in targets:
                protocol = "http" if (ref.scheme or "http") in ("http", "https") else ref.scheme or "tcp"
                self.connect(u.component, target, protocol, [u.evidence],
                             attributes={"via": f"address of a process: {ref.host}"})
        self.model.unresolved[:] = keep


def _program_word(f: Fact) -> str:
    """The program a supervised line starts, by its file name (``/usr/sbin/nginx -g ...`` -> ``nginx``); through
    a shell's script (``bash -c "export HOME=/app; node index.js"`` -> ``node``), the script's last command."""
    command = (f.get("command") or "").strip()
    shell = re.match(r"^(?:/(?:usr/)?bin/)?(?:ba)?sh\s+-c\s+([\"'])(.*)\1\s*$", command)
    if shell:
        steps = [x.strip() for x in re.split(r";|&&", shell.group(2)) if x.strip()]
        command = re.sub(r"^(exec\s+|[A-Za-z_]\w*=\S*\s+)+", "", steps[-1]) if steps else ""
    words = command.split()
    return PurePosixPath(words[0].strip("'\"")).name.lower() if words else ""
