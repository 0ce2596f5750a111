"""Private repositories: a token reaches git for one process only and is never written anywhere.

The "host" is a local smart-HTTP server (git http-backend behind basic auth) on 127.0.0.1.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from _gitserver import GitHttpServer, bare_copy
from conftest import ROOT, make_repo
from repomodeler.credentials import askpass_env, credential_for, split_userinfo

TOKEN = "tok-9f3b2c7e1d5a"
GOOD = {"requirements.txt": "flask\n",
        "app.py": 'import flask\napp = flask.Flask("x")\n@app.route("/private")\ndef p(): pass\n'}


@pytest.fixture
def private_server(tmp_path: Path):
    make_repo(tmp_path / "work", GOOD)
    root = tmp_path / "srv"
    root.mkdir()
    bare_copy(tmp_path / "work", root, "private.git")
    with GitHttpServer(root, password=TOKEN) as srv:
        yield srv


def run(args: list[str], env_extra: dict[str, str], tmpdir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REPOMODELER_GIT_TOKEN", "GITHUB_TOKEN")}
    env.update(env_extra, TMPDIR=str(tmpdir))
    return subprocess.run(["python", "-m", "repomodeler", "analyze", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=60)


def files_containing(folder: Path, needle: bytes) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and needle in p.read_bytes()]


def test_without_token_the_auth_error_names_the_fix(private_server, tmp_path: Path) -> None:
    url = private_server.url("private.git")
    proc = run([url, "--out", str(tmp_path / "out"), "--no-validate"], {}, tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (f"error: '{url}' needs authentication; set REPOMODELER_GIT_TOKEN (or GITHUB_TOKEN) "
                                   "or use an ssh URL with a loaded key")
    assert not (tmp_path / "out").exists()


def test_wrong_token_is_reported_as_refused(private_server, tmp_path: Path) -> None:
    url = private_server.url("private.git")
    proc = run([url, "--out", str(tmp_path / "out"), "--no-validate"], {"REPOMODELER_GIT_TOKEN": "nope-nope"}, tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (f"error: '{url}' refused the credentials from REPOMODELER_GIT_TOKEN; check the token "
                                   "and that it may read this repository")


def test_token_from_environment_clones_and_is_never_written(private_server, tmp_path: Path,
                                                            _isolated_home: Path) -> None:
    url = private_server.url("private.git")
    out = tmp_path / "out"
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    outputs = []
    for _ in range(2):  # first run clones, second fetches into the cached clone
        proc = run([url, "--out", str(out), "--no-validate"], {"REPOMODELER_GIT_TOKEN": TOKEN}, tmpdir)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout + proc.stderr)
    model = json.loads((out / "model.json").read_text())
    assert any(e["path"] == "/private" for c in model["nodes"] for p in c["ports"] for e in p["endpoints"])
    expected = "Basic " + base64.b64encode(f"x-access-token:{TOKEN}".encode()).decode()
    assert expected in private_server.seen_auth  # the token did reach the server...
    for text in outputs:  # ...and nothing else
        assert TOKEN not in text
    assert files_containing(_isolated_home, TOKEN.encode()) == []
    assert files_containing(tmp_path, TOKEN.encode()) == []  # the model, run history, TMPDIR, everything
    assert list(tmpdir.iterdir()) == []  # the askpass folder is gone
    configs = [p.read_text() for p in (_isolated_home / "repos").glob("*/config")]
    assert len(configs) == 1 and "url" not in configs[0] and "127.0.0.1" not in configs[0]


def test_password_in_url_is_used_and_redacted_everywhere(private_server, tmp_path: Path,
                                                         _isolated_home: Path) -> None:
    url = private_server.url("private.git").replace("http://", f"http://me:{TOKEN}@")
    out = tmp_path / "out"
    proc = run([url, "--out", str(out), "--no-validate"], {}, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert TOKEN not in proc.stdout + proc.stderr
    assert files_containing(_isolated_home, TOKEN.encode()) == []
    assert files_containing(tmp_path, TOKEN.encode()) == []
    run_json = json.loads((out / "run.json").read_text())
    assert run_json["repositories"][0]["input"] == private_server.url("private.git")


def test_github_token_is_not_sent_to_other_hosts(private_server, tmp_path: Path) -> None:
    url = private_server.url("private.git")
    proc = run([url, "--out", str(tmp_path / "out"), "--no-validate"], {"GITHUB_TOKEN": TOKEN}, tmp_path)
    assert proc.returncode == 1
    assert "needs authentication" in proc.stderr
    assert not any(TOKEN in base64.b64decode(h[6:]).decode() for h in private_server.seen_auth if h.startswith("Basic "))


def test_github_token_is_offered_to_github_only() -> None:
    env = {"GITHUB_TOKEN": TOKEN}
    assert credential_for("https://github.com/o/r", env)[1].secret == TOKEN
    assert credential_for("https://gitlab.com/o/r", env)[1] is None
    assert credential_for("ssh://git@github.com/o/r", env)[1] is None
    assert credential_for("https://gitlab.com/o/r", {"REPOMODELER_GIT_TOKEN": "x"})[1].host == "gitlab.com"


def test_split_userinfo_moves_the_user_and_the_password_out() -> None:
    clean, cred = split_userinfo("https://me:p%40ss@example.com:8443/o/r.git")
    assert clean == "https://example.com:8443/o/r.git"  # issue 23: a token is often the user name
    assert (cred.host, cred.username, cred.secret) == ("example.com:8443", "me", "p@ss")
    assert TOKEN not in repr(credential_for("https://x.org/r", {"REPOMODELER_GIT_TOKEN": TOKEN})[1])


def test_askpass_script_holds_no_secret_and_answers_only_its_host(tmp_path: Path) -> None:
    _url, cred = credential_for("https://example.com/o/r", {"REPOMODELER_GIT_TOKEN": TOKEN})
    with askpass_env(cred) as extra:
        script = Path(extra["GIT_ASKPASS"])
        assert TOKEN.encode() not in script.read_bytes()
        assert stat.S_IMODE(script.parent.stat().st_mode) == 0o700
        env = {"PATH": os.environ["PATH"], **extra}

        def ask(prompt: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([str(script), prompt], capture_output=True, text=True, env=env)

        assert ask("Username for 'https://example.com': ").stdout == "x-access-token\n"
        assert ask("Password for 'https://x-access-token@example.com': ").stdout == TOKEN + "\n"
        evil = ask("Password for 'https://x-access-token@evil.example.net': ")
        assert evil.returncode != 0 and evil.stdout == ""
    assert not script.parent.exists()


@pytest.mark.parametrize("raw, shown", [
    ("https://user:secret@github.com/o/r.git", "https://github.com/o/r.git"),
    ("https://ghp_abcdef@github.com/o/r@main", "https://github.com/o/r@main"),
    ("http://127.0.0.1:8080/r.git", "http://127.0.0.1:8080/r.git"),
    ("git@github.com:o/r.git", "git@github.com:o/r.git"),
])
def test_redact_url_removes_userinfo(raw: str, shown: str) -> None:
    from repomodeler.acquire import redact_url

    assert redact_url(raw) == shown


def test_errors_for_urls_with_credentials_never_print_them(tmp_path: Path) -> None:
    url = f"http://me:{TOKEN}@127.0.0.1:1/x.git"
    proc = run([url, "--out", str(tmp_path / "out"), "--no-validate"], {}, tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("error: cannot connect to 'http://127.0.0.1:1/x.git'; check the URL, the port and "
                                   "your network")
