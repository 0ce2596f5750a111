"""Issue 23, point 10: a forged run.json cannot name the clone cache (or a clone's git metadata)
as a plain-folder checkout and read the git metadata of the cached clones."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from repomodeler.serve.app import create_app  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402

from test_untrusted_models import _cited, _forge, analysed  # noqa: E402,F401 (fixture)


def _get(models: Path, repo: str, path: str, **kw: object):
    client = TestClient(create_app(models, allowed_hosts=["testserver"], **kw))  # type: ignore[arg-type]
    return client.get("/api/models/svc/source", params={"repository": repo, "path": path, "line": 1})


def _clone(home: Path) -> Path:
    clones = [p for p in (home / "repos").iterdir() if p.name.endswith(".git")]
    assert len(clones) == 1
    return clones[0]


@pytest.mark.parametrize("kind", ["dir", "git"])
def test_safety_clone_cache_root_is_no_checkout(analysed: Path, _isolated_home: Path, tmp_path: Path, kind) -> None:
    clone = _clone(_isolated_home)
    (clone / "config").write_text((clone / "config").read_text() + "# TOP-SECRET-CONFIG\n")
    repo = _cited(analysed)[0]
    for checkout, path in ((str(_isolated_home / "repos"), f"{clone.name}/config"), (str(clone), "config"),
                           (str(clone), "HEAD")):
        _forge(analysed, checkout, kind, path)
        r = _get(analysed, repo, path)
        assert r.status_code == 404 and "TOP-SECRET" not in r.text and "refs/heads" not in r.text, (checkout, path)
    site = tmp_path / "site"
    publish_site(analysed, site)
    assert "TOP-SECRET" not in (site / "data" / "svc.js").read_text()


def test_safety_git_metadata_of_a_named_source_root_is_not_served(analysed: Path, tmp_path: Path) -> None:
    """A plain-folder checkout under `--source-root` still never serves a .git folder's files."""
    work = tmp_path / "work"
    (work / ".git").mkdir(parents=True)
    (work / ".git" / "config").write_text("[remote]\n# TOP-SECRET-CONFIG\n")
    repo = _cited(analysed)[0]
    _forge(analysed, str(work), "dir", ".git/config")
    r = _get(analysed, repo, ".git/config", source_roots=[tmp_path])
    assert r.status_code in (400, 404) and "TOP-SECRET" not in r.text
    (work / "notes.txt").write_text("plain notes\n")  # its other files are read as before
    _forge(analysed, str(work), "dir", "notes.txt")
    r = _get(analysed, repo, "notes.txt", source_roots=[tmp_path])
    assert r.status_code == 200 and "plain notes" in json.loads(r.text)["lines"][0]
