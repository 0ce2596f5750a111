"""Laravel's configuration files (``config/services.php`` returning a nested array): the defaults code reads.

Why: a Laravel application reads its settings with ``config('services.musicbrainz.endpoint')``; the
value is written in ``config/services.php`` (``'endpoint' => 'https://musicbrainz.org/ws/2'``) or
taken from the environment with a default (``env('MUSICBRAINZ_ENDPOINT', 'https://...')``). Each
leaf of the returned array becomes a ``config.default`` fact named as code reads it (the file's stem,
then the keys: ``services.musicbrainz.endpoint``), with its literal value or the ``env()`` default
and the variable's name. Only code reading a key makes a connection of it (rule code.config-reads):
the framework's files name many services nobody turns on.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|\#[^\n]*|/\*.*?\*/)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<arrow>=>)
  | (?P<open>\[|\(|\{)
  | (?P<close>\]|\)|\})
  | (?P<comma>,)
  | (?P<word>[A-Za-z_\\][A-Za-z0-9_\\:]*)
  | (?P<other>[^\s])
""", re.S | re.X)
_RETURN = re.compile(r"\breturn\s*(\[|array\s*\()")
MAX_DEPTH = 8


def _tokens(text: str, start: int) -> list[tuple[str, str, int]]:
    """(kind, text, line) from `start` on, comments left out."""
    out: list[tuple[str, str, int]] = []
    line = text.count("\n", 0, start) + 1
    pos = start
    for m in _TOKEN.finditer(text, start):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        kind = m.lastgroup or "other"
        if kind != "comment":
            out.append((kind, m.group(), line))
    return out


def _literal(token: tuple[str, str, int]) -> str | None:
    kind, value, _line = token
    if kind != "string":
        return None
    body = value[1:-1]
    return re.sub(r"\\(.)", r"\1", body)


class _Parser:
    """A tolerant reader of one PHP array literal: keys and literal (or ``env()``) leaves; anything else
    (a computed value, a closure) is skipped up to the next element."""

    def __init__(self, tokens: list[tuple[str, str, int]]) -> None:
        self.tokens = tokens
        self.i = 0
        self.leaves: list[tuple[list[str], str, str, int]] = []  # (keys, value, env variable, line)

    def peek(self, k: int = 0) -> tuple[str, str, int] | None:
        return self.tokens[self.i + k] if self.i + k < len(self.tokens) else None

    def array(self, keys: list[str], depth: int) -> None:
        """At an opening ``[`` / ``array(``: read elements up to the matching close."""
        tok = self.peek()
        if tok is not None and tok[0] == "word" and tok[1].lower() == "array":
            self.i += 1
        self.i += 1  # the opening bracket
        index = 0
        while self.peek() is not None and self.peek()[0] != "close":  # type: ignore[index]
            key_tok, arrow = self.peek(), self.peek(1)
            key = None
            if key_tok is not None and arrow is not None and arrow[0] == "arrow":
                key = _literal(key_tok) or key_tok[1]
                self.i += 2
            else:
                key = str(index)
                index += 1
            self.value([*keys, key], depth)
            if self.peek() is not None and self.peek()[0] == "comma":  # type: ignore[index]
                self.i += 1
        self.i += 1  # the closing bracket

    def value(self, keys: list[str], depth: int) -> None:
        tok = self.peek()
        if tok is None:
            return
        nxt = self.peek(1)
        if depth < MAX_DEPTH and (tok[1] == "[" or (tok[0] == "word" and tok[1].lower() == "array"
                                                    and nxt is not None and nxt[1] == "(")):
            self.array(keys, depth + 1)
            return
        literal = _literal(tok)
        if literal is not None and nxt is not None and nxt[0] in ("comma", "close"):
            self.leaves.append((keys, literal, "", tok[2]))
            self.i += 1
            return
        if tok[0] == "word" and tok[1] == "env" and nxt is not None and nxt[1] == "(":
            args = self.tokens[self.i + 2:self.i + 6]
            name = _literal(args[0]) if args else None
            default = _literal(args[2]) if len(args) >= 4 and args[1][0] == "comma" and args[3][1] == ")" else None
            if name:
                self.leaves.append((keys, default or "", name, tok[2]))
        self.skip()

    def skip(self) -> None:
        """Past the rest of a value: to the comma or close bracket of the enclosing array."""
        depth = 0
        while self.peek() is not None:
            kind = self.peek()[0]  # type: ignore[index]
            if kind == "open":
                depth += 1
            elif kind == "close":
                if depth == 0:
                    return
                depth -= 1
            elif kind == "comma" and depth == 0:
                return
            self.i += 1


def read_laravel_config(repo: str, path: str, text: str) -> list[Fact]:
    m = _RETURN.search(text)
    if m is None:
        return []
    tokens = _tokens(text, m.start(1))
    parser = _Parser(tokens)
    parser.array([], 0)
    stem = PurePosixPath(path).stem
    facts = []
    for keys, value, env, line in parser.leaves:
        if value or env:
            facts.append(fact("config.default", repo, path, line, name=".".join([stem, *keys]), value=value, env=env,
                              framework="laravel"))
    return facts


def _is_laravel_config(path: str, head: str) -> bool:
    """A PHP file of a config/ folder returning an array (Laravel's, and its packages')."""
    return bool(_RETURN.search(head)) and "<?php" in head[:200]


READERS = (
    Reader("laravel_config", "descriptor", 185, read_laravel_config, patterns=(r"config/[^/]+\.php",),
           sniff=_is_laravel_config, lists=False),
)
