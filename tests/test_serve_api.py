"""In-process tests of the viewer's HTTP surface: listing, model data, snippets from a real git
commit and a plain directory, traversal refusals, security headers, offline docs, publishing."""

from __future__ import annotations

import importlib.util
import json
import os
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from repomodeler.serve.app import create_app  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    "rm_fixture_checkouts", Path(__file__).parent / "fixtures" / "models" / "_checkouts.py"
)
checkouts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checkouts)  # type: ignore[union-attr]


@pytest.fixture()
def models_dir(tmp_path: Path) -> Path:
    return checkouts.make_models_dir(tmp_path)


def app_for(models_dir: Path):  # type: ignore[no-untyped-def]
    """The app as `serve --source-root <fixture checkouts>` builds it; TestClient sends Host: testserver."""
    return create_app(models_dir, source_roots=[models_dir.parent / "checkouts"], allowed_hosts=["testserver"])


@pytest.fixture()
def client(models_dir: Path) -> TestClient:
    return TestClient(app_for(models_dir))


def test_nesting_is_the_models_own(client: TestClient, models_dir: Path) -> None:
    """Where each node sits, as repomodeler.model.nesting reads the model: what the explorer draws with."""
    from repomodeler.model import nesting, read_file

    model = read_file(models_dir / "shop" / "model.json")
    r = client.get("/api/models/shop/nesting")
    assert r.status_code == 200
    assert r.json() == nesting.placement(model.parents)
    assert set(r.json()) == set(model.components) and all(v["depth"] == 0 for v in r.json().values())
    assert client.get("/api/models/nope/nesting").status_code == 404


def test_list_models_sorted_with_summary(client: TestClient) -> None:
    r = client.get("/api/models")
    assert r.status_code == 200
    data = r.json()
    assert [m["name"] for m in data] == ["shop", "xss"]
    shop = data[0]
    assert shop["counts"] == {"part_defs": 7, "components": 10, "connections": 9, "endpoints": 3, "subsystems": 0, "databases": 0}
    assert shop["warnings"] == 1
    assert shop["analysed_at"] == "2026-11-30T05:00:00Z"
    assert shop["languages"] == ["go", "python", "typescript"]
    assert [r["name"] for r in shop["repositories"]] == ["shop", "shop-frontend"]
    assert len(shop["repositories"][0]["short_commit"]) == 8
    assert shop["files"] == ["model.sysml", "model.json", "model.mmd"]


def test_get_model_and_sysml(client: TestClient, models_dir: Path) -> None:
    r = client.get("/api/models/shop")
    assert r.status_code == 200
    assert r.json() == json.loads((models_dir / "shop" / "model.json").read_text())
    s = client.get("/api/models/shop/sysml")
    assert s.status_code == 200 and s.headers["content-type"].startswith("text/plain")
    assert "part orders : Service {" in s.text
    assert client.get("/api/models/nope").status_code == 404
    assert client.get("/api/models/nope/sysml").status_code == 404


def test_file_downloads_whitelisted(client: TestClient) -> None:
    assert client.get("/api/models/shop/files/model.sysml").status_code == 200
    assert client.get("/api/models/shop/files/model.mmd").text.startswith("graph LR")
    r = client.get("/api/models/shop/files/model.json")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    # run.json holds absolute checkout paths: never offered
    assert client.get("/api/models/shop/files/run.json").status_code == 404
    for bad in ("..%2Fxss%2Fmodel.json", "%2e%2e", "%2e%2e%2frun.json", ".model.json", "model.py", "%2Fetc%2Fpasswd"):
        assert client.get(f"/api/models/shop/files/{bad}").status_code in (400, 404), bad


def test_source_snippet_from_git_commit(client: TestClient) -> None:
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": "orders/app.py", "line": 5})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["start"] == 1 and data["highlight"] == 5
    assert data["lines"][4] == "EVIDENCE orders/app.py:5"
    assert len(data["lines"]) == 10  # lines 1..10: five after, clamped before
    # the work tree was changed after the commit; the snippet comes from the pinned commit
    assert "CHANGED AFTER COMMIT" not in "\n".join(data["lines"])
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": "docker-compose.yml", "line": 22})
    assert r.json()["start"] == 17 and r.json()["lines"][5] == "EVIDENCE docker-compose.yml:22"


