"""Bad inputs through the real CLI: one line naming the input and a next step, exit 1, and the
previously published model left byte for byte as it was."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from _gitserver import GitHttpServer, SilentServer, bare_copy
from conftest import ROOT, git, make_repo

GOOD = {"requirements.txt": "flask\n",
        "app.py": 'import flask\napp = flask.Flask("x")\n@app.route("/health")\ndef health(): pass\n'}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["python", "-m", "repomodeler", "analyze", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def published(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A model already published at tmp_path/out (from a small good repository) and its bytes."""
    make_repo(tmp_path / "good", GOOD)
    out = tmp_path / "out"
    proc = cli(str(tmp_path / "good"), "--out", str(out), "--no-validate", "-q")
    assert proc.returncode == 0, proc.stderr
    return out, snapshot(out)


def assert_fails(published: tuple[Path, dict[str, bytes]], args: list[str], expected: str,
                 timeout: float = 60) -> subprocess.CompletedProcess[str]:
    out, before = published
    proc = cli(*args, "--out", str(out), "--no-validate", timeout=timeout)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [expected]
    assert proc.stdout == ""
    assert snapshot(out) == before
    assert sorted(p.name for p in out.parent.iterdir() if p.name.startswith(".out")) == []  # no staging left
    return proc


@pytest.mark.parametrize("url, expected", [
    ("htp://example.com/x.git", "error: 'htp://example.com/x.git' uses the unsupported scheme 'htp://'; "
                                "use https://, ssh://, git:// or file://"),
    ("https://", "error: 'https://' is not a valid git URL (no host); use e.g. https://github.com/owner/repo"),
    ("https://example.com", "error: 'https://example.com' is not a valid git URL (no repository path); "
                            "use e.g. https://github.com/owner/repo"),
    ("https://example.com/o/r@", "error: 'https://example.com/o/r@' ends with '@' but names no ref; "
                                 "write URL@branch, URL@tag or URL@commit"),
])
def test_malformed_url(published, url: str, expected: str) -> None:
    assert_fails(published, [url], expected)


def test_connection_refused(published) -> None:
    assert_fails(published, ["http://127.0.0.1:1/x.git"],
                 "error: cannot connect to 'http://127.0.0.1:1/x.git'; check the URL, the port and your network")


def test_host_that_never_answers_times_out(published) -> None:
    with SilentServer() as srv:
        url = f"http://127.0.0.1:{srv.port}/x.git"
        started = time.monotonic()
        assert_fails(published, [url, "--timeout", "2"],
                     f"error: cloning '{url}' timed out after 2s; check the host or raise --timeout", timeout=30)
        assert time.monotonic() - started < 15


def test_timeout_leaves_no_half_clone_in_cache(published, _isolated_home: Path) -> None:
    with SilentServer() as srv:
        assert_fails(published, [f"http://127.0.0.1:{srv.port}/x.git", "--timeout", "1"],
                     f"error: cloning 'http://127.0.0.1:{srv.port}/x.git' timed out after 1s; "
                     "check the host or raise --timeout", timeout=30)
    assert list((_isolated_home / "repos").iterdir()) == []


