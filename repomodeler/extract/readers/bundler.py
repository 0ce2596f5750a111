"""Bundler's ``Gemfile``: the gems a Ruby application carries, so its drivers (``pg``, ``mysql2``,
``sqlite3``, ``redis``) name the stores it uses, as the package manifests of other languages do.

A Gemfile is Ruby; this reader takes only its declarations, line by line.  ``gem "name"`` (or
``'name'``) is a dependency; one inside a ``group :development, :test do ... end`` block or given
``group: :test`` / ``groups: [...]`` of development and test groups only is a development
dependency (not installed where the application runs: ``bundle config without development test``).
A gem of any other group (``:production``, an optional ``:postgres`` group a deployment picks) is
a dependency.  Blocks are followed by their ``do``/``end`` (and ``if``/``unless``/``case``/``begin``)
so a group's ``end`` closes that group and no other.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_GEM = re.compile(r"""^\s*gem\s*\(?\s*["']([A-Za-z0-9_.-]+)["'](.*)$""")
_GROUP_BLOCK = re.compile(r"^\s*group\s*\(?\s*(.*?)\)?\s*do\s*(\|[^|]*\|)?\s*$")
_OPENS = re.compile(r"(\bdo\s*(\|[^|]*\|)?\s*$)|^\s*(if|unless|case|begin|while|until|def|class|module)\b")
_END = re.compile(r"^\s*end\b")
_GROUP_OPTION = re.compile(r"\bgroups?:\s*(\[[^\]]*\]|:\w+|\"\w+\"|'\w+')")
DEV_GROUPS = frozenset({"development", "test", "dev", "ci", "lint", "linters", "rubocop", "debug", "guard", "tools"})


def _groups(text: str) -> set[str]:
    """The group names written in `text` (``:development, :test``, ``[:test]``, ``"test"``)."""
    return {m.group(1) for m in re.finditer(r"""[:"']([A-Za-z_]\w*)""", text)}


def _dev_only(groups: set[str]) -> bool:
    return bool(groups) and groups <= DEV_GROUPS


def read_gemfile(repo: str, path: str, text: str) -> list[Fact]:
    facts = [fact("manifest", repo, path, 1, ecosystem="ruby", name=None)]
    stack: list[bool] = []  # per open block: is it a development-only group
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        gem = _GEM.match(line)
        if gem:
            option = _GROUP_OPTION.search(gem.group(2))
            dev = any(stack) or (option is not None and _dev_only(_groups(option.group(1))))
            facts.append(fact("manifest.dev_dependency" if dev else "manifest.dependency", repo, path, i,
                              ecosystem="ruby", name=gem.group(1).lower()))
            continue
        block = _GROUP_BLOCK.match(line)
        if block:
            stack.append(_dev_only(_groups(block.group(1))))
        elif _OPENS.search(line):
            stack.append(False)
        elif _END.match(line) and stack:
            stack.pop()
    return facts


READERS = (
    Reader("bundler", "descriptor", 240, read_gemfile, names=frozenset({"Gemfile"}), line_based=True),
)
