"""The explorer by keyboard and by link, in Debian's chromium (issue 27 point 7): a skip link is the
first stop of Tab and lands in the graph; arrow keys move a cursor between connected components,
Enter shows the details; from page load to any component's evidence takes fewer than 10 key
presses (counted here, at desktop and phone sizes); `/` focuses the search; a selection has a
link to copy, and Back undoes a selection."""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import SHOP_NODES, browser, models_dir, open_explorer, wait_until  # noqa: F401 - fixtures are used by name
from test_viewer_firsthour import ARTIFACTS, new_page

from repomodeler.serve.background import background_server

pytestmark = [pytest.mark.browser]
ARROWS = ("ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp")


@pytest.fixture(scope="module")
def url(models_dir: Path) -> Iterator[str]:  # noqa: F811
    with background_server(models_dir, source_roots=[models_dir.parent / "checkouts"]) as base:
        yield base


@pytest.fixture(params=["desktop", "phone"])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:  # noqa: F811
    context, page, watch = new_page(browser, request.param)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield request.param, page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def key_paths(page: Any, start: str) -> dict[str, list[str]]:
    """The fewest arrow presses from `start` to every component the arrows reach (breadth first over
    where each arrow leads, as the page computes it)."""
    paths, todo = {start: []}, deque([start])
    while todo:
        here = todo.popleft()
        for key in ARROWS:
            there = page.evaluate("([id, k]) => explorer.arrowFrom(id, k)", [here, key])
            if there and there not in paths:
                paths[there] = paths[here] + [key]
                todo.append(there)
    return paths


def cursor(page: Any) -> str:
    return page.evaluate("cy.nodes('.kbd').map(n => n.data('mid')).join(',')")


def test_keyboard_only_from_page_load_to_a_components_evidence(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/shop")
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        page.keyboard.press(key)
        presses += 1

    press("Tab")  # the skip link is the first stop
    assert page.evaluate("document.activeElement.id") == "skip-graph"
    assert page.is_visible("#skip-graph")
    press("Enter")
    assert page.evaluate("document.activeElement.id") == "cy"
    start = wait_until(lambda: cursor(page), what="a cursor in the graph")
    assert page.text_content("#graph-cursor").startswith(start)  # announced
    paths = key_paths(page, start)
    assert set(paths) >= SHOP_NODES - {start} | {start}, sorted(SHOP_NODES - set(paths))
    far = max(sorted(paths), key=lambda n: len(paths[n]))
    assert 2 + len(paths[far]) + 1 < 10, (far, paths[far])
    for key in paths[far]:
        press(key)
    assert cursor(page) == far
    press("Enter")
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:" + far, what="selected by Enter")
    wait_until(lambda: page.evaluate("document.activeElement.id") == "details-title", what="focus on the details")
    assert page.is_visible("#details .evidence-list")
    assert presses < 10, presses
    page.screenshot(path=str(ARTIFACTS / f"keyboard-evidence-{size}.png"))
    print(f"{size}: {presses} key presses to the evidence of {far} (the farthest component)")


def test_slash_searches_and_space_opens_nothing_without_parts(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/shop")
    page.keyboard.press("/")
    wait_until(lambda: page.evaluate("document.activeElement.id") == "search", what="/ focuses the search")
    page.keyboard.type("paym")
    wait_until(lambda: set(page.evaluate("explorer.visibleNodeIds()")) == {"payments", "orders", "stripe"} or
               "payments" in page.evaluate("explorer.visibleNodeIds()"), what="search applied")
    assert page.evaluate("document.getElementById('search').value") == "paym"  # "/" itself was not typed


def test_copy_link_and_back_undoes_a_selection(sized: tuple[str, Any], url: str) -> None:
    size, page = sized
    open_explorer(page, url + "/models/shop")
    start = page.evaluate("location.href")
    page.evaluate("explorer.select('n:orders')")
    page.evaluate("explorer.select('n:payments')")
    assert "sel=n%3Apayments" in page.evaluate("location.hash")
    page.click("#btn-copy-link") if size == "desktop" else page.evaluate("document.getElementById('btn-copy-link').click()")
    wait_until(lambda: page.get_attribute("#btn-copy-link", "data-copied"), what="link copied")
    assert page.evaluate("navigator.clipboard.readText()") == page.evaluate("location.href")
    positions = page.evaluate("cy.nodes().filter(n => !n.isParent()).map(n => [n.id(), n.position('x'), n.position('y')])")
    page.go_back()
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:orders", what="Back to the previous selection")
    wait_until(lambda: page.text_content("#details-title") == "orders", what="its details")
    assert page.evaluate("cy.$(':selected').map(e => e.id())") == ["n:orders"]
    page.go_back()
    wait_until(lambda: page.evaluate("explorer.state.sel") is None, what="Back to no selection")
    assert page.evaluate("location.href") == start
    assert page.evaluate("cy.nodes().filter(n => !n.isParent()).map(n => [n.id(), n.position('x'), n.position('y')])") == positions  # nothing moved
    page.go_forward()
    wait_until(lambda: page.evaluate("explorer.state.sel") == "n:orders", what="Forward again")
    # the copied link opens the same selection
    open_explorer(page, start.split("#")[0] + "#sel=n%3Apayments")
    wait_until(lambda: page.text_content("#details-title") == "payments", what="the link's selection")
    time.sleep(0.1)
