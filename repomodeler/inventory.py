"""Inventory: list the files of a repository at its pinned commit and decide which to analyse.

For git repositories the list comes from the tree of the pinned commit (``git ls-tree``), so the
blob SHA of each file is known without reading it: it is the cache key for later stages.  Plain
directories are listed by git too (``ls-files --others --exclude-standard`` against a throw-away
git dir), which gives exact ``.gitignore`` semantics without touching the user's folder.
Symlinks are never followed: they are skipped and counted.
"""

from __future__ import annotations

import errno
import hashlib
import os
import posixpath
import re
import stat
import tempfile
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import yaml

from repomodeler.leftovers import tmp_prefix
from repomodeler.acquire import run_git
from repomodeler.extract.readers._doc_compose import INSTALL_GUIDE
from repomodeler.extract.readers._readme import ROOT_README, documented_launch
from repomodeler.extract.readers.registry import is_descriptor
from repomodeler.languages import language_for_path
from repomodeler.paths import RECIPE_FILE
from repomodeler.records import Inventory, RepomodelerError, Repository, SourceFile, Warning_

DEFAULT_MAX_BYTES = 1_000_000

VENDORED_DIRS = frozenset({
    "node_modules", "vendor", "dist", "build", ".venv", "venv", "third_party", "third-party", "3rdparty", "thirdparty",
    "3rd-party", "3rd_party",
    "bower_components", "__pycache__", ".git", ".tox", ".mypy_cache", ".gradle", ".idea", "target",
    "obj", ".next", ".nuxt", "coverage", "site-packages", "Pods", "generated", ".mvn", ".yarn",
})
# Build-output folders: generated files are skipped, but a deployment descriptor someone committed
# there (build/docker-compose.yml, target/k8s/app.yaml) is hand-written input, not output.
BUILD_OUTPUT_DIRS = frozenset({"build", "dist", "target", "obj", "out"})
DEPLOYMENT_FILE = re.compile(rf"(^|/)({RECIPE_FILE}|[^/]*\.ya?ml)$")
# Source-set roots below which folders are package names (com/example/orders is production code).
PACKAGE_ROOTS = (("src", "main"), ("src", "java"), ("src", "kotlin"))
MINIFIED = re.compile(r"\.(min|bundle|chunk)\.(js|css|mjs)$|[.-][0-9a-f]{8,}\.js$")
TEST_DIRS = frozenset({"test", "tests", "__tests__", "__e2e__", "spec", "specs", "e2e", "e2e-tests", "e2e_tests", "cypress",
                       "integration-tests", "it", "testing",
                       # test-support packages (Go's testutil, a package starting containers for tests)
                       "testutil", "testutils", "testhelper", "testhelpers", "test-utils", "test_utils", "test-helpers",
                       "test_helpers", "dockertest", "testsupport",
                       # fuzzing harnesses (fuzz/Jellyfin.Api.Fuzz/): programs feeding the code random input
                       "fuzz", "fuzzing", "fuzzers", "fuzztest",
                       # the stacks a test suite starts around the code (internal/acceptance/docker-compose.yml,
                       # test-infrastructure/docker-compose.yml): a harness, not the deployment
                       "acceptance", "test-infrastructure", "test_infrastructure", "test-infra", "test_infra",
                       "testinfra",
                       # HashiCorp's Enos scenarios (enos/modules/run_workloads/jobs/*.nomad.hcl): quality tests
                       "enos",
                       # the stack a smoke test starts around a plugin (plugins/x/smoke/docker-compose.yml)
                       "smoke",
                       # a Bitcoin regression-test network (docker/regtest/docker-compose.yml: bitcoind, Lightning nodes
                       # and their chains started for the test suite), no network a deployment joins
                       "regtest",
                       # behaviour-driven tests (bdd/docker-compose.yml: the server and one test runner per client SDK)
                       "bdd"})
# Folders named for a kind of tests (unittests, api_tests, rest-api-tests, load-tests).
# A .NET test project, named for the project it tests with a dotted suffix (NzbDrone.Core.Test, Ordering.UnitTests,
# Catalog.FunctionalTests, Basket.Specs): its fixtures' hosts (me.local, my.indexer.com) are no part of the system.
DOTNET_TEST_PROJECT = re.compile(r"\.(unit|integration|functional|acceptance|e2e|end2end|api|architecture|automation)?"
                                 r"tests?$|\.specs?$"
                                 # (the tests' shared helpers: Ombi.Test.Common, Acme.Tests.Shared)
                                 r"|\.tests?\.(common|shared|helpers?|utils?|utilities|infrastructure|fixtures)$")
KIND_OF_TESTS_DIR = re.compile(r"^(unit|integration|functional|acceptance|system|api|rest-api|e2e|end-to-end|load|"
                               r"perf|performance|smoke|regression|ui|contract|component)[-_]?tests?$"
                               r"|^e2e[-_]|[-_]testing$"  # e2e-runner, installation-testing
                               r"|^test(er)?[-_]?(progs?|programs?|bins?|binaries)$"  # the programs tests run (tester-progs)
                               # a product-named suite (shop-integrated-test, shop-integration-tests, shop-e2e)
                               r"|[-_](integrated|integration|end-to-end)[-_]?tests?$|[-_]e2e([-_]?tests?)?$"
                               # a package a test suite embeds or serves (mvis/test-embed, test-server, test_app)
                               r"|^tests?[-_](embed|server|app|apps|site|page|pages|client|harness|env|stack|rig|runners?)$")
EXAMPLE_DIRS = frozenset({"example", "examples", "demo", "demos", "tutorial", "tutorials", "benchmark", "benchmarks", "bench",
                          # a workshop's exercises (labs/networking/..., each deploying a demo of its own to try a
                          # feature of the platform on): the learner's, not the system's
                          "labs", "exercises",
                          # ... and a workshop's material, its steps each a copy of the app at that stage
                          # (Documents/Workshop/Step1/ ... Step6/): the learner's, not the deployed system
                          "workshop", "workshops",
                          # a project a generator copies for its users to start from (a skill's `scaffold/`, a
                          # boilerplate): a template of someone else's application, not a program of this system
                          "scaffold", "scaffolds", "boilerplate", "boilerplates"})
