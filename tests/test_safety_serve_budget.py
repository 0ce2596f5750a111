"""Issue 23, point 4: a hostile models folder cannot exhaust the server. A 64 MB model.json is
refused by its size, a dense one under the size cap by its parse cost (both before parsing), a
model is parsed once per file identity, and a real server under 4 concurrent requests stays
under 600 MB (benchmark)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from repomodeler.serve import budget
from repomodeler.serve.store import ModelStore

from conftest import ROOT


def _dense(path: Path, megabytes: int) -> None:
    """A model.json of tiny nodes, the costliest JSON per byte to parse."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        handle.write('{"name":"evil","nodes":[')
        written, n = 0, 0
        while written < megabytes * 1024 * 1024:
            item = ('' if n == 0 else ',') + '{"id":"n%d","kind":"service","ports":[],"evidence":[]}' % n
            handle.write(item)
            written += len(item)
            n += 1
        handle.write('],"edges":[]}')


def _good(root: Path, name: str = "good") -> None:
    (root / name).mkdir(parents=True)
    (root / name / "model.json").write_text(json.dumps({"name": name, "nodes": [{"id": "a", "kind": "service"}],
                                                        "edges": []}))
    (root / name / "model.sysml").write_text(f"package {name};\n")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile") / "models"
    _good(root)
    _dense(root / "huge" / "model.json", 64)  # over the size cap
    _dense(root / "dense" / "model.json", 30)  # under the size cap, over the parse cost
    return root


def test_safety_oversized_and_overcostly_models_are_broken_entries_without_parsing(hostile, monkeypatch) -> None:
    budget.clear_cache()
    parsed: list[int] = []
    real_loads = json.loads
    monkeypatch.setattr(json, "loads", lambda data, *a, **k: parsed.append(len(data)) or real_loads(data, *a, **k))
    store = ModelStore(hostile)
    started = time.monotonic()
    cards = {name: store.safe_summary(name) for name in store.names()}
    assert time.monotonic() - started < 5
    assert cards["huge"]["broken"] and "too large to show" in cards["huge"]["error"]
    assert cards["dense"]["broken"] and "too many values" in cards["dense"]["error"]
    assert not cards["good"].get("broken")
    assert max(parsed) < 1024 * 1024, parsed  # neither hostile file was parsed


def test_safety_a_model_is_parsed_once_per_file_identity(tmp_path, monkeypatch) -> None:
    budget.clear_cache()
    root = tmp_path / "models"
    _good(root)
    old = time.time() - 60
    os.utime(root / "good" / "model.json", (old, old))
    store = ModelStore(root)
    first = store.model("good")
    assert store.model("good") is first and store.summary("good")["counts"]["components"] == 1
    (root / "good" / "model.json").write_text(json.dumps({"name": "good", "nodes": [], "edges": []}))
    assert store.model("good") is not first and store.model("good")["nodes"] == []  # changed: read again


def test_safety_parse_cost_bounds_what_json_builds() -> None:
    import tracemalloc

    sample = json.dumps({"nodes": [{"id": f"n{i}", "kind": "s", "x": [1, 2.5, "y"]} for i in range(20000)]}).encode()
    tracemalloc.start()
    value = json.loads(sample)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert value and budget.parse_cost(sample) >= held


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def test_safety_server_under_four_concurrent_requests_stays_within_budget(hostile, tmp_path) -> None:
    """Benchmark: 4 threads x 5 rounds of gallery, API list and the hostile models' pages and data."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "repomodeler", "serve", str(hostile), "--port", str(port)],
                              cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0.0]
    stop = threading.Event()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/models", timeout=5).read()
                break
            except OSError:
                time.sleep(0.2)

        def sample() -> None:
            while not stop.is_set():
                peak[0] = max(peak[0], _rss_mb(server.pid))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        paths = ["/", "/api/models", "/models/huge", "/api/models/huge", "/models/dense", "/api/models/dense",
                 "/models/good", "/api/models/good"]
        slowest = [0.0]
        errors: list[str] = []

        def client() -> None:
            for _ in range(5):
                for path in paths:
                    started = time.monotonic()
                    try:
                        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).read()
                    except urllib.error.HTTPError as exc:
                        if exc.code not in (404, 422):
                            errors.append(f"{path}: {exc.code}")
                    except OSError as exc:
                        errors.append(f"{path}: {exc}")
                    slowest[0] = max(slowest[0], time.monotonic() - started)

        threads = [threading.Thread(target=client) for _ in range(4)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        stop.set()
        sampler.join()
    finally:
        stop.set()
        server.terminate()
        server.wait(timeout=30)
    assert not errors, errors
    print(f"serve budget: 4 clients x 5 rounds x {len(paths)} requests in {elapsed:.1f}s, slowest {slowest[0]:.2f}s, "
          f"server peak RSS {peak[0]:.0f} MB")
    assert peak[0] < 600 and slowest[0] < 5, (peak[0], slowest[0])
