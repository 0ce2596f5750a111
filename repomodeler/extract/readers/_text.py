"""Line numbers in manifests read as whole texts (JSON, TOML, XML)."""

from __future__ import annotations

import re


def first_line(text: str, needle: str, default: int = 1) -> int:
    idx = text.find(needle)
    return text.count("\n", 0, idx) + 1 if idx >= 0 else default


class LineIndex:
    """First line of each needle found by one regex pass, so a manifest with many dependencies is
    read in linear time (searching the text once per dependency is quadratic on hostile input)."""

    def __init__(self, text: str, pattern: str) -> None:
        self._first: dict[str, int] = {}
        line, pos = 1, 0
        for m in re.finditer(pattern, text):
            line += text.count("\n", pos, m.start())
            pos = m.start()
            self._first.setdefault(m.group(1), line)

    def line(self, key: str, default: int = 1) -> int:
        return self._first.get(key, default)


def first_match_line(text: str, pattern: str, default: int = 1) -> int:
    m = re.search(pattern, text, re.M)
    return text.count("\n", 0, m.start()) + 1 if m else default