# A product-named folder of examples (shop-examples/, shop_examples/).  Not one example (basic-example/ may be the
# documented setup itself), nor samples: a folder of samples may hold the documented programs a platform ships to
# run beside it (an executor's sample the guide starts).
EXAMPLE_SUFFIX = re.compile(r"[-_]examples$")
# A folder named for the application a tool is shown or tested on (sample-applications/, demo-app/, example_app/,
# sample-application-under-test/), not the tool. (A `sample-app` beside an executor's samples may be a program the
# project ships: job-executor-samples/sample-app.)
EXAMPLE_APP_DIR = re.compile(r"^sample[-_]?applications?([-_].*)?$|^(demo|example)[-_]?apps?$|[-_]under[-_]test$", re.I)
# Words naming a load test's or benchmark's folder among others (benchmark-tool, shop-benchmark).
# (also an evaluation suite scoring an LLM application's answers, `evals/`, `shop_evals/`, run against the system)
HARNESS_WORDS = frozenset({"benchmark", "benchmarks", "loadtest", "loadtests", "eval", "evals"})
DOC_DIRS = frozenset({"doc", "docs", "documentation", "site-docs"})
DOC_WORDS = frozenset({"doc", "docs", "documentation"})  # old-docs, docs_v1: documentation by name
# OpenAPI/Swagger documents by name (the openapi reader's own pattern): read even in a docs folder.
API_DESCRIPTION = re.compile(r"^[^/]*(?:openapi|swagger)[^/]*\.(?:ya?ml|json)$", re.I)
# Folders that keep what the project no longer runs.
RETIRED_DIRS = frozenset({"deprecated", "archive", "archived", "obsolete", "attic", "bak", "unmaintained"})
FIXTURE_DIRS = frozenset({"fixture", "fixtures", "testdata", "test-data", "test_data", "tests-data", "tests_data", "mocks", "__mocks__", "__fixtures__",
                          # Go's tools skip folders starting with an underscore: _testdata is a test's inputs too
                          "_testdata", "_test_data", "_fixtures",
                          # a package of fixtures for tests (Go's pkg/testfixtures: containers the tests start)
                          "testfixtures", "test-fixtures", "test_fixtures", "testfixture",
                          # the input files of a package's tests (composeplugin/status_test_files/failed.yml)
                          "test_files", "test-files", "testfiles",
                          # resources a driver's tests build and run (drivers/docker/test-resources/docker/Dockerfile)
                          "test-resources", "test_resources", "testresources"})
# A folder of one test's inputs named for what it tests (status_test_files/, parser-test-files/).
FIXTURE_DIR_SUFFIX = re.compile(r"[-_]test[-_]?files$")
# Build and development tooling: CI pipelines, and the development container a contributor's editor
# starts (.devcontainer/Dockerfile is no component of the system).
CI_DIRS = frozenset({".github", ".gitlab", ".circleci", ".buildkite", ".azure-pipelines", ".ci", ".devcontainer",
                     ".woodpecker", ".drone", ".tekton", ".gitea", ".forgejo", ".semaphore", ".travis",
                     # a contributor's git hooks, editor settings and API-test hooks (husky's install.mjs, dredd's
                     # hooks program): tooling around the code, not part of the system
                     ".husky", ".githooks", ".vscode", ".dredd",
                     # a hidden folder of the build's own helper programs and a component workbench's settings
                     ".build-tools", ".tools", ".storybook",
                     # a contributor's local development environment (DDEV's compose fragments, .ddev/docker-compose.*.yaml;
                     # Lando's): the project's web and database containers on a laptop, not its deployment
                     ".ddev", ".lando"})
# A compose file in a folder named for a CI service (``develop/github/docker-compose.yml``, ``ci/compose.yml``)
# starts the stack a pipeline tests against; source code in such a folder (a Go package ``github``
# wrapping GitHub's API) is still source.
CI_NAMED_DIRS = frozenset({"ci", "github", "gitlab", "jenkins", "buildkite", "circleci", "travis", "pipelines"})
# A folder of the integrations a program talks to (keep/providers/kafka_provider/, warehouse/integrations/mssql/): a
# compose file inside one of them starts the third-party system that integration reaches (Kafka and ZooKeeper, a
# Graylog with its MongoDB) for its developers to try it against, never the program's own deployment.
INTEGRATION_DIRS = frozenset({"providers", "integrations", "connectors", "plugins", "extensions", "adapters", "addons",
                              "add-ons"})
# A contributor's development stack: Gitpod's compose file, `develop.yml` beside the real one.
# A contributor's development environment (docker/devenv/ with its compose file, nginx and database
# settings; a Gitpod workspace image): how to work on the code, not how the system runs.
# (a hidden `.dev/` folder: a developer's stack and settings beside the product, Leantime's .dev/docker-compose.yaml
# with its Xdebug settings and Selenium; and a folder named for a devbox, the single-machine sandbox a developer
# starts, Flyte's docker/devbox-bundled/ beside its production chart)
DEVELOPMENT_ENV_DIRS = frozenset({"devenv", "dev-env", "dev-environment", "devenvironment", "gitpod", ".dev",
                                  "local-dev", "localdev", "local_dev", "local-development",
                                  # a developer's scripts (lint, release notes, schema dumps): scripts-dev/, dev-scripts/
                                  "scripts-dev", "scripts_dev", "dev-scripts", "dev_scripts"})
# The recipe and settings of a developer's tool served beside the code (Storybook, the UI component
# workshop: Dockerfile.storybook, nginx.storybook.conf).
# (also the recipe of a cloud development environment's workspace image: .gitpod.Dockerfile, Dockerfile.gitpod)
DEVELOPMENT_TOOL_FILE = re.compile(r"(^|[._-])storybook([._-]|$)|(^|[._-])gitpod[._-]?(Dockerfile|dockerfile)$"
                                   r"|^Dockerfile[._-]gitpod$", re.I)
DEVELOPMENT_DESCRIPTOR = re.compile(r"(^|[.-])(gitpod|develop|development)([.-][^/]*)?\.ya?ml$", re.I)
# Compose/manifest variants for tests and CI ("sut" services, e2e stacks) are not the architecture.
TEST_DESCRIPTOR = re.compile(r"(^|[.-])(test|tests|ci|e2e|it|integration)([.-][^/]*)?\.(ya?ml)$", re.I)
TEST_FILE = re.compile(
    r"(^test_.*\.py$|^tests?\.py$|_test\.py$|_test\.go$|^test_?helpers?\.go$|^testutils?\.go$|^(tests?|test_utils?|test_helpers?)\.rs$|_tests?\.rs$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.(java|kt|cs)$|IT\.java$|_spec\.rb$|Test\.php$"
    # a shell script named for running tests (test.sh, run_browser_test.sh, e2e-tests.sh): the servers it starts
    # are a test rig's
    r"|(^|[_.-])(tests?|e2e)([_.-][^/]*)?\.(sh|bash)$)"
)

# A Python settings module for the test run (Django's kobo/settings/testing.py, test_settings.py): the fake hosts
# it names (`mongodb://fakehost/formhub_test`) are the tests', not the deployment's.
TEST_SETTINGS_FILE = re.compile(r"^(test_?settings|settings_?tests?|testing_?settings|settings_?testing)\.py$", re.I)
SETTINGS_DIRS = frozenset({"settings", "config", "conf", "configs"})


@dataclass(frozen=True)
class InventoryOptions:
    max_bytes: int = DEFAULT_MAX_BYTES



def _bad_name(path: str) -> bool:
    """A path no source file has: '.' or '..' parts, or a control character (a new line, an escape
    sequence, a bell, C1 codes), which would reach the model, the exports and terminals raw."""
    return (not path.isprintable() and any(unicodedata.category(ch) == "Cc" for ch in path)) \
        or any(p in ("..", ".") for p in path.split("/"))

