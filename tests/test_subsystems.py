"""Subsystems inside components, on in-memory repositories: which folders become subsystems, what
they are called and say about themselves, the imports between them, the endpoints and connections
they own, and what stays out (tests, examples, generated code)."""

from __future__ import annotations

from collections import defaultdict

from rules_harness import resolve_files

from repomodeler.graph.subsystems import choose_parts, purpose
from repomodeler.records import Component


def subsystems(model, parent: str) -> dict[str, Component]:
    return {c.name: c for c in model.parts.values() if c.kind == "subsystem" and c.parent == parent}


def links(model) -> dict[tuple[str, str], int]:
    return {(model.parts[c.source].name, model.parts[c.target].name): int(c.attributes["imports"])
            for c in model.part_links.values() if c.protocol == "import"}


def go_shop() -> dict[str, str]:
    files = {
        "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
        "main.go": ('package main\n\nimport (\n\t"net/http"\n\t"github.com/acme/shop/internal/web"\n)\n\n'
                    'func main() {\n\thttp.ListenAndServe(":8080", web.Router())\n}\n'),
        "internal/web/router.go": ('// Package web serves the shop\'s HTTP API.\npackage web\n\nimport (\n\t"net/http"\n'
                                   '\t"github.com/acme/shop/internal/orders"\n\t"github.com/acme/shop/internal/cart"\n)\n\n'
                                   'func Router() *http.ServeMux {\n\tmux := http.NewServeMux()\n'
                                   '\tmux.HandleFunc("/orders", orders.Handle)\n\tmux.HandleFunc("/cart", cart.Handle)\n'
                                   '\treturn mux\n}\n'),
        "internal/web/router_test.go": "package web\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
        "internal/orders/orders.go": ('// Package orders takes orders\n// and tracks them.\npackage orders\n\n'
                                      'import "github.com/acme/shop/internal/store"\n\nvar _ = store.DB\n'),
        "internal/orders/orders.pb.go": "package orders\n\ntype Order struct{}\n",
        "internal/cart/cart.go": 'package cart\n\nimport "github.com/acme/shop/internal/store"\n\nvar _ = store.DB\n',
        "internal/cart/items.go": "package cart\n\ntype Item struct{}\n",
        "internal/store/store.go": '/* Package store keeps data in PostgreSQL. */\npackage store\n\nimport _ "github.com/lib/pq"\n\nvar DB = 1\n',
        "internal/pricing/pricing.go": "package pricing\n\nfunc Price() int { return 1 }\n",
        "internal/pricing/rules.go": "package pricing\n\nvar Rules = 1\n",
        "examples/demo/main.go": "package main\n\nfunc main() {}\n",
    }
    return files


def test_go_packages_become_subsystems_with_purpose_and_import_links() -> None:
    model = resolve_files({"shop": go_shop()})
    subs = subsystems(model, "shop")
    assert set(subs) == {"shop", "internal/web", "internal/orders", "internal/cart", "internal/store", "internal/pricing"}
    assert subs["internal/web"].attributes["purpose"] == "Package web serves the shop's HTTP API."
    assert subs["internal/orders"].attributes["purpose"] == "Package orders takes orders and tracks them."
    assert subs["internal/store"].attributes["purpose"] == "Package store keeps data in PostgreSQL."
    assert subs["internal/orders"].attributes["files"] == "1"  # the generated .pb.go is not counted
    assert {e.path for e in subs["internal/web"].evidence} == {"internal/web/router.go"}
    got = links(model)
    assert got[("internal/web", "internal/orders")] == 1
    assert got[("internal/orders", "internal/store")] == 1
    assert got[("shop", "internal/web")] == 1
    edge = next(c for c in model.part_links.values() if c.protocol == "import"
                and model.parts[c.source].name == "internal/web" and model.parts[c.target].name == "internal/cart")
    assert [(e.path, e.line) for e in edge.evidence] == [("internal/web/router.go", 7)]
    assert edge.kind == "depends_on"


def test_every_code_file_is_in_exactly_one_subsystem_tests_and_generated_code_are_not() -> None:
    model = resolve_files({"shop": go_shop()})
    subs = subsystems(model, "shop")
    assert sum(int(s.attributes["files"]) for s in subs.values()) == 8  # code files, no test, .pb.go or example
    assert not any("examples" in name for name in subs)


