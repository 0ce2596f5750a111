"""Nacos configuration seeded by SQL: the ``config_info`` rows a Spring Cloud Alibaba project ships for its
Nacos server's database (``INSERT INTO config_info (id, data_id, group_id, content, ...) VALUES (...)``).

Such a project keeps its services' real settings there, not in the repository's YAML: gateway routes
(``lb://orders``), datasource and Redis addresses. Each row's ``content`` is a Spring configuration document
named by its ``data_id`` (``orders-dev.yml``: the settings of the application ``orders``, profile ``dev``;
``application-dev.yml``: shared by every client of the config server). Its properties are read like a
configuration repository's file of that name, as ``config.property`` facts at the row's line, with the data id
in ``config_file`` (the graph takes the owner from it, not from the SQL file's path).
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers.spring import read_spring_config
from repomodeler.records import Fact

_INSERT = re.compile(r"insert\s+into\s+[`\"]?(?:\w+[`\"]?\.[`\"]?)?config_info[`\"]?\s*\(([^)]*)\)\s*values\s*", re.I)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "Z": "\x1a", "b": "\b"}
_DATA_ID = re.compile(r"^[\w.-]+\.(ya?ml|properties)$", re.I)
_BARE = re.compile(r"[^,)\s]+(?:\([^)]*\))?")  # a literal outside quotes: a number, NULL, now()


def _row_values(text: str, pos: int) -> tuple[list[str | None], int] | None:
    """The literals of one ``( ... )`` tuple at `pos` (strings unescaped, NULL as None) and the position after
    it; None when the text there is not a tuple of literals."""
    if pos >= len(text) or text[pos] != "(":
        return None
    values: list[str | None] = []
    i = pos + 1
    n = len(text)
    while i < n:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i >= n:
            return None
        c = text[i]
        if c in "'\"":
            out: list[str] = []
            i += 1
            while i < n:
                ch = text[i]
                if ch == "\\" and i + 1 < n:
                    out.append(_ESCAPES.get(text[i + 1], text[i + 1]))
                    i += 2
                elif ch == c:
                    if i + 1 < n and text[i + 1] == c:  # a doubled quote
                        out.append(c)
                        i += 2
                    else:
                        i += 1
                        break
                else:
                    out.append(ch)
                    i += 1
            values.append("".join(out))
        else:
            m = _BARE.match(text, i)
            if m is None:
                return None
            token = m.group(0)
            values.append(None if token.lower() == "null" else token)
            i = m.end()
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i < n and text[i] == ",":
            i += 1
            continue
        if i < n and text[i] == ")":
            return values, i + 1
        return None
    return None


def read_nacos_sql(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    line, counted = 1, 0  # the line of text[counted], advanced as the rows are read (one pass over the file)
    for m in _INSERT.finditer(text):
        columns = [c.strip().strip("`\"").lower() for c in m.group(1).split(",")]
        if "data_id" not in columns or "content" not in columns:
            continue
        at_id, at_content = columns.index("data_id"), columns.index("content")
        pos = m.end()
        while True:
            row = _row_values(text, pos)
            if row is None:
                break
            values, end = row
            line, counted = line + text.count("\n", counted, pos), pos
            if len(values) == len(columns):
                data_id, content = values[at_id] or "", values[at_content] or ""
                if _DATA_ID.match(data_id) and content.strip():
                    try:
                        read = read_spring_config(repo, data_id, content)
                    except Exception:  # one row that is no YAML spoils none of the others
                        read = []
                    for f in read:
                        attrs = dict(f.attrs)
                        attrs["profile"] = ""  # the seeded document is what runs; its name carries the profile
                        attrs.pop("profile_document", None)
                        facts.append(fact("config.property", repo, path, line, **attrs, config_file=data_id))
            pos = end
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            if pos < len(text) and text[pos] == ",":
                pos += 1
                while pos < len(text) and text[pos] in " \t\r\n":
                    pos += 1
                continue
            break
    return facts


READERS = (
    # SQL files holding Nacos's `config_info` table (its schema or its rows appear near the top)
    Reader("nacos", "descriptor", 460, read_nacos_sql, patterns=(r"[^/]*\.sql",),
           sniff=lambda path, head: "config_info" in head.lower()),
)
