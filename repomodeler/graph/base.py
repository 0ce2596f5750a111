"""Shared state of the resolver: the system being built, name aliases, and the two primitives every
rule uses (add a component, connect two components), plus which component owns a file."""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import Callable, Iterable

from repomodeler.extract.readers._text import image_named
from repomodeler.extract.helm_charts import RULE as HELM_CHART_RULE
from repomodeler.graph.catalog import CLUSTER_DNS, KUBE_API_HOST, LOCAL_HOSTS, image_basename, tech_for_image
from repomodeler.graph.compose_extends import DEFAULT_COMPOSE, apply_compose_extends
from repomodeler.graph.file_sd import file_sd_targets
from repomodeler.graph.printed_compose import printed_compose
from repomodeler.graph.constants import INDEXED_KINDS, ConstantIndex
from repomodeler.graph.fact_view import FactView
from repomodeler.graph.go_plugins import generator_folders, without_generator_mains, without_library_module_mains, without_plugin_mains
from repomodeler.rules import RULES, Rule, UndeclaredState
from repomodeler.graph.packages import folder
from repomodeler.languages import language_for_path
from repomodeler.graph.values import PLACEHOLDER, expand_placeholders
from repomodeler.graph.identity import image_names, key
from repomodeler.graph.scripts import started_binary
from repomodeler.graph.naming import (
    join_path,
    norm_path,
    is_under,
    slug,
    subcommand,
)
from repomodeler.records import Component, Connection, Evidence, ExtractResult, Fact, MessageType, Roots, Unresolved
from repomodeler.writes import GuardedDict, GuardedList, check, guarded, undeclared


# Quarkus settings naming the image its container-image extension builds (a name, or the whole reference).
QUARKUS_IMAGE_KEYS = frozenset({"quarkus.container-image.name", "quarkus.container-image.image"})



# Compose files of optional add-ons an operator starts on top of the system (docker/addons/<name>/
# docker-compose.yml): opt-in like a variant file.
ADD_ON_DIR = re.compile(r"(^|/)(add-?ons?|extras|optional|extensions)/", re.I)
# Folders of developer tools, tests, benchmarks and editor dev containers: a compose file there starts a
# harness around the system (hack/dev/compression-test/docker-compose.yml, tests/e2e/docker-compose.yml, mock/compose.yaml,
# scripts/test-environments/postgres/compose.yml,
# tools/TestSuite/docker-compose-base.yml, integration/ops/overrides/ha-web-nodes.yml, bdd/docker-compose.yml (behaviour tests),
# .devcontainer/docker-compose.yml), not the system.
HARNESS_DIR = re.compile(r"(^|/)(hack|tests?|testing|mocks?|bdd|test[-_]?suites?|tests?[-_](env|envs|environments?|stacks?|setups?)|e2e|integration([-_]?tests?)?|load[-_]?tests?|loadtest|benchmarks?|perf|profiling|"
                         r"k6|locust|jmeter|gatling|artillery|playwright|cypress|"
                         r"\.?devcontainers?([-_][^/]*)?"
                         # (a package of the project named for its tests: `app-e2e/`, `shop-load-tests/`; one named
                         # for a benchmark, `packages/tracecat-benchmark/`, holds examples: inventory.HARNESS_WORDS)
                         r"|[^/]+[-_](tests?|e2e|integration[-_]?tests?|load[-_]?tests?|perf))/", re.I)


def _parent(p: str) -> str:
    """The folder of a repository-relative path ('' at the root)."""
    return p.rsplit("/", 1)[0] if "/" in p else ""


# Commands of a web server process, and of a background process (a worker, a scheduler), of an application.
WEB_SERVER_COMMAND = re.compile(r"\b(gunicorn|uvicorn|daphne|hypercorn|granian|waitress-serve|puma|unicorn|"
                                r"runserver|rails (s|server)|php-fpm|frankenphp|next start)\b")
BACKGROUND_COMMAND = re.compile(r"\b(celery|worker|beat|scheduler|cron|rq|sidekiq|consume|dramatiq|huey|flower)\b")


# Object stores the model draws as databases (S3, MinIO, a cloud's blob storage): where a program keeps files, not
# the database its SQL drivers or SQLite file serve.
OBJECT_STORES = frozenset({"s3", "gcs", "azure-blob", "azure-storage", "minio"})


# A file named for another plus a dotted word: `cluster.mongodb.yml` of `cluster.yml`.
OVERRIDE_NAMED = re.compile(r"(?:^|/)([^/.]+)\.[\w-]+\.ya?ml$")


# The default files Compose looks for in a folder, the first found loaded.
DEFAULT_PREFERENCE = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")


def compose_variants(paths: set[str], linked: dict[str, str] | None = None) -> set[str]:
    """Compose files Docker Compose does not load by default: beside a ``docker-compose.yml`` (and its
    ``.override``), a ``docker-compose.prod.yml`` or ``docker-compose.elk.yml`` is a variant someone opts
    into with ``-f``, and a Swarm ``docker-stack.yml`` another way to deploy it; their extra services
    and settings are not the system as it runs by default.  `linked`: default-named symlinks -> the file
    each points at (``compose.yaml -> docker-compose_v3_alpine_mysql.yaml``): what Compose loads by
    default is the file the link names, and the others beside the link are its variants."""
    linked = {link: target for link, target in (linked or {}).items() if DEFAULT_COMPOSE.search(link)}
    # In a folder without a docker-compose.yml, a file named default (docker-compose_default.yaml
    # beside docker-compose_kieker.yaml) is the one the others vary.
    default_named = {p for p in paths if re.search(r"(^|/)(docker-)?compose[._-]default\.ya?ml$", p, re.I)}
    defaults = {p for p in paths if DEFAULT_COMPOSE.search(p)}
    # Compose loads one default file of a folder, in its order of preference: compose.yaml, compose.yml,
    # docker-compose.yaml, docker-compose.yml (a deprecated docker-compose.yml kept beside compose.yaml is not loaded)
    by_folder: dict[str, list[str]] = defaultdict(list)
    for p in defaults:
        if not re.search(r"\.override\.ya?ml$", p):
            by_folder[_parent(p)].append(p)
    shadowed = {p for ps in by_folder.values() if len(ps) > 1
                for p in sorted(ps, key=lambda q: DEFAULT_PREFERENCE.index(PurePosixPath(q).name)
                                if PurePosixPath(q).name in DEFAULT_PREFERENCE else 9)[1:]}
    defaults -= shadowed
    defaults |= {p for p in default_named if not any(_parent(d) == _parent(p) for d in defaults)}
    folders = {_parent(p) for p in defaults} | {_parent(link) for link in linked}
    defaults |= set(linked.values()) & paths
    # `cluster.mongodb.yml` beside `cluster.yml` (`docker compose -f cluster.yml -f cluster.mongodb.yml`): an
    # override someone adds to the file it is named after, whatever that file is called
    overrides = {p for p in paths if p not in defaults and (m := OVERRIDE_NAMED.search(p)) is not None
                 and any(join_path(_parent(p), m.group(1) + ext) in paths for ext in (".yml", ".yaml"))}
    return overrides | {p for p in paths if p not in defaults and _parent(p) in folders
                        and re.search(r"(^|/)((docker-)?compose|docker-stack)[^/]*\.ya?ml$", p)}



_BARE_VARIABLE = re.compile(r"(?<!\$)\$([A-Za-z_][A-Za-z0-9_]*)")


def compose_filled(value: str, env: dict[str, str], drop_unset: bool = False) -> str:
    """A compose file's value with ``${VAR}`` / ``${VAR:-default}`` and the bare ``$VAR`` filled from the
    ``.env`` beside it (``dockerfile: ${AD_DOCKERFILE}``, ``image: $ORO_IMAGE:$ORO_TAG``; ``$$`` is a literal
    dollar sign), else from the default; with `drop_unset`, a reference neither fills is dropped (a file name
    such as ``include: docker-compose.opensearch.${OPENSEARCH_CLUSTER_TYPE:-single-node}.yml``)."""
    if "$" not in value:
        return value
    braced = _BARE_VARIABLE.sub(lambda m: "${" + m.group(1) + "}" if m.group(1) in env else m.group(0), value)
    filled = expand_placeholders(braced, lambda n: dotenv_value(env, n) if n in env else None)
    return PLACEHOLDER.sub("", filled) if drop_unset else filled


def stages_reached(needs: dict[str, set[str]], start: str) -> set[str]:
    """The stages of a recipe that building `start` builds: it and those it copies from or is built FROM, in turn."""
    reached: set[str] = set()
    todo = [start]
    while todo:
        stage = todo.pop()
        if stage not in reached:
            reached.add(stage)
            todo.extend(sorted(needs.get(stage, ())))
    return reached


def compose_includes(facts: list[Fact], dotenv: dict[tuple[str, str], dict[str, str]] | None = None
                     ) -> dict[tuple[str, str], set[str]]:
    """(repository, compose file) -> the files it includes (``include: [./docker-compose-base.yml]``), a file named
    with a variable filled from the .env beside it, else with the variable's default
    (``opensearch.${CLUSTER_TYPE:-single-node}.yml``)."""
    includes: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "compose.include" and f.get("file"):
            env = (dotenv or {}).get((f.repository, norm_path(join_path(_parent(f.path), ".env"))), {})
            includes[(f.repository, f.path)].add(norm_path(join_path(_parent(f.path),
                                                                     compose_filled(f.get("file") or "", env, drop_unset=True))))
    return includes


def included_from(includes: dict[tuple[str, str], set[str]], repo: str, starts: Iterable[str]) -> set[str]:
    """The files the files `starts` include, and those they include in turn (not the starts themselves)."""
    found: set[str] = set()
    todo = list(starts)
    while todo:
        for p in sorted(includes.get((repo, todo.pop()), ())):
            if p not in found:
                found.add(p)
                todo.append(p)
    return found


def compose_included(facts: list[Fact], variants: set[str]) -> set[str]:
    """Compose files a file Compose runs by default includes (and the files those include): Compose loads them
    with it, so they are no variant beside it."""
    includes = compose_includes(facts)
    # (a file holding only `include:` is no variant of its own, but where Compose prefers another default file of its
    # folder, compose.yaml over a deprecated docker-compose.yml, it is not loaded either)
    known = {(f.repository, f.path) for f in facts if f.kind == "compose.service"} | set(includes)
    shadowed = {(r, q) for r, q in known if q in compose_variants({p for rr, p in known if rr == r})
                and DEFAULT_COMPOSE.search(q)}
    return {p for repo in sorted({r for r, _p in includes})
            for p in included_from(includes, repo, [q for r, q in includes if r == repo and q not in variants
                                                    and (r, q) not in shadowed])}


def stray_variants(services: list[Fact], recipes: frozenset[tuple[str, str]] = frozenset()) -> set[str]:
    """Variant-named compose files (``docker/api/docker-compose.local.yml``, ``docker/db/.pgpool.yml``) in a
    folder without a default compose file, in a repository whose default compose file
    (``docker-compose.yml``, ``compose.yaml``) is elsewhere: another way to run a part of the system, which
    someone opts into with ``-f``, not the system as it runs by default.  A file that builds the system's
    code where the default file builds none (it runs backing services or published images) is kept, and so is
    the stack of an edition kept in a folder of its own (``legacy/docker-compose.ce.yaml`` beside
    ``legacy/Dockerfile.ce``: `recipes`, (repository, path) of the Dockerfiles, name that edition too)."""
    by_repo: dict[str, set[str]] = defaultdict(set)
    # (a file building the system's code while the default file builds none, which then runs a developer's
    # backing services or published images, completes the default: how the system runs from this checkout)
    builds: set[tuple[str, str]] = {(f.repository, f.path) for f in services
                                    if f.get("build_context") or f.get("dockerfile")}
    # folders of override fragments (services with neither image nor build: settings for services the
    # default file defines) are that stack's overrides (``overrides/compose.redis.yaml``), see template_catalogs
    fragment_dirs: set[tuple[str, str]] = set()
    for f in services:
        if f.get("source") != "tye":
            by_repo[f.repository].add(f.path)
        if not f.get("image") and not f.get("build_context") and not f.get("dockerfile"):
            fragment_dirs.add((f.repository, _parent(f.path)))
    out: set[str] = set()
    # (a system of several repositories whose deployment is one repository's default compose file: another
    # repository's developer stack, `apps/slackbot-proxy/docker-compose.dev.yml`, is no part of it either)
    deployed_elsewhere = {r for r, paths in by_repo.items()
                          if any(DEFAULT_COMPOSE.search(p) and not HARNESS_DIR.search(p) for p in paths)}
    for repo, paths in by_repo.items():
        defaults = {p for p in paths if DEFAULT_COMPOSE.search(p) and not HARNESS_DIR.search(p)}
        folders = {_parent(p) for p in defaults}
        if not defaults:
            if deployed_elsewhere - {repo}:
                out |= {p for p in paths if (m := _VARIANT_NAME.search(p)) and m.group(1).lower() in DEVELOPER_EDITIONS}
            continue
        default_builds = any((repo, p) in builds for p in defaults)
        out |= {p for p in paths if p not in defaults and _parent(p) not in folders
                and (repo, _parent(p)) not in fragment_dirs and (default_builds or (repo, p) not in builds)
                and re.search(r"(^|/)((docker-)?compose[._-][^/]+|\.[^/]+)\.ya?ml$", p)
                and not _edition_stack(repo, p, recipes)}
    return out


# The name a variant compose file adds to compose's own (`docker-compose.dev.yml`: dev).
_VARIANT_NAME = re.compile(r"(?:^|/)(?:docker-)?compose[._-]([^/.]+)\.ya?ml$", re.I)
# Names of a developer's machine or stage, not of an edition someone deploys.
DEVELOPER_EDITIONS = frozenset({"local", "dev", "devel", "develop", "development", "debug", "test", "testing", "ci"})