def test_the_subsystem_declaring_routes_owns_them_and_connections_name_their_subsystem() -> None:
    files = go_shop()
    files["internal/orders/client.go"] = ('package orders\n\nimport "net/http"\n\n'
                                          'func Pay() { http.Post("https://api.stripe.com/v1/charges", "", nil) }\n')
    model = resolve_files({"shop": files})
    subs = subsystems(model, "shop")
    assert subs["internal/web"].attributes["endpoints"] == "ANY /cart, ANY /orders"
    edge = model.connections[("shop", "api.stripe.com", "http")]
    assert edge.attributes["subsystems"] == "internal/orders"
    nested = model.part_links[(subs["internal/orders"].id, "api.stripe.com", "http")]
    assert {(e.path, e.line) for e in nested.evidence} == {("internal/orders/client.go", 5)}


def test_python_packages_relative_and_absolute_imports_and_docstrings() -> None:
    files = {
        "requirements.txt": "flask\n",
        "app/__init__.py": '"""Orders service: HTTP API and storage."""\n',
        "app/main.py": "from flask import Flask\nfrom app.api import routes\n\napp = Flask(__name__)\n",
        "app/api/__init__.py": "",
        "app/api/routes.py": ("from flask import Blueprint\nfrom ..store import db\nfrom . import schemas\n\n"
                              "bp = Blueprint('orders', __name__)\n\n@bp.route('/orders')\ndef list_orders():\n    return db.all()\n"),
        "app/api/schemas.py": "X = 1\n",
        "app/store/__init__.py": '"""Storage of orders in PostgreSQL.\n\nMore words."""\n',
        "app/store/db.py": "import psycopg2\n\ndef all():\n    return []\n",
        "app/worker/__init__.py": "",
        "app/worker/jobs.py": "from app.store.db import all\n",
        "tests/test_api.py": "from app.api import routes\n",
    }
    model = resolve_files({"orders": files})
    subs = subsystems(model, "orders")
    assert set(subs) == {"app", "app/api", "app/store", "app/worker"}
    assert subs["app/store"].attributes["purpose"] == "Storage of orders in PostgreSQL."
    assert subs["app"].attributes["purpose"] == "Orders service: HTTP API and storage."
    got = links(model)
    assert got[("app/api", "app/store")] == 1  # from ..store import db
    assert got[("app", "app/api")] == 1  # the module and the name it binds: one statement
    assert got[("app/worker", "app/store")] == 1
    assert ("app/api", "app/api") not in got  # from . import schemas stays inside


def test_java_packages_below_the_common_root() -> None:
    base = "orders/src/main/java/com/acme/orders"
    files = {
        "orders/pom.xml": "<project><artifactId>orders</artifactId></project>\n",
        f"{base}/OrdersApplication.java": ("package com.acme.orders;\n\nimport com.acme.orders.web.OrderController;\n\n"
                                           "@SpringBootApplication\npublic class OrdersApplication {}\n"),
        f"{base}/web/OrderController.java": ("package com.acme.orders.web;\n\nimport com.acme.orders.service.OrderService;\n"
                                             "import com.acme.orders.model.Order;\n\n@RestController\npublic class OrderController {\n"
                                             '  @GetMapping("/orders")\n  public String list() { return ""; }\n}\n'),
        f"{base}/service/OrderService.java": ("package com.acme.orders.service;\n\nimport com.acme.orders.repo.OrderRepository;\n"
                                              "public class OrderService {}\n"),
        f"{base}/repo/OrderRepository.java": "package com.acme.orders.repo;\n\nimport com.acme.orders.model.*;\npublic interface OrderRepository {}\n",
        f"{base}/model/Order.java": "package com.acme.orders.model;\n\npublic class Order {}\n",
        f"{base}/model/package-info.java": "/**\n * The order aggregate and its value objects.\n */\npackage com.acme.orders.model;\n",
        "orders/src/test/java/com/acme/orders/web/OrderControllerTest.java": "package com.acme.orders.web;\nclass T {}\n",
    }
    model = resolve_files({"shop": files})
    subs = subsystems(model, "orders")
    pkg = "com.acme.orders"
    assert set(subs) == {pkg, f"{pkg}.web", f"{pkg}.service", f"{pkg}.repo", f"{pkg}.model"}  # named as packages
    assert subs[f"{pkg}.model"].attributes["purpose"] == "The order aggregate and its value objects."
    assert subs[f"{pkg}.web"].attributes["path"] == f"{base}/web"
    got = links(model)
    assert got[(f"{pkg}.web", f"{pkg}.service")] == 1
    assert got[(f"{pkg}.repo", f"{pkg}.model")] == 1  # a wildcard import names the package
    assert subs[f"{pkg}.web"].attributes["endpoints"] == "GET /orders"


