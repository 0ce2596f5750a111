"""Issue 27, point 1: after the README's own flow (`analyze samples/shop --out models/shop`, then
`serve models`) evidence snippets show without --source-root: from the folder it was analysed
from (recorded in the run history, the user's own file) or from the clone cache; when neither
has them the message says how (--source-root). A models folder still cannot point the server at
a folder of its choosing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from _gitserver import GitHttpServer, bare_copy  # noqa: E402
from conftest import SAMPLES, make_repo  # noqa: E402
from repomodeler.serve.app import create_app  # noqa: E402


def analyze(cwd: Path, *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", "--quiet", "--no-validate", *args],
                          cwd=cwd, capture_output=True, text=True, env=os.environ.copy())
    assert done.returncode == 0, done.stderr


def readme_flow(tmp_path: Path) -> Path:
    """`repomodeler analyze samples/shop --out models/shop` run in a folder holding samples/shop."""
    shutil.copytree(SAMPLES / "shop", tmp_path / "samples" / "shop")
    analyze(tmp_path, "samples/shop", "--out", "models/shop")
    return tmp_path / "models"


def cited(models: Path, repository: str = "shop") -> tuple[str, int]:
    model = json.loads((models / "shop" / "model.json").read_text())
    ev = next(e for x in model["edges"] if x["id"] == "orders->payments:http" for e in x["evidence"]
              if e["path"].endswith(".py"))
    return ev["path"], ev["line"]


def test_readme_flow_shows_snippets_without_flags(tmp_path: Path) -> None:
    models = readme_flow(tmp_path)
    client = TestClient(create_app(models, allowed_hosts=["testserver"]))  # no --source-root
    path, line = cited(models)
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": line})
    assert r.status_code == 200, r.text
    text = (tmp_path / "samples" / "shop" / path).read_text().splitlines()
    data = r.json()
    assert data["lines"][data["highlight"] - data["start"]] == text[line - 1]


def test_a_changed_model_or_a_forged_run_json_gets_no_snippet_and_a_message_naming_source_root(tmp_path: Path) -> None:
    models = readme_flow(tmp_path)
    path, line = cited(models)
    folder = models / "shop"
    # the same model written differently is not the model analysed here: its sources are unknown
    data = json.loads((folder / "model.json").read_text())
    (folder / "model.json").write_text(json.dumps(data, indent=1))
    run = json.loads((folder / "run.json").read_text())
    run["repositories"][0]["checkout"] = str(tmp_path / "samples" / "shop")  # run.json alone is not trusted
    (folder / "run.json").write_text(json.dumps(run))
    client = TestClient(create_app(models, allowed_hosts=["testserver"]))
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": line})
    assert r.status_code == 404
    assert r.json()["detail"] == ("Source of 'shop' not available: it was analysed from a folder this server does not "
                                  "know: start the server with --source-root FOLDER (the folder it was analysed from, "
                                  "or a parent), or analyse it again on this machine.")
    # naming the folder, as the message says, brings the snippet back
    client = TestClient(create_app(models, source_roots=[tmp_path / "samples"], allowed_hosts=["testserver"]))
    assert client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": line}).status_code == 200


def test_a_model_of_a_url_reads_the_clone_cache_without_run_json_or_history(tmp_path: Path) -> None:
    root = tmp_path / "srv"
    root.mkdir()
    make_repo(tmp_path / "work" / "shop", source=SAMPLES / "shop")
    bare_copy(tmp_path / "work" / "shop", root, "shop.git")
    with GitHttpServer(root) as server:
        analyze(tmp_path, server.url("shop.git"), "--out", "models/shop")
    models = tmp_path / "models"
    (models / "shop" / "run.json").unlink()  # a models folder copied without it
    (Path(os.environ["REPOMODELER_HOME"]) / "runs.sqlite").unlink()
    path, line = cited(models)
    client = TestClient(create_app(models, allowed_hosts=["testserver"]))
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": line})
    assert r.status_code == 200, r.text
    shutil.rmtree(Path(os.environ["REPOMODELER_HOME"]) / "repos")
    r = client.get("/api/models/shop/source", params={"repository": "shop", "path": path, "line": line})
    assert r.status_code == 404 and "not in the clone cache" in r.json()["detail"] and "--source-root" in r.json()["detail"]
