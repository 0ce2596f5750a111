"""The README's flow in chromium: `repomodeler analyze samples/shop --out models/shop`, then
`repomodeler serve models` with no flag, and the evidence panel shows the code (issue 27)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, open_explorer  # noqa: F401 - the fixture is used by name
from test_viewer_firsthour import ARTIFACTS, new_page

from conftest import ROOT
from repomodeler.serve.background import background_server

pytestmark = [pytest.mark.browser]


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def test_readme_flow_shows_a_snippet_in_the_evidence_panel(desk: Any, tmp_path: Path) -> None:
    import os
    import shutil

    shutil.copytree(ROOT / "samples" / "shop", tmp_path / "samples" / "shop")
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", "samples/shop", "--out", "models/shop"],
                          cwd=tmp_path, capture_output=True, text=True, env=os.environ.copy())
    assert done.returncode == 0, done.stderr
    line = (tmp_path / "samples" / "shop" / "orders" / "main.py").read_text().splitlines()[27]  # orders/main.py:28
    with background_server(tmp_path / "models") as base:  # `repomodeler serve models`: no --source-root
        open_explorer(desk, base + "/models/shop#sel=e%3Aorders-%3Epayments%3Ahttp")
        desk.wait_for_selector("#details .snippet .row.hl", timeout=15_000)
        highlighted = desk.locator("#details .snippet .row.hl .code").all_inner_texts()
        assert line in highlighted, (line, highlighted)
        assert "Source not available" not in desk.inner_text("#details")
        ARTIFACTS.mkdir(exist_ok=True)
        desk.screenshot(path=str(ARTIFACTS / "readme-flow-snippet.png"))