def test_javascript_relative_imports_and_workspace_package_names() -> None:
    files = {
        "package.json": '{"name": "shop", "private": true, "workspaces": ["packages/*"]}\n',
        "packages/api/package.json": '{"name": "@shop/api", "main": "src/index.js", "dependencies": {"@shop/db": "*"}}\n',
        "packages/api/src/index.js": ("const express = require('express');\nconst routes = require('./routes');\n"
                                      "const app = express();\napp.use('/api', routes);\napp.listen(3000);\n"),
        "packages/api/src/routes/index.js": ("const { Router } = require('express');\nconst db = require('@shop/db');\n"
                                             "const fmt = require('../util/format');\nconst router = Router();\n"
                                             "router.get('/orders', (req, res) => res.json(db.all()));\nmodule.exports = router;\n"),
        "packages/api/src/util/format.js": "module.exports = (x) => x;\n",
        "packages/db/package.json": '{"name": "@shop/db", "main": "src/index.js"}\n',
        "packages/db/src/index.js": "module.exports = { all: () => [] };\n",
    }
    model = resolve_files({"shop": files})
    api = next(c for c in model.components.values() if c.kind == "service")
    subs = subsystems(model, api.id)
    assert {"src", "src/routes", "src/util"} <= set(subs)  # paths below the component's folder
    got = links(model)
    assert got[("src", "src/routes")] == 1
    assert got[("src/routes", "src/util")] == 1
    # the workspace library only the api uses is a part of it, not a component of its own
    assert not any(c.kind == "library" for c in model.components.values())
    assert not any(c.protocol == "library" for c in model.connections.values())
    assert "packages/db" in subs and subs["packages/db"].attributes["package"] == "@shop/db"
    assert {(e.path, e.line) for e in subs["packages/db"].evidence} >= {("packages/db/package.json", 1),
                                                                         ("packages/api/package.json", 1)}
    assert got[("src/routes", "packages/db")] == 1


def test_rust_crate_modules() -> None:
    files = {
        "Cargo.toml": '[package]\nname = "ledger"\n',
        "src/main.rs": ("use crate::api::routes;\nuse actix_web::{App, HttpServer};\n\nfn main() {\n"
                        '    let _ = std::env::var("PORT");\n}\n'),
        "src/api/mod.rs": "//! HTTP handlers of the ledger.\nuse crate::store::Db;\npub mod routes;\n",
        "src/api/routes.rs": "use super::super::store;\n",
        "src/store/mod.rs": "//! Ledger storage.\npub struct Db;\n",
    }
    model = resolve_files({"ledger": files})
    subs = subsystems(model, "ledger")
    assert set(subs) == {"src", "src/api", "src/store"}
    assert subs["src/api"].attributes["purpose"] == "HTTP handlers of the ledger."
    got = links(model)
    assert got[("src", "src/api")] == 1
    assert got[("src/api", "src/store")] == 2


def test_csharp_namespaces_below_their_project() -> None:
    files = {
        "src/Ordering.Api/Ordering.Api.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
        "src/Ordering.Api/Program.cs": ("using Ordering.Api.Services;\nvar app = WebApplication.Create();\n"
                                        'app.MapGet("/orders", () => "x");\napp.Run();\n'),
        "src/Ordering.Api/Services/OrderService.cs": "using Ordering.Api.Data;\nnamespace Ordering.Api.Services;\npublic class OrderService {}\n",
        "src/Ordering.Api/Data/OrderContext.cs": "namespace Ordering.Api.Data;\npublic class OrderContext {}\n",
    }
    model = resolve_files({"shop": files})
    svc = next(c for c in model.components.values() if c.kind == "service")
    subs = subsystems(model, svc.id)
    assert set(subs) == {"Ordering.Api", "Services", "Data"}
    got = links(model)
    assert got[("Ordering.Api", "Services")] == 1
    assert got[("Services", "Data")] == 1


# ------------------------------------------------------------------ choosing the level
def test_wrapper_folders_are_skipped_and_a_small_tree_shows_its_packages() -> None:
    sizes = {"src/main/java/com/acme/a": 3, "src/main/java/com/acme/b": 2, "src/main/java/com/acme/c/x": 4,
             "src/main/java/com/acme/c/y": 1, "src/main/java/com/acme/d": 2}
    parts = choose_parts(sizes)
    assert set(parts.values()) == {f"src/main/java/com/acme/{p}" for p in ("a", "b", "c/x", "c/y", "d")}


