"""Publishing survives a kill at any step and concurrent writers (issue #14, part 1).

The fault-injection loop forks a child that runs a real analysis into a folder holding the old
model and SIGKILLs itself at step N of publish (REPOMODELER_PUBLISH_CRASH_AT, see
repomodeler/publish.py), for every N, several times, in both swap modes. After each kill the
folder must hold the complete old or the complete new model, byte for byte, and the next writer
must clean every leftover. Forking (instead of a CLI subprocess per kill) keeps ~100 kills within
a few seconds; one real CLI kill is there too, to prove the hook works end to end.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repomodeler import publish
from repomodeler.pipeline import AnalyzeOptions, analyze

from conftest import ROOT, SAMPLES, commit_all, make_repo

REPEATS = 5


@pytest.fixture(scope="module")
def two_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A repository at an old and a new commit, and the reference model of each."""
    tmp = tmp_path_factory.mktemp("publish")
    home = tmp / "home"
    saved = os.environ.get("REPOMODELER_HOME")
    os.environ["REPOMODELER_HOME"] = str(home)  # shared by the module's analyses (a warm fact cache)
    repo = tmp / "shop"
    old_sha = make_repo(repo, source=SAMPLES / "shop")
    compose = (repo / "docker-compose.yml").read_text()
    (repo / "docker-compose.yml").write_text(compose + "\n  audit-log:\n    image: example/audit-log:1\n")
    new_sha = commit_all(repo, "add a service")
    refs: dict[str, dict[str, bytes]] = {}
    for label, sha in (("old", old_sha), ("new", new_sha)):
        out = tmp / f"ref-{label}" / "out"
        analyze([f"{repo}@{sha}"], AnalyzeOptions(out=out, validate=False, jobs=1))
        refs[label] = {name: (out / name).read_bytes() for name in ("model.json", "model.sysml")}
    assert refs["old"]["model.json"] != refs["new"]["model.json"]
    if saved is None:
        del os.environ["REPOMODELER_HOME"]
    else:
        os.environ["REPOMODELER_HOME"] = saved
    return {"tmp": tmp, "home": home, "repo": repo, "old": old_sha, "new": new_sha, "refs": refs,
            "template": tmp / "ref-old" / "out"}


def which_model(out: Path, refs: dict[str, dict[str, bytes]]) -> str | None:
    """'old' or 'new' when `out` holds that complete model (and a readable run.json), else None."""
    try:
        files = {name: (out / name).read_bytes() for name in ("model.json", "model.sysml")}
        json.loads((out / "run.json").read_text())
    except (OSError, ValueError):
        return None
    for label, ref in refs.items():
        if files == ref:
            return label
    return None


def _crash_child(data: dict[str, object], out: Path, step: int, trace: Path | None = None) -> int:
    """Fork; the child publishes the new model into `out` and kills itself at `step`. Returns the
    child's wait status."""
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 1
        try:
            os.environ["REPOMODELER_HOME"] = str(data["home"])
            os.environ[publish.CRASH_ENV] = str(step)
            if trace is not None:
                os.environ[publish.TRACE_ENV] = str(trace)
            publish._steps_seen = 0
            sys.stderr = open(os.devnull, "w")
            analyze([f"{data['repo']}@{data['new']}"], AnalyzeOptions(out=out, validate=False, jobs=1))
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return status


def _steps(data: dict[str, object], tmp: Path) -> list[str]:
    """Every crash point a publish goes through (a run with a step number it never reaches)."""
    out = tmp / "count" / "out"
    shutil.copytree(data["template"], out)  # type: ignore[arg-type]
    trace = tmp / "trace.txt"
    status = _crash_child(data, out, 10_000, trace)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    return [line.split(" ", 1)[1] for line in trace.read_text().splitlines()]


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_kill_at_every_publish_step_leaves_old_or_new_model(two_models, tmp_path, monkeypatch, exchange) -> None:
    monkeypatch.setattr(publish, "exchange_enabled", exchange)
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    refs = two_models["refs"]
    steps = _steps(two_models, tmp_path)
    swap = "exchange staging <-> out" if exchange else "rename out -> old"
    assert swap in steps and "write model.json (half)" in steps and steps[-1] == "remove old model", steps
    outcomes: dict[str, int] = {"old": 0, "new": 0}
    kills = 0
    for step in range(1, len(steps) + 1):
        for rep in range(REPEATS):
            out = tmp_path / f"s{step}-{rep}" / "out"
            shutil.copytree(two_models["template"], out)  # type: ignore[arg-type]
            status = _crash_child(two_models, out, step)
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (step, steps[step - 1])
            kills += 1
            seen = which_model(out, refs)
            if exchange:  # with RENAME_EXCHANGE the folder is complete at every instant, no recovery needed
                assert seen in ("old", "new"), (step, steps[step - 1])
            # the next writer's recovery (run under its lock) restores or removes every leftover
            with publish.output_lock(out):
                pass
            seen = which_model(out, refs)
            assert seen in ("old", "new"), (step, steps[step - 1], sorted(p.name for p in out.parent.iterdir()))
            # before the swap the old model stays; after it the new one is in place
            swapped = step >= steps.index(swap) + 1 + (0 if exchange else 1)
            assert seen == ("new" if swapped else "old"), (step, steps[step - 1], seen)
            outcomes[seen] += 1
            assert sorted(p.name for p in out.parent.iterdir()) == ["out"], (step, steps[step - 1])
            assert not [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != publish.MANIFEST]
    assert kills == len(steps) * REPEATS and kills >= 50
    assert outcomes["old"] and outcomes["new"]
    print(f"fault injection ({'exchange' if exchange else 'two renames'}): {len(steps)} steps x {REPEATS} = "
          f"{kills} kills, complete model after every one ({outcomes})")


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repomodeler", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=120)


