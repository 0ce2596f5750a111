"""The viewer treats a models folder as untrusted input (issue #14, parts 2-4).

A folder can be forged by anyone who hands you a zip or a CI artefact: its run.json names the
checkout snippets are read from, its files can be symlinks, its model.json can be anything.
These probes must get 404 (or a broken-model entry) and leak nothing; one broken model must not
take the gallery down; requests for a foreign Host name (DNS rebinding) get 400.
"""

from __future__ import annotations

import http.client
import json
import os
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from repomodeler.pipeline import AnalyzeOptions, analyze  # noqa: E402
from repomodeler.serve.app import create_app  # noqa: E402
from repomodeler.serve.background import background_server  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402

from conftest import make_repo  # noqa: E402

SECRET = "TOP-SECRET-LINE"
APP = 'import flask\napp = flask.Flask("svc")\n\n@app.route("/hello")\ndef hello():\n    return "hi"\n'


def client_for(models: Path, **kw: object) -> TestClient:
    return TestClient(create_app(models, allowed_hosts=["testserver"], **kw))  # type: ignore[arg-type]


@pytest.fixture()
def analysed(tmp_path: Path, _isolated_home: Path) -> Path:
    """A real model of a repository cloned by file:// (so its checkout is in the clone cache)."""
    repo = tmp_path / "svc"
    make_repo(repo, {"app.py": APP})
    models = tmp_path / "models"
    analyze([f"file://{repo}"], AnalyzeOptions(out=models / "svc", validate=False, jobs=1))
    checkout = json.loads((models / "svc" / "run.json").read_text())["repositories"][0]["checkout"]
    assert Path(checkout).resolve().is_relative_to((_isolated_home / "repos").resolve())
    return models


def _cited(models: Path, name: str = "svc") -> tuple[str, str, int]:
    model = json.loads((models / name / "model.json").read_text())
    ev = model["nodes"][0]["evidence"][0]
    return ev["repository"], ev["path"], ev["line"]


def _forge(models: Path, checkout: str, kind: str, path: str) -> None:
    """Make model `svc` cite `path` and claim its checkout is `checkout`."""
    model = json.loads((models / "svc" / "model.json").read_text())
    repo = model["repositories"][0]["name"]
    model["nodes"][0]["evidence"].append({"repository": repo, "path": path, "line": 1})
    (models / "svc" / "model.json").write_text(json.dumps(model))
    run = json.loads((models / "svc" / "run.json").read_text())
    run["repositories"][0].update(checkout=checkout, kind=kind)
    (models / "svc" / "run.json").write_text(json.dumps(run))


def test_snippets_from_the_clone_cache_need_no_option(analysed: Path) -> None:
    repo, path, line = _cited(analysed)
    r = client_for(analysed).get("/api/models/svc/source", params={"repository": repo, "path": path, "line": line})
    assert r.status_code == 200, r.text
    assert any("flask" in text for text in r.json()["lines"])


@pytest.mark.parametrize("kind", ["dir", "git"])
def test_forged_checkout_root_cannot_read_etc_passwd(analysed: Path, kind: str, tmp_path: Path) -> None:
    _forge(analysed, "/", kind, "etc/passwd")
    repo = _cited(analysed)[0]
    r = client_for(analysed).get("/api/models/svc/source", params={"repository": repo, "path": "etc/passwd", "line": 1})
    assert r.status_code == 404 and "root:" not in r.text
    site = tmp_path / "site"
    publish_site(analysed, site)
    assert "root:" not in (site / "data" / "svc.js").read_text()


