"""Line numbers in manifests read as whole texts (JSON, TOML, XML), and shell lines joined across continuations."""

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


def image_named(value: str) -> bool:
    """Does an image reference a build file declares name its image, once the reader resolved what it
    could: its last path segment (without tag and digest) holds no placeholder left (``${...}``,
    ``$(...)``, ``{{...}}``) and no blank (``acme/${project.artifactId}:1.0`` resolved -> yes;
    ``acme/${image.name}`` -> no)."""
    last = value.strip().split("/")[-1].split("@")[0]
    name = re.sub(r":[^:]*$", "", last) if not last.startswith(":") else ""
    return bool(name) and not re.search(r"[${}()\s]", name)


def name_words(name: str) -> list[str]:
    """The lower-case words of a name however it is written (``openaiApiKey``, ``OPENAI_API_KEY``,
    ``CONFIG_whisk_couchdb_host``, ``kube-apiserver``): camel humps and every other character apart."""
    return [w for w in re.split(r"[^a-z0-9]+", re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", name).lower()) if w]


def section_index(text: str, key: str, pattern: str = r'"((?:[^"\\\n]|\\.)*)"') -> tuple[LineIndex, int]:
    """A LineIndex of the JSON text after the object key `key` (``"devDependencies":``) and the number of lines
    before it: a name's line inside that section, not where the file first mentions it (the whole text when
    the key is not written)."""
    m = re.search(rf'"{re.escape(key)}"\s*:', text)
    if m is None:
        return LineIndex(text, pattern), 0
    return LineIndex(text[m.end():], pattern), text.count("\n", 0, m.end())


def joined_shell_lines(text: str) -> list[tuple[int, str]]:
    """Shell lines with their backslash continuations joined (``exec s6-setuidgid app \\`` + the next
    line), each numbered by the line it starts on."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if pending is not None:
            start, head = pending
            line, i = f"{head} {line}".strip(), start
        if line.endswith("\\") and not line.startswith("#"):
            pending = (i, line[:-1].strip())
            continue
        pending = None
        out.append((i, line))
    if pending is not None:
        out.append(pending)
    return out