def test_source_snippet_from_plain_dir(client: TestClient) -> None:
    r = client.get("/api/models/shop/source", params={"repository": "shop-frontend", "path": "src/api.ts", "line": 4})
    assert r.status_code == 200
    assert "EVIDENCE src/api.ts:4" in r.json()["lines"]


@pytest.mark.parametrize(
    "path,status",
    [
        ("../../etc/passwd", 400),
        ("orders/../secret.txt", 400),
        ("/etc/passwd", 400),
        ("secret.txt", 404),  # inside the checkout but not cited by the model
        ("C:/windows/win.ini", 400),
        ("orders\\app.py", 400),
        ("-p", 400),
    ],
)
def test_source_refuses_unsafe_paths(client: TestClient, path: str, status: int) -> None:
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": 1})
    assert r.status_code == status, (path, r.text)


def test_source_refuses_encoded_traversal_and_bad_input(client: TestClient) -> None:
    assert client.get("/api/models/shop/source?repository=shop&path=%2e%2e%2f%2e%2e%2fetc%2fpasswd&line=1").status_code == 400
    assert client.get("/api/models/shop/source?repository=shop&path=orders%2Fapp.py&line=0").status_code == 422
    assert client.get("/api/models/shop/source?repository=nope&path=orders%2Fapp.py&line=1").status_code == 404


