"""axe-core (vendored) on the views the other browser tests do not audit: the "Compare with…"
overlay (ghosts, Changes panel, the selection of a change), alone and in the ports view, at
desktop and phone sizes; and every explorer state (graph, selection with its evidence, an open
component, the keyboard cursor, the Components and SysML tabs, the ports view, the comparison,
the drawers) in light and dark mode (prefers-color-scheme). Zero serious or critical
violations; the findings go to test-artifacts/."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, models_dir, open_explorer  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, axe_serious, new_page

from repomodeler.serve.background import background_server

pytestmark = [pytest.mark.browser]

SHOP_NEXT = "target%3Atargets%2Fshop-next.sysml"


@pytest.fixture(scope="module")
def url(models_dir: Path) -> Iterator[str]:  # noqa: F811
    with background_server(models_dir, source_roots=[models_dir.parent / "checkouts"]) as base:
        yield base


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_on_the_compare_overlay(browser: Any, url: str, size: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size)
    try:
        found = {}
        for name, fragment in [("overlay", f"cmp={SHOP_NEXT}"),
                               ("overlay-selected", f"cmp={SHOP_NEXT}&sel=e%3Aorders-%3Epayments%3Ahttp"),
                               ("overlay-ports", f"cmp={SHOP_NEXT}&view=ports")]:
            open_explorer(page, f"{url}/models/shop#{fragment}")
            page.wait_for_selector("#explorer[data-compared^='target:']", state="attached", timeout=15_000)
            time.sleep(0.3)
            if size == "phone" and name == "overlay-selected":
                page.click("#btn-details")
                page.wait_for_selector("#details .drawer-close", state="visible")
                time.sleep(0.3)
            page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{size}.png"))
            found[name] = axe_serious(page, url)
        (ARTIFACTS / f"axe-overlay-{size}.json").write_text(json.dumps(found, indent=2))
        assert not any(found.values()), found
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


# Every state of the explorer a user can reach, as a URL fragment and what to do after loading.
STATES = [
    ("graph", "", None),
    ("selected", "sel=n%3Aorders", "details"),
    ("edge-selected", "sel=e%3Aorders-%3Epayments%3Ahttp", "details"),
    ("keyboard", "", "keyboard"),
    ("list", "tab=list&sel=n%3Apayments", None),
    ("sysml", "tab=sysml&sel=n%3Aorders", None),
    ("ports", "view=ports&sel=n%3Apayments", "details"),
    ("labels-search", "labels=1&q=pay", "filters"),
    ("overlay", f"cmp={SHOP_NEXT}&sel=n%3Apayments-db", "details"),
    ("warnings", "", "warnings"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_on_every_explorer_state_light_and_dark(browser: Any, url: str, size: str, scheme: str) -> None:  # noqa: F811
    context, page, watch = new_page(browser, size, scheme)
    try:
        found = {}
        for name, fragment, then in STATES:
            page.goto("about:blank")  # a fresh page each time (a new fragment alone keeps the drawers as they were)
            open_explorer(page, f"{url}/models/shop#{fragment}")
            if "cmp=" in fragment:
                page.wait_for_selector("#explorer[data-compared^='target:']", state="attached", timeout=15_000)
            assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
            if then == "details" and size == "phone":
                page.click("#btn-details")
                page.wait_for_selector("#details .drawer-close", state="visible")
            elif then == "filters" and size == "phone":
                page.click("#btn-filters")
                page.wait_for_selector("#filters .drawer-close", state="visible")
            elif then == "keyboard":
                page.keyboard.press("Tab")
                page.keyboard.press("Enter")
                page.keyboard.press("ArrowRight")
            elif then == "warnings":
                if not page.is_visible("#btn-issues"):
                    continue
                page.click("#btn-issues")
            time.sleep(0.3)
            page.screenshot(path=str(ARTIFACTS / f"a11y-{scheme}-{name}-{size}.png"))
            found[name] = axe_serious(page, url)
        (ARTIFACTS / f"axe-states-{scheme}-{size}.json").write_text(json.dumps(found, indent=2))
        assert not any(found.values()), {k: v for k, v in found.items() if v}
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_axe_on_the_gallery_in_dark_mode(browser: Any, url: str, size: str) -> None:  # noqa: F811
    """Dark mode is one stylesheet for every page: the gallery keeps its contrast too."""
    context, page, watch = new_page(browser, size, "dark")
    try:
        page.goto(url + "/")
        page.wait_for_selector(".card", state="attached")
        time.sleep(0.2)
        page.screenshot(path=str(ARTIFACTS / f"a11y-dark-gallery-{size}.png"))
        found = axe_serious(page, url)
        assert not found, found
    finally:
        context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)