def _edition_stack(repo: str, path: str, recipes: frozenset[tuple[str, str]]) -> bool:
    """Is the variant-named compose file the stack of an edition whose recipe beside it carries the same name
    (``docker-compose.ce.yaml`` and ``Dockerfile.ce``)?"""
    m = re.search(r"(?:^|/)(?:docker-)?compose[._-]([^/.]+)\.ya?ml$", path)
    if not m:
        return False
    here, edition = _parent(path), m.group(1).lower()
    if edition in DEVELOPER_EDITIONS:
        return False  # (docker-compose.local.yml beside Dockerfile.local: a developer's build, no edition)
    return any(r == repo and _parent(d) == here and PurePosixPath(d).name.lower() in (
        f"dockerfile.{edition}", f"dockerfile-{edition}", f"{edition}.dockerfile") for r, d in recipes)


# Folders of a developer's own stack (``dev/docker-compose.yml``, ``docker/development/compose.yml``).
# (also a developer's stack for one setup: ``dev-postgres/``, ``dev_sqlite/``, ``local-mysql/``)
# (and a folder of trials: ``docker/experiment/`` trying a certbot set-up beside the product)
DEVELOPER_DIR = re.compile(r"(^|/)(dev|devel|develop|development|local|localdev|local-dev|experiments?|sandbox|playground)"
                           r"([-_][a-z0-9]+)?/", re.I)


# Folders of a developer's tool stacks (``tools/opentelemetry/docker-compose.yml`` with Jaeger and Grafana,
# ``tools/mysql/docker-compose.yml`` with phpMyAdmin, ``sql/tools/docker-compose.yaml`` with each database the
# schema scripts are tried on).
TOOLBOX_DIR = re.compile(r"(^|/)(tools?|toolbox)/", re.I)


def developer_stacks(services: list[Fact]) -> set[str]:
    """Default-named compose files in a developer's folder (``dev/``, ``development/``, ``local/``) or a
    folder of tools (``tools/``) of a repository whose default compose file is elsewhere (the root's
    ``docker-compose.yml``, ``docker/production/compose.yml``): the stack a contributor runs to work on the
    code (hot-reloading front end, a database admin tool, a tracing back end, a mail catcher), not the system
    as it is deployed."""
    by_repo: dict[str, set[str]] = defaultdict(set)
    for f in services:
        if f.get("source") != "tye" and DEFAULT_COMPOSE.search(f.path):
            by_repo[f.repository].add(f.path)
    out: set[str] = set()
    for paths in by_repo.values():
        dev = {p for p in paths if DEVELOPER_DIR.search(p) or TOOLBOX_DIR.search(p)}
        if dev and any(p not in dev and not HARNESS_DIR.search(p) for p in paths):
            out |= dev
    return out


# The address a serverless platform gives a deployed app, named by it: Cloud Run's generated URL
# (`menu-service-luu7kai33a-uc.a.run.app`: service, project hash, region code) and Azure Container Apps'
# (`orders.kindforest-12ab34cd.westeurope.azurecontainerapps.io`), and the private names Railway and Fly.io give the
# services of one project (`api.railway.internal`, `web.flycast`).
PLATFORM_APP_HOST = re.compile(r"^(?:([a-z0-9][a-z0-9-]*?)-[a-z0-9]{10}-[a-z]{2}\.a\.run\.app"
                               r"|([a-z0-9][a-z0-9-]*)\.[a-z0-9-]+\.[a-z0-9-]+\.azurecontainerapps\.io"
                               r"|([a-z0-9][a-z0-9-]*)\.(?:railway\.internal|flycast))$")
# The host OpenShift's router gives a route by default: `<route>-<namespace>.apps.<cluster domain>`.
OPENSHIFT_ROUTE_HOST = re.compile(r"^([a-z0-9][a-z0-9-]*)\.apps\.[a-z0-9-]+(?:\.[a-z0-9-]+)+$")
# Images of end-to-end test runners (Playwright, Cypress): a runner, not a browser other tests call (a Selenium
# grid in a development stack is a service of it).
TEST_RUNNER_IMAGE = re.compile(r"(^|/)(playwright(:|$)|cypress/(included|base|browsers))", re.I)


# A compose service that runs a test suite, named so: `test`, `tests`, `test_unit`, `test_acceptance`, `test-e2e` (one
# named for a store it holds for the tests, `test_db`, `test-redis`, is a fixture, not the run).
TEST_RUN_SERVICE = re.compile(r"^tests?(?:[-_](?!(?:db|database|postgres|postgresql|mysql|mariadb|redis|mongo|mongodb|"
                              r"minio|s3|kafka|rabbitmq|elasticsearch|es)$)[a-z0-9_-]+)?$", re.I)


def test_stacks(services: list[Fact]) -> set[str]:
    """Compose files that start an end-to-end test runner among their services (``playwright`` driving the
    app's containers, each started with test settings), or that build the project's code to run its test suite in
    a service named for it (``test_unit``, ``test_acceptance`` beside the databases they need): the project's test
    stack, not its deployment, when the repository has another (a compose file, manifests, the compose its README
    prints)."""
    return {f.path for f in services if TEST_RUNNER_IMAGE.search((f.get("image") or "").split("@")[0])
            or (TEST_RUN_SERVICE.match(f.get("name") or "") and (f.get("build_context") or f.get("dockerfile")))}


def renamed_variants(services: list[Fact], variants: set[str]) -> set[str]:
    """Compose files with another name beside the folder's ``docker-compose.yml``: ``postgresql.yml``
    redefining its services (the same system run another way, PostgreSQL in place of MySQL) or
    ``jibri.yml`` adding a service to it (an add-on). Docker Compose reads neither unless someone
    picks it with ``-f``: not the system as it runs by default."""
    names: dict[str, set[str]] = defaultdict(set)
    for f in services:
        if f.get("source") not in ("tye", "azd"):  # a Tye application file, azure.yaml: the same services tied
            names[f.path].add((f.get("name") or "").lower())  # to their code (azd ships them to Azure)
    defaults = {p for p in names if DEFAULT_COMPOSE.search(p)}
    return {p for p in names if p not in defaults and p not in variants
            and not re.search(r"(^|/)((docker-)?compose|docker-stack)[^/]*\.ya?ml$", p)
            and any(_parent(d) == _parent(p) for d in defaults)}


# A folder holding this many compose files of different stacks is a catalog of templates.
TEMPLATE_CATALOG_SIZE = 8


def template_catalogs(services: list[Fact]) -> set[str]:
    """Compose files of a catalog: one folder holding many compose files of different stacks (a
    self-hosting platform's one-click templates, ``templates/compose/ghost.yaml``, ``plausible.yaml``...),
    which the application deploys for its users. They describe other software, not this system.
    A folder holding the file ``docker compose up`` runs there (``docker-compose.yml``,
    ``compose.yaml``) is one stack with its add-on files (``-f docker-compose.yml -f jibri.yml``), and so
    is a folder of override files that add settings to services defined elsewhere (``overrides/``)."""
    by_folder: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    # services with neither an image nor a build: settings for a service another file defines
    fragments = {f.path: True for f in services if not f.get("image") and not f.get("build_context")
                 and not f.get("dockerfile")}
    for f in services:
        parent = f.path.rsplit("/", 1)[0] if "/" in f.path else ""
        by_folder[(f.repository, parent)][f.path].add((f.get("name") or "").lower())
    out: set[str] = set()
    for files in by_folder.values():
        if len(files) < TEMPLATE_CATALOG_SIZE or any(DEFAULT_COMPOSE.search(p) for p in files):
            continue
        if any(fragments.get(p) for p in files):
            continue  # files adding settings to services defined elsewhere: overrides of one stack
        names = [n for ns in files.values() for n in ns]
        # variants of one stack repeat its service names; a catalog's stacks hardly share any
        if len(set(names)) >= 0.5 * len(names):
            out |= set(files)
    # A catalog kept one folder deeper, a stack a folder (``deploy/standalone/kafka/docker-compose.yml``,
    # ``.../couchdb/docker-compose.yml``... that an installer's CLI combines): many folders side by side, each
    # holding the default file of a stack that runs published images only, none built from this checkout.
    builds = {f.path for f in services if f.get("build_context") or f.get("dockerfile")}
    by_grandparent: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for f in services:
        parts = f.path.split("/")
        if len(parts) >= 2:
            by_grandparent[(f.repository, "/".join(parts[:-2]))][f.path].add((f.get("name") or "").lower())
    for (repo, folder), files in by_grandparent.items():
        stacks = {p.split("/")[-2] for p in files}
        if len(stacks) < TEMPLATE_CATALOG_SIZE or files.keys() & builds or by_folder.get((repo, folder)) \
                or not any(DEFAULT_COMPOSE.search(p) for p in files):
            continue
        names = [n for ns in files.values() for n in ns]
        if len(set(names)) >= 0.5 * len(names):
            out |= set(files)
    return out


def completing_variants(facts: list[Fact], variants: set[str], own_names: dict[str, set[str]] | None = None) -> set[str]:
    """Variant compose files that complete a default one running only infrastructure.  A
    ``docker-compose.yml`` that starts third-party stores and brokers and nothing built here is the
    developer's backing services; a variant beside it that runs the applications built here
    (``docker-compose -f docker-compose.yml -f docker-compose.local.yml up``) is how the system runs.
    A variant that runs only third-party images stays opt-in.  A store built from a recipe of its own that
    only configures the store's image (``build: ./docker/mariadb``, whose Dockerfile is ``FROM mariadb``) is
    third-party too.  What the default file starts leaves out its
    services under a profile (``profiles: ["apps"]``: started when asked for), and a platform image of another
    publisher (``temporalio/auto-setup`` beside the stores) is infrastructure too."""
    services = [f for f in facts if f.kind == "compose.service"]
    default = [f for f in services if f.path not in variants
               and not ((f.get("profiles") or "").strip() and "$" not in (f.get("profiles") or ""))]
    # Modules with code of their own (a manifest), not a folder with only a Dockerfile (a proxy recipe).
    modules = {PurePosixPath(f.path).parent.name.lower() for f in facts if f.kind == "manifest"} - {""}
    manifest_dirs = {(f.repository, _parent(f.path)) for f in facts if f.kind == "manifest"}

    def image_parts(f: Fact) -> tuple[str, str]:
        """(publisher, name) of the image, a variable's default filled in (`${IMAGE:-acme/acme-lite}:${TAG}`)."""
        written = re.sub(r"\$\{[^}:]*:-([^}]*)\}", r"\1", f.get("image") or "").split("@")[0]
        owner, _, last = written.rpartition("/")
        return owner.rsplit("/", 1)[-1].lower(), last.split(":")[0].lower()

    def runs_code_built_here(f: Fact) -> bool:
        owner, image = image_parts(f)
        # (an image named for the project and the module, `dittofeed/dittofeed-lite` of packages/lite)
        module = image[len(owner) + 1:] if owner and image.startswith(owner + "-") else ""
        context = PurePosixPath(f.get("build_context") or "").name.lower()
        # (a context above the code, `context: ../` with `dockerfile: Src/UsersService/Dockerfile`: the recipe's
        # folder is the module's)
        recipe = PurePosixPath(f.get("dockerfile") or "").parent.name.lower()
        # (or a build of a folder with a package manifest, the repository's root among them: `context: ./` beside
        # the root's pyproject.toml, which no module folder's name tells)
        raw = f.get("build_context") or ""
        built = bool(raw) and "$" not in raw and not re.match(r"^[a-z]+://", raw) and not f.get("dockerfile") \
            and (f.repository, norm_path(join_path(f.get("compose_dir") or "", raw))) in manifest_dirs
        return bool(image and (image in modules or module in modules) or context and context in modules
                    or recipe and recipe in modules) or built

    own_publishers = {image_parts(f)[0] for f in services if runs_code_built_here(f)} - {""}
    # The last base image of each recipe: a store's recipe (docker/mariadb/Dockerfile: FROM mariadb:10) builds
    # no code of the project, only its configuration into the store's image
    bases: dict[tuple[str, str], tuple[int, str]] = {}
    for f in facts:
        if f.kind == "docker.from" and f.line >= bases.get((f.repository, f.path), (-1, ""))[0]:
            bases[(f.repository, f.path)] = (f.line, f.get("image") or "")

    def store_recipe(f: Fact) -> bool:
        context = f.get("build_context") or ""
        if not context or "$" in context or re.match(r"^[a-z]+://", context):
            return False
        root = norm_path(join_path(f.get("compose_dir") or "", context))
        recipe = norm_path(join_path(root, f.get("dockerfile") or "Dockerfile"))
        return (f.repository, root) not in manifest_dirs and bool(tech_for_image(bases.get((f.repository, recipe), (0, ""))[1]))

    def infrastructure(f: Fact) -> bool:
        if f.get("build_context") or f.get("dockerfile"):
            return store_recipe(f)
        if tech_for_image(f.get("image")):
            return True
        owner, image = image_parts(f)
        # (the project's own image is named for it, grafana/oncall of oncall: by the names its commit gives it, in
        # `own_names` (repository -> lower-case names, ResolverBase.project_names), never by its folder's)
        names = (own_names or {}).get(f.repository, set())
        # (a variable tag, `temporalio/auto-setup:${VERSION}`, leaves whose image it is plain)
        # (an official image of no publisher, `consul`, `nginx`, is another project's too)
        return bool(image) and "$" not in owner + image and not runs_code_built_here(f) \
            and (not owner or owner not in own_publishers and not any(owner == m or owner.startswith(m + "-")
                                                                       for m in modules)) \
            and not names & {owner, image} and not any(image.startswith(n + "-") for n in names)

    if not default or not all(infrastructure(f) for f in default):
        return set()
    completing = {f.path for f in services if f.path in variants and runs_code_built_here(f)}
    if any(not re.search(r"(^|/)docker-stack[^/]*$", p) for p in completing):
        completing = {p for p in completing if not re.search(r"(^|/)docker-stack[^/]*$", p)}  # Swarm: another way
    return completing