def test_cli_killed_between_renames_is_recovered_by_the_next_run(two_models, tmp_path, monkeypatch) -> None:
    """A real `repomodeler analyze` killed just before the swap; then the fallback's worst moment
    (old model moved aside, new not in place) is recreated by hand: the next run puts the old
    model back, removes the dead run's staging folder and says so."""
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    out = tmp_path / "models" / "shop"
    shutil.copytree(two_models["template"], out)  # type: ignore[arg-type]
    new = f"{two_models['repo']}@{two_models['new']}"
    # Step 8 is the fsync before the swap: staging is complete, the folder still holds the old model.
    killed = _cli("analyze", new, "--out", str(out), "--no-validate", "-q", env={publish.CRASH_ENV: "8"})
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert which_model(out, two_models["refs"]) == "old"  # type: ignore[arg-type]
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(".shop.staging-")]
    assert len(leftovers) == 1
    # simulate the fallback's window by hand: old model moved aside by the dead process
    dead_pid = int(leftovers[0].rsplit("-", 1)[1])
    os.rename(out, out.parent / f".shop.old-{dead_pid}")
    again = _cli("analyze", f"{two_models['repo']}@{two_models['old']}", "--out", str(out), "--no-validate", "-q")
    assert again.returncode == 0, again.stderr
    assert f"restored the previous model of '{out}' left by interrupted process {dead_pid}" in again.stderr
    assert f"removed .shop.staging-{dead_pid} left by process {dead_pid}" in again.stderr
    assert which_model(out, two_models["refs"]) == "old"  # type: ignore[arg-type]
    assert sorted(p.name for p in out.parent.iterdir()) == ["shop"]


def test_ten_concurrent_analyses_into_one_folder(two_models, tmp_path, monkeypatch) -> None:
    """Ten CLI runs at once: each waits its turn for the lock, all succeed, one complete model remains."""
    monkeypatch.setenv("REPOMODELER_HOME", str(two_models["home"]))
    src = tmp_path / "src" / "shop"
    shutil.copytree(SAMPLES / "shop", src)
    out = tmp_path / "models" / "shop"
    started = time.monotonic()
    procs = [subprocess.Popen([sys.executable, "-m", "repomodeler", "analyze", str(src), "--out", str(out),
                               "--no-validate", "-q", "--jobs", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(10)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    elapsed = time.monotonic() - started
    for code, _stdout, stderr in results:
        assert code == 0, stderr
        for line in stderr.splitlines():  # the only thing a waiting run says, in one line
            assert line.startswith(f"note: waiting for another repomodeler (pid ") and line.endswith(
                f"that is publishing to '{out}'"), line
        assert "internal error" not in stderr and "Errno" not in stderr
    waited = sum(1 for _c, _o, e in results if "waiting" in e)
    model = json.loads((out / "model.json").read_text())
    run = json.loads((out / "run.json").read_text())
    assert model["name"] == "shop" and len(model["nodes"]) >= 9 and run["fingerprint"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["shop"]  # no staging, old or lock file left
    assert sorted(p.name for p in out.iterdir()) == [publish.MANIFEST, "RepoModeler.sysml", "model.json", "model.sysml",
                                                     "run.json"]
    print(f"10 concurrent analyses: 10/10 exit 0, {waited} waited for the lock, {elapsed:.1f}s")


def test_second_writer_can_fail_fast_instead_of_waiting(tmp_path) -> None:
    out = tmp_path / "models" / "x"
    with publish.output_lock(out):
        with pytest.raises(Exception) as info:
            with publish.output_lock(out, wait=False):
                pass
    assert str(info.value) == f"error: another repomodeler (pid {os.getpid()}) is publishing to '{out}'; " \
                              "try again when it has finished"
    assert not publish.lock_path(out).exists()  # released and removed


def test_leftovers_of_live_processes_are_not_touched(tmp_path) -> None:
    """A drift check stages beside --out without the lock; its folder survives another run's recovery."""
    out = tmp_path / "models" / "x"
    out.mkdir(parents=True)
    (out / "model.json").write_text("{}")
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        live = out.parent / f".x.staging-{sleeper.pid}"
        live.mkdir()
        dead = subprocess.Popen(["true"])
        dead.wait()
        stale = out.parent / f".x.staging-{dead.pid}"
        stale.mkdir()
        (out / f".run.json.{dead.pid}").write_text("half")
        with publish.output_lock(out) as notes:
            assert notes == [f"removed .x.staging-{dead.pid} left by process {dead.pid}"]
        assert live.is_dir() and not stale.exists() and not (out / f".run.json.{dead.pid}").exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_lock_file_deleted_by_its_holder_between_open_and_check_is_created_again(tmp_path, monkeypatch) -> None:
    """The holder lets go by deleting the lock file; a waiter that opened the old file just before sees
    it with no link left. That is the holder leaving, not a planted file: it starts again and gets the lock."""
    from repomodeler import publish

    out = tmp_path / "models" / "shop"
    out.parent.mkdir(parents=True)
    path = publish.lock_path(out)
    path.write_text("123\n")
    path.chmod(0o600)
    real_open = os.open
    calls = {"n": 0}

    def open_then_holder_leaves(p, flags, *args):
        fd = real_open(p, flags, *args)
        calls["n"] += 1
        if calls["n"] == 1 and Path(p) == path and not flags & os.O_CREAT:
            os.unlink(path)  # the holder deletes the file right after our open
        return fd

    monkeypatch.setattr(publish.os, "open", open_then_holder_leaves)
    with publish.output_lock(out) as notes:
        assert notes == []
        assert path.is_file() and path.read_text().strip() == str(os.getpid())
    assert not path.exists()