def _parts(path: str) -> list[str]:
    """A repository path's segments (PurePosixPath(path).parts for the clean paths git lists, at a
    fraction of the cost: this runs for every file of every run)."""
    return [p for p in path.split("/") if p and p != "."]


COMPOSE_FILE = re.compile(r"(^|/)(docker-)?compose[^/]*\.ya?ml$", re.I)
DEPLOY_DIRS = frozenset({"k8s", "kubernetes", "kube", "manifests", "deploy", "deployment", "deployments", "helm",
                         "charts", "openshift", "kustomize"})


TEMPLATE_SUFFIX = re.compile(r"\.(example|sample|dist|template)$", re.I)


def promote_templates(files: list[SourceFile]) -> list[SourceFile]:
    """A settings template (``.env.example``) whose file the repository does not hold is what a
    deployment gets (``cp .env.example .env`` before ``docker compose up``, whose ``env_file: .env``
    names it), so it is read as that file would be; beside the real file it stays development-only."""
    paths = {f.path for f in files}
    return [replace(f, role="source") if f.role == "development" and TEMPLATE_SUFFIX.search(f.path)
            and TEMPLATE_SUFFIX.sub("", f.path) not in paths and classify_role(TEMPLATE_SUFFIX.sub("", f.path)) == "source"
            else f for f in files]


# A folder named for testing another folder beside it (zititest/ beside ziti/, api-tests/ beside api/, web_test/):
# group 1 is the folder it tests.
SIBLING_TEST_DIR = re.compile(r"^(.+?)[-_]?tests?$", re.I)


def mark_sibling_tests(files: list[SourceFile]) -> list[SourceFile]:
    """Files under a folder named for testing a folder beside it (``zititest/`` next to ``ziti/``: a separate
    module of test programs, simulations and traffic generators) are tests, whatever their own folders are
    called; a folder named so with no such sibling (``latest/``) stays what it is."""
    children: dict[str, set[str]] = defaultdict(set)
    for f in files:
        parts = f.path.lower().split("/")[:-1]
        for i in range(len(parts)):
            children["/".join(parts[:i])].add(parts[i].lower())
    tested: set[str] = set()
    for parent, names in children.items():
        for name in names:
            m = SIBLING_TEST_DIR.match(name)
            if m and m.group(1) != name and m.group(1) in names:
                tested.add(f"{parent}/{name}" if parent else name)
    if not tested:
        return files
    return [replace(f, role="test") if f.role == "source" and any(
        f.path.lower().startswith(t + "/") for t in tested) else f for f in files]


_ENV_FILE_KEY = re.compile(r"^(\s*)env_file\s*:\s*(.*?)\s*(?:#.*)?$")
_ENV_FILE_ITEM = re.compile(r"^(\s*)-\s*(?:path\s*:\s*)?['\"]?([^'\"#\s]+)")


def env_file_refs(text: str) -> set[str]:
    """The files a compose file's ``env_file:`` entries name, as written (a scalar, a flow list, a block
    list of paths or of ``- path:`` items)."""
    out: set[str] = set()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _ENV_FILE_KEY.match(line)
        if not m:
            continue
        rest = m.group(2).strip()
        if rest.startswith("["):
            out.update(x.strip().strip("'\"") for x in rest.strip("[]").split(",") if x.strip())
        elif rest:
            out.add(rest.strip("'\""))
        else:
            for item in lines[i + 1:]:
                n = _ENV_FILE_ITEM.match(item)
                if not n or len(n.group(1)) < len(m.group(1)):
                    break
                out.add(n.group(2))
    return {r for r in out if r and "$" not in r}


# Development-named env files a compose file may hand its services by name (`.env.dev`, `.env.local`); the
# committed templates (`.env.example`) are promote_templates' business.
NAMED_ENV_FILE = re.compile(r"(^|/)\.env\.[^/]*$|\.env$")
# A template of a named env file (`.env.local.example`, `.env.production.sample`), not of the plain `.env`.
NAMED_TEMPLATE = re.compile(r"(^|/)\.env\.[^/.]+\.(example|sample|dist|template)$", re.I)


# Top-level packages of the Python distributions every vendored set of dependencies pulls in (requests' own, the
# usual parsers and schedulers): three of them side by side in one folder make it a copy of site-packages.
SITE_PACKAGE_MARKERS = frozenset({"certifi", "urllib3", "requests", "idna", "chardet", "charset_normalizer", "six.py",
                                  "bs4", "dateutil", "pytz", "cherrypy", "mako", "markupsafe", "jinja2", "simplejson",
                                  "yaml", "apscheduler", "tzlocal", "arrow", "bleach", "cryptography", "werkzeug",
                                  "websocket", "pkg_resources", "setuptools", "typing_extensions.py", "packaging"})


def vendored_site_packages(files: list[SourceFile]) -> list[SourceFile]:
    """Files of a folder holding other projects' Python packages side by side (`libs/` of an application that
    ships its dependencies, installed with `pip install --target`): vendored, like `vendor/` or `node_modules/`.
    Such a folder is known by three or more of the packages every dependency set has (certifi, urllib3, idna...)
    as its direct children; its code is not the system's (its Kafka and RabbitMQ clients are no stores the
    application uses)."""
    children: dict[str, set[str]] = defaultdict(set)
    for f in files:
        if f.role != "source" or not f.path.endswith(".py"):
            continue
        parts = f.path.split("/")
        for i in range(1, len(parts)):  # (never the repository's root itself)
            children["/".join(parts[:i])].add(parts[i])
    sites = sorted(d for d, names in children.items() if len(names & SITE_PACKAGE_MARKERS) >= 3)
    if not sites:
        return files
    return [replace(f, role="vendored") if f.role == "source" and any(f.path.startswith(f"{d}/") for d in sites) else f
            for f in files]


def promote_named_env_files(files: list[SourceFile], texts: dict[str, str]) -> list[SourceFile]:
    """A development-named settings file (``.env.dev``) that a compose file the repository runs names in
    ``env_file:`` is what Compose hands that service: read as source, and so is the template standing for one
    the repository does not hold (``.env.local.example``).  `texts` holds the compose files' text by path."""
    named: set[str] = set()
    for path, text in texts.items():
        here = PurePosixPath(path).parent
        for ref in env_file_refs(text):
            if not ref.startswith("/"):
                named.add(posixpath.normpath((here / ref).as_posix()))
    # (and the committed template of one the repository keeps out of git, `.env.local.example` for `env_file:
    # .env.local`, which the README has people copy)
    paths = {f.path for f in files}
    templated = {f.path for f in files if f.role == "development" and TEMPLATE_SUFFIX.search(f.path)
                 and TEMPLATE_SUFFIX.sub("", f.path) in named - paths}
    return [replace(f, role="source") if f.role == "development" and (f.path in named or f.path in templated) else f
            for f in files]


