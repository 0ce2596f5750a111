"""``go.mod``: the Go module, the modules it requires, and the local folders it replaces modules with
(``replace github.com/acme/x => ./x``: a library kept in the repository, built into the program)."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_go_mod(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    in_replace = False
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0].strip()
        if line.startswith("replace") and line.rstrip().endswith("("):
            in_replace = True
            continue
        if in_replace and line == ")":
            in_replace = False
            continue
        r = re.match(r"^(?:replace\s+)?(\S+)(?:\s+v\S+)?\s*=>\s*(\.{1,2}/\S*)\s*$", line)
        if r and (in_replace or line.startswith("replace")):
            facts.append(fact("go.replace", repo, path, i, module=r.group(1), target=r.group(2)))
            continue
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
