"""Elixir's ``mix.exs``: the OTP application it builds (``app: :shop``) and its Hex dependencies
(``{:postgrex, ">= 0.0.0"}``), so the drivers a Phoenix release carries name the stores it uses.

``mix.exs`` is Elixir code; the tree-sitter queries read it as source too.  This reader takes only
the project's shape, line by line: the first ``app:`` atom, and each dependency tuple that opens a line
(``{:name, "~> 1.0"}``, ``{:name, path: ...}``), which is how ``deps/0`` lists them.  A dependency only for development or tests
(``only: :test``, ``only: [:dev, :test]``) or needed only at build time (``runtime: false``) is a
development dependency: it is not in the release.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_APP = re.compile(r"^\s*app:\s*:([a-z_][a-z0-9_]*)", re.M)
# {:name, "~> 1.0"...} or {:name, git: ...} / path: / github: / in_umbrella: (not a case clause's {:ok, value})
_DEP = re.compile(r"^\s*\{\s*:([a-z_][a-z0-9_]*)\s*,(\s*(?:\"|[a-z_]+:\s).*)$", re.M)
_ONLY = re.compile(r"only:\s*(\[[^\]]*\]|:[a-z_]+)")


def _dev_only(rest: str) -> bool:
    """Is the dependency left out of a production release (``only:`` without ``:prod``, ``runtime: false``)?"""
    m = _ONLY.search(rest)
    return bool(m and ":prod" not in m.group(1)) or re.search(r"runtime:\s*false", rest) is not None


def read_mix(repo: str, path: str, text: str) -> list[Fact]:
    app = _APP.search(text)
    facts = [fact("manifest", repo, path, text.count("\n", 0, app.start(1)) + 1 if app else 1, ecosystem="hex",
                  name=app.group(1) if app else None)]
    for m in _DEP.finditer(text):
        kind = "manifest.dev_dependency" if _dev_only(m.group(2)) else "manifest.dependency"
        facts.append(fact(kind, repo, path, text.count("\n", 0, m.start(1)) + 1, ecosystem="hex", name=m.group(1)))
    return facts


READERS = (
    Reader("mix", "descriptor", 240, read_mix, names=frozenset({"mix.exs"}), line_based=True),
)