# A bind mount in a compose file, short (`- ./local-dev/traefik/:/etc/traefik/:ro`, `- .:/var/www/html`) or long
# (`source: ./conf`) form: group 1 is the repository path mounted (relative to the compose file's folder).
_BIND_MOUNT = re.compile(r"""(?m)^\s*(?:-\s*|source:\s*)["']?(\.{1,2}(?:/[^:"'\s]*)?)(?::|["']?\s*$)""")


def bind_mounts(text: str) -> list[str]:
    """The repository folders a compose file mounts into its services, relative to the file's folder and
    normalised (`.` for the file's own folder, `backend` for `./backend/`)."""
    return [posixpath.normpath(m.group(1)) for m in _BIND_MOUNT.finditer(text)]


def promote_mounted_configs(files: list[SourceFile], texts: dict[str, str]) -> list[SourceFile]:
    """Configuration files in a development folder (local-dev/traefik/config/clair.yaml) that a compose file the
    repository runs mounts into a service (`./local-dev/traefik/:/etc/traefik/`) configure that service as it runs:
    read as source.  Only settings, not code (a mount of the working tree, `.:/app`, is a developer's)."""
    mounted: set[str] = set()
    for path, text in texts.items():
        here = PurePosixPath(path).parent
        for mount in bind_mounts(text):
            target = posixpath.normpath((here / mount).as_posix())
            if target not in (".", "") and not target.startswith(".."):
                mounted.add(target)
    if not mounted:
        return files
    # (a compose file kept in a mounted folder, `dev/` mounted whole, is a developer's other stack: not promoted)
    return [replace(f, role="source") if f.role == "development" and f.language is None and not COMPOSE_FILE.search(f.path)
            and any(f.path == m or f.path.startswith(m + "/") for m in mounted) else f for f in files]


# A root README's relative link on a line about Compose (``We maintain a docker-compose file that launches
# Redpanda and Console: [/docs/local](./docs/local)``): group 1 is the linked path.
_README_LINK = re.compile(r"\]\(\s*(?:\./|/)?([A-Za-z0-9_.][^)\s#?]*?)/?\s*(?:#[^)]*)?\)")


def readme_compose_links(text: str) -> set[str]:
    """Paths (folders or files) the root README links to on a line that speaks of Compose."""
    out: set[str] = set()
    for line in text.splitlines():
        if "compose" in line.lower():
            out |= {posixpath.normpath(m.group(1)) for m in _README_LINK.finditer(line) if "://" not in m.group(1)}
    return out


def root_readme(files: list[SourceFile]) -> SourceFile | None:
    """The repository's root README, read only when some compose file sits in an examples or docs folder, or
    when compose files at the root and in a folder could be a developer's stack and the one to run."""
    if not any(f.role in ("example", "docs") and COMPOSE_FILE.search(f.path) for f in files) and not (
            any(f.role == "source" and COMPOSE_FILE.search(f.path) and "/" in f.path for f in files)
            and any(f.role == "source" and COMPOSE_FILE.search(f.path) and "/" not in f.path for f in files)):
        return None
    return next((f for f in files if "/" not in f.path and ROOT_README.match(f.path)), None)


def pointed_deployments(files: list[SourceFile], readme: str, compose_texts: dict[str, str]) -> set[str]:
    """Compose files in a folder (among examples, docs, or a `docker/production/`) that the project names by their
    path as the one to run: in its root README (`curl -O https://raw.githubusercontent.com/<owner>/<repo>/main/docker/
    production/compose.example.yaml`) or in the opening comment of a compose file at hand (`# Please see the full
    example under examples/docker-compose.example.yml`)."""
    candidates = _folder_compose_files(files)
    if not candidates:
        return set()
    heads = [readme]
    for text in compose_texts.values():
        lines = []
        for line in text.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                break
            lines.append(line)
        heads.append("\n".join(lines))
    return {p for p in candidates for head in heads if re.search(rf"(?<![\w.-]){re.escape(p)}(?![\w.-])", head)}


def _folder_compose_files(files: list[SourceFile]) -> list[str]:
    """The compose files in a folder (not the root) that could be how the system runs, examples and docs included."""
    return sorted(f.path for f in files if f.role in ("source", "example", "docs") and COMPOSE_FILE.search(f.path)
                  and "/" in f.path)


def started_from_folder(files: list[SourceFile], readme: str) -> set[str]:
    """Compose files the README starts by name from a folder it changes into (`git clone .../acme/outpost`, `cd
    outpost/examples/docker-compose/`, then `docker-compose -f compose.yml -f compose-postgres.yml up`), as its
    start commands (``compose.launch``) give them."""
    candidates = set(_folder_compose_files(files))
    out: set[str] = set()
    for launch in documented_launch("", "README.md", readme.splitlines()):
        named = [p for p in (launch.get("files") or "").split(",") if p]
        if named and all("/" in p and p in candidates for p in named):
            out.update(named)
    return out


def _runs_working_tree(text: str, files: list[SourceFile]) -> bool:
    """Does a compose file mount the repository's code into a service (the root, or a folder holding source)? As a
    developer's stack does: the service runs the working tree (`.:/var/www/html`, `./backend:/app/backend`)."""
    for mount in bind_mounts(text):
        folder = "" if mount == "." else mount
        if any(f.role == "source" and f.language and (not folder or f.path.startswith(folder + "/")) for f in files):
            return True
    return False


# Images of the tools that watch a system (tracing, metrics, logs and their dashboards).
_WATCHING_IMAGE = re.compile(r"(^|/)(jaegertracing/|jaeger|openzipkin/|zipkin|otel/|opentelemetry-collector|prom/|"
                             r"prometheus|grafana|kibana|logstash|apm-server|apm/|fluent/|fluentd|fluent-bit|cadvisor|"
                             r"beats/|filebeat|metricbeat|"
                             r"node-exporter|alertmanager|signoz|victoriametrics|loki|tempo|pyroscope|elasticsearch|"
                             r"opensearch)", re.I)
# ... of which these show the watching (a search store alone is no telemetry stack).
_WATCHING_TOOL = re.compile(r"(^|/)(jaegertracing/|jaeger|openzipkin/|zipkin|otel/|opentelemetry-collector|prom/|"
                            r"prometheus|grafana|kibana|apm-server|apm/|alertmanager|signoz|loki|tempo)", re.I)


def watching_stacks(files: list[SourceFile], compose_texts: dict[str, str]) -> set[str]:
    """Compose files in a folder of the repository that start only the tools watching the system (Jaeger, an
    OpenTelemetry collector, Elasticsearch with Kibana and an APM server; nothing built here, nothing of the
    system's own) while the system's code lives elsewhere in the repository: a developer's telemetry stack
    (script/telemetry/elastic/docker-compose.yml), not how the system runs."""
    out: set[str] = set()
    for path, text in sorted(compose_texts.items()):
        if "/" not in path:
            continue
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        services = doc.get("services") if isinstance(doc, dict) else None
        if not isinstance(services, dict) or not services:
            continue
        images = [str(svc.get("image") or "") if isinstance(svc, dict) else "" for svc in services.values()]
        if any(isinstance(svc, dict) and svc.get("build") for svc in services.values()) \
                or not all(_WATCHING_IMAGE.search(i) for i in images) or not any(_WATCHING_TOOL.search(i) for i in images):
            continue
        stack = path.rsplit("/", 1)[0]
        if any(f.role == "source" and f.language and not f.path.startswith(stack + "/") for f in files):
            out.add(path)
    return out


