"""Human JSON configuration (``config.hjson``, ``lemmy.hjson``): JSON with comments, unquoted keys
and values, and no commas, used by Rust and Node services for their main settings. Each setting
becomes a ``config.property`` named by its path (``database.connection``), at its line, so an
address in it (``postgres://...@postgres:5432/db``) links the service that is configured with it
(a compose service mounting the file owns it)."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_OPEN = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:\s*[{\[]\s*$")
_VALUE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:\s*(.+?)\s*,?\s*$")


def _strip_comment(line: str) -> str:
    """The line without a ``#`` or ``//`` comment outside quotes."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote and line[i - 1] != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#" or line.startswith("//", i):
            return line[:i]
    return line


def read_hjson(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    stack: list[str] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            continue
        m = _OPEN.match(line)
        if m:
            stack.append(m.group(1))
            continue
        if line.strip() in ("}", "]", "},", "],"):
            if stack:
                stack.pop()
            continue
        m = _VALUE.match(line)
        if m and not m.group(2).startswith(("{", "[")):
            value = m.group(2)
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            facts.append(fact("config.property", repo, path, i, name=".".join([*stack, m.group(1)]), value=value,
                              profile=""))
    return facts


READERS = (
    Reader("hjson", "descriptor", 335, read_hjson, patterns=(r"[^/]*\.hjson",)),
)
