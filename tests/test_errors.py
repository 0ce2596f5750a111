"""Bad inputs through the real CLI: one line naming the input and a next step, exit 1, and the
previously published model left byte for byte as it was."""

from __future__ import annotations

import shutil
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


@pytest.fixture(scope="module")
def _template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real published model, made once per module (a CLI run costs a second or two)."""
    tmp = tmp_path_factory.mktemp("template")
    make_repo(tmp / "good", GOOD)
    proc = cli(str(tmp / "good"), "--out", str(tmp / "out"), "--no-validate", "-q")
    assert proc.returncode == 0, proc.stderr
    return tmp / "out"


@pytest.fixture
def published(tmp_path: Path, _template: Path) -> tuple[Path, dict[str, bytes]]:
    """A previously published model at tmp_path/out and its bytes; the good repository at tmp_path/good."""
    make_repo(tmp_path / "good", GOOD)
    out = tmp_path / "out"
    shutil.copytree(_template, out)
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


# --------------------------------------------------------------------------- Ctrl-C
INTERRUPTED = "interrupted: nothing was published; the previous model (if any) is unchanged"


def interrupt_after(args: list[str], ready, limit: float = 20) -> tuple[subprocess.CompletedProcess[str], float]:
    """Start the CLI, wait until `ready()` is true, send SIGINT; return the result and the seconds
    from the signal to the exit."""
    import signal

    # A shell that starts jobs in the background makes them ignore SIGINT, and Python keeps that:
    # restore the default so the child behaves like a program run from a terminal.
    proc = subprocess.Popen(["python", "-m", "repomodeler", "analyze", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + limit
    while not ready() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), time.monotonic() - sent




def test_ctrl_c_during_clone_exits_130_and_leaves_nothing_half_done(published, _isolated_home: Path) -> None:
    out, before = published
    with SilentServer() as srv:
        url = f"http://127.0.0.1:{srv.port}/x.git"
        proc, took = interrupt_after([url, "--out", str(out), "--no-validate", "--timeout", "120"],
                                     lambda: srv.accepted > 0)
    assert proc.returncode == 130
    assert proc.stderr.strip().splitlines()[-1] == INTERRUPTED
    assert took < 5
    assert snapshot(out) == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".out")] == []
    assert list((_isolated_home / "repos").iterdir()) == []  # the half clone went with its temp folder


def test_ctrl_c_during_fetch_keeps_the_cached_clone_usable(published, tmp_path: Path, _isolated_home: Path) -> None:
    out, before = published
    work = tmp_path / "remote-work"
    make_repo(work, GOOD)
    (tmp_path / "srv").mkdir()
    bare_copy(work, tmp_path / "srv", "svc.git")
    with GitHttpServer(tmp_path / "srv") as srv:
        url = srv.url("svc.git")
        first = cli(url, "--out", str(tmp_path / "svc-model"), "--no-validate", "-q")
        assert first.returncode == 0, first.stderr
        clones = sorted((_isolated_home / "repos").iterdir())
        srv.hang.set()
        proc, took = interrupt_after([url, "--out", str(out), "--no-validate"], srv.hanging.is_set)
        assert proc.returncode == 130 and took < 5
        assert proc.stderr.strip().splitlines()[-1] == INTERRUPTED
        assert snapshot(out) == before
        srv.hang.clear()
        assert sorted((_isolated_home / "repos").iterdir()) == clones
        fsck = subprocess.run(["git", "fsck", "--no-progress"], cwd=clones[0], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stderr
        again = cli(url, "--out", str(out), "--no-validate", "-q")
        assert again.returncode == 0, again.stderr


def _run_in_process(monkeypatch, target: str, args: list[str]):
    from click.testing import CliRunner

    from repomodeler.cli import cli as main

    def boom(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(target, boom)
    return CliRunner().invoke(main, ["analyze", *args])


@pytest.mark.parametrize("stage, target", [
    ("parse", "repomodeler.pipeline.extract_repository"),
    ("emit", "repomodeler.pipeline.render_sysml"),
    ("write", "repomodeler.pipeline.json.dumps"),
])
def test_ctrl_c_during_parse_or_emit(published, tmp_path: Path, monkeypatch, stage: str, target: str) -> None:
    out, before = published
    result = _run_in_process(monkeypatch, target, [str(tmp_path / "good"), "--out", str(out), "--no-validate"])
    assert result.exit_code == 130, (stage, result.output)
    assert result.stderr.strip().splitlines()[-1] == INTERRUPTED
    assert snapshot(out) == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".out")] == []


def test_ctrl_c_in_the_middle_of_the_swap_restores_the_previous_model(published, tmp_path: Path,
                                                                       monkeypatch) -> None:
    """The worst moment: the old model has been moved aside and the new one is not in place yet."""
    import os as _os

    from click.testing import CliRunner

    from repomodeler.cli import cli as main

    out, before = published
    real_replace = _os.replace
    calls: list[str] = []

    def replace(src, dst):
        calls.append(str(src))
        if ".staging-" in str(src):
            raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr("repomodeler.publish.exchange_enabled", False)  # the two-rename fallback has the window
    monkeypatch.setattr("repomodeler.publish.os.rename", replace)
    result = CliRunner().invoke(main, ["analyze", str(tmp_path / "good"), "--out", str(out), "--no-validate"])
    assert result.exit_code == 130
    assert any(".staging-" in c for c in calls)
    monkeypatch.undo()
    assert snapshot(out) == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".out")] == []


def test_ctrl_c_to_the_process_group_while_the_parser_pool_runs(published, tmp_path: Path) -> None:
    """What a terminal does: SIGINT to the whole foreground group, worker processes included."""
    import os
    import signal

    out, before = published
    big = tmp_path / "big"
    big.mkdir()
    body = "".join(f'@app.route("/r{i}")\ndef r{i}():\n    return requests.get("http://svc{i % 7}:80/x")\n\n'
                   for i in range(300))
    # (enough files that the pool is still parsing when the signal arrives: with 60 a fast run could finish
    # between seeing the workers and the signal, and exit 0)
    for k in range(240):
        (big / f"m{k}.py").write_text("import flask, requests\napp = flask.Flask('x')\n" + body)
    proc = subprocess.Popen(["python", "-m", "repomodeler", "analyze", str(big), "--out", str(out), "--no-validate",
                             "--no-cache", "--jobs", "2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def children() -> list[str]:
        """Child pids of the CLI process (all its threads) that are Python processes (the pool's fork server and
        workers, not the `git` it lists the folder with nor its watchdog shell), from /proc."""
        found: list[str] = []
        for task in Path(f"/proc/{proc.pid}/task").glob("*/children"):
            try:
                found.extend(task.read_text().split())
            except OSError:
                pass
        pythons = []
        for pid in set(found):
            try:
                if "python" in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode("utf-8", "replace"):
                    pythons.append(pid)
            except OSError:
                pass
        return sorted(pythons)

    deadline = time.monotonic() + 30
    while len(children()) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None and len(children()) >= 2, "the parser pool never started"
    workers = children()
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - sent < 10
    assert err.strip().splitlines()[-1] == INTERRUPTED
    gone_by = time.monotonic() + 10  # a loaded machine may take a moment to reap them (and git's watchers)
    while [w for w in workers if Path(f"/proc/{w}").exists()] and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert [w for w in workers if Path(f"/proc/{w}").exists()] == []  # no orphaned parser left behind
    assert snapshot(out) == before
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".out")] == []


def test_a_port_holding_401_is_no_authentication_failure() -> None:
    """The digits of a URL's port (127.0.0.1:40153) are no HTTP status: a repository missing on such a
    server is reported as missing, while git's own `returned error: 401` still asks for credentials."""
    from repomodeler.acquire import _explain_clone_failure, parse_input

    spec = parse_input("http://127.0.0.1:40153/nothing.git")
    missing = ("Cloning into bare repository...\nfatal: repository 'http://127.0.0.1:40153/nothing.git/' not found\n")
    assert _explain_clone_failure(spec, missing) == (
        "error: no git repository at 'http://127.0.0.1:40153/nothing.git'; check the URL")
    refused = "fatal: unable to access 'http://127.0.0.1:40153/x.git/': The requested URL returned error: 401\n"
    assert "needs authentication" in _explain_clone_failure(spec, refused)