def supplying_variants(facts: list[Fact], variants: set[str]) -> set[str]:
    """Variant-named compose files that supply services the default file beside them depends on
    (``docker-compose.yml``'s services wait for ``redis`` and ``postgres-db``, which only
    ``docker-compose.infrastructure.yml`` in that folder defines), or hosts the programs' settings name
    that no default file defines: the default cannot work without them, so they are started together
    (``-f docker-compose.infrastructure.yml -f docker-compose.yml``) and are part of the system, not an opt-in."""
    defined: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "compose.service":
            defined[(f.repository, f.path)].add((f.get("name") or "").lower())
    needed: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "compose.depends" and f.path not in variants and DEFAULT_COMPOSE.search(f.path):
            target = (f.get("target") or "").lower()
            if target and target not in defined.get((f.repository, f.path), set()):
                needed[(f.repository, _parent(f.path))].add(target)
    supplied = {path for (repo, path), names in defined.items() if path in variants
                and names & needed.get((repo, _parent(path)), set())}
    # ... or the hosts the programs' own settings name (`DataSource: root@tcp(mysql:3306)/db`, `Host: redis:6379`)
    # when the default file beside the variant runs the programs and defines none of those hosts
    # (``docker-compose-env.yml`` holding the MySQL, Redis and Kafka that ``docker-compose.yml``'s services use)
    from repomodeler.graph.values import parse_hosts

    named: dict[str, set[str]] = defaultdict(set)
    # (the settings of any repository of the system: services kept in repositories of their own, each naming
    # `mongodb://mongo:27017` in its container profile, appsettings.docker.json, beside the repository whose
    # compose folder holds the stack of stores they share; not a test profile's)
    anywhere: set[str] = set()
    several = len({f.repository for f in facts}) > 1
    for f in facts:
        if f.kind in ("config.property", "config.setting") and f.path not in variants:
            hosts = {ref.host.lower() for ref in parse_hosts(f.get("value") or "")}
            if not f.get("profile"):
                named[f.repository] |= hosts
            if not re.search(r"test|ci\b|e2e", f.get("profile") or "", re.I):
                anywhere |= hosts
    deployed = {(r, n) for (r, p), ns in defined.items() if p not in variants for n in ns}
    # (only a store, cache or broker counts: a log shipper a setting names, `http://logstash:8080`, is the
    # opt-in logging stack of docker-compose.elk.yml, which the programs run without)
    stores = {(f.repository, f.path, (f.get("name") or "").lower()) for f in facts if f.kind == "compose.service"
              and (tech_for_image(f.get("image")) or ("", ""))[1] in ("database", "cache", "broker")}
    for (repo, path), names in defined.items():
        folder_ = _parent(path)
        runs_here = any(p not in variants and DEFAULT_COMPOSE.search(p) and _parent(p) == folder_
                        for (r, p) in defined if r == repo)
        if path in variants and runs_here and any((n in named.get(repo, set()) or n in anywhere and several)
                                                  and (repo, n) not in deployed
                                                  and (repo, path, n) in stores for n in names):
            supplied.add(path)
    return supplied


def activate_deployed_profiles(facts: list[Fact]) -> list[Fact]:
    """A Spring profile document (``---`` under ``spring.config.activate.on-profile: docker``) is the
    running configuration when the system's deployment activates that profile
    (``SPRING_PROFILES_ACTIVE=docker`` in a compose file or manifest it runs by default, or
    ``-Dspring.profiles.active=docker`` in a Dockerfile's command or ``JAVA_OPTS``); its settings
    then count like the default ones, as does a profile file (``application-dev.properties``) the default
    file beside it activates (``spring.profiles.active=dev``).  Other profile documents stay opt-in."""
    deployed = {p.strip() for f in facts if f.kind == "config.env" and (f.get("name") or "").upper() in (
        "SPRING_PROFILES_ACTIVE", "SPRING_PROFILES_INCLUDE") for p in re.split(r"[\s,]+", f.get("value") or "") if p}
    # ... or a command line flag: ENTRYPOINT ["java", "-Dspring.profiles.active=docker", ...], JAVA_OPTS=-D...
    for f in facts:
        text = f.get("command") if f.kind == "docker.command" else f.get("value") if f.kind == "config.env" else None
        for m in re.finditer(r"(?:-D|--)spring\.profiles\.active=[\"']?([\w,.-]+)", text or ""):
            deployed.update(p for p in m.group(1).split(",") if p)
    # ... or the folder's own default file: ``spring.profiles.active=dev`` in bootstrap.properties makes
    # application-dev.properties beside it the running configuration
    by_folder: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "config.property" and not f.get("profile") and re.match(
                r"^spring\.profiles\.active(\[\d+\])?$", f.get("name") or "") and "$" not in (f.get("value") or ""):
            by_folder[(f.repository, _parent(f.path))].update(p for p in re.split(r"[\s,]+", f.get("value") or "") if p)
    if not deployed and not by_folder:
        return facts

    def active(f: Fact) -> bool:
        profiles = set((f.get("profile") or "").split(","))
        if f.get("profile_document"):
            return bool(profiles & deployed)
        return bool(profiles & by_folder.get((f.repository, _parent(f.path)), set()))

    return [replace(f, attrs=tuple((k, v) for k, v in f.attrs if k != "profile"))
            if f.kind == "config.property" and f.get("profile") and active(f) else f for f in facts]


def nested_compose_variants(services: list[Fact], variants: set[str]) -> dict[str, bool]:
    """Compose files inside a folder another compose file of the repository builds: the root
    ``docker-compose.yml`` builds ``customer-core``, and ``customer-core/nginx-loadbalancing/
    docker-compose.yml`` runs that code again, scaled behind a proxy.  Such a file is another way to
    run one component, a variant like ``docker-compose.prod.yml``: its extra services (the proxy) are
    not the system as it runs by default, and its service names (``app``) are not component names.
    Each maps to whether its folder lies strictly inside the built folder: then the whole folder
    (the proxy's configuration, its Dockerfile) belongs to that other way of running it."""
    builds: dict[tuple[str, str], set[str]] = defaultdict(set)  # (repository, compose file) -> folders
    for f in services:
        context = f.get("build_context") or ""
        if context and "$" not in context and not re.match(r"^[a-z]+://", context):
            builds[(f.repository, f.path)].add(
                norm_path(PurePosixPath(f.get("compose_dir") or ".").joinpath(context).as_posix()))
    nested: dict[str, bool] = {}
    for repo, path in sorted({(f.repository, f.path) for f in services}):
        here = _parent(path)
        for (other_repo, other), roots in builds.items():
            if other_repo != repo or other == path or other in variants or is_under(_parent(other), here):
                continue  # another repository, the file itself, a variant, or a file inside this one's folder
            inside = [root for root in roots if root and is_under(here, root)]
            if inside:
                nested[path] = nested.get(path, False) or all(root != here for root in inside)
    return nested


# Committed templates of a project's .env (kept out of git): `.env.example`, `env.example`, `.env.sample`, `.env-dist`,
# `TEMPLATE.env`;
# also the one kept for the container deployment (`.env.example_docker`, `.env.docker.example`), which the
# docker install guide copies to the .env compose reads.
DOTENV_TEMPLATE = re.compile(r"^\.?env[._-](?:docker[._-])?(example|sample|dist|template|tmpl|default|defaults)"
                             r"(?:[._-]docker)?$"
                             # ... or named the other way round (`TEMPLATE.env`, `example.env`); a `sample.env` in a
                             # config folder is the program's own sample settings (rudder-server's config/sample.env)
                             r"|^(example|template)\.env$", re.I)


# A committed template of any env file, named after it: `.env.dev-sample` of `.env.dev`, `.env.prod.example`.
TEMPLATE_TAIL = re.compile(r"[._-](example|sample|dist|template|tmpl)$", re.I)


def env_template_of(path: str, env_file: str) -> bool:
    """Is `path` a committed template (`.env.example`, `.env-dist`) of the `.env` at `env_file`, or one named
    after another env file (`.env.dev-sample` of `.env.dev`)?"""
    if folder(path) != folder(env_file):
        return False
    name, wanted = PurePosixPath(path).name, PurePosixPath(env_file).name
    if wanted == ".env" and DOTENV_TEMPLATE.match(name) is not None:
        return True
    return wanted != ".env" and TEMPLATE_TAIL.search(name) is not None and TEMPLATE_TAIL.sub("", name) == wanted


def env_template_only(path: str) -> bool:
    """A template of the project's .env named without the dot (`env.example`): its values stand for the
    .env compose reads, and are no settings of the component whose folder holds it."""
    name = PurePosixPath(path).name
    return bool(DOTENV_TEMPLATE.match(name)) and not name.startswith(".")


def service_profiles(f: Fact, dotenv: dict[tuple[str, str], dict[str, str]]) -> list[str]:
    """The profiles a compose service is under, after compose's own interpolation from the ``.env``
    beside the file: ``profiles: [${DOCKER_WEB_PROFILE:-}]`` with the variable unset is the empty
    profile, which compose ignores (the service always starts); a non-empty default is that profile."""
    here = f.get("compose_dir") or PurePosixPath(f.path).parent.as_posix()
    env = dotenv.get((f.repository, norm_path(PurePosixPath(here).joinpath(".env").as_posix())), {})
    out: list[str] = []
    for p in (f.get("profiles") or "").split(","):
        if "$" in p:  # an unset variable without a default is empty
            p = PLACEHOLDER.sub("", expand_placeholders(p, env.get)).strip()
        if p:
            out.append(p)
    return sorted(set(out))


def launched_compose(facts: list[Fact], projects: dict[tuple[str, str], frozenset[str]],
                     ) -> tuple[set[tuple[str, str]], dict[tuple[str, str], set[str]]]:
    """What the project's own start command runs (``compose.launch``: a Makefile ``start:`` recipe or
    a ``start.sh`` running ``docker compose -f compose.yaml -f compose.full.yaml up``): the compose files
    it names, as (repository, path), and the profiles it activates by (repository, compose file).
    Those files are the system as it runs by default, not opt-in variants.  `projects` is filled with
    the files each file is run together with: one compose project, whose services are distinct services
    even when two run one image (an API and its worker)."""
    files: set[tuple[str, str]] = set()
    profiles: dict[tuple[str, str], set[str]] = defaultdict(set)
    # (a README's first start command decides only among files with no default beside them: where Compose's
    # default file is, the README's `-f` files are options of it; and only files that exist)
    sizes: dict[tuple[str, str], int] = defaultdict(int)  # compose file -> its services
    for f in facts:
        if f.kind == "compose.service":
            sizes[(f.repository, f.path)] += 1
    defaults = {(r, folder(p)) for r, p in sizes if DEFAULT_COMPOSE.search(p)}
    # Of the README's start commands, one: the first naming profiles of the default file, else of alternative
    # stacks with no default file beside them the fullest (most services; the first of equals), which the
    # others are subsets or variants of (LocalExecutor beside CeleryExecutor, a single broker beside a full stack)
    # (a start command the README gives in a folder its section points to runs that folder's default file)
    facts = [_in_folder(f, defaults, sizes) if f.kind == "compose.launch" and f.get("folder") else f for f in facts]
    # (... unless the command names that default file itself with the files it adds: `docker compose -f
    # docker-compose.yml -f docker-compose.ms.yml up`, the stack the README starts)
    # (... and a file started before the README's plain start of the default file, holding only published images
    # under names the default file does not use (`-f docker-compose-env.yaml up -d` starting MySQL, Redis and
    # Kafka, then `docker compose up -d` starting the program): the stores the default file's programs stand on)
    built = {(f.repository, f.path) for f in facts if f.kind == "compose.service"
             and (f.get("build_context") or f.get("dockerfile") or not f.get("image"))}
    names_in: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "compose.service":
            names_in[(f.repository, f.path)].add((f.get("name") or "").lower())
    default_after = {f.repository: int(f.get("documented") or 0) for f in facts
                     if f.kind == "compose.launch" and f.get("default_after")}

    def layer(f: Fact, p: str) -> list[str]:
        """The default files of p's folder, when p is the layer under them (see above), else none."""
        if int(f.get("documented") or 0) >= default_after.get(f.repository, 0) or (f.repository, p) in built:
            return []
        under = sorted(q for r, q in sizes if r == f.repository and folder(q) == folder(p) and DEFAULT_COMPOSE.search(q))
        taken = set().union(*(names_in[(f.repository, q)] for q in under)) if under else set()
        return under if under and not names_in[(f.repository, p)] & taken else []

    def optional(f: Fact, p: str, named: list[str]) -> bool:
        return (f.repository, folder(p)) in defaults and not any(
            DEFAULT_COMPOSE.search(q) and folder(q) == folder(p) for q in named) and not layer(f, p)

    documented = [f for f in facts if f.kind == "compose.launch" and f.get("documented")
                  and (f.get("files") or f.get("profiles"))
                  and (f.get("in_folder") or not any(
                      (f.repository, p) not in sizes or optional(f, p, named)
                      for named in [[norm_path(x) for x in (f.get("files") or "").split(",") if x]] for p in named))]
    by_repo: dict[str, list[Fact]] = defaultdict(list)
    for f in documented:
        by_repo[f.repository].append(f)
    chosen = {min(fs, key=lambda f: (-sum(sizes[(f.repository, norm_path(x))] for x in (f.get("files") or "").split(",") if x),
                                     int(f.get("documented") or 0))) for fs in by_repo.values()}
    chosen |= _later_layers(facts, chosen, by_repo)
    for f in facts:
        if f.kind != "compose.launch" or (f.get("documented") and f not in chosen):
            continue
        named = [norm_path(p) for p in (f.get("files") or "").split(",") if p]
        if f.get("documented"):
            named += [q for p in list(named) for q in layer(f, p) if q not in named]
        files |= {(f.repository, p) for p in named}
        if len(named) > 1:
            project = frozenset(named)
            for p in named:
                projects[(f.repository, p)] = projects.get((f.repository, p), frozenset()) | project
        for p in named or [norm_path(PurePosixPath(PurePosixPath(f.path).parent, "docker-compose.yml").as_posix()),
                           norm_path(PurePosixPath(PurePosixPath(f.path).parent, "compose.yaml").as_posix())]:
            profiles[(f.repository, p)] |= {x for x in (f.get("profiles") or "").split(",") if x}
    return files, profiles


