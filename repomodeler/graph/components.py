"""Rules that find components: deployment descriptors, build units, Spring identities, languages,
the endpoints each component provides and its exposed ports."""

from __future__ import annotations

import functools
import json
import posixpath
import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase, compose_filled, runtime_language, slug, stages_reached
from repomodeler.graph.constants import JS_FAMILY
from repomodeler.graph.compose_extends import DEFAULT_COMPOSE
from repomodeler.graph.catalog import (
    GATEWAY_ROUTES_KEY,
    ENTRY_FILES,
    NODE_SERVICE_DEPENDENCY,
    ROLE_SERVERS,
    STORE_KINDS,
    image_basename,
    store_named,
    tech_for_image,
)
from repomodeler.graph.identity import artifact_name, image_names, image_tag, key, keys_of, shared_prefix
from repomodeler.graph.identity import image_repo as _image_repo
from repomodeler.graph.naming import (
    COMPOSE_DEFAULT,
    GENERIC_DIRS,
    dependency_key,
    image_language,
    is_under,
    join_path,
    language_family,
    norm_path,
    unit_name,
)
from repomodeler.graph.values import (
    METHOD_WORDS,
    parse_hosts,
    route_of,
    router_prefix,
)
from repomodeler.graph.dtos import dto_schemas
from repomodeler.graph.webapps import BUNDLERS, SERVER_FRAMEWORKS, UI_FRAMEWORKS
from repomodeler.graph.packages import folder
from repomodeler.graph.protos import openapi_schemas
from repomodeler.graph.scripts import parse_launch, python_module_file, split_command, started_binary
from repomodeler.extract.readers._base import idle_command
from repomodeler.extract.readers.makefile import GO_FLAGS_WITH_VALUE
from repomodeler.inventory import API_DESCRIPTION
from repomodeler.languages import language_for_path
from repomodeler.records import Component, Endpoint, Evidence, Fact, Port

# Attributes of a Kubernetes workload fact that say how it is sized (extract/readers/kubernetes.py):
# copied to the component as written; the SysML emitter types them (emit/values.py).
WORKLOAD_SIZING = ("replicas", "cpu_request", "cpu_limit", "memory_request", "memory_limit")



# A compose command starting with a word of the image's own program (`master`, `worker`, `serve`) rather than a
# program of its own; RUNNERS are programs (interpreters, servers, shells) a command starts with instead.
SUBCOMMAND = re.compile(r"[a-z][a-z0-9_-]*")
RUNNERS = frozenset({"python", "python3", "node", "npm", "npx", "yarn", "pnpm", "bun", "deno", "sh", "bash", "ash",
                     "java", "dotnet", "php", "php-fpm", "ruby", "bundle", "rails", "rake", "go", "gunicorn", "uvicorn",
                     "hypercorn", "daphne", "celery", "flask", "django-admin", "supervisord", "nginx", "exec", "env",
                     "dumb-init", "tini", "pm2", "pm2-runtime", "nodemon", "ts-node", "tsx", "sleep", "tail"})
# Folders of developers' tools (generators, linters, scripts): programs there are not the running system.
DEV_TOOL_DIRS = frozenset({"tools", "hack", "devtools", "dev-tools", "scripts"})
# A recipe named for what it builds: Dockerfile.frontend, frontend.Dockerfile, Dockerfile-frontend.
# A settings file's extension, for values that name one (`OL_CONFIG=/openlibrary/conf/openlibrary.yml`).
SETTINGS_EXTENSION = re.compile(r"\.(ya?ml|json|toml|ini|conf|hocon|properties)$")
# A build module named for packing a program into an image (agent-docker, docker-agent, agent-image): the program.
IMAGE_PACKER = re.compile(r"^(?:docker[-_]([a-z0-9][a-z0-9_-]*?)|([a-z0-9][a-z0-9_-]*?)[-_](?:docker|image|container))$", re.I)
# Names of a settings file every program reading its folder loads (config.yaml beside user.yaml and saas.yaml).
SHARED_SETTINGS_STEMS = frozenset({"config", "configs", "settings", "application", "app", "default", "defaults",
                                   "common", "shared", "base"})
# A recipe named for a web server or proxy (Dockerfile.caddy, nginx.Dockerfile): the image of that server, whatever
# program the folder holds beside it.
_SIDE_IMAGE = re.compile(r"^(caddy|nginx|proxy|traefik|haproxy|envoy|apache|httpd|web-?server)$", re.I)
# (``Dockerfile.server``, ``Dockerfile-server``, ``Dockerfile_server``, ``DockerfileServer``, ``server.Dockerfile``)
RECIPE_NAME = re.compile(r"^(?:(?:Dockerfile|Containerfile)(?:[._-]|(?=[A-Z]))([\w.-]+)|([\w.-]+)\.(?:Dockerfile|Containerfile)|([\w-]+)\.(?:dockerfile|containerfile))$", re.I)
# A package in a folder of plug-ins (plugins/<name>/, extensions/<name>/, addons/<name>/): one the host loads.
PLUGIN_FOLDER = re.compile(r"(^|/)(plugins|extensions|addons|add-ons)/[^/]+", re.I)
# A folder named for demos (demo, zlt-demo); a folder of samples may hold the documented built-in programs.
DEMO_COLLECTION = re.compile(r"(^|[-_.])(demo|demos)$", re.I)
# A module named as a demo or a sample of using the product (cas-springboot-demo, oauth-client-sample, demo-client1).
DEMO_NAMED = re.compile(r"(^|[-_.])(demo|demos|sample|samples)([-_.]|\d|$)", re.I)
# Settings naming the service for discovery (Spring Cloud, Micronaut).
APPLICATION_NAME_KEYS = frozenset({"spring.application.name", "micronaut.application.name"})

# Local stand-ins for cloud services and mail a developer's backing-services stack starts beside its stores.
LOCAL_EMULATOR = re.compile(r"(^|/)(localstack|azurite|azure-storage/azurite|mailhog|mailpit|mailcatcher|fake-gcs-server|"
                            r"dynamodb-local|elasticmq|wiremock|[\w-]*emulator[\w-]*)(:|$)", re.I)


# The Services a store's chart makes beside ``<release>-<name>`` (Bitnami's headless, master/replica, primary).
CHART_SERVICE_SUFFIXES = ("", "-headless", "-hl", "-master", "-primary", "-replicas", "-read", "-leader")



def selected_workloads(service: Fact, workloads: list[tuple[Fact, str]]) -> list[tuple[Fact, str]]:
    """The (workload, value) pairs whose pod labels carry every ``key=value`` of the Service's selector
    in its repository (a Service without a selector, or workloads without labels, select nothing here)."""
    selector = set(filter(None, (service.get("selector") or "").split(",")))
    if not selector:
        return []
    return [(w, v) for w, v in workloads if w.repository == service.repository
            and selector <= set(filter(None, (w.get("labels") or "").split(",")))]


def _version_labelled(label_sets: list[set[frozenset[str]]]) -> bool:
    """Do the workloads carry the same pod labels but for a `version` label each has, with a value of its own
    (``app=recommendation,version=v1`` and ``...,version=v2``): versions of one application, as a service mesh
    routes between them?"""
    versions, rest = [], set()
    for sets in label_sets:
        for labels in sets:
            own = {x for x in labels if x.split("=", 1)[0] == "version"}
            if len(own) != 1:
                return False
            versions.append(next(iter(own)))
            rest.add(labels - own)
    return len(rest) == 1 and len(set(versions)) == len(label_sets) == len(versions)


def _descriptor_unit(path: str) -> str:
    """What deploys a set of services together: a file, or a Helm chart (its templates, ``chart/templates/*.yaml``)."""
    return f"/{path}".split("/templates/")[0] + "/templates/" if "/templates/" in f"/{path}" else path


def _top_folder(path: str) -> str:
    """The top folder of a repository path ('' for a file at the top): the manifest tree it belongs to."""
    return path.split("/", 1)[0] if "/" in path else ""


def _folders_named(folder_path: str, names: set[str]) -> list[str]:
    """The folders from the root down to `folder_path` (itself included) named one of `names` (case-insensitive),
    by their own name (``emojivoto-web/``) or by their last two segments joined with a dash (``app/cart/service``
    for ``cart-service``)."""
    original = folder_path.split("/") if folder_path else []
    parts = [p.lower() for p in original]
    # (not inside a source tree's package folders: com/piggymetrics/config is a Java package, not a module)
    inside_sources = [any(x in _SOURCE_TREE for x in parts[: i + 1]) for i in range(len(parts))]
    return ["/".join(original[: i + 1]) for i, part in enumerate(parts) if not inside_sources[i]
            and (part in names or (i > 0 and f"{parts[i - 1]}-{part}" in names))]


# Folders that hold a language's package tree (src/main/java/com/acme/...): their sub-folders are packages.
_SOURCE_TREE = frozenset({"src", "java", "kotlin", "scala", "lib"})



def _chart_of(path: str) -> str:
    """The chart folder a rendered template belongs to (``charts/vela-core`` of
    ``charts/vela-core/templates/cluster-gateway/cluster-gateway.yaml``), '' for a plain manifest."""
    m = re.search(r"^(.*?)/templates/", path)
    return m.group(1) if m else ""

def _image_owner_path(image: str) -> str:
    """The owner of an image reference, registry included (``docker.io/oamdev/vela-core:1`` -> ``docker.io/oamdev``;
    '' for an official image such as ``nginx``)."""
    path = _image_repo(image)
    return path.rsplit("/", 1)[0] if "/" in path else ""

# Words an organisation adds to its project's name on registries and forges (kedacore/keda, goharbor/harbor).
ORG_SUFFIXES = frozenset({"core", "io", "dev", "hq", "labs", "project", "org", "oss", "sh", "app", "ai", "team", "community",
                          "cloud", "tech", "hub", "inc"})
ORG_PREFIXES = frozenset({"go", "get", "the", "use", "try"})

# A module's own folder of Kubernetes manifests (kubebuilder's config/, a chart-less deploy/ or manifests/).
# (and its own chart: chart/, charts/, helm/)
HELM_DIRS = frozenset({"chart", "charts", "helm"})
MODULE_MANIFEST_DIRS = frozenset({"config", "deploy", "manifests", "k8s", "kubernetes"}) | HELM_DIRS


# Folder and package names saying what a module does rather than which it is (server/daemon, a crate `daemon`).
ROLE_FOLDER_WORDS = frozenset({*GENERIC_DIRS, "daemon", "daemons", "agent", "worker", "core", "cli", "service", "server",
                               "gateway", "proxy", "scheduler", "controller", "operator", "bin"})


# A package's manifest by its file name (what a recipe copies in first to install the package's dependencies).
PACKAGE_MANIFEST = re.compile(r"(^|/)(package\.json|pyproject\.toml|requirements\.txt|go\.mod|Cargo\.toml|pom\.xml|"
                              r"build\.gradle(\.kts)?|Gemfile|composer\.json|mix\.exs|[^/]+\.csproj)$")

# The tag of an image a project follows rather than pins: none, a tag naming no release (`latest`, `latest-aio-cpu`,
# a branch, `devel`, `nightly`), a variable; a release's tag has a number (`1.21`, `v2`, `15-alpine`).
MOVING_TAG = re.compile(r"^([^0-9]*|.*\$.*)$")
# The images of operators' and developers' tools known by their image (mail catchers, tracing, metrics, log servers).
_TOOL_IMAGE = re.compile("|".join(f"(?:{signs['image']})" for signs in ROLE_SERVERS.values() if "image" in signs))


# The languages of the code each build ecosystem builds.
ECOSYSTEM_LANGUAGES = {"npm": {"javascript", "typescript", "tsx"}, "go": {"go"}, "cargo": {"rust"}, "python": {"python"},
                       "ruby": {"ruby"}, "hex": {"elixir"}, "maven": {"java", "kotlin"}, "gradle": {"java", "kotlin"},
                       "dotnet": {"csharp"}, "cmake": {"cpp"}}
# A development tool's settings written as code (commitlint.config.js, .eslintrc.js, jest.config.ts).
TOOL_SETTINGS_FILE = re.compile(r"(^|/)([^/]+\.config|\.[^/]+rc)\.[cm]?[jt]s$")


def _followed_image(image: str) -> bool:
    """An image a project publishes and follows itself: at a moving tag, and no local emulator or operators' tool
    known by its image."""
    return bool(MOVING_TAG.match(image_tag(image))) and not LOCAL_EMULATOR.search(image) \
        and not _TOOL_IMAGE.search(image.lower())


def _program_stem(value: str) -> str:
    """What a variable naming one program of an image says, without folders and file endings:
    `backend/services/accounts.service.js` -> `accounts`, `accounts` -> `accounts`."""
    first = value.split(",")[0].strip().strip("\"'").lower()
    stem = first.rsplit("/", 1)[-1]
    return re.sub(r"(\.service)?\.(?:[cm]?[jt]s|py|rb|go|php)$", "", stem)