def test_many_packages_fold_to_at_most_forty_parts_and_single_files_join_their_parent() -> None:
    sizes = {f"pkg/p{i:02d}/sub{j}": 2 + (i % 3) for i in range(30) for j in range(3)}
    sizes.update({"pkg": 4, "pkg/tiny/one": 1, "pkg/tiny/two": 1})
    parts = choose_parts(sizes)
    heads = set(parts.values())
    assert 5 <= len(heads) <= 40
    assert parts["pkg/tiny/one"] == parts["pkg/tiny/two"]  # single files do not stand alone
    for d, h in parts.items():
        assert d == h or d.startswith(h + "/")  # a folder belongs to a part above it


def test_a_dominant_folder_is_opened() -> None:
    sizes = {"a": 2, "b": 2, "c": 2, "d": 2, "e": 2, "core/x": 40, "core/y": 40, "core/z": 30}
    parts = choose_parts(sizes)
    assert {parts["core/x"], parts["core/y"], parts["core/z"]} == {"core/x", "core/y", "core/z"}


def test_purpose_is_the_first_sentence_without_comment_markers() -> None:
    assert purpose("// Package web serves the API", "// over HTTP. It also logs.") == "Package web serves the API over HTTP."
    assert purpose("/**\n * Billing: invoices.\n * @since 1\n */") == "Billing: invoices."
    assert purpose(" The storage engine.\n") == "The storage engine."
    assert purpose("Orders.\n\nMore.") == "Orders."


def test_subsystems_and_links_are_deterministic() -> None:
    a = resolve_files({"shop": go_shop()})
    b = resolve_files({"shop": dict(reversed(list(go_shop().items())))})
    def dump(m):
        return (sorted((c.id, c.parent, tuple(sorted(c.attributes.items())), tuple(sorted(c.evidence)))
                       for c in [*m.components.values(), *m.parts.values()]),
                sorted((k, tuple(sorted(c.evidence)), tuple(sorted(c.attributes.items())))
                       for k, c in [*m.connections.items(), *m.part_links.items()]))
    assert dump(a) == dump(b)


def test_model_json_gives_parent_and_counts_the_top_level() -> None:
    import json

    from repomodeler.emit.model_json import render_json
    from repomodeler.graph.network import to_graph, top_level

    model = resolve_files({"shop": go_shop()})
    g = to_graph(model, [], [], {"files": 9}, nested=True)
    data = json.loads(render_json(g))
    nested = [n for n in data["nodes"] if n.get("parent")]
    assert nested and all(n["kind"] == "subsystem" and n["parent"] == "shop" for n in nested)
    assert data["stats"]["components"] == len(data["nodes"]) - len(nested)
    assert data["stats"]["subsystems"] == len(nested)
    ends = defaultdict(int)
    for e in data["edges"]:
        ends[e["source"] in {n["id"] for n in nested}] += 1
    assert data["stats"]["subsystem_links"] == ends[True]
    assert set(top_level(g).nodes) == {n["id"] for n in data["nodes"] if not n.get("parent")}


def test_subsystems_stay_out_of_a_graph_built_without_them() -> None:
    """`to_graph` adds the nested nodes only when asked (`analyze --no-subsystems` leaves them out)."""
    from repomodeler.graph.network import to_graph

    model = resolve_files({"shop": go_shop()})
    assert model.parts  # the resolver found subsystems
    g = to_graph(model, [], [], {})
    assert not any(d.get("parent") for _n, d in g.nodes(data=True))
    assert set(g.nodes) == set(model.components)


def test_analyze_writes_subsystems_byte_identical_and_every_reader_sees_the_top_level(tmp_path) -> None:
    """Through the pipeline: model.json has the parts (kind subsystem, parent), twice the same bytes;
    the strict SysML check passes; diff and the summary see the top level; --no-subsystems leaves them out."""
    import json

    from conftest import make_repo

    from repomodeler.diff.load import load_model_json
    from repomodeler.pipeline import AnalyzeOptions, analyze
    from repomodeler.summary import summary_lines

    repo = tmp_path / "shop"
    make_repo(repo, go_shop())
    a = analyze([str(repo)], AnalyzeOptions(out=tmp_path / "a", use_cache=False))
    b = analyze([str(repo)], AnalyzeOptions(out=tmp_path / "b", use_cache=False, validate=False))
    text = (tmp_path / "a" / "model.json").read_text(encoding="utf-8")
    assert text == (tmp_path / "b" / "model.json").read_text(encoding="utf-8")
    data = json.loads(text)
    parts = [n for n in data["nodes"] if n.get("parent")]
    assert {n["name"] for n in parts} >= {"internal/web", "internal/orders", "internal/store"}
    assert all(n["kind"] == "subsystem" for n in parts)
    # the PostgreSQL driver `internal/store` imports is the shop's database (stores.sql-drivers)
    assert set(load_model_json(tmp_path / "a" / "model.json").components) == {"shop", "shop-database", "user"}
    lines = summary_lines(a)
    assert any(line.startswith("subsystems: ") for line in lines) and not any("internal/web" in line for line in lines)
    assert b.graph.number_of_nodes() == len(data["nodes"])
    analyze([str(repo)], AnalyzeOptions(out=tmp_path / "c", use_cache=False, validate=False, subsystems=False))
    assert not any(n.get("parent") for n in json.loads((tmp_path / "c" / "model.json").read_text())["nodes"])