def _later_layers(facts: list[Fact], chosen: set[Fact], by_repo: dict[str, list[Fact]]) -> set[Fact]:
    """The README's later start commands of the same files that start the next layer of the chosen one's stack
    (`--profile infrastructure up`, then `--profile services up`): services of their profiles wait for
    (depends_on) services the chosen command started, so they run on top of it, not instead of it (unlike
    alternatives, `--profile cpu` or `--profile gpu`, neither of which waits for the other)."""
    profiles_of: dict[tuple[str, str], set[str]] = {}
    for f in facts:
        if f.kind == "compose.service":
            profiles_of[(f.repository, (f.get("name") or "").lower())] = \
                {p for p in (f.get("profiles") or "").split(",") if p}
    waits: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind == "compose.depends":
            waits[(f.repository, (f.get("owner") or "").lower())].add((f.get("target") or "").lower())
    out: set[Fact] = set()
    for first in sorted(chosen, key=Fact.order):
        running = {p for p in (first.get("profiles") or "").split(",") if p}
        started = {name for (r, name), own in profiles_of.items() if r == first.repository and own & running}
        for later in sorted(by_repo.get(first.repository, ()), key=lambda f: int(f.get("documented") or 0)):
            wanted = {p for p in (later.get("profiles") or "").split(",") if p}
            if later.get("files") != first.get("files") or not wanted or wanted <= running \
                    or int(later.get("documented") or 0) < int(first.get("documented") or 0):
                continue
            layer = {name for (r, name), own in profiles_of.items() if r == first.repository and own & wanted}
            if any(waits.get((first.repository, name), set()) & started for name in layer):
                out.add(later)
                running |= wanted
                started |= layer
    return out


def _in_folder(f: Fact, defaults: set[tuple[str, str]], sizes: dict[tuple[str, str], int]) -> Fact:
    """A README's `docker compose up` in the folder its section points to, as the launch of that folder's
    default compose file (none when the folder holds no default file)."""
    where = norm_path(f.get("folder") or "")
    named = sorted(p for r, p in sizes if r == f.repository and folder(p) == where and DEFAULT_COMPOSE.search(p)) \
        if (f.repository, where) in defaults else []
    attrs = {k: v for k, v in f.attrs if k != "folder"}
    attrs.update(files=",".join(named), in_folder="true" if named else "")
    return replace(f, attrs=tuple(sorted((k, v) for k, v in attrs.items() if v)))


def dotenv_value(env: dict[str, str], name: str) -> str:
    """A ``.env`` setting as compose reads it: its ``${OTHER}`` placeholders filled from the file's other
    settings, each as compose reads it in turn (``COMPOSE_PROFILES=${DOC_ENGINE},${DEVICE}`` beside
    ``DOC_ENGINE=${DOC_ENGINE:-elasticsearch}``: a setting naming itself takes its default); a placeholder
    nothing fills is empty."""
    def lookup(other: str, seen: frozenset[str] = frozenset({name})) -> str | None:
        if other in seen or other not in env:
            return None
        return expand_placeholders(env[other], lambda n: lookup(n, seen | {other}))
    value = env.get(name) or ""
    return PLACEHOLDER.sub("", expand_placeholders(value, lookup)) if "$" in value else value


def opt_in_services(services: list[Fact], dotenv: dict[tuple[str, str], dict[str, str]] | None = None,
                    launched: dict[tuple[str, str], set[str]] | None = None,
                    ) -> set[tuple[str, str, str | None]]:
    """(repository, compose file, service) of the services that start only when someone activates
    their profile.  In a file where some services have no profile, every profiled one is opt-in.  In
    a file where every service has one there is no default set: the profile most services share
    (``profiles: ["all"]``) is how the file is run, and only services outside it stay opt-in.  A
    profile given by a variable that is empty by default is none (see service_profiles). Profiles the
    ``.env`` beside the file activates (``COMPOSE_PROFILES=feature-complete``, which ``docker compose
    up`` honours) are on by default: their services start, as are those the project's start command
    activates (``docker compose --profile full up``, see launched_compose)."""
    by_file: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in services:
        by_file[(f.repository, f.path)].append(f)
    out: set[tuple[str, str, str | None]] = set()
    for (repo, path), group in sorted(by_file.items()):
        here = group[0].get("compose_dir") or PurePosixPath(path).parent.as_posix()
        env = (dotenv or {}).get((repo, norm_path(PurePosixPath(here).joinpath(".env").as_posix())), {})
        active = {p.strip() for p in dotenv_value(env, "COMPOSE_PROFILES").split(",") if p.strip()}
        active |= (launched or {}).get((repo, norm_path(path)), set())
        profiles: dict[int, list[str]] = {}
        for f in group:
            own = service_profiles(f, dotenv or {})
            profiles[id(f)] = [] if set(own) & active else own  # an active profile: it starts by default
        profiled = [f for f in group if profiles[id(f)]]
        if len(profiled) < len(group):
            main_profile = _programs_profile([f for f in group if not profiles[id(f)]], profiled, profiles)
            out |= {(repo, path, f.get("name")) for f in profiled if main_profile not in profiles[id(f)]}
            continue
        counts: dict[str, int] = defaultdict(int)
        for f in group:
            for p in profiles[id(f)]:
                counts[p] += 1
        main = min(counts, key=lambda p: (-counts[p], p))
        out |= {(repo, path, f.get("name")) for f in group if main not in profiles[id(f)]}
    return out


def _store_service(f: Fact) -> bool:
    """A compose service running a store: by its image, or built from a recipe named for one (``Dockerfile-postgres``)."""
    recipe = PurePosixPath(f.get("dockerfile") or "").name
    named = re.sub(r"^dockerfile[-_.]?|[-_.]?dockerfile$", "", recipe, flags=re.I) if recipe else ""
    return tech_for_image(f.get("image")) is not None or bool(named and tech_for_image(named) is not None)


def _programs_profile(default: list[Fact], profiled: list[Fact], profiles: dict[int, list[str]]) -> str | None:
    """Where the services a file starts by default are only the stores (a developer's database and object store)
    and every service building the project's programs is under a profile (``web``, ``builder``... each also in
    ``full``), the profile most of those program services share is how the file runs the system: its services
    start.  None otherwise (profiled services stay opt-in)."""
    if not default or not all(_store_service(f) for f in default):
        return None
    programs = [f for f in profiled if (f.get("build_context") or f.get("dockerfile")) and not _store_service(f)]
    if len(programs) < 2:
        return None
    counts: Counter[str] = Counter(p for f in programs for p in profiles[id(f)])
    best = min(counts, key=lambda p: (-counts[p], p))
    return best if counts[best] >= 2 else None


BROWSER_DIRS = frozenset({"static", "public", "wwwroot", "webapp"})
# Files a browser runs or a bundler packs for it.
BROWSER_FILE = re.compile(r"\.(m?[jt]sx?|vue|svelte|css|s[ac]ss|less|html?)$", re.I)


@dataclass
class SystemModel:
    """The resolved system before it becomes a graph."""

    name: str
    # Each container is the part of the model a rule declares it writes (repomodeler/writes.py).
    components: dict[str, Component] = field(default_factory=lambda: GuardedDict("components"))
    connections: dict[tuple[str, str, str], Connection] = field(default_factory=lambda: GuardedDict("connections"))
    unresolved: list[Unresolved] = field(default_factory=lambda: GuardedList("unresolved"))
    # Parts inside components (subsystems, ``parent`` set) and the links from them: apart from the
    # top level, which every rule and most consumers work on (see repomodeler/graph/subsystems.py).
    parts: dict[str, Component] = field(default_factory=lambda: GuardedDict("components"))
    part_links: dict[tuple[str, str, str], Connection] = field(default_factory=lambda: GuardedDict("connections"))
    # Protocol Buffers messages and enums the gRPC endpoints carry, by fully qualified name (graph/protos.py).
    messages: dict[str, MessageType] = field(default_factory=lambda: GuardedDict("messages"))

    def __setattr__(self, name: str, value: object) -> None:
        part = SYSTEM_PARTS.get(name)
        if part is not None and name in self.__dict__:
            check(part)
        object.__setattr__(self, name, guarded(part, value) if part else value)


SYSTEM_PARTS = {"components": "components", "connections": "connections", "unresolved": "unresolved",
                "parts": "components", "part_links": "connections", "messages": "messages"}


# What rules hand to each other besides the model itself.  A rule touching one of these must name it
# in its declaration (``Rule.state``); strict runs refuse anything else, so what flows between rules
# is written down.  (Memos of facts alone, like ``consts`` or ``dotenv``, are not shared state.)
SHARED_STATE: dict[str, str] = {
    "artifacts": "component id -> build artifacts it runs (from build units, for the programs it starts)",
    "browser_facts": "facts of code that runs in the user's browser (from the code rules, for the front doors)",
    "databases_named": "(database server, logical database) -> evidence of connection strings naming it",
    "env_values": "(component, setting) -> values its deployment and configuration give it",
    "ingress_routes": "service -> the ingress routes reaching it (from ingress, for the front doors)",
    "protocol_unknown": "tcp links made from a bare host:port (for the protocol fold)",
    "role_clients_of": "platform role -> the components that use a client of it",
    "file_holders": "process decomposition: which processes hold a file",
    "file_owner": "process decomposition: the process owning each file",
    "package_holders": "process decomposition: which processes hold a package",
    "package_owner": "process decomposition: the process owning each package",
    "packages": "the repository's code packages (folders of source files with their imports)",
    "process_kind": "process decomposition: each process's kind",
    "process_parent": "process decomposition: the component each process is part of",
    "process_primaries": "process decomposition: each component's primary process",
    "process_dispatchers": "process decomposition: components whose own program only picks a subcommand process",
    "process_reused": "process decomposition: processes that reuse another's code",
    "spawn_names": "process decomposition: names a spawned program is known by",
    "split_commands": "process decomposition: commands that start programs",
    "component_signs": "component -> its dependencies, annotations and settings (read once, for the platform roles)",
    "ports_served": "port -> the components serving on it (for localhost:PORT addresses)",
    "ports_published": "port -> the components publishing it on the host (for localhost:PORT addresses)",
    "framework_gateways": "components made gateways by a gateway framework they build on (Zuul, Spring Cloud "
                          "Gateway, YARP, Ocelot), not by the proxy inside their image",
    "withheld_settings": "(component or '' for all, setting line) -> why the value rules must not link it "
                         "(a handed setting its code does not read, a setting naming callers)",
}


