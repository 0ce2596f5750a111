"""--engine dask: the same bytes as the local engine, and a worker killed mid-run loses nothing."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from repomodeler.landscape import run as landscape_run  # noqa: E402
from repomodeler.landscape.engine import DaskEngine  # noqa: E402
from repomodeler.landscape.inputs import read_inputs_file  # noqa: E402
from repomodeler.landscape.run import LandscapeOptions, analyze_landscape  # noqa: E402
from tests.conftest import make_repo, run_cli  # noqa: E402
from tests.landscape_support import inputs_yaml, make_org  # noqa: E402


def _files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name.endswith((".json", ".sysml")) and not p.name.endswith("run.json")
            and not p.name.startswith(".")}


def test_dask_and_local_engines_publish_the_same_bytes(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    inputs = inputs_yaml(tmp_path, paths)
    outs = {}
    for engine in ("local", "dask"):
        outs[engine] = tmp_path / f"models-{engine}"
        proc = run_cli(["analyze", "--inputs", str(inputs), "--out", str(outs[engine]), "--engine", engine,
                        "--jobs", "2", "--no-validate", "--cache-dir", str(tmp_path / f"store-{engine}")])
        assert proc.returncode == 0, proc.stderr
    local, dask = _files(outs["local"]), _files(outs["dask"])
    assert "landscape.json" in local and "payments/model.json" in local
    assert local == dask


def test_killing_a_dask_worker_mid_run_leaves_every_repository_analysed(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    paths = make_org(tmp_path)
    for i in range(8):  # enough work that the kill lands while repositories are still queued
        paths[f"extra-{i}"] = tmp_path / "org" / f"extra-{i}"
        make_repo(paths[f"extra-{i}"], {f"pkg/m{k}.py": f"def f{k}(x):\n    return x * {k}\n" for k in range(60)})
    listing = tmp_path / "inputs.txt"
    listing.write_text("\n".join(str(p) for p in paths.values()) + "\n")
    store = tmp_path / "store"
    engine = DaskEngine(2)
    pids = sorted(engine.client.run(os.getpid).values())
    assert len(pids) == 2
    killed: list[tuple[int, int]] = []

    def kill_one_worker() -> None:
        deadline = time.time() + 120
        while time.time() < deadline:
            done = len(list((store / "repos").rglob("*.json.gz"))) if (store / "repos").is_dir() else 0
            if done >= 1:
                os.kill(pids[0], signal.SIGKILL)
                killed.append((pids[0], done))
                return
            time.sleep(0.01)

    monkeypatch.setattr(landscape_run, "make_engine", lambda *a, **k: engine)
    threading.Thread(target=kill_one_worker, daemon=True).start()
    result = analyze_landscape(read_inputs_file(listing),
                               LandscapeOptions(out=tmp_path / "models", jobs=2, validate=False, store_dir=store,
                                                engine="dask"))
    assert killed and killed[0][1] < len(paths), "the worker was not killed mid-run"
    assert result.failures == []
    assert sorted(r for members in result.systems.values() for r in members) == sorted(paths)
    assert (tmp_path / "models" / "landscape.json").is_file()


def test_an_existing_scheduler_by_address(tmp_path: Path) -> None:
    import logging

    import distributed

    paths = make_org(tmp_path)
    inputs = inputs_yaml(tmp_path, paths)
    local = tmp_path / "models-local"
    assert run_cli(["analyze", "--inputs", str(inputs), "--out", str(local), "--no-validate", "-q"]).returncode == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR, host="127.0.0.1") as cluster:
        remote = tmp_path / "models-remote"
        proc = run_cli(["analyze", "--inputs", str(inputs), "--out", str(remote), "--engine", "dask", "--scheduler",
                        cluster.scheduler_address, "--no-validate", "-q", "--cache-dir", str(tmp_path / "shared")])
        assert proc.returncode == 0, proc.stderr
    assert _files(remote) == _files(local)
    assert list((tmp_path / "shared" / "repos").rglob("*.json.gz"))  # the workers wrote the shared store


def test_an_unreachable_scheduler_is_one_line(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    proc = run_cli(["analyze", "--inputs", str(inputs_yaml(tmp_path, paths)), "--out", str(tmp_path / "m"),
                    "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9", "--no-validate"])
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'" in lines[0], lines


def test_dask_refuses_to_send_credentials_to_its_workers(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    secret = "s3cr3t-t0ken"
    inputs = inputs_yaml(tmp_path, paths, extra=[f"https://x-access-token:{secret}@example.com/acme/private.git"])
    proc = run_cli(["analyze", "--inputs", str(inputs), "--out", str(tmp_path / "m"), "--engine", "dask",
                    "--jobs", "1", "--no-validate"])
    assert proc.returncode == 1
    assert "holds credentials, which --engine dask would send to its workers" in proc.stderr
    assert secret not in proc.stderr + proc.stdout
    assert secret not in (tmp_path / "m" / "landscape-run.json").read_text()
    assert (tmp_path / "m" / "payments" / "model.json").is_file()


def test_a_rerun_starts_the_cluster_only_for_work_and_only_as_big_as_it(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.conftest import commit_all

    paths = make_org(tmp_path)
    inputs = read_inputs_file(inputs_yaml(tmp_path, paths))
    store, out = tmp_path / "store", tmp_path / "models"
    options = LandscapeOptions(out=out, jobs=2, validate=False, store_dir=store, engine="dask")
    analyze_landscape(inputs, LandscapeOptions(out=out, jobs=1, validate=False, store_dir=store))  # cold, local
    cold = _files(out)
    started: list[int] = []

    class Recording(DaskEngine):
        def close(self) -> None:
            if self._cluster is not None:
                started.append(len(self._cluster.workers))
            super().close()

    monkeypatch.setattr(landscape_run, "make_engine", lambda *a, **k: Recording(2))
    result = analyze_landscape(inputs, options)  # nothing moved: every commit known, no task, no cluster
    assert result.extracted == [] and result.resolved == [] and started == []
    assert _files(out) == cold
    (paths["pay-lib"] / "src" / "index.js").write_text("exports.cents = (x) => Math.round(x * 100); // v2\n")
    commit_all(paths["pay-lib"])
    result = analyze_landscape(inputs, options)  # one moved: one scan task, one system, one worker
    assert result.extracted == ["pay-lib"] and result.resolved == ["payments"] and started == [1]
    assert result.failures == []
