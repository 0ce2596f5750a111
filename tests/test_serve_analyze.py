"""`serve --allow-analyze`: what the server refuses (and that a refusal starts nothing), the rate
limit, the cross-site form guard, and a real run through the queue from a local git server
reached under an allowed host name (git's url.<base>.insteadOf in a test HOME)."""

from __future__ import annotations

import json
import os
import subprocess
import time
import warnings
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402

from _gitserver import GitHttpServer, bare_copy  # noqa: E402
from conftest import SAMPLES, make_repo  # noqa: E402
from repomodeler.records import RepomodelerError  # noqa: E402
from repomodeler.serve.analyze import AnalyzePolicy, Refused, check_url, parse_hosts  # noqa: E402
from repomodeler.serve.app import create_app  # noqa: E402

HOST = "git.test.example"
HOSTS = frozenset({HOST})


def client_for(models: Path, **policy: object) -> TestClient:
    app = create_app(models, allowed_hosts=["testserver"], analyze=AnalyzePolicy(hosts=HOSTS, **policy))  # type: ignore[arg-type]
    return TestClient(app)


@pytest.mark.parametrize("url,why", [
    ("file:///etc", "file:// URL reads this server's disk"),
    ("ext::sh -c touch% /tmp/pwned", "spaces or control characters"),
    ("ext::sh", "remote helpers such as ext:: run commands"),
    ("/etc/passwd", "only https:// URLs of git.test.example"),
    ("../models", "only https:// URLs"),
    ("http://git.test.example/acme/shop", "plain http://"),
    ("ssh://git@git.test.example/acme/shop", "this server's own keys"),
    ("git@git.test.example:acme/shop.git", "only https:// URLs"),
    ("https://evil.example/acme/shop", "its host 'evil.example' is not one this server analyses (git.test.example)"),
    ("https://x-access-token:s3cret@git.test.example/acme/shop", "holds a user name or token"),
    ("https://git.test.example/", "not a repository address"),
    ("https://git.test.example:8443/acme/shop", "standard https port"),
    ("https://git.test.example/acme/shop?upload-pack=x", "not a repository address"),
])
def test_refused_urls_say_why(url: str, why: str) -> None:
    with pytest.raises(Refused) as caught:
        check_url(url, HOSTS)
    assert why in caught.value.message
    assert "s3cret" not in caught.value.message


def test_allowed_url_and_hosts_option() -> None:
    assert check_url(" https://git.test.example/acme/shop.git ", HOSTS) == "https://git.test.example/acme/shop.git"
    assert parse_hosts(["github.com, GitLab.com.", "git.test.example"]) == {"github.com", "gitlab.com", HOST}
    with pytest.raises(RepomodelerError, match="is not a host name"):
        parse_hosts(["https://github.com"])


