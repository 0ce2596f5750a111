"""One commit gives one model whatever the folder it is checked out in is called.

A local folder's name is only what the user called it (`podinfo`, `pinfo2`, `checkout-1`); rules that
recognise the project by its own name (its published image, its vendor site) take that name from the
commit (its README), never from the folder, the URL or a clone's remote. These tests analyse the same
content from folders of different names, a clone and a URL, end to end, and compare the models with the
folder's name mapped back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from conftest import git, make_repo, run_cli

CASE = Path(__file__).resolve().parent.parent / "repomodeler" / "rules" / "code" / "cases" / \
    "code.project-site--repository-name.yml"
FILES = yaml.safe_load(CASE.read_text(encoding="utf-8"))["repositories"]["lago"]


def analyse(folder: Path, out: Path) -> dict:
    proc = run_cli(["analyze", str(folder), "--name", "billing", "--out", str(out), "--quiet"])
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "model.json").read_text(encoding="utf-8"))


def write(folder: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")


def canonical(model: dict, folder: str = "", project: str = "") -> str:
    """The model with `folder` read as `project`, every list sorted: a component named after the
    repository's label sorts by that label, the only difference the label may make."""
    def norm(x):
        if isinstance(x, dict):  # (which rule credited a name can follow the label: a component named after
            # the folder `lago` holds the alias `lago` the vendor site app.lago.dev takes under another folder)
            return {k: norm(v) for k, v in x.items() if k != "rules"}
        if isinstance(x, list):
            return sorted((norm(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
        return x
    text = json.dumps(model, sort_keys=True)
    return json.dumps(norm(json.loads(text.replace(folder, project) if folder else text)), sort_keys=True)


def analysed_under(tmp_path: Path, files: dict[str, str], *folders: str) -> list[dict]:
    """The same files written under each folder name and analysed there: one model per folder."""
    for folder in folders:
        write(tmp_path / folder, files)
    return [analyse(tmp_path / f, tmp_path / f"out-{f}") for f in folders]


def components(model: dict) -> set[str]:
    return {c["name"] for c in model["nodes"]}


def test_plain_folders_of_two_names_give_one_model(tmp_path: Path) -> None:
    # a folder called like the project and one called anything else hold the same files: the folder's
    # name must not decide whether app.lago.dev is the project's own site
    write(tmp_path / "lago", FILES)
    write(tmp_path / "other" / "billing-copy", FILES)
    first = analyse(tmp_path / "lago", tmp_path / "out1")
    second = analyse(tmp_path / "other" / "billing-copy", tmp_path / "out2")
    assert canonical(second, "billing-copy", "lago") == canonical(first)
    # with no URL naming the project, its vendor's site is an external like any other
    assert "app.lago.dev" in components(first)


def test_clones_and_a_url_of_one_commit_give_one_model(tmp_path: Path) -> None:
    # the README names the project; clones in folders of two names and the URL itself agree on it
    upstream = tmp_path / "upstream" / "lago"
    make_repo(upstream, {**FILES, "README.md": README})
    for folder in ("lago", "checkout-1"):
        git(tmp_path, "clone", "-q", str(upstream), folder)
    models = [analyse(tmp_path / f, tmp_path / f"out-{f}") for f in ("lago", "checkout-1")]
    by_url = analyse_url(upstream.as_uri(), tmp_path / "out-url")
    for model in [*models, by_url]:
        names = components(model)
        assert "app.lago.dev" not in names  # the project's own site: listed, not drawn
        assert "api.stripe.com" in names and "api.lagoon.io" in names
        assert any("app.lago.dev" in json.dumps(u) for u in model["unresolved"])
    assert canonical(models[1], "checkout-1", "lago") == canonical(models[0]) == canonical(by_url)


def test_a_url_alone_names_no_project(tmp_path: Path) -> None:
    # without a README saying so, a URL ending in `lago` does not make app.lago.dev the project's site
    upstream = tmp_path / "srv" / "lago"
    make_repo(upstream, FILES)
    model = analyse_url(upstream.as_uri(), tmp_path / "out")
    assert "app.lago.dev" in components(model)
    shutil.rmtree(tmp_path / "out")


def analyse_url(url: str, out: Path) -> dict:
    proc = run_cli(["analyze", url, "--name", "billing", "--out", str(out), "--quiet"])
    assert proc.returncode == 0, proc.stderr
    return json.loads((out / "model.json").read_text(encoding="utf-8"))


README = "<p align=\"center\">\n  <h1 align=\"center\">Lago</h1>\n</p>\n\nClone it: `git clone https://github.com/getlago/lago.git`\n"


def test_a_plain_folder_knows_its_project_from_its_readme_whatever_its_name(tmp_path: Path) -> None:
    # no remote: the README's heading and its link to its own repository agree on the name
    for folder in ("lago", "export-7"):
        write(tmp_path / folder, {**FILES, "README.md": README})
    models = [analyse(tmp_path / f, tmp_path / f"out-{f}") for f in ("lago", "export-7")]
    for model in models:
        assert "app.lago.dev" not in components(model)
        assert "api.stripe.com" in components(model)
    assert canonical(models[1], "export-7", "lago") == canonical(models[0])


def test_readme_identity_facts_and_agreement() -> None:
    from repomodeler.extract.readers._readme import readme_identity
    from repomodeler.graph.base import project_name
    from repomodeler.records import Fact

    facts = readme_identity("r", "README.md", "# eShopOnAbp\n\nBuilt on [ABP](https://github.com/abpframework/abp).\n"
                                              "See https://github.com/abpframework/eShopOnAbp/issues\n")
    assert [(f.kind, f.line, f.get("title") or f.get("name")) for f in facts] == [
        ("project.heading", 1, "eShopOnAbp"), ("project.link", 3, "abp"), ("project.link", 4, "eShopOnAbp")]
    assert project_name(facts) == "eShopOnAbp"  # the longest linked name the heading contains
    assert readme_identity("r", "docs/README.md", "# Other\n") == []  # only the root README speaks for the project
    # a heading alone, or a link the heading does not contain, names nothing
    assert project_name(readme_identity("r", "README.md", "# Shop\n\nUses https://github.com/acme/kit\n")) is None
    # ... nor a link to the project the heading names a part of by its role (the API of the support app)
    api = readme_identity("r", "README.md", "# Support API\n\nRead by [the support app][support].\n\n"
                                            "[support]: https://github.com/alphagov/support\n")
    assert project_name(api) is None
    # a README opening with its logo and a second-level heading: either agrees with the link
    logo = readme_identity("r", "README.md", "![Huginn](media/logo.png)\n\n-----\n\n## What is it?\n\n"
                                             "Clone https://github.com/huginn/huginn.git\n")
    assert [f.get("title") for f in logo if f.kind == "project.heading"] == ["Huginn", "What is it?"]
    assert project_name(logo) == "huginn"
    # a section heading under the README's opening paragraph says what the section is about, not the project:
    # a registry's README asking "How does this integrate with containerd?" is not containerd's
    badges = ("[![Build](https://github.com/distribution/distribution/badge.svg)](https://github.com/distribution/"
              "distribution)\n\nThe toolset to pack, ship, store, and deliver content.\n\n"
              "### How does this integrate with containerd?\n\nSee https://github.com/containerd/containerd\n")
    assert project_name(readme_identity("r", "README.md", badges)) is None
    # ... while a heading under a title spread over an HTML block, before any paragraph, still opens it
    block = readme_identity("r", "README.md", '<h1 align="center">\n  <img src="logo.svg">\n  Tandoor Recipes\n'
                                              '</h1>\n\n<h4>Manage your digital recipes.</h4>\n\n'
                                              "https://github.com/TandoorRecipes/recipes\n")
    assert project_name(block) == "recipes"
    # a title naming the vendor and the product (`Redpanda Console`) over links to both of their repositories:
    # the one its Go module lives in on the code host (github.com/redpanda-data/console/backend)
    both = readme_identity("r", "README.md", "# Redpanda Console\n\nhttps://github.com/redpanda-data/console\n"
                                             "Runs with https://github.com/redpanda-data/redpanda\n")
    assert project_name(both) == "redpanda"  # the longest, when nothing else tells
    go_mod = Fact(kind="manifest", repository="r", path="backend/go.mod", line=1, language="config",
                  attrs=(("ecosystem", "go"), ("name", "github.com/redpanda-data/console/backend")))
    assert project_name([*both, go_mod]) == "console"
    # a root manifest the heading contains: the Go module's last segment
    heading = readme_identity("r", "README.md", "# [WIP] beer-shop\n")
    module = Fact(kind="manifest", repository="r", path="go.mod", line=1, language="config",
                  attrs=(("ecosystem", "go"), ("name", "github.com/go-kratos/beer-shop")))
    assert project_name([*heading, module]) == "beer-shop"


def test_a_header_picture_kept_in_the_organisations_profile_repository_names_no_project() -> None:
    """A README opening with `![GitHub Header](https://github.com/acme/.github/assets/...)`: the `.github`
    profile repository and the alt text's "GitHub" do not make the project "github"."""
    from repomodeler.extract.readers._readme import readme_identity
    from repomodeler.graph.base import project_name

    text = ("![GitHub Header](https://github.com/postalserver/.github/assets/4765/7a63c35d.png)\n\n"
            "**Postal** is a complete mail server.\n\n* [Source](https://github.com/postalserver/postal)\n")
    facts = readme_identity("r", "README.md", text)
    assert [f.get("name") for f in facts if f.kind == "project.link"] == ["postal"]
    assert project_name(facts) is None


def test_a_restructuredtext_readme_opening_with_its_logo_names_its_project() -> None:
    """A reStructuredText README whose title is its logo (``.. figure::`` with ``:alt: SearXNG``, after
    comments and link targets) names the project with its link; a paragraph before the picture does not."""
    from repomodeler.extract.readers._readme import readme_identity
    from repomodeler.graph.base import project_name

    text = (".. SPDX-License-Identifier: AGPL-3.0-or-later\n\n"
            ".. _guide: https://docs.searxng.org/admin/installation.html\n"
            ".. _CONTRIBUTING: https://github.com/searxng/searxng/blob/master/CONTRIBUTING.rst\n\n"
            ".. figure:: https://example.org/brand/searxng.svg\n   :target: https://searxng.org\n"
            "   :alt: SearXNG\n   :width: 512px\n\nA privacy-respecting metasearch engine.\n")
    facts = readme_identity("r", "README.rst", text)
    assert [(f.line, f.get("title")) for f in facts if f.kind == "project.heading"] == [(8, "SearXNG")]
    assert project_name(facts) == "searxng"
    prose_first = readme_identity("r", "README.rst", "Some words first.\n\n.. image:: logo.png\n   :alt: Other\n")
    assert not [f for f in prose_first if f.kind == "project.heading"]


def test_a_readme_titled_by_a_picture_names_its_project_by_link_and_manifest() -> None:
    from repomodeler.extract.readers._readme import readme_identity
    from repomodeler.graph.base import linked_manifest_name, project_name
    from repomodeler.records import Fact

    logo = readme_identity("r", "README.md", '<div align="center">\n<a href="https://github.com/acme/marks">\n'
                                             '<img src="assets/header.svg"></a>\n</div>\n\n## Introduction\n')
    manifest = Fact(kind="manifest", repository="r", path="package.json", line=2, language="config",
                    attrs=(("ecosystem", "npm"), ("name", "marks")))
    assert linked_manifest_name(logo) is None  # a link alone names nothing
    assert linked_manifest_name([*logo, manifest]) == "marks"  # the link and the root manifest agree
    # (the heading's stronger name is not given by them: the vendor's hosts are not called the project's sites)
    assert project_name([*logo, manifest]) is None
    other = Fact(kind="manifest", repository="r", path="package.json", line=2, language="config",
                 attrs=(("ecosystem", "npm"), ("name", "toolkit")))
    assert linked_manifest_name([*logo, other]) is None
    # a root Maven build aggregating the modules is named for the project: docs-parent builds `docs`
    parent = readme_identity("r", "README.md", '<h3 align="center"><img src="title.png" alt="Teedy"></h3>\n\n'
                                               '[![CI](https://github.com/acme/docs/actions/workflows/ci.yml/badge.svg)]'
                                               '(https://github.com/acme/docs/actions)\n')
    pom = Fact(kind="manifest", repository="r", path="pom.xml", line=7, language="config",
               attrs=(("ecosystem", "maven"), ("name", "docs-parent"), ("packaging", "pom")))
    assert linked_manifest_name([*parent, pom]) == "docs"


MARKS = {
    "README.md": ('<div align="center">\n  <a href="https://github.com/acme/marks">\n'
                  '    <img src="assets/header.svg" height="50">\n  </a>\n</div>\n\n## Introduction\n\n'
                  "marks is a bookmark manager you host yourself.\n"),
    "package.json": '{"name": "marks", "scripts": {"build": "rollup -c"}, "devDependencies": {"rollup": "^4"}}\n',
    "pyproject.toml": '[project]\nname = "marks"\ndependencies = ["django>=5", "psycopg>=3"]\n',
    "manage.py": "import sys\nfrom django.core.management import execute_from_command_line\n"
                 "execute_from_command_line(sys.argv)\n",
    "bookmarks/urls.py": "from django.urls import path\nfrom . import views\nurlpatterns = [path('bookmarks', views.index)]\n",
    "bookmarks/views.py": "def index(request):\n    return None\n",
    "bookmarks/settings.py": "DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'HOST': 'postgres'}}\n",
    "docker/default.Dockerfile": "FROM python:3.13-slim\nWORKDIR /app\nCOPY . .\nCMD [\"uwsgi\", \"uwsgi.ini\"]\n",
    "docker/alpine.Dockerfile": "FROM python:3.13-alpine\nWORKDIR /app\nCOPY . .\nCMD [\"uwsgi\", \"uwsgi.ini\"]\n",
    "docker-compose.yml": ("services:\n  marks:\n    image: acme/marks:latest\n    ports:\n      - '9090:9090'\n"
                           "    volumes:\n      - './data:/etc/marks/data'\n"
                           "    depends_on: [postgres]\n  postgres:\n    image: postgres:16\n"),
}


def test_the_projects_image_runs_the_root_program_whatever_the_folder(tmp_path: Path) -> None:
    # the compose file pulls the project's published image; its recipes sit in docker/, one per base
    # image, and build the program at the root: one component `marks` holding that code, under any folder name
    for folder in ("marks", "bookmarks-app"):
        write(tmp_path / folder, MARKS)
    models = [analyse(tmp_path / f, tmp_path / f"out-{f}") for f in ("marks", "bookmarks-app")]
    for model in models:
        names = components(model)
        assert "marks" in names and "bookmarks-app" not in names
        marks = next(c for c in model["nodes"] if c["name"] == "marks")
    assert canonical(models[1], "bookmarks-app", "marks") == canonical(models[0])


SHOP = {
    "Gemfile": 'source "https://rubygems.org"\ngem "sinatra"\n',
    "app.rb": 'require "sinatra"\nget("/books") { "[]" }\n',
    "Dockerfile": "FROM ruby:3.3\nCOPY . /app\nCMD [\"ruby\", \"app.rb\"]\n",
    "shop.yml": "".join(
        f"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {n}\nspec:\n  template:\n    spec:\n"
        f"      containers:\n        - name: {n}\n          image: acme/shop:v1\n" for n in ("webapp", "books")),
}


def test_the_root_folders_label_never_matches_it_to_the_deployments_of_its_image(tmp_path: Path) -> None:
    # two workloads run the image acme/shop; a folder called `shop` and one called anything else hold the
    # same commit, with nothing in it naming the project: the label must not decide what runs the code
    for folder in ("shop", "checkout-2"):
        write(tmp_path / folder, SHOP)
    models = [analyse(tmp_path / f, tmp_path / f"out-{f}") for f in ("shop", "checkout-2")]
    assert canonical(models[1], "checkout-2", "shop") == canonical(models[0])


def test_a_root_folder_named_by_its_readme_joins_the_deployment_of_its_image_whatever_its_label(tmp_path: Path) -> None:
    # the README names the project `shop`; the one workload runs the image acme/shop: the root folder's code is
    # that workload's, in a folder called `shop` and in one called anything else
    files = {**SHOP, "README.md": "# shop\n\nSource: https://github.com/acme/shop\n",
             "shop.yml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
                         "      containers:\n        - name: web\n          image: acme/shop:v1\n"}
    models = analysed_under(tmp_path, files, "shop", "export-3")
    assert canonical(models[1], "export-3", "shop") == canonical(models[0])
    web = next(n for n in models[1]["nodes"] if n["id"] == "web")
    assert web["language"] == "ruby" and "export-3" not in components(models[1])


def test_the_project_is_named_by_the_image_its_deployment_runs_when_the_readme_title_says_so() -> None:
    from repomodeler.extract.readers.helm_install import read_documents
    from repomodeler.graph.base import project_name
    from repomodeler.records import Fact

    heading = read_documents("r", "README.md", "# Reactive Resume\n\nA free resume builder.\n")
    web = Fact(kind="compose.service", repository="r", path="compose.yml", line=2, language="",
               attrs=(("image", "amruthpillai/reactive-resume:v4"), ("name", "app")))
    db = Fact(kind="compose.service", repository="r", path="compose.yml", line=5, language="", attrs=(("image", "postgres:16"), ("name", "db")))
    assert project_name([*heading, web, db]) == "reactive-resume"
    assert project_name([*heading, db]) is None  # a store's image names no project
    # a reStructuredText README's title and its link to the project's repository agree too
    rst = read_documents("r", "README.rst", "Kiwi TCMS - open source test management\n"
                                            "=======================================\n\n"
                                            "See https://github.com/kiwitcms/Kiwi for the code.\n")
    assert project_name(rst) == "Kiwi"


def test_a_readme_summary_is_its_opening_prose_not_its_badges_lists_or_code() -> None:
    """What a project says it is (the paragraph under its title) reaches the graph as ``project.summary``: the
    text of an HTML paragraph, a line opening in bold, at most three paragraphs; badges, list items, tables,
    code and headings are none, and a README in a sub-folder says nothing of the project."""
    from repomodeler.extract.readers._readme import readme_identity

    text = ("# yarr\n\n[![build](https://ci.example/badge.svg)](https://ci.example)\n\n"
            "**yarr** (yet another rss reader) is a web-based [feed] aggregator.\n\n"
            "* Single binary, no dependencies\n* SQLite or Postgres\n\n"
            "<p align=\"center\">\nIt runs on Windows, macOS and Linux alike.\n</p>\n\n"
            "```sh\nyarr -addr 0.0.0.0:7070 serve now\n```\n\n| a | table | row | here |\n\n"
            "## Usage\n\nStart it and open the page in a browser.\n\nA fourth paragraph is not read.\n")
    facts = readme_identity("r", "README.md", text)
    assert [(f.line, f.get("text")) for f in facts if f.kind == "project.summary"] == [
        (5, "yarr (yet another rss reader) is a web-based feed aggregator."),
        (11, "It runs on Windows, macOS and Linux alike."),
        (22, "Start it and open the page in a browser.")]
    assert not [f for f in readme_identity("r", "docs/README.md", text) if f.kind == "project.summary"]


def test_a_readme_without_a_title_is_named_by_its_opening_sentence() -> None:
    """A README opening with badges and a picture that has no text ("Mayan EDMS is a document management system")
    names its project by the subject of that sentence, agreeing with the repository it links to; a README whose
    first paragraph names no subject ("Some words first.") stays unnamed."""
    from repomodeler.extract.readers._readme import readme_identity
    from repomodeler.graph.base import project_name

    text = ("|pypi| |python| |license|\n\n.. image:: https://gitlab.com/mayan-edms/mayan-edms/raw/master/logo.png\n"
            "    :align: center\n\nMayan EDMS is a document management system. Its main purpose is to store files.\n")
    facts = readme_identity("r", "README.rst", text)
    assert [(f.line, f.get("title")) for f in facts if f.kind == "project.heading"] == [(6, "Mayan EDMS")]
    assert project_name(facts) == "mayan-edms"
    plain = readme_identity("r", "README.md", "Some words first, then more of them.\n")
    assert not [f for f in plain if f.kind == "project.heading"]


# A repository whose server lives in a generic folder (backend/, named by no manifest) and whose compose file
# only pulls the published image: the server's name can only come from the folder the user chose.
DECK = {
    "backend/requirements.txt": "fastapi==0.110.0\nsqlalchemy==2.0.0\n",
    "backend/api/main.py": "from fastapi import FastAPI\napp = FastAPI()\n\n@app.get('/apps')\ndef apps():\n    return []\n",
    "Dockerfile": "FROM python:3.11-alpine\nWORKDIR /api\nCOPY ./backend/ ./\nCMD [\"uvicorn\", \"api.main:app\"]\n",
    "deploy/docker-compose.yml": "services:\n  deckhand:\n    image: acme/deckhand\n    ports:\n      - 8000:8000\n",
}


def test_code_named_only_by_its_checkout_joins_the_one_deployment_of_an_image_nothing_builds(tmp_path: Path) -> None:
    # checked out as `deckhand`, the server's folder took the checkout's name and so answered to the compose
    # service `deckhand`; under any other name it stood apart. What the commit says decides instead: the root
    # recipe packs backend/, and the one deployment runs an image nothing in the commit builds
    models = analysed_under(tmp_path, DECK, "deckhand", "work-3")
    assert canonical(models[1], "work-3", "deckhand") == canonical(models[0])
    deck = next(n for n in models[1]["nodes"] if n["name"] == "deckhand")
    assert deck["language"] == "python" and "work-3" not in components(models[1])
    assert any(e["path"] == "backend/requirements.txt" for e in deck["evidence"])


def test_code_named_only_by_its_checkout_stays_apart_beside_two_deployments(tmp_path: Path) -> None:
    # two images nothing builds (the project's and a companion's): which one runs the code, the commit does not
    # say, and a folder called like one of them says nothing either
    files = {**DECK, "deploy/docker-compose.yml": DECK["deploy/docker-compose.yml"]
             + "  watcher:\n    image: acme/watcher\n"}
    models = analysed_under(tmp_path, files, "deckhand", "work-4")
    tops = [{n["name"].lower() for n in m["nodes"] if not n.get("parent")} for m in models]
    assert tops[1] == {"deckhand", "watcher", "work-4", "user"}
    # (under the folder `deckhand` the code keeps apart from the deployment of that name, under a name of its own)
    assert tops[0] == {"deckhand", "watcher", "deckhand-code", "user"}
    renamed = json.loads(json.dumps(models[0]).replace("deckhand-code", "deckhand"))
    assert canonical(models[1], "work-4", "deckhand") == canonical(renamed)


def test_a_default_stack_of_images_named_like_the_folder_is_still_backing_services(tmp_path: Path) -> None:
    # the default compose file starts a database and a cache image called `panel-cache`; the variant beside it runs
    # the API built here. Under a folder called `panel` the cache's image looked like the project's own, and the
    # default file like the system; the commit names no project, so under any folder name it is backing services
    files = {
        "docker-compose.yml": "services:\n  db:\n    image: postgres:16\n  cache:\n    image: acme/panel-cache:latest\n",
        "docker-compose.prod.yml": "services:\n  api:\n    build: ./api\n    environment:\n"
                                   "      DATABASE_URL: postgres://db:5432/panel\n  db:\n    image: postgres:16\n",
        "api/package.json": '{"name": "api", "scripts": {"start": "node server.js"}, "dependencies": {"express": "4", "pg": "8"}}\n',
        "api/server.js": "const express = require('express');\nconst app = express();\napp.get('/events', (q, r) => r.json([]));\n"
                         "app.listen(3000);\n",
        "api/Dockerfile": "FROM node:20\nCOPY . /app\nCMD [\"node\", \"/app/server.js\"]\n",
    }
    models = analysed_under(tmp_path, files, "panel", "work-6")
    assert canonical(models[1], "work-6", "panel") == canonical(models[0])
    assert "api" in components(models[0])


SEARCH_APP = {
    "src/requirements.txt": "quart==0.19.4\nazure-search-documents==11.4.0\n",
    "src/app.py": ("import os\nfrom quart import Quart\napp = Quart(__name__)\n"
                   "ENDPOINT = os.environ[\"AZURE_SEARCH_SERVICE_ENDPOINT\"]\n\n"
                   "@app.get(\"/ask\")\nasync def ask():\n    return ENDPOINT\n"),
    "src/Dockerfile": "FROM python:3.12\nCOPY . /app\nCMD [\"gunicorn\", \"app:app\"]\n",
    "infra/main.bicep": (
        "param image string\nparam searchName string = ''\n"
        "resource search 'Microsoft.Search/searchServices@2023-11-01' = {\n"
        "  name: !empty(searchName) ? searchName : uniqueString(resourceGroup().id)\n"
        "  sku: { name: 'basic' }\n}\n"
        "resource app 'Microsoft.App/containerApps@2023-05-01' = {\n  name: 'web'\n  properties: {\n"
        "    template: {\n      containers: [\n        {\n          image: image\n          name: 'web'\n"
        "          env: [\n            {\n              name: 'AZURE_SEARCH_SERVICE_ENDPOINT'\n"
        "              value: 'https://${search.name}.search.windows.net'\n            }\n          ]\n"
        "        }\n      ]\n    }\n  }\n}\n"),
}


def test_an_iac_store_is_named_by_its_project_not_by_its_folder(tmp_path: Path) -> None:
    # the Bicep resource `search` names the store; a folder whose name holds the word `search` (as a clone of
    # azure-search-openai-demo does) must not strip it and leave the technology's name instead
    first, second = analysed_under(tmp_path, SEARCH_APP, "azure-search-demo", "checkout-1")
    assert canonical(second, "checkout-1", "azure-search-demo") == canonical(first)
    assert "search" in components(first)