def promote_example_deployments(files: list[SourceFile], readme: str = "",
                                compose_texts: dict[str, str] | None = None) -> list[SourceFile]:
    """A repository that builds images (a Dockerfile of its own) but deploys them only in an
    examples folder (examples/docker/docker-compose_default.yaml): those compose files are how it
    runs, so they are read as source.  A library's example stacks stay examples: without a
    Dockerfile of its own, a repository has no images to deploy, unless its root README (`readme`)
    points to the stack as how to launch the system (a compose file in docs/local/ that starts the
    product's published image beside the broker it needs).  (Settings templates standing in for a
    missing file are settled here too: :func:`promote_templates`.)"""
    files = mark_sibling_tests(promote_templates(files))
    watching = watching_stacks(files, compose_texts or {})
    if watching:
        files = [replace(f, role="development") if f.path in watching else f for f in files]
    # (the stack the README's start command runs in the folder it changes into is how the system runs, whatever
    # other compose files the repository keeps for its developers)
    started = started_from_folder(files, readme)
    pointed = pointed_deployments(files, readme, compose_texts or {}) | started
    # A compose file running the working tree (a developer's stack) beside the example the project names as the one
    # to run: the named example is the deployment, the developer's stack is not.
    developing = {p for p, text in (compose_texts or {}).items() if p not in pointed and _runs_working_tree(text, files)}
    if pointed and developing:
        files = [replace(f, role="development") if f.path in developing else f for f in files]
        return _promote_stacks(files, pointed)
    if started:
        return _promote_stacks(files, started)
    builds = deploys = False
    for f in files:
        if f.role != "source":
            continue
        name = f.path.rsplit("/", 1)[-1].lower()
        dirs = {d.lower() for d in _parts(f.path)[:-1]}
        if name.startswith("dockerfile") or name.endswith(".dockerfile"):
            builds = True
        if COMPOSE_FILE.search(f.path) or name in ("chart.yaml", "kustomization.yaml", "kustomization.yml") or (
                dirs & DEPLOY_DIRS and name.endswith((".yaml", ".yml"))):
            deploys = True
    if deploys:
        return files
    linked = readme_compose_links(readme) if readme else set()
    documented = {f.path for f in files if f.role in ("example", "docs") and COMPOSE_FILE.search(f.path)
                  and (f.path in linked or str(PurePosixPath(f.path).parent) in linked)}
    if documented:
        return _promote_stacks(files, documented)
    if not builds:
        return files
    # (a benchmark's or load test's stack, benchmark/docker-compose.yml with its metrics store, is a harness run
    # against the system, never how it runs)
    promoted = {f.path for f in files if f.role == "example" and COMPOSE_FILE.search(f.path)
                and not any(_harness_dir(d) for d in _parts(f.path)[:-1])}
    stacks = {str(PurePosixPath(p).parent) for p in promoted}
    if len(stacks) > 1:
        # several example stacks are alternatives (single-binary/, distributed/, multitenant/): the one named as
        # the default setup is how it runs; the others stay examples
        default = {d for d in stacks if PurePosixPath(d).name.lower() in DEFAULT_SETUP_DIRS | SINGLE_PROCESS_DIRS}
        if len(default) == 1:
            promoted = {p for p in promoted if str(PurePosixPath(p).parent) in default}
    if not promoted:
        # ... or only in its installation guide (docs/install/docker/plain/docker-compose.yml): the guide's one
        # stack, or of its alternatives (behind nginx, behind Traefik) the plain one
        guides = sorted(f.path for f in files if f.role == "docs" and COMPOSE_FILE.search(f.path))
        plain = [p for p in guides if _parts(p)[-2:-1] and _parts(p)[-2].lower() in DEFAULT_SETUP_DIRS]
        promoted = set(guides if len(guides) == 1 else plain if len(plain) == 1 else [])
    return _promote_stacks(files, promoted)


def _harness_dir(name: str) -> bool:
    """Is a folder named for a benchmark or load test (benchmark/, bench/, shop-benchmark/)?"""
    return bool((HARNESS_WORDS | {"bench"}) & set(re.split(r"[-_.]", name.lower())))


def _promote_stacks(files: list[SourceFile], promoted: set[str]) -> list[SourceFile]:
    """Read the compose files `promoted` as source, with the stack's own settings beside them (the
    prometheus.yaml and grafana-datasources.yaml it mounts)."""
    stacks = {str(PurePosixPath(p).parent) for p in promoted}
    promoted = promoted | {f.path for f in files if f.role in ("example", "docs") and str(PurePosixPath(f.path).parent)
                           in stacks and not f.path.lower().endswith((".md", ".txt", ".rst", ".png", ".svg"))}
    return [replace(f, role="source") if f.path in promoted else f for f in files]


# Folders holding the default of several documented setups (docs/install/docker/plain/).
DEFAULT_SETUP_DIRS = frozenset({"plain", "default", "basic", "simple", "standard", "minimal"})
# Example stacks running the product as one process: the setup its quick start uses among scaled-out variants.
SINGLE_PROCESS_DIRS = frozenset({"single-binary", "single_binary", "monolithic", "all-in-one", "allinone", "standalone",
                                 "getting-started", "getting_started", "quickstart", "quick-start"})


# Settings for a developer's machine, not the running system: templates to copy (`.env.example`,
# `config.yml.sample`, `settings.json.dist`) and the environments of local development and tests
# (`.env.development`, `.env.test`, `.env.local`); `.env.production` and a plain `.env` stay.
# A Go project's build script: Mage's magefile.go (its targets build, test and release the code) and magefiles/.
BUILD_SCRIPT = re.compile(r"^magefile\.go$", re.I)
# (releng/: release engineering, the scripts cutting a release; xtask/: Rust's convention for a workspace's build
# automation, `cargo xtask dist`, a program developers run, never deployed)
BUILD_SCRIPT_DIRS = frozenset({"magefiles", "releng", "xtask"})
# A package manager's project initializer kept beside the product (`npm init shop-app` runs packages/create-shop-app):
# it scaffolds a developer's new project once, and is no part of the running system.
INITIALIZER_DIR = re.compile(r"^create-[a-z0-9][a-z0-9-]*-app$")
# Helm values for an environment before production (values-dev.yaml, values.staging.yaml, preprod-values.yaml beside
# values-prod.yaml): the hosts and settings of a test cluster, not the system as it is deployed.
NONPROD_ENVIRONMENTS = (r"(?:dev|devel|develop|development|test|testing|qa|uat|stage|staging|preprod|pre-prod|"
                        r"preproduction|sandbox|int|integration|local|ci|perf|nonprod|non-prod|review)")
