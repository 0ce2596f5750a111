"""The first hour: the README's quick-start commands, the CI script that runs them, the guard
that makes a missing browser fail CI instead of skipping, and `serve` on a busy port."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ANALYZE = "python3 -m venv .venv && . .venv/bin/activate && pip install . && repomodeler analyze samples/shop --out models/shop"
TEST = 'python3 -m venv .venv && . .venv/bin/activate && pip install ".[test]" && python -m pytest -q'


def readme_first_block() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", text, re.S)
    assert block, "README has no code block"
    return block.group(1).strip().splitlines()


def test_readme_quick_start_uses_a_venv() -> None:
    assert readme_first_block() == [ANALYZE, TEST]


def test_readme_quick_start_for_windows_powershell() -> None:
    """Next to the POSIX lines: the same two steps for PowerShell, calling the venv's programs by
    path (no Activate.ps1, which the default execution policy refuses; no `&&`, which Windows
    PowerShell 5 lacks)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```powershell\n(.*?)```", text, re.S)
    assert block and text.index("```powershell") < text.index("## Commands")
    assert block.group(1).strip().splitlines() == [
        r"py -m venv .venv; .venv\Scripts\python -m pip install .; .venv\Scripts\repomodeler analyze samples/shop --out models/shop",
        r'py -m venv .venv; .venv\Scripts\python -m pip install ".[test]"; .venv\Scripts\python -m pytest -q',
    ]
    assert "Activate" not in block.group(1) and "&&" not in block.group(1)


def test_ci_runs_exactly_the_readme_test_command_and_requires_the_browser() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert commands[-1] == readme_first_block()[1]
    assert "export REPOMODELER_REQUIRE_BROWSER=1" in script
    assert "chromium" in script and os.access(ROOT / ".ci" / "run", os.X_OK)


def _collect_browser_tests(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "REPOMODELER_REQUIRE_BROWSER")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", "tests/test_viewer_browser.py"],
        cwd=ROOT, capture_output=True, text=True, env={**clean, "REPOMODELER_CHROMIUM": "/nonexistent/chromium", **env},
        timeout=120,
    )


def test_missing_browser_skips_loudly_locally() -> None:
    result = _collect_browser_tests()
    assert result.returncode in (0, 5), result.stdout + result.stderr  # 5: every test skipped
    assert "skipped" in result.stdout and "BROWSER TESTS NOT RUN" in result.stdout
    assert "chromium is not installed at /nonexistent/chromium" in result.stdout


def test_missing_browser_fails_the_run_in_ci() -> None:
    for env in ({"REPOMODELER_REQUIRE_BROWSER": "1"}, {"CI": "true"}):
        result = _collect_browser_tests(**env)
        assert result.returncode != 0, result.stdout
        assert "BROWSER TESTS NOT RUN" in result.stdout and "is set, so this is an error" in result.stdout


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "repomodeler", "serve", str(tmp_path), "--port", str(port)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: port {port} on 127.0.0.1 is already in use (another 'repomodeler serve'?); "
                     f"pick another one with --port {port + 1}"]
    assert "Traceback" not in result.stderr
