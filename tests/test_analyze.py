"""End-to-end tests of `repomodeler analyze`: what a user checks in model.json and model.sysml."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import commit_all, git, make_repo, run_cli
from model_views import top_level
from repomodeler.validate import validate_files

SHOP_COMPONENTS = {
    "frontend": ("service", "javascript"),
    "orders": ("service", "python"),
    "payments": ("service", "go"),
    "inventory": ("service", "java"),
    "orders-db": ("database", None),
    "cache": ("cache", None),
    "rabbitmq": ("broker", None),
    "api.stripe.com": ("external", None),
    "user": ("user", None),
}
SHOP_EDGES = {
    ("frontend", "orders", "http"), ("frontend", "inventory", "http"), ("orders", "payments", "http"),
    ("orders", "orders-db", "sql"), ("orders", "cache", "redis"), ("orders", "rabbitmq", "amqp"),
    ("inventory", "orders-db", "sql"), ("inventory", "rabbitmq", "amqp"), ("payments", "api.stripe.com", "http"),
    ("user", "frontend", "http"),
}


def analyze(args: list[str]) -> subprocess.CompletedProcess[str]:
    return run_cli(["analyze", "--quiet", *args])


def load(out: Path) -> dict:
    return top_level(json.loads((out / "model.json").read_text()))  # subsystems: tests/test_subsystems.py


def file_at(repo: Path, commit: str, path: str) -> list[str]:
    return git(repo, "show", f"{commit}:{path}").splitlines()


@pytest.fixture
def shop_model(shop_repo: tuple[Path, str], tmp_path: Path) -> tuple[dict, Path, str, Path]:
    repo, sha = shop_repo
    out = tmp_path / "models" / "shop"
    proc = run_cli(["analyze", f"file://{repo}", "--name", "shop", "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    return load(out), repo, sha, out


def test_shop_sample_components_edges_and_summary(shop_model, shop_repo) -> None:
    model, repo, sha, out = shop_model
    nodes = {n["id"]: n for n in model["nodes"]}
    assert {k: (n["kind"], n["language"]) for k, n in nodes.items()} == SHOP_COMPONENTS
    assert {(e["source"], e["target"], e["protocol"]) for e in model["edges"]} == SHOP_EDGES
    assert model["schema"] == "repomodeler/model@1"
    assert model["repositories"] == [{"name": "shop", "url": None, "commit": sha, "ref": None,
                                      "committed_at": "2024-01-01T00:00:00+00:00"}]
    endpoints = {(p["name"], e["method"], e["path"]) for p in nodes["orders"]["ports"] for e in p["endpoints"]}
    assert endpoints == {("http", "GET", "/orders/{order_id}"), ("http", "POST", "/orders")}
    inv = {(e["method"], e["path"]) for p in nodes["inventory"]["ports"] for e in p["endpoints"]}
    assert inv == {("GET", "/inventory/{sku}"), ("PUT", "/inventory/{sku}")}
    pay = {(e["method"], e["path"]) for p in nodes["payments"]["ports"] for e in p["endpoints"]}
    assert pay == {("POST", "/payments"), ("GET", "/payments/{id}")}


def test_summary_on_stdout_names_repository_commit_and_counts(shop_repo, tmp_path) -> None:
    repo, sha = shop_repo
    proc = run_cli(["analyze", f"file://{repo}", "--out", str(tmp_path / "o")])
    assert proc.returncode == 0, proc.stderr
    assert sha[:12] in proc.stdout
    assert "components: 9" in proc.stdout
    assert "connections: 10" in proc.stdout
    assert "orders -> payments  [http]" in proc.stdout
    assert "warnings: 0" in proc.stdout


def test_every_element_has_evidence_at_a_real_line(shop_model) -> None:
    model, repo, sha, _ = shop_model
    for node in model["nodes"]:
        assert node["evidence"], node["id"]
        texts = []
        for ev in node["evidence"]:
            lines = file_at(repo, sha, ev["path"])
            assert 1 <= ev["line"] <= len(lines), ev
            texts.append(lines[ev["line"] - 1])
        # At least one evidence line names the component (compose key, URL host, manifest name);
        # the external `user` is evidenced by the entry point it uses (published ports).
        named = "frontend" if node["kind"] == "user" else node["name"]
        assert any(named in t for t in texts), (node["id"], texts)
    for edge in model["edges"]:
        assert edge["evidence"], edge["id"]
        texts = []
        for ev in edge["evidence"]:
            lines = file_at(repo, sha, ev["path"])
            assert 1 <= ev["line"] <= len(lines), ev
            texts.append(lines[ev["line"] - 1])
        # The evidence shows the target being named (host in a URL, depends_on entry) or the env var read.
        via = edge["attributes"].get("via", "")
        env = via.split(" ", 1)[1] if via.startswith("env ") else None
        target = edge["target"]
        assert any(target in t or (env and env.split(".")[-1] in t) for t in texts), (edge["id"], texts)


def test_calls_record_the_endpoint_called_and_messaging_the_topic(shop_model) -> None:
    model = shop_model[0]
    edges = {e["id"]: e for e in model["edges"]}
    assert edges["orders->payments:http"]["attributes"]["endpoints"] == "POST /payments"
    assert edges["frontend->inventory:http"]["attributes"]["endpoints"] == "GET /inventory/all"
    assert edges["orders->rabbitmq:amqp"]["kind"] == "publishes"
    assert edges["orders->rabbitmq:amqp"]["attributes"]["publishes"] == "orders.created"


def test_endpoint_evidence_points_at_the_route(shop_model) -> None:
    model, repo, sha, _ = shop_model
    orders = next(n for n in model["nodes"] if n["id"] == "orders")
    ep = next(e for p in orders["ports"] for e in p["endpoints"] if e["path"] == "/orders/{order_id}")
    ev = ep["evidence"][0]
    assert ev["path"] == "orders/main.py"
    assert '@app.get("/orders/{order_id}")' in file_at(repo, sha, ev["path"])[ev["line"] - 1]


def test_emitted_sysml_passes_the_strict_check(shop_model) -> None:
    _, _, sha, out = shop_model
    text = (out / "model.sysml").read_text()
    assert "part orders : Service" in text
    assert "interface <'orders-payments-http'> orders_payments_http : PaymentsHttpLink" in text  # payments' typed API
    assert f'commit = "{sha}"' in text
    diags = validate_files([out / "RepoModeler.sysml", out / "model.sysml"])  # the library ships beside it
    assert [d for d in diags if d.severity == "error"] == []


def test_same_commit_gives_byte_identical_outputs(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    a, b = tmp_path / "a", tmp_path / "b"
    assert analyze([f"file://{repo}", "--name", "shop", "--out", str(a), "--no-validate"]).returncode == 0
    assert analyze([f"file://{repo}", "--name", "shop", "--out", str(b), "--no-validate"]).returncode == 0
    for name in ("model.json", "model.sysml"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    text = (a / "model.json").read_text() + (a / "model.sysml").read_text()
    assert str(tmp_path) not in text  # no absolute paths leak into the model


def test_local_work_tree_and_file_url_give_the_same_model(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    a, b = tmp_path / "a", tmp_path / "b"
    assert analyze([f"file://{repo}", "--name", "shop", "--out", str(a), "--no-validate"]).returncode == 0
    assert analyze([str(repo), "--name", "shop", "--out", str(b), "--no-validate"]).returncode == 0
    assert (a / "model.json").read_bytes() == (b / "model.json").read_bytes()


def test_two_repositories_form_one_system_with_a_cross_repo_edge(tmp_path) -> None:
    make_repo(tmp_path / "billing", {
        "go.mod": "module example.com/billing\n\ngo 1.22\n",
        "main.go": 'package main\n\nimport "net/http"\n\nfunc main() {\n\thttp.HandleFunc("/invoices", nil)\n'
                   '\thttp.ListenAndServe(":8080", nil)\n}\n',
    })
    make_repo(tmp_path / "checkout", {
        "requirements.txt": "requests\n",
        "app.py": 'import os\nimport requests\n\nBILLING = os.getenv("BILLING_URL", "http://billing:8080")\n\n\n'
                  'def pay():\n    return requests.post(BILLING + "/invoices")\n',
    })
    out = tmp_path / "out"
    proc = analyze([f"file://{tmp_path / 'billing'}", f"file://{tmp_path / 'checkout'}", "--name", "acme",
                    "--out", str(out)])
    assert proc.returncode == 0, proc.stderr
    model = load(out)
    assert [r["name"] for r in model["repositories"]] == ["billing", "checkout"]
    nodes = {n["id"]: n for n in model["nodes"]}
    assert nodes["billing"]["repository"] == "billing" and nodes["billing"]["language"] == "go"
    assert nodes["checkout"]["repository"] == "checkout" and nodes["checkout"]["language"] == "python"
    edge = next(e for e in model["edges"] if (e["source"], e["target"]) == ("checkout", "billing"))
    assert edge["protocol"] == "http"
    assert {"repository": "checkout", "path": "app.py", "line": 4} in edge["evidence"]


def test_url_at_ref_pins_the_commit(tmp_path) -> None:
    repo = tmp_path / "svc"
    first = make_repo(repo, {"requirements.txt": "flask\n",
                             "app.py": 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/a")\ndef a():\n    return "a"\n'})
    git(repo, "tag", "v1")
    (repo / "app.py").write_text((repo / "app.py").read_text() + '\n@app.route("/b")\ndef b():\n    return "b"\n')
    second = commit_all(repo)
    out = tmp_path / "o"
    for ref, commit, paths in ((first, first, {"/a"}), ("v1", first, {"/a"}), ("main", second, {"/a", "/b"}),
                               (None, second, {"/a", "/b"})):
        arg = f"file://{repo}" + (f"@{ref}" if ref else "")
        proc = analyze([arg, "--out", str(out), "--no-validate"])
        assert proc.returncode == 0, proc.stderr
        model = load(out)
        assert model["repositories"][0]["commit"] == commit
        assert {e["path"] for n in model["nodes"] for p in n["ports"] for e in p["endpoints"]} == paths


def test_clone_cache_is_reused_and_updated(tmp_path, _isolated_home) -> None:
    repo = tmp_path / "svc"
    make_repo(repo, {"requirements.txt": "flask\n", "app.py": 'import flask\napp = flask.Flask("x")\n@app.route("/a")\ndef a(): pass\n'})
    out = tmp_path / "o"
    assert analyze([f"file://{repo}", "--out", str(out), "--no-validate"]).returncode == 0
    clones = list((_isolated_home / "repos").iterdir())
    assert len(clones) == 1
    (repo / "app.py").write_text((repo / "app.py").read_text() + '@app.route("/b")\ndef b(): pass\n')
    new = commit_all(repo)
    assert analyze([f"file://{repo}", "--out", str(out), "--no-validate"]).returncode == 0
    assert list((_isolated_home / "repos").iterdir()) == clones
    assert load(out)["repositories"][0]["commit"] == new


def test_repositories_with_the_same_name_are_told_apart(tmp_path) -> None:
    for owner in ("acme", "other"):
        make_repo(tmp_path / owner / "api", {"requirements.txt": "flask\n",
                                            "app.py": f'import flask\napp = flask.Flask("x")\n@app.route("/{owner}")\ndef a(): pass\n'})
    out = tmp_path / "o"
    proc = analyze([f"file://{tmp_path / 'acme' / 'api'}", f"file://{tmp_path / 'other' / 'api'}", "--out", str(out),
                    "--no-validate"])
    assert proc.returncode == 0, proc.stderr
    assert [r["name"] for r in load(out)["repositories"]] == ["acme-api", "other-api"]


def test_plain_directory_respects_gitignore_and_skips_vendored(tmp_path) -> None:
    d = tmp_path / "plain"
    (d / "node_modules" / "x").mkdir(parents=True)
    (d / "node_modules" / "x" / "index.js").write_text('fetch("http://evil:1/")\n')
    (d / "ignored").mkdir()
    (d / "ignored" / "app.py").write_text('import requests\nrequests.get("http://ignored-host:8080/")\n')
    (d / ".gitignore").write_text("ignored/\n")
    (d / "app.js").write_text('const app = require("express")();\napp.get("/hello", (q, r) => r.send("hi"));\n')
    (d / "big.js").write_text("//" + "x" * 2_000_000 + "\n")
    (d / "bundle.min.js").write_text('fetch("http://minified:1/")\n')
    (d / "package.json").write_text('{"name": "plain", "main": "app.js"}\n')
    out = tmp_path / "o"
    proc = run_cli(["analyze", str(d), "--out", str(out), "--no-validate"])
    assert proc.returncode == 0, proc.stderr
    model = load(out)
    assert [n["id"] for n in model["nodes"]] == ["plain", "user"]  # the actor enters through its API
    assert model["repositories"][0]["commit"] is None
    assert model["stats"]["skipped"] == {"minified": 1, "too_large": 1, "vendored": 1}
    assert "skipped: minified 1, too_large 1, vendored 1" in proc.stdout


def test_a_web_roots_client_libraries_are_vendored(tmp_path) -> None:
    """wwwroot/lib/ holds the client libraries LibMan and the ASP.NET templates put there (an editor linking to
    video sites): other projects' code, no call of the system; the project's own wwwroot/js is read."""
    d = tmp_path / "shop"
    (d / "Shop.Web" / "wwwroot" / "lib" / "editor").mkdir(parents=True)
    (d / "Shop.Web" / "wwwroot" / "js").mkdir(parents=True)
    (d / "Shop.Web" / "wwwroot" / "lib" / "editor" / "editor.js").write_text(
        'fetch("https://www.videos-example.com/embed/" + id);\n')
    (d / "Shop.Web" / "wwwroot" / "js" / "site.js").write_text('fetch("https://api.rates-example.com/latest");\n')
    (d / "Shop.Web" / "Shop.Web.csproj").write_text('<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n')
    (d / "Shop.Web" / "Program.cs").write_text('var app = WebApplication.CreateBuilder(args).Build();\n'
                                               'app.MapGet("/", () => "hi");\napp.Run();\n')
    out = tmp_path / "o"
    proc = run_cli(["analyze", str(d), "--out", str(out), "--no-validate"])
    assert proc.returncode == 0, proc.stderr
    model = load(out)
    ids = {n["id"] for n in model["nodes"]}
    assert "www.videos-example.com" not in ids
    assert "api.rates-example.com" in ids
    assert model["stats"]["skipped"].get("vendored") == 1


def test_tests_examples_and_docs_never_produce_architecture(tmp_path) -> None:
    repo = tmp_path / "svc"
    make_repo(repo, {
        "requirements.txt": "requests\n",
        "app.py": 'import requests\nrequests.get("http://orders:8080/x")\n',
        "docker-compose.yml": "services:\n  svc:\n    build: .\n  orders:\n    image: acme/orders\n",
        "tests/test_app.py": 'import requests\nrequests.get("http://mock-server:9999/")\nimport psycopg2\n',
        "examples/demo.py": 'import requests\nrequests.get("https://api.example.org/")\n',
        "docs/conf.py": 'import requests\nrequests.get("https://docs.example.org/")\n',
        # a fuzzing harness (fuzz/Shop.Api.Fuzz/) feeds the code random input: a test, not a program of the system
        "fuzz/api_fuzz/main.py": 'import requests\nrequests.get("https://corpus.fuzzhub.io/seeds")\n',
        # the programs a test suite runs (contrib/tester-progs/go/getcpu/) are the tests'
        "contrib/tester-progs/getcpu.py": 'import requests\nrequests.get("https://cpu.probehub.io/v1")\n',
        # a tutorial's programs and their manifests (tutorials/matchmaker101/director/) are the reader's, not the system
        "tutorials/matchmaker101/director/main.py": 'import requests\nrequests.get("http://orders:8080/match")\n',
        "tutorials/matchmaker101/director/director.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                                                          "  name: director\nspec:\n  template:\n    spec:\n"
                                                          "      containers:\n        - name: director\n"
                                                          "          image: acme/tutorial-director\n",
    })
    out = tmp_path / "o"
    assert analyze([str(repo), "--out", str(out), "--no-validate"]).returncode == 0
    model = load(out)
    # (nothing is published: the one program nobody calls is what people use, rule frontdoor.entry-points)
    assert {n["id"] for n in model["nodes"]} == {"svc", "orders", "user"}
    assert {(e["source"], e["target"]) for e in model["edges"]} == {("svc", "orders"), ("user", "svc")}


def test_syntax_errors_in_each_language_warn_and_keep_what_was_read(tmp_path) -> None:
    broken = {
        "py/app.py": 'import requests\nrequests.get("http://orders:8080/")\ndef broken(:\n',
        "js/app.js": 'fetch("http://orders:8080/");\nfunction (((\n',
        "ts/app.ts": 'fetch("http://orders:8080/");\nlet x: = ;\n',
        "tsx/app.tsx": 'fetch("http://orders:8080/");\nconst A = () => <div><;\n',
        "go/main.go": 'package main\nimport "net/http"\nfunc main() { http.Get("http://orders:8080/") \n func {\n',
        "java/App.java": 'class App { void a() { rest.getForObject("http://orders:8080/", String.class); } void b( { }\n',
    }
    files = {"docker-compose.yml": "services:\n  orders:\n    image: acme/orders\n" + "".join(
        f"  {d}:\n    build: ./{d}\n" for d in ("py", "js", "ts", "tsx", "go", "java"))}
    files.update(broken)
    repo = tmp_path / "svc"
    make_repo(repo, files)
    out = tmp_path / "o"
    proc = analyze([str(repo), "--out", str(out), "--no-validate"])
    assert proc.returncode == 0, proc.stderr
    model = load(out)
    warned = {w["path"] for w in model["warnings"] if "syntax error" in w["message"]}
    assert warned == set(broken)
    assert {e["source"] for e in model["edges"] if e["target"] == "orders"} == {"py", "js", "ts", "tsx", "go", "java"}


@pytest.mark.parametrize("bad,message", [
    ("/definitely/not/here", "error: '/definitely/not/here' does not exist; give an existing folder or a git URL"),
    ("htps://github.com/acme/x", "error: 'htps://github.com/acme/x' uses the unsupported scheme 'htps://'"),
    ("https://", "error: 'https://' is not a valid git URL (no host)"),
])
def test_bad_inputs_fail_with_one_line_and_write_nothing(bad, message, tmp_path) -> None:
    out = tmp_path / "o"
    proc = analyze([bad, "--out", str(out)])
    assert proc.returncode == 1
    assert proc.stderr.strip().startswith(message)
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
    assert not any(p.name.startswith(".o.") for p in tmp_path.iterdir())


def test_missing_ref_keeps_the_previous_model(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "o"
    assert analyze([f"file://{repo}", "--out", str(out), "--no-validate"]).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    proc = analyze([f"file://{repo}@no-such-branch", "--out", str(out)])
    assert proc.returncode == 1
    assert proc.stderr.strip() == (f"error: ref 'no-such-branch' does not exist in 'file://{repo}'; "
                                   "give an existing branch, tag or commit")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_failure_during_emit_keeps_the_previous_model(shop_repo, tmp_path) -> None:
    from repomodeler.pipeline import AnalyzeOptions, analyze as run

    repo, _ = shop_repo
    out = tmp_path / "o"
    run([str(repo)], AnalyzeOptions(out=out, validate=False))
    before = (out / "model.json").read_bytes()

    def explode(staging: Path) -> None:
        assert (staging / "model.json").exists()
        raise RuntimeError("simulated crash before publish")

    with pytest.raises(RuntimeError):
        run([str(repo)], AnalyzeOptions(out=out, validate=False), before_publish=explode)
    assert (out / "model.json").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o", "shop"]


def test_out_folder_with_foreign_content_is_refused(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    proc = analyze([str(repo), "--out", str(out)])
    assert proc.returncode == 1
    assert "is not empty and holds no repomodeler model" in proc.stderr
    assert (out / "notes.txt").read_text() == "keep me"


def test_help_on_every_command_and_version() -> None:
    from repomodeler import __version__
    from repomodeler.cli import cli

    proc = run_cli(["--version"])
    assert proc.returncode == 0 and __version__ in proc.stdout
    for name in sorted(cli.commands):
        proc = run_cli([name, "--help"])
        assert proc.returncode == 0, name
        assert "Usage:" in proc.stdout


def test_an_internal_error_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys) -> None:
    import repomodeler.pipeline as pipeline
    from repomodeler import cli

    def boom(*_a, **_k):
        raise ZeroDivisionError("simulated bug")

    monkeypatch.setattr(pipeline, "analyze", boom)
    monkeypatch.setattr(cli.sys, "argv", ["repomodeler", "analyze", str(tmp_path)])
    monkeypatch.delenv("REPOMODELER_DEBUG", raising=False)
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: internal error (ZeroDivisionError: simulated bug); rerun with REPOMODELER_DEBUG=1")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_submodules_are_analysed_only_when_asked(tmp_path) -> None:
    sub = tmp_path / "billing"
    make_repo(sub, {"requirements.txt": "flask\n",
                    "app.py": 'from flask import Flask\napp = Flask("billing")\n\n@app.route("/invoices")\ndef i():\n    return ""\n'})
    parent = tmp_path / "shop"
    make_repo(parent, {"requirements.txt": "requests\n",
                       "app.py": 'import requests\nrequests.get("http://billing:8080/invoices")\n'})
    git(parent, "-c", "protocol.file.allow=always", "submodule", "add", "-q", f"file://{sub}", "vendor-billing")
    commit_all(parent, "add submodule")
    out = tmp_path / "o"
    assert analyze([f"file://{parent}", "--out", str(out), "--no-validate"]).returncode == 0
    model = load(out)
    assert [r["name"] for r in model["repositories"]] == ["shop"]
    assert model["stats"]["skipped"].get("submodule") == 1
    proc = analyze([f"file://{parent}", "--submodules", "--out", str(out), "--no-validate"])
    assert proc.returncode == 0, proc.stderr
    model = load(out)
    assert [r["name"] for r in model["repositories"]] == ["billing", "shop"]
    assert model["repositories"][0]["commit"] == git(sub, "rev-parse", "HEAD")
    assert ("shop", "billing", "http") in {(e["source"], e["target"], e["protocol"]) for e in model["edges"]}


def test_a_remote_repository_cannot_point_submodules_at_local_repositories(tmp_path) -> None:
    from repomodeler.acquire import submodule_specs
    from repomodeler.records import Repository, RepoSpec

    sub = tmp_path / "secret"
    make_repo(sub, {"README.md": "private\n"})
    parent = tmp_path / "shop"
    make_repo(parent, {"app.py": "x = 1\n"})
    git(parent, "-c", "protocol.file.allow=always", "submodule", "add", "-q", f"file://{sub}", "secret")
    sha = commit_all(parent, "add submodule")
    remote = Repository(name="shop", spec=RepoSpec(raw="https://example.com/acme/shop.git", kind="url",
                                                   location="https://example.com/acme/shop.git", ref=None, name="shop"),
                        checkout=parent / ".git", kind="git", commit=sha, url="https://example.com/acme/shop.git")
    assert submodule_specs(remote) == []
    local = Repository(name="shop", spec=RepoSpec(raw=str(parent), kind="path", location=str(parent), ref=None,
                                                  name="shop"), checkout=parent / ".git", kind="git", commit=sha, url=None)
    assert [(s.location, s.ref) for s in submodule_specs(local)] == [(f"file://{sub}", git(sub, "rev-parse", "HEAD"))]


def test_analyze_format_writes_exports_beside_the_model(shop_repo, tmp_path) -> None:
    repo, _ = shop_repo
    out = tmp_path / "o"
    proc = analyze([str(repo), "--out", str(out), "--no-validate", "--format", "mermaid,kpar"])
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (out / "export").iterdir()) == ["RepoModeler.kpar", "model.mmd", "shop.kpar"]
    assert 'c_orders -->|"http"| c_payments' in (out / "export" / "model.mmd").read_text()
    bad = analyze([str(repo), "--out", str(tmp_path / "b"), "--format", "bogus"])
    assert bad.returncode == 1
    assert bad.stderr.strip() == ("error: unknown export format 'bogus'; choose from sysml, kpar, json, graphml, "
                                  "mermaid, plantuml or all")
    assert not (tmp_path / "b").exists()