NONPROD_VALUES = re.compile(rf"^(?:values[-_.]{NONPROD_ENVIRONMENTS}|{NONPROD_ENVIRONMENTS}[-_.]values)\.ya?ml$", re.I)
DEVELOPMENT_FILE = re.compile(
    r"\.(example|sample|dist|template)$|^\.env\.(example|sample|template|dev|development|test|testing|local|ci)"
    r"(\.local)?$|^\.env\.[^/]*\.local$", re.I)


# A package's manifest or build file: with the code it builds, contributed code (see classify_role).
CONTRIB_CODE_FILE = re.compile(r"^(package\.json|go\.mod|pom\.xml|build\.gradle(\.kts)?|Cargo\.toml|pyproject\.toml|"
                               r"setup\.(py|cfg)|requirements[^/]*\.txt|Gemfile|composer\.json|[^/]+\.csproj|mix\.exs)$")


def classify_role(path: str) -> str:
    """Tag a path as source, test, example, docs, fixture or development; only 'source' feeds the
    architecture."""
    parts = _parts(path)
    dirs = [p.lower() for p in parts[:-1]]
    # (the image's own files kept beside the workflows, .github/docker/supervisord.conf that the root Dockerfile
    # copies in, are the deployment's, not the pipeline's)
    image_files = len(dirs) >= 2 and dirs[0] in (".github", ".gitlab") and dirs[1] in ("docker", "container", "containers")
    if dirs == [".github", "workflows"] and parts[-1].lower().endswith((".yml", ".yaml")):
        return "source"  # (a workflow is read only for the images it publishes from which recipe: readers/workflows.py)
    if (any(d in CI_DIRS for d in dirs) and not image_files) \
            or (COMPOSE_FILE.match(parts[-1]) and any(d in CI_NAMED_DIRS or CI_NAMED_DIRS & set(re.split(r"[-_.]", d))
                                                      for d in dirs)):
        return "ci"  # (a folder named for a CI service among other words too: docker/github_actions/)
    if parts[-1] == "Capfile" or (path.endswith(".rb") and (path in ("config/deploy.rb",)
                                                          or dirs[:2] == ["config", "deploy"]
                                                          or dirs[:2] == ["lib", "capistrano"])):
        # Capistrano's files (Capfile, config/deploy.rb, config/deploy/production.rb): the tool that ships the
        # release from a developer's machine (the repository it clones, the servers it logs into), not the program
        return "ci"
    if dirs[:1] == ["ci"]:
        # a root ci/ folder: a pipeline's stack files and settings (ci/base.yaml, ci/certbot/env), and the checks
        # and fixture programs its jobs run (ci/nodeEngineCheck.js, ci/pod/.../function-example/go.mod)
        return "ci"
    if COMPOSE_FILE.match(parts[-1]) and any(dirs[k:k + 3] == ["src", "main", "resources"] for k in range(len(dirs) - 2)):
        return "example"  # a stack kept among the files a module ships (a Grafana demo), not how the system runs
    # (a hack/ folder's manifests are the add-ons a Kubernetes project's developer scripts deploy into a developer's
    # cluster, operator/hack/addons_hydra.yaml, and its Go programs the generators those scripts run, hack/docgen;
    # its other files, a systemd unit an install script copies, stay)
    if DEVELOPMENT_FILE.search(parts[-1]) or DEVELOPMENT_DESCRIPTOR.search(parts[-1]) or NONPROD_VALUES.match(parts[-1]) \
            or any(d in DEVELOPMENT_ENV_DIRS or d in BUILD_SCRIPT_DIRS or INITIALIZER_DIR.match(d)
                   or "devbox" in re.split(r"[-_.]", d) for d in dirs) \
            or ("hack" in dirs and re.search(r"\.(ya?ml|go)$", parts[-1], re.I)) \
            or DEVELOPMENT_TOOL_FILE.search(parts[-1]) or BUILD_SCRIPT.match(parts[-1]):
        return "development"
    if TEST_DESCRIPTOR.search(parts[-1]):
        return "test"
    for d in dirs:
        if d in FIXTURE_DIRS or FIXTURE_DIR_SUFFIX.search(d):
            return "fixture"
    for d in dirs:
        if d in TEST_DIRS or KIND_OF_TESTS_DIR.search(d) or DOTNET_TEST_PROJECT.search(d):
            return "test"
    if dirs[:1] == ["integration"]:
        return "test"  # a repository's top-level suite of integration tests (a package deeper may be product code)
    if dirs[:1] == ["t"]:
        return "test"  # Perl's and Test::Nginx's root folder of tests (t/plugin/limit-count.t and its helper servers)
    if len(parts) >= 2 and "src" in dirs and "test" in dirs:
        return "test"
    if TEST_FILE.search(parts[-1]) or TEST_SETTINGS_FILE.match(parts[-1]) \
            or (parts[-1].lower() == "testing.py" and any(d in SETTINGS_DIRS for d in dirs)):
        return "test"
    if COMPOSE_FILE.match(parts[-1]) and (any(d in INTEGRATION_DIRS for d in dirs[:-1])
                                          or any({"connector", "connectors"} & set(re.split(r"[-_.]", d)) for d in dirs)):
        # an integration's sandbox: the third-party system it talks to (providers/kafka_provider/, or a package named
        # for a connector, external-processors/iggy-connector-flink/ starting Flink's job and task managers)
        return "example"
    if dirs[:1] == ["contrib"] and (CONTRIB_CODE_FILE.search(parts[-1]) or language_for_path(path) is not None):
        # code contributed beside the product at the repository's top (contrib/grpcplugins/..., contrib/vscode-cds/,
        # an integration's requirements.txt): add-ons and tools around it, not its programs; the deployment files
        # kept there (an nginx.conf, a systemd unit, a compose file) stay the deployment's. (A package named contrib
        # inside the code, django/contrib/, is the code's.)
        return "example"
    for i, d in enumerate(dirs):
        if (d.lstrip("._") in EXAMPLE_DIRS or EXAMPLE_SUFFIX.search(d) or EXAMPLE_APP_DIR.search(d)
                or HARNESS_WORDS & set(re.split(r"[-_.]", d))) \
                and not _in_package(dirs, i):
            return "example"  # (also a folder named for a benchmark: benchmark-tool/, packages/shop-benchmark/; and
            # one kept hidden or apart by a leading dot or underscore, .examples/, _examples/)
        if (d in DOC_DIRS or (DOC_WORDS & set(re.split(r"[-_.]", d)) and not _jvm_module_file(dirs[i + 1:], parts[-1]))) \
                and not _in_package(dirs, i):  # (nor is a package of that name: com/sismics/docs/rest)
            # (a folder named by one word of documentation that is a Maven or Gradle module, docs-core/pom.xml and its
            # src/main/java, is a project's code module named for its product, Teedy's `docs`, not documentation)
            # an API description is the interface's specification wherever it is kept (docs/openapi.yaml)
            # ... and so is an installation guide, for the compose file it prints (docs/getting-started/docker.mdx)
            return "source" if API_DESCRIPTION.search(parts[-1]) or INSTALL_GUIDE.match("/".join(parts)) else "docs"
        if d in RETIRED_DIRS and not _in_package(dirs, i):
            return "retired"
    return "source"