# ------------------------------------------------------------------ no part named '.', purpose from its own files
def test_no_part_is_named_dot_root_catch_all_is_named_after_its_folders() -> None:
    files = {
        "go.mod": "module github.com/acme/tool\n\ngo 1.22\n",
        "main.go": ('package main\n\nimport (\n\t"github.com/acme/tool/auth"\n\t"github.com/acme/tool/format"\n'
                    '\t"github.com/acme/tool/server"\n\t"github.com/acme/tool/store"\n)\n\n'
                    'func main() { auth.X(); format.X(); server.X(); store.X() }\n'),
        "auth/auth.go": "package auth\n\nfunc X() {}\n",
        "format/bytes.go": "package format\n\nfunc X() {}\n",
        **{f"server/s{i}.go": "package server\n\nfunc X() {}\n" if i == 0 else f"package server\n\nfunc Y{i}() {{}}\n"
           for i in range(12)},
        **{f"store/s{i}.go": "package store\n\nfunc X() {}\n" if i == 0 else f"package store\n\nfunc Y{i}() {{}}\n"
           for i in range(12)},
    }
    model = resolve_files({"tool": files})
    parts = [c for c in model.parts.values() if c.kind == "subsystem"]
    assert parts and all(c.name != "." and not c.id.endswith("/.") for c in parts)
    names = {c.name for c in parts}
    assert {"server", "store"} <= names
    root = next(c for c in parts if c.attributes["path"] == ".")
    assert root.name == "tool" and root.id == "tool/tool"  # the root's own files: the component's name


def test_a_component_that_is_one_package_at_its_root_has_no_parts() -> None:
    files = {"go.mod": "module github.com/acme/one\n\ngo 1.22\n",
             "main.go": 'package main\n\nimport "net/http"\n\nfunc main() { http.ListenAndServe(":8080", nil) }\n',
             "handlers.go": "package main\n\nfunc handle() {}\n"}
    model = resolve_files({"one": files})
    assert not [c for c in model.parts.values() if c.kind == "subsystem"]


def test_purpose_comes_only_from_the_parts_own_package_comment() -> None:
    files = {
        "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
        "main.go": ('package main\n\nimport (\n\t"github.com/acme/shop/web"\n\t"github.com/acme/shop/mocks"\n)\n\n'
                    'func main() { web.X(); mocks.X() }\n'),
        # web has no comment of its own; only its sub-package does, which must not describe web
        "web/web.go": 'package web\n\nimport "github.com/acme/shop/web/render"\n\nfunc X() { render.X() }\n',
        "web/render/render.go": "// Package render draws HTML pages.\npackage render\n\nfunc X() {}\n",
        "mocks/mock.go": "// Code generated by MockGen. DO NOT EDIT.\n// Package mocks is a generated GoMock package.\npackage mocks\n\nfunc X() {}\n",
    }
    model = resolve_files({"shop": files})
    parts = {c.attributes["path"]: c for c in model.parts.values() if c.kind == "subsystem"}
    for path, part in parts.items():
        if part.attributes.get("purpose"):
            (ev,) = part.evidence
            assert ev.path.rsplit("/", 1)[0] == path, (path, ev)  # the sentence is from the part's own folder
            assert "generated" not in part.attributes["purpose"].lower()
    assert "purpose" not in parts.get("web", parts.get("web/render")).attributes or \
        parts.get("web", parts.get("web/render")).attributes["path"] == "web/render"


def test_a_root_part_gathering_folders_is_named_after_them() -> None:
    from repomodeler.graph.subsystems import SubsystemRules

    comp = Component(id="app", name="app", kind="service", repository="r")
    assert SubsystemRules._root_part_name(comp, "r", "", ["auth", "format"]) == "auth+format"
    assert SubsystemRules._root_part_name(comp, "r", "", ["", "auth"]) == "app+auth"
    assert SubsystemRules._root_part_name(comp, "r", "", ["a", "b", "c/d", "e"]) == "a+b+c+1 more"
    assert SubsystemRules._root_part_name(comp, "r", "", [""]) == "app"
