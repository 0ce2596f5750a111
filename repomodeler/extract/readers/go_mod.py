"""``go.mod``: the Go module and the modules it requires."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_go_mod(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = re.match(r"^module\s+(\S+)", line)
        if m:
            facts.append(fact("manifest", repo, path, i, ecosystem="go", name=m.group(1)))
            continue
        m = re.match(r"^(?:require\s+)?([a-zA-Z0-9.-]+\.[a-z]{2,}/\S+)\s+v\S+", line)
        if m:
            facts.append(fact("manifest.dependency", repo, path, i, ecosystem="go", name=m.group(1)))
    return facts


READERS = (
    Reader("go_mod", "descriptor", 150, read_go_mod, names=frozenset({"go.mod"}), line_based=True),
)
