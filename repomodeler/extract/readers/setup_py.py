"""setuptools ``setup.py``: a Python package and the console scripts it installs."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.setup_cfg import console_lines
from repomodeler.records import Fact


def read_setup_py(repo: str, path: str, text: str) -> list[Fact]:
    """``entry_points={"console_scripts": ["name = pkg.mod:main"]}`` of a ``setup.py`` (the literal
    strings after ``console_scripts``; a computed list is not followed)."""
    facts = [fact("manifest", repo, path, 1, ecosystem="python", name=None)]
    m = re.search(r"[\"']console_scripts[\"']\s*:\s*\[([^\]]*)\]", text)
    if m:
        for s in re.findall(r"[\"']([^\"'\n]+)[\"']", m.group(1)):
            facts.extend(console_lines(s, text, repo, path))
    return facts


READERS = (
    Reader("setup_py", "descriptor", 190, read_setup_py, names=frozenset({"setup.py"}), line_based=True),
)
