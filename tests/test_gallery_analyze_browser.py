"""Analyse from the browser, in Debian's chromium: `repomodeler serve --allow-analyze` started as a
user starts it, a local git server holding the shop sample reached as https://git.test.example/
(git's url.<base>.insteadOf in the server's HOME), and the gallery form. A run shows its progress
live and its card appears; a disallowed URL gets the error page and starts nothing; ten quick
submissions wait in the queue and run one at a time. axe-core on the pages this adds."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, wait_until  # noqa: F401 - the fixture is used by name
from test_viewer_firsthour import ARTIFACTS, axe_serious, new_page

from _gitserver import GitHttpServer, bare_copy
from conftest import ROOT, SAMPLES, make_repo

pytestmark = [pytest.mark.browser]

HOST = "git.test.example"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """(base URL, models folder, REPOMODELER_HOME) of a real `repomodeler serve --allow-analyze`."""
    tmp = tmp_path_factory.mktemp("analyze-browser")
    root = tmp / "srv"
    root.mkdir()
    make_repo(tmp / "work" / "shop", source=SAMPLES / "shop")
    bare_copy(tmp / "work" / "shop", root, "shop.git")
    models, rmhome, home = tmp / "models", tmp / "rmhome", tmp / "home"
    for folder in (models, rmhome, home):
        folder.mkdir()
    with GitHttpServer(root) as git_server:
        subprocess.run(["git", "config", "--file", str(home / ".gitconfig"), f"url.{git_server.url('')}.insteadOf",
                        f"https://{HOST}/"], check=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        env = {**os.environ, "HOME": str(home), "REPOMODELER_HOME": str(rmhome)}
        proc = subprocess.Popen([sys.executable, "-m", "repomodeler", "serve", str(models), "--port", str(port),
                                 "--allow-analyze", HOST], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.time() > deadline or proc.poll() is not None:
                        raise RuntimeError("repomodeler serve did not start")
                    time.sleep(0.2)
            yield f"http://127.0.0.1:{port}", models, rmhome
        finally:
            proc.terminate()
            proc.wait(timeout=20)


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def jobs(page: Any, base: str) -> list[dict[str, Any]]:
    return page.request.get(f"{base}/api/analyze/jobs").json()


def test_1_analyse_from_the_gallery_form(desk: Any, served: tuple[str, Path, Path]) -> None:
    base, models, rmhome = served
    page = desk
    page.goto(base + "/")
    page.wait_for_selector("form#analyze input[type=url][name=url]")
    assert axe_serious(page, base) == []
    page.click("#analyze-add")  # a second field (left empty: one repository is analysed)
    assert page.locator("form#analyze input[type=url][name=url]").count() == 2
    assert page.evaluate("document.activeElement.name") == "url"
    page.fill("form#analyze input[name=url] >> nth=0", f"https://{HOST}/shop.git")
    page.click("form#analyze button[type=submit]")
    page.wait_for_url(f"{base}/analyze/jobs/1")
    page.wait_for_selector("#analyze-job[data-state='published']", state="attached", timeout=120_000)
    events = page.locator("#job-events li").all_inner_texts()
    assert events[0].startswith("queued") and events[1] == "started", events
    stages = [t.split(" (")[0] for t in events[2:]]
    assert {"clone", "inventory", "parse", "resolve", "emit", "audit"} <= set(stages), events
    assert events[-1] == "published: 9 components, 10 connections"
    assert page.inner_text("#job-state") == "published"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "analyze-job-published.png"))
    assert axe_serious(page, base) == []
    page.click("#job-model")
    page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=20_000)
    page.goto(base + "/")
    card = page.locator("a.card[data-name='shop']")
    assert card.count() == 1 and "9" in card.locator(".counts dd").first.inner_text()
    assert "published" in page.inner_text("#analyze-runs li[data-job='1']")
    page.screenshot(path=str(ARTIFACTS / "analyze-gallery.png"))
    from repomodeler.store import RunStore

    assert [r.number for r in RunStore(rmhome / "runs.sqlite", read_only=True).list("shop")] == [1]


def test_2_a_disallowed_url_gets_the_error_page_and_starts_nothing(desk: Any, served: tuple[str, Path, Path]) -> None:
    base, models, _ = served
    page = desk
    before = jobs(page, base)
    folders = sorted(p.name for p in models.iterdir())
    for url, why in [("https://evil.example/acme/shop", "is not one this server analyses"),
                     ("file:///etc/passwd", "file:// URL reads this server's disk")]:
        page.goto(base + "/")
        page.fill("form#analyze input[name=url]", url)
        page.click("form#analyze button[type=submit]")
        page.wait_for_selector("#refused-reason")
        assert why in page.inner_text("#refused-reason")
        assert page.url == f"{base}/analyze"
        assert axe_serious(page, base) == []
    page.screenshot(path=str(ARTIFACTS / "analyze-refused.png"))
    assert jobs(page, base) == before and sorted(p.name for p in models.iterdir()) == folders


def test_3_ten_quick_submissions_are_queued_not_run_at_once(desk: Any, served: tuple[str, Path, Path]) -> None:
    base, _, _ = served
    page = desk
    page.goto(base + "/")
    first = max(j["id"] for j in jobs(page, base)) + 1
    statuses = page.evaluate("""() => Promise.all(Array.from({length: 10}, () => fetch('/analyze', {method: 'POST',
        headers: {'content-type': 'application/x-www-form-urlencoded'}, redirect: 'manual',
        body: 'name=shop-queue&url=' + encodeURIComponent('https://git.test.example/shop.git')}).then(r => r.type)))""")
    assert statuses == ["opaqueredirect"] * 10  # each one accepted (303 to its run page)
    mine = [j for j in jobs(page, base) if j["id"] >= first]
    most_running = sum(j["state"] == "running" for j in mine)
    most_queued, card_seen = sum(j["state"] == "queued" for j in mine), False
    page.reload()  # the gallery lists the runs and follows them: the card appears once one is published
    assert page.locator("#analyze-runs li[data-job]").count() >= 10
    assert page.locator("a.card[data-name='shop-queue']").count() == 0  # a new system: its first run takes seconds
    deadline = time.time() + 300
    while True:
        mine = [j for j in jobs(page, base) if j["id"] >= first]
        most_running = max(most_running, sum(j["state"] == "running" for j in mine))
        most_queued = max(most_queued, sum(j["state"] == "queued" for j in mine))
        card_seen = card_seen or page.locator("a.card[data-name='shop-queue']").count() == 1
        if len(mine) == 10 and all(j["state"] in ("published", "failed") for j in mine) and card_seen:
            break
        assert time.time() < deadline, (mine, card_seen)
        time.sleep(0.05)
    assert most_running == 1 and most_queued >= 8, (most_running, most_queued)
    assert [j["state"] for j in mine] == ["published"] * 10, mine