def test_forged_checkout_outside_the_roots_is_refused_unless_the_operator_names_it(analysed: Path,
                                                                                     tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir()
    (private / "notes.txt").write_text(f"{SECRET}\n")
    _forge(analysed, str(private), "dir", "notes.txt")
    repo = _cited(analysed)[0]
    params = {"repository": repo, "path": "notes.txt", "line": 1}
    r = client_for(analysed).get("/api/models/svc/source", params=params)
    assert r.status_code == 404 and SECRET not in r.text
    # `serve --source-root tmp_path`: the operator vouches for it, so it is read
    r = client_for(analysed, source_roots=[tmp_path]).get("/api/models/svc/source", params=params)
    assert r.status_code == 200 and SECRET in r.text


def test_symlink_inside_the_clone_cache_pointing_out_is_refused(analysed: Path, _isolated_home: Path,
                                                                tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.txt").write_text(f"{SECRET}\n")
    link = _isolated_home / "repos" / "evil"
    os.symlink(outside, link)
    _forge(analysed, str(link), "dir", "notes.txt")
    repo = _cited(analysed)[0]
    r = client_for(analysed).get("/api/models/svc/source", params={"repository": repo, "path": "notes.txt", "line": 1})
    assert r.status_code == 404 and SECRET not in r.text
    # ... and a relative or dotted checkout path is no way round it
    _forge(analysed, str(_isolated_home / "repos" / ".." / ".." / outside.name), "dir", "notes.txt")
    r = client_for(analysed).get("/api/models/svc/source", params={"repository": repo, "path": "notes.txt", "line": 1})
    assert r.status_code == 404 and SECRET not in r.text


@pytest.fixture()
def models(tmp_path: Path) -> Path:
    """Two good minimal models: two analyses of one system (so each is offered to compare with the other)."""
    root = tmp_path / "models"
    for name in ("alpha", "omega"):
        (root / name).mkdir(parents=True)
        (root / name / "model.json").write_text(json.dumps({"name": "svc", "nodes": [], "edges": []}))
        (root / name / "model.sysml").write_text(f"package {name};\n")
    return root


def test_symlinked_model_files_are_never_served(models: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET)
    (models / "alpha" / "model.sysml").unlink()
    os.symlink(secret, models / "alpha" / "model.sysml")
    os.symlink(secret, models / "alpha" / "model.mmd")
    (models / "omega" / "model.json").unlink()
    os.symlink(secret, models / "omega" / "model.json")
    client = client_for(models)
    for url in ("/api/models/alpha/sysml", "/api/models/alpha/files/model.sysml", "/api/models/alpha/files/model.mmd",
                "/api/models/omega", "/api/models/omega/files/model.json", "/models/omega", "/api/models/omega/summary",
                "/api/models/omega/nesting"):
        r = client.get(url)
        assert r.status_code in (404, 422), url
        assert SECRET not in r.text, url
    listed = {m["name"]: m for m in client.get("/api/models").json()}
    assert listed["alpha"]["files"] == ["model.json"]  # the symlinks are not offered
    assert listed["omega"]["broken"] is True and "symbolic link" in listed["omega"]["error"]
    # even a symlink to a file inside the same folder is refused: one rule, no exceptions
    (models / "alpha" / "copy.sysml").write_text("package alpha;\n")
    os.symlink("copy.sysml", models / "alpha" / "linked.sysml")
    assert client.get("/api/models/alpha/files/linked.sysml").status_code == 404
    site = tmp_path / "site"
    publish_site(models, site)
    assert not any(SECRET in p.read_text(errors="replace") for p in site.rglob("*") if p.is_file())


@pytest.mark.parametrize("text,reason", [
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ('{"name": "x", "nodes": [', "is not valid JSON"),
    ("\xff\xfe{}", "is not UTF-8 text"),
    ("[1, 2, 3]", "is not a JSON object"),
])
def test_one_broken_model_is_a_broken_entry_not_a_500(models: Path, text: str, reason: str) -> None:
    bad = models / "broken"
    bad.mkdir()
    (bad / "model.json").write_text(text, encoding="latin-1")
    client = client_for(models)
    r = client.get("/api/models")
    assert r.status_code == 200
    listed = {m["name"]: m for m in r.json()}
    assert set(listed) == {"alpha", "broken", "omega"}
    assert listed["broken"]["broken"] is True and reason in listed["broken"]["error"], listed["broken"]
    assert "broken" not in listed["alpha"]
    page = client.get("/")
    assert page.status_code == 200 and "broken model:" in page.text and 'href="/models/alpha"' in page.text
    r = client.get("/api/models/broken")
    assert r.status_code == 422 and reason in r.json()["detail"]
    assert client.get("/models/broken").status_code == 422
    assert client.get("/api/models/broken/overlay", params={"against": "model:alpha"}).status_code in (404, 422)
    assert client.get("/api/models/alpha/compare-candidates").status_code == 200
    assert client.get("/api/models/alpha/overlay", params={"against": "model:omega"}).status_code == 200


def test_deep_nesting_inside_a_valid_model_does_not_break_the_list(models: Path) -> None:
    deep: object = "leaf"
    for _ in range(900):
        deep = [deep]
    (models / "alpha" / "model.json").write_text(json.dumps({"name": "alpha", "nodes": [{"id": "a", "kind": deep,
                                                                                          "language": deep}],
                                                             "edges": [], "repositories": [deep]}))
    r = client_for(models).get("/api/models")
    assert r.status_code == 200 and {m["name"] for m in r.json()} == {"alpha", "omega"}


# ------------------------------------------------------------------------------------ Host header
@pytest.mark.parametrize("host,status", [
    ("localhost", 200), ("localhost:8000", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200),
    ("LOCALHOST.", 200), ("attacker.example", 400), ("attacker.example:8000", 400), ("127.0.0.1.nip.io", 400),
    ("localhost.attacker.example", 400), ("testserver", 400),
])
def test_host_header_allow_list(models: Path, host: str, status: int) -> None:
    client = TestClient(create_app(models))  # the default: loopback names only
    r = client.get("/api/models", headers={"host": host})
    assert r.status_code == status, host
    if status == 400:
        assert "alpha" not in r.text and "invalid Host header" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]


def test_real_server_refuses_a_rebinding_host_and_allows_an_operator_named_one(models: Path) -> None:
    with background_server(models) as url:
        host, port = url.removeprefix("http://").split(":")

        def get(host_header: str) -> int:
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("GET", "/api/models", headers={"Host": host_header})
            status = conn.getresponse().status
            conn.close()
            return status

        assert get(f"127.0.0.1:{port}") == 200
        assert get(f"localhost:{port}") == 200
        assert get(f"rebind.attacker.example:{port}") == 400
    client = TestClient(create_app(models, allowed_hosts=["viewer.internal"]))
    assert client.get("/api/models", headers={"host": "viewer.internal:8000"}).status_code == 200
    assert client.get("/api/models", headers={"host": "other.internal"}).status_code == 400


def test_serve_cli_has_the_trust_options() -> None:
    from click.testing import CliRunner

    from repomodeler.cli import cli

    out = CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--source-root" in out and "--allow-host" in out
    assert "--source-root" in CliRunner().invoke(cli, ["publish", "--help"]).output
