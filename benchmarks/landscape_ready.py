#!/usr/bin/env python3
"""How fast the landscape page of 5,000 components becomes interactive, and how fast a drill opens.

    python benchmarks/landscape_ready.py            # 5 runs in a fresh chromium each; median and worst

Target: interactive (the page's own ``data-ready-ms``) in under 2,000 ms, a drill into a system in
under 1 s, on a quiet machine. The same generated landscape as tests/test_landscape_browser.py (500
systems of 10 components linked by the landscape's own rules); needs Debian's chromium and the test
dependencies (playwright). Not a timed test: tests only bound the page against pathological slowness.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    import playwright.sync_api as playwright_sync

    from browser_support import CHROMIUM
    from test_landscape_browser import LAUNCH_ARGS, _ready, _summaries

    from repomodeler.landscape.links import landscape_model
    from repomodeler.model import to_json
    from repomodeler.serve.background import background_server

    ready: list[int] = []
    drill: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        models = Path(tmp)
        (models / "landscape.json").write_text(to_json(landscape_model("bigorg", _summaries(), [], [])), encoding="utf-8")
        with background_server(models) as url, playwright_sync.sync_playwright() as p:
            for _ in range(args.runs):
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
                page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
                page.goto(f"{url}/landscape")
                ready.append(_ready(page))
                started = time.perf_counter()
                page.click('.ls-system[data-id="sys010"]')
                page.wait_for_selector("#ls-detail:not(.hidden)")
                drill.append((time.perf_counter() - started) * 1000)
                browser.close()
    print(f"interactive: median {statistics.median(ready):.0f} ms, worst {max(ready)} ms (target < 2000 ms)")
    print(f"drill:       median {statistics.median(drill):.0f} ms, worst {max(drill):.0f} ms (target < 1000 ms)")
    return 0 if max(ready) < 2000 and max(drill) < 1000 else 1


if __name__ == "__main__":
    raise SystemExit(main())