def _jvm_module_file(below: list[str], name: str) -> bool:
    """Is a file, `below` the folders under a module's folder, that module's build file or in its Maven/Gradle
    source tree (``src/main/...``, an Android app's ``app/src/main/...``)?"""
    if not below:
        return name in ("pom.xml", "build.gradle", "build.gradle.kts")
    return any(below[k:k + 2] == ["src", "main"] for k in range(len(below) - 1))


def _in_package(dirs: list[str], i: int) -> bool:
    """Is folder `i` a segment of a language package path (``src/main/java/com/example``)?"""
    before = dirs[:i]
    return any(before[k:k + 2] == list(root) for root in PACKAGE_ROOTS for k in range(len(before) - 1)) \
        or (i >= 1 and before[-1] in ("com", "org", "net", "io", "de", "fr", "nl", "uk", "me"))


def _skip_reason(path: str, size: int, options: InventoryOptions) -> str | None:
    parts = _parts(path)
    vendored = {p for p in parts[:-1] if p in VENDORED_DIRS}
    # (an ASP.NET web root's client libraries, wwwroot/lib/ where LibMan and the templates put jQuery, Bootstrap and
    # editors: other projects' code, whatever `lib` means elsewhere)
    vendored |= {p for i, p in enumerate(parts[1:-1], 1) if p.lower() == "lib" and parts[i - 1].lower() == "wwwroot"}
    if vendored and not (vendored <= BUILD_OUTPUT_DIRS and DEPLOYMENT_FILE.search(path)):
        return "vendored"
    if MINIFIED.search(parts[-1]):
        return "minified"
    if size > options.max_bytes:
        return "too_large"
    return None


def _wanted(path: str) -> bool:
    """Is this a file some extractor reads (a source language's, or one a descriptor reader claims)?
    Everything else is not even counted as skipped."""
    return language_for_path(path) is not None or is_descriptor(path)


def _count(skipped: dict[str, int], reason: str) -> None:
    skipped[reason] = skipped.get(reason, 0) + 1


def link_target(link: str, text: str) -> str | None:
    """Where an in-repository symlink at `link` whose content is `text` points, as a repository path;
    None for an absolute target or one leaving the repository (never followed)."""
    if not text or "\0" in text or "\n" in text or text.startswith("/"):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(link), text))
    if target in (".", "..") or target.startswith("../") or _bad_name(target):
        return None
    return target


def compose_links(candidates: dict[str, str], files: list[SourceFile]) -> dict[str, str]:
    """Of symlinks named like compose files (path -> link text), those pointing at a compose file the
    inventory keeps: path -> target.  A link to a folder, outside, to another link or to a skipped
    file is left out (and counted as a skipped symlink by the caller)."""
    kept = {f.path for f in files}
    out: dict[str, str] = {}
    for link, text in sorted(candidates.items()):
        target = link_target(link, text)
        if target is not None and target in kept and COMPOSE_FILE.match(PurePosixPath(target).name):
            out[link] = target
    return out


def cat_blobs(checkout: Path, shas: list[str]) -> dict[str, bytes]:
    """The contents of git objects by SHA, in one `git cat-file --batch` (missing ones are left out)."""
    proc = run_git(["cat-file", "--batch"], cwd=checkout, input_bytes="\n".join(shas).encode() + b"\n")
    data = proc.stdout
    by_sha: dict[str, bytes] = {}
    pos = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        if nl < 0:
            break
        header = data[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] == b"missing" or not header[2].isdigit():
            continue
        size = int(header[2])
        by_sha[header[0].decode()] = data[pos:pos + size]
        pos += size + 1
    return by_sha


def _read_link_texts(repo: Repository, shas: dict[str, str]) -> dict[str, str]:
    """The contents (target paths) of symlink blobs, path -> text."""
    if not shas:
        return {}
    by_sha = cat_blobs(repo.checkout, sorted(set(shas.values())))
    return {path: by_sha.get(sha, b"").decode("utf-8", "replace") for path, sha in shas.items()}