class Shared:
    """A piece of resolver state shared between rules: reading or setting it inside a rule that did not
    declare it in ``Rule.state`` raises (strict runs), or is recorded (REPOMODELER_RECORD_STATE=FILE)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def _check(self, resolver: "ResolverBase") -> None:
        rule = resolver.__dict__.get("current_rule")
        if rule is None or self.name in rule.state or not resolver.__dict__.get("strict_writes"):
            return
        undeclared("REPOMODELER_RECORD_STATE", rule.id, self.name,
                   UndeclaredState(f"resolver rule {rule.id} uses shared state {self.name!r} but does not declare it"))

    def __get__(self, resolver: "ResolverBase | None", owner: type | None = None) -> object:
        if resolver is None:
            return self
        self._check(resolver)
        try:
            return resolver.__dict__["_shared"][self.name]
        except KeyError:
            raise AttributeError(self.name) from None

    def __set__(self, resolver: "ResolverBase", value: object) -> None:
        self._check(resolver)
        resolver.__dict__.setdefault("_shared", {})[self.name] = value


def project_name(facts: Iterable[Fact]) -> str | None:
    """The name a commit gives its project: a repository its root README links to on a code host
    (``github.com/getlago/lago``) whose name the README's title contains (``Lago``,
    ``Project pod tato Head``), the longest such; else a root manifest's name the heading contains
    (the Go module ``github.com/go-kratos/beer-shop`` under ``# [WIP] beer-shop``), else the name of an image a
    deployment of the commit runs (``kiwitcms/kiwi`` under ``Kiwi TCMS``). Two statements of the commit
    agreeing, so that the name never depends on where the files were put; None otherwise."""
    facts = list(facts)
    headings, links, manifests = _readme_identity(facts)
    # ... else the name of an image of no store the commit's deployments run (kiwitcms/kiwi under `Kiwi TCMS`,
    # amruthpillai/reactive-resume under `Reactive Resume`): the project's published image
    images = sorted({image_basename(f.get("image") or "") for f in facts if f.kind in ("compose.service", "k8s.workload")
                     and f.get("image") and "$" not in (f.get("image") or "") and not tech_for_image(f.get("image") or "")})
    # the repository a module path names on a code host (go.mod's github.com/redpanda-data/console/backend): of
    # links the heading names both of (`Redpanda Console` linking to redpanda and console), the one the code is in
    hosted = {_bare(m.group(1)) for f in facts if f.kind == "manifest"
              and (m := re.match(r"^(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/[^/]+/([^/]+)", f.get("name") or ""))}
    for names in (links, manifests, images):
        hits = [n for n in names if len(_bare(n)) >= 3 and any(_bare(n) in h for h in headings)]
        if names is links:
            # (a README titled `Support API` linking to the support app it serves: the heading names a part of that
            # project by a role, the API, not the project the link is to)
            hits = [n for n in hits if not all(h.replace(_bare(n), "", 1) in ROLE_SUFFIXES
                                               for h in headings if _bare(n) in h)]
        if hits:
            return sorted(hits, key=lambda n: (_bare(n) not in hosted, -len(n), n))[0]
    return None


# Words a project is named by after the name of the project it is a part of (`Support API` of `support`).
ROLE_SUFFIXES = frozenset({"api", "server", "service", "backend", "frontend", "worker", "app", "web", "ui", "admin",
                           "publisher", "manager", "client", "gateway"})
AGGREGATOR_SUFFIX = re.compile(r"[-_.](parent|root|aggregator|reactor|build)$", re.I)


# Hosts that name a platform's service by its address where people name it by what it is: the component's name,
# the address staying one of its names and its `host`.
ROLE_NAMED_HOSTS = {KUBE_API_HOST: "kubernetes-api"}


def _bare(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _readme_identity(facts: Iterable[Fact]) -> tuple[list[str], list[str], list[str]]:
    """(README headings, bare; repository names its links name; root manifests' names, their last part but a
    major version): the statements of a commit about what its project is called."""
    headings, links, manifests = [], [], []
    for f in facts:
        if f.kind == "project.heading":
            headings.append(_bare(f.get("title") or ""))
        elif f.kind == "project.link":
            links.append(f.get("name") or "")
        elif f.kind == "manifest" and "/" not in f.path.strip("/") and f.get("name"):
            parts = [p for p in (f.get("name") or "").strip().split("/") if p and not re.fullmatch(r"v\d+", p)]
            manifests.append(parts[-1] if parts else "")
    return headings, links, manifests


def linked_manifest_name(facts: Iterable[Fact]) -> str | None:
    """The name a README whose title is a picture gives its project: the repository it links to on a code
    host named like a root manifest (github.com/sissbruecker/linkding beside package.json's `linkding`). Two
    statements of the commit agreeing, weaker than project_name's heading: enough to know the project's own
    published image, not to call the vendor's hosts its own sites."""
    _headings, links, manifests = _readme_identity(facts)
    # (a root Maven or Gradle build aggregating modules is named for the project it builds: docs-parent, acme-root)
    named = {_bare(x) for m in manifests if m for x in (m, AGGREGATOR_SUFFIX.sub("", m))}
    hits = [n for n in links if len(_bare(n)) >= 3 and _bare(n) in named]
    return sorted(hits, key=lambda n: (-len(n), n))[0] if hits else None


# The stock images of a language's runtime or build tool (Docker Hub's official images), by the languages
# whose files they run: a container of one runs none of another language's code.
_RUNTIME_IMAGES = (
    (re.compile(r"^(library/)?(node|bun|oven/bun|denoland/deno)(:|$)"), ("javascript", "typescript", "tsx")),
    (re.compile(r"^(library/)?(python|pypy)(:|$)"), ("python",)),
    (re.compile(r"^(library/)?golang(:|$)"), ("go",)),
    (re.compile(r"^(library/)?(ruby|jruby)(:|$)"), ("ruby",)),
    (re.compile(r"^(library/)?(php|composer)(:|$)"), ("php",)),
    (re.compile(r"^(library/)?(openjdk|eclipse-temurin|amazoncorretto|maven|gradle)(:|$)"), ("java", "kotlin", "scala")),
    (re.compile(r"^mcr\.microsoft\.com/dotnet/"), ("csharp", "fsharp")),
)


@functools.lru_cache(maxsize=512)
def runtime_language(image: str) -> tuple[str, ...]:
    """The languages a stock runtime image (``node:22-bookworm``, ``python:3.12``) runs; () for any other."""
    name = image.strip().lower().removeprefix("docker.io/")
    for pattern, languages in _RUNTIME_IMAGES:
        if pattern.match(name):
            return languages
    return ()



# Words a manifest file's name gives a stage of the system other than production, and production's own.
PRE_PRODUCTION_WORDS = frozenset({"demo", "stage", "staging", "dev", "develop", "development", "test", "testing", "qa",
                                  "preview", "sandbox", "uat", "local"})
PRODUCTION_WORDS = frozenset({"prod", "production"})


def staged_manifests(facts: list[Fact]) -> set[tuple[str, str]]:
    """Kubernetes manifests named for a stage before production (``k8s-manifest.demo.yaml``,
    ``k8s-manifest.stage.yaml``, or kept in a folder so named, ``live/staging/``) beside the same file or
    folder named for production (``k8s-manifest.prod.yaml``, ``live/production/``): the
    same workloads deployed again for a demo or a staging site, under names of their own (``gauzy-demo-api``),
    not more of the system.  (repository, path) of each."""
    by_folder: dict[tuple[str, str], set[str]] = defaultdict(set)
    for f in facts:
        if f.kind.startswith("k8s."):
            by_folder[(f.repository, folder(f.path))].add(f.path)
    out: set[tuple[str, str]] = set()
    for (repo, _d), paths in sorted(by_folder.items()):
        staged: dict[str, tuple[tuple[str, ...], str]] = {}
        for p in paths:
            words = re.split(r"[._-]", re.sub(r"\.ya?ml$", "", PurePosixPath(p).name.lower()))
            stages = [w for w in words if w in PRE_PRODUCTION_WORDS | PRODUCTION_WORDS]
            if len(stages) == 1:
                staged[p] = (tuple(w for w in words if w != stages[0]), stages[0])
        produced = {base for base, stage in staged.values() if stage in PRODUCTION_WORDS}
        out |= {(repo, p) for p, (base, stage) in staged.items() if stage not in PRODUCTION_WORDS and base in produced}
    # ... and folders of one manifest tree named for the stages (.k8s/live/dev/, .k8s/live/api-sandbox/ beside
    # .k8s/live/production/): each deploys the same system again, for that stage
    by_parent: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for (repo, d), paths in by_folder.items():
        if d:
            by_parent[(repo, folder(d))][PurePosixPath(d).name.lower()].extend(paths)
    for (repo, _parent_dir), children in sorted(by_parent.items()):
        stages = {name: {w for w in re.split(r"[._-]", name) if w in PRE_PRODUCTION_WORDS | PRODUCTION_WORDS}
                  for name in children}
        if not any(words and words <= PRODUCTION_WORDS for words in stages.values()):
            continue
        out |= {(repo, p) for name, words in stages.items() if words and not words & PRODUCTION_WORDS
                for p in children[name]}
    return out


def unlisted_manifests(facts: list[Fact]) -> set[tuple[str, str]]:
    """(repository, path) of the Kubernetes manifest files a Skaffold configuration of the repository
    does not list (``manifests.rawYaml``; an Ingress left commented out of the list), under that
    configuration's folder: where Skaffold runs the project, the list is what it deploys."""
    lists: dict[str, list[tuple[str, str]]] = defaultdict(list)  # repository -> (configuration folder, glob)
    for f in facts:
        if f.kind == "skaffold.manifests" and f.get("pattern"):
            lists[f.repository].append((_parent(f.path), f.get("pattern") or ""))
    if not lists:
        return set()
    out: set[tuple[str, str]] = set()
    for f in facts:
        if not f.kind.startswith("k8s.") or f.repository not in lists or f.rule == HELM_CHART_RULE:
            continue
        bases = [b for b, _g in lists[f.repository] if is_under(f.path, b)]
        if bases and not any(fnmatch.fnmatchcase(f.path, g) for _b, g in lists[f.repository]):
            out.add((f.repository, f.path))
    return out


def released_manifests(facts: list[Fact], repos: set[str]) -> set[tuple[str, str]]:
    """(repository, path) of the plain Kubernetes manifests that deploy again what the charts the
    project's documents install deploy: files whose workloads all run an image a rendered chart's
    workload runs, and the files without workloads (Services, ConfigMaps) in folders holding only such
    files.  Manifests of workloads no chart renders (the other services, when Helm installs one
    optional service) stay the deployment."""
    if not repos:
        return set()
    charted = {(f.repository, image_basename(f.get("image") or "")) for f in facts
               if f.kind == "k8s.workload" and f.rule == HELM_CHART_RULE and f.repository in repos}
    files: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    plain = {(f.repository, f.path) for f in facts if f.kind.startswith("k8s.") and f.rule != HELM_CHART_RULE
             and f.repository in repos}
    for f in facts:
        if f.kind == "k8s.workload" and (f.repository, f.path) in plain:
            files[(f.repository, f.path)].append(f)
    # (manifests in an add-on folder, extras/prometheus, stay set aside as before: opt-in beside the release)
    doubled = {rp for rp, ws in files.items()
               if all((w.repository, image_basename(w.get("image") or "")) in charted for w in ws)
               or ADD_ON_DIR.search(rp[1])}
    kept_dirs = {(r, folder(p)) for (r, p) in files if (r, p) not in doubled}
    return doubled | {(r, p) for r, p in plain if (r, p) not in files and (r, folder(p)) not in kept_dirs}

DEPLOYMENT_KINDS = frozenset({"compose.service", "k8s.workload", "aspire.statement", "helm.template", "helm.release",
                              "iac.block", "cfn.resource", "dapr.component", "function.json"})


class ResolverBase:
    """State and primitives; the rules live in :mod:`components` and :mod:`connections`."""

    # (defined by ComponentRules, which reads a recipe's stages; the resolver is always composed with it)
    workspace_target: Callable[[str, str, str, str | None], str | None]

    def compose_project(self, repository: str, path: str) -> str:
        """The compose project a file belongs to: the files one start command runs together, else
        the file alone (a key: the project's first file)."""
        return min(self.compose_projects.get((repository, path), frozenset({path})))

    def __init__(self, name: str, results: list[ExtractResult]) -> None:
        self.current_rule: Rule | None = None  # the rule running now: what it makes is credited to it
        self.strict_writes = os.environ.get("REPOMODELER_STRICT_PASSES") == "1"
        self.model = SystemModel(name=name)
        # compose services built on others (`extends:`) are seen as Compose runs them
        # (and a compose file a README prints is the deployment only where the repository keeps none of its own)
        # (and the scrape targets Prometheus discovers from files its configuration names are its targets)
        results = [replace(r, facts=file_sd_targets(apply_compose_extends(printed_compose(r.facts)))) for r in results]
        self.results = sorted(results, key=lambda r: r.repository.name)
        # repository -> the name the project goes by ('' when its README does not say; a fixture case may name it)
        self.projects = {r.repository.name: project_name(r.facts) or r.repository.project or "" for r in self.results}
        self.linked_projects = {r.repository.name: linked_manifest_name(r.facts) or "" for r in self.results}
        self.alias: dict[str, str] = GuardedDict("aliases")  # name -> component id: the model's aliases
        every_fact = [f for r in self.results for f in r.facts]  # variant files and opt-in services included
        services = [f for f in every_fact if f.kind == "compose.service"]
        variants = compose_variants({f.path for f in services},
                                    {link: target for r in self.results for link, target in r.inventory.links.items()})
        variants |= renamed_variants(services, variants)
        variants |= stray_variants(services, frozenset((f.repository, f.path) for f in every_fact
                                                       if f.kind == "docker.from"))
        variants |= developer_stacks(services)
        variants |= {f.path for f in services if ADD_ON_DIR.search(f.path) or HARNESS_DIR.search(f.path)}
        # (a test stack is set aside for the deployment the repository has besides: its only compose file, a Laravel
        # Sail stack with a Playwright container among the app's, is still how the project runs)
        tests = test_stacks(services)
        if any(f.path not in tests | variants for f in services) or any(
                f.kind in DEPLOYMENT_KINDS and f.kind != "compose.service" for f in every_fact):
            variants |= tests
        else:  # ... or, when it is the only one, it starts this checkout's build several times with test settings
            # (one program each time: the same recipe, target and command; a web server and a worker of one image,
            # `rails server` and `sidekiq`, are the project's processes, not copies started for the tests)
            commands = {(f.path, f.get("owner")): f.get("command") for f in every_fact
                        if f.kind == "program.command" and f.get("source") == "compose"}
            builds = Counter((f.path, f.get("build_context"), f.get("dockerfile"), f.get("build_target"),
                              commands.get((f.path, f.get("name")))) for f in services
                             if f.path in tests and f.get("build_context"))
            variants |= {p for (p, *_build), n in builds.items() if n >= 2}
        variants |= template_catalogs(services)
        variants -= completing_variants(every_fact, variants, {
            r: {n.lower() for n in self.project_names(r)} for r in {f.repository for f in services}})
        variants -= supplying_variants(every_fact, variants)
        variants -= compose_included(every_fact, variants)
        # (repository, compose file) -> the files one start command runs it with (one compose project)
        self.compose_projects: dict[tuple[str, str], frozenset[str]] = {}
        launched_files, launched_profiles = launched_compose(every_fact, self.compose_projects)
        variants -= {p for _repo, p in launched_files}
        # ... and the other compose files beside the ones it names are what it leaves out (the overlays a
        # `make quickstart` running quickstart.yml with quickstart-standalone.yml does not add)
        launched_dirs = {(repo, PurePosixPath(p).parent.as_posix()) for repo, p in launched_files}
        variants |= {f.path for f in services if (f.repository, f.path) not in launched_files
                     and (f.repository, PurePosixPath(f.path).parent.as_posix()) in launched_dirs
                     and f.get("source") != "azd"}  # (azure.yaml beside them is no compose file: azd ships it)
        # ... and where the README's start command runs in a folder of setups (examples/compose beside
        # examples/traefik), the setups in the folders beside it are the other ways to run it
        pointed = {(f.repository, norm_path(f.get("folder") or "")) for f in every_fact
                   if f.kind == "compose.launch" and f.get("folder")}
        pointed = {(r, d) for r, d in pointed if any(r == lr and folder(lp) == d for lr, lp in launched_files)}
        beside = {(f.repository, f.path) for f in services if (f.repository, f.path) not in launched_files and any(
            r == f.repository and d and folder(f.path) != d and folder(folder(f.path)) == folder(d)
            for r, d in pointed)}
        variants |= {p for _r, p in beside}
        # ... and where each of those setups is an edition of the system with its own code beside its compose file
        # (src/Monolith, which the README runs, beside src/Microservices and src/ModularMonolith), the other
        # editions' code is no part of the system as it runs (never at the root: top-level folders are its parts)
        code_dirs = {(f.repository, folder(f.path)) for f in every_fact if f.kind == "manifest"}

        def holds_code(repo: str, d: str) -> bool:
            return any(r == repo and is_under(m, d) for r, m in code_dirs)

        editions = {(r, folder(p)) for r, p in beside if folder(folder(p)) and holds_code(r, folder(p))
                    and any(lr == r and holds_code(r, folder(lp)) for lr, lp in launched_files
                            if folder(folder(lp)) == folder(folder(p)))}
        nested = nested_compose_variants(services, variants)
        variants |= set(nested)
        # Folders holding nothing but another way to run a component (see nested_compose_variants).
        variant_dirs = sorted(p.rsplit("/", 1)[0] for p, own_folder in nested.items() if own_folder)
        # Compose services with `profiles:` start only when someone activates the profile
        # (`docker compose --profile seed up`): opt-in, like a variant file, with everything they declare.
        # .env settings by (repository, path), for compose's own interpolation (variant files included).
        # Dockerfiles copying their whole build context in (`COPY . /app`), as (repository, path): where a
        # compose build's code is (ComponentRules.build_root), read wherever a rule asks for a build's root
        self.whole_context_recipes: frozenset[tuple[str, str]] = frozenset(
            (f.repository, f.path) for f in every_fact if f.kind == "docker.copy"
            and any(src.strip() in (".", "./") for src in (f.get("sources") or "").split(",")))
        # the folder mounts of the compose files the system runs with (not variants'): whose settings a folder holds
        # (ComponentRules.property_owners), read wherever a rule asks
        self.compose_mounts: tuple[Fact, ...] = tuple(f for f in every_fact if f.kind == "compose.mount"
                                                      and f.path not in variants)
        # (repository, compose service) -> the languages the stock runtime its own recipe's final stage starts FROM
        # runs (see _recipe_runtime, owner_of)
        finals: dict[tuple[str, str], str] = {}
        for d in sorted((f for f in every_fact if f.kind == "docker.from"), key=Fact.order):
            finals[(d.repository, d.path)] = d.get("image") or ""  # (the last FROM: the final stage)
        self.recipe_runtimes: dict[tuple[str, str], tuple[str, ...]] = {}
        for f in services:
            context = f.get("build_context")
            if context is None or "$" in context + (f.get("dockerfile") or "") or re.match(r"^[a-z]+://", context):
                continue
            recipe = norm_path(join_path(norm_path(join_path(f.get("compose_dir") or "", context)),
                                         f.get("dockerfile") or "Dockerfile"))
            if finals.get((f.repository, recipe)):
                self.recipe_runtimes.setdefault((f.repository, (f.get("name") or "").lower()),
                                                runtime_language(finals[(f.repository, recipe)]))
        # (repository, path) of every recipe read (Dockerfile, app.Dockerfile, a lower-case dockerfile)
        self.recipe_paths: frozenset[tuple[str, str]] = frozenset(
            (f.repository, f.path) for f in every_fact if f.kind == "docker.from")
        # (repository, deployment name) -> the command a compose service or workload starts (whose code a
        # deployment of one build holds, see owner_of)
        self.deployment_commands: dict[tuple[str, str], str] = {
            (f.repository, (f.get("owner") or "").lower()): f.get("command") or ""
            for f in every_fact if f.kind == "program.command" and f.get("source") in ("compose", "kubernetes")}
        # repositories built as one Gradle or Maven build from their root (a build.gradle or pom.xml there):
        # a recipe copying the whole repository in builds all of it, not one program of it
        self.root_builds: frozenset[str] = frozenset(
            f.repository for f in every_fact if f.kind == "manifest" and "/" not in f.path
            and f.get("ecosystem") in ("gradle", "maven"))
        self.dotenv: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        for f in every_fact:
            if f.kind == "config.env" and f.get("source") == "dotenv" and f.get("name"):
                self.dotenv[(f.repository, norm_path(f.path))].setdefault(f.get("name") or "", f.get("value") or "")
        # A folder whose .env is kept out of git holds its committed template (`cp env.example .env`, as
        # the project's instructions say): compose interpolates from that template's values.
        # (the container install's template, `.env.example_docker`, before the host install's `.env.example`)
        for (repo, path), values in sorted(self.dotenv.items(),
                                           key=lambda kv: ("docker" not in PurePosixPath(kv[0][1]).name.lower(), kv[0])):
            if DOTENV_TEMPLATE.match(PurePosixPath(path).name):
                env = norm_path(PurePosixPath(path).parent.joinpath(".env").as_posix())
                if (repo, env) not in self.dotenv:
                    self.dotenv[(repo, env)] = dict(values)
        # (profiles a start command or the README activates hold for the whole Compose project: the files the
        # started file includes, and those they include, too)
        includes = compose_includes(every_fact, self.dotenv)
        for (repo, path), active in sorted(launched_profiles.items()):
            for q in sorted(included_from(includes, repo, [path]) - {path}):
                launched_profiles[(repo, q)] = launched_profiles.get((repo, q), set()) | active
        opt_in = opt_in_services(services, self.dotenv, launched_profiles)
        opt_in |= self._code_repository_stacks(services, variants)
        # A Helm chart is another way to deploy a system its compose files (or a Tye file) already run: its
        # rendered workloads, named by template helpers (release-chart), would stand beside the services they
        # are. Where a repository's compose files run its programs (not only a harness's databases and
        # dashboards), its charts are the opt-in way (see helm_charts).
        composed = {f.repository for f in services if f.path not in variants and f.get("source") != "tye" and (
            f.get("build_context") or f.get("dockerfile") or not tech_for_image(f.get("image")))}
        # ... unless the project's own documents install the chart (`helm install backend ./chart`): then the
        # releases are the deployment they describe.
        # (documented where a reader starts: in a Markdown file at the repository's top, not the guide of one of
        # several ways to deploy it kept beside those files, K8s/README.md)
        released = {f.repository for f in every_fact if f.kind == "helm.release" and "/" not in f.path}
        # repositories whose default deployment is compose (an install guide kept in a subfolder is another way)
        self.composed_repos: frozenset[str] = frozenset(composed)
        charted = {f.repository for f in every_fact if f.rule == HELM_CHART_RULE} - released
        # ... and so are they where the root README starts the system with Compose (`docker compose up`) and
        # never mentions an orchestrator (kubectl, Kubernetes, Helm, Nomad): the manifests kept beside it
        # (kubernetes/, k8s/) are another way to deploy it
        started = defaultdict(set)
        for f in every_fact:
            if f.kind == "project.start":
                started[f.repository].add(f.get("tool"))
        compose_started = {r for r, tools in started.items() if tools == {"compose"}} & composed
        # (of a documented release, only the manifests deploying what the charts deploy: the chart of one
        # optional service installed by Helm leaves the manifests of the others the deployment)
        doubled = released_manifests(every_fact, released - compose_started)
        # (of a repository run with Skaffold, the manifests its configuration does not list: not deployed)
        doubled |= unlisted_manifests(every_fact)
        doubled |= staged_manifests(every_fact)  # (and the manifests of a demo or staging site beside production's)
        # (and the manifests kompose translated a compose file into, `io.kompose.service` on each workload, where the
        # repository's compose files run its programs: the same stack written for Kubernetes, another way to run it)
        kompose_dirs = {(f.repository, PurePosixPath(f.path).parent.as_posix()) for f in every_fact
                        if f.kind == "k8s.workload" and f.repository in composed
                        and "io.kompose.service=" in (f.get("labels") or "")}
        doubled |= {(f.repository, f.path) for f in every_fact if f.kind.startswith("k8s.")
                    and (f.repository, PurePosixPath(f.path).parent.as_posix()) in kompose_dirs}
        self._facts: list[Fact] = sorted((
            f for f in every_fact if f.path not in variants
            and not (f.rule == HELM_CHART_RULE and f.repository in composed & charted)
            # and where they do, the repository's plain Kubernetes manifests are another way to deploy it
            # (a CustomResourceDefinition is the same resource type however the system is installed: kept)
            and not ((f.repository in compose_started or (f.repository, f.path) in doubled)
                     and f.rule != HELM_CHART_RULE and f.kind != "k8s.crd" and (
                         f.kind.startswith("k8s.") or f.kind == "config.env" and f.get("source") == "kubernetes"))
            and not any(is_under(f.path, d) for d in variant_dirs)
            and not any(r == f.repository and is_under(f.path, d) for r, d in editions) and not (
                opt_in and f.kind.startswith(("compose.", "config.env"))
                and (f.repository, f.path, f.get("name") if f.kind == "compose.service" else f.get("owner")) in opt_in)),
            key=Fact.order)
        self._facts = activate_deployed_profiles(self._facts)
        # (repository, folder or file) a compose file of an opt-in variant mounts (./deployment/nginx): a web
        # server's configuration kept there belongs to that variant, not to a server nothing here runs
        # (a variant mounting the whole repository, `.:/app`, is a developer's: it says nothing of one file)
        self.variant_mounts: frozenset[tuple[str, str]] = frozenset(
            (repo, mounted) for repo, mounted in (
                (f.repository, norm_path(join_path(f.get("compose_dir") or PurePosixPath(f.path).parent.as_posix(),
                                                   (f.get("source") or "").strip())))
                for f in every_fact if f.kind == "compose.mount" and f.path in variants
                and (f.get("source") or "").startswith("."))
            if mounted not in ("", "."))
        # Go main packages built or loaded as plugins are code of the program loading them (graph/go_plugins.py).
        self._facts = without_plugin_mains(self._facts)
        # ... as are the mains of a library module the root module replaces a dependency with (go_plugins.py)
        self._facts = without_library_module_mains(self._facts)
        self._facts = without_generator_mains(self._facts)  # and of code generators //go:generate runs
        # (repository, folder) of those generators: code run while developing, calling nothing for the system
        self.generator_dirs: frozenset[tuple[str, str]] = frozenset(generator_folders(every_fact))
        # Compose services of opt-in variant files and under profiles: their build folders are opt-in
        # too (see ComponentRules.variant_builds / profile_builds).
        self.opt_in_services: list[tuple[str, Fact]] = sorted(
            ("profile" if (f.repository, f.path, f.get("name")) in opt_in else "variant", f)
            for f in services if f.get("build_context")
            and (f.path in variants or (f.repository, f.path, f.get("name")) in opt_in))
        # no deployment at all (no compose service, Kubernetes or Nomad workload, chart, Aspire AppHost, infrastructure
        # template, Dapr component or function binding): an application whose install guide lives elsewhere
        self.deploys_nothing = not any(f.kind in DEPLOYMENT_KINDS for f in every_fact)
        # repositories whose deployments run only published images (a compose file of the stores a developer runs
        # the application beside, `docker/docker-compose-local.yml`: MySQL, Redis, nginx), building none of the
        # code, nor running it in a cluster: the application runs on the machine, as its process file says
        self.runs_on_machine = frozenset(
            r.repository.name for r in self.results
            if any(f.kind == "compose.service" for f in r.facts)
            and not any(f.kind in DEPLOYMENT_KINDS and (f.kind != "compose.service" or f.get("build_context")
                                                        or f.get("dockerfile")) for f in r.facts))
        # Kubernetes Services by name, and the namespaces the manifests name (`default` always): an address
        # `<service>.<namespace>` (http://router-internal.default:8889) is that Service's cluster DNS name
        self.kube_services = frozenset((f.get("name") or "").lower() for f in every_fact if f.kind == "k8s.service")
        self.kube_namespaces = frozenset({"default", *((f.get("namespace") or "").lower() for f in every_fact
                                                       if f.kind in ("k8s.service", "k8s.workload") and f.get("namespace"))})
        self.by_kind = FactView(self._facts, strict=os.environ.get("REPOMODELER_STRICT_PASSES") == "1")
        self.owner_cache: dict[tuple[str, str], str | None] = {}
        self._owner_state: tuple[int, int] = (-1, -1)  # (Roots.version, number of components) the memo is for
        self.artifacts: dict[str, set[str]] = defaultdict(set)  # component id -> build artifacts it runs
        self.framework_gateways: set[str] = set()
        self.browser_facts: list[Fact] = []
        self._code_files: list[tuple[str, str]] | None = None  # (repository, path) of source code files
        self._js_packages: set[tuple[str, str]] | None = None
        self._k8s_variants: set[tuple[str, str]] | None = None  # (repository, overlay/Component folder)  # (repository, folder) holding package.json
        # (database server component, logical database name) -> evidence of the connection strings naming it
        self.databases_named: dict[tuple[str, str], set[Evidence]] = defaultdict(set)
        # service an Ingress routes to -> [(ingress name, path, its declaration, the routing rule)]
        self.ingress_routes: dict[str, list[tuple[str, str, Evidence, Evidence]]] = defaultdict(list)
        # tcp links made from a bare host:port nothing else describes (see fold_unknown_protocols)
        self.protocol_unknown: set[tuple[str, str, str]] = set()
        self.created_by: dict[object, str] = {}  # component id or connection key -> the unit (pass) that made it
        # (owner, variable or property name) -> [(value, evidence)] from compose/k8s/.env/Spring config.
        self.env_values: dict[tuple[str, str], list[tuple[str, Evidence]]] = defaultdict(list)
        # (component, or "" for every component; a setting's or literal's line) -> why it links nothing
        self.withheld_settings: dict[tuple[str, Evidence], str] = {}
        self.consts: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)  # (repo, path, name)
        for f in self.facts:
            if f.kind == "const.string" and f.get("name"):
                self.consts[(f.repository, f.path, f.get("name") or "")].append(f)
        # Every name bound to a value, by scope (locals, the file, imports, the package, Q.NAME): what the
        # client-call resolver asks when an expression names something (see graph/constants.py).
        self.constants = ConstantIndex(f for kind in sorted(INDEXED_KINDS) for f in self.by_kind[kind])

    def project_of(self, repo: str) -> str:
        """The name repository `repo` goes by: what its root README and its own links or manifest agree
        on (:func:`project_name`); '' when it does not say. Rules that recognise the project by its own
        name read this and never the repository's label, which for a local folder is only what the folder
        is called, nor the URL or remote it came from (not part of the commit): one commit gives one model
        whatever the folder's name and however it was fetched."""
        return self.projects.get(repo, "")

    def _code_repository_stacks(self, services: list[Fact], variants: set[str]) -> set[tuple[str, str, str]]:
        """Of a system of several repositories, one a deployment repository (compose files, no code) running the
        published images of another input's code (`barassistant/server` of karlomikus/bar-assistant): that
        deployment is how the system runs, and the compose files of the repositories holding code are their
        developers' stacks (`build: .` with a Horizon worker and an nginx), another way to run a part of it."""
        if len(self.results) < 2:
            return set()
        code = {r.repository.name for r in self.results
                if any(x.language and x.role == "source" for x in r.inventory.files)}
        deploying = {f.repository for f in services if f.path not in variants} - code
        if not deploying or not code:
            return set()
        # (by the names the projects go by, never by a repository's label: a local folder's is only the user's name)
        names = {key(n) for r in code for n in self.project_names(r) if n}
        runs_ours = False
        for f in services:
            if f.repository not in deploying or f.path in variants or "$" in (f.get("image") or ""):
                continue
            owner, _, name = (f.get("image") or "").split("@")[0].rsplit(":", 1)[0].rpartition("/")
            owner = owner.rsplit("/", 1)[-1]
            if key(owner) in names or key(name) in names:
                runs_ours = True
        if not runs_ours:
            return set()
        return {(f.repository, f.path, f.get("name") or "") for f in services if f.repository in code}

    def project_names(self, repo: str) -> list[str]:
        """The names repository `repo`'s project goes by, first the one it is called: its README's heading
        agreeing with a link or manifest (:meth:`project_of`), then the repository a README titled by a
        picture links to named like a root manifest (github.com/acme/marks beside package.json's `marks`)."""
        return [n for n in (self.project_of(repo), self.linked_projects.get(repo, "")) if n]

    @property
    def facts(self) -> list[Fact]:
        """Every fact the system's resolution reads.  A rule reads facts through ``self.by_kind`` (the
        kinds it declares) or ``self.by_kind.every()`` (declaring ``"*"``): inside a rule, when strict,
        this list is refused so a declaration can't be bypassed."""
        rule = self.__dict__.get("current_rule")
        if rule is not None and self.strict_writes:
            raise AssertionError(f"resolver rule {rule.id} reads self.facts; read the kinds it declares via self.by_kind")
        return self._facts

    # ------------------------------------------------------------------ components
    def recipe_sources(self, repo: str) -> dict[str, frozenset[str] | None]:
        """Recipe path -> the repository paths (folders and files) its COPY and ADD instructions take from its own
        folder as the build context (`COPY app app` in web/Dockerfile: web/app), None for a recipe that copies its
        whole context or a path a build argument chooses (`COPY . .`, `COPY $DIR ...`): what its image holds is
        not told by name.  Globs (`package*.json`) are kept as written."""
        out: dict[str, set[str] | None] = {}
        for f in sorted(self.by_kind["docker.copy"], key=Fact.order):
            if f.repository != repo:
                continue
            held = out.setdefault(f.path, set())
            base = folder(f.path)
            for src in (f.get("sources") or "").split(","):
                src = src.strip().removeprefix("./").rstrip("/")
                if held is None or not src:
                    continue
                if src in (".", "*") or "$" in src:
                    held = out[f.path] = None
                    continue
                held.add(f"{base}/{src}" if base else src)
        return {path: frozenset(held) if held is not None else None for path, held in out.items()}

    def embedded_database(self, cid: str, chain: list[Evidence], via: str, technology: str = "sqlite") -> None:
        """The service keeps its data in an SQLite file (its drivers, a `sqlite:` URL it is handed), or another
        embedded store's (``boltdb``): one embedded database of that name (no server), unless the service is
        already known to use a database server."""
        comp = self.model.components.get(cid)
        if comp is None or comp.kind not in ("service", "gateway") or any(
                k[0] == cid and self.model.components[k[1]].kind == "database"
                and self.model.components[k[1]].attributes.get("technology") not in OBJECT_STORES
                for k in self.model.connections):
            return  # (an object store it also keeps files in, S3 or MinIO, is no database server it uses instead)
        existing = self.alias.get(technology)
        target = existing if existing and self.model.components[existing].kind == "database" else self.add_component(
            technology, "database", None, chain[0], attributes={
                "technology": technology, "embedded": "a file inside the program (no server)"}).id
        self.connect(cid, target, "sql", chain, kind="uses", attributes={"via": via})

    def deployment_subcommands(self) -> dict[str, str]:
        """Component -> the subcommand its Kubernetes workload or compose service starts its image's binary with
        (``args: [destination, -addr=:8086]``: ``destination``; see :func:`naming.subcommand`; after the binary's
        bare name, ``fleetcontroller gitjob``: ``gitjob``), the first such."""
        return {cid: word for cid, (_binary, word) in self.deployment_command_words().items()}

    def deployment_command_words(self) -> dict[str, tuple[str, str]]:
        """Component -> (the binary its deployment's command names by its bare name, '' when only arguments are
        given; the subcommand), the first such (see deployment_subcommands)."""
        out: dict[str, tuple[str, str]] = {}
        binaries: set[str] | None = None  # the names of the repositories' programs (read when first needed)
        for f in sorted([*self.by_kind["k8s.workload"], *self.by_kind["compose.service"]], key=Fact.order):
            cid = self.alias.get((f.get("name") or "").lower())
            command = f.get("command") or ""
            word = subcommand(command)
            if not cid or not word:
                continue
            binary = ""
            if binaries is None:
                binaries = {PurePosixPath(folder(g.path)).name.lower() for g in self.by_kind["program.main"]} \
                    | {(g.get("binary") or "").lower() for g in self.by_kind["program.build"]}
            if word in binaries:
                # `command: [fleetcontroller]`, `args: [gitjob]`: the binary by its bare name, then its subcommand
                binary, word = word, subcommand(command.split(None, 1)[1]) if len(command.split()) > 1 else None
                if word is None:
                    continue
            out.setdefault(cid, (binary, word))
        return out

    def new_people_actor(self, evidence: Evidence) -> str:
        """Make the actor standing for the people and programs outside the system (``user``; ``user-actor``
        when a program of the system is called ``user``) and return its id."""
        actor, n = "user", 1
        while actor in self.model.components or actor in self.alias:
            n += 1
            actor = "user-actor" if n == 2 else f"user-actor-{n - 1}"
        user = self.model.components[actor] = Component(
            id=actor, name="user", kind="user", repository=None, evidence={evidence},
            attributes={"role": "people and clients outside the system"})
        self.created_by[actor] = self.by_kind.current.name if self.by_kind.current else ""
        self.credit(user.rules)
        return actor

    def people_actor(self, evidence: Evidence) -> str:
        """The actor of the people and programs outside the system, made (with `evidence`) if there is none yet."""
        users = sorted(c.id for c in self.model.components.values() if c.kind == "user")
        return users[0] if users else self.new_people_actor(evidence)

    def add_component(self, name: str, kind: str, repository: str | None, evidence: Evidence,
                      aliases: tuple[str, ...] = (), attributes: dict[str, str] | None = None,
                      by_alias: bool = True) -> Component:
        """The component of that name: the one answering to it (by_alias), or of its id, else a new one."""
        if kind == "external" and name.lower() in ROLE_NAMED_HOSTS:
            # (a platform's service known by what it is, the Kubernetes API server, not by its in-cluster address)
            name, aliases = ROLE_NAMED_HOSTS[name.lower()], (name, *aliases)
        cid = (self.alias.get(name.lower()) if by_alias else None) or slug(name)
        if kind != "user" and getattr(self.model.components.get(cid), "kind", None) == "user":
            cid = f"{cid}-{kind}"  # a program named `user` made after the people-and-clients actor
        comp = self.model.components.get(cid)
        # A loopback name (compose `hostname: localhost` on a host-network service) names no component:
        # every program's `localhost` is its own machine, where the port says who answers.
        names = [a.lower() for a in (name, *aliases) if a and (a == name or a.lower() not in LOCAL_HOSTS)]
        if comp is None:
            # A new component's attributes and the names it answers to are part of making it: the
            # rule writes ``components``; adding them to an existing one writes ``attributes``/``aliases``.
            comp = Component(id=cid, name=name, kind=kind, repository=repository, evidence={evidence},
                             attributes={k: v for k, v in (attributes or {}).items() if v}, aliases=set(names))
            self.model.components[cid] = comp
            self.created_by[cid] = self.by_kind.current.name if self.by_kind.current else ""
            for a in names:
                dict.setdefault(self.alias, a, cid)
            self.credit(comp.rules)
            return comp
        if comp.kind == "service" and kind not in ("service", "external"):
            comp.kind = kind
        self.credit(comp.rules)
        comp.evidence.add(evidence)
        for k, v in (attributes or {}).items():
            if v and k not in comp.attributes:
                comp.attributes[k] = v
        for a in names:
            comp.aliases.add(a)
            self.alias.setdefault(a, cid)
        return comp


    # ------------------------------------------------------------------ rules
    def credit(self, rules: set[str]) -> None:
        """Name the running rule among those that made an element or added evidence to it."""
        if self.current_rule is not None:
            rules.add(self.current_rule.id)

    # ------------------------------------------------------------------ ownership
    def _command_rank(self, repo: str, name: str) -> int:
        """How a deployment's own command ranks it among deployments of one build for holding the code: a web
        server (`gunicorn app.wsgi`) first, then any other, then a worker or scheduler (`celery -A app beat`)."""
        command = self.deployment_commands.get((repo, name.lower()), "")
        if WEB_SERVER_COMMAND.search(command):
            return 0
        return 2 if BACKGROUND_COMMAND.search(command) else 1

    def _recipe_runtime(self, comp: Component) -> tuple[str, ...]:
        """The languages the stock runtime image a compose service's own recipe ends on runs (`FROM node:22` of
        docker/webpack/Dockerfile, `FROM php:8.3-fpm` of docker/php/Dockerfile): of services building one folder, the
        one whose runtime is not the file's language runs no such file.  () when unknown."""
        return self.recipe_runtimes.get((comp.repository or "", comp.name.lower()), ())

    def owner_of(self, repo: str, path: str) -> str | None:
        """The component whose source folder is the deepest prefix of the path (ties: a browser app sharing its
        folder with servers built there takes only browser files; of deployments built from one folder (a web
        server, its scheduler and workers), the one publishing ports holds the code; then the smaller id).
        Memoised until any component's folders change, or a component comes or goes."""
        state = (Roots.version, len(self.model.components))
        if state != self._owner_state:
            self.owner_cache.clear()
            self._owner_state = state
        key = (repo, path)
        if key not in self.owner_cache:
            best: tuple[int, str] | None = None
            browser = BROWSER_FILE.search(path) is not None
            language = language_for_path(path)
            for comp in self.model.components.values():
                depth = max((len(root) for r, root in comp.source_roots if r == repo and is_under(path, root)), default=-1)
                if depth < 0 or (best is not None and depth < best[0]):
                    continue
                # in a tie, the browser app owns browser files only, and only it does; a container of one
                # language's stock runtime (`node:22` mounting the project for its asset server) runs no file
                # of another language (the Python the service built from the project runs)
                runtime = runtime_language(comp.attributes.get("image") or "") or self._recipe_runtime(comp)
                rank = (0 if (comp.kind == "webapp") == browser else 1,
                        1 if runtime and language and language not in runtime else 0,
                        0 if comp.attributes.get("ports") else 1,
                        self._command_rank(comp.repository or "", comp.name))
                if best is None or depth > best[0] or (rank, comp.id) < best[2:]:
                    best = (depth, comp.id, rank, comp.id)
            self.owner_cache[key] = best[1] if best else None
        return self.owner_cache[key]

    # ------------------------------------------------------------------ images built without a Dockerfile
    def built_images(self) -> dict[tuple[str, str], dict[str, Evidence]]:
        """(repository, module folder) -> the names (basenames, without registry and tag) of the images
        its build tool makes of it without a Dockerfile, each with the line declaring it: Jib, Spring
        Boot's build-image, the .NET SDK's container publishing (``manifest.image`` of the module's own
        manifest), Quarkus' ``quarkus.container-image.name`` / ``.image`` in its configuration (the
        module is the nearest folder above it with a manifest); and those a publishing workflow builds
        from the module's recipe (``manifest.image`` of tool ``workflow``, naming the module), and a Makefile's
        ``docker build --tag`` recipe (tool ``makefile``) or an image build script's line (tool ``script``)."""
        out: dict[tuple[str, str], dict[str, Evidence]] = defaultdict(dict)
        for f in sorted(self.by_kind["manifest.image"], key=Fact.order):
            # (a publishing workflow names the module: the folder of the recipe it builds the image from)
            module = f.get("module") if f.get("tool") in ("workflow", "makefile", "script", "skaffold") else folder(f.path)
            if f.get("build_target") and f.get("dockerfile"):
                # one stage of a recipe building several programs from the whole context: the code that stage
                # copies in (COPY --from=build /src/Services/Orders/bin/... of `--target orders`)
                module = self.workspace_target(f.repository, f.get("dockerfile") or "", norm_path(module or ""),
                                               f.get("build_target")) or module
            for n in image_names(f.get("image") or ""):
                out[(f.repository, norm_path(module or ""))].setdefault(n, f.evidence)
                if f.get("recipe"):  # (a Maven plugin building a Dockerfile of its own folder, assembly/api/docker/)
                    out[(f.repository, norm_path(f.get("recipe") or ""))].setdefault(n, f.evidence)
        quarkus = [f for f in self.by_kind["config.property"] if f.get("name") in QUARKUS_IMAGE_KEYS
                   and not f.get("profile") and f.get("value") and image_named(f.get("value") or "")]
        if quarkus:
            modules = {(m.repository, norm_path(folder(m.path))) for m in self.by_kind["manifest"]}
            for f in sorted(quarkus, key=Fact.order):
                d = max((d for r, d in modules if r == f.repository and is_under(f.path, d)), key=len, default=None)
                if d is not None:
                    for n in image_names(f.get("value") or ""):
                        out[(f.repository, d)].setdefault(n, f.evidence)
        return out

    def image_modules(self) -> dict[str, dict[tuple[str, str], Evidence]]:
        """Image name key -> the modules (repository, folder) whose build tool makes an image of that
        name, each with the line declaring it."""
        out: dict[str, dict[tuple[str, str], Evidence]] = defaultdict(dict)
        for module, names in self.built_images().items():
            for n, ev in names.items():
                out[key(n)].setdefault(module, ev)
        return out

    def component_of_built_image(self, image: str, modules: dict[str, dict[tuple[str, str], Evidence]] | None = None
                                 ) -> tuple[str, Evidence] | None:
        """The component running the code of the one module whose build tool makes `image` (by its
        basename), with the line naming the image: the one component whose source folder is that
        module's, else the one owning the module's folder when no other module making an image lies
        under that component's folders.  None when no module, or more than one, makes it, or the
        module's code is no component's."""
        modules = self.image_modules() if modules is None else modules
        found = {m: ev for n in image_names(image) for m, ev in modules.get(key(n), {}).items()}
        if len(found) != 1:
            return None
        (repo, d), evidence = next(iter(found.items()))
        exact = sorted(c.id for c in self.model.components.values() if (repo, d) in c.source_roots)
        if len(exact) == 1:
            return exact[0], evidence
        if exact:
            return None  # several deployments build that folder: which one runs the image is not said
        owner = self.owner_of(repo, join_path(d, "x") if d else "x")
        if owner is None:
            return None
        roots = self.model.components[owner].source_roots
        others = {m for ms in modules.values() for m in ms} - set(found)
        if any(r == r2 and is_under(d2, root) for r, root in roots for r2, d2 in others):
            return None  # the component holds another module making another image: not the one program
        return owner, evidence

    def provenance(self) -> None:
        """Name, on every component and connection, the pass that made it and the query patterns or
        readers behind its evidence, so an element nobody expected can be traced to the rule."""
        rules: dict[tuple[str, str, int], set[str]] = defaultdict(set)
        for f in self.facts:
            if f.rule:
                rules[(f.repository, f.path, f.line)].add(f.rule)
        items: list[tuple[object, set[Evidence], dict[str, str]]] = [
            *((cid, c.evidence, c.attributes) for cid, c in self.model.components.items()),
            *((key, c.evidence, c.attributes) for key, c in self.model.connections.items())]
        # Every element names the rules behind it: those that made it or added evidence, and the rule
        # of the unit that made it (parts and links some units build directly).
        unit_rule = {r.unit: r.id for r in RULES}
        for key, made in [*self.model.components.items(), *self.model.connections.items(),
                          *self.model.parts.items(), *self.model.part_links.items()]:
            unit = self.created_by.get(key) or made.attributes.get("resolved_by", "")
            if unit in unit_rule:
                made.rules.add(unit_rule[unit])
        for item, evidence, attributes in items:
            found = sorted({r for ev in evidence for r in rules.get((ev.repository, ev.path, ev.line), ())})
            if self.created_by.get(item):
                attributes["resolved_by"] = self.created_by[item]
            if found:
                attributes["patterns"] = ", ".join(found[:6]) + (f" (+{len(found) - 6})" if len(found) > 6 else "")

    def in_k8s_variant(self, f: Fact) -> bool:
        """Is the manifest under a kustomize overlay or optional Component folder (opted into)?  An overlay
        kept as the ``base`` of a variant family (``manifests/ha/base`` patching ``../../base``) makes the whole
        family a variant: the installs rendered from it beside it (``manifests/ha/install.yaml``) too."""
        if self._k8s_variants is None:
            variants = {(v.repository, "" if v.get("folder") in (None, ".") else v.get("folder") or "")
                        for v in self.by_kind["k8s.variant"]}
            rendered = {(f.repository, folder(f.path)) for f in self.by_kind["k8s.workload"]}
            for r, d in sorted(variants):
                parent = folder(d)
                if PurePosixPath(d).name == "base" and parent and (r, parent) in rendered:
                    variants.add((r, parent))
            self._k8s_variants = variants
        return any(r == f.repository and is_under(f.path, d) for r, d in self._k8s_variants)

    def sample_manifest(self, f: Fact) -> bool:
        """Is a Kubernetes workload one of the repository's samples (``config/samples/``, ``samples/nginx/``,
        ``build/csisamples/``: the resources a guide applies to show the system at work) while the repository
        deploys workloads outside its samples too? A repository of samples only keeps them."""
        if not _in_samples_folder(f.path):
            return False
        deploying = getattr(self, "_non_sample_workload_repos", None)
        if deploying is None:  # (a memo of facts only: which repositories deploy more than samples)
            deploying = self._non_sample_workload_repos = {
                w.repository for w in self.by_kind["k8s.workload"] if not _in_samples_folder(w.path)}
        return f.repository in deploying

    def in_browser(self, f: Fact) -> bool:
        """JavaScript under a folder a web server hands to browsers (``static/``, ``public/``,
        ``wwwroot/``, ``webapp/``) runs in the user's browser, not in the server that serves it."""
        if f.language not in ("javascript", "typescript", "tsx"):
            return False
        parts = {p.lower() for p in f.path.split("/")[:-1]}
        if parts & BROWSER_DIRS or (not self.in_node_package(f.repository, f.path) and self.served_by_other_language(f)):
            self.browser_facts.append(f)
            return True
        return False

    def served_by_other_language(self, f: Fact) -> bool:
        """Does the component holding this script run in another language (a Go or Python web server
        handing out its pages' JavaScript)?"""
        owner = self.owner_of(f.repository, f.path)
        language = self.model.components[owner].language if owner else None
        return bool(language) and language not in ("javascript", "typescript", "tsx")

    @functools.cached_property
    def inventory_paths(self) -> frozenset[tuple[str, str]]:
        """(repository, path) of every file the repositories hold (inventories do not change while resolving)."""
        return frozenset((r.repository.name, x.path) for r in self.results for x in r.inventory.files)

    @functools.cached_property
    def inventory_folders(self) -> frozenset[tuple[str, str]]:
        """(repository, folder) of every folder holding a file at any depth ('' is the root)."""
        out: set[tuple[str, str]] = set()
        for repo, path in self.inventory_paths:
            while "/" in path:
                path = path.rsplit("/", 1)[0]
                if (repo, path) in out:
                    break
                out.add((repo, path))
            out.add((repo, ""))
        return frozenset(out)

    def recipe_owner(self, repo: str, path: str) -> str | None:
        """The component a recipe (its EXPOSE, its CMD) describes: the owner of its folder, unless that owner only holds
        a folder of several images' recipes built from one context (images/openwisp_postfix/Dockerfile beside
        images/openwisp_dashboard/ under a service rooted at images/: not told whose it is); else, for a recipe no
        component's folder holds (a workspace's root), the one program its CMD or ENTRYPOINT starts."""
        cid = self.owner_of(repo, path)
        comp = self.model.components.get(cid) if cid else None
        here = folder(path)
        if comp is not None and here and (repo, here) not in comp.source_roots and comp.attributes.get("built_by") != path:
            siblings = {folder(p) for r, p in self.recipe_paths if r == repo and folder(folder(p)) == folder(here)}
            if len(siblings) >= 2:
                cid = None
        return cid or self.recipe_started_component(repo, path)

    def recipe_started_component(self, repo: str, path: str) -> str | None:
        """The one running component of repository `repo` named for a program the recipe at `path` starts (the
        file name of its CMD or ENTRYPOINT's first word, a shell wrapper's script left out); else None."""
        started: set[str] = set()
        for f in self.by_kind["docker.command"]:
            if f.repository != repo or f.path != path:
                continue
            binary = started_binary(f.get("command") or "")  # (exec form or shell form alike)
            if binary and binary not in ("sh", "bash", "dumb-init", "tini", "exec", "gosu"):
                started.add(binary)
        named = sorted(c.id for c in self.model.components.values() if c.repository == repo
                       and c.kind in ("service", "gateway") and c.name.lower() in started)
        return named[0] if len(named) == 1 else None

    @functools.cached_property
    def code_paths(self) -> frozenset[tuple[str, str]]:
        """(repository, path) of every file in a source language."""
        return frozenset((r.repository.name, x.path) for r in self.results for x in r.inventory.files if x.language)

    def _module_names(self, repo: str, parent: str) -> frozenset[str]:
        """The names (without extension, lower-case) of the files and folders of code in folder `parent`."""
        memo: dict[tuple[str, str], frozenset[str]] | None = getattr(self, "_folder_modules", None)
        if memo is None:  # (a memo of the inventory only: what a folder holds never depends on the model)
            memo = self._folder_modules = {}
        if (repo, parent) not in memo:
            prefix = "" if parent == "." else parent + "/"
            memo[(repo, parent)] = frozenset(x[len(prefix):].split("/")[0].rsplit(".", 1)[0].lower()
                                             for r, x in self.code_paths if r == repo and x.startswith(prefix))
        return memo[(repo, parent)]

    @functools.cached_property
    def code_folders(self) -> frozenset[tuple[str, str]]:
        """(repository, folder) of every folder directly holding a file in a source language ('' at the root)."""
        return frozenset((r, p.rsplit("/", 1)[0] if "/" in p else "") for r, p in self.code_paths)

    def in_node_package(self, repo: str, path: str) -> bool:
        """Is a script inside a Node/Deno package (a ``package.json`` or ``deno.json`` in its folder or
        above)?  Script outside every package, in a component of another language, is page script."""
        if self._js_packages is None:
            self._js_packages = {(r.repository.name, norm_path(str(PurePosixPath(f.path).parent)))
                                 for r in self.results for f in r.inventory.files
                                 if PurePosixPath(f.path).name in ("package.json", "deno.json", "deno.jsonc")}
        folder = PurePosixPath(path).parent
        while True:
            if (repo, norm_path(str(folder))) in self._js_packages:
                return True
            if str(folder) in ("", "."):
                return False
            folder = folder.parent

    def cluster_service(self, host: str) -> str | None:
        """The component a Kubernetes cluster DNS name reaches: ``<service>.<namespace>.svc[.cluster.local]``,
        or the short ``<service>.<namespace>`` when the manifests declare that Service and name that namespace; or the
        one a serverless platform's address of an app names (Cloud Run's ``<service>-<hash>-<region>.a.run.app``,
        Azure Container Apps' ``<app>.<environment>.<region>.azurecontainerapps.io``), when a component answers to
        that name."""
        host = host.lower().rstrip(".")
        m = CLUSTER_DNS.match(host)
        if m:
            return self.alias.get(m.group(1))
        name, dot, namespace = host.partition(".")
        if dot and "." not in namespace and namespace in self.kube_namespaces and name in self.kube_services:
            return self.alias.get(name)
        m = PLATFORM_APP_HOST.match(host)
        if m:  # menu-service-luu7kai33a-uc.a.run.app: the Cloud Run service `menu-service`, when the system runs one
            return self.alias.get(next(g for g in m.groups() if g))
        m = OPENSHIFT_ROUTE_HOST.match(host)
        if m:
            # an OpenShift route's generated host, `<route>-<namespace>.apps.<cluster domain>`
            # (quarkus-cafe-web-cafe-helm.apps.cluster-2a53.example.com): the service the route is named for, the
            # longest leading part of the label a service of the system answers to
            label = m.group(1)
            for cut in sorted((i for i, ch in enumerate(label) if ch == "-"), reverse=True):
                cid = self.alias.get(label[:cut])
                if cid is not None and self.model.components[cid].kind in ("service", "webapp", "gateway"):
                    return cid
        return None

    def config_owner(self, f: Fact) -> str | None:
        owner = f.get("owner")
        if owner:
            return self.alias.get(owner.lower())
        return self.owner_of(f.repository, f.path)

    # ------------------------------------------------------------------ connections
    def drop_component(self, cid: str) -> None:
        """Take a component out of the model with the names that stood for it (its links are the
        caller's to move or drop first)."""
        del self.model.components[cid]
        self.created_by.pop(cid, None)
        for a in [a for a, target in self.alias.items() if target == cid]:
            del self.alias[a]
        self.move_part_links(cid, None)

    def move_part_links(self, cid: str, into: str | None) -> None:
        """The links to parts of components (a service -> a logical database of its server) that a component
        leaving the model made are made by `into` (the component it became part of), or go with it (None):
        no link may name a component the model no longer has."""
        for k in sorted(k for k in self.model.part_links if k[0] == cid):
            link = self.model.part_links.pop(k)
            if into is not None and into != k[1]:
                merged_link(self.model.part_links, (into, k[1], k[2]), link)

    def fold_component(self, cid: str, into: str) -> None:
        """Make `cid` a part of `into`: its links, names, evidence, code and attributes move over (the
        kept component's own attributes win), and `cid` is dropped."""
        comp = self.model.components.pop(cid)
        self.created_by.pop(cid, None)
        self.move_part_links(cid, into)
        for k in sorted(k for k in self.model.connections if cid in (k[0], k[1])):
            conn = self.model.connections.pop(k)
            self.created_by.pop(k, None)
            source = into if conn.source == cid else conn.source
            target = into if conn.target == cid else conn.target
            self.connect(source, target, conn.protocol, sorted(conn.evidence), kind=conn.kind,
                         attributes=dict(conn.attributes))
        for a in [a for a, target in self.alias.items() if target == cid]:
            self.alias[a] = into
        target = self.model.components[into]
        extra = {k: v for k, v in comp.attributes.items() if v and k not in target.attributes}
        kept = self.add_component(target.name, target.kind, comp.repository, min(comp.evidence),
                                  (comp.name, *sorted(comp.aliases)), extra or None)
        kept.evidence.update(comp.evidence)
        if comp.source_roots - kept.source_roots:  # (only what is new: each part written is a declared write)
            kept.source_roots.update(comp.source_roots)
        for name, port in comp.ports.items():
            if name not in kept.ports:
                kept.ports[name] = port

    def connect(self, source: str, target: str, protocol: str, evidence: list[Evidence], kind: str | None = None,
                attributes: dict[str, str] | None = None) -> None:
        if source == target:
            return
        tkind = self.model.components[target].kind
        kind = kind or ("uses" if tkind in ("database", "cache", "broker") else "calls")
        key = (source, target, protocol)
        conn = self.model.connections.get(key)
        if conn is None:  # its attributes are part of making it (``connections``), later ones ``attributes``
            conn = Connection(source=source, target=target, kind=kind, protocol=protocol, evidence=set(evidence),
                              attributes=dict(attributes or {}))
            self.model.connections[key] = conn
            self.created_by[key] = self.by_kind.current.name if self.by_kind.current else ""
            self.credit(conn.rules)
            return
        self.credit(conn.rules)
        conn.evidence.update(evidence)
        for k, v in (attributes or {}).items():
            conn.attributes.setdefault(k, v)


for _name in SHARED_STATE:  # each shared piece of state is a checked attribute of the resolver
    _descriptor = Shared()
    _descriptor.__set_name__(ResolverBase, _name)
    setattr(ResolverBase, _name, _descriptor)


# Folders of samples (samples/, config/samples/, csisamples/, crd-samples/)
SAMPLES_DIR = re.compile(r"^(.*samples|sample)$", re.I)


def _in_samples_folder(path: str) -> bool:
    return any(SAMPLES_DIR.match(part) for part in path.split("/")[:-1])


def merged_link(links: dict[tuple[str, str, str], Connection], key: tuple[str, str, str], link: Connection) -> Connection:
    """The link at `key` of `links` (made with `link`'s kind when there is none) with `link`'s evidence, rules and
    attributes added, its own attributes first: a link moving to the component its end became part of."""
    kept = links.get(key)
    if kept is None:
        kept = links[key] = Connection(source=key[0], target=key[1], kind=link.kind, protocol=key[2])
    kept.evidence.update(link.evidence)
    kept.rules |= link.rules
    for a, v in link.attributes.items():
        kept.attributes.setdefault(a, v)
    return kept