def test_refusal_page_and_nothing_started(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    client = client_for(models)
    page = client.get("/")
    assert '<form id="analyze" method="post" action="/analyze">' in page.text and 'type="url" name="url"' in page.text
    for url in ("file:///etc/passwd", "https://evil.example/a/b", "ext::sh -c id"):
        r = client.post("/analyze", data={"url": url}, follow_redirects=False)
        assert r.status_code == 400 and 'id="refused-reason"' in r.text and "Nothing was queued" in r.text
    assert client.get("/api/analyze/jobs").json() == []
    assert list(models.iterdir()) == []
    # a form posted from another site is refused, whatever it names
    for headers in ({"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site", "origin": "null"},
                    {"sec-fetch-site": "same-site"}):
        r = client.post("/analyze", data={"url": f"https://{HOST}/a/b"}, headers=headers)
        assert r.status_code == 403 and "another site" in r.text
    assert client.get("/api/analyze/jobs").json() == []


def test_off_by_default(tmp_path: Path) -> None:
    client = TestClient(create_app(tmp_path, allowed_hosts=["testserver"]))
    assert 'id="analyze"' not in client.get("/").text
    r = client.post("/analyze", data={"url": f"https://{HOST}/a/b"})
    assert r.status_code == 404 and "--allow-analyze" in r.text


def test_rate_limited_per_client(tmp_path: Path) -> None:
    client = client_for(tmp_path, rate=2, window=600.0)
    client.app.state.analyze_queue.stop()  # keep the runs queued: only the counting is under test
    codes = [client.post("/analyze", data={"url": f"https://{HOST}/acme/r{i}"}, follow_redirects=False).status_code
             for i in range(3)]
    assert codes == [303, 303, 429]
    assert "try again in" in client.post("/analyze", data={"url": f"https://{HOST}/acme/r9"}).text
    assert [j["state"] for j in client.get("/api/analyze/jobs").json()] == ["queued", "queued"]


def test_a_model_from_other_repositories_is_never_replaced(tmp_path: Path) -> None:
    models = tmp_path / "models"
    (models / "shop").mkdir(parents=True)
    (models / "shop" / "model.json").write_text(json.dumps({
        "schema": "repomodeler/model@1", "name": "shop", "nodes": [], "edges": [],
        "repositories": [{"name": "shop", "url": "https://github.com/acme/shop", "commit": "1" * 40}]}))
    client = client_for(models)
    r = client.post("/analyze", data={"url": f"https://{HOST}/other/shop"})
    assert r.status_code == 400 and "from other repositories" in r.text


@pytest.fixture()
def alias_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A git server on 127.0.0.1 holding the shop sample, reached as https://git.test.example/ through
    git's url.<base>.insteadOf in the HOME of the server (so in every git call the runs make)."""
    root = tmp_path / "srv"
    root.mkdir()
    make_repo(tmp_path / "work" / "shop", source=SAMPLES / "shop")
    bare_copy(tmp_path / "work" / "shop", root, "shop.git")
    with GitHttpServer(root) as server:
        home = tmp_path / "home"
        home.mkdir()
        base = server.url("")
        subprocess.run(["git", "config", "--file", str(home / ".gitconfig"), f"url.{base}.insteadOf",
                        f"https://{HOST}/"], check=True)
        monkeypatch.setenv("HOME", str(home))
        yield server


def wait_state(client: TestClient, job: int, states: set[str], timeout: float = 120) -> dict:
    deadline = time.time() + timeout
    while time.time() < deadline:
        data = client.get(f"/api/analyze/jobs/{job}").json()
        if data["state"] in states:
            return data
        time.sleep(0.2)
    raise AssertionError(f"job {job} stayed {data['state']}")


def test_a_run_publishes_streams_progress_and_is_in_the_history(alias_home: GitHttpServer, tmp_path: Path) -> None:
    from repomodeler.store import RunStore

    models = tmp_path / "models"
    models.mkdir()
    client = client_for(models, validate=False)
    r = client.post("/analyze", data={"url": f"https://{HOST}/shop.git"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/analyze/jobs/1"
    data = wait_state(client, 1, {"published", "failed"})
    assert data["state"] == "published", data
    kinds = [e["event"] for e in data["events"]]
    assert kinds[:2] == ["queued", "started"] and kinds[-1] == "published"
    assert {e.get("stage") for e in data["events"]} >= {"clone", "inventory", "parse", "resolve", "emit", "audit"}
    assert data["events"][-1]["counts"]["components"] == 9
    with client.stream("GET", "/api/analyze/jobs/1/events") as stream:
        lines = [line for line in stream.iter_lines() if line.startswith("data: ")]
    assert json.loads(lines[-1][6:])["event"] == "published" and len(lines) == len(data["events"])
    card = client.get("/").text
    assert 'data-name="shop"' in card and "run 1: shop" in card
    model = json.loads((models / "shop" / "model.json").read_text())
    assert model["repositories"][0]["url"] == f"https://{HOST}/shop.git"
    assert [run.number for run in RunStore().list("shop")] == [1]
    # a failing run (no such repository) leaves the gallery as it was
    before = sorted(p.name for p in models.iterdir())
    client.post("/analyze", data={"url": f"https://{HOST}/missing.git"})
    failed = wait_state(client, 2, {"published", "failed"})
    assert failed["state"] == "failed" and failed["message"].startswith("error:")
    assert sorted(p.name for p in models.iterdir()) == before
    assert [s["name"] for s in client.get("/api/models").json()] == ["shop"]


def test_names_become_folders_as_analyze_makes_them(tmp_path: Path) -> None:
    client = client_for(tmp_path)
    client.app.state.analyze_queue.stop()
    client.post("/analyze", data={"url": [f"https://{HOST}/acme/MyShop.git"]})
    client.post("/analyze", data={"url": [f"https://{HOST}/acme/a", f"https://{HOST}/acme/b"], "name": "Two-Repos"})
    listed = {(j["name"], j["folder"]) for j in client.get("/api/analyze/jobs").json()}
    assert listed == {("MyShop", "myshop"), ("Two-Repos", "two-repos")}
    r = client.post("/analyze", data={"url": [f"https://{HOST}/acme/a", f"https://{HOST}/acme/b"]})
    assert r.status_code == 400 and "give it a name" in r.text
    r = client.post("/analyze", data={"url": f"https://{HOST}/acme/a", "name": "../x"})
    assert r.status_code == 400 and "may hold only letters" in r.text


def test_a_run_gets_no_token_of_the_server(alias_home: GitHttpServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The operator's tokens never reach a run a visitor asked for (the process analysing gets an
    environment without them), so they cannot open a private repository into the gallery."""
    import repomodeler.serve.analyze as analyze_module

    seen: list[dict[str, str]] = []
    real = subprocess.Popen

    def recording(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        if "repomodeler.serve.analyze_worker" in (args[0] if args else kwargs.get("args", ())):  # type: ignore[operator]
            seen.append(dict(kwargs.get("env") or os.environ))  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(analyze_module.subprocess, "Popen", recording)
    monkeypatch.setenv("REPOMODELER_GIT_TOKEN", "tok3n-value")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_other")
    models = tmp_path / "models"
    models.mkdir()
    client = client_for(models, validate=False)
    client.post("/analyze", data={"url": f"https://{HOST}/shop.git"})
    data = wait_state(client, 1, {"published", "failed"})
    assert data["state"] == "published", data
    assert len(seen) == 1 and "REPOMODELER_GIT_TOKEN" not in seen[0] and "GITHUB_TOKEN" not in seen[0]
    assert seen[0]["HOME"] == os.environ["HOME"]  # the rest of the environment is passed on


def test_workers_bound_the_runs_in_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--workers 2`: two runs at a time, the others wait their turn in order."""
    import threading

    from repomodeler.serve.analyze import AnalyzeQueue

    release, lock = threading.Event(), threading.Lock()
    running: list[int] = []
    started: list[int] = []
    most = [0]

    def held_run(self: AnalyzeQueue, job: object) -> None:
        with lock:
            running.append(job.id)  # type: ignore[attr-defined]
            started.append(job.id)  # type: ignore[attr-defined]
            most[0] = max(most[0], len(running))
        release.wait(20)
        with lock:
            running.remove(job.id)  # type: ignore[attr-defined]
        self._finish(job, {"event": "failed", "message": "error: held by the test"})  # type: ignore[arg-type]

    monkeypatch.setattr(AnalyzeQueue, "_run", held_run)
    client = client_for(tmp_path, workers=2)
    for i in range(5):
        assert client.post("/analyze", data={"url": f"https://{HOST}/acme/r{i}"}, follow_redirects=False).status_code == 303
    deadline = time.time() + 10
    while len(running) < 2:
        assert time.time() < deadline
        time.sleep(0.02)
    time.sleep(0.3)
    states = {j["id"]: j["state"] for j in client.get("/api/analyze/jobs").json()}
    assert sorted(running) == [1, 2] and states == {1: "running", 2: "running", 3: "queued", 4: "queued", 5: "queued"}
    release.set()
    deadline = time.time() + 10
    while any(j["state"] != "failed" for j in client.get("/api/analyze/jobs").json()):
        assert time.time() < deadline
        time.sleep(0.02)
    assert most[0] == 2 and started[:2] == [1, 2] and sorted(started[2:]) == [3, 4, 5]


def test_serve_refuses_a_bad_host_list_in_one_line(tmp_path: Path) -> None:
    import sys

    done = subprocess.run([sys.executable, "-m", "repomodeler", "serve", str(tmp_path), "--allow-analyze", "https://github.com"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["error: --allow-analyze 'https://github.com' is not a host name; give names "
                                                "like github.com (no scheme, path or port)"]