def test_source_refuses_symlink_out_of_dir_checkout(models_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("TOP SECRET\n")
    front = Path(json.loads((models_dir / "shop" / "run.json").read_text())["repositories"][1]["checkout"])
    os.symlink(outside, front / "link.txt")
    model = json.loads((models_dir / "shop" / "model.json").read_text())
    model["nodes"][-1]["evidence"].append({"repository": "shop-frontend", "path": "link.txt", "line": 1})
    (models_dir / "shop" / "model.json").write_text(json.dumps(model))
    client = TestClient(app_for(models_dir))
    r = client.get("/api/models/shop/source", params={"repository": "shop-frontend", "path": "link.txt", "line": 1})
    assert r.status_code == 404
    assert "TOP SECRET" not in r.text


def test_model_names_outside_models_dir_refused(client: TestClient, models_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "model.json").write_text(json.dumps({"name": "secret", "nodes": [], "edges": []}))
    os.symlink(elsewhere, models_dir / "linked")
    listed = [m["name"] for m in client.get("/api/models").json()]
    assert "linked" not in listed
    for url in (
        "/api/models/linked",
        "/api/models/..",
        "/api/models/%2e%2e",
        "/api/models/..%2Fmodels%2Fshop",
        "/api/models/%2Fetc%2Fpasswd",
        "/api/models/..%2F..%2Fetc%2Fpasswd/sysml",
        "/models/linked",
        "/models/%2e%2e",
        "/api/models/.hidden",
    ):
        r = client.get(url)
        assert r.status_code in (400, 404), url
        assert "secret" not in r.text


def test_security_headers_on_every_response(client: TestClient) -> None:
    for url in ("/", "/models/shop", "/api/models", "/static/css/app.css", "/api/models/missing", "/docs", "/openapi.json"):
        r = client.get(url)
        csp = r.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        assert "object-src 'none'" in csp
        assert r.headers.get("x-content-type-options") == "nosniff", url


def test_html_is_escaped(client: TestClient) -> None:
    gallery = client.get("/").text
    assert "<img src=z" not in gallery and "&lt;img src=z onerror=alert(7)&gt;" in gallery
    assert "<script>alert(2)" not in gallery
    explorer = client.get("/models/xss").text
    assert "<img src=z" not in explorer and "<script>alert" not in explorer
    assert "<script>" not in explorer.replace("<script src=", "")  # only external scripts


def test_gallery_and_explorer_pages(client: TestClient) -> None:
    gallery = client.get("/")
    assert gallery.status_code == 200
    assert 'href="/models/shop"' in gallery.text and 'href="/models/xss"' in gallery.text
    page = client.get("/models/shop").text
    assert "cytoscape-3.35.0.min.js" in page and 'data-api="/api/models/shop"' in page
    assert client.get("/static/vendor/cytoscape-3.35.0/cytoscape-3.35.0.min.js").status_code == 200
    assert client.get("/models/missing").status_code == 404


def test_docs_work_offline(client: TestClient) -> None:
    page = client.get("/docs").text
    assert "/static/vendor/swagger-ui-dist-5.35.0/swagger-ui-bundle-5.35.0.js" in page
    assert "cdn" not in page.lower() and "https://" not in page
    assert client.get("/static/vendor/swagger-ui-dist-5.35.0/swagger-ui-bundle-5.35.0.js").status_code == 200
    spec = client.get("/openapi.json").json()
    assert "/api/models/{name}/source" in spec["paths"]


def test_publish_static_site(models_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert publish_site(models_dir, out, [models_dir.parent / "checkouts"]) == 2
    index = (out / "index.html").read_text()
    assert 'href="models/shop.html"' in index and 'http-equiv="Content-Security-Policy"' in index
    page = (out / "models" / "shop.html").read_text()
    assert 'src="../data/shop.js"' in page and 'href="../static/css/app.css"' in page
    data = (out / "data" / "shop.js").read_text()
    assert data.startswith("window.__MODEL__ = ")
    payload = json.loads(data[len("window.__MODEL__ = "):].rstrip().rstrip(";"))
    assert payload["snippets"]["shop\norders/app.py\n5"]["lines"][4] == "EVIDENCE orders/app.py:5"
    assert (out / "files" / "shop" / "model.sysml").is_file()
    assert not (out / "files" / "shop" / "run.json").exists()
    xss = (out / "data" / "xss.js").read_text()
    assert "<" not in xss and ">" not in xss
    for html in [index, page]:
        assert "https://" not in html.replace("https://github.com", "")  # no CDN anywhere
    assert not any(out.rglob("swagger-ui*"))


def test_missing_models_dir_shows_empty_gallery(tmp_path: Path) -> None:
    client = TestClient(app_for(tmp_path / "does-not-exist"))
    assert client.get("/api/models").json() == []
    page = client.get("/")
    assert page.status_code == 200 and "No models found" in page.text


def test_static_files_cannot_escape(client: TestClient) -> None:
    for url in ("/static/..%2F..%2Fpyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml", "/static/../repomodeler/serve/app.py"):
        r = client.get(url)
        assert r.status_code in (400, 404), url
        assert "[project]" not in r.text and "create_app" not in r.text


# ---------------------------------------------------------------------------------- comparisons
SHOP_NEXT = "target:targets/shop-next.sysml"


def same_system_copy(models_dir: Path, source: str, folder: str, system: str = "shop") -> None:
    """A model folder holding `source`'s model under the system name `system` (an earlier analysis
    of the same system, as the compare list sees it)."""
    data = json.loads((models_dir / source / "model.json").read_text())
    data["name"] = system
    (models_dir / folder).mkdir()
    (models_dir / folder / "model.json").write_text(json.dumps(data))


def test_compare_candidates_lists_targets_models_and_no_runs_without_history(client: TestClient, models_dir: Path) -> None:
    (models_dir / "targets").mkdir()
    (models_dir / "targets" / "shop-v3.sysml").write_text((models_dir / "shop" / "targets" / "shop-next.sysml").read_text())
    (models_dir / "targets" / "payments-next.sysml").write_text("package P { part system { part pay : Service; } }\n")
    (models_dir / "shop" / "target.sysml").write_text("package T { part system { part orders : Service; } }\n")
    (models_dir / "shop" / "targets" / "notes.txt").write_text("not a target\n")
    library = "// generated\nlibrary package RepoModeler { part def Service; }\n"
    for where in ("shop/RepoModeler.sysml", "shop/targets/RepoModeler.sysml", "shop/targets/lib-copy.sysml",
                  "targets/shop-library.sysml"):
        (models_dir / where).write_text(library)
    same_system_copy(models_dir, "shop", "shop-old")
    r = client.get("/api/models/shop/compare-candidates")
    assert r.status_code == 200
    listed = {c["id"]: c for c in r.json()}
    # the system's own targets, the shared target naming it, its other model folder; never the
    # library file (wherever it was copied), a shared target of another system, or the unrelated xss model
    assert list(listed) == ["target:target.sysml", SHOP_NEXT, "shared-target:shop-v3.sysml", "model:shop-old"]
    assert listed[SHOP_NEXT] == {"id": SHOP_NEXT, "kind": "target", "label": "shop-next.sysml",
                                 "detail": "shop/targets/shop-next.sysml"}
    assert listed["shared-target:shop-v3.sysml"]["label"] == "shop-v3.sysml"
    assert listed["shared-target:shop-v3.sysml"]["detail"] == "targets/shop-v3.sysml"
    # the shared targets folder is not a model, and model.sysml is never offered as a target
    assert [m["name"] for m in client.get("/api/models").json()] == ["shop", "shop-old", "xss"]
    assert [c["id"] for c in client.get("/api/models/xss/compare-candidates").json()] == []
    assert client.get("/api/models/shop/overlay", params={"against": "model:xss"}).status_code == 404
    assert client.get("/api/models/nope/compare-candidates").status_code == 404


def test_a_model_sharing_a_repository_is_related(client: TestClient, models_dir: Path) -> None:
    data = json.loads((models_dir / "shop" / "model.json").read_text())
    data["name"] = "shop-renamed"
    (models_dir / "renamed").mkdir()
    (models_dir / "renamed" / "model.json").write_text(json.dumps(data))
    ids = [c["id"] for c in client.get("/api/models/shop/compare-candidates").json()]
    assert "model:renamed" in ids and "model:xss" not in ids


def test_overlay_against_target_file(client: TestClient) -> None:
    r = client.get("/api/models/shop/overlay", params={"against": SHOP_NEXT})
    assert r.status_code == 200, r.text
    ov = r.json()
    assert ov["schema"] == "repomodeler/overlay@1"
    assert ov["base"] == "shop/model.json" and ov["compare"] == "shop/targets/shop-next.sysml"
    assert ov["against"]["id"] == SHOP_NEXT
    assert ov["nodes"] == {"notifier": "removed", "payments-db": "added"}
    assert ov["edges"]["orders->payments:http"] == "changed"
    assert ov["edges"]["notifier->rabbitmq:amqp"] == "removed"
    assert ov["ghost_nodes"] == [{"id": "payments-db", "kind": "database"}]
    assert ov["ghost_edges"] == [{"id": "payments->payments-db:sql", "source": "payments", "target": "payments-db", "protocol": "sql"}]
    texts = [c["text"] for c in ov["changes"]]
    assert "connection orders -> payments:http changed: protocol: http -> grpc" in texts
    assert "component payments-db added" in texts and "component notifier removed" in texts
    where = {c["id"]: c["where"] for c in ov["changes"]}
    assert where["payments-db"] == "shop/targets/shop-next.sysml:29"
    assert "/tmp" not in r.text and str(Path.home()) not in r.text  # no absolute paths of the server


def test_overlay_against_other_model(client: TestClient, models_dir: Path) -> None:
    same_system_copy(models_dir, "xss", "shop-evil")
    ov = client.get("/api/models/shop/overlay", params={"against": "model:shop-evil"}).json()
    assert ov["compare"] == "shop-evil/model.json"
    assert ov["nodes"]["orders"] == "removed" and ov["nodes"]["evil"] == "added"


@pytest.mark.parametrize(
    "against,status",
    [
        ("../..", 400),
        ("../../etc/passwd", 400),
        ("/etc/passwd", 400),
        ("target:../../shop/model.json", 400),
        ("target:/etc/passwd", 400),
        ("shared-target:../shop/model.sysml", 400),
        ("model:..", 400),
        ("C:\\windows\\win.ini", 400),
        ("target:model.sysml", 404),  # well-formed, but the model itself is not a target
        ("target:targets/missing.sysml", 404),
        ("model:shop", 404),  # itself
        ("model:nope", 404),
        ("run:1", 404),  # no run history
        ("target:shop-next.sysml", 404),  # exists only under targets/
        ("", 400),
    ],
)
def test_overlay_refuses_unlisted_ids(client: TestClient, against: str, status: int) -> None:
    r = client.get("/api/models/shop/overlay", params={"against": against})
    assert r.status_code == status, (against, r.text)
    assert "root:" not in r.text and "nodes" not in r.text


def test_overlay_refuses_symlinked_target_out_of_models_dir(models_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.sysml"
    outside.write_text("package Secret { part system { part secretservice : Service; } }\n")
    os.symlink(outside, models_dir / "shop" / "targets" / "linked.sysml")
    client = TestClient(app_for(models_dir))
    ids = [c["id"] for c in client.get("/api/models/shop/compare-candidates").json()]
    assert "target:targets/linked.sysml" not in ids
    r = client.get("/api/models/shop/overlay", params={"against": "target:targets/linked.sysml"})
    assert r.status_code == 404 and "secretservice" not in r.text


def test_overlay_against_stored_run_of_a_real_analysis(tmp_path: Path) -> None:
    """`repomodeler analyze` twice into one folder: the first run is offered and diffs correctly."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parents[1]
    src = tmp_path / "src" / "shop"
    shutil.copytree(root / "samples" / "shop", src)
    models = tmp_path / "models"

    def analyze() -> None:
        done = subprocess.run(["python", "-m", "repomodeler", "analyze", "--quiet", str(src), "--out", str(models / "shop"), "--no-validate"],
                              capture_output=True, text=True, cwd=root)
        assert done.returncode == 0, done.stderr

    analyze()
    shutil.rmtree(src / "inventory")  # the inventory service goes away in the second analysis
    compose = (src / "docker-compose.yml").read_text()
    assert "inventory" in compose
    (src / "docker-compose.yml").write_text("\n".join(l for l in compose.splitlines() if "inventory" not in l) + "\n")
    analyze()
    client = TestClient(app_for(models))
    runs = [c for c in client.get("/api/models/shop/compare-candidates").json() if c["kind"] == "run"]
    assert [c["id"] for c in runs] == ["run:2", "run:1"]
    assert runs[0]["label"].endswith("(same as shown)") and "(same" not in runs[1]["label"]
    ov = client.get("/api/models/shop/overlay", params={"against": "run:1"}).json()
    assert ov["compare"] == "run:shop:1" and ov["nodes"].get("inventory") == "added"
    assert {"id": "inventory", "kind": "service"} in ov["ghost_nodes"]
    assert client.get("/api/models/shop/overlay", params={"against": "run:2"}).json()["changes"] == []
    assert client.get("/api/models/shop/overlay", params={"against": "run:3"}).status_code == 404


def test_publish_precomputes_overlays_for_targets(models_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish_site(models_dir, out, [models_dir.parent / "checkouts"])
    data = (out / "data" / "shop.js").read_text()
    payload = json.loads(data[len("window.__MODEL__ = "):].rstrip().rstrip(";"))
    ids = [c["id"] for c in payload["compare"]["candidates"]]
    assert ids == [SHOP_NEXT]  # xss is another system
    assert payload["compare"]["overlays"][SHOP_NEXT]["nodes"]["payments-db"] == "added"
    assert not any(i.startswith("run:") for i in ids)


def test_unresolved_count_in_summary_and_gallery(client: TestClient) -> None:
    shop = client.get("/api/models/shop/summary").json()
    assert shop["unresolved"] == 2
    card = client.get("/").text
    assert "2 unresolved" in card


def test_gallery_counts_the_top_level_not_the_subsystems() -> None:
    from repomodeler.serve.store import summarize

    model = {"nodes": [{"id": "a", "kind": "service"}, {"id": "b", "kind": "service"},
                       {"id": "a/x", "kind": "subsystem", "parent": "a"}, {"id": "a/y", "kind": "subsystem", "parent": "a"}],
             "edges": [{"source": "a", "target": "b"}, {"source": "a/x", "target": "a/y"}, {"source": "a/x", "target": "b"}]}
    counts = summarize("m", model, {}, [])["counts"]
    assert (counts["components"], counts["connections"]) == (2, 1)
