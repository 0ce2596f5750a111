"""GoReleaser configurations (``.goreleaser.yaml``): the binaries a Go repository releases.

Each ``builds`` entry compiles one ``main`` package (``./cli``, ``./cmd/api/main.go``; the module's
root when left out) into a ``binary`` (``nmctl``).  Go names a binary after its folder, so a program
kept in a generic folder (``cli/``, ``cmd/``) is known to its users by the name the release gives it:
each entry becomes a ``program.build`` fact (binary, code folder).  A templated name
(``{{ .ProjectName }}``) names nothing here and is left out.
"""

from __future__ import annotations

import posixpath
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import get, load_yaml_documents, node_line, scalar, seq
from repomodeler.records import Fact


def _code_folder(path: str, main: str) -> str:
    """The package folder a ``main`` names, from the repository's root (the file's folder is GoReleaser's)."""
    base = str(PurePosixPath(path).parent)
    target = posixpath.normpath(posixpath.join("" if base == "." else base, main or "."))
    if target.endswith(".go"):
        target = posixpath.dirname(target)
    return "" if target in (".", "") else target.strip("/")


def read_goreleaser(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for doc in load_yaml_documents(text):
        for build in seq(get(doc, "builds")):
            binary = scalar(get(build, "binary")) or ""
            if not binary or "{{" in binary or "/" in binary.strip("./"):
                continue
            main = scalar(get(build, "main")) or "."
            if "{{" in main or main.startswith("/") or main.startswith(".."):
                continue
            facts.append(fact("program.build", repo, path, node_line(build), binary=binary.strip(),
                              code=_code_folder(path, main), source="goreleaser"))
    return facts


READERS = (
    Reader("goreleaser", "descriptor", 214, read_goreleaser, patterns=(r"\.?goreleaser(?:[.-][^/]*)?\.ya?ml",)),
)