def list_git(repo: Repository, options: InventoryOptions) -> Inventory:
    assert repo.commit is not None
    proc = run_git(["ls-tree", "-r", "-l", "-z", "--full-tree", repo.commit], cwd=repo.checkout)
    if proc.returncode != 0:
        detail = (proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["git ls-tree failed"])[-1]
        raise RepomodelerError(f"error: cannot list the files of '{repo.name}' at {repo.commit[:12]} ({detail[:200]}); "
                               "check that the repository is not corrupt")
    files: list[SourceFile] = []
    skipped: dict[str, int] = {}
    link_shas: dict[str, str] = {}  # symlinks named like compose files -> their blob (the target's path)
    for entry in proc.stdout.split(b"\0"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        mode, otype, sha, size_text = meta.split(None, 3)
        try:
            path = raw_path.decode("utf-8")
        except UnicodeDecodeError:
            _count(skipped, "bad_name")
            continue
        if _bad_name(path):
            _count(skipped, "bad_name")
            continue
        if mode == b"120000":
            if COMPOSE_FILE.match(PurePosixPath(path).name):
                link_shas[path] = sha.decode()
            else:
                _count(skipped, "symlink")
            continue
        if otype == b"commit":
            _count(skipped, "submodule")
            continue
        if otype != b"blob" or not _wanted(path):
            continue
        size = int(size_text.strip()) if size_text.strip().isdigit() else 0
        reason = _skip_reason(path, size, options)
        if reason:
            _count(skipped, reason)
            continue
        files.append(SourceFile(path=path, blob=sha.decode(), size=size, language=language_for_path(path),
                                role=classify_role(path)))
    files.sort()
    links = compose_links(_read_link_texts(repo, link_shas), files)
    for _ in set(link_shas) - set(links):
        _count(skipped, "symlink")
    files = vendored_site_packages(files)
    readme = root_readme(files)
    # (the compose files at hand, read once, and only when they may say something of other files: a named env file,
    # an example or docs compose file they may name, a compose file in a folder that may be a telemetry stack)
    texts = _compose_texts(repo, files, always=readme is not None or any(
        f.role == "source" and COMPOSE_FILE.search(f.path) and "/" in f.path for f in files) or any(
        f.role == "development" and f.language is None and "/" in f.path for f in files))
    text = cat_blobs(repo.checkout, [readme.blob]).get(readme.blob, b"").decode("utf-8", "replace") if readme else ""
    return Inventory(repository=repo, files=settle_roles(files, text, texts), skipped=skipped, links=links)


def settle_roles(files: list[SourceFile], readme: str, texts: dict[str, str]) -> list[SourceFile]:
    """The roles the compose files at hand (`texts`) and the root README (`readme`) give files beyond their names:
    env files and mounted settings a running service takes, and example stacks that are how the system runs."""
    files = promote_mounted_configs(promote_named_env_files(files, texts), texts)
    return promote_example_deployments(files, readme, texts)


def _compose_texts(repo: Repository, files: list[SourceFile], always: bool = False) -> dict[str, str]:
    """The text of the repository's compose files (source role), by path, when some development-named file
    could be one they name (or `always`)."""
    # (a template counts for the named file it stands for, `.env.local.example` for a missing `.env.local`)
    if not always and not any(f.role == "development" and NAMED_ENV_FILE.search(f.path)
                              and (not TEMPLATE_SUFFIX.search(f.path) or NAMED_TEMPLATE.search(f.path)) for f in files):
        return {}
    compose = [f for f in files if f.role == "source" and COMPOSE_FILE.search(f.path) and f.size <= 1_000_000]
    by_sha = cat_blobs(repo.checkout, sorted({f.blob for f in compose})) if compose else {}
    return {f.path: by_sha[f.blob].decode("utf-8", "replace") for f in compose if f.blob in by_sha}


def list_dir(repo: Repository, options: InventoryOptions) -> Inventory:
    root = repo.checkout
    # (a Ctrl-C reaches git too: the folder may still be being written when the interrupt unwinds; what is left
    # is swept by repomodeler.leftovers, and the interrupt, not a cleanup error, is what the user sees)
    with tempfile.TemporaryDirectory(prefix=tmp_prefix("repomodeler-ls-"), ignore_cleanup_errors=True) as tmp:
        init = run_git(["init", "--quiet", "--bare", tmp])
        if init.returncode != 0:
            raise RepomodelerError("error: cannot create a temporary folder to list files; check TMPDIR is writable")
        proc = run_git([f"--git-dir={tmp}", f"--work-tree={root}", "ls-files", "--others", "--exclude-standard", "-z"],
                       cwd=root)
    if proc.returncode != 0:
        detail = (proc.stderr.decode("utf-8", "replace").strip().splitlines() or ["git ls-files failed"])[-1]
        raise RepomodelerError(f"error: cannot list the files of '{root}' ({detail[:200]}); check the folder's permissions")
    names = sorted(p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p)
    files: list[SourceFile] = []
    compose_texts: dict[str, str] = {}  # compose files (source) by path: the env files they name
    skipped: dict[str, int] = {}
    warnings: list[Warning_] = []
    link_texts: dict[str, str] = {}  # symlinks named like compose files -> what they point at
    for path in names:
        if _bad_name(path):
            _count(skipped, "bad_name")
            continue
        try:
            path.encode("utf-8")
        except UnicodeEncodeError:
            _count(skipped, "bad_name")
            continue
        full = root / path
        try:
            st = os.lstat(full)
        except OSError:
            continue
        # Symlinks are counted whatever they point at (a file, a folder, /etc/passwd, another link).
        parts = PurePosixPath(path).parts
        under_link = any(os.path.islink(root.joinpath(*parts[:i])) for i in range(1, len(parts)))
        if stat.S_ISLNK(st.st_mode) or under_link:
            if not under_link and COMPOSE_FILE.match(parts[-1]):
                try:
                    link_texts[path] = os.readlink(full)
                except OSError:
                    _count(skipped, "symlink")
            else:
                _count(skipped, "symlink")
            continue
        if not _wanted(path):
            continue
        if not stat.S_ISREG(st.st_mode):
            _count(skipped, "special")
            continue
        reason = _skip_reason(path, st.st_size, options)
        if reason:
            _count(skipped, reason)
            continue
        try:
            content = read_regular_file(root, path, options.max_bytes)
        except OSError as exc:
            _count(skipped, "unreadable")
            warnings.append(Warning_(repo.name, path, 0, f"cannot read ({exc.strerror or exc}); skipped"))
            continue
        digest = hashlib.sha1(f"blob {len(content)}\0".encode() + content).hexdigest()
        role = classify_role(path)
        files.append(SourceFile(path=path, blob=digest, size=len(content), language=language_for_path(path),
                                role=role))
        if role == "source" and COMPOSE_FILE.search(path):
            compose_texts[path] = content.decode("utf-8", "replace")
    links = compose_links(link_texts, files)
    for _ in set(link_texts) - set(links):
        _count(skipped, "symlink")
    files = promote_named_env_files(vendored_site_packages(files), compose_texts)
    readme = root_readme(files)
    try:
        text = read_regular_file(root, readme.path, options.max_bytes).decode("utf-8", "replace") if readme else ""
    except OSError:
        text = ""
    return Inventory(repository=repo, files=promote_example_deployments(files, text, compose_texts), skipped=skipped,
                     warnings=warnings, links=links)


def read_regular_file(root: Path, rel: str, limit: int) -> bytes:
    """Read `root/rel` without following a symlink anywhere on the way; raise OSError otherwise.

    Every folder on the path is opened with O_NOFOLLOW relative to its parent, so a link swapped in
    after the inventory was taken (or a link to /etc) fails instead of being read.  O_NONBLOCK keeps
    a FIFO from hanging the open; a file larger than `limit` is refused rather than read whole.
    """
    parts = PurePosixPath(rel).parts
    if not parts or any(p in ("..", ".", "") for p in parts):
        raise OSError(errno.EINVAL, "unsafe path")
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = child
        file_fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
    finally:
        os.close(fd)
    with os.fdopen(file_fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, "larger than the size limit")
    return data


LFS_POINTER = b"version https://git-lfs.github.com/spec/"


def is_lfs_pointer(content: bytes) -> bool:
    """A Git LFS pointer file (the real content lives on an LFS server we never contact)."""
    return len(content) < 1024 and content.startswith(LFS_POINTER)


def build_inventory(repo: Repository, options: InventoryOptions | None = None) -> Inventory:
    options = options or InventoryOptions()
    return list_git(repo, options) if repo.kind == "git" else list_dir(repo, options)


class BlobReader:
    """Reads file contents at the pinned commit: one `git cat-file --batch` process per repository.

    Files that cannot be read come back as empty bytes and are listed in `problems` (path ->
    reason), so one unreadable file becomes a warning instead of ending the run.
    """

    def __init__(self, repo: Repository, max_bytes: int = 50 * DEFAULT_MAX_BYTES) -> None:
        self.repo = repo
        self.max_bytes = max_bytes
        self.problems: dict[str, str] = {}

    def read_many(self, files: list[SourceFile]) -> dict[str, bytes]:
        if not files:
            return {}
        if self.repo.kind == "dir":
            out: dict[str, bytes] = {}
            for f in files:
                try:
                    out[f.path] = read_regular_file(self.repo.checkout, f.path, max(self.max_bytes, f.size))
                except OSError as exc:
                    self.problems[f.path] = f"cannot read ({exc.strerror or exc}); skipped"
                    out[f.path] = b""
            return out
        by_sha = cat_blobs(self.repo.checkout, sorted({f.blob for f in files}))
        out = {}
        for f in files:
            if f.blob not in by_sha:
                self.problems[f.path] = "object missing from the repository; skipped"
            out[f.path] = by_sha.get(f.blob, b"")
        return out