class ComponentRules(ResolverBase):
    """Rules that create components and describe what they provide."""

    def deployment_components(self) -> None:
        # One application image deployed by several descriptors (compose and Kubernetes, two compose
        # files) is one component: image repository (without tag) -> the first component's name.
        # Within one file, services sharing an image are separate instances (four MongoDBs from one image).
        by_image: dict[str, tuple[str, str]] = {}  # image repository -> (component name, descriptor path)
        images_of = {(f.repository, f.path, f.get("name") or ""): self.compose_interpolate(f, f.get("image")) or ""
                     for f in self.by_kind["compose.service"]}
        overridden = {(f.repository, f.path, f.get("owner") or "") for f in self.by_kind["program.command"]
                      if f.get("source") == "compose" and not _ends_in_own_program(
                          f.get("command") or "", images_of.get((f.repository, f.path, f.get("owner") or ""), ""))}
        # (services that run another command than the image's; a shell writing a settings file and then starting
        # the image's own program, `sh -c "echo ... > /tmp/config.yml; /app/console"`, runs the image's program)
        commands = {(f.repository, f.path, (f.get("owner") or "").lower()): f.get("command") or ""
                    for f in self.by_kind["program.command"] if f.get("source") == "compose"}
        first_commands: dict[str, str] = {}  # image repository -> the command of the service it was first seen as
        file_images = {(f.repository, f.path, (f.get("name") or "").lower(), self.compose_interpolate(f, f.get("image")))
                       for f in self.by_kind["compose.service"] if f.get("image")}
        numbered_nodes: dict[tuple[str, str, str, str | None], int] = defaultdict(int)
        modules = self.image_modules()  # image name key -> modules whose build tool makes it
        builders: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)  # module -> (service, file) building it
        if modules:
            for f in self.by_kind["compose.service"]:
                root = self.build_root(f)[0]
                if root is not None:
                    builders[(f.repository, root)].add(((f.get("name") or "").lower(), f.path))
        for f in self.by_kind["compose.service"]:
            m = NUMBERED_NODE.match(f.get("name") or "")
            if m:  # (an override file's entries without image or build count among themselves)
                numbered_nodes[(f.repository, f.path, m.group(1).lower(), self._node_image(f))] += 1
        # numbered services a proxy balances across in one backend or upstream (haproxy's `backend tb-core`
        # holding tb-core1 and tb-core2): instances of one service, however few
        # (an upstream naming the fixed addresses compose gives the services, `server 172.30.0.81;` for the service
        # whose `ipv4_address` that is, names those services)
        fixed = {(f.repository, (f.get("alias") or "").lower()): (f.get("owner") or "").lower()
                 for f in self.by_kind["compose.network_alias"] if IP_ADDRESS.fullmatch(f.get("alias") or "")}
        upstreams: dict[tuple[str, str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["proxy.route"]:
            if f.get("via"):
                host = re.sub(r"^[a-z][a-z0-9+.-]*://", "", (f.get("upstream") or "").lower()).split("/")[0].split(":")[0]
                upstreams[(f.repository, f.path, f.get("via") or "")].add(fixed.get((f.repository, host), host))
        balanced = {m.group(1).lower() for hosts in upstreams.values() if len(hosts) >= 2
                    for m in (NUMBERED_NODE.match(h) for h in hosts) if m
                    and sum(1 for h in hosts if (n := NUMBERED_NODE.match(h)) and n.group(1) == m.group(1)) >= 2}
        balanced |= self._self_named_instances()
        twins = self.backing_store_twins()
        # an image a file runs as several services (migrate, api, worker of getacme/api): when one of them is
        # named like the image, the image's name is that one's, not the first's
        # (files one start command runs together are one project: its api and worker of one image count)
        image_uses: dict[tuple[str, str, str], int] = defaultdict(int)
        for f in self.by_kind["compose.service"]:
            if f.get("image"):
                image_uses[(f.repository, self.compose_project(f.repository, f.path),
                            _image_repo(self.compose_interpolate(f, f.get("image")) or ""))] += 1
        service_names = {(f.get("name") or "").lower() for f in self.by_kind["compose.service"]}
        azd_builds = self._azd_builds()
        file_services: dict[tuple[str, str], set[str]] = defaultdict(set)  # (repository, compose file) -> its services
        file_images_by_name: dict[tuple[str, str, str], str] = {}  # (repository, compose file, service) -> its image
        for f in self.by_kind["compose.service"]:
            file_services[(f.repository, f.path)].add((f.get("name") or "").lower())
            if f.get("image") and not f.get("build_context"):
                file_images_by_name[(f.repository, f.path, (f.get("name") or "").lower())] = \
                    _image_repo(self.compose_interpolate(f, f.get("image")) or "")
        for f in self.by_kind["compose.service"]:
            name = f.get("name") or ""
            image = self.compose_interpolate(f, f.get("image"))
            tech = tech_for_image(image)
            context = self.compose_interpolate(f, f.get("build_context"))
            if context is None and f.get("dockerfile"):
                context = "."  # a build with a Dockerfile and the default context
            if tech is None and image and context is None and self.recipe_for_image(f.repository, image) is None:
                tech = store_named(name)
            kind = tech[1] if tech and not context else "service"
            attrs = {"image": image or "", "technology": tech[0] if tech else "", "deployment": "compose",
                     "ports": f.get("ports") or f.get("expose") or ""}
            shared_image = bool(image) and image_uses[(f.repository, self.compose_project(f.repository, f.path),
                                                       _image_repo(image or ""))] > 1 \
                and image_basename(image or "").lower() in service_names - {name.lower()}
            # (the image's name is no name of this service when another service of its file is called that:
            # temporalio/ui beside the system's own `ui`)
            aliases = tuple(a for a in (f.get("container_name"), f.get("hostname"),
                                        image_basename(image) if image and not tech and not context
                                        and not shared_image
                                        and image_basename(image).lower() not in file_services[(f.repository, f.path)]
                                        - {name.lower()}
                                        else None) if a)
            root, dockerfile = self.build_root(f)
            recipe = None
            named_recipe: tuple[str, list[str]] | None = None
            # (a variable in the tag alone, `acme/proxy:${tag}`, leaves the image's name known)
            started = self._recipe_started_by(f.repository, image, commands.get((f.repository, f.path, name.lower()))) \
                if root is None and image and not tech and (f.repository, f.path, name) in overridden else None
            if root is None and image and not tech and "$" not in _image_repo(image) \
                    and ((f.repository, f.path, name) not in overridden or started is not None):
                recipe = started or self.plugin_recipe(f.repository, image) or self.recipe_for_image(f.repository, image)
                if recipe is not None:
                    root, dockerfile = recipe
                else:
                    root = self.module_for_image_tag(f.repository, image) or self.folder_named_like_image(f.repository, image)
                named_recipe = self.named_recipe(f.repository, image)
                if named_recipe is None and f.get("recipe"):  # a README's printed service, built by the one recipe
                    named_recipe = (f.get("recipe") or "",
                                    self._recipe_copies(f.repository, f.get("recipe") or "", from_root=True))
                elif named_recipe is not None and root is None:
                    # a recipe named for the image that builds one package of the repository's workspace
                    # (docker/DockerfileServer for chibisafe-server: `yarn workspace @chibisafe/backend build`)
                    package = self.workspace_target(f.repository, named_recipe[0], "")
                    if package:
                        root, dockerfile = package, named_recipe[0]
                if root is None:
                    # the service of that name a build file builds from code (docker-compose.build.yml's `typebot-
                    # builder` with `build: {context: ., args: [SCOPE=builder]}` beside the default file's published
                    # image): the code the published image holds
                    built = {self.build_root(t) for how, t in self.opt_in_services if how == "variant"
                             and t.repository == f.repository and (t.get("name") or "").lower() == name.lower()
                             and t.get("build_context") and not t.get("image")}
                    built = {t for t in built if t[0] is not None}
                    if len(built) == 1:
                        root, dockerfile = next(iter(built))
            if root is not None:
                bases = [d.get("image") or "" for d in self.by_kind["docker.from"]
                         if d.repository == f.repository and d.path == dockerfile]
                # (a recipe with stages of a language's runtime builds a program; one of them may be FROM a store
                # image, an all-in-one variant bundling it: the image is the program)
                base_tech = next((t for t in (tech_for_image(b) for b in bases) if t), None) \
                    if not any(runtime_language(b) for b in bases) else None
                if base_tech:  # e.g. a custom image built FROM mongo:3 is still a MongoDB
                    kind = base_tech[1]
                    attrs["technology"] = base_tech[0]
                if bases and image_language(bases[0]):
                    attrs["base_language"] = image_language(bases[0]) or ""
            elif dockerfile and context is not None:
                # a store's image built here only to start it another way (`FROM mongo:4` with an entrypoint starting a
                # replica set), running none of the repository's code: still that store
                bases = [d.get("image") or "" for d in self.by_kind["docker.from"]
                         if d.repository == f.repository and d.path == dockerfile]
                base_tech = next((t for t in (tech_for_image(b) for b in bases) if t and t[1] in STORE_KINDS), None) \
                    if not any(runtime_language(b) for b in bases) else None
                if base_tech:
                    kind = base_tech[1]
                    attrs["technology"] = base_tech[0]
            same = self._same_image(image, by_image, f.path, name) if image and not tech and context is None else None
            if same and image and self._other_subcommand(f, image, first_commands, commands):
                same = None  # (the image's binary started as another of its roles: `master`, not `volume`)
            image_line = None  # the line of a build file naming the image this service runs
            if not same and root is None and image and not tech and "$" not in image:
                # the image a module's build tool makes (Jib, the .NET SDK), which a service of another
                # compose file builds from its Dockerfile: one component
                builder = self._compose_builder(f, image, modules, builders)
                if builder is not None:
                    same, image_line = builder
            if same and same.lower() != name.lower():
                aliases, name = (*aliases, name), same
            shipped = azd_builds.get((f.repository, name.lower())) if f.get("source") != "azd" else None
            if shipped and shipped.lower() != name.lower():
                # the Azure Developer CLI ships the folder a compose service builds (`project: ./src/api` beside
                # compose's `build: src/api`): the same program, run locally and in the cloud, known by the
                # name the cloud deployment gives it (its infrastructure tags it `azd-service-name`)
                aliases, name = (*aliases, name), shipped
            numbered = NUMBERED_NODE.match(name)
            # (nodes built from one recipe FROM a store's image count too: redis-node1..6 of `build: redis`)
            count = numbered_nodes.get((f.repository, f.path, numbered.group(1).lower(), self._node_image(f)), 0) \
                if numbered else 0
            if numbered and (tech or kind in ("database", "cache", "broker", "search")
                             # (an application's numbered instances of one image, three or more, run with one
                             # anchor's settings: tinode-0, tinode-1, tinode-2 of a cluster file, each with its
                             # exporter; two are as often two roles, relay-1 and relay-2 on two networks)
                             # (an override file's entries for them, with no image of their own, count alike)
                             or kind == "service" and (count >= 3 or numbered.group(1).lower() in balanced)
                             and (image or context is None)
                             and numbered.group(1).lower() not in file_services[(f.repository, f.path)]
                             # (or the numbered ones join a first node of their name and image: consul beside
                             # consul2 and consul3, `-retry-join` of one cluster)
                             or kind == "service" and bool(image) and context is None
                             and file_images_by_name.get((f.repository, f.path, numbered.group(1).lower())) == _image_repo(image)) \
                    and count >= 2:
                # redis-node-0 ... redis-node-5, kafka1..kafka3 of one image: the nodes of one cluster, one store
                aliases, name = (*aliases, name), numbered.group(1)
            twin = twins.get((f.repository, f.path, name))
            if twin and twin.lower() != name.lower():
                # the developer's backing-services stack (mongo) is the store the full stack names mongodb
                aliases, name = (*aliases, name), twin
            replica = REPLICA.match(name)
            if replica and image and (f.repository, f.path, replica.group(1).lower(), image) in file_images:
                # frontend-secondary beside frontend, same image: another copy of it (a second
                # datacenter, a standby), known by its own name too
                aliases, name = (*aliases, name), replica.group(1)
            build_variant = BUILD_VARIANT.match(name)
            if build_variant and kind == "service":
                # rest-heroes-java25 (one compose file per Java build of the same services): the
                # component is rest-heroes; the service name stays an alias (its host name).
                aliases, name = (*aliases, name), build_variant.group(1)
            comp = self.add_component(name, kind, f.repository, f.evidence, aliases, attrs)
            if image_line is not None and same and comp.name.lower() == same.lower():
                comp.evidence.add(image_line)
            sibling = self._sibling_build(f) if root is not None else None
            if sibling is not None:
                # a build context outside the repository, in a repository analysed beside it (`build:
                # ../../Pacco.Services.Availability` of a deployment repository): that repository's code runs here
                comp.source_roots.add(sibling)
            elif root is not None:
                comp.source_roots.add((f.repository, root))
                comp.source_roots.update((f.repository, d) for d in self.image_companions(f.repository, dockerfile, root))
                comp.source_roots.update((f.repository, d) for d in self.packed_applications(f.repository, root))
            if recipe is not None and dockerfile:
                comp.evidence.add(Evidence(f.repository, dockerfile, 1))
                comp.attributes["built_by"] = dockerfile
            elif named_recipe is not None:  # Dockerfile.frontend for penpotapp/frontend: the files it copies in
                comp.evidence.add(Evidence(f.repository, named_recipe[0], 1))
                comp.attributes["built_by"] = named_recipe[0]
                comp.source_roots.update((f.repository, p) for p in named_recipe[1])
            if (root is None or recipe is not None) and image and not tech:
                by_image.setdefault(_image_repo(image), (comp.name, f.path))
                first_commands.setdefault(_image_repo(image), commands.get((f.repository, f.path, name.lower()), ""))
        self.shared_context_programs()
        self.mounted_config()
        # Infrastructure (a database, a broker) in compose and in Kubernetes under different names is one
        # component when exactly one service on each side runs that image, by its name under any owner
        # (`bitnamilegacy/kafka` in compose, `bitnami/kafka` in a manifest; `image: ${MONGO_IMAGE}` as the
        # .env beside the compose file sets it).
        compose_tech: dict[str, list[str]] = defaultdict(list)
        for f in self.by_kind["compose.service"]:
            image = self.compose_interpolate(f, f.get("image")) or ""
            if image and "$" not in image and tech_for_image(image) and not f.get("build_context") and not f.get("dockerfile"):
                compose_tech[image_basename(image).lower()].append(self.alias.get((f.get("name") or "").lower()) or "")
        k8s_tech: dict[str, int] = defaultdict(int)
        for f in self.by_kind["k8s.workload"]:
            if f.get("image") and tech_for_image(f.get("image")):
                k8s_tech[image_basename(f.get("image") or "").lower()] += 1
        compose_names = {key(f.get("name") or ""): f.get("name") or "" for f in self.by_kind["compose.service"]}
        peers = self.store_peers(by_image)
        # (per repository: another repository analysed alongside does not change the names this one's share)
        k8s_prefixes = {r: shared_prefix(f.get("name") or "" for f in self.by_kind["k8s.workload"] if f.repository == r)
                        for r in {f.repository for f in self.by_kind["k8s.workload"]}}
        apps: dict[str, str] = {}
        labelled: list[tuple[Fact, str]] = []  # (workload fact, its component) for Service selectors
        autoscaled = {(f.repository, f.get("name") or "") for f in self.by_kind["k8s.autoscaled"]}
        selections, alone = self._service_selections()
        versions = self.workload_versions(selections, alone)
        app_wide = self.shared_app_labels(alone)
        add_ons = self.cluster_add_ons()
        image_program: dict[str, str] = {}  # image repository -> the program its first workload runs
        programs_of: dict[str, set[str]] = defaultdict(set)  # image repository -> programs workloads run of it
        for f in self.by_kind["k8s.workload"]:
            if f.get("image") and self._workload_program(f):
                programs_of[_image_repo(f.get("image") or "")].add(self._workload_program(f))
        workload_names = {(f.get("name") or "").lower() for f in self.by_kind["k8s.workload"]}
        workload_files = {f.path for f in self.by_kind["k8s.workload"]}
        # image repository -> the compose services building it from code (ghcr.io/acme/shop/orders built by
        # `orders: build: ./src/orders`): a workload of another platform running that image is that service
        compose_built: dict[str, set[str]] = defaultdict(set)
        # a local tag a compose file builds (`image: orders:test`, no owner): the program published under an
        # owner with that name (`acme/orders:v1` in a manifest) when no other built image has that name
        local_built: dict[str, set[str]] = defaultdict(set)
        flat_built: dict[str, set[str]] = defaultdict(set)
        named_built: dict[str, set[str]] = defaultdict(set)
        for c in self.model.components.values():
            image = c.attributes.get("image") or ""
            if c.attributes.get("deployment") == "compose" and c.source_roots and image and "$" not in image \
                    and not c.attributes.get("technology"):
                if "/" in image:
                    compose_built[_image_repo(image)].add(c.name)
                    # pushed under another owner with the owner folded into the name (`duber/invoice.api`
                    # built here, `vany0114/duber.invoice.api` in a manifest: a Docker Hub account takes one level)
                    for sep in ".-_":
                        flat_built[sep.join(_image_repo(image).split("/")[-2:])].add(c.name)
                else:
                    local_built[image_basename(image).lower()].add(c.name)
            if c.attributes.get("deployment") == "compose" and c.source_roots and not c.attributes.get("technology"):
                # a service built from code here, its image pushed under the service's own name (`orders:
                # build: ./orders`, `acme/orders` in a manifest)
                named_built[c.name.lower()].add(c.name)
        for f in self.by_kind["k8s.workload"]:
            if self.in_k8s_variant(f):
                continue  # declared only by an optional kustomize Component or overlay
            if self.sample_manifest(f):
                continue  # a sample a guide applies to show the system at work, beside the system's own manifests
            if f.get("workload_kind") == "Job" or f.get("runs_once"):
                continue  # runs once to completion (a migration, a seed, a restore Pod): a task, not a running component
            if (f.get("replicas") or "").strip() == "0" and (f.repository, f.get("name") or "") not in autoscaled:
                continue  # written to run no pod (a placeholder scaled up by hand) and no autoscaler sizes it
            if f in add_ons:
                continue
            # (an image reference with no name, `"{{ .Values.image.repository }}:{{ .Chart.AppVersion }}"` rendered
            # from values the install sets, `:`, names no image: workloads sharing it share nothing)
            image = f.get("image") if image_basename(f.get("image") or "") else None
            tech = tech_for_image(image)
            kind = tech[1] if tech else "service"
            attrs = {"image": image or "", "technology": tech[0] if tech else "", "deployment": "kubernetes",
                     "ports": f.get("ports") or ""}
            # how the manifest sizes it (replicas, cpu/memory requests and limits), as written there
            attrs.update({k: f.get(k) or "" for k in WORKLOAD_SIZING if f.get(k)})
            # (an `app` label naming another workload, the chart's API beside this worker, is that one's name)
            others = workload_names - {(f.get("name") or "").lower()}
            app_label = f.get("app") if (f.get("app") or "").lower() not in others \
                and (f.repository, (f.get("app") or "").lower()) not in app_wide else None
            aliases = tuple(a for a in (app_label, image_basename(image) if image and not tech
                                        and image_basename(image).lower() not in others else None) if a)
            name = f.get("name") or ""
            same = self._same_image(image, by_image, f.path, f.get("name") or "") if image and not tech else None
            if same and same.lower() not in name.lower() and name.lower() not in same.lower() \
                    and by_image[_image_repo(image)][1] in workload_files \
                    and _top_folder(by_image[_image_repo(image)][1]) == _top_folder(f.path):
                # another workload of one manifest tree running the image under a name of its own (podinfo as
                # `frontend` in apps/frontend and as `backend` in apps/backend): two deployments of it; a
                # variant named after the first (`acme-server-ha` of `acme-server`) is another copy of it
                same = None
            if not same and image and not tech:
                # one shared image deployed both by compose and by these manifests, each service told which of its
                # programs to load by a variable (SERVICES: accounts.service.js here, SERVICES: accounts there)
                same = self._selector_twin(f, image)
            if not same and image and not tech and len(compose_built.get(_image_repo(image), ())) == 1:
                same = next(iter(compose_built[_image_repo(image)]))
            local = local_built.get(image_basename(image).lower(), set()) if image and not tech and "/" in image else set()
            if not same and len(local) == 1 and not compose_built.get(_image_repo(image)):
                same = next(iter(local))
            if not same and image and not tech and "/" in image and not compose_built.get(_image_repo(image)) \
                    and not local:
                # (only where no image built here goes by that name itself)
                base = image_basename(image).lower()
                flat = flat_built.get(base, set()) or named_built.get(base, set())
                if len(flat) == 1:
                    same = next(iter(flat))
            image_line = None  # the line of a build file naming the image this workload runs
            if not same and image and not tech and modules:
                # the image a module's build tool makes, where a compose service builds that module
                # from a Dockerfile: the compose service
                built = self.component_of_built_image(image, modules)
                if built is not None and self.model.components[built[0]].attributes.get("deployment") == "compose":
                    same, image_line = self.model.components[built[0]].name, built[1]
            if image and len(programs_of.get(_image_repo(image), ())) > 1:
                # one image whose workloads run different programs of it (a multi-call binary started as
                # `argocd-server` here, `argocd-repo-server` there): the image names none of them
                aliases = tuple(a for a in aliases if a != image_basename(image))
                if same and self._workload_program(f) != image_program.get(_image_repo(image)):
                    same = None
            store_twins = compose_tech.get(image_basename(image).lower(), []) if image and tech else []
            if len(store_twins) == 1 and k8s_tech[image_basename(image).lower()] == 1 \
                    and store_twins[0] in self.model.components:
                same = self.model.components[store_twins[0]].name
            k8s_prefix = k8s_prefixes.get(f.repository, "")
            stripped = name[len(k8s_prefix):] if k8s_prefix and name.lower().startswith(k8s_prefix) else ""
            if not same and stripped and key(stripped) in compose_names and key(name) not in compose_names:
                same = compose_names[key(stripped)]  # ftgo-kafka in Kubernetes is the compose service kafka
            underscored = compose_names.get(key(name), "")
            if not same and underscored.lower() != name.lower() and underscored.replace("_", "-").lower() == name.lower():
                # Kubernetes names allow no underscore: the workload celery-beat is the compose service celery_beat
                # (kompose converts the names so)
                same = underscored
            if not same and name.lower() in peers:
                same = peers[name.lower()]  # users-mongo in Kubernetes is the compose service user-db
            if not same and (f.repository, name) in versions:
                same = versions[(f.repository, name)]  # payment-fix: a second version behind Service payment
            owner = self.alias.get((f.get("app") or "").lower()) if app_label and key(app_label) != key(name) else None
            if owner and _descriptor_unit(f.path) in {_descriptor_unit(e.path) for e in self.model.components[owner].evidence}:
                owner = None  # a workload beside it in the same file or chart (its worker): another component
            if not same and owner and self.model.components[owner].kind == "service" and not tech:
                same = self.model.components[owner].name  # labelled `app: payment`: a version of payment
            if not same and not tech and (not image or "{" in image or "$" in image):
                # a workload whose image the install fills in (`image: {{.Env.SERVICE_API_IMAGE_NAME}}`), kept among
                # the code of the one deployed component building that folder (app/copilot/copilot-backend/manifests/
                # under compose's and azd's `app/copilot`): it runs that component's code
                holders = {c.name for c in self.model.components.values() if c.attributes.get("deployment")
                           and c.kind in ("service", "gateway", "webapp")
                           and any(r == f.repository and root and is_under(f.path, root) for r, root in c.source_roots)}
                if len(holders) == 1:
                    same = next(iter(holders))
            kind_named = WORKLOAD_KIND_SUFFIX.match(name)
            if not same and kind_named and app_label and key(kind_named.group(1)) == key(app_label) \
                    and kind_named.group(1).lower() not in others:
                # a workload named for its kind (`{{ .Chart.Name }}-deploy`, orders-deployment) whose app label is the
                # name without it: the program is `catalogservice`, the word says which manifest object runs it
                same = kind_named.group(1)
            if same and same.lower() != name.lower():  # the compose service running the same image
                aliases, name = tuple(a for a in (*aliases, name) if a.lower() != same.lower()), same
            comp = self.add_component(name, kind, f.repository, f.evidence, aliases, attrs)
            if image_line is not None and same and comp.name.lower() == same.lower():
                comp.evidence.add(image_line)
            if image and not tech:
                by_image.setdefault(_image_repo(image), (comp.name, f.path))
                image_program.setdefault(_image_repo(image), self._workload_program(f))
            if f.get("app"):
                apps[f.get("app") or ""] = comp.id
            labelled.append((f, comp.id))
        self._chart_dependency_stores()
        for f in self.by_kind["k8s.service"]:
            # the workload its selector picks (`component: proxy` among a chart's workloads that all carry
            # `app: jupyterhub`), else the one labelled with its app, else the one of its name
            chosen = sorted({cid for w, cid in selected_workloads(f, labelled)})
            target = (chosen[0] if len(chosen) == 1 else None) or apps.get(f.get("app") or "") \
                or self.alias.get((f.get("name") or "").lower())
            if target:
                comp = self.model.components[target]
                comp.evidence.add(f.evidence)
                comp.aliases.add((f.get("name") or "").lower())
                self.alias.setdefault((f.get("name") or "").lower(), target)

    def _chart_dependency_stores(self) -> None:
        """A store a Helm chart installs as a dependency (``dependencies: [{name: mongodb, condition:
        mongodb.enabled}]``, a packed Bitnami chart) is a component of its technology, named by its values key,
        and answers to the names that chart gives its Services (``<release>-mongodb``, ``-headless``,
        ``-master``, ``-primary``), which the workloads' settings use. A dependency that is an application
        chart says nothing known about what it runs and is left out."""
        # (the chart's values renaming a dependency, `kafka.nameOverride: posthog-kafka` making its Services
        # `<release>-posthog-kafka`, `kafka.fullnameOverride` naming them outright)
        overrides: dict[tuple[str, str, str], str] = {}
        for g in self.by_kind["config.property"]:
            head, _, last = (g.get("name") or "").rpartition(".")
            if last in ("nameOverride", "fullnameOverride") and "." not in head and g.get("value") \
                    and PurePosixPath(g.path).name in ("values.yaml", "values.yml"):
                overrides[(g.repository, folder(g.path), f"{head.lower()}.{last}")] = (g.get("value") or "").lower()
        for f in self.by_kind["helm.dependency"]:
            tech = tech_for_image(f.get("name"))
            dep, release = (f.get("key") or "").lower(), (f.get("release") or "").lower()
            if not tech or not dep:
                continue
            names = tuple(f"{release}-{dep}{suffix}" for suffix in CHART_SERVICE_SUFFIXES) if release else ()
            chart_dir = folder(f.path)
            renamed = overrides.get((f.repository, chart_dir, f"{dep}.nameOverride"))
            full = overrides.get((f.repository, chart_dir, f"{dep}.fullnameOverride"))
            if renamed and release and "{" not in renamed:
                names += tuple(f"{release}-{renamed}{suffix}" for suffix in CHART_SERVICE_SUFFIXES)
            if full and "{" not in full:
                names += tuple(f"{full}{suffix}" for suffix in CHART_SERVICE_SUFFIXES)
            self.add_component(dep, tech[1], f.repository, f.evidence, names,
                               {"technology": tech[0], "deployment": "helm", "chart": f.get("name") or ""})

    def backing_store_twins(self) -> dict[tuple[str, str, str], str]:
        """(repository, compose file, service) -> the name of the same store in the system's full stack.
        A compose file that starts only third-party stores and brokers (a developer's backing services,
        ``docker/local/docker-compose.yml``) beside another stack that runs the applications
        (``docker/community/docker-compose.yml``) starts the same stores for development: a store of
        that file is the full stack's store of the same image, when the full stacks run exactly one and the
        store is named only for its technology (``mongo``; ``es-redis`` names a store of its own)."""
        by_file: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["compose.service"]:
            by_file[(f.repository, f.path)].append(f)

        def image_repo(f: Fact) -> str:
            image = self.compose_interpolate(f, f.get("image"))
            return _image_repo(image or "") if image and tech_for_image(image) else ""

        def emulator(f: Fact) -> bool:
            return bool(LOCAL_EMULATOR.search(self.compose_interpolate(f, f.get("image")) or ""))

        infra = {k for k, fs in by_file.items() if any(image_repo(f) for f in fs) and all(
            (image_repo(f) or emulator(f)) and not f.get("build_context") and not f.get("dockerfile") for f in fs)}
        full: dict[tuple[str, str], list[str]] = defaultdict(list)  # (repository, image) -> store names
        for k, fs in by_file.items():
            if k not in infra:
                for f in fs:
                    if image_repo(f) and not f.get("build_context"):
                        full[(f.repository, image_repo(f))].append(f.get("name") or "")
        out: dict[tuple[str, str, str], str] = {}
        for (repo, path) in sorted(infra):
            for f in by_file[(repo, path)]:
                names = full.get((repo, image_repo(f)), [])
                name = f.get("name") or ""
                # named for its technology only (mongo, redis): a name of its own (es-redis) is another store
                plain = key(name) in {key(n) for n in image_names(image_repo(f))} or key(name) in {key(n) for n in names}
                if len(names) == 1 and plain:
                    out[(repo, path, name)] = names[0]
        return out

    def store_peers(self, by_image: dict[str, tuple[str, str]]) -> dict[str, str]:
        """Kubernetes workloads that are a compose service under another name: Kubernetes workload name ->
        compose service name.  A service deployed by both (the same application image) that names
        ``users-mongo`` in its Kubernetes environment and ``user-db`` in its compose environment, under
        the same setting (``USERS_DB_HOST``), or as the one store of the same technology on each side
        (``REDIS_HOST=users-redis``, ``REDIS_DB_HOST=user-redis-db``), reaches one store by two names.
        Only names neither deployment declares on the other side, and each at most once."""
        def host(value: str) -> str:
            refs = parse_hosts(value)
            return (refs[0].host if refs else value.strip().split(":")[0]).lower()

        compose_services = {(f.get("name") or "").lower(): f for f in self.by_kind["compose.service"]}
        k8s_workloads = {(f.get("name") or "").lower(): f for f in self.by_kind["k8s.workload"]}
        k8s_hosts = dict(((f.get("name") or "").lower(), (f.get("name") or "").lower()) for f in self.by_kind["k8s.workload"])
        for f in self.by_kind["k8s.service"]:
            chosen = sorted({w for w, _wf in selected_workloads(f, [(wf, w) for w, wf in k8s_workloads.items()])})
            target = chosen[0] if len(chosen) == 1 else next(
                (w for w, wf in k8s_workloads.items() if f.get("app") and wf.get("app") == f.get("app")), None)
            if target:
                k8s_hosts.setdefault((f.get("name") or "").lower(), target)
        image_service = {}  # compose image repository -> compose service
        for name, f in compose_services.items():
            if f.get("image") and not tech_for_image(f.get("image")):
                image_service.setdefault(_image_repo(f.get("image") or ""), name)
        env: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)  # (side, owner) -> setting -> host named
        for f in sorted(self.by_kind["config.env"], key=Fact.order):
            side = f.get("source")
            if side in ("compose", "kubernetes") and f.get("value"):
                env[(side, (f.get("owner") or "").lower())].setdefault(f.get("name") or "", host(f.get("value") or ""))

        def tech(side: str, name: str) -> str:
            f = (compose_services if side == "compose" else k8s_workloads).get(name)
            found = tech_for_image(f.get("image")) if f is not None and f.get("image") else None
            return found[0] if found else ""

        candidates: dict[str, set[str]] = defaultdict(set)
        for w, wf in sorted(k8s_workloads.items()):
            peer = image_service.get(_image_repo(wf.get("image") or "")) if wf.get("image") else None
            if peer is None:
                continue  # the consumer must be one application deployed on both sides
            k8s_env, compose_env = env.get(("kubernetes", w), {}), env.get(("compose", peer), {})
            for setting, h in sorted(k8s_env.items()):
                store = k8s_hosts.get(h)
                if store is None or store == w or store in compose_services:
                    continue
                other = compose_env.get(setting)
                if other and other in compose_services and other not in k8s_hosts and other != peer:
                    candidates[store].add(other)
                    continue
                t = tech("kubernetes", store)
                if not t:
                    continue
                mine = {k8s_hosts.get(x) for x in k8s_env.values()} - {None}
                theirs = {x for x in compose_env.values() if x in compose_services and x not in k8s_hosts}
                same_k = [x for x in mine if tech("kubernetes", x or "") == t]
                same_c = [x for x in theirs if tech("compose", x) == t]
                if len(same_k) == 1 and len(same_c) == 1:
                    candidates[store].add(same_c[0])
        taken = Counter(next(iter(v)) for v in candidates.values() if len(v) == 1)
        return {w: self.model.components[self.alias[next(iter(v))]].name for w, v in sorted(candidates.items())
                if len(v) == 1 and taken[next(iter(v))] == 1 and self.alias.get(next(iter(v)))}

    def shared_context_programs(self) -> None:
        """Compose services that build the same folder and run different commands (web: gunicorn app,
        worker: celery -A app, files: python -m http.server, smtp: python dev/smtp.py): only those
        running the folder's own code own it (the image's own command, a server or worker launcher, a
        module of the folder), when some do. One running something else (a module the folder does not
        hold, a build tool's watcher) owns none of it; one running a single script file of the folder
        owns that file. Without this the code went to whichever service sorts first."""
        by_root: dict[tuple[str, str], list[Component]] = defaultdict(list)
        for c in sorted(self.model.components.values(), key=lambda c: c.id):
            if c.attributes.get("deployment") == "compose":
                for r, root in sorted(c.source_roots):
                    by_root[(r, root)].append(c)
        shared = {k: cs for k, cs in by_root.items() if len(cs) >= 2}
        if not shared:
            return
        commands = {(f.repository, (f.get("owner") or "").lower()): f for f in sorted(self.by_kind["program.command"], key=Fact.order)
                    if f.get("source") == "compose"}
        files = self.inventory_paths
        proxies = self._static_server_images()
        for (repo, root), comps in sorted(shared.items()):
            here = {p for r, p in files if r == repo and is_under(p, root)}
            runners: set[str] = set()  # those known to run the folder's code
            moves: dict[str, str | None] = {}
            for c in comps:
                if (repo, c.name.lower()) in proxies and len(comps) > 1:
                    # built FROM a web server (nginx) in its last stage: it serves the files an earlier
                    # stage built from the code (static assets), it does not run the code
                    moves[c.id] = None
                    continue
                f = commands.get((repo, c.name.lower()))
                launch = next((x for x in (parse_launch(w) for w in split_command(f.get("command") or "")) if x), None) if f else None
                bases = [root, *(join_path(root, b) for b in ("src", "app"))]
                if f is None or (launch is not None and (launch.launcher or launch.kind == "module" and (
                        python_module_file(here, launch.value, bases, as_main=True) is not None
                        or python_module_file(here, launch.value, bases, as_main=False) is not None))):
                    runners.add(c.id)  # the image's own command, a server or worker launcher, a module of the code
                elif launch is not None and launch.kind == "file":
                    tail = launch.value.lstrip("/").split("/")
                    script = next((p for k in range(len(tail)) for p in [join_path(root, "/".join(tail[k:]))] if p in here), None)
                    if script is not None and self._imports_own_code(repo, root, script, here):
                        runners.add(c.id)  # a program of the code (node server.js, python worker.py)
                    else:  # a standalone script (a mail stub), or a file the folder does not hold
                        moves[c.id] = script
                else:
                    moves[c.id] = None  # `python -m http.server`, a build tool's watcher: not this code
            served = {c.id for c in comps if (repo, c.name.lower()) in proxies}
            if not runners:
                if not served or len(served) == len(comps):
                    continue  # none of them is known to run the folder's code: leave them as they are
                moves = {cid: None for cid in served}  # only the web servers are known not to run it
            for cid, script in sorted(moves.items()):
                comp = self.model.components[cid]
                comp.source_roots.discard((repo, root))
                if script:
                    comp.source_roots.add((repo, script))
                if cid in served:
                    comp.attributes["serves_files_built_from"] = root or "."
                    dockerfile, *copied = proxies[(repo, comp.name.lower())]
                    comp.source_roots.add((repo, dockerfile))  # its recipe and its own configuration files
                    for src in copied:
                        comp.source_roots.add((repo, join_path(root, src)))
                else:
                    comp.attributes["runs"] = (commands[(repo, comp.name.lower())].get("command") or "")[:200]
                self.credit(comp.rules)

    def _imports_own_code(self, repo: str, root: str, script: str, here: set[str]) -> bool:
        """Does the script import code of its folder (a relative import, or a module whose first name
        is a package or module at the folder's top)?"""
        tops = {PurePosixPath(p[len(root):].lstrip("/")).parts[0].removesuffix(".py") for p in here
                if p != script and p[len(root):].lstrip("/")}
        for f in self.by_kind["import"]:
            if f.repository != repo or f.path != script:
                continue
            module = f.get("module") or ""
            if module.startswith(".") or module.split(".")[0].split("/")[0] in tops:
                return True
        return False

    def _static_server_images(self) -> dict[tuple[str, str], list[str]]:
        """(repository, compose service) -> its Dockerfile and the files its last stage copies from the build context, for
        the services whose Dockerfile's last stage is a web server or proxy image (``FROM nginx:alpine``
        after a build stage)."""
        last: dict[tuple[str, str], Fact] = {}
        for d in self.by_kind["docker.from"]:
            k = (d.repository, d.path)
            if k not in last or d.line > last[k].line:
                last[k] = d
        out: dict[tuple[str, str], list[str]] = {}
        for f in self.by_kind["compose.service"]:
            root, dockerfile = self.build_root(f)
            final = last.get((f.repository, dockerfile)) if dockerfile else None
            tech = tech_for_image(final.get("image")) if final is not None else None
            if final is not None and tech is not None and tech[0] == "proxy":
                # what the last stage copies from the build context: the server's own configuration
                out[(f.repository, (f.get("name") or "").lower())] = [dockerfile, *sorted({
                    norm_path(src.strip()) for c in self.by_kind["docker.copy"]
                    if c.repository == f.repository and c.path == dockerfile and c.line > final.line
                    for src in (c.get("sources") or "").split(",")
                    if src.strip() and not src.strip().startswith("--") and "$" not in src and norm_path(src.strip())})]
        return out

    def module_for_image_tag(self, repo: str, image: str) -> str | None:
        """The module an image-only deployment runs when one image repository holds every service of a
        monorepo under its own tag (``ghcr.io/acme/shop:orders-service-latest``): the one module folder
        (a manifest's folder) named like the tag without its version. None otherwise."""
        tag = image_tag(image).lower()
        if not tag:
            return None
        base = re.sub(r"[-_.](latest|main|master|dev|develop|stable|edge|nightly|v?\d[\w.]*)$", "", tag)
        if len(base) < 3 or re.match(r"^v?\d", base):
            return None  # a version (1.4.2, v2): no module name
        hits = sorted({d for m in self.by_kind["manifest"] if m.repository == repo
                       for d in [norm_path(folder(m.path))] if d and PurePosixPath(d).name.lower() in (tag, base)})
        return hits[0] if len(hits) == 1 else None

    def folder_named_like_image(self, repo: str, image: str) -> str | None:
        """The code an image-only deployment runs when the image is named exactly like one folder of code in
        this repository (``buoyantio/emojivoto-web:v11`` and the folder ``emojivoto-web/`` holding its program,
        built by a Makefile rather than a compose ``build:``): that folder. Only a name with a separator or a
        digit, or of a folder holding a manifest, counts (``api`` or ``web`` alone say too little), and
        exactly one such folder must hold code. None otherwise."""
        base = image_basename(image).lower()
        if len(base) < 3:
            return None
        # the image may carry the project's name in front (beer-cart-service in beer-shop) and name a nested
        # module by its path (app/cart/service)
        after = {base[len(t) + 1:] for t in re.split(r"[-_.]", self.project_of(repo).lower())
                 if len(t) >= 3 and base.startswith(t + "-")}  # the image's name after the project's
        # (acme-server: `server` alone says too little of code)
        names = {base} | {a for a in after if len(a) > 2 and re.search(r"[-_.]", a)}
        hits = sorted({d for r, folder_ in self.code_folders if r == repo for d in _folders_named(folder_, names)})
        if not hits:
            # a folder of no code holding the image's recipe (`proxy/Dockerfile` and its nginx.conf for
            # `acme/librephotos-proxy`): the recipe's own name, after the project's, says enough
            recipe_names = {base} | {a for a in after if len(a) > 1}
            recipes = sorted({folder(d.path) for d in self.by_kind["docker.from"] if d.repository == repo
                              and folder(d.path) and PurePosixPath(folder(d.path)).name.lower() in recipe_names
                              and not any(r == repo and is_under(p, folder(d.path)) for r, p in self.code_paths)})
            return recipes[0] if len(recipes) == 1 else None
        if len(hits) > 1:  # (api/cart/service holding generated clients beside app/cart/service): the one with a main
            mains = {folder(f.path) for f in self.by_kind["program.main"] if f.repository == repo}
            hits = [d for d in hits if any(is_under(m, d) for m in mains)]
        if len(hits) != 1:
            return None
        manifest_here = any(m.repository == repo and norm_path(folder(m.path)) == hits[0] for m in self.by_kind["manifest"])
        if not manifest_here and not re.search(r"[-_.\d]", base):
            return None
        return hits[0]

    def browser_package(self, repo: str, d: str) -> bool:
        """Is the npm package of folder `d` a browser app (a UI framework and a bundler, no server framework)?"""
        names = {(f.get("name") or "").lower() for k in ("manifest.dependency", "manifest.dev_dependency")
                 for f in self.by_kind[k] if f.repository == repo and f.get("ecosystem") == "npm" and folder(f.path) == d}
        return bool(names & UI_FRAMEWORKS and names & BUNDLERS and not names & SERVER_FRAMEWORKS)

    def _own_project_keys(self, repo: str) -> set[str]:
        """Keys of the names the repository's project goes by (:meth:`project_names`)."""
        return {key(n) for n in self.project_names(repo)}

    def _recipe_named_like_repository(self, repo: str, image: str) -> tuple[str, str] | None:
        """The code an image named like the repository itself runs (``ghcr.io/linkwarden/linkwarden`` pulled by
        the linkwarden repository's compose file): the project's own image, built by its main recipe, the
        ``Dockerfile`` at the root, else the one in ``docker/``: the program at the root (its stages may build
        a front end for it), or in a JavaScript workspace the one package the stages build. (that folder,
        the recipe); None when there is no such recipe or it builds several packages of a workspace."""
        base = image_basename(image)
        # (the project by its README's heading, else by the repository its README links to named like a root
        # manifest: a README titled by a picture)
        if not base or key(base) not in self._own_project_keys(repo):
            return None
        recipes = {f.path for f in self.by_kind["docker.from"] if f.repository == repo}
        # a program at the root (pyproject.toml, go.mod...): the recipe builds it, whatever front end a stage
        # compiles for it; a JavaScript workspace root: the one package the recipe's stages name, if any
        program_at_root = self._program_at_root(repo)
        by_lower = {r.lower(): r for r in sorted(recipes, reverse=True)}  # (docker/dockerfile is a recipe too)
        for dockerfile in (by_lower.get(n) for n in ("dockerfile", "docker/dockerfile")):
            if dockerfile is not None:
                root = "" if program_at_root else self.workspace_target(repo, dockerfile, "")
                if root is None:
                    # stages building a server and the browser app it hands out (`COPY server .` in one,
                    # `COPY client .` in another): the image runs the server
                    built = self._stage_packages(repo, dockerfile, "", "")[0]
                    servers = sorted(d for d in built if not self.browser_package(repo, d))
                    root = servers[0] if len(built) > 1 and len(servers) == 1 else None
                # (a workspace whose recipe builds several packages, none named: not known which one runs)
                return (root, dockerfile) if root is not None else None
        # no recipe at the root: the one package of the repository that has a recipe of its own
        # (apps/web/Dockerfile beside apps/web/package.json) is what the project's image is built from
        tag = image.split("@")[0].rsplit("/", 1)[-1].partition(":")[2]
        if tag and not re.match(r"^(latest|stable|main|master|edge|nightly|v?\d[\w.+-]*)$", tag, re.I):
            return None  # a tag naming one of several images (`acme:worker-latest`): see module_for_image_tag
        packaged = sorted(p for p in recipes if folder(p) and any(
            m.repository == repo and norm_path(folder(m.path)) == norm_path(folder(p)) for m in self.by_kind["manifest"])
            and not ASIDE_RECIPE.search(p))
        if len(packaged) == 1:
            return norm_path(folder(packaged[0])), packaged[0]
        if program_at_root and not packaged:
            # a program at the root and its recipes kept apart in one folder of recipes, one per base image
            # (docker/default.Dockerfile, docker/alpine.Dockerfile): the project's image is that program
            variants = sorted(p for p in recipes if folder(p) and not ASIDE_RECIPE.search(p)
                              and not re.search(r"(^|/)scripts?/", p, re.I))
            if variants and len({folder(p) for p in variants}) == 1:
                return "", variants[0]
        if not any(not ASIDE_RECIPE.search(p) for p in recipes):
            # no recipe at all (the image is built by a release pipeline elsewhere): the repository's one server
            # module, at the root or in a top-level folder (backend/ with its go.mod beside the browser app in
            # frontend/ that the server embeds), is what the project's image runs
            servers = sorted({norm_path(folder(m.path)) for m in self.by_kind["manifest"] if m.repository == repo
                              and folder(m.path).count("/") == 0 and m.get("ecosystem") != "npm"
                              and any(p.repository == repo and is_under(p.path, folder(m.path))
                                      for p in self.by_kind["program.main"])})
            if len(servers) == 1:
                return servers[0], ""
        return None

    def named_recipes(self) -> dict[tuple[str, str], list[str]]:
        """(repository, name) -> the Dockerfiles named for it (``Dockerfile.frontend``, ``frontend.Dockerfile``,
        ``Dockerfile-frontend``) in folders of recipes holding no program (docker/images/ with one recipe per
        image a build script makes)."""
        cached = getattr(self, "_named_recipes", None)
        if cached is not None:
            return cached
        out: dict[tuple[str, str], list[str]] = defaultdict(list)
        mains = {(f.repository, folder(f.path)) for k in ("program.main", "manifest") for f in self.by_kind[k]}
        for path in sorted({(f.repository, f.path) for f in self.by_kind["docker.from"]}):
            repo, p = path
            m = RECIPE_NAME.match(PurePosixPath(p).name)
            if m and ((repo, folder(p)) not in mains or _SIDE_IMAGE.match(m.group(1) or m.group(2) or m.group(3) or "")):
                # (beside a program's own recipe, one named for a web server or proxy builds that server's image:
                # Dockerfile.caddy copying the Caddyfile, for mathesar/mathesar-caddy)
                out[(repo, key(m.group(1) or m.group(2) or m.group(3)))].append(p)
        self._named_recipes = dict(out)
        return self._named_recipes

    def named_recipe(self, repo: str, image: str) -> tuple[str, list[str]] | None:
        """The one recipe named for the image an image-only deployment runs (``penpotapp/frontend`` and
        ``docker/images/Dockerfile.frontend``, under the project's name or not), with the files of its
        folder its last stage copies in (a web server's configuration: ``files/nginx.conf.template``),
        which are that deployment's. None when no recipe or several are named so."""
        # (under the name the commit gives the project: its README's heading, else the repository its README links
        # to named like its root manifest, pyproject's `keep` beside github.com/keephq/keep: keep-api of Dockerfile.api)
        projects = [n.lower() for n in self.project_names(repo)]
        wanted = keys_of(image_names(image), [f"{project}{sep}" for project in projects for sep in ("-", "_", ".")])
        found = sorted({p for w in wanted for p in self.named_recipes().get((repo, w), [])})
        if len(found) != 1:
            return None
        return found[0], self._recipe_copies(repo, found[0])

    def _recipe_copies(self, repo: str, dockerfile: str, from_root: bool = False) -> list[str]:
        """The files of the recipe's folder its last stage copies in.  `from_root`: the recipe is built with
        the repository as its context (the one recipe of a repository whose README runs its image), so its
        sources are written from the root (``COPY docker/rootfs /``), and a folder copied in is the image's
        too (its s6 service scripts, its web server's configuration)."""
        here = folder(dockerfile)
        last = max((d.line for d in self.by_kind["docker.from"] if d.repository == repo and d.path == dockerfile), default=0)
        paths = {r_p[1] for r_p in self.inventory_paths if r_p[0] == repo}
        sources = {src.strip().removeprefix("./").rstrip("/") for c in self.by_kind["docker.copy"]
                   if c.repository == repo and c.path == dockerfile and c.line > last
                   for src in (c.get("sources") or "").split(",")
                   if src.strip() and "$" not in src and not src.strip().startswith("--")}
        copied = {join_path(here, src) for src in sources} & paths
        if from_root:
            dirs = {folder(p) for p in paths}
            copied |= {src for src in sources if src and src != "." and (src in paths or any(is_under(d, src) for d in dirs))}
        return sorted(copied)

    def plugin_recipe(self, repo: str, image: str) -> tuple[str, str] | None:
        """The module whose build plugin makes `image` from a Dockerfile of its own (Spotify's or fabric8's
        docker-maven-plugin naming ``${docker.account}/kapua-api`` and building ``${project.basedir}/docker/
        Dockerfile``): (the module's folder, that Dockerfile), when exactly one module names the image (by its
        basename) and its recipe folder holds a Dockerfile here. The build file says which recipe makes the
        image, so an image-only deployment runs what that recipe packs, whatever the folders are called."""
        wanted = keys_of(image_names(image), [])
        found = {(norm_path(folder(f.path)), norm_path(f.get("recipe") or "")) for f in self.by_kind["manifest.image"]
                 if f.repository == repo and f.get("recipe") and keys_of(image_names(f.get("image") or ""), []) & wanted}
        if len(found) != 1:
            return None
        module, recipe = next(iter(found))
        recipes = sorted(d.path for d in self.by_kind["docker.from"] if d.repository == repo and folder(d.path) == recipe)
        if not recipes:
            return None
        dockerfile = join_path(recipe, "Dockerfile") if join_path(recipe, "Dockerfile") in recipes else recipes[0]
        return (module if is_under(recipe, module) else recipe), dockerfile

    def recipe_for_image(self, repo: str, image: str) -> tuple[str, str] | None:
        """The code an image-only deployment runs when this repository's own recipe builds that image:
        a Dockerfile in a folder of no code of its own, named like the image under the project's name
        (``ghcr.io/acme/acme-single-process`` built by ``docker/single-process/Dockerfile``), whose
        COPY sources are written from the repository root (``COPY ./ /app/``, ``COPY Gemfile ...``
        with no Gemfile beside the Dockerfile): it builds the code at the root. (root, Dockerfile)
        for one such recipe; None when there is none or more than one. Only a deployment that runs
        the image's own command takes the code; one that overrides it runs another program of it."""
        project = self.project_of(repo).lower()
        wanted = keys_of(image_names(image), [f"{project}{sep}" for sep in ("-", "_", ".") if project]) - {key(project)}
        if not wanted or keys_of(image_names(image)) & self._own_project_keys(repo):
            return self._recipe_named_like_repository(repo, image)
        found = sorted({f.path for f in self.by_kind["docker.from"] if f.repository == repo
                        and folder(f.path) and keys_of([PurePosixPath(folder(f.path)).name], []) & wanted})
        paths = {x.path for r in self.results if r.repository.name == repo for x in r.inventory.files}
        dirs = {folder(p) for p in paths}
        code = {folder(x.path) for r in self.results if r.repository.name == repo for x in r.inventory.files if x.language}
        if not found:
            named = self.named_recipe(repo, image)
            started = self._recipe_started_package(repo, named[0], dirs) if named is not None else None
            if started is not None:
                # the recipe named for the image builds the program its command starts (`WORKDIR
                # /service/api/services/sales`, `RUN go build`, `CMD ["./sales"]`): the image runs that package
                return started, named[0]
            if named is not None and folder(named[0]) not in code and self.copies_from_root(repo, named[0], paths, dirs, code):
                # a recipe named for the image (docker/Dockerfile.api of acme/keep-api) in a folder of recipes, copying
                # the code in by paths written from the root: the one package its stages build (`COPY keep-ui .`),
                # else the program at the root (`COPY keep keep` beside the root pyproject.toml)
                modules = {norm_path(folder(m.path)) for m in self.by_kind["manifest"] if m.repository == repo}
                copied = {norm_path(src.strip().removeprefix("./").rstrip("/")) for c in self.by_kind["docker.copy"]
                          if c.repository == repo and c.path == named[0] for src in (c.get("sources") or "").split(",")
                          if src.strip() and "$" not in src}
                built = {d for d in copied if d and d in modules}
                if len(built) == 1:
                    return next(iter(built)), named[0]
                if not built and self._program_at_root(repo):
                    return "", named[0]
            return self._stage_named_like_image(repo, wanted)  # the common case: None
        found = sorted({f.path for f in self.by_kind["docker.from"] if f.repository == repo
                        and folder(f.path) and keys_of([PurePosixPath(folder(f.path)).name], []) & wanted
                        and folder(f.path) not in code})
        if len(found) != 1:
            return None
        dockerfile, here = found[0], folder(found[0])
        if any(m.repository == repo and folder(m.path) == here for m in self.by_kind["manifest"]) \
                and any(is_under(c, here) for c in code):
            # a module of a monorepo (apps/ws with its package.json and src/) built from the workspace
            # root so that its workspace packages are in the context: the recipe builds that module
            return here, dockerfile
        if self.copies_from_root(repo, dockerfile, paths, dirs, code):
            # the whole repository is the context: the one package its stages build, if they name one
            return self.workspace_target(repo, dockerfile, "") or "", dockerfile
        if any(a.repository == repo and a.path == dockerfile for a in self.by_kind["docker.artifact"]):
            # a recipe packing a built artifact (km-dist/docker/manager/dockerfile: `ADD km-rest.jar /`) for the image
            # named like its folder (acme/acme-manager): the deployment runs what that folder packs, and the module
            # building the artifact is its code (components.prebuilt-deployments joins them)
            return here, dockerfile
        return None

    def _recipe_started_by(self, repo: str, image: str, command: str | None) -> tuple[str, str] | None:
        """The image's own recipe (recipe_for_image's (root, Dockerfile)) when a deployment's command (`/bin/sh
        /ks-start.sh`) starts the start script that recipe adds (`ADD ks-start.sh /`): it runs the image's program the
        way the image would, not another program of it (a one-shot script of the same image, `/es_template_create.sh`,
        is another). None otherwise."""
        words = (command or "").split()
        script = PurePosixPath(words[-1].strip("\"'")).name if words else ""
        if "$" in _image_repo(image) or not START_SCRIPT.search(script):
            return None
        recipe = self.recipe_for_image(repo, image)
        if recipe is not None and any(
                PurePosixPath(src.strip()).name == script for c in self.by_kind["docker.copy"]
                if c.repository == repo and c.path == recipe[1] for src in (c.get("sources") or "").split(",")):
            return recipe
        return None

    def _program_at_root(self, repo: str) -> bool:
        """Is the repository's root a program of its own (pyproject.toml, go.mod... at the root; a JavaScript
        workspace's root package.json is none)?"""
        return any(m.repository == repo and "/" not in m.path and m.get("ecosystem") != "npm"
                   for m in self.by_kind["manifest"])

    def _recipe_started_package(self, repo: str, dockerfile: str, dirs: set[str]) -> str | None:
        """The package folder of the program a recipe builds (``go build`` in its stages) and its command starts
        (``CMD ["./sales"]``), when exactly one such package folder exists in the repository; else None."""
        started = {started_binary(f.get("command") or "") for f in self.by_kind["docker.command"]
                   if f.repository == repo and f.path == dockerfile}
        built = {f.get("code") or "" for f in self.by_kind["program.build"]
                 if f.repository == repo and f.path == dockerfile and (f.get("binary") or "").lower() in started
                 and (f.get("code") or "") in dirs}
        return built.pop() if len(built) == 1 else None

    def copies_from_root(self, repo: str, dockerfile: str, paths: set[str], dirs: set[str], code: set[str]) -> bool:
        """Does the recipe copy in code by paths written from the repository's root, none of which is beside
        it (``docker/Dockerfile`` with ``COPY requirements.txt ./`` and the repository's requirements.txt)?
        Then it is built with the whole repository as its context."""
        here = folder(dockerfile)
        for c in self.by_kind["docker.copy"]:
            if c.repository != repo or c.path != dockerfile:
                continue
            for src in (c.get("sources") or "").split(","):
                src = norm_path(src.strip().lstrip("./")) if src.strip() not in (".", "./") else ""
                if "$" in src or ":" in src:
                    continue
                at_root = src == "" or src in paths or src in dirs
                beside = join_path(here, src) in paths or join_path(here, src) in dirs
                if src and at_root and not beside and any(p.startswith(src) for p in paths if folder(p) in code):
                    return True
        return False

    def _stage_named_like_image(self, repo: str, wanted: set[str]) -> tuple[str, str] | None:
        """The package a stage of the project's main recipe named like the image builds (``exceptionless/app``
        and ``FROM ... AS app`` in the root Dockerfile, working in ``src/Exceptionless.Web``): one recipe
        building several images by target, the image-only deployment runs that target's package."""
        for dockerfile in ("Dockerfile", "docker/Dockerfile"):
            stages = {f.get("stage") or "" for f in self.recipe_stages(repo, dockerfile)[1]}
            named = sorted(st for st in stages if key(st) in wanted)
            if len(named) == 1:
                package = self.workspace_target(repo, dockerfile, "", named[0])
                return (package, dockerfile) if package else None
        return None

    def _builder_recipe_dirs(self, repo: str) -> set[str]:
        """Folders of the repository whose every recipe only builds: its last stage is a compiled language's
        toolchain image and no CMD or ENTRYPOINT starts anything (Revolt's root Dockerfile compiling every crate
        of the workspace into the base image each service's recipe copies its binary from).  Such a folder is
        no program by its recipe; what it builds runs from the other recipes."""
        last: dict[str, str] = {}
        for f in sorted(self.by_kind["docker.from"], key=Fact.order):
            if f.repository == repo:
                last[f.path] = f.get("image") or ""
        started = {f.path for f in self.by_kind["docker.command"] if f.repository == repo}
        builders: dict[str, bool] = {}
        for path, image in last.items():
            d = norm_path(str(PurePosixPath(path).parent))
            builds = path not in started and bool(TOOLCHAIN_IMAGE.match(image.strip()))
            builders[d] = builders.get(d, True) and builds
        return {d for d, b in builders.items() if b}

    def workspace_target(self, repo: str, dockerfile: str, root: str, target: str | None = None) -> str | None:
        """The one package of a monorepo a Dockerfile building the context ``root`` makes: the folder of
        the package (a manifest's folder under the context) its stages name. Only the stage a compose
        ``target:`` selects, else the last, and the stages it is built FROM or copies from count.
        Build tools' package selectors (``turbo prune --scope=@acme/api``, ``pnpm --filter api``,
        ``npm -w apps/api``, ``yarn workspace``, ``nx build api``) are asked first, then WORKDIRs ending
        in a package's folder, then the package folders COPY takes from the context: in each stage the
        first of them that names packages decides, and the stages' packages must come down to one folder
        (a package nested in another named one is the outer's). None when the recipe names none or several,
        or is kept in a package's own folder (that package's recipe, which may build its dependencies by name)."""
        cache = getattr(self, "_workspace_targets", None)
        if cache is None:  # a memo of facts only: what a recipe builds never depends on the model
            cache = self._workspace_targets = {}
        k = (repo, dockerfile, root, (target or "").lower())
        if k not in cache:
            cache[k] = self._workspace_target(*k)
        return cache[k]

    def recipe_stages(self, repo: str, dockerfile: str) -> tuple[list[Fact], list[Fact]]:
        """A recipe's ``docker.workspace_target`` signals and its ``docker.stage`` facts in line order,
        indexed once by (repository, Dockerfile): what builds a workspace's image and what its last
        stage copies in are asked of every image-only deployment."""
        index = getattr(self, "_recipe_index", None)
        if index is None:
            index = defaultdict(lambda: ([], []))
            for f in self.by_kind["docker.workspace_target"]:
                index[(f.repository, f.path)][0].append(f)
            for f in sorted(self.by_kind["docker.stage"], key=Fact.order):
                index[(f.repository, f.path)][1].append(f)
            for _signals, stages in index.values():
                stages.sort(key=lambda f: f.line)
            index = self._recipe_index = dict(index)
        return index.get((repo, dockerfile), ([], []))

    def _workspace_target(self, repo: str, dockerfile: str, root: str, target: str) -> str | None:
        outer, by_value = self._stage_packages(repo, dockerfile, root, target)
        if len(outer) == 1:
            return next(iter(outer))
        if by_value is None:
            return None
        # several packages (a front end copied in beside its server): the one the image's command starts
        # (`CMD ["pnpm", "start"]` running the root script `pnpm --filter ./apps/server run start:prod`)
        started = self._started_package(repo, dockerfile, root, by_value)
        return started if started is not None and (not outer or started in outer) else None

    def _stage_packages(self, repo: str, dockerfile: str, root: str, target: str
                        ) -> tuple[set[str], Callable[[str], set[str]] | None]:
        """The outermost package folders the recipe's chosen stages build (see workspace_target), and the
        matcher of package names and paths; (set(), None) when the recipe names none of a workspace."""
        signals, stage_facts = self.recipe_stages(repo, dockerfile)
        if not signals:
            return set(), None
        needs = {f.get("stage") or "": set(filter(None, (f.get("needs") or "").split(","))) for f in stage_facts}
        order = [f.get("stage") or "" for f in stage_facts]
        start = target if target else (order[-1] if order else "0")
        if needs and start not in needs:
            return set(), None  # a target the recipe does not hold
        chosen = stages_reached(needs, start)
        packages: dict[str, list[str]] = {}  # package folder (under the context) -> its names
        for m in self.by_kind["manifest"]:
            d = norm_path(folder(m.path))
            if m.repository == repo and d != root and is_under(d, root):
                packages.setdefault(d, [])
                if m.get("name"):
                    packages[d].append(m.get("name") or "")
        if not packages or folder(dockerfile) in packages:
            return set(), None  # a package's own recipe (apps/api/Dockerfile) builds its folder whatever it names

        def relative(d: str) -> str:
            return d[len(root):].lstrip("/") if root else d

        def by_value(value: str) -> set[str]:
            named = {d for d, names in packages.items() if value in names}
            if named:
                return named
            path = norm_path(value)
            at = {d for d in packages if relative(d) == path or d == path}
            if at:
                return at
            tail = value.rsplit("/", 1)[-1].lower()
            return {d for d, names in packages.items() if PurePosixPath(d).name.lower() == tail
                    or any(n.rsplit("/", 1)[-1].lower() == tail for n in names)}

        def by_workdir(value: str) -> set[str]:
            # under the folder the context was copied to (/app/apps/api), not that folder itself (/app)
            hits = [d for d in packages if value.endswith("/" + relative(d)) and value != "/" + relative(d)]
            return {max(hits, key=len)} if hits else set()

        def by_copy(value: str) -> set[str]:
            d = norm_path(join_path(root, value))
            return {d} if d in packages else set()

        def by_copy_last(value: str) -> set[str]:
            """(the image's own stage: a package's manifest copied in, `COPY server/package.json ./` before its
            sources `COPY server/src ./src`, names that package)"""
            d = norm_path(join_path(root, value))
            if d not in packages and PACKAGE_MANIFEST.search(d) and folder(d) in packages:
                d = folder(d)
            return {d} if d in packages else set()

        # a working folder or a copied folder names a package only in a context of several of them
        # the folders a stage copies name its package only when no stage copies the whole context (the last
        # stage's `COPY . /app` beside a front-end stage that copied one package of the workspace)
        whole = any(f.get("how") == "copy" and f.get("target") == "." and (f.get("stage") or "0") in chosen for f in signals)
        ways = (("package", by_value), ("workdir", by_workdir), ("copy", by_copy))[:1 if len(packages) < 2 else 2 if whole else 3]
        # a program's own manifest at the context's root copied in (`COPY pyproject.toml ...` of a Python package
        # whose Rust extension sits in rust/ with a Cargo.toml of its own): the recipe builds that program, and the
        # packages it copies beside it are its parts (a JavaScript workspace's root package.json is no program)
        root_manifests = {PurePosixPath(m.path).name for m in self.by_kind["manifest"] if m.repository == repo
                          and norm_path(folder(m.path)) == root and m.get("ecosystem") not in ("npm", "cargo")}
        if root_manifests and any(f.get("how") == "copy" and (f.get("stage") or "0") in chosen
                                  and norm_path(f.get("target") or "") in root_manifests for f in signals):
            return {root}, by_value
        def stage_packages(stage: str, own_only: bool) -> set[str]:
            """The stage's packages by its strongest signal; `own_only`: leaving out the outputs it copies in from
            other stages (`COPY --from=ui /build/ui/dist ./ui/dist`), which are those stages' packages."""
            for how, match in ways:
                if how == "copy" and stage == start:
                    match = by_copy_last
                named = {d for f in signals if f.get("how") == how and (f.get("stage") or "0") == stage
                         and not (own_only and f.get("from_stage"))
                         for d in match(f.get("target") or "")}
                if named:
                    return named
            return set()

        found: set[str] = set()
        own: dict[str, set[str]] = {}  # stage -> the packages it builds itself
        for stage in sorted(chosen):  # each stage by its strongest signal; the packages of all of them
            own[stage] = stage_packages(stage, True)
            found |= own[stage] or stage_packages(stage, False)  # (an assembly stage: what it copies in)
        # a stage whose output only stages building a package of their own take in (a front end's bundle copied into
        # the Go server's build, which embeds it) is part of their package, not a program of the image
        for stage, named in sorted(own.items()):
            takers = {t for t in chosen if stage in needs.get(t, set())}
            # (the last stage too, where it builds a package itself: a server's stage copying its own code in and the
            # client stage's build beside it, `COPY --from=client-build /app/client/build /client/build`)
            if named and takers and (start not in takers or own.get(start)) \
                    and all(own.get(t, set()) - named for t in takers):
                found -= named - {d for t in chosen - {stage} for d in own.get(t, set())}
        outer = {d for d in found if not any(o != d and is_under(d, o) for o in found)}
        return outer, by_value

    def _self_named_instances(self) -> set[str]:
        """Numbered services of one image in one compose file (``worker1``, ``worker2`` of ``acme/backend``) whose
        settings are the same but for naming themselves (``BACKEND_NAME: worker1``): copies of one program
        scaled by hand, however few, told from two roles of one image, which are configured apart."""
        settings: dict[tuple[str, str, str], set[tuple[str, str]]] = defaultdict(set)
        for e in self.by_kind["config.env"]:
            if e.get("source") == "compose" and e.get("owner"):
                own = (e.get("owner") or "").lower()
                settings[(e.repository, e.path, own)].add(
                    (e.get("name") or "", re.sub(re.escape(own), "{self}", (e.get("value") or "").lower())))
        groups: dict[tuple[str, str, str, str | None], list[str]] = defaultdict(list)
        for f in self.by_kind["compose.service"]:
            m = NUMBERED_NODE.match(f.get("name") or "")
            if m and f.get("image"):
                groups[(f.repository, f.path, m.group(1).lower(), self._node_image(f))].append((f.get("name") or "").lower())
        out: set[str] = set()
        for (repo, path, base, _image), names in groups.items():
            signatures = {frozenset(settings.get((repo, path, n), ())) for n in names}
            if len(names) >= 2 and len(signatures) == 1 and next(iter(signatures)) \
                    and any("{self}" in v for _k, v in next(iter(signatures))):
                out.add(base)
        return out

    def _node_image(self, f: Fact) -> str | None:
        """What a compose service runs, to tell the numbered nodes of one cluster: its image, else its build."""
        image = self.compose_interpolate(f, f.get("image"))
        return image if image else f"build:{self.compose_interpolate(f, f.get('build_context'))}"

    def packed_applications(self, repo: str, module: str) -> list[str]:
        """The applications a packaging module packs: the folders of the Maven modules of this repository that
        a module of no JVM code of its own (assembly/api/ holding its pom and its docker/ recipe)
        depends on and that run by themselves (a war or ear, or a main class). The image built of the
        packaging module runs their code: they are the deployment's code, not components of their own."""
        poms = [m for m in self.by_kind["manifest"] if m.repository == repo and m.get("ecosystem") == "maven"
                and norm_path(folder(m.path)) == module]
        if not poms or any(m.get("packaging") not in (None, "", "jar", "pom") for m in poms) or any(
                r == repo and is_under(p, module) and language_for_path(p) in JVM_LANGUAGES for r, p in self.code_paths):
            return []
        wanted = {(f.get("name") or "") for k in ("manifest.dependency", "manifest.bundle") for f in self.by_kind[k]
                  if f.repository == repo and f.path == poms[0].path}
        by_name = {m.get("name"): m for m in self.by_kind["manifest"] if m.repository == repo
                   and m.get("ecosystem") == "maven" and m.get("name") in wanted}
        mains = {folder(f.path) for f in self.by_kind["program.java_main"] if f.repository == repo}
        out = set()
        for name, m in by_name.items():
            d = norm_path(folder(m.path))
            if d != module and (m.get("packaging") in ("war", "ear") or any(is_under(x, d) for x in mains)):
                out.add(d)
        return sorted(out)

    def image_companions(self, repo: str, dockerfile: str, root: str) -> list[str]:
        """The other packages of a workspace whose built files a root recipe's last stage copies in beside the
        package it runs (``COPY --from=builder /app/apps/client/dist /app/apps/client/dist`` in an image that
        starts ``apps/server``): the front end that server serves and the libraries it loads are code of the
        same running component. Only for a recipe outside the packages building one of them (``root``)."""
        if not root or not dockerfile:
            return []
        packages = {norm_path(folder(m.path)) for m in self.by_kind["manifest"]
                    if m.repository == repo and folder(m.path)}
        if root not in packages or norm_path(folder(dockerfile)) in packages:
            return []
        signals, stage_facts = self.recipe_stages(repo, dockerfile)
        last = (stage_facts[-1].get("stage") or "") if stage_facts else "0"
        out = set()
        for f in signals:
            if (f.get("stage") or "0") != last or f.get("how") not in ("workdir", "copy"):
                continue
            value = (f.get("target") or "").rstrip("/")
            hits = [d for d in packages if value == "/" + d or value.endswith("/" + d) or value == d]
            if hits:
                out.add(max(hits, key=len))
        return sorted(out - {root})

    _SELECTOR = re.compile(r"(?:--filter|-F|--workspace|-w)[ =]['\"]?([^\s'\"]+)|\byarn\s+workspace\s+(\S+)")

    def _started_package(self, repo: str, dockerfile: str, root: str,
                         by_value: Callable[[str], set[str]]) -> str | None:
        """The package the recipe's last CMD starts through the root manifest's script (a workspace
        selector in it), or None."""
        cmds = [f for f in self.by_kind["docker.command"] if f.repository == repo and f.path == dockerfile]
        if not cmds:
            return None
        raw = (max(cmds, key=lambda f: f.line).get("command") or "").strip()
        try:
            parsed = json.loads(raw) if raw.startswith("[") else shlex.split(raw)
        except ValueError:
            return None
        if not isinstance(parsed, list):
            return None
        words = [str(w) for w in parsed]
        while words and PurePosixPath(words[0]).name in ("dumb-init", "tini", "--", "exec"):
            words = words[1:]
        if len(words) < 2 or words[0] not in ("npm", "pnpm", "yarn"):
            return None
        script = words[2] if words[1] in ("run", "run-script") and len(words) > 2 else words[1]
        manifest = join_path(root, "package.json") if root else "package.json"
        commands = [f.get("command") or "" for f in self.by_kind["program.command"]
                    if f.repository == repo and f.path == manifest and f.get("owner") == script]
        if script == "start":  # (the manifest keeps its start script whatever it runs)
            commands += [f.get("start") or "" for f in self.by_kind["manifest"] if f.repository == repo and f.path == manifest]
        for command in commands:
            for m in self._SELECTOR.finditer(command):
                value = (m.group(1) or m.group(2) or "").removeprefix("./").rstrip("/")
                named = by_value(value) if value else set()
                if len(named) == 1:
                    return next(iter(named))
        return None

    @staticmethod
    def _workload_program(f: Fact) -> str:
        """The program a workload's first container runs when it overrides the image's command
        (``/usr/local/bin/argocd-server`` -> ``argocd-server``), else ''."""
        return PurePosixPath((f.get("command") or "").split(" ")[0]).name if f.get("command") else ""

    def _azd_builds(self) -> dict[tuple[str, str], str]:
        """(repository, compose service name) -> the azure.yaml service shipping the folder that compose service
        builds, for folders one azure.yaml service ships and one service of a default compose file builds (every
        file's entry of that service takes the name: docker-compose.override.yml's too)."""
        services = self.by_kind["compose.service"]
        if not any(f.get("source") == "azd" for f in services):
            return {}
        shipped: dict[tuple[str, str], set[str]] = defaultdict(set)
        built: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in services:
            azd = f.get("source") == "azd"
            root = self.build_root(f)[0] if azd or DEFAULT_COMPOSE.search(f.path) else None
            if root is not None:
                (shipped if azd else built)[(f.repository, root)].add(f.get("name") or "")
        return {(k[0], next(iter(built[k])).lower()): next(iter(v)) for k, v in shipped.items()
                if len(v) == 1 and len(built.get(k, ())) == 1}

    def _sibling_build(self, f: Fact) -> tuple[str, str] | None:
        """(repository, package folder) of a compose service's build context that leaves its repository
        (``build: ../../Pacco.Services.Orders`` from compose/) into another repository of the analysis, known by
        its name: the folder the recipe there builds (``dotnet publish src/Pacco.Services.Orders.Api``), else
        that repository's root.  None otherwise."""
        context = self.compose_interpolate(f, f.get("build_context"))
        if not context or re.match(r"^[a-z]+://", context):
            return None
        # (normpath keeps the `..` that climb out of the repository, all of them in front)
        raw = posixpath.normpath(posixpath.join(f.get("compose_dir") or ".", context))
        rest = [p for p in raw.split("/") if p != ".."]
        if not raw.startswith("../") or not rest:
            return None
        names = {name.lower(): name for name in self.projects if name != f.repository}
        other = names.get(rest[0].lower())
        if other is None:
            return None
        folder_ = "/".join(rest[1:])
        recipe = join_path(folder_, self.compose_interpolate(f, f.get("dockerfile")) or "Dockerfile")
        package = self.workspace_target(other, norm_path(recipe), folder_, self.compose_interpolate(f, f.get("build_target")))
        return other, package if package is not None else folder_

    def build_root(self, f: Fact) -> tuple[str | None, str]:
        """The folder a compose service builds (its code) and its Dockerfile's path: the build context,
        or with a shared context (``context: .``) and a per-service ``dockerfile: src/ad/Dockerfile``,
        the Dockerfile's folder (unless that folder holds only recipes and the context is a folder of
        its own). None for no build or a remote context."""
        context = self.compose_interpolate(f, f.get("build_context"))
        if context is None and f.get("dockerfile"):
            context = "."  # `build: {dockerfile: ...}` with no (or an empty) context: the Compose default
        if context is None or re.match(r"^[a-z]+://", context):
            return None, ""
        root = norm_path(PurePosixPath(f.get("compose_dir") or ".").joinpath(context).as_posix())
        dockerfile_value = self.compose_interpolate(f, f.get("dockerfile"))
        dockerfile = norm_path(join_path(root, dockerfile_value or "Dockerfile"))
        if norm_path(f.get("compose_dir") or ".") and (f.repository, dockerfile) not in self.recipe_paths:
            # an override file kept in a subfolder (dockerfiles/docker-compose.build.yml: `context: .`, `dockerfile:
            # apps/api/Dockerfile`) that people add with `-f` beside the root's compose file: its paths are the
            # project folder's, the root's, where the recipe it names is
            top = norm_path(PurePosixPath(".").joinpath(context).as_posix())
            recipe = norm_path(join_path(top, dockerfile_value or "Dockerfile"))
            if (f.repository, recipe) in self.recipe_paths:
                root, dockerfile = top, recipe
        if not dockerfile_value and (f.repository, dockerfile) not in self.recipe_paths \
                and (f.repository, join_path(root, "dockerfile")) in self.recipe_paths:
            dockerfile = join_path(root, "dockerfile")  # docker build takes a lower-case dockerfile when no Dockerfile
        if (f.repository, dockerfile) in self.recipe_paths and self._copies_nothing(f.repository, dockerfile) \
                and not self._mounts_folder(f, root):
            # a recipe taking nothing from its context, on a runtime of another language than the context's code
            # (Dockerfile.awslocal: FROM python, `pip install awscli-local`, ENTRYPOINT awslocal, in a TypeScript
            # server's repository) builds a tool's image: the service runs none of the repository's code
            bases = [d.get("image") or "" for d in self.by_kind["docker.from"]
                     if d.repository == f.repository and d.path == dockerfile]
            runtimes = {_runtime_family(image_language(b)) for b in bases} - {None}
            dominant = self._dominant_code_language(f.repository, root)
            if runtimes and dominant is not None and dominant not in runtimes:
                return None, dockerfile
            # nor does a store's image started another way (dockerfile-mongodb-replica: `FROM mongo:4` and an
            # ENTRYPOINT starting a replica set, built with the repository as its context)
            if any((tech := tech_for_image(b)) and tech[1] in STORE_KINDS for b in bases):
                return None, dockerfile
        # the folder the service's own build arguments choose in a shared recipe goes first: the recipe's fixed
        # copies (a common library, `COPY $COMMON_BASE_PATH/` by its ARG default) are every service's alike
        chosen = self._folder_by_build_args(f, dockerfile, root)
        if chosen is not None:
            return chosen, dockerfile
        package = self.workspace_target(f.repository, dockerfile, root, self.compose_interpolate(f, f.get("build_target")))
        if package is not None:
            return package, dockerfile  # a monorepo's context, of which the recipe builds one package
        if dockerfile_value and "/" in dockerfile_value.strip("./"):
            recipe_dir = norm_path(str(PurePosixPath(dockerfile).parent))
            # A context that is a service's own folder, with its recipes kept in a subfolder of it
            # (`context: src/sale`, `dockerfile: docker/Dockerfile-sale`): the code is the context's.
            holds_code = self._recipe_folder_runs_code(f.repository, dockerfile, recipe_dir)
            own_context = root not in ("", ".", norm_path(f.get("compose_dir") or ".")) and not holds_code
            if not own_context:
                if not holds_code and (self._copies_whole_context(f.repository, dockerfile)
                                       or self._interpreted_tree(f.repository, dockerfile, root) or (
                        ((f.repository, dockerfile) in self.whole_context_recipes or self._mounts_folder(f, root))
                        and any(r == f.repository and is_under(p, recipe_dir) for r, p in self.code_paths))):
                    # recipes kept in a folder of no code (docker/server/Dockerfile) that copy the whole
                    # context in (`COPY . /conductor`) and build it there: the context's code is what runs
                    return root, dockerfile
                if not holds_code and self._mounts_folder(f, root) \
                        and not idle_command(self.deployment_commands.get((f.repository, (f.get("name") or "").lower()), "")) \
                        and any(r == f.repository and is_under(p, root) for r, p in self.code_paths):
                    # a recipe in a folder of no code (config/docker/Dockerfile installing the gems) for a service
                    # that mounts the context's working tree where it runs (`.:/otwa`): the context's code runs (not in
                    # a developer's shell kept idle, `entrypoint: ["sleep", "inf"]`)
                    return root, dockerfile
                root = recipe_dir
        if not any(r == f.repository and is_under(p, root) for r, p in self.code_paths):
            # a recipe in a folder of no code that starts FROM the project's own published image
            # (docker/Dockerfile.compose: `FROM automatischio/automatisch:latest` plus an entrypoint script): the
            # service runs what that image runs, the code the project's main recipe builds
            bases = [d.get("image") or "" for d in sorted(self.by_kind["docker.from"], key=Fact.order)
                     if d.repository == f.repository and d.path == dockerfile]
            if bases and key(image_basename(bases[-1])) in self._own_project_keys(f.repository):
                own = self._recipe_named_like_repository(f.repository, bases[-1])
                if own is not None and own[1] != dockerfile:
                    return own
        return root, dockerfile

    def _copies_nothing(self, repo: str, dockerfile: str) -> bool:
        """Does the recipe take no file from its build context (no COPY or ADD of it, nor of a path a build argument
        chooses)?  Its image is a base image with tools installed."""
        if any(c.repository == repo and c.path == dockerfile for c in self.by_kind["docker.copy"]):
            return False
        return not any(g.repository == repo and g.path == dockerfile and g.get("how") in ("copy", "copy_template")
                       for g in self.by_kind["docker.workspace_target"])

    def _recipe_folder_runs_code(self, repo: str, dockerfile: str, recipe_dir: str) -> bool:
        """Does the recipe's folder hold code the image can run?  A folder of recipes keeps helper files
        beside them (``docker/statsd_config.js`` next to a Python image's ``dev.Dockerfile``): code in no
        language of the recipe's stock base images (``python:3.13``) is a tool's configuration, not the
        program.  With no stock base image, any code there counts."""
        # (a folder below with a recipe of its own is another image's code: docker/mockservices)
        nested = {folder(d.path) for d in self.by_kind["docker.from"] if d.repository == repo
                  and folder(d.path) != recipe_dir and is_under(folder(d.path), recipe_dir)}
        code = [p for r, p in self.code_paths if r == repo and is_under(p, recipe_dir)
                and not any(is_under(p, n) for n in nested)]
        if not code:
            return False
        languages = {lang for d in self.by_kind["docker.from"] if d.repository == repo and d.path == dockerfile
                     for lang in runtime_language(d.get("image") or "")}
        return not languages or any(language_for_path(p) in languages for p in code)

    def _mounts_folder(self, f: Fact, root: str) -> bool:
        """Does a compose file of the service's folder bind-mount `root` into its container
        (``.:/app``, ``${OL_MOUNT_DIR:-.}:/openlibrary``)?  The container runs that folder's code, whatever
        its recipe copies in."""
        here = norm_path(f.get("compose_dir") or folder(f.path))
        name = (f.get("name") or "").lower()
        return any(m.repository == f.repository and (m.get("owner") or "").lower() == name
                   and norm_path(folder(m.path)) == here
                   and norm_path(join_path(here, m.get("source") or "")) == root
                   for m in self.by_kind["compose.mount"])

    def _folder_by_build_args(self, f: Fact, dockerfile: str, root: str) -> str | None:
        """The folder of code a compose service's build arguments choose in a shared recipe: ``WORKDIR
        $GOPATH/src/${service}/cmd/${cmd}`` with ``args: {service: consumer, cmd: service}`` (ARG defaults
        filling the rest) works in ``consumer/cmd/service`` of the context. The working folder's longest tail
        that is a folder of code under the context; None when the arguments leave a variable open."""
        args = dict(line.split("=", 1) for line in (f.get("build_args") or "").splitlines() if "=" in line)
        if not args:
            return None
        templates = [g.get("target") or "" for g in self.by_kind["docker.workspace_target"]
                     if g.repository == f.repository and g.path == dockerfile and g.get("how") == "workdir_template"]
        for template in templates:
            value = re.sub(r"\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)", lambda m: args.get(m.group(1) or m.group(2), m.group(0)),
                           template)
            parts = [p for p in value.split("/") if p and "$" not in p] if "$" not in value.split("/")[-1] else []
            for i in range(len(parts)):
                candidate = norm_path(join_path(root, "/".join(parts[i:])))
                if candidate and (f.repository, candidate) in self.code_folders:
                    return candidate
        # An argument the recipe's copied paths are written with (`COPY --from=builder /app/apps/${SCOPE}/.next/standalone`
        # with `args: [SCOPE=builder]`): the folder of code those paths name down to the argument's value (apps/builder)
        chosen: set[str] = set()
        written = [src for c in self.by_kind["docker.copy"] if c.repository == f.repository and c.path == dockerfile
                   for src in (c.get("sources") or "").split(",") if "$" in src]
        written += [g.get("target") or "" for g in self.by_kind["docker.workspace_target"]
                    if g.repository == f.repository and g.path == dockerfile and g.get("how") == "copy_template"]
        for src in sorted(written):
            parts = [p for p in src.strip().split("/") if p]
            for k, part in enumerate(parts):
                if not re.fullmatch(r"\$\{?([A-Za-z_]\w*)\}?", part) or \
                        (value := args.get(re.sub(r"[${}]", "", part), "").strip().strip("\"'").rstrip("/")) in ("", ".") \
                        or value.startswith(("/", "../")) or "$" in value:
                    continue  # (a folder path in the context, `BUILD_BASE_PATH: server/src/services/orders`, is one)
                for i in range(k + 1):
                    if any("$" in p for p in parts[i:k]):
                        continue
                    candidate = norm_path(join_path(root, "/".join([*parts[i:k], value])))
                    if candidate and any(r == f.repository and is_under(d, candidate) for r, d in self.code_folders):
                        chosen.add(candidate)
                        break
        if len(chosen) == 1:
            return next(iter(chosen))
        # An argument naming a folder of code in the context (`CMD_PATH: cmd/openim-rpc/openim-rpc-user` for
        # `go build ./${CMD_PATH}`, `SERVICE_DIR: services/orders`): the one program the shared recipe builds.
        named = {norm_path(join_path(root, v.strip().strip("\"'"))) for v in args.values()
                 if "/" in v.strip("./") and "$" not in v and not re.match(r"^[a-z]+://", v.strip())}
        named = {c for c in named if c and c not in ("", ".", root) and (f.repository, c) in self.code_folders}
        if len(named) == 1:
            return next(iter(named))
        return None

    def _interpreted_tree(self, repo: str, dockerfile: str, root: str) -> bool:
        """Does the recipe copy its whole context (``COPY . /social``) onto the stock runtime of an interpreted
        language (``python``, ``ruby``, ``php``, ``node``) that the context's own code is written in, a context
        of one project (no package manifests below its root)?  The image runs that tree as it is: the code is
        the context's, wherever the recipe is kept."""
        if (repo, dockerfile) not in self.whole_context_recipes:
            return False
        languages = {lang for d in self.by_kind["docker.from"] if d.repository == repo and d.path == dockerfile
                     for lang in runtime_language(d.get("image") or "")}
        if not languages or languages & {"go", "java", "kotlin", "scala", "csharp", "fsharp"}:
            return False
        if any(m.repository == repo and is_under(m.path, root) and folder(m.path) != root for m in self.by_kind["manifest"]):
            return False  # (a workspace of packages, apps/web and apps/workers, whose recipe builds some of them)
        return self._dominant_code_language(repo, root) in languages

    def _copies_whole_context(self, repo: str, dockerfile: str) -> bool:
        """Does the Dockerfile copy its whole build context into the image (``COPY . /conductor``) of a
        repository built as one Gradle or Maven build from its root?  (A recipe copying a Go module's whole
        tree in to build one of its programs builds that program, not the tree.)"""
        return (repo, dockerfile) in self.whole_context_recipes and repo in self.root_builds

    @property
    def variant_builds(self) -> set[tuple[str, str]]:
        """Folders an opt-in compose variant file builds (an ELK stack's Dockerfiles, a full stack's extras)."""
        return {(f.repository, root) for how, f in self.opt_in_services if how == "variant"
                for root in [self.build_root(f)[0]] if root is not None}

    @property
    def profile_builds(self) -> set[tuple[str, str]]:
        """Folders compose services under `profiles:` build (a seeding job)."""
        return {(f.repository, root) for how, f in self.opt_in_services if how == "profile"
                for root in [self.build_root(f)[0]] if root is not None}

    def compose_interpolate(self, f: Fact, value: str | None) -> str | None:
        """Compose fills ``${VAR}`` / ``${VAR:-default}`` in a file from the ``.env`` file beside it
        (``dockerfile: ${AD_DOCKERFILE}``, ``image: ${IMAGE_NAME}:${VERSION}-ad``)."""
        if not value or "$" not in value:
            return value
        env = norm_path(join_path(f.get("compose_dir") or PurePosixPath(f.path).parent.as_posix(), ".env"))
        return compose_filled(value, self.dotenv.get((f.repository, env), {}))

    def _service_selections(self) -> tuple[list[tuple[Fact, list[str]]], set[tuple[str, str]]]:
        """Each Kubernetes Service with the names of the workloads (not one-off Jobs) its selector picks, and
        (repository, workload) of the workloads some Service selects alone (a Service of their own)."""
        running = [(w, w.get("name") or "") for w in self.by_kind["k8s.workload"]
                   if w.get("labels") and w.get("workload_kind") != "Job" and w.get("name")]
        selections = [(svc, sorted({name for _w, name in selected_workloads(svc, running)}))
                      for svc in self.by_kind["k8s.service"]]
        return selections, {(svc.repository, names[0]) for svc, names in selections if len(names) == 1}

    def shared_app_labels(self, alone: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """(repository, `app` label) carried by two workloads or more that each have a Service of their own
        (`alone`): the label names the application they make up (`app: ecommerce` on the ads service, the
        storefront and the database), not a component one of them is a version of."""
        carriers: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["k8s.workload"]:
            if f.get("app") and (f.repository, f.get("name") or "") in alone:
                carriers[(f.repository, (f.get("app") or "").lower())].add(f.get("name") or "")
        return {k for k, names in carriers.items() if len(names) >= 2}

    def workload_versions(self, selections: list[tuple[Fact, list[str]]],
                          alone: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Workloads one Kubernetes Service selects are versions of one component (a canary, a fix,
        ``v1``/``v2``): the Service sends their traffic to the same pods. Each maps to the workload
        named like the Service, else to the first by name. Workloads in different files of the same
        name are already one component; a Service without a selector selects nothing, and one selecting
        workloads that each have a Service of their own is a door to them all, not one component's."""
        out: dict[tuple[str, str], str] = {}
        labels: dict[tuple[str, str], set[frozenset[str]]] = defaultdict(set)
        for w in self.by_kind["k8s.workload"]:
            labels[(w.repository, w.get("name") or "")].add(frozenset(filter(None, (w.get("labels") or "").split(","))))
        for svc, names in selections:
            if len(names) < 2:
                continue
            if sum((svc.repository, n) in alone for n in names) >= 2 and not _version_labelled(
                    [labels[(svc.repository, n)] for n in names]):
                # (a Service in front of workloads that each have a Service of their own, a LoadBalancer selecting
                # the whole app by its `app: ecommerce` label: a door to several components, not versions of one;
                # workloads told apart by their `version` label alone stay versions, each with a Service for routing
                # to that version, as a mesh's canary does)
                continue
            primary = svc.get("name") if svc.get("name") in names else names[0]
            for n in names:
                if n != primary:
                    out.setdefault((svc.repository, n), primary or "")
        return out

    def cluster_add_ons(self) -> set[Fact]:
        """Workloads that run a third-party image under a service account with cluster-wide rights
        (a ClusterRoleBinding names it) are add-ons of the cluster, not parts of the application:
        ingress controllers, operators, monitoring agents installed from their vendors' manifests.
        Images the repository builds, and those the project publishes under its own name
        (``ghcr.io/chaos-mesh/chaos-coredns`` in the chaos-mesh repository), stay components whatever rights
        they hold."""
        bound = {(f.repository, f.get("service_account") or "") for f in self.by_kind["k8s.cluster_binding"]}
        built = {_image_repo(f.get("image") or "") for f in self.by_kind["compose.service"]
                 if f.get("build_context") or f.get("dockerfile")}
        def chart_named(f: Fact, image: str) -> bool:
            # the chart the repository holds for its own program, named like its image (charts/vela-core)
            chart = re.search(r"(?:^|/)([^/]+)/templates/", f.path)
            return chart is not None and key(chart.group(1)) == key(image_basename(image)) and tech_for_image(image) is None

        def own(f: Fact, image: str) -> bool:
            return (image.startswith("ko://")  # ko builds the image from this repository's Go package
                    or _image_repo(image) in built or self.builds_image(f.repository, image)
                    or self._published_by_project(f.repository, image) or chart_named(f, image))
        images = [(f, f.get("image") or "") for f in self.by_kind["k8s.workload"] if f.get("image")]
        # the registry owner of the image its chart is named after publishes the chart's other images too
        # (oamdev/cluster-gateway beside oamdev/vela-core); not an organisation publishing many projects, known
        # only by one image the repository builds (grafana/tempo beside grafana/rollout-operator)
        owners = {(f.repository, _chart_of(f.path), _image_owner_path(image)) for f, image in images
                  if chart_named(f, image) and "/" in _image_repo(image)}
        out: set[Fact] = set()
        projects = {r: key(self.project_of(r)) for r in {f.repository for f, _image in images}}
        for f, image in images:
            # (a workload the project names after itself, flagger-prometheus in Flagger's manifests, is its own
            # instance of the tool, installed with it, not an add-on a cluster brings)
            project, name = projects[f.repository], key(f.get("name") or "")
            named_by_project = len(project) >= 4 and name.startswith(project) and len(name) > len(project)
            if (f.get("service_account") and (f.repository, f.get("service_account")) in bound
                    and (f.repository, _chart_of(f.path), _image_owner_path(image)) not in owners and not own(f, image)
                    and not named_by_project):
                out.add(f)
        return out

    def _published_by_project(self, repo: str, image: str) -> bool:
        """Is the image published under the project's own name, as its owner (``ghcr.io/chaos-mesh/...``,
        ``chaosmesh/...`` for the project chaos-mesh; ``ghcr.io/kedacore/...`` for keda)?"""
        parts = _image_repo(image).split("/")
        if len(parts) >= 2 and ("." in parts[0] or ":" in parts[0] or parts[0] == "localhost"):
            parts = parts[1:]  # the registry
        own = self._own_project_keys(repo)
        owner = key(parts[0]) if parts else ""
        # the project's organisation often adds a word to its name: kedacore for keda, goharbor for harbor
        return len(parts) >= 2 and any(owner == k or (len(k) >= 4 and (
            (owner.startswith(k) and owner[len(k):] in ORG_SUFFIXES) or (owner.endswith(k) and owner[:-len(k)] in ORG_PREFIXES)))
            for k in own)

    def builds_image(self, repo: str, image: str) -> bool:
        """Does the repository hold a module or Dockerfile folder named like the image (or like the image
        without the project's name in front: ``dashboard-metrics-scraper`` of ``modules/metrics-scraper`` in
        the Dashboard's repository)?"""
        # (the project's name as its commit gives it, never the repository's label: a folder's name is the user's)
        project = self.project_of(repo).lower()
        wanted = keys_of(image_names(image), [f"{project}{sep}" for sep in ("-", "_", ".")] if project else [])
        for f in self.by_kind["docker.from"]:
            # a Dockerfile in a folder named like the image, or at the top of a repository named like it
            folder_name = PurePosixPath(f.path).parent.name or repo
            if f.repository == repo and keys_of([folder_name], []) & wanted:
                return True
        if any(m.repository == repo and keys_of([(m.get("name") or "").rsplit("/", 1)[-1]], []) & wanted
               for m in self.by_kind["manifest"]):
            return True
        # an image a module's build tool makes (Jib, Spring Boot, the .NET SDK, Quarkus)
        return any(r == repo and keys_of(names, []) & wanted for (r, _d), names in self.built_images().items())

    def enclosing_build_units(self) -> set[str]:
        """Build units (a Go module at the repository root) that no deployment runs, enclosing folders that
        deployments run: the programs went to the deployments, what is left is code they share."""
        return {c.id for c in self.model.components.values() if c.kind == "service" and not c.attributes.get("deployment")
                and any(o.id != c.id and o.attributes.get("deployment") and any(
                    r == r2 and root2 != root and is_under(root2, root) for r, root in c.source_roots
                    for r2, root2 in o.source_roots) for o in self.model.components.values())}

    def shared_code(self) -> None:
        """A module whose programs are all processes of their own (``cmd/*``), with no program left in
        its own code, is the code those processes share: a library they link, not a running component.
        People do not call it; its connections stay as what the shared code does."""
        parents = {c.attributes.get("part_of") for c in self.model.components.values() if c.attributes.get("part_of")}
        nested = self.enclosing_build_units()
        parents |= nested
        if not parents:
            return
        roots = sorted(((r, root, c.id) for c in self.model.components.values() for r, root in c.source_roots),
                       key=lambda x: (-len(x[1]), x[2]))
        with_program: set[str] = set()
        # processes own their packages by import closure, not by source root (graph/processes.py)
        process_of = getattr(self, "process_of_file", None) if getattr(self, "packages", None) is not None else None
        # a Go `package main` is a program only with its `func main()` (a `//go:build tools` file
        # pinning tool dependencies is package main with no main function)
        go_mains = {(f.repository, folder(f.path)) for f in self.by_kind["program.main"] if f.get("part") == "func"}
        mains = [f for f in self.by_kind["program.main"]
                 if f.get("part") != "package" or (f.repository, folder(f.path)) in go_mains]
        # a file of a process's own folder that the build leaves out (a `//go:build ignore` generator
        # with its own `func main`) is that process's, not the shared code's
        folder_process = {(f.repository, folder(f.path)): p for f in mains
                          if (p := process_of(f.repository, f.path) if process_of else None)}
        for f in mains:
            owner = (process_of(f.repository, f.path) if process_of else None) \
                or folder_process.get((f.repository, folder(f.path))) \
                or next((cid for r, root, cid in roots if r == f.repository and is_under(f.path, root)), None)
            if owner:
                with_program.add(owner)
        with_program |= getattr(self, "process_primaries", set())  # a Python/JavaScript program is the component
        dispatchers = getattr(self, "process_dispatchers", set())
        with_program -= dispatchers  # a main that only picks a subcommand: the processes serve, not it
        # a deployment whose processes supervisord keeps running in its container is that container (they fold
        # into it: process.one-container), not the code they share
        supervising = {c.attributes.get("part_of") for c in self.model.components.values()
                       if c.attributes.get("launched_by") == "supervisord"}
        for cid in sorted(p for p in parents if p in self.model.components and p not in with_program):
            comp = self.model.components[cid]
            if cid in supervising and comp.attributes.get("deployment"):
                continue
            described_only = all(API_DESCRIPTION.search(e.path.rsplit("/", 1)[-1]) for p in comp.ports.values()
                                 for ep in p.endpoints for e in ep.evidence)
            if comp.kind != "service" or (comp.ports and cid not in dispatchers and not (cid in nested and described_only)):
                continue  # it still serves something itself (not only an API document kept at the module's root)
            comp.kind = "library"
            self.credit(comp.rules)
            comp.attributes["role"] = "code its processes share"
            for key in [k for k in self.model.connections if k[1] == cid and self.model.components[k[0]].kind == "user"]:
                del self.model.connections[key]

    def mounted_config(self) -> None:
        """Files a compose service bind-mounts (``./nginx/conf.d:/etc/nginx/conf.d``,
        ``./envoy:/etc/envoy``) configure that service: the service owns them.  A mount of a folder
        holding code (a development mount of the project) is not configuration and is left alone."""
        code = self.code_paths
        working_dirs = {(f.repository, f.path, f.get("name") or ""): f.get("working_dir") or ""
                        for f in self.by_kind["compose.service"] if f.get("working_dir")}
        for f in self.by_kind["compose.mount"]:
            comp_id = self.alias.get((f.get("owner") or "").lower())
            # `./nginx/nginx-${AUTH-key}.conf`: compose substitutes the variable's default when it is unset
            source = COMPOSE_DEFAULT.sub(lambda m: m.group(1), f.get("source") or "")
            if comp_id is None or source.startswith("/") or "$" in source:
                continue
            wd = working_dirs.get((f.repository, f.path, f.get("owner") or ""), "").rstrip("/")
            target = (f.get("target") or "").rstrip("/")
            if wd and target and (wd == target or wd.startswith(target + "/")):
                # A development mount: the service runs the code it mounts where it works
                # (`./internal:/internal` with `working_dir: /internal/trainer`): that folder is its code.
                host = PurePosixPath(f.get("compose_dir") or PurePosixPath(f.path).parent.as_posix()).joinpath(
                    source, wd[len(target):].lstrip("/")).as_posix()
                root = norm_path(host)
                # ('' is the whole repository mounted where the container works, `.:/go/app`: all its code)
                if any(r == f.repository and is_under(p, root) for r, p in code):
                    comp_id, line = self._code_mount_runner(f, root, comp_id)
                    comp = self.model.components[comp_id]
                    comp.source_roots.add((f.repository, root))
                    comp.evidence.add(line)
                continue
            root = norm_path(PurePosixPath(f.get("compose_dir") or PurePosixPath(f.path).parent.as_posix()).joinpath(source).as_posix())
            if not wd and target and source.strip("./") == "" and self._runs_mounted_project(f, root, comp_id):
                # the project's own folder mounted into a runtime built from recipes alone (`php:` building
                # docker/php and mounting `.:/var/www/html`): the container runs the project's code
                comp = self.model.components[comp_id]
                comp.source_roots.add((f.repository, root))
                comp.evidence.add(f.evidence)
                continue
            if root in ("", ".") or any(r == f.repository and is_under(p, root) for r, p in code):
                continue
            comp = self.model.components[comp_id]
            comp.source_roots.add((f.repository, root))
            comp.evidence.add(f.evidence)
        # A file the README copies into the folder a variable names (`cp config.docker-template.php
        # $WWWROOT/config.php`), which a compose service mounts (`${WWWROOT}:/var/www/html`): that service's
        # configuration, read where it runs
        copied: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for c in self.by_kind["readme.copy"]:
            copied[(c.repository, c.get("variable") or "")].append(c)
        takers: dict[tuple[str, str], list[tuple[str, Fact, Fact]]] = defaultdict(list)  # file -> its mounters
        for f in self.by_kind["compose.variable_mount"]:
            comp_id = self.alias.get((f.get("owner") or "").lower())
            if comp_id is None or f.get("rest"):
                continue
            for c in copied.get((f.repository, f.get("variable") or ""), []):
                source = norm_path(c.get("source") or "")
                if source and "/" not in (c.get("dest") or "").strip("/") and (f.repository, source) in self.inventory_paths:
                    takers[(f.repository, source)].append((comp_id, f, c))
        for (repo, source), found in sorted(takers.items()):
            # (several services mounting the folder: the one whose image runs the file's language, a PHP
            # server beside a browser reading the same pages)
            lang = language_for_path(source) or ""
            runs = [t for t in found if lang and lang in re.split(
                r"[-/_.:]", self.model.components[t[0]].attributes.get("image", "").lower())]
            chosen = found if len({t[0] for t in found}) == 1 else runs if len({t[0] for t in runs}) == 1 else []
            for comp_id, f, c in chosen:
                comp = self.model.components[comp_id]
                comp.source_roots.add((repo, source))
                comp.evidence.update((f.evidence, c.evidence))

    def _runs_mounted_project(self, f: Fact, root: str, comp_id: str) -> bool:
        """Does the service run the code of the compose file's own folder it mounts (``.:/var/www/html``) with
        no ``working_dir``?  Only the one service of the file mounting it, whose own build holds no code (recipes
        alone, ``build: docker/php``) and one of whose recipe's stages runs the language of most of that code (a
        ``php:8.2-fpm`` stage over a PHP project); a tool mounting the project to read it (a linter, a docs
        builder) has another runtime or none known, and several mounters are told apart by their recipes."""
        def recipe_of(cid: str) -> str:
            names = {c.lower() for c in (self.model.components[cid].name, *self.model.components[cid].aliases)}
            return next((self.build_root(g)[1] or "" for g in self.by_kind["compose.service"] if g.repository == f.repository
                         and g.path == f.path and (g.get("name") or "").lower() in names), "")

        mounters = set(self._mounters(f, root))
        if mounters != {comp_id}:
            # several services of one recipe mounting the project (`laravel.queue: <<: *app` with its own
            # `command: php artisan queue:work`): the one left to the recipe's own command serves it
            commanded = {self.alias.get((c.get("owner") or "").lower()) for c in self.by_kind["program.command"]
                         if c.get("source") == "compose" and c.repository == f.repository and c.path == f.path}
            recipe_here = recipe_of(comp_id)
            if comp_id not in mounters or not recipe_here or comp_id in commanded \
                    or any(recipe_of(c) != recipe_here or c not in commanded for c in mounters - {comp_id}):
                return False
        comp = self.model.components[comp_id]
        recipe = recipe_of(comp_id)
        if comp.kind != "service" or any(r == r2 and is_under(p, own) for r, own in comp.source_roots
                                         for r2, p in self.code_paths):
            return False
        if not recipe:
            # an image of no build here, started with the project's package runner (`command: npm run dev` in a
            # Node runner image mounting `.:/var/app`): it runs the scripts of the package it mounts
            names = {n.lower() for n in (comp.name, *comp.aliases)}
            command = next((c.get("command") or "" for c in self.by_kind["program.command"] if c.get("source") == "compose"
                            and c.repository == f.repository and c.path == f.path
                            and (c.get("owner") or "").lower() in names), "")
            return bool(PACKAGE_RUNNER_COMMAND.match(command)) and (f.repository, join_path(root, "package.json")) \
                in self.inventory_paths and self._dominant_code_language(f.repository, root) == "javascript"
        # (any stage's runtime: a recipe may build a helper in another language first, `FROM golang AS envsubst`)
        runtimes = {_runtime_family(image_language(d.get("image") or "")) for d in self.by_kind["docker.from"]
                    if d.repository == f.repository and d.path == recipe}
        installed = INSTALLED_RECIPE.match(recipe)
        if installed and (f.repository, recipe) not in self.inventory_paths:
            # a recipe a package manager installs (vendor/laravel/sail/runtimes/8.3: Composer's folder, which the
            # repository does not hold) builds that manager's language
            runtimes.add(INSTALL_FOLDER_LANGUAGE[installed.group(1)])
        dominant = self._dominant_code_language(f.repository, root)
        return dominant is not None and dominant in runtimes

    def _dominant_code_language(self, repo: str, root: str) -> str | None:
        """The language most of the code under `root` is written in (JavaScript and TypeScript one family);
        None for no code or a tie."""
        counts = Counter(_runtime_family(language_for_path(p)) for r, p in self.code_paths if r == repo and is_under(p, root))
        counts.pop(None, None)
        if not counts:
            return None
        (dominant, top), *rest = counts.most_common()
        return None if any(n == top for _lang, n in rest) else dominant

    def _mounters(self, f: Fact, root: str) -> dict[str, Evidence]:
        """The components whose services in `f`'s compose file mount the folder `root` (a variable's default
        filled in, `${SRC:-.}`), each with its first mount line."""
        here = norm_path(f.get("compose_dir") or folder(f.path))
        found: dict[str, Evidence] = {}
        for m in sorted(self.by_kind["compose.mount"], key=Fact.order):
            cid = self.alias.get((m.get("owner") or "").lower())
            if m.repository == f.repository and m.path == f.path and cid \
                    and norm_path(join_path(here, COMPOSE_DEFAULT.sub(lambda x: x.group(1), m.get("source") or ""))) == root:
                found.setdefault(cid, m.evidence)
        return found

    def _code_mount_runner(self, f: Fact, root: str, comp_id: str) -> tuple[str, Evidence]:
        """The service of `f`'s compose file that runs the code folder `root`, which `f`'s service mounts where it
        works.  When that service's runtime is of another language than most of the folder's code (a Node image
        building a PHP project's assets, a Playwright image running its browser tests: `node` and `app` both
        mount `./:/app`), the one other service mounting the folder whose runtime is the code's language, or
        else the one whose runtime is unknown (a recipe from a bare OS image), runs it; otherwise `f`'s service,
        as when another service already builds the folder (both then run its code)."""
        def runtime(cid: str) -> str | None:
            attrs = self.model.components[cid].attributes
            return _runtime_family(image_language(attrs.get("image") or "") or attrs.get("base_language") or None)

        mine = runtime(comp_id)
        if any((f.repository, root) in c.source_roots for cid, c in self.model.components.items() if cid != comp_id):
            return comp_id, f.evidence  # another service builds that folder: the two share it (a Django backend
            # and the React dev server of one root); the one other mounter with no other code is what this settles
        dominant = self._dominant_code_language(f.repository, root) if mine is not None else None
        if dominant is None or mine == dominant:
            return comp_id, f.evidence
        others = {cid: ev for cid, ev in self._mounters(f, root).items()
                  if cid != comp_id and self.model.components[cid].kind == "service"}
        same = [c for c in sorted(others) if runtime(c) == dominant]
        unknown = [c for c in sorted(others) if runtime(c) is None]
        chosen = same if same else unknown
        return (chosen[0], others[chosen[0]]) if len(chosen) == 1 else (comp_id, f.evidence)

    def build_units(self) -> None:
        deployed = self.image_deployments()
        variant_builds, profile_builds = self.variant_builds, self.profile_builds
        built_images = self.built_images()
        for result in self.results:
            repo = result.repository.name
            source_files = [f for f in result.inventory.files if f.role == "source"]
            manifests = [f for f in self.by_kind["manifest"] if f.repository == repo]
            dockerfiles = {str(PurePosixPath(f.path).parent) for f in self.by_kind["docker.from"] if f.repository == repo}
            unit_dirs: dict[str, Evidence] = {}
            for m in manifests:
                d = norm_path(str(PurePosixPath(m.path).parent))
                unit_dirs.setdefault(d, m.evidence)
            recipe_files = {str(PurePosixPath(f.path).parent): f.path for f in sorted(
                (f for f in self.by_kind["docker.from"] if f.repository == repo), key=lambda f: (f.path != join_path(
                    str(PurePosixPath(f.path).parent), "Dockerfile"), f.path))}  # Dockerfile first, else app.Dockerfile
            for d in sorted(dockerfiles):
                unit_dirs.setdefault(norm_path(d), Evidence(repo, recipe_files.get(d, join_path(d, "Dockerfile")), 1))
            manifest_dirs = {norm_path(str(PurePosixPath(m.path).parent)) for m in manifests}
            code_dirs = {d for d in unit_dirs if any(f.language and is_under(f.path, d) for f in source_files)}
            claimed = sorted((root for comp in self.model.components.values()
                              for (r, root) in comp.source_roots if r == repo), key=len, reverse=True)
            routes = {f.path for f in self.by_kind["http.route"] if f.repository == repo}
            builders = self._builder_recipe_dirs(repo)
            # A Spring Boot main class is an entry point whatever it is called (OrderApp, Main, Server).
            # (`@EnableAutoConfiguration` on a class with no `main` is a library's auto-configuration,
            # applied by the programs that depend on it)
            java_mains = {f.path for f in self.by_kind["program.java_main"] if f.repository == repo}
            # (a Go file is an entry point only in package main: pkg/telemetry/main.go of package telemetry is not)
            go_mains = {f.path for f in self.by_kind["program.main"] if f.repository == repo and f.path.endswith(".go")}
            # a Go main function in a file named otherwise (go-zero's service/order/rpc/order.go) whose package starts a
            # server (zrpc.MustNewServer, http.ListenAndServe) is a program's entry too: a generator's main (gen.go,
            # `//go:build ignore`) starts none
            go_server_dirs = {folder(f.path) for f in self.by_kind["server.start"] if f.repository == repo}
            go_server_mains = {f.path for f in self.by_kind["program.main"] if f.repository == repo
                               and f.get("part") == "func" and f.path.endswith(".go") and folder(f.path) in go_server_dirs}
            boot = {f.path for f in self.by_kind["annotation"] if f.repository == repo
                    and (f.get("name") == "SpringBootApplication"
                         or f.get("name") == "EnableAutoConfiguration" and f.path in java_mains)}
            depended = {dependency_key(f.get("name") or "") for f in self.by_kind["manifest.dependency"]}
            gradle_depended = {dependency_key(f.get("name") or "") for f in self.by_kind["manifest.dependency"]
                               if f.repository == repo and f.get("ecosystem") == "gradle"}
            # the subprojects the root build bundles, directly or through the ones it bundles (`implementation
            # project(":cli")` at the root, `project(":webserver")` in cli/): parts of the root's artifact
            gradle_deps: dict[str, set[str]] = defaultdict(set)  # subproject name ('' for the root) -> names
            for f in self.by_kind["manifest.dependency"]:
                if f.repository == repo and f.get("ecosystem") == "gradle":
                    at = folder(f.path)
                    gradle_deps[dependency_key(PurePosixPath(at).name) if at else ""].add(dependency_key(f.get("name") or ""))
            root_bundled: set[str] = set()
            todo = sorted(gradle_deps.get("", set()))
            while todo:
                n = todo.pop()
                if n not in root_bundled:
                    root_bundled.add(n)
                    todo.extend(sorted(gradle_deps.get(n, set())))
            bundles = {(f.repository, norm_path(str(PurePosixPath(f.path).parent))) for f in self.by_kind["manifest.bundle"]}
            function_hosts = {(f.repository, norm_path(str(PurePosixPath(f.path).parent)))
                              for f in self.by_kind["functions.host"]}
            dev_depended = {dependency_key(f.get("name") or "") for f in self.by_kind["manifest.dev_dependency"]}
            folder_prefix = shared_prefix(PurePosixPath(d).name for d in unit_dirs if d)
            recipes_by_folder: dict[str, set[str]] = defaultdict(set)
            for f in self.by_kind["docker.from"]:
                if f.repository == repo:
                    recipes_by_folder[folder(f.path)].add(f.path)
            built_by = {c.attributes.get("built_by") for c in self.model.components.values()
                        if c.repository == repo and c.attributes.get("built_by")}
            # the recipes compose services build, from their own folder or a wider context
            compose_built = {self.build_root(f)[1] for f in self.by_kind["compose.service"]
                             if f.repository == repo and (f.get("build_context") or f.get("dockerfile"))} - {""}
            # Folders collecting several demo modules (zlt-demo/ holding seata-demo/, sso-demo/...): samples
            # of how to use the platform, not parts of it (one module called mall-demo is not a collection)
            demo_sets = {a for u in unit_dirs for a in _ancestors(u) if DEMO_COLLECTION.search(PurePosixPath(a).name)
                         and sum(1 for x in unit_dirs if x != a and is_under(x, a)) >= 2}
            # ... and folders most of whose modules, two or more, are named as demos or samples, none with an image
            # recipe of its own (integrations/ holding cas-springboot-demo, oauth-client-sample, spring-demo-client1:
            # clients showing how to use the product; a sample executor the project ships an image of is one it runs)
            for a in {a for u in unit_dirs for a in _ancestors(u) if a}:
                inside = [x for x in unit_dirs if x != a and is_under(x, a)]
                named = [x for x in inside if DEMO_NAMED.search(PurePosixPath(x).name)]
                if len(named) >= 2 and 2 * len(named) > len(inside) \
                        and not any(is_under(d, a) for d in recipes_by_folder):
                    demo_sets.add(a)
            prebuilt = self._prebuilt_deployments(repo, manifest_dirs, code_dirs)
            # the repository's deployments of an image of no store that nothing in the system builds
            # (of an image the project publishes itself and follows, untagged or at a moving tag, `latest`, `devel`,
            # `${VERSION}`: another project's server its stack starts, hashicorp/vault:1.21, is pinned to a release)
            # (nor a local stand-in for a cloud service or a developer's tool, localstack/localstack, mailhog)
            # (one holding only a folder of settings it mounts, Docker-Compose-Files/config, runs no code of it yet)
            code_roots = {p for r, p in self.code_paths if r == repo}
            own_images = {c.id for c in self.model.components.values() if c.repository == repo
                          and c.kind in ("service", "gateway") and c.attributes.get("deployment")
                          and not tech_for_image(c.attributes.get("image")) and _followed_image(c.attributes.get("image") or "")
                          and not any(r == repo and any(is_under(p, root) for p in code_roots) for r, root in c.source_roots)}
            dockerfile_dirs = {norm_path(x) for x in dockerfiles}
            # the folders of the recipes compose files build (context + dockerfile): a deployed service's, whatever
            # package folder they sit in (web/oss/docker/Dockerfile.gh built by the `web` service from web/)
            compose_recipe_dirs = {folder(recipe) for f in self.by_kind["compose.service"] if f.repository == repo
                                   for _root, recipe in [self.build_root(f)] if recipe}
            deployed_ids = {cid for ids in deployed.values() for cid in ids}
            repo_paths = {x.path for x in result.inventory.files}
            repo_dirs = {a for p in repo_paths for a in _ancestors(folder(p))} | {folder(p) for p in repo_paths}
            repo_code = {folder(x.path) for x in result.inventory.files if x.language}
            ecosystems: dict[str, set[str]] = defaultdict(set)  # folder -> the ecosystems of its build manifests
            for m in manifests:
                ecosystems[norm_path(str(PurePosixPath(m.path).parent))].add(m.get("ecosystem") or "")
            # does the root hold code of its own in its manifests' languages, outside every other unit's folder (a
            # tool's settings, commitlint.config.js, are none)?
            root_languages = {lang for e in ecosystems.get("", set()) for lang in ECOSYSTEM_LANGUAGES.get(e, {e})}
            nested = [u for u in unit_dirs if u]
            root_code = bool(root_languages) and any(
                f.language in root_languages and not TOOL_SETTINGS_FILE.search(f.path)
                and not any(is_under(f.path, u) for u in nested) for f in source_files)
            # Folders with code or a manifest first; a Dockerfile-only folder may be another recipe of one of them.
            for d in sorted(unit_dirs, key=lambda u: (u not in manifest_dirs and u not in code_dirs, u)):
                # a folder with its own Dockerfile and code inside a package at the repository's root (one
                # package.json building every app of a monorepo, apps/<name>/Dockerfile) is an app of its own
                own_recipe = d and d in {norm_path(x) for x in dockerfiles} and d in code_dirs \
                    and not any(part.lower() in DEV_TOOL_DIRS for part in d.split("/"))
                # (nor is a module of its own ecosystem under a root manifest with no code of its own, a package.json
                # holding only commit hooks at the root of Go services: a module of another build, not of that one)
                own_module = d and bool(ecosystems.get("")) and bool(ecosystems.get(d, set()) - ecosystems[""]) \
                    and not root_code
                if any(is_under(d, root) and not ((own_recipe or own_module) and root == "") for root in claimed):
                    continue
                files_here = [f.path for f in source_files if is_under(f.path, d)]
                deeper = [u for u in unit_dirs if u != d and is_under(u, d)]
                code_here = [f.path for f in source_files if f.language and is_under(f.path, d)]
                own_code = [p for p in code_here if not any(is_under(p, u) for u in deeper) and not TOOLING_FILE.search(p)]
                if deeper and not own_code:
                    continue  # an aggregator (root pom with modules, workspace): its modules are the units
                if not own_code and (repo, d) in bundles:
                    continue  # an all-in-one image of web applications built elsewhere: they are the units
                if (repo, d) in self.documentation_sites:
                    continue  # the project's documentation site (Docusaurus, VitePress, Middleman...), not the system
                own = [p for p in files_here if not any(is_under(p, u) for u in deeper)]
                serves = any(is_under(p, d) and not any(is_under(p, u) for u in deeper) for p in routes) \
                    or (d in dockerfile_dirs and d not in builders)
                here = [m for m in manifests if norm_path(str(PurePosixPath(m.path).parent)) == d]
                # a crate's [[bin]] targets at paths of their own (src/server.rs) are its programs' entry points
                bin_files = {join_path(d, b.strip()) for m in here if m.get("ecosystem") == "cargo"
                             for b in (m.get("bin_paths") or "").split(",") if b.strip()}
                if any(PurePosixPath(m.path).name == "Cargo.toml" for m in here) and not any(
                        p.endswith("main.rs") or "/bin/" in p or p in bin_files for p in own):
                    # A Rust crate without a binary target is a library: the routes it declares are
                    # served by the program that mounts them, not by the crate.
                    serves = d in dockerfile_dirs and d not in builders
                started = any(m.get("start") for m in here)  # package.json scripts.start: `npm start` runs it
                # A web application archive (Maven <packaging>war</packaging>) is started by the servlet
                # container it is deployed in: a deployable, whatever its classes are called.
                started = started or any(m.get("packaging") in ("war", "ear") for m in here)
                # A Quarkus module (its build, or a parent's it inherits, applies the Quarkus plugin) is an application
                # Quarkus starts, with no main method of its own.
                started = started or any(self._framework_application(m) for m in here)
                # A package that installs commands (package.json `bin`, pyproject console scripts) is a program.
                commands = any(m.get("commands") for m in here)
                # An Azure Functions app (a Functions .NET project, a folder with its host.json) is started
                # by the Functions host, whatever its code is called: it deploys as one app.
                function_app = any(m.get("functions") for m in here) or (repo, d) in function_hosts
                # (a Java file named like an entry point, SomethingApplication.java or Main.java, is one when
                # it has a main method: a JAX-RS WebApplication is a library's configuration class)
                own_entry = any((ENTRY_FILES.search(p) and (not p.endswith(".java") or p in java_mains)
                                 and (not p.endswith(".go") or p in go_mains)) or p in boot or p in go_server_mains
                                for p in own)
                entry = serves or started or commands or function_app or own_entry
                manifest_name = next((m.get("name") for m in manifests
                                      if norm_path(str(PurePosixPath(m.path).parent)) == d and m.get("name")), None)
                name = unit_name(repo, d, manifest_name,
                                  [m.path for m in manifests if norm_path(str(PurePosixPath(m.path).parent)) == d])
                bins = {b.strip() for m in here if m.get("ecosystem") == "cargo" for b in (m.get("commands") or "").split(",")
                        if b.strip()}
                if d and len(bins) == 1 and name.lower() in ROLE_FOLDER_WORDS - {"cli"}:
                    # a crate named for its role (server/daemon, package `daemon`) building one binary, `kanidmd`:
                    # the program is known by the binary it builds, the package name staying an alias (a `cli`
                    # crate keeps its name: it says what the program is, a command-line client people run)
                    name, manifest_name = next(iter(bins)), manifest_name or name
                # the root folder goes by the project's name as its commit gives it (its README, its manifests):
                # the repository's label is only what the user called the folder
                project = next(iter(self.project_names(repo)), "")
                if project and tech_for_image(project.lower()):
                    project = ""  # (a README titled `... using Kafka, Redis` linking to go-redis: a technology it uses)
                # a name that is only the repository's label (the root folder, or a generic folder, backend/ with
                # no manifest naming it, at the root) says nothing of the commit: it matches no deployment's name
                # and answers to no other component's, unless the project's own name replaces it
                label_named = name == repo and repo not in d.split("/") and name != (manifest_name or "")
                named_by_project = label_named and bool(project)
                if named_by_project:
                    name = project
                if any(m.get("aspire_host") for m in manifests if norm_path(str(PurePosixPath(m.path).parent)) == d):
                    continue  # an Aspire app host describes the deployment; it is not one of its components
                routed = any(is_under(p, d) and not any(is_under(p, u) for u in deeper) for p in routes)
                recipes_here = recipes_by_folder.get(d, set())
                if recipes_here and recipes_here <= built_by and d not in manifest_dirs:
                    continue  # a folder of recipes named for the images deployments run (Dockerfile.frontend)
                if d and recipes_here and d not in manifest_dirs and "" in unit_dirs and not any(
                        is_under(f.path, d) and (f.path in go_mains or ENTRY_FILES.search(f.path))
                        for f in source_files if f.language) and all(
                        self.copies_from_root(repo, r, repo_paths, repo_dirs, repo_code) for r in recipes_here):
                    # docker/Dockerfile copying requirements.txt and the repository's code from the root, beside
                    # the settings file it puts in place (docker/config.py): the root's recipe, no module of its own
                    # (a folder with a program of its own, cmd/uptrace/main.go beside its recipe, stays one)
                    continue
                if d and recipes_here & compose_built and d not in manifest_dirs and not any(
                        self._recipe_folder_runs_code(repo, r, d) for r in recipes_here & compose_built):
                    continue  # recipes a deployment builds from a wider context, beside a tool's script (statsd's)
                if any(is_under(d, x) for x in demo_sets) and name.lower() not in self.alias:
                    continue  # a demo module that no deployment runs
                if not routed and any(part.lower() in DEV_TOOL_DIRS for part in d.split("/")) \
                        and name.lower() not in self.alias:
                    # a developer's tool kept in tools/ or hack/ (a diagram generator, a linter's image built
                    # from its own Dockerfile, a migration's command-line program) that nothing deploys and that
                    # serves no route
                    continue
                if manifest_name and dependency_key(manifest_name) in dev_depended - depended and not serves \
                        and not started:
                    # Named only in other packages' devDependencies, with nothing that starts or serves
                    # it: a shared lint/format/TypeScript config or build tool of the workspace (its
                    # index.js is the config it exports, not a program), so not a component.
                    continue
                # (a Gradle subproject is known to the others by its folder's name: `project(":orders:orders-web")`)
                gradle_name = PurePosixPath(d).name if d and not manifest_name and any(
                    m.get("ecosystem") == "gradle" for m in here) else None
                if files_here and gradle_name and dependency_key(gradle_name) in gradle_depended and (
                        not own_entry or dependency_key(gradle_name) in root_bundled):
                    # code of the Gradle subprojects that depend on it (their main class runs it); one the root
                    # build bundles is part of the root's artifact, whatever main class of its own it keeps
                    continue
                # (a web application archive another module depends on, for its classes, is still deployed itself)
                # (nor is a package that both starts a program of its own and installs its command, `npm start` and
                # `bin`, which extension packages depend on to build on it: a server others extend)
                # (an npm package whose entry-like files are only its `main` module and index.js barrels, with no
                # start script, no command and no recipe of its own, exports code to the app depending on it: a
                # plug-in declaring the GraphQL types the app serves is a library of that app)
                npm_export = bool(here) and all(m.get("ecosystem") == "npm" and not m.get("start")
                                                and not m.get("commands") for m in here) \
                    and d not in dockerfile_dirs \
                    and all(p in {join_path(d, (m.get("main") or "index.js").removeprefix("./")) for m in here}
                            or re.search(r"(^|/)index\.[cm]?[jt]s$", p) for p in own if ENTRY_FILES.search(p))
                # the one application workload of the manifests the module keeps (a kubebuilder project's
                # config/manager/manager.yaml beside its Dockerfile): it runs this module, whoever else links it
                own_workload = self._module_workload(repo, d, deeper, deployed_ids) if d in dockerfile_dirs else None
                # a crate building a program with an image recipe of its own (golem-registry-service/docker/Dockerfile)
                # ships as its own container, whatever all-in-one program also links the crate (one a deployment
                # already runs under its program's name, metering-api of crate metering, is that deployment's)
                own_image = bool(d) and bool(bins) and (own_entry or any(p in bin_files for p in own)) \
                    and not any(b.lower() in self.alias for b in bins) and any(
                        is_under(x, d) and x not in compose_recipe_dirs
                        and not any(is_under(x, u) for u in deeper if u in manifest_dirs or u in code_dirs)
                        for x in dockerfile_dirs)
                if files_here and manifest_name and dependency_key(manifest_name) in depended and own_workload is None \
                        and (not serves or not own_entry or npm_export) and not own_image \
                        and not any(m.get("packaging") in ("war", "ear") for m in here) \
                        and not any(m.get("start") and m.get("commands") for m in here) \
                        and not all(m.get("ecosystem") == "cmake" for m in here):
                    # (a C/C++ build's programs are nothing another package manager installs: an npm `typesense` is
                    # the server's JavaScript client, not this build)
                    # A package other units depend on: a library node (build-time dependency target),
                    # unless a deployment runs it (its image is the module's): then a service others link.
                    running = next((self.alias[a.lower()] for a in (name, manifest_name, manifest_name.rsplit("/", 1)[-1])
                                    if a.lower() in self.alias), None)
                    runs_image = running is not None and bool(self.model.components[running].attributes.get("deployment"))
                    # ... a workload named like it that runs the project's own image under another name (a role of
                    # its one binary: ECS's quickwit-metastore running quickwit/quickwit beside the crate of that
                    # name) runs other code: the library keeps to itself, under a name of its own
                    images = [self.model.components[running].attributes.get("image") or ""] if running else []
                    images += [w.image for w in getattr(self, "_iac_workloads", []) if w.name.lower() == name.lower()]
                    own_keys = self._own_project_keys(repo)
                    apart = any(key(image_basename(i)) in own_keys and key(image_basename(i)) not in {
                        key(name), key(manifest_name.rsplit("/", 1)[-1])} for i in images if i and "{}" not in i)
                    if apart:
                        runs_image, name = False, f"{name}-library"
                    elif running is not None and self.model.components[running].kind in STORE_KINDS \
                            and self.model.components[running].attributes.get("technology"):
                        # a library crate called `database` (package revolt-database) beside the compose service
                        # of that name running MongoDB: the store is not the library; the library keeps its package name
                        apart, runs_image = True, False
                        name = manifest_name if manifest_name.lower() not in self.alias else f"{name}-library"
                    lib = self.add_component(name, "service" if runs_image else "library", repo, unit_dirs[d],
                                             () if apart else (manifest_name, manifest_name.rsplit("/", 1)[-1]),
                                             {"package": manifest_name})
                    lib.source_roots.add((repo, d))
                    claimed = sorted([*claimed, d], key=len, reverse=True)
                    continue
                if not entry or not files_here:
                    continue
                artifacts = self.unit_artifacts(repo, d)
                if d not in manifest_dirs and d not in code_dirs and (repo, d) in variant_builds:
                    continue  # built only by an opt-in compose variant
                if (repo, d) in profile_builds:
                    continue  # built only by a compose service under a profile (unclaimed by any default one)
                if d not in manifest_dirs and d not in code_dirs:
                    # A folder holding only a Dockerfile: another recipe for a module whose artifact it
                    # runs, or a base image layer (a language runtime with nothing to run), or a component.
                    same = self.unit_by_artifact(artifacts, exclude=d)
                    if same:
                        self.model.components[same].evidence.add(unit_dirs[d])
                        continue
                    if self.is_base_layer(repo, d):
                        continue
                # A .NET project named Company.Product.Part (Shop.Services.Orders) is the part to a
                # deployment that only names an image (shop-orders)
                dotted_part = [manifest_name.rsplit(".", 1)[-1]] if manifest_name and "." in manifest_name and any(
                    m.get("ecosystem") == "dotnet" for m in here) else []
                # the images its build tool makes without a Dockerfile (Jib, Spring Boot, the .NET SDK, Quarkus)
                built = built_images.get((repo, d), {})
                # a module that only packs an image of its siblings' build (Maven's inlong-agent/agent-docker with
                # its Dockerfile) is named for the program it packs: `agent` to a deployment of image inlong/agent
                packer = [m.group(1) or m.group(2) for n in (PurePosixPath(d).name if d else "", manifest_name or "")
                          for m in [IMAGE_PACKER.match(n)] if m] if d in dockerfile_dirs else []
                # (the root folder goes by the project's name as its commit gives it, never by the repository's
                # label: a local folder's name is the user's, and one commit gives one model whatever it is called)
                unit_keys = keys_of([PurePosixPath(d).name if d else project,
                                     name if d and (not label_named or named_by_project) else "",
                                     manifest_name or "",
                                     (manifest_name or "").rsplit("/", 1)[-1].rsplit(":", 1)[-1],
                                     # (a Go module of a major version, github.com/apache/camel-k/v2, is camel-k)
                                     *re.findall(r"/([^/]+)/v\d+$", manifest_name or ""), *artifacts,
                                     *self.unit_app_names(repo, d), *dotted_part, *built, *packer], [folder_prefix])
                matches = sorted({cid for k in unit_keys for cid in deployed.get(k, ())}
                                 | {prebuilt[k] for k in unit_keys if k in prebuilt})
                if not matches and label_named and len(own_images) == 1 and entry and (d or not deeper) \
                        and self._recipe_takes(repo, d):
                    # a program with no name of its own (its folder named only by the checkout) that the repository's
                    # recipe packs, beside the one deployment of an image nothing here builds (a compose file
                    # pulling the published acme/deckhand): that deployment runs it, whatever the folder is called
                    # (not a monorepo's root, whose packages below are programs and libraries of their own)
                    matches = sorted(own_images)
                if not matches and own_workload is not None:
                    # The one application workload of a manifest kept beside the recipe (points/deployment.yaml
                    # next to points/Dockerfile, whatever image name the README has people push), or in the module's
                    # own manifests folder (config/manager/manager.yaml): it runs this code
                    matches = [own_workload]
                if not matches and (repo, d) in variant_builds:
                    # Code only an opt-in compose variant builds and no default deployment runs (a full or
                    # development stack's extra services): opted into, not the system as it runs by default.
                    continue
                packages_nothing = bool(here) and all(m.get("packaging") == "pom" for m in here)
                if not matches and (d not in manifest_dirs or packages_nothing) and d not in code_dirs \
                        and self.has_deployments():
                    # A Dockerfile with nothing of its own beside it (at most a Maven pom that packages
                    # nothing) that no deployment of the system builds or runs (an ELK recipe a stale
                    # variant once built, a base image layer): an unused recipe.
                    continue
                aliases = (manifest_name.rsplit("/", 1)[-1],) if manifest_name else ()
                if d and name != PurePosixPath(d).name and "." in PurePosixPath(d).name:
                    aliases = (*aliases, PurePosixPath(d).name)  # tools.acme.auth/, the module auth
                images = {_image_repo(self.model.components[m].attributes.get("image", "")) for m in matches}
                # The store technology of the recipe's base image: a module built FROM postgres is a PostgreSQL.
                # Only the recipes of this folder count when it has any: a nested folder's recipe (a local
                # PostgreSQL under docker/ of a Node project) builds another image, not this module's.
                recipes = [b for b in self.by_kind["docker.from"] if b.repository == repo and is_under(b.path, d)]
                recipes = [b for b in recipes if folder(b.path) == d] or recipes
                # (recipes with a stage of a language's runtime build a program: a store image among them is a
                # test harness's, docker/complement/Dockerfile FROM postgres beside docker/Dockerfile FROM python)
                base_tech = next((t for t in (tech_for_image(b.get("image")) for b in recipes) if t), None) \
                    if not any(runtime_language(b.get("image") or "") for b in recipes) else None
                # (a Go program's image several deployments start with subcommands named like folders beside its
                # main package, `args: [destination]` for controller/cmd/destination, is a multi-call binary: the
                # module stays a component, whose programs the process rules hand to those deployments)
                multi_call = base_tech is None and len(matches) > 1 and self._subcommand_folders(
                    repo, matches, {p for p in own_code if p in go_mains}, code_here) >= 2
                if len(matches) > 1 and len(images) == 1 and not multi_call and own_code and base_tech is None:
                    # of several deployments of a program's image (velero and its node-agent), the one named like
                    # the module is the program's own deployment: it holds the code, the others start it otherwise
                    own_name = name if d and not label_named else project  # (never the repository's label)
                    named = [m for m in matches if own_name
                             and keys_of([self.model.components[m].name], []) & keys_of([own_name], [])]
                    if len(named) == 1:
                        matches = named
                # (or the images of several targets of the module's one recipe, each built from it by name: a Makefile's
                # `docker build --tag shop_web --target web .` and `--tag shop_worker --target worker .`)
                targets = len(images) > 1 and bool(built) and all(
                    any(n in built for n in image_names(i)) for i in images)
                if len(matches) > 1 and (len(images) == 1 or targets) and not multi_call:
                    # Several deployments run this module's one image (a database image per service):
                    # each is an instance of it and takes its kind; the module is not a component of its own.
                    for m in matches:
                        self.model.components[m].evidence.add(unit_dirs[d])
                        if targets:  # (each target runs the module's code: its roles, web and worker)
                            self.model.components[m].source_roots.add((repo, d))
                            self.credit(self.model.components[m].rules)
                        else:
                            _take_store_kind(self.model.components[m], base_tech)
                    claimed = sorted([*claimed, d], key=len, reverse=True)
                    continue
                scaffold = None if len(matches) != 1 or not own_code \
                    else self._module_workload(repo, d, deeper, deployed_ids, placeholder=True)
                if scaffold is not None and scaffold == matches[0] and d == "" and project:
                    # ... the scaffold alone matched, beside the release chart's workload named for the project whose
                    # image a helper template renders (mariadb-operator of deploy/charts/mariadb-operator): that
                    # workload is the release deployment of the same program
                    release = self.alias.get(project.lower())
                    rc = self.model.components.get(release) if release else None
                    if rc is not None and release != scaffold and rc.kind == "service" and not rc.source_roots \
                            and rc.attributes.get("deployment") and not rc.attributes.get("image") \
                            and rc.repository == repo:
                        matches = [release]
                if scaffold is not None and scaffold != matches[0] and scaffold in self.model.components:
                    # the module's own scaffold manifest running a placeholder image (kubebuilder's config/manager with
                    # `controller:latest`, which `make deploy` rewrites) beside the release manifests that deploy its
                    # published image: one program, which the release deploys
                    self.fold_component(scaffold, matches[0])
                if len(matches) == 1:  # the deployment that runs this module's image
                    comp = self.model.components[matches[0]]
                    comp.evidence.add(unit_dirs[d])
                    for n, ev in sorted(built.items()):
                        if keys_of([n], []) & {k for k, ids in deployed.items() if comp.id in ids}:
                            comp.evidence.add(ev)  # the line naming the image the deployment runs
                    self.credit(comp.rules)  # its code and name come from this rule
                    _take_store_kind(comp, base_tech)
                    for a in (name, *aliases):
                        comp.aliases.add(a.lower())
                        self.alias.setdefault(a.lower(), comp.id)
                    for k in [k for k, ids in deployed.items() if comp.id in ids]:
                        deployed[k].discard(comp.id)
                else:
                    if not serves and not function_app and self.has_deployments() and self.is_node_script(
                            repo, d, manifests):
                        continue
                    # (a root folder named by the repository's label, the user's, answers to no other component's
                    # name: a deployment's image called like the folder says nothing of it; one named by the
                    # project answers to the deployment of the project's image)
                    # A package in a plug-ins folder (plugins/opencv/, extensions/wyze/) that no deployment runs is a
                    # plug-in the host program loads into itself: code of the system, no process of its own
                    plugin = bool(d) and PLUGIN_FOLDER.search(d) is not None and not function_app \
                        and name.lower() not in self.alias  # (one named like a component already is that one's code)
                    if label_named and not named_by_project and slug(name) in self.model.components:
                        # (... nor takes a component called like the checkout as its own: the deployment named like
                        # the folder is another component, whatever the folder's name had it coincide with)
                        name = f"{name}-code"
                    comp = self.add_component(name, "library" if plugin else "service", repo, unit_dirs[d], aliases,
                                              {"role": "plug-in"} if plugin else None,
                                              by_alias=(bool(d) and not label_named) or named_by_project)
                    if comp.kind == "library" and not plugin and entry and any(r == repo and is_under(d, p) for r, p in comp.source_roots):
                        # the module's own program in a folder of it (cmd/uptrace/main.go of the module uptrace,
                        # which example modules require): the module is that program, not only a library
                        comp.kind = "service"
                    if not code_here:  # a database image of the system's own (FROM mariadb plus its schema)
                        _take_store_kind(comp, base_tech)
                comp.source_roots.add((repo, d))
                self.artifacts[comp.id].update(artifacts)
                claimed = sorted([*claimed, d], key=len, reverse=True)
            has_root = any(r == repo for comp in self.model.components.values() for (r, _root) in comp.source_roots)
            code_facts = sorted((f for k in ("http.route", "http.client", "env.read", "string.url") for f in self.by_kind[k]
                                 if f.repository == repo and f.language != "config"), key=Fact.order)
            if not has_root and code_facts:
                first = code_facts[0]
                comp = self.add_component(self.project_of(repo) or repo, "service", repo, first.evidence,
                                          by_alias=bool(self.project_of(repo)))  # (a label answers to no name)
                comp.source_roots.add((repo, ""))
            elif (repo, "") not in {(r, root) for c in self.model.components.values()
                                                    for r, root in c.source_roots}:
                # Code outside every module of the repository: it belongs to the deployment named like the
                # repository (a repo per service whose compose file only names its image), when there is one.
                named = self.alias.get(self.project_of(repo).lower()) if self.project_of(repo) else None
                if named and self.model.components[named].kind == "service":
                    outside: dict[str, bool] = {}  # path -> outside every module (asked once per file)
                    orphan = next((f for f in self.by_kind.every() if f.repository == repo and f.language != "config"
                                   and f.kind not in ("import", "const.string", "module.var")
                                   and outside.setdefault(f.path, not any(is_under(f.path, root) for root in claimed))),
                                  None)
                    if orphan is not None:
                        self.model.components[named].source_roots.add((repo, ""))
                        self.model.components[named].evidence.add(orphan.evidence)

    def _compose_builder(self, f: Fact, image: str, modules: dict[str, dict[tuple[str, str], Evidence]],
                         builders: dict[tuple[str, str], set[tuple[str, str]]]) -> tuple[str, Evidence] | None:
        """The name of the one compose service of another file that builds, from a Dockerfile, the one
        module whose build tool makes `image` (the component it is, once made; its service name before),
        with the line naming the image.  Two services of one file are two instances, whatever they run."""
        found = {m: ev for n in image_names(image) for m, ev in modules.get(key(n), {}).items()}
        if len(found) != 1:
            return None
        module, evidence = next(iter(found.items()))
        names = {name for name, path in builders.get(module, ()) if path != f.path}
        if len(names) != 1:
            return None
        name = next(iter(names))
        made = self.alias.get(name)
        return (self.model.components[made].name if made else name), evidence

    @staticmethod
    def _other_subcommand(f: Fact, image: str, first_commands: dict[str, str],
                          commands: dict[tuple[str, str, str], str]) -> bool:
        """Does the service start the image's program as another of its roles than the service the image was
        first seen as: both commands begin with a bare subcommand word of the image's entrypoint (``master
        -ip=master`` and ``volume -master=master:9333`` of one SeaweedFS image), and the words differ? A
        command starting with a program (``python``, ``gunicorn``, ``npm``) says nothing of the kind."""
        def role(command: str) -> str | None:
            word = (command.strip().strip("[]\"'").split() or [""])[0].strip("\"',")
            return word if SUBCOMMAND.fullmatch(word) and word.lower() not in RUNNERS else None
        mine = role(commands.get((f.repository, f.path, (f.get("name") or "").lower()), ""))
        first = role(first_commands.get(_image_repo(image), ""))
        return mine is not None and first is not None and mine != first

    def _same_image(self, image: str | None, by_image: dict[str, tuple[str, str]], path: str,
                    own_name: str = "") -> str | None:
        """The component another descriptor runs this application image as. When that descriptor runs
        the image as several services (``api``, ``api-worker`` and ``migrate`` of one image, each its
        own command), the image does not say which: only a service of the same name is this one."""
        if not image or "$" in image or _image_repo(image) not in by_image:
            return None
        name, first_path = by_image[_image_repo(image)]
        if _descriptor_unit(first_path) == _descriptor_unit(path):
            return None  # (one file, or one Helm chart's templates: the API and its worker are two)
        if any(p == path and first_path in project for (_r, p), project in self.compose_projects.items()):
            return None  # one compose project run by one start command: the API and its worker are two
        there = sorted({(f.get("name") or "").lower() for k in ("compose.service", "k8s.workload")
                        for f in self.by_kind[k] if _descriptor_unit(f.path) == _descriptor_unit(first_path) and f.get("image")
                        and _image_repo(self.compose_interpolate(f, f.get("image")) or "") == _image_repo(image)})
        if len(there) > 1:
            return own_name if own_name and own_name.lower() in there and own_name.lower() in self.alias else None
        here = {(f.get("name") or "").lower() for f in self.by_kind["k8s.workload"] if "/templates/" in f"/{path}"
                and _descriptor_unit(f.path) == _descriptor_unit(path) and f.get("image")
                and _image_repo(self.compose_interpolate(f, f.get("image")) or "") == _image_repo(image)}
        if len(here) > 1 and own_name.lower() != name.lower():
            return None  # this chart runs the image as several workloads (api, worker): the image says not which
        return name

    def _selector_twin(self, workload: Fact, image: str) -> str | None:
        """The compose service a Kubernetes workload is another deployment of, where both run one image several
        times over, each told by a variable which program of it to load: the variable whose values tell the compose
        services of that image apart, with the value the workload is given (compared by their files' stems:
        `accounts.service.js` and `accounts`, `workers/mail.py` and `mail`). None when no variable or no value
        singles one out."""
        base = image_basename(image).lower()
        services = {(f.get("name") or "").lower(): f for f in self.by_kind["compose.service"]
                    if f.repository == workload.repository and f.get("image")
                    and image_basename(self.compose_interpolate(f, f.get("image")) or "").lower() == base}
        if len(services) < 2:
            return None
        values: dict[str, dict[str, str]] = defaultdict(dict)  # variable -> compose service -> value
        given: dict[str, str] = {}  # the workload's variables
        for e in self.by_kind["config.env"]:
            if e.repository != workload.repository or not e.get("value") or "$" in (e.get("value") or ""):
                continue
            owner = (e.get("owner") or "").lower()
            if e.get("source") == "compose" and owner in services:
                values[e.get("name") or ""][owner] = _program_stem(e.get("value") or "")
            elif e.get("source") == "kubernetes" and e.path == workload.path \
                    and owner == (workload.get("name") or "").lower():
                given[e.get("name") or ""] = _program_stem(e.get("value") or "")
        for variable in sorted(given):
            told = values.get(variable, {})
            if len(told) < 2 or len(set(told.values())) != len(told):
                continue  # a variable all the services share (a log level), or one not telling them apart
            found = [name for name, v in told.items() if v == given[variable]]
            if len(found) == 1:
                comp = self.alias.get(found[0])
                return self.model.components[comp].name if comp else None
        return None

    def _subcommand_folders(self, repo: str, deployments: list[str], mains: set[str], code: list[str]) -> int:
        """How many of the deployments start their binary with a subcommand named like a folder of code
        beside one of the Go main files (``controller/cmd/destination`` beside ``controller/cmd/main.go``)."""
        beside = {PurePosixPath(p).parent.as_posix().strip(".") for p in mains}
        folders = {(PurePosixPath(p).parent.parent.as_posix().strip("."), PurePosixPath(p).parent.name.lower())
                   for p in code}
        words = self.deployment_subcommands()
        return sum(1 for cid in deployments if words.get(cid) and any((d, words[cid]) in folders for d in beside))

    def image_deployments(self) -> dict[str, set[str]]:
        """Keys of deployed application components that only name an image (no build context here):
        image basename, compose/workload name, with and without the prefix the project's images share."""
        # (and Kubernetes workloads whose image their chart leaves to be set at install, `image: {{ .Values.image }}`
        # with no default: known by their names alone)
        comps = [c for c in self.model.components.values()
                 if not c.source_roots and c.kind in ("service", "gateway")
                 and (c.attributes.get("image") or c.attributes.get("deployment") == "kubernetes")
                 and not tech_for_image(c.attributes.get("image"))]
        # (the prefix a repository's images share, per repository: another repository's images do not remove it)
        prefixes = {r: shared_prefix(n for c in comps if c.repository == r for n in image_names(c.attributes.get("image") or ""))
                    for r in {c.repository for c in comps}}
        # ... and the prefix their workload names share (several workloads of one image, each running one module
        # of it: strimzi-topic-operator and strimzi-user-operator run quay.io/strimzi/operator's topic-operator
        # and user-operator modules)
        named = {r: shared_prefix(c.name for c in comps if c.repository == r) for r in {c.repository for c in comps}}
        index: dict[str, set[str]] = defaultdict(set)
        for c in comps:
            for k in keys_of([*image_names(c.attributes.get("image") or ""), c.name, *c.aliases],
                             [prefixes[c.repository], named[c.repository]]):
                index[k].add(c.id)
        return index

    def _framework_application(self, m: Fact) -> bool:
        """Does a Maven module's build, or a parent's it inherits (up to five levels, by artifactId in the same
        repository), apply an application framework's build plugin (Quarkus'), and package a jar, not a pom?"""
        if m.get("ecosystem") != "maven" or m.get("packaging") not in (None, "", "jar"):
            return False
        memo = getattr(self, "_maven_poms", None)
        if memo is None:  # (a memo of facts only: the poms never change)
            memo = self._maven_poms = {}
        if m.repository not in memo:
            memo[m.repository] = {p.get("name"): p for p in self.by_kind["manifest"] if p.repository == m.repository
                                  and p.get("ecosystem") == "maven" and p.get("name")}
        poms = memo[m.repository]
        seen: set[str] = set()
        current: Fact | None = m
        for _ in range(6):
            if current is None or (current.get("name") or "") in seen:
                return False
            if current.get("app_plugin"):
                return True
            seen.add(current.get("name") or "")
            current = poms.get(current.get("parent_pom") or "")
        return False

    def _module_workload(self, repo: str, d: str, deeper: list[str], deployed_ids: set[str],
                         placeholder: bool = False) -> str | None:
        """The one application workload (no store's image, no sample, no opted-in overlay) whose manifest the
        module in folder `d` keeps beside its recipe or in its own manifests folder (``config/``, ``deploy/``,
        ``manifests/``: a kubebuilder project's ``config/manager/manager.yaml``); None when none or several.
        A workload whose command starts another executable than the recipe's entry point (the ``/kruise-daemon``
        the image also carries, beside ``ENTRYPOINT ["/manager"]``) runs another program of the image, unless no
        workload starts the entry point (the recipe beside the module is a test runner's).  With `placeholder`, only
        the workloads running an image of no registry or owner (kubebuilder's ``controller:latest``) count."""
        entry = {started_binary(f.get("command") or "") for f in self.by_kind["docker.command"]
                 if f.repository == repo and folder(f.path) == d and f.get("instruction") == "ENTRYPOINT"} - {""}
        found: set[str] = set()
        others: set[str] = set()  # ... those starting another executable (used when none starts the entry point)
        for w in self.by_kind["k8s.workload"]:
            other = bool(entry and w.get("command") and started_binary(w.get("command") or "") not in entry)
            if w.repository != repo or not is_under(w.path, d) or any(is_under(w.path, u) for u in deeper):
                continue
            rel = w.path[len(d):].lstrip("/") if d else w.path
            if folder(w.path) != d and rel.split("/", 1)[0].lower() not in MODULE_MANIFEST_DIRS:
                continue
            if tech_for_image(w.get("image")) or self.sample_manifest(w) or self.in_k8s_variant(w):
                continue
            if not w.get("image"):
                # (a workload of the module's own chart whose image a helper template renders, `include
                # "common.images.image"`: the chart packages this module, whatever else it names)
                comp = self.model.components.get(self.alias.get((w.get("name") or "").lower(), ""))
                if not placeholder and rel.split("/", 1)[0].lower() in HELM_DIRS and comp is not None \
                        and comp.kind == "service" and not comp.source_roots and comp.attributes.get("deployment"):
                    (others if other else found).add(comp.id)
                continue
            if placeholder and "/" in _image_repo(w.get("image") or ""):
                continue
            cid = self.alias.get((w.get("name") or "").lower())
            if cid in deployed_ids:
                (others if other else found).add(cid)
        if not found:  # no workload runs the recipe's entry point (a test runner's recipe beside the module)
            found = others
        return next(iter(found)) if len(found) == 1 else None

    def _recipe_takes(self, repo: str, d: str) -> bool:
        """Does a recipe of the repository pack folder `d`'s code: a Dockerfile in that folder, or one copying
        it (or its whole context) from the root or from `d`'s parents?"""
        for recipe, sources in self.recipe_sources(repo).items():
            here = folder(recipe)
            if here == d:
                return True
            if not is_under(d, here):
                continue
            if sources is None or any(is_under(d, s) or is_under(s, d) for s in sources):
                return True
        return False

    def _prebuilt_deployments(self, repo: str, manifest_dirs: set[str], code_dirs: set[str]) -> dict[str, str]:
        """Key of an artifact -> the deployment building it from a folder holding only a recipe that copies
        the artifact in (docker/orders/Dockerfile: ``COPY ./jar/shop-orders.jar``, the jar a script copies from
        the module's target/): the module building that artifact (Maven's artifactId, its finalName) is
        that deployment's code, whatever the service and the folder are called."""
        found: dict[str, set[str]] = defaultdict(set)
        for c in self.model.components.values():
            roots = [root for r, root in c.source_roots if r == repo]
            if c.kind not in ("service", "gateway") or not roots or len(roots) != len(c.source_roots) \
                    or any(root in manifest_dirs or root in code_dirs for root in roots):
                continue
            for root in roots:
                for k in keys_of(self.unit_artifacts(repo, root), []):
                    found[k].add(c.id)
        return {k: next(iter(ids)) for k, ids in found.items() if len(ids) == 1}

    def unit_artifacts(self, repo: str, d: str) -> list[str]:
        """Artifact names the folder's Dockerfiles run or copy in (``ADD orders-1.0.jar``)."""
        return sorted({artifact_name(f.get("name") or "") for f in self.by_kind["docker.artifact"]
                       if f.repository == repo and is_under(f.path, d)} - {""})

    def unit_app_names(self, repo: str, d: str) -> list[str]:
        """Names a framework gives the module in its default configuration (``spring.application.name``)."""
        return sorted({f.get("value") or "" for f in self.by_kind["config.property"]
                       if f.repository == repo and is_under(f.path, d) and f.get("name") == "spring.application.name"
                       and not f.get("profile") and "$" not in (f.get("value") or "")} - {""})

    def unit_by_artifact(self, artifacts: list[str], exclude: str) -> str | None:
        """The one component whose module builds one of `artifacts` (manifest name or artifact)."""
        wanted = {key(a) for a in artifacts}
        if not wanted:
            return None
        found: set[str] = set()
        for f in self.by_kind["manifest"]:
            if f.get("name") and key((f.get("name") or "").rsplit(":", 1)[-1]) in wanted:
                owner = self.owner_of(f.repository, f.path)
                if owner:
                    found.add(owner)
        for cid, names in self.artifacts.items():
            if wanted & {key(a) for a in names}:
                found.add(cid)
        return found.pop() if len(found) == 1 else None

    def is_node_script(self, repo: str, d: str, manifests: list[Fact]) -> bool:
        """A Node package that no deployment runs, with no Dockerfile and no routes, and that depends
        on nothing a running service needs (a server or UI framework, a broker, gRPC, a database
        client) is a script (license attribution, code generation), not a component."""
        here = [m for m in manifests if norm_path(str(PurePosixPath(m.path).parent)) == d]
        if not here or any(m.get("ecosystem") != "npm" for m in here):
            return False
        deps = [f.get("name") or "" for f in self.by_kind["manifest.dependency"]
                if f.repository == repo and norm_path(str(PurePosixPath(f.path).parent)) == d]
        return not any(NODE_SERVICE_DEPENDENCY.search(x.lower()) for x in deps)

    def has_deployments(self) -> bool:
        """Does the system declare how it is deployed (compose services, Kubernetes workloads)?"""
        return bool(self.by_kind["compose.service"]) or bool(self.by_kind["k8s.workload"])

    def is_base_layer(self, repo: str, d: str) -> bool:
        """A Dockerfile that only sets up a language runtime (no command, no port, no artifact) is a
        base image other recipes build FROM, not a running component."""
        facts = [f for k in ("docker.from", "docker.command", "docker.expose", "docker.artifact") for f in self.by_kind[k]
                 if f.repository == repo and PurePosixPath(f.path).parent.as_posix() in (d, d or ".")]
        bases = [f.get("image") or "" for f in facts if f.kind == "docker.from"]
        runs = any(f.kind in ("docker.command", "docker.expose", "docker.artifact") for f in facts)
        return not runs and bool(bases) and all(image_language(b) for b in bases)

    def deployed_programs(self) -> None:
        """Deployments that run the repository's one image, each started with the name of a program
        it builds (compose ``entrypoint: UserService`` beside CMake's ``add_executable(UserService
        ...)`` in src/UserService/): each runs that program, so that folder is its code."""
        binaries: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in self.by_kind["program.binary"]:
            binaries[(f.repository, f.get("name") or "")].append(f)
        for f in self.by_kind["program.command"]:
            if f.get("source") != "compose":
                continue
            cid = self.alias.get((f.get("owner") or "").lower())
            comp = self.model.components.get(cid) if cid else None
            words = (f.get("command") or "").replace('"', " ").split()
            if comp is None or comp.kind not in ("service", "gateway") or not words:
                continue
            found = binaries.get((f.repository, PurePosixPath(words[0]).name), [])
            if len(found) == 1:  # one program of that name
                comp.source_roots.add((found[0].repository, norm_path(str(PurePosixPath(found[0].path).parent))))
                comp.evidence.add(found[0].evidence)
                self.credit(comp.rules)
        self._image_entry_programs()

    def _image_entry_programs(self) -> None:
        """A compose service building an image whose Dockerfile starts a program one crate of the
        repository builds (``ENTRYPOINT ["lemmy_server"]``, package ``lemmy_server`` with a
        ``src/main.rs``) runs that crate: the crate's component and the deployment are one, known by
        the deployment's name."""
        mains = {(r, p) for r, p in self.code_paths if p.endswith("src/main.rs")}
        crates: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for m in self.by_kind["manifest"]:
            if m.get("ecosystem") != "cargo" or not m.get("name"):
                continue
            d = folder(m.path)
            names = [n.strip() for n in (m.get("commands") or "").split(",") if n.strip()]
            if (m.repository, join_path(d, "src/main.rs")) in mains:
                names.append(m.get("name") or "")
            for n in set(names):
                crates[(m.repository, n)].append(m)
        go_mains = {(f.repository, folder(f.path)) for f in self.by_kind["program.main"] if f.get("part") == "func"}
        if not crates and not go_mains:
            return
        self._image_named_crate_programs(crates)
        entries: dict[tuple[str, str], Fact] = {}
        for d in sorted(self.by_kind["docker.command"], key=Fact.order):
            if d.get("instruction") in ("ENTRYPOINT", "CMD") and (d.repository, d.path) not in entries or \
                    d.get("instruction") == "ENTRYPOINT":
                entries[(d.repository, d.path)] = d  # the entrypoint if any, else the last CMD
        overridden = {(f.repository, (f.get("owner") or "").lower()) for f in self.by_kind["program.command"]
                      if f.get("source") == "compose"}
        for f in self.by_kind["compose.service"]:
            cid = self.alias.get((f.get("name") or "").lower())
            _root, dockerfile = self.build_root(f)
            entry = entries.get((f.repository, dockerfile)) if dockerfile else None
            if cid is None or entry is None or (f.repository, (f.get("name") or "").lower()) in overridden:
                continue
            words = (entry.get("command") or "").replace('"', " ").replace("[", " ").replace(",", " ").split()
            built = self._go_program_built(f.repository, entry.get("command") or "", go_mains)
            if built is not None:  # `go run ./cmd/api`, a reloader's `--build="go build -o main reader/cmd/main.go"`
                comp = self.model.components[cid] if cid else None
                if comp is not None and comp.kind in ("service", "gateway"):
                    comp.source_roots.add((f.repository, built))
                    comp.evidence.add(entry.evidence)
                    self.credit(comp.rules)
                continue
            found = crates.get((f.repository, PurePosixPath(words[0]).name), []) if words else []
            if len(found) != 1:
                continue
            crate_dir = folder(found[0].path)
            unit = self.owner_of(f.repository, join_path(crate_dir, "src/main.rs"))
            comp = self.model.components[cid]
            comp.source_roots.add((f.repository, crate_dir))
            comp.evidence.update({entry.evidence, found[0].evidence})
            self.credit(comp.rules)
            if unit is not None and unit != cid and not self.model.components[unit].attributes.get("deployment"):
                self._fold_unit(unit, comp)

    def _image_named_crate_programs(self, crates: dict[tuple[str, str], list[Fact]]) -> None:
        """A compose service building nothing, running a published image named as exactly one program a crate of
        the repository builds (``ghcr.io/acme/billing-api`` beside the crate whose ``[[bin]]`` is ``billing-api``),
        runs that crate: the crate's code is the deployment's. Why: a project publishing one image per program
        of a crate (an API server and a scheduler of one crate) deploys them by image from a compose file that
        builds nothing; the crate is their code, not a program apart. Several deployments of one crate's
        programs share its code, like services built from one folder."""
        for f in sorted(self.by_kind["compose.service"], key=Fact.order):
            image = f.get("image") or ""
            cid = self.alias.get((f.get("name") or "").lower())
            if not image or f.get("build_context") or f.get("dockerfile") or cid is None:
                continue
            comp = self.model.components[cid]
            if comp.kind not in ("service", "gateway") or comp.source_roots:
                continue
            found = crates.get((f.repository, image_basename(image).lower()), [])
            if len(found) != 1:
                continue
            crate_dir = folder(found[0].path)
            unit = self.owner_of(f.repository, found[0].path)
            comp.source_roots.add((f.repository, crate_dir))
            comp.evidence.add(found[0].evidence)
            self.credit(comp.rules)
            if unit is not None and unit != cid and unit in self.model.components \
                    and not self.model.components[unit].attributes.get("deployment"):
                self._fold_unit(unit, comp)

    def _fold_unit(self, unit: str, comp: Component) -> None:
        """The crate's own component gives way to the deployment running it: its names become the deployment's."""
        self.model.components.pop(unit)
        self.created_by.pop(unit, None)
        for a in [a for a, t in self.alias.items() if t == unit]:
            self.alias[a] = comp.id
            comp.aliases.add(a)
        self.owner_cache.clear()

    @staticmethod
    def _go_program_built(repo: str, command: str, go_mains: set[tuple[str, str]]) -> str | None:
        """The folder of the Go program an image's command builds or runs from source (``go run ./cmd/api``,
        ``go build -o main reader_service/cmd/main.go``), when that folder is a main package here."""
        for m in re.finditer(r"\bgo\s+(?:build|run)\b([^;&|]*)", re.sub(r"[\"'\[\],]", " ", command)):
            words = m.group(1).split()
            for k, w in enumerate(words):
                if w.startswith("-") or (k and words[k - 1] in GO_FLAGS_WITH_VALUE):
                    continue
                d = norm_path(w.rsplit("/", 1)[0] if w.endswith(".go") else w)
                if (repo, d) in go_mains:
                    # `reader_service/cmd`: the service is the folder the generic `cmd` sits in
                    up = folder(d)
                    return up if PurePosixPath(d).name in ("cmd", "main", "app") and up else d
        return None

    def spring_identity(self) -> None:
        """``spring.application.name`` (Micronaut's ``micronaut.application.name``) names the service
        other services and config files use: the id it registers under in service discovery, which
        declarative clients (``@FeignClient(name=...)``, ``@Client(id=...)``) call it by."""
        poms = {(m.repository, norm_path(folder(m.path))): m for m in self.by_kind["manifest"]
                if m.get("ecosystem") == "maven" and m.get("name")}
        for f in self.by_kind["config.property"]:
            value = f.get("value") or ""
            evidence = [f.evidence]
            name = f.get("name") or ""
            if name.lower() == "spring:application:name":
                # Steeltoe (.NET) reads Spring's name from appsettings.json (`"Spring": {"Application": {"Name":
                # "ProductService"}}`): the id the service registers under in Eureka
                name = "spring.application.name"
            if name in APPLICATION_NAME_KEYS and value in ("@artifactId@", "@project.artifactId@"):
                # Maven's resource filtering fills in the module's artifactId at build time: the nearest pom's
                pom = next((poms[(f.repository, d)] for d in [*_ancestors(folder(f.path)), ""]
                            if (f.repository, d) in poms), None)
                value = (pom.get("name") or "") if pom is not None else ""
                evidence = [f.evidence, *([pom.evidence] if pom is not None else [])]
            if name in APPLICATION_NAME_KEYS and value and "$" not in value \
                    and not value.startswith("@"):  # (another @token@: the build fills it in from elsewhere)
                owner = self.owner_of(f.repository, f.path)
                if owner and f.get("profile", "") == "":
                    comp = self.model.components[owner]
                    comp.evidence.update(evidence)
                    self.credit(comp.rules)
                    comp.aliases.add(value.lower())
                    self.alias.setdefault(value.lower(), owner)

    def spring_gateways(self) -> None:
        """API gateways by dependency or by route configuration: Spring Cloud Gateway, Zuul, and on
        .NET YARP (``Yarp.ReverseProxy``, a ``ReverseProxy`` settings section, ``AddReverseProxy()`` in
        code) and Ocelot (``AddOcelot()``)."""
        for f in [*self.by_kind["manifest.dependency"], *self.by_kind["config.property"], *self.by_kind["annotation"],
                  *self.by_kind["gateway.code"]]:
            name = (f.get("name") or "").lower()
            if re.search(r"^spring-cloud-starter-gateway(-mvc|-server.*)?$|^spring-cloud-starter-(netflix-)?zuul$|^enablezuul(proxy|server)$"
                         r"|^yarp\.reverseproxy$|^ocelot$", name) or f.kind == "gateway.code" or (
                             f.kind == "config.property" and (name.startswith(
                             ("zuul.routes", "reverseproxy:routes", "reverseproxy:clusters")) or bool(GATEWAY_ROUTES_KEY.match(name)))):
                owners = self.property_owners(f) if f.kind == "config.property" else [self.owner_of(f.repository, f.path)]
                for owner in owners:
                    if owner and self.model.components[owner].kind == "service":
                        self.model.components[owner].kind = "gateway"
                        self.framework_gateways.add(owner)
                        self.model.components[owner].evidence.add(f.evidence)
                        self.credit(self.model.components[owner].rules)

    def property_owners(self, f: Fact) -> list[str]:
        """Who a Spring property applies to: `<app>.yml` in a config repository configures <app>;
        `application.yml` in a shared config folder configures every Spring service; `application.properties`
        of a library module configures the services depending on it; else the folder's owner."""
        named = f.get("config_file")  # a configuration document kept in a database seed (Nacos `config_info`)
        if named:
            stem = PurePosixPath(named).stem
            if not re.match(r"^(application|bootstrap)(-|$)", stem, re.I) and stem.lower() not in self.alias:
                stem = re.sub(r"-[^-/.]+$", "", stem)  # `orders-dev`: the application `orders`, profile `dev`
        elif f.get("profile") and not f.get("profile_document"):
            stem = re.sub(r"-[^-/.]+$", "", PurePosixPath(f.path).stem)
        else:
            stem = PurePosixPath(f.path).stem
        stem = re.sub(r"^(application|bootstrap)-[^/]+$", r"\1", stem, flags=re.I)  # an activated profile's file
        mounted = self.mounted_folder_users.get((f.repository, folder(f.path)), set()) if not named else set()
        folder_owner = self.owner_of(f.repository, f.path)
        if len(mounted) >= 2 and (folder_owner is None or any(self.alias.get(n) == folder_owner for n in mounted)):
            # a folder of settings several compose services mount into their containers (`./quickstart/configs:
            # /data/conf`, the programs started with `-conf /data/conf`), held by no component's code or by one of
            # them for the mount alone: its shared file (config.yaml) configures each of them, a file named for
            # one of them (user.yaml) that one
            own = PurePosixPath(f.path).stem.lower()
            users = sorted({c for n in mounted if own == n or own in SHARED_SETTINGS_STEMS
                            for c in [self.alias.get(n)] if c and self.model.components[c].kind != "user"})
            if users:
                return users
        if f.get("named_only"):  # a conf/ folder's YAML: the programs whose environment names the file
            names = self._settings_file_names().get((f.repository, f.path), set())
            return sorted({c for n in names for c in [self.alias.get(n)] if c})
        if stem.lower().startswith("values"):  # Helm: charts/<chart>/values.yaml configures <chart>
            chart = self.alias.get(PurePosixPath(f.path).parent.name.lower())
            return [chart] if chart else ([folder_owner] if folder_owner else [])
        if stem.lower() not in ("application", "bootstrap"):
            owner = self.alias.get(stem.lower()) or self.alias.get(PurePosixPath(named or f.path).stem.lower())
            if owner is None and folder_owner is None and "-" in stem:
                # a config repository's `<application>-<profile>.yml` (paascloud-provider-mdc-dev.yml), in a
                # repository no component's code holds: that application's properties, when its own configuration
                # activates that profile (`spring.profiles.active: dev`; not the `-prod.yaml` beside it)
                app, profile = stem.rsplit("-", 1)
                candidate = self.alias.get(app.lower())
                if candidate is not None and profile.lower() in self._activated_profiles(candidate):
                    owner = candidate
            if named:
                return [owner] if owner else []  # a document for an application not deployed here: nobody's
            return [owner] if owner else ([folder_owner] if folder_owner else [])
        parts = {p.lower() for p in PurePosixPath(f.path).parts[:-1]}
        if parts & {"shared", "config-repo", "configurations"} or folder_owner is None or named:
            # Spring Cloud Config clients: they name a config server (and are not one themselves).
            servers = {self.owner_of(g.repository, g.path) for g in self.by_kind["config.property"]
                       if (g.get("name") or "").startswith("spring.cloud.config.server.")}
            spring = sorted({o for g in self.by_kind["config.property"]
                             if (g.get("name") or "").startswith(("spring.cloud.config.uri", "spring.config.import",
                                                                  "spring.cloud.nacos.config.",
                                                                  "spring.cloud.config.discovery.service-id"))
                             and g.path != f.path
                             for o in [self.owner_of(g.repository, g.path)] if o and o not in servers})
            return spring or ([folder_owner] if folder_owner else [])
        if self.model.components[folder_owner].kind == "library":
            # A configuration module (zlt-config: application.properties, bootstrap.properties in its
            # resources) the services depend on: its files are on each one's classpath, so they configure
            # every service depending on it (those services' own application.yml beside them)
            users = self._library_users(folder_owner)
            if users:
                return list(users)
        return [folder_owner]

    @functools.cached_property
    def mounted_folder_users(self) -> dict[tuple[str, str], set[str]]:
        """(repository, folder) -> the compose services mounting that folder of the repository into their
        containers (facts alone: the compose files the system runs with)."""
        out: dict[tuple[str, str], set[str]] = defaultdict(set)
        dirs = {(r, folder(p)) for r, p in self.inventory_paths}
        for m in self.compose_mounts:
            source = (m.get("source") or "").strip()
            if not source.startswith(".") or not m.get("owner"):
                continue  # (a named volume, or a path of the host outside the repository)
            d = norm_path(join_path(folder(m.path), source))
            if (m.repository, d) in dirs:
                out[(m.repository, d)].add((m.get("owner") or "").lower())
        return dict(out)

    def settings_file_users(self) -> dict[tuple[str, str], list[str]]:
        """(repository, settings file) -> the components whose environment names that file as their
        configuration (``OL_CONFIG=${OL_CONFIG:-/openlibrary/conf/openlibrary.yml}``, ``conf/infobase.yml``):
        the longest tail of the value (two parts at least) that is a file of the component's repository; and
        the file a compose service mounts into its container and names on its command line."""
        return {k: sorted({c for n in names for c in [self.alias.get(n)] if c})
                for k, names in self._settings_file_names().items()}

    def _settings_file_names(self) -> dict[tuple[str, str], set[str]]:
        """settings_file_users by the deployments' names, from facts alone (memoised: it reads no model)."""
        memo = getattr(self, "_settings_files_named", None)
        if memo is not None:
            return memo
        files: dict[str, set[str]] = defaultdict(set)
        for r, p in self.inventory_paths:
            if SETTINGS_EXTENSION.search(p):
                files[r].add(p)
        users: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["config.env"]:
            value = re.sub(r"^\$\{[A-Za-z_]\w*:?-([^}]*)\}$", r"\1", (f.get("value") or "").strip().strip("'\""))
            owner = (f.get("owner") or "").lower()
            if not owner or not SETTINGS_EXTENSION.search(value):
                continue
            parts = [x for x in value.split("/") if x and x != "."]
            tail = next((t for k in range(len(parts) - 1) for t in ["/".join(parts[k:])]
                         if t in files.get(f.repository, set())), None)
            if tail:
                users[(f.repository, tail)].add(owner)
        # a file the service mounts into its container and starts with (`./config.yaml:/etc/meter/config.yaml`
        # and `command: meter --config /etc/meter/config.yaml`)
        commands: dict[tuple[str, str], str] = {}
        for f in self.by_kind["program.command"]:
            if f.get("source") == "compose":
                commands[(f.repository, (f.get("owner") or "").lower())] = f.get("command") or ""
        # (an INI file mounted into the container is read by the program wherever it is named: st2's images load
        # /etc/st2/st2.docker.conf by themselves; so is a program's `config.yaml` mounted over the one its image
        # loads, `./apisix_conf/config.yaml:/usr/local/apisix/conf/config.yaml`)
        loaded_where_mounted = {(f.repository, f.path) for f in self.by_kind["config.property"]
                                if f.get("mounted") or f.get("named_only")}
        for m in self.by_kind["compose.mount"]:
            target = (m.get("target") or "").strip()
            owner = (m.get("owner") or "").lower()
            command = commands.get((m.repository, owner), "")
            source = norm_path(join_path(folder(m.path), (m.get("source") or "").strip()))
            if owner and target and (re.search(r"(^|[\s=])" + re.escape(target) + r"($|\s)", command)
                                     or (m.repository, source) in loaded_where_mounted) \
                    and source in files.get(m.repository, set()):
                users[(m.repository, source)].add(owner)
        # a named file naming another file of its folder it loads (`infobase_config_file: infobase.yml`):
        # that one configures the same programs
        loads = [(f.repository, f.path, norm_path(join_path(folder(f.path), (f.get("value") or "").strip())))
                 for f in self.by_kind["config.property"] if f.get("named_only")
                 and re.fullmatch(r"[\w./-]+", (f.get("value") or "").strip())
                 and SETTINGS_EXTENSION.search((f.get("value") or "").strip())]
        for _ in range(3):
            for r, path, loaded in loads:
                if loaded in files.get(r, set()) and loaded != path:
                    users[(r, loaded)] |= users.get((r, path), set())
        memo = self._settings_files_named = {k: v for k, v in users.items() if v}
        return memo

    def _dependents_by_key(self) -> dict[str, set[tuple[str, str]]]:
        """Dependency key -> the manifests (repository, path) naming it: a memo of facts only."""
        index = getattr(self, "_dependents_index", None)
        if index is None:
            index = defaultdict(set)
            for d in self.by_kind["manifest.dependency"]:
                index[dependency_key(d.get("name") or "")].add((d.repository, d.path))
            self._dependents_index = index
        return index

    def _library_users(self, lib_id: str) -> tuple[str, ...]:
        """The services and gateways whose manifests depend on the library (the manifests indexed once by
        dependency: facts do not change while resolving, owners may)."""
        index = self._dependents_by_key()
        lib = self.model.components[lib_id]
        manifests = {m for n in (lib.attributes.get("package") or "", lib.name) if n for m in index.get(dependency_key(n), ())}
        return tuple(sorted({o for r, p in manifests for o in [self.owner_of(r, p)]
                             if o and o != lib_id and self.model.components[o].kind in ("service", "gateway")}))


    def assign_languages(self) -> None:
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for result in self.results:
            for f in result.inventory.files:
                if f.role == "source" and f.language:
                    owner = self.owner_of(result.repository.name, f.path)
                    if owner:
                        counts[owner][language_family(f.language)] += 1
        for cid, c in counts.items():
            comp = self.model.components[cid]
            self.credit(comp.rules)
            hint = comp.attributes.pop("base_language", "")
            if hint and c.get(hint):  # the Dockerfile's base image says which of the trees is built
                comp.language = hint
                continue
            top = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
            comp.language = top[0][0]
        for comp in self.model.components.values():
            comp.attributes.pop("base_language", None)

    # ------------------------------------------------------------------ endpoints
    def endpoints(self) -> None:
        dtos = dto_schemas(self.by_kind["dto.class"], self.by_kind["dto.field"], self.by_kind["http.body"])
        schemas = openapi_schemas(self.by_kind["openapi.schema"] + dtos.schemas,
                                  self.by_kind["openapi.property"] + dtos.properties)
        by_line: dict[tuple[str, str, int], Fact] = {}
        for f in self.by_kind["http.route"]:
            # Several readings of one route line collapse to the most specific; an OpenAPI path item
            # lists several operations on one line, so there the method is part of the key.
            key = (f.repository, f.path, f.line, f.get("method") if f.get("framework") == "openapi" else "")
            prev = by_line.get(key)
            # Prefer the most specific reading of a line (explicit methods, a class prefix).
            if prev is None or len(f.attrs) > len(prev.attrs) or (
                    len(f.attrs) == len(prev.attrs) and (f.get("method") or "").upper() not in METHOD_WORDS):
                by_line[key] = f
        routers: dict[tuple[str, str, str], Fact] = {}
        for r in self.by_kind["http.router"]:
            routers.setdefault((r.repository, r.path, r.get("name") or ""), r)
        mounts = self.router_mounts({(f.repository, f.path) for f in by_line.values()})
        for key in sorted(by_line):
            f = by_line[key]
            owner = self.owner_of(f.repository, f.path)
            if owner is None:
                continue
            method, path = route_of(f, router_prefix(routers, f))
            mount = mounts.get((f.repository, f.path))
            if mount and f.get("framework") != "graphql":
                path = "/" + "/".join(p for p in (mount.strip("/"), path.lstrip("/")) if p)
            comp = self.model.components[owner]
            port = comp.ports.setdefault("http", Port(name="http", protocol="http", direction="provided"))
            self.credit(comp.rules)
            for ep in port.endpoints:
                if ep.method == method and ep.path == path:
                    ep.evidence.append(f.evidence)
                    break
            else:
                ep = Endpoint(method=method, path=path, evidence=[f.evidence])
                port.endpoints.append(ep)
            # the bodies an OpenAPI document types the operation with (the first document, by path, wins)
            # ... else the types the handler declares (a framework DTO of the same repository)
            code = dtos.bodies.get((f.repository, f.path, f.line), {})
            for side in ("request", "response"):
                body = f.get(side) or code.get(side)
                if body and not getattr(ep, side):
                    setattr(ep, side, body)
                    schemas.closure([(body, f.evidence)], self.model.messages)
            port.evidence.append(f.evidence)

    def router_mounts(self, route_files: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Prefixes given where a router is mounted in another file: Express ``app.use("/api", r)``,
        FastAPI ``include_router(orders.router, prefix="/orders")``, Flask ``register_blueprint``.

        The mounted name is followed through the file's imports to one file that declares routes;
        when that is ambiguous, no prefix is guessed."""
        bound: dict[tuple[str, str, str], str] = {}
        for v in self.by_kind["module.var"]:
            bound[(v.repository, v.path, v.get("name") or "")] = v.get("module") or ""
        mounts: dict[tuple[str, str], str] = {}
        for m in self.by_kind["http.mount"]:
            router = m.get("router") or ""
            first = router.split(".")[0]
            module = m.get("module") or bound.get((m.repository, m.path, first), "")
            if not module:
                continue
            folder = PurePosixPath(m.path).parent.as_posix()
            candidates: set[str] = set()
            if module.startswith("."):
                if "/" in module or module.startswith("./") or module.startswith("../"):  # JavaScript path
                    candidates.add(norm_path(join_path(folder, module)))
                else:  # Python relative module: .routers (+ the imported name when it is a module)
                    dots = len(module) - len(module.lstrip("."))
                    base = PurePosixPath(folder)
                    for _ in range(dots - 1):
                        base = base.parent
                    mod = module.lstrip(".").replace(".", "/")
                    for rel in ({f"{mod}/{first}" if mod else first, mod} - {""}):
                        candidates.add(norm_path(join_path(base.as_posix(), rel)))
            else:
                mod = module.replace(".", "/")
                candidates.update({f"{mod}/{first}", mod})
            targets = sorted({path for repo, path in route_files if repo == m.repository and path != m.path
                              and _matches_module(path, candidates)})
            if len(targets) == 1:
                mounts.setdefault((m.repository, targets[0]), m.get("prefix") or "")
        return mounts

    def exposed_ports(self) -> None:
        """Dockerfile EXPOSE lines give the ports of the component the recipe describes (see ``recipe_owner``: the one
        built from that folder, or for a recipe at a workspace's root the program its CMD starts, ``CMD
        ["/usr/local/bin/stalwart"]`` after ``cargo build -p stalwart``)."""
        for f in self.by_kind["docker.expose"]:
            owner = self.recipe_owner(f.repository, f.path)
            if owner and f.get("port"):
                comp = self.model.components[owner]
                ports = set(filter(None, comp.attributes.get("exposed", "").split(","))) | {f.get("port") or ""}
                comp.attributes["exposed"] = ",".join(sorted(ports))
                self.credit(comp.rules)

    @functools.cached_property
    def documentation_sites(self) -> frozenset[tuple[str, str]]:
        """(repository, folder) of packages that build the project's documentation or web site with a static site
        generator (``@docusaurus/core``, ``vitepress``, ``middleman``, ``jekyll``, ``mkdocs``): pages about the
        system, wherever they are kept (``docsite/``, a repository of documents), not a program of it.  Only where
        every manifest of the folder names the generator and none a web framework: a server whose requirements
        also build its documentation with MkDocs (NetBox, ntfy at their roots) stays the server."""
        deps: dict[tuple[str, str], dict[str, set[str]]] = {}  # folder -> manifest path -> its dependencies
        for k in ("manifest.dependency", "manifest.dev_dependency"):
            for f in self.by_kind[k]:
                where = (f.repository, norm_path(folder(f.path)))
                deps.setdefault(where, {}).setdefault(f.path, set()).add((f.get("name") or "").lower())
        manifests: dict[tuple[str, str], set[str]] = {}
        for f in self.by_kind["manifest"]:
            manifests.setdefault((f.repository, norm_path(folder(f.path))), set()).add(f.path)
        out = set()
        for where, by_file in deps.items():
            names = set().union(*by_file.values())
            if not any(DOCS_GENERATOR.match(n) for n in names) or names & WEB_FRAMEWORK_PACKAGES:
                continue
            if all(any(DOCS_GENERATOR.match(n) for n in by_file.get(m, ())) for m in manifests.get(where, ())):
                out.add(where)
        return frozenset(out)


# Static site generators a project's documentation or web site is built with, by package (npm, Ruby gems, PyPI).
DOCS_GENERATOR = re.compile(r"^(@docusaurus/core|docusaurus|vitepress|vuepress|@vuepress/core|nextra|nextra-theme-docs|"
                            r"@astrojs/starlight|docsify|docsify-cli|hexo|middleman|jekyll|github-pages|nanoc|bridgetown|"
                            r"mkdocs|mkdocs-material|sphinx)$")
# Web frameworks whose presence among a folder's dependencies says it holds a server, whatever else it builds.
WEB_FRAMEWORK_PACKAGES = SERVER_FRAMEWORKS | frozenset({"django", "flask", "fastapi", "starlette", "aiohttp", "tornado",
                                                        "rails", "sinatra", "hanami", "roda", "laravel/framework",
                                                        "symfony/framework-bundle"})
# Build and test tooling configuration at a project's root: code, but not the project's own program.
# A service name ending in the build or runtime it was made with: rest-heroes-java25, orders-native.
# A second copy of a service in the same compose file: frontend-secondary, db-replica, api-standby.
# A cluster node numbered after its stem: redis-node-0, kafka1, zoo_2 (the stem keeps its letters).
# Folders a package manager fills at install time, and the language whose packages it installs there.
INSTALL_FOLDER_LANGUAGE = {"vendor": "php", "node_modules": "javascript"}
INSTALLED_RECIPE = re.compile(r"^(?:\./)?(vendor|node_modules)/")
# Languages a Maven module's own code is written in (a packaging module has none of it).
JVM_LANGUAGES = frozenset({"java", "kotlin", "scala", "groovy"})
# A compose command starting the mounted project's own script with its package runner (`npm run dev`, `yarn start`).
PACKAGE_RUNNER_COMMAND = re.compile(r"^\s*(npm|yarn|pnpm|bun)\s+(run\s+)?[\w:.-]+")
# An IPv4 address (a fixed address compose gives a service on its network: `ipv4_address: 172.30.0.81`).
IP_ADDRESS = re.compile(r"\d{1,3}(\.\d{1,3}){3}")
# A workload's name ending in a word for its kind of manifest object (orders-deploy, orders-deployment, db-statefulset).
WORKLOAD_KIND_SUFFIX = re.compile(r"^(.+?)[-_](deploy|deployment|dep|statefulset|sts|daemonset|ds)$", re.I)
# A shell script named for starting the program (ks-start.sh, docker-entrypoint.sh, run.sh, startup.bash).
START_SCRIPT = re.compile(r"(^|[-_.])(start|startup|run|entrypoint|boot|launch)([-_.][^/]*)?\.(sh|bash)$", re.I)


def _ends_in_own_program(command: str, image: str) -> bool:
    """Does the command line end by starting, with no arguments, the program the image is named for
    (``-c "echo ... > /tmp/config.yml; /app/console"`` for ``redpandadata/console``)?"""
    base = image_basename(image).lower() if image else ""
    last = re.split(r";|&&|\|\|", command)[-1].strip().strip("\"'").strip()
    words = last.removeprefix("exec ").split()
    return bool(base) and len(words) == 1 and PurePosixPath(words[0]).name.lower() == base


# Recipes kept for tests, examples, demos or a developer's container: not how the project's image is built.
ASIDE_RECIPE = re.compile(r"(^|/)(tests?|e2e|examples?|samples?|demos?|dev|\.devcontainer)(/|$)", re.I)


def _runtime_family(language: str | None) -> str | None:
    """A runtime's language as code is counted: JavaScript and TypeScript are one family (one Node runtime)."""
    return "javascript" if language in JS_FAMILY else language


NUMBERED_NODE = re.compile(r"^([A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z]+)*?)[-_]?\d{1,2}$")
REPLICA = re.compile(r"^(.+?)[-_](?:secondary|replica|standby|backup|follower|failover|dr)$", re.I)
BUILD_VARIANT = re.compile(r"^(.+?)[-_](?:(?:java|jdk|jre)\d+(?:[-_](?:jvm|native))?|jvm|graalvm)$", re.I)
# The images of a compiled language's toolchain: a recipe ending on one with no command of its own compiles the
# workspace for other recipes to copy from (`FROM ghcr.io/acme/base AS builder`); it starts nothing.
TOOLCHAIN_IMAGE = re.compile(r"^(docker\.io/)?(library/)?(rust|golang|gcc|maven|gradle|clux/muslrust|"
                             r"messense/rust-musl-cross)(:|@|$)|^mcr\.microsoft\.com/dotnet/sdk(:|@|$)", re.I)

TOOLING_FILE = re.compile(r"(^|/)([^/]+\.config\.[cm]?[jt]s|Gruntfile\.[jt]s|gulpfile\.[jt]s|webpack[^/]*\.[jt]s|"
                          r"conftest\.py|setup\.py|noxfile\.py|fabfile\.py|tasks\.py)$")


def _ancestors(d: str) -> list[str]:
    """`d` and the folders above it (``a/b/c``: a/b/c, a/b, a); none for the root."""
    parts = [p for p in d.split("/") if p]
    return ["/".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _take_store_kind(comp: Component, base_tech: tuple[str, str] | None) -> None:
    """A service whose image is built FROM a store's image (postgres, mariadb) is that store."""
    if base_tech and comp.kind == "service":
        comp.kind = base_tech[1]
        comp.attributes["technology"] = base_tech[0]


def _matches_module(path: str, candidates: set[str]) -> bool:
    """Is `path` (a source file) the module one of `candidates` names (with any extension, or its index)?"""
    stem = str(PurePosixPath(path).with_suffix(""))
    for c in candidates:
        if stem == c or stem == f"{c}/index" or stem == f"{c}/__init__" or stem.endswith(f"/{c}") \
                or stem.endswith(f"/{c}/index") or stem.endswith(f"/{c}/__init__"):
            return True
    return False
