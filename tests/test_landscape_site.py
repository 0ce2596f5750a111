"""The landscape page in a published static site, opened from file:// (no server) in chromium:
linked from the gallery, its systems and cross-system links with evidence, drill into a system and
on to that system's explorer page, all under the site's CSP."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from browser_support import CHROMIUM, require_browser

require_browser()
pytestmark = [pytest.mark.browser]
import playwright.sync_api as playwright_sync  # noqa: E402

from repomodeler.landscape.inputs import read_inputs_file  # noqa: E402
from repomodeler.landscape.run import LandscapeOptions, analyze_landscape  # noqa: E402
from repomodeler.serve.publish import publish_site  # noqa: E402
from tests.landscape_support import inputs_yaml, make_org  # noqa: E402

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]


def _ready(page: Any, timeout: float = 20.0) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if page.get_attribute("#landscape", "data-ready-ms"):
            return
        time.sleep(0.02)
    raise AssertionError("the landscape page never became ready")


def test_published_site_has_the_landscape_working_from_file(tmp_path: Path) -> None:
    paths = make_org(tmp_path)
    models = tmp_path / "models"
    analyze_landscape(read_inputs_file(inputs_yaml(tmp_path, paths)),
                      LandscapeOptions(name="acme", out=models, jobs=1, validate=False, store_dir=tmp_path / "store"))
    site = tmp_path / "site"
    assert publish_site(models, site) == 2  # the two systems' models
    assert (site / "landscape.html").is_file() and (site / "landscape-data.js").is_file()
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file://", "data:")) else None)
        page.goto((site / "index.html").as_uri())
        page.click("#gallery-landscape")
        page.wait_for_url("**/landscape.html")
        _ready(page)
        assert page.url.startswith("file://")
        assert page.text_content("#landscape-title") == "Landscape acme"
        assert sorted(page.locator(".ls-system").evaluate_all("bs => bs.map(b => b.dataset.id)")) == \
            ["ledger", "payments"]
        page.click('.ls-system[data-id="payments"]')
        page.wait_for_selector("#ls-detail:not(.hidden)")
        links = page.locator("#ls-detail-links li").all_text_contents()
        assert any(t.startswith("→ ledger/ledger-api calls (http)") and "pay-api:docker-compose.yml:" in t
                   for t in links), links
        components = page.locator("#ls-detail-components li").all_text_contents()
        assert any(t.startswith("pay-api (") for t in components), components
        # search across systems works offline too
        page.fill("#ls-search", "ledger-api")
        page.wait_for_selector("#ls-results li")
        assert "ledger-api (service) in ledger" in page.locator("#ls-results li").all_text_contents()
        # on to the system's explorer page in the same site
        href = page.get_attribute("#ls-detail-open", "href")
        assert href == "models/payments.html" and (site / href).is_file()
        page.click("#ls-detail-open")
        page.wait_for_url("**/models/payments.html")
        page.wait_for_function("document.querySelectorAll('#cards, #graph, canvas').length > 0")
        browser.close()
    assert not errors, errors
    assert outside == [], outside


def test_a_site_without_a_landscape_has_no_landscape_page(tmp_path: Path) -> None:
    from tests.conftest import make_repo, run_cli
    from tests.landscape_support import PAY_API

    repo = tmp_path / "one"
    make_repo(repo, PAY_API)
    models = tmp_path / "models"
    assert run_cli(["analyze", str(repo), "--out", str(models / "one"), "--no-validate", "-q"]).returncode == 0
    site = tmp_path / "site"
    publish_site(models, site)
    assert not (site / "landscape.html").exists()
    assert 'id="gallery-landscape"' not in (site / "index.html").read_text()