def test_authentication_required(published, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("REPOMODELER_GIT_TOKEN", raising=False)
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    make_repo(tmp_path / "private", GOOD)
    root = tmp_path / "srv"
    root.mkdir()
    bare_copy(tmp_path / "private", root, "private.git")
    with GitHttpServer(root, password="pw-123456") as srv:
        url = srv.url("private.git")
        assert_fails(published, [url], f"error: '{url}' needs authentication; set REPOMODELER_GIT_TOKEN "
                                       "(or GITHUB_TOKEN) or use an ssh URL with a loaded key")


def test_repository_missing_on_server(published, tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    with GitHttpServer(tmp_path / "srv") as srv:
        url = srv.url("nothing.git")
        assert_fails(published, [url], f"error: no git repository at '{url}'; check the URL")


def test_nonexistent_ref_local_and_url(published, tmp_path: Path) -> None:
    repo = tmp_path / "svc"
    make_repo(repo, GOOD)
    assert_fails(published, [f"{repo}@no-such-branch"],
                 f"error: ref 'no-such-branch' does not exist in '{repo}'; give an existing branch, tag or commit")
    assert_fails(published, [f"file://{repo}@v9"],
                 f"error: ref 'v9' does not exist in 'file://{repo}'; give an existing branch, tag or commit")


def test_empty_repository(published, tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "empty")
    assert_fails(published, [str(tmp_path / "empty")],
                 f"error: '{tmp_path / 'empty'}' is an empty repository (no commits); push a commit first")
    git(tmp_path, "init", "-q", "--bare", "empty.git")
    url = f"file://{tmp_path / 'empty.git'}"
    assert_fails(published, [url], f"error: '{url}' is an empty repository (no commits); push a commit first")


def test_path_that_is_not_a_directory(published, tmp_path: Path) -> None:
    f = tmp_path / "notes.txt"
    f.write_text("hello\n")
    assert_fails(published, [str(f)], f"error: '{f}' is not a directory; give a folder or a git URL")


def test_path_that_does_not_exist(published, tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    assert_fails(published, [str(missing)], f"error: '{missing}' does not exist; give an existing folder or a git URL "
                                            "(https://, ssh://, git@host:owner/repo, file://)")


def test_directory_with_no_recognisable_source(published, tmp_path: Path) -> None:
    d = tmp_path / "docs-only"
    d.mkdir()
    (d / "README.md").write_text("# nothing to see\n")
    (d / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    assert_fails(published, [str(d)], f"error: no recognisable source, deployment or configuration files in {d}; "
                                      "check the path or add the repository that holds the code")


def test_mixed_inputs_without_keep_going_publish_nothing(published, tmp_path: Path) -> None:
    make_repo(tmp_path / "other", {**GOOD, "app.py": GOOD["app.py"].replace("/health", "/other")})
    assert_fails(published, [str(tmp_path / "other"), "htp://bad/x", str(tmp_path / "missing")],
                 "error: 'htp://bad/x' uses the unsupported scheme 'htp://'; use https://, ssh://, git:// or file://")
    assert_fails(published, [str(tmp_path / "other"), "http://127.0.0.1:1/x.git"],
                 "error: cannot connect to 'http://127.0.0.1:1/x.git'; check the URL, the port and your network")


def test_mixed_inputs_with_keep_going_analyse_the_rest(published, tmp_path: Path) -> None:
    out, before = published
    make_repo(tmp_path / "other", {**GOOD, "app.py": GOOD["app.py"].replace("/health", "/other")})
    proc = cli(str(tmp_path / "good"), "htp://bad/x", str(tmp_path / "other"), str(tmp_path / "missing"),
               "http://127.0.0.1:1/x.git", "--keep-going", "--out", str(out), "--no-validate")
    assert proc.returncode == 0, proc.stderr
    failed = [ln for ln in proc.stdout.splitlines() if ln.startswith("failed:")]
    assert failed == [
        "failed: error: 'htp://bad/x' uses the unsupported scheme 'htp://'; use https://, ssh://, git:// or file://",
        f"failed: error: '{tmp_path / 'missing'}' does not exist; give an existing folder or a git URL "
        "(https://, ssh://, git@host:owner/repo, file://)",
        "failed: error: cannot connect to 'http://127.0.0.1:1/x.git'; check the URL, the port and your network",
    ]
    import json

    model = json.loads((out / "model.json").read_text())
    assert sorted(r["name"] for r in model["repositories"]) == ["good", "other"]
    run = json.loads((out / "run.json").read_text())
    assert len(run["failures"]) == 3


def test_keep_going_when_every_input_fails(published) -> None:
    assert_fails(published, ["htp://a/x", "http://127.0.0.1:1/x.git", "--keep-going"],
                 "error: none of the inputs could be read; nothing was written "
                 "(error: 'htp://a/x' uses the unsupported scheme 'htp://'; use https://, ssh://, git:// or file://)")
