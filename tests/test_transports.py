"""Git transports are allow-listed (issue #14, part 7): https, ssh, git, file; http only when asked
(or to this machine); remote helpers such as `ext::` and `fd::` never; no passwords for ssh/git."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repomodeler.acquire import parse_input, run_git
from repomodeler.records import RepomodelerError

from conftest import ROOT


@pytest.mark.parametrize("raw,needle", [
    ("fd::17", "git remote helper 'fd::'"),
    ("ext::sh -c touch% /tmp/pwned", "git remote helper 'ext::'"),
    ("ext::sh -c id@main", "git remote helper 'ext::'"),
    ("persistent-https::example.com/x", "git remote helper 'persistent-https::'"),
    ("http://example.com/acme/shop.git", "plain http://"),
    ("ssh://deploy:hunter2@example.com/acme/shop.git", "holds a password"),
    ("git://deploy:hunter2@example.com/acme/shop", "holds a password"),
    ("ftp://example.com/acme/shop.git", "unsupported scheme 'ftp://'"),
])
def test_refused_inputs_are_one_line_errors_without_secrets(raw: str, needle: str, tmp_path: Path) -> None:
    with pytest.raises(RepomodelerError) as info:
        parse_input(raw)
    assert needle in str(info.value) and "hunter2" not in str(info.value)
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", raw, "--out", str(tmp_path / "o"),
                           "--no-validate", "-q"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "hunter2" not in done.stderr, done.stderr
    assert "internal error" not in done.stderr and not (tmp_path / "o").exists()


def test_allowed_transports() -> None:
    for raw in ("https://github.com/acme/shop", "ssh://git@example.com/acme/shop.git", "git://example.com/acme/shop",
                "file:///srv/git/shop.git", "git@github.com:acme/shop.git", "http://127.0.0.1:8080/shop.git",
                "http://localhost/shop.git", "http://[::1]:9/shop.git"):
        assert parse_input(raw).kind == "url", raw
    assert parse_input("http://example.com/acme/shop.git", allow_http=True).location == "http://example.com/acme/shop.git"


def test_file_url_to_a_file_is_a_clean_message(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", "file:///etc/passwd", "--out",
                           str(tmp_path / "o"), "--no-validate", "-q"], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip() == ("error: 'file:///etc/passwd' is not a git repository (a file:// URL must name a "
                                   "repository folder); check the path")


def test_git_itself_refuses_remote_helpers(tmp_path: Path) -> None:
    """Defence in depth: even a URL that reached git without parse_input (a submodule, a redirect)
    cannot use ext:: — every git call carries protocol.allow=never plus the allowed list."""
    marker = tmp_path / "pwned"
    repo = tmp_path / "r.git"
    assert run_git(["init", "-q", "--bare", str(repo)]).returncode == 0
    done = run_git(["fetch", "--", f"ext::sh -c touch% {marker}", "+refs/heads/*:refs/heads/*"], cwd=repo, timeout=30)
    assert done.returncode != 0 and not marker.exists()
    assert b"transport 'ext' not allowed" in done.stderr


def test_file_url_to_a_folder_whose_name_holds_an_at_sign_names_that_folder(tmp_path: Path) -> None:
    """`file:///srv/app@2/repo` names the folder `app@2/repo` when it exists (as a local path would); an `@` the
    folders do not account for is still the ref (`file:///srv/shop.git@v1.2`).  (Pinning a ref on a folder whose
    own name holds an `@` is left: the URL's earlier `@` reads as user information.)"""
    folder = tmp_path / "app@2" / "repo"
    folder.mkdir(parents=True)
    spec = parse_input(f"file://{folder}")
    assert spec.ref is None and spec.location == f"file://{folder}"
    plain = tmp_path / "shop.git"
    plain.mkdir()
    pinned = parse_input(f"file://{plain}@v1.2")
    assert pinned.ref == "v1.2" and pinned.location == f"file://{plain}"
