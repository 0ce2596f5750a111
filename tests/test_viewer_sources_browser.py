"""The README's flow in chromium, from a non-editable install: `pip install .` (the wheel,
installed apart from the checkout), `repomodeler analyze samples/shop --out models/shop`, then
`repomodeler serve models` with no flag, and the evidence panel shows the code (issue 27)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from test_viewer_browser import browser, open_explorer  # noqa: F401 - the fixture is used by name
from test_viewer_firsthour import ARTIFACTS, new_page

from conftest import ROOT

pytestmark = [pytest.mark.browser]


@pytest.fixture()
def desk(browser: Any) -> Iterator[Any]:  # noqa: F811
    context, page, watch = new_page(browser, "desktop")
    yield page
    context.close()
    assert not (watch.dialogs or watch.errors or watch.external), vars(watch)


def installed(tmp_path: Path) -> dict[str, str]:
    """The environment of a wheel of this checkout installed in a folder of its own (the
    dependencies are this interpreter's), with the installed copy first on the path."""
    wheels, target = tmp_path / "wheels", tmp_path / "site-packages"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                           str(wheels), str(ROOT)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
                           str(next(wheels.glob("repomodeler-*.whl")))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return {**os.environ, "PYTHONPATH": str(target)}


def test_readme_flow_shows_a_snippet_in_the_evidence_panel(desk: Any, tmp_path: Path) -> None:
    env = installed(tmp_path)
    work = tmp_path / "work"
    shutil.copytree(ROOT / "samples" / "shop", work / "samples" / "shop")
    where = subprocess.run([sys.executable, "-c", "import repomodeler; print(repomodeler.__file__)"], cwd=work, env=env,
                           capture_output=True, text=True)
    assert where.stdout.startswith(str(tmp_path / "site-packages")), where
    done = subprocess.run([sys.executable, "-m", "repomodeler", "analyze", "samples/shop", "--out", "models/shop"],
                          cwd=work, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    line = (work / "samples" / "shop" / "orders" / "main.py").read_text().splitlines()[27]  # orders/main.py:28
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "repomodeler", "serve", "models", "--port", str(port)], cwd=work,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.time() < deadline and server.poll() is None, "repomodeler serve did not start"
                time.sleep(0.2)
        open_explorer(desk, f"http://127.0.0.1:{port}/models/shop#sel=e%3Aorders-%3Epayments%3Ahttp")
        desk.wait_for_selector("#details .snippet .row.hl", timeout=15_000)
        highlighted = desk.locator("#details .snippet .row.hl .code").all_inner_texts()
        assert line in highlighted, (line, highlighted)
        assert "Source not available" not in desk.inner_text("#details")
        ARTIFACTS.mkdir(exist_ok=True)
        desk.screenshot(path=str(ARTIFACTS / "readme-flow-snippet.png"))
    finally:
        server.terminate()
        server.wait(timeout=20)
