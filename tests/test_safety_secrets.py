"""Issue 23, point 3: one redaction step for every message, command line, child environment and
model field; a token with '/', '#' and '?' in it is never printed, never on a command line."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from _gitserver import GitHttpServer, bare_copy
from conftest import ROOT, make_repo

SPECIAL = "tk/9#Qz?x3W"  # every piece of it is distinctive
PIECES = (SPECIAL, "9#Qz", "Qz?x3W", "%23Qz")
GOOD = {"requirements.txt": "flask\n",
        "app.py": 'import flask\napp = flask.Flask("x")\n@app.route("/private")\ndef p(): pass\n'}


def _env(extra: dict[str, str], tmpdir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REPOMODELER_GIT_TOKEN", "GITHUB_TOKEN")}
    env.update(extra, TMPDIR=str(tmpdir))
    return env


def _run(args: list[str], extra: dict[str, str], tmpdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["python", "-m", "repomodeler", "analyze", *args], capture_output=True, text=True,
                          cwd=ROOT, env=_env(extra, tmpdir), timeout=120)


def _leaks(text: str) -> list[str]:
    return [p for p in PIECES if p in text]


def test_safety_token_with_special_characters_is_never_printed(tmp_path) -> None:
    url = f"http://me:{SPECIAL}@127.0.0.1:1/x.git"
    proc = _run([url, "--out", str(tmp_path / "out"), "--no-validate"], {}, tmp_path)
    assert proc.returncode == 1
    assert not _leaks(proc.stdout + proc.stderr), proc.stderr
    assert proc.stderr.strip() == ("error: cannot connect to 'http://127.0.0.1:1/x.git'; check the URL, the port and "
                                   "your network")


def test_safety_ssh_url_with_a_password_is_refused_whatever_its_characters(tmp_path) -> None:
    for url in (f"ssh://me:{SPECIAL}@example.invalid/o/r.git", "ssh://me:plain@example.invalid/o/r.git"):
        proc = _run([url, "--out", str(tmp_path / "out"), "--no-validate"], {}, tmp_path)
        assert proc.returncode == 1
        assert "holds a password" in proc.stderr and not _leaks(proc.stderr), proc.stderr


def test_safety_redact_handles_every_form() -> None:
    from repomodeler.credentials import redact

    assert redact(f"https://me:{SPECIAL}@github.com/o/r.git") == "https://github.com/o/r.git"
    assert redact(f"cannot clone 'https://{SPECIAL}@host/o/r@main': x") == "cannot clone 'https://host/o/r@main': x"
    assert redact("https://host:8443/o/r@main") == "https://host:8443/o/r@main"
    assert redact("https://host/o/r@main") == "https://host/o/r@main"
    assert redact("https://host/o/r.git?private_token=abc123&x=1") == "https://host/o/r.git?private_token=***&x=1"
    assert redact("see https://host/r?sig=abc#frag") == "see https://host/r?sig=***#frag"
    os.environ["REPOMODELER_GIT_TOKEN"] = SPECIAL
    try:
        assert not _leaks(redact(f"git said: {SPECIAL} / {SPECIAL.replace('#', '%23')}"))
    finally:
        del os.environ["REPOMODELER_GIT_TOKEN"]


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return b""


@pytest.fixture
def special_server(tmp_path: Path):
    make_repo(tmp_path / "work", GOOD)
    root = tmp_path / "srv"
    root.mkdir()
    bare_copy(tmp_path / "work", root, "private.git")
    with GitHttpServer(root, password=SPECIAL) as srv:
        yield srv


@pytest.mark.parametrize("where", ["url", "environment"])
def test_safety_token_never_in_ps_children_or_files(special_server, tmp_path, _isolated_home, where) -> None:
    """Sample every process's command line (and the environment of every child but git, which gets
    the token for its askpass helper) while a real run clones with the token."""
    url = special_server.url("private.git")
    if where == "url":
        url, extra = url.replace("http://", f"http://me:{SPECIAL}@"), {}
    else:
        extra = {"REPOMODELER_GIT_TOKEN": SPECIAL}
    out = tmp_path / "out"
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = subprocess.Popen(["python", "-m", "repomodeler", "analyze", url, "--out", str(out)],  # with the engine
                            cwd=ROOT, env=_env(extra, tmpdir), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    seen: list[tuple[int, str, bytes, bytes]] = []
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            for pid in [proc.pid, *_descendants(proc.pid)]:
                cmdline = _read(f"/proc/{pid}/cmdline")
                environ = _read(f"/proc/{pid}/environ") if pid != proc.pid else b""
                if pid != proc.pid and (not cmdline or _read(f"/proc/{pid}/cmdline") != cmdline):
                    # exec'ing or exiting between the two reads: the environment may be the next program's
                    # (git's, which holds the secret for its askpass helper), so the sample names nobody
                    continue
                seen.append((pid, cmdline.decode("utf-8", "replace"), cmdline, environ))
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        stdout, stderr = proc.communicate(timeout=180)
    finally:
        stop.set()
        sampler.join()
    assert proc.returncode == 0, stderr
    assert not _leaks(stdout + stderr)
    assert special_server.seen_auth  # the token did reach the server
    needle = SPECIAL.encode()
    started = False
    kinds: set[str] = set()
    for pid, text, cmdline, environ in seen:
        if pid == proc.pid and not started:
            started = needle not in cmdline  # the instant before the start-up re-exec is not counted
            if not started:
                continue
        assert needle not in cmdline, text
        if "git" not in text.split("\0")[0] and "askpass" not in text:
            assert needle not in environ, text
            kinds.add("engine" if "kernel" in text else "other")
    assert "engine" in kinds, kinds  # the SysML engine was sampled and holds no token
    for folder in (_isolated_home, tmp_path):
        hits = [str(p) for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and needle in p.read_bytes()]
        assert hits == []
    model = json.loads((out / "model.json").read_text())
    assert not _leaks(json.dumps(model))


def test_safety_query_secret_is_not_kept_in_the_model(tmp_path) -> None:
    repo = tmp_path / "r"
    make_repo(repo, GOOD)
    proc = _run([f"file://{repo}?token={SPECIAL.replace('#', '').replace('?', '')}", "--out", str(tmp_path / "out"),
                 "--no-validate"], {}, tmp_path)
    text = proc.stdout + proc.stderr
    for path in (tmp_path / "out").rglob("*") if (tmp_path / "out").exists() else []:
        if path.is_file():
            text += path.read_text(errors="replace")
    assert "9Qzx3W" not in text, text
