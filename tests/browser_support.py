"""Whether the browser tests can run, and what happens when they cannot.

Locally a missing browser (Debian's chromium at /usr/bin/chromium, or the playwright package)
skips the browser tests with a loud warning and a skip reason in the summary. When the
environment says the browser is required (`CI` or `REPOMODELER_REQUIRE_BROWSER` set, as `.ci/run`
does) the same situation is a collection error: the run fails instead of going green without
ever opening a page.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from pathlib import Path

import pytest

#: The browser the tests drive; REPOMODELER_CHROMIUM overrides it (the tests of this guard use it).
CHROMIUM = Path(os.environ.get("REPOMODELER_CHROMIUM") or "/usr/bin/chromium")


def browser_required() -> bool:
    """True when a missing browser must fail the run (CI, or asked for explicitly)."""
    return any(os.environ.get(name, "").strip() not in ("", "0", "false") for name in ("CI", "REPOMODELER_REQUIRE_BROWSER"))


def missing() -> list[str]:
    """What the browser tests need and this machine lacks."""
    lacks = []
    if not CHROMIUM.exists():
        lacks.append(f"chromium is not installed at {CHROMIUM} (apt-get install -y chromium)")
    if importlib.util.find_spec("playwright") is None:
        lacks.append("the playwright package is not installed (pip install '.[test]')")
    for module in ("uvicorn", "httpx"):
        if importlib.util.find_spec(module) is None:
            lacks.append(f"the {module} package is not installed (pip install '.[test]')")
    return lacks


def require_browser() -> None:
    """Call at the top of a browser test module: returns when the browser tests can run."""
    lacks = missing()
    if not lacks:
        return
    message = "BROWSER TESTS NOT RUN: " + "; ".join(lacks)
    if browser_required():
        pytest.fail(message + " (CI / REPOMODELER_REQUIRE_BROWSER is set, so this is an error)", pytrace=False)
    warnings.warn(message, stacklevel=2)
    pytest.skip(message, allow_module_level=True)
