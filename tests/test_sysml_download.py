"""The viewer's SysML download validates on its own (#13): model.sysml with the RepoModeler library it
imports, in one kpar, offered beside the model's files by the live viewer and the static site."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from repomodeler.cli import cli  # noqa: E402
from repomodeler.serve.app import create_app  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402
from repomodeler.serve.store import STANDALONE_KPAR  # noqa: E402
from repomodeler.validate import validate_files  # noqa: E402
from tests.conftest import SAMPLES, make_repo  # noqa: E402


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("download")
    repo = base / "grpc-mesh"
    make_repo(repo, source=SAMPLES / "grpc-mesh")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPOMODELER_HOME", str(base / "home"))
        result = CliRunner().invoke(cli, ["analyze", str(repo), "--out", str(base / "models" / "grpc-mesh"), "-q",
                                          "--no-validate"])
    assert result.exit_code == 0, result.output
    return base / "models"


def _unpack(data: bytes, into: Path) -> dict[str, object]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = sorted(zf.namelist())
        zf.extractall(into)
    assert names == [".meta.json", ".project.json", "RepoModeler.sysml", "model.sysml"]
    return json.loads((into / ".meta.json").read_text(encoding="utf-8"))


def test_live_viewer_offers_model_with_library_that_validates_alone(models: Path, tmp_path: Path) -> None:
    client = TestClient(create_app(models, allowed_hosts=["testserver"]))
    summary = client.get("/api/models/grpc-mesh/summary").json()
    assert summary["files"][:2] == ["model.sysml", STANDALONE_KPAR]
    page = client.get("/models/grpc-mesh").text
    assert f'href="/api/models/grpc-mesh/files/{STANDALONE_KPAR}" download="{STANDALONE_KPAR}"' in page
    response = client.get(f"/api/models/grpc-mesh/files/{STANDALONE_KPAR}")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    meta = _unpack(response.content, tmp_path)
    assert meta["index"] == {"RepoModeler": "RepoModeler.sysml", "grpc_mesh": "model.sysml"}
    # the two files are the folder's, byte for byte, and the engine accepts them with nothing else
    for name in ("model.sysml", "RepoModeler.sysml"):
        assert (tmp_path / name).read_bytes() == (models / "grpc-mesh" / name).read_bytes()
    assert [d.format() for d in validate_files([tmp_path / "model.sysml", tmp_path / "RepoModeler.sysml"])] == []
    # deterministic: the same bytes on a second request
    assert client.get(f"/api/models/grpc-mesh/files/{STANDALONE_KPAR}").content == response.content


@pytest.mark.skipif(shutil.which("sysand") is None, reason="sysand is not installed (pip install sysand)")
def test_sysand_reads_the_standalone_kpar(models: Path, tmp_path: Path) -> None:
    client = TestClient(create_app(models, allowed_hosts=["testserver"]))
    archive = tmp_path / STANDALONE_KPAR
    archive.write_bytes(client.get(f"/api/models/grpc-mesh/files/{STANDALONE_KPAR}").content)
    info = subprocess.run(["sysand", "info", "--no-index", "-p", str(archive)], capture_output=True, text=True,
                          timeout=120)
    assert info.returncode == 0, info.stderr
    assert "grpc-mesh" in info.stdout


def test_static_site_carries_the_standalone_kpar(models: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    publish_site(models, site)
    data = (site / "files" / "grpc-mesh" / STANDALONE_KPAR).read_bytes()
    _unpack(data, tmp_path / "unpacked")
    assert STANDALONE_KPAR in (site / "models" / "grpc-mesh.html").read_text(encoding="utf-8")


def test_no_standalone_kpar_without_the_library_file(models: Path, tmp_path: Path) -> None:
    old = tmp_path / "models" / "old"
    shutil.copytree(models / "grpc-mesh", old)
    (old / "RepoModeler.sysml").unlink()
    client = TestClient(create_app(tmp_path / "models", allowed_hosts=["testserver"]))
    assert STANDALONE_KPAR not in client.get("/api/models/old/summary").json()["files"]
    assert client.get(f"/api/models/old/files/{STANDALONE_KPAR}").status_code == 404
