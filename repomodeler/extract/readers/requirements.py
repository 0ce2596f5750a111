"""pip requirements files: one dependency a line."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_requirements(repo: str, path: str, text: str) -> list[Fact]:
    facts = [fact("manifest", repo, path, 1, ecosystem="python", name=None)]
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^\s*([A-Za-z0-9_.-]+)", raw.split("#", 1)[0])
        if m and not raw.strip().startswith("-"):
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="python", name=m.group(1).lower()))
    return facts


READERS = (
    Reader("requirements", "descriptor", 140, read_requirements, patterns=(r"requirements[^/]*\.txt", r"requirements[^/]*\.in"),
           line_based=True),
)
