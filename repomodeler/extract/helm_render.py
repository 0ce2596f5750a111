"""Helm charts rendered far enough to be read as Kubernetes manifests: a small, pure Go-template renderer.

A chart's templates are not YAML until Helm renders them, and what the architecture needs (workload
names, images, environment, Services) is mostly written as ``{{ include "x.fullname" . }}`` or
``{{ .Values.image.repository }}``.  Running ``helm`` would need a binary, the network (dependencies)
and a cluster's answers (``lookup``), so the chart is rendered here with its own ``values.yaml``, the
release named after the chart, namespace ``default``, and a modern cluster's capabilities.

What is supported: text/template's actions (``if``/``else if``/``else``/``with``/``range``/``define``/
``template``/``block``/``break``/``continue``, variables, pipelines, parentheses, ``{{-``/``-}}``,
comments) and the functions charts commonly use (Go's builtins and a Sprig subset, see ``_FUNCTIONS``).
What is not: anything that needs the outside world (``lookup`` is empty, random and time functions
are unknown), regular expressions (a hostile pattern could spin; they are unknown), packed subcharts
(``charts/*.tgz``), and Helm's strictness: an unknown function or a missing value is an empty
string, ``required`` returns its value and ``fail`` prints nothing.

Hostile input is bounded: include depth, block nesting, loop sizes, the number of steps and the size
of every string.  A template that still cannot be rendered is skipped with a warning naming it; the
renderer never raises.  Everything iterates in sorted order, so the output is deterministic.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import posixpath
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Callable, Mapping, Union
from urllib.parse import quote_plus

MAX_INCLUDE_DEPTH = 24  # include/template/tpl calls inside one another
MAX_NESTING = 100  # blocks inside blocks, parentheses inside parentheses
MAX_STEPS = 500_000  # nodes executed, functions called and loop turns, per rendered template
MAX_LOOP = 10_000  # turns of one range (and the length of until)
MAX_TEXT = 2_000_000  # characters of any string made, and of a template's output
MAX_VALUE_NODES = 200_000  # entries of a value printed or converted (shared parts counted each time)
MAX_WIDTH = 10_000  # indentation, padding and repetition counts
MAX_CHART_DEPTH = 4  # charts/<a>/charts/<b>/...
NAMESPACE = "default"
KUBE_VERSION = "v1.30.0"


class TemplateError(Exception):
    """Why a template could not be rendered (the message becomes the warning's text)."""


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class RenderedTemplate:
    """One template's output, line by line, each line with the template line that produced it (for
    text of an include, a ``toYaml`` or any other action: the line of that action)."""

    path: str  # relative to the chart files given (``templates/deployment.yaml``, ``charts/db/templates/x.yaml``)
    lines: tuple[tuple[int, str], ...]

    @property
    def text(self) -> str:
        return "\n".join(text for _line, text in self.lines)

    def template_line(self, rendered_line: int) -> int:
        """The template line behind line `rendered_line` (1-based) of :attr:`text`; 0 when out of range."""
        if 1 <= rendered_line <= len(self.lines):
            return self.lines[rendered_line - 1][0]
        return 0


@dataclass(frozen=True)
class RenderWarning:
    path: str  # relative to the chart files given
    line: int
    message: str


@dataclass(frozen=True)
class ChartRender:
    templates: tuple[RenderedTemplate, ...]
    warnings: tuple[RenderWarning, ...]


# --------------------------------------------------------------------------- lexing
@dataclass(frozen=True)
class _Token:
    kind: str  # string number bool nil var field dot ident ( ) | , := =
    value: object
    spaced: bool  # whitespace before it: a field right after an operand continues that operand


@dataclass(frozen=True)
class _Text:
    """A run of template text: an item of the lexer and, unchanged, a node of the parsed tree."""

    text: str
    line: int


@dataclass(frozen=True)
class _ActionItem:
    tokens: tuple[_Token, ...]
    line: int


_SPACE = " \t\r\n"
_NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
_WORD = re.compile(r"\w+")
_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{3}|.)", re.S)
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\",
                   '"': '"', "'": "'"}


class _Lines:
    """Line numbers of positions in a source (1-based)."""

    def __init__(self, source: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", source)]

    def at(self, pos: int) -> int:
        return bisect_right(self.starts, pos)


def _unescape(body: str) -> str:
    """A Go interpreted string literal's body with its escapes decoded."""
    def one(m: re.Match[str]) -> str:
        esc = m.group(0)[1:]
        if esc[0] in "xuU":
            return chr(int(esc[1:], 16))
        if esc[0].isdigit():
            return chr(int(esc, 8))
        return _SIMPLE_ESCAPES.get(esc, esc)
    return _ESCAPE.sub(one, body)


def _quoted(source: str, i: int, lines: _Lines) -> tuple[str, int]:
    """The string literal starting at `i` (``"..."``, a raw ``\\`...\\``` or a ``'c'`` character) and
    the position after it."""
    quote = source[i]
    if quote == "`":
        end = source.find("`", i + 1)
        if end < 0:
            raise TemplateError(f"unterminated raw string at line {lines.at(i)}")
        return source[i + 1:end], end + 1
    j = i + 1
    while j < len(source) and source[j] != quote:
        if source[j] == "\n":
            break
        j += 2 if source[j] == "\\" else 1
    if j >= len(source) or source[j] != quote:
        raise TemplateError(f"unterminated string at line {lines.at(i)}")
    return _unescape(source[i + 1:j]), j + 1


def _lex_action(source: str, i: int, lines: _Lines) -> tuple[list[_Token], int, bool]:
    """The tokens of the action whose body starts at `i`, the position after its ``}}``, and whether
    it ends with ``-}}`` (trim the whitespace after it)."""
    tokens: list[_Token] = []
    n = len(source)
    while True:
        j = i
        while i < n and source[i] in _SPACE:
            i += 1
        spaced = i > j or not tokens
        if i >= n:
            raise TemplateError(f"unclosed action (no }}}}) at line {lines.at(j)}")
        if source.startswith("-}}", i):  # Go wants a space before the dash; a missing one is forgiven
            return tokens, i + 3, True
        if source.startswith("}}", i):
            return tokens, i + 2, False
        c = source[i]
        if c in "\"`":
            text, i = _quoted(source, i, lines)
            tokens.append(_Token("string", text, spaced))
        elif c == "'":
            text, i = _quoted(source, i, lines)
            tokens.append(_Token("number", ord(text[0]) if text else 0, spaced))
        elif c in "()|,":
            tokens.append(_Token(c, c, spaced))
            i += 1
        elif source.startswith(":=", i):
            tokens.append(_Token(":=", ":=", spaced))
            i += 2
        elif c == "=":
            tokens.append(_Token("=", "=", spaced))
            i += 1
        elif c == "$":
            m = _WORD.match(source, i + 1)
            name = "$" + (m.group(0) if m else "")
            tokens.append(_Token("var", name, spaced))
            i += len(name)
        elif c == "." and i + 1 < n and (source[i + 1].isalpha() or source[i + 1] == "_"):
            m = _WORD.match(source, i + 1)
            assert m is not None
            tokens.append(_Token("field", m.group(0), spaced))
            i = m.end()
        elif (m := _NUMBER.match(source, i)) is not None and (c.isdigit() or c in "+-."):
            tokens.append(_Token("number", _number(m.group(0)), spaced))
            i = m.end()
        elif c == ".":
            tokens.append(_Token("dot", ".", spaced))
            i += 1
        elif c.isalpha() or c == "_":
            m = _WORD.match(source, i)
            assert m is not None
            word = m.group(0)
            if word in ("true", "false"):
                tokens.append(_Token("bool", word == "true", spaced))
            elif word == "nil":
                tokens.append(_Token("nil", None, spaced))
            else:
                tokens.append(_Token("ident", word, spaced))
            i = m.end()
        else:
            raise TemplateError(f"unexpected {c!r} in an action at line {lines.at(i)}")


def _number(text: str) -> int | float:
    clean = text.replace("_", "")
    try:
        if re.fullmatch(r"[+-]?0[xXbBoO].*", clean):
            return int(clean, 0)
        return int(clean) if re.fullmatch(r"[+-]?\d+", clean) else float(clean)
    except ValueError:
        return 0


def _skip_comment(source: str, i: int, lines: _Lines) -> tuple[int, bool] | None:
    """After ``{{`` (and a trim marker) at `i`: when a ``/* */`` comment starts there, the position
    after its ``}}`` and whether it trims what follows; else None."""
    if not source.startswith("/*", i):
        return None
    end = source.find("*/", i + 2)
    if end < 0:
        raise TemplateError(f"unclosed comment at line {lines.at(i)}")
    j = end + 2
    while j < len(source) and source[j] in _SPACE:
        j += 1
    if source.startswith("-}}", j):
        return j + 3, True
    if source.startswith("}}", j):
        return j + 2, False
    raise TemplateError(f"comment at line {lines.at(i)} does not end its action")


def _lex(source: str) -> list[_Text | _ActionItem]:
    """Text and actions of a template, whitespace trimmed as ``{{-`` and ``-}}`` ask."""
    lines = _Lines(source)
    items: list[_Text | _ActionItem] = []
    pos, trim_next = 0, False
    while True:
        start = source.find("{{", pos)
        text_end = len(source) if start < 0 else start
        text_start = pos
        if trim_next:
            while text_start < text_end and source[text_start] in _SPACE:
                text_start += 1
        left_trim = start >= 0 and source.startswith("{{-", start) and start + 3 < len(source) \
            and source[start + 3] in _SPACE
        if left_trim:
            while text_end > text_start and source[text_end - 1] in _SPACE:
                text_end -= 1
        if text_end > text_start:
            items.append(_Text(source[text_start:text_end], lines.at(text_start)))
        if start < 0:
            return items
        i = start + (4 if left_trim else 2)
        k = i
        while k < len(source) and source[k] in _SPACE:  # Go wants {{/* or {{- /*; spaces are forgiven
            k += 1
        comment = _skip_comment(source, k, lines)
        if comment is not None:
            pos, trim_next = comment
            continue
        tokens, pos, trim_next = _lex_action(source, i, lines)
        if not tokens:
            raise TemplateError(f"empty action at line {lines.at(start)}")
        items.append(_ActionItem(tuple(tokens), lines.at(start)))


# --------------------------------------------------------------------------- parsing
@dataclass(frozen=True)
class _Term:
    """One operand: a literal, a function name, the dot, a variable or a parenthesised pipeline,
    followed by fields (``.Values.image.tag``, ``$release.Name``, ``(index .Values "db").host``)."""

    kind: str  # lit func dot var pipe
    value: object
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Command:
    terms: tuple[_Term, ...]


@dataclass(frozen=True)
class _Pipeline:
    decl: tuple[str, ...]  # variables declared or assigned
    assign: bool  # ``=`` rather than ``:=``
    commands: tuple[_Command, ...]


@dataclass(frozen=True)
class _OutNode:
    pipe: _Pipeline
    line: int


@dataclass(frozen=True)
class _BranchNode:
    kind: str  # if with range
    pipe: _Pipeline
    body: tuple["_Node", ...]
    otherwise: tuple["_Node", ...]
    line: int


@dataclass(frozen=True)
class _CallNode:
    name: str
    pipe: _Pipeline | None
    line: int


@dataclass(frozen=True)
class _JumpNode:
    kind: str  # break continue
    line: int


_Node = Union[_Text, _OutNode, _BranchNode, _CallNode, _JumpNode]
_KEYWORDS = frozenset({"if", "else", "end", "range", "with", "define", "template", "block", "break", "continue"})


@dataclass(frozen=True)
class _Parsed:
    nodes: tuple[_Node, ...]
    defines: tuple[tuple[str, tuple[_Node, ...]], ...]


class _TermReader:
    """Reads one action's tokens into a pipeline (recursive descent, nesting bounded)."""

    def __init__(self, tokens: tuple[_Token, ...], line: int) -> None:
        self.tokens, self.pos, self.line = tokens, 0, line

    def peek(self, ahead: int = 0) -> _Token | None:
        k = self.pos + ahead
        return self.tokens[k] if k < len(self.tokens) else None

    def fail(self, what: str) -> TemplateError:
        return TemplateError(f"{what} in the action at line {self.line}")

    def pipeline(self, depth: int, closing: bool) -> _Pipeline:
        decl: tuple[str, ...] = ()
        assign = False
        t0, t1, t2, t3 = self.peek(), self.peek(1), self.peek(2), self.peek(3)
        if t0 and t1 and t0.kind == "var" and t1.kind in (":=", "="):
            decl, assign = (str(t0.value),), t1.kind == "="
            self.pos += 2
        elif t0 and t1 and t2 and t3 and t0.kind == "var" and t1.kind == "," and t2.kind == "var" and t3.kind == ":=":
            decl = (str(t0.value), str(t2.value))
            self.pos += 4
        commands = [self.command(depth)]
        while (t := self.peek()) is not None and t.kind == "|":
            self.pos += 1
            commands.append(self.command(depth))
        t = self.peek()
        if closing:
            if t is None or t.kind != ")":
                raise self.fail("unclosed parenthesis")
            self.pos += 1
        elif t is not None:
            raise self.fail(f"unexpected {t.value!r}")
        return _Pipeline(decl, assign, tuple(commands))

    def command(self, depth: int) -> _Command:
        terms = []
        while (t := self.peek()) is not None and t.kind not in ("|", ")"):
            terms.append(self.term(depth))
        if not terms:
            raise self.fail("missing value")
        return _Command(tuple(terms))

    def term(self, depth: int) -> _Term:
        t = self.tokens[self.pos]
        self.pos += 1
        fields: list[str] = []
        if t.kind == "(":
            if depth >= MAX_NESTING:
                raise self.fail("parentheses nested too deeply")
            base = _Term("pipe", self.pipeline(depth + 1, closing=True))
        elif t.kind in ("string", "number", "bool", "nil"):
            base = _Term("lit", t.value)
        elif t.kind == "var":
            base = _Term("var", t.value)
        elif t.kind == "field":
            base = _Term("dot", None)
            fields.append(str(t.value))
        elif t.kind == "dot":
            base = _Term("dot", None)
        elif t.kind == "ident":
            base = _Term("func", t.value)
        else:
            raise self.fail(f"unexpected {t.value!r}")
        while (nxt := self.peek()) is not None and nxt.kind == "field" and not nxt.spaced:
            fields.append(str(nxt.value))
            self.pos += 1
        return _Term(base.kind, base.value, tuple(fields)) if fields else base


def _pipeline_of(tokens: tuple[_Token, ...], line: int) -> _Pipeline:
    return _TermReader(tokens, line).pipeline(0, closing=False)


def _keyword(item: _ActionItem) -> str | None:
    first = item.tokens[0]
    return str(first.value) if first.kind == "ident" and first.value in _KEYWORDS else None


def _name_and_rest(item: _ActionItem, keyword: str) -> tuple[str, tuple[_Token, ...]]:
    """``{{ define "name" }}``, ``{{ template "name" pipeline }}``: the name and what follows it."""
    if len(item.tokens) < 2 or item.tokens[1].kind != "string":
        raise TemplateError(f"{keyword} at line {item.line} has no quoted name")
    return str(item.tokens[1].value), item.tokens[2:]


class _Parser:
    """Turns lexed items into a tree of nodes; ``define`` and ``block`` bodies go to :attr:`defines`."""

    def __init__(self, items: list[_Text | _ActionItem]) -> None:
        self.items, self.pos = items, 0
        self.defines: dict[str, tuple[_Node, ...]] = {}

    def parse(self) -> _Parsed:
        nodes, end = self.block(0, top=True)
        if end is not None:
            raise TemplateError(f"unexpected {{{{ {_keyword(end)} }}}} at line {end.line}")
        return _Parsed(nodes, tuple(sorted(self.defines.items(), key=lambda kv: kv[0])))

    def block(self, depth: int, top: bool = False) -> tuple[tuple[_Node, ...], _ActionItem | None]:
        """Nodes up to the ``{{ end }}`` or ``{{ else }}`` that closes this block (returned too)."""
        if depth > MAX_NESTING:
            raise TemplateError("blocks nested too deeply")
        nodes: list[_Node] = []
        while self.pos < len(self.items):
            item = self.items[self.pos]
            self.pos += 1
            if isinstance(item, _Text):
                nodes.append(item)
                continue
            word = _keyword(item)
            if word in ("end", "else"):
                return tuple(nodes), item
            if word == "define":
                if not top:
                    raise TemplateError(f"define at line {item.line} inside a block")
                name, _rest = _name_and_rest(item, "define")
                self.defines[name] = self.closed(item, depth)
            elif word in ("if", "with", "range"):
                nodes.append(self.branch(word, item, item.tokens[1:], depth))
            elif word in ("template", "block"):
                name, rest = _name_and_rest(item, word)
                pipe = _pipeline_of(rest, item.line) if rest else None
                if word == "block":
                    self.defines[name] = self.closed(item, depth)
                nodes.append(_CallNode(name, pipe, item.line))
            elif word in ("break", "continue"):
                nodes.append(_JumpNode(word, item.line))
            else:
                nodes.append(_OutNode(_pipeline_of(item.tokens, item.line), item.line))
        return tuple(nodes), None

    def closed(self, opener: _ActionItem, depth: int) -> tuple[_Node, ...]:
        body, end = self.block(depth + 1)
        if end is None or _keyword(end) != "end":
            raise TemplateError(f"{_keyword(opener)} at line {opener.line} is never closed")
        return body

    def branch(self, kind: str, opener: _ActionItem, tokens: tuple[_Token, ...], depth: int) -> _BranchNode:
        if not tokens:
            raise TemplateError(f"{kind} at line {opener.line} has no condition")
        pipe = _pipeline_of(tokens, opener.line)
        body, end = self.block(depth + 1)
        if end is None:
            raise TemplateError(f"{kind} at line {opener.line} is never closed")
        otherwise: tuple[_Node, ...] = ()
        if _keyword(end) == "else":
            rest = end.tokens[1:]
            if rest and rest[0].kind == "ident" and rest[0].value in ("if", "with"):
                otherwise = (self.branch(str(rest[0].value), end, rest[1:], depth + 1),)
            else:
                otherwise = self.closed(opener, depth)
        return _BranchNode(kind, pipe, body, otherwise, opener.line)


def parse_template(source: str) -> _Parsed:
    """Parse one template file (or a ``tpl`` string); raises TemplateError."""
    return _Parser(_lex(source)).parse()


# --------------------------------------------------------------------------- values
@dataclass(frozen=True)
class _GoObject:
    """Helm's built-in objects that have methods (``.Capabilities.APIVersions.Has``, ``.Files.Get``)."""

    fields: Mapping[str, object] = field(default_factory=dict)
    methods: Mapping[str, Callable[..., object]] = field(default_factory=dict)


def _truth(value: object) -> bool:
    """Go template truth: false, 0, nil and empty strings, lists and maps are false."""
    if value is None:
        return False
    if isinstance(value, (bool, int, float)):
        return bool(value)
    if isinstance(value, (str, list, dict, tuple)):
        return len(value) > 0
    return True


def _check_size(value: object) -> None:
    """Refuse a value too large to print (lists of lists sharing parts can describe huge trees)."""
    stack, seen = [value], 0
    while stack:
        v = stack.pop()
        seen += 1
        if seen > MAX_VALUE_NODES:
            raise TemplateError(f"a value with more than {MAX_VALUE_NODES} entries")
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)


def _go_float(f: float) -> str:
    """A float as Go's %v prints it (shortest digits, an exponent from 1e+06 up)."""
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "+Inf" if f > 0 else "-Inf"
    if f == 0:
        return "0"
    sign, digits, exponent = Decimal(repr(f)).normalize().as_tuple()
    assert isinstance(exponent, int)
    text = "".join(map(str, digits))
    exp = len(digits) + exponent - 1
    if exp < -4 or exp >= 6:
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{'-' if sign else ''}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    return format(Decimal(repr(f)).normalize(), "f")


def _go_print(value: object, nested: bool = False) -> str:
    """A value as ``{{ value }}`` prints it (Go's %v; a missing value prints nothing, as in Helm)."""
    if value is None:
        return "<nil>" if nested else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_float(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, dict)):
        _check_size(value)
        if isinstance(value, dict):
            return "map[" + " ".join(f"{k}:{_go_print(value[k], True)}" for k in sorted(value, key=str)) + "]"
        return "[" + " ".join(_go_print(v, True) for v in value) + "]"
    return "map[]" if isinstance(value, _GoObject) else str(value)


def _s(value: object) -> str:
    return _go_print(value)


def _n(value: object) -> int:
    """A value as an integer, as Sprig's casts do it (strings parsed, anything else 0)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) else 0
    if isinstance(value, str):
        try:
            return int(value.strip(), 0)
        except ValueError:
            try:
                return int(float(value))
            except (ValueError, OverflowError):
                return 0
    return 0


def _width(value: object) -> int:
    w = _n(value)
    if w > MAX_WIDTH:
        raise TemplateError(f"a width or count of {w} (more than {MAX_WIDTH})")
    return max(w, 0)


def _go_quote(text: str) -> str:
    """A string as Go's %q quotes it."""
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in "\a\b\f\n\r\t\v":
            out.append({"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


_VERB = re.compile(r"%([-+# 0]*)(\d+)?(?:\.(\d+))?([a-zA-Z%])")


def _format_verb(verb: str, flags: str, width: int, precision: int | None, arg: object) -> str:
    """One %-verb of printf applied to `arg`."""
    if verb in "sv":
        text = _go_print(arg) if arg is not None else "<nil>"
        text = text[:precision] if precision is not None and verb == "s" else text
    elif verb == "q":
        text = _go_quote(_s(arg))
    elif verb == "d":
        text = str(_n(arg)) if isinstance(arg, (int, float)) or (isinstance(arg, str) and arg.strip().lstrip("-").isdigit()) \
            else f"%!d({type(arg).__name__}={_s(arg)})"
    elif verb == "t":
        text = _s(arg)
    elif verb in "feEgG":
        try:
            number = float(arg) if not isinstance(arg, str) else float(arg.strip())  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return f"%!{verb}({_s(arg)})"
        text = format(number, f".{precision if precision is not None else 6}{verb}")
    elif verb in "xX" and isinstance(arg, str):
        text = arg.encode().hex().upper() if verb == "X" else arg.encode().hex()
    elif verb in "xXob":
        text = format(_n(arg), verb)
    elif verb == "c":
        text = chr(_n(arg)) if 0 <= _n(arg) < 0x110000 else ""
    else:
        text = f"%!{verb}({_s(arg)})"
    if len(text) < width:
        fill = "0" if "0" in flags and "-" not in flags and verb in "dfeEgGxXob" else " "
        text = text.ljust(width) if "-" in flags else text.rjust(width, fill)
    return text


def _path_base(value: object) -> str:
    """Go's ``path.Base``: the last element, trailing slashes dropped; ``.`` for an empty path."""
    text = _s(value).rstrip("/")
    if not text:
        return "/" if _s(value) else "."
    return text.rsplit("/", 1)[-1]


def _path_dir(value: object) -> str:
    """Go's ``path.Dir``: all but the last element, cleaned; ``.`` when nothing is left."""
    head = _s(value).rsplit("/", 1)[0] if "/" in _s(value) else ""
    if _s(value).startswith("/") and not head:
        return "/"
    return posixpath.normpath(head) if head else "."


def _printf(fmt: object, *args: object) -> str:
    """Go's Sprintf for the verbs templates use (%s %v %d %q %t %f %x ...)."""
    template, out, used, pos = _s(fmt), [], 0, 0
    for m in _VERB.finditer(template):
        out.append(template[pos:m.start()])
        pos = m.end()
        flags, width, precision, verb = m.group(1), m.group(2), m.group(3), m.group(4)
        if verb == "%":
            out.append("%")
            continue
        if used >= len(args):
            out.append(f"%!{verb}(MISSING)")
            continue
        out.append(_format_verb(verb, flags, _width(width or 0), _width(precision) if precision is not None else None,
                                args[used]))
        used += 1
    out.append(template[pos:])
    return "".join(out)


def _print(*args: object) -> str:
    """Go's Sprint: spaces between operands when neither is a string."""
    out: list[str] = []
    for i, a in enumerate(args):
        if i and not isinstance(a, str) and not isinstance(args[i - 1], str):
            out.append(" ")
        out.append(_go_print(a) if a is not None else "<nil>")
    return "".join(out)


def _plain(value: object) -> object:
    """A value as YAML/JSON can write it (Helm's objects become empty maps)."""
    if isinstance(value, _GoObject):
        return {}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@lru_cache(maxsize=None)
def _dumper() -> type:
    """A SafeDumper that writes shared parts out each time (Helm's YAML has no anchors)."""
    from repomodeler.extract.readers._yaml import yaml

    class _NoAliases(yaml.SafeDumper):  # type: ignore[name-defined,misc]
        def ignore_aliases(self, data: object) -> bool:
            return True

    return _NoAliases


def _to_yaml(value: object) -> str:
    """Helm's toYaml: block style, keys sorted, no trailing newline."""
    from repomodeler.extract.readers._yaml import yaml

    _check_size(value)
    text = yaml.dump(_plain(value), Dumper=_dumper(), default_flow_style=False, sort_keys=True,
                     allow_unicode=True, width=1 << 30)
    if text.endswith("\n...\n"):
        text = text[:-5]
    return text.rstrip("\n")


def _to_json(value: object, pretty: bool = False) -> str:
    _check_size(value)
    if pretty:
        return json.dumps(_plain(value), sort_keys=True, indent=2, ensure_ascii=False)
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _from_yaml(text: object) -> object:
    """Sprig's fromYaml: a map (an empty one when the text is no YAML map)."""
    try:
        value = _load_value(_s(text))
    except (ValueError, RecursionError, TemplateError) as exc:
        return {"Error": str(exc)}
    except Exception as exc:  # a YAML syntax error: Sprig returns it in the map too
        return {"Error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    return value if isinstance(value, dict) else {}


def _from_json(text: object) -> object:
    try:
        value = json.loads(_s(text))
    except (ValueError, RecursionError):
        return {}
    return value


def _same(a: object, b: object) -> bool:
    """Go's eq for one pair (numbers compare by value, booleans only with booleans)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


def _compare(a: object, b: object) -> int:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return (a > b) - (a < b)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)
    raise TypeError("incomparable")


def _and(*args: object) -> object:
    for a in args:
        if not _truth(a):
            return a
    return args[-1] if args else None


def _or(*args: object) -> object:
    for a in args:
        if _truth(a):
            return a
    return args[-1] if args else None


def _default(fallback: object, *given: object) -> object:
    value = given[0] if given else None
    return value if _truth(value) else fallback


def _trunc(count: object, text: object) -> str:
    c, s = _n(count), _s(text)
    if c < 0:
        return s[len(s) + c:] if len(s) + c > 0 else s
    return s[:c]


def _indent(count: object, text: object) -> str:
    pad = " " * _width(count)
    return pad + _s(text).replace("\n", "\n" + pad)


def _index(value: object, *keys: object) -> object:
    for k in keys:
        if isinstance(value, dict):
            value = value.get(_s(k)) if not isinstance(k, str) else value.get(k)
        elif isinstance(value, (list, tuple, str)) and isinstance(k, int) and 0 <= k < len(value):
            value = value[k]
        else:
            return None
    return value


def _until(count: object) -> list[int]:
    n = _n(count)
    if abs(n) > MAX_LOOP:
        raise TemplateError(f"until {n}: more than {MAX_LOOP} items")
    return list(range(n)) if n >= 0 else list(range(0, n, -1))


def _until_step(start: object, stop: object, step: object) -> list[int]:
    s = _n(step)
    if s == 0:
        return []
    values = range(_n(start), _n(stop), s)
    if len(values) > MAX_LOOP:
        raise TemplateError(f"untilStep: more than {MAX_LOOP} items")
    return list(values)


def _dict(*pairs: object) -> dict[str, object]:
    out: dict[str, object] = {}
    for i in range(0, len(pairs), 2):
        out[_s(pairs[i])] = pairs[i + 1] if i + 1 < len(pairs) else ""
    return out


def _set(target: object, key: object, value: object) -> object:
    if isinstance(target, dict):
        target[_s(key)] = value
    return target


def _unset(target: object, key: object) -> object:
    if isinstance(target, dict):
        target.pop(_s(key), None)
    return target


def _merge(overwrite: bool, target: object, *sources: object) -> object:
    """Sprig's merge and mergeOverwrite, deep, with mergo's rule on empty values: merge fills what
    the target lacks or has empty (``repository: ""`` takes the source's), mergeOverwrite replaces
    what the target has unless the source's value is empty."""
    if not isinstance(target, dict):
        return target
    for src in sources:
        if isinstance(src, dict):
            _check_size(src)
            _merge_into(target, src, overwrite, 0)
    return target


def _merge_into(target: dict, src: dict, overwrite: bool, depth: int) -> None:  # type: ignore[type-arg]
    if depth > MAX_NESTING:
        raise TemplateError("maps nested too deeply to merge")
    for k, v in src.items():
        if k in target and isinstance(target[k], dict) and isinstance(v, dict):
            _merge_into(target[k], v, overwrite, depth + 1)
        elif k not in target or (_truth(v) if overwrite else not _truth(target[k])):
            target[k] = v


def _deep_merge(base: Mapping[str, object], over: Mapping[str, object], depth: int = 0) -> dict[str, object]:
    """`over` merged over `base` into a new map: maps merge key by key, anything else replaces."""
    out = dict(base)
    if depth > MAX_NESTING:
        return out
    for k, v in over.items():
        old = out.get(k)
        out[k] = _deep_merge(old, v, depth + 1) if isinstance(old, dict) and isinstance(v, dict) else v
    return out


def _dig(*args: object) -> object:
    if len(args) < 2:
        return None
    *keys, fallback, value = args
    for k in keys:
        if not isinstance(value, dict) or _s(k) not in value:
            return fallback
        value = value[_s(k)]
    return value


def _version(text: str) -> tuple[int, ...] | None:
    m = re.match(r"\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?", text)
    return tuple(int(x or 0) for x in m.groups()) if m else None


def _semver_check(constraint: str, version: tuple[int, ...]) -> bool:
    m = re.fullmatch(r"\s*(>=|<=|!=|==|=>|=<|>|<|=|\^|~>?)?\s*v?((?:\d+|[xX*])(?:\.(?:\d+|[xX*]))*)(?:-[\w.]*)?\s*", constraint)
    if not m:
        return True
    op = m.group(1) or "="
    parts = m.group(2).split(".")
    fixed = [int(p) for p in parts if p.isdigit()][:3]
    if len(fixed) < len(parts):  # a wildcard: the fixed prefix must match
        return list(version[:len(fixed)]) == fixed if op in ("=", "==") else True
    target = tuple(fixed + [0] * (3 - len(fixed)))
    if op in ("^",):
        return version[0] == target[0] and version >= target
    if op in ("~", "~>"):
        return version[:2] == target[:2] and version >= target
    return {">=": version >= target, "=>": version >= target, "<=": version <= target, "=<": version <= target,
            ">": version > target, "<": version < target, "!=": version != target}.get(op, version == target)


def _semver_compare(constraint: object, version: object) -> bool:
    """Masterminds' semverCompare for the forms charts use (``>=1.19-0``, ``^1.2``, ``>= 1.14, < 1.20``)."""
    v = _version(_s(version))
    if v is None:
        return False
    return any(all(_semver_check(c, v) for c in re.split(r"\s*,\s*|\s+(?=[<>=!^~])", alt.strip()) if c.strip())
               for alt in _s(constraint).split("||"))


def _kind_of(value: object) -> str:
    if value is None:
        return "invalid"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "slice"
    return "map"


def _type_of(value: object) -> str:
    return {"invalid": "<nil>", "slice": "[]interface {}", "map": "map[string]interface {}"}.get(
        _kind_of(value), _kind_of(value))


def _list_of(value: object) -> list[object]:
    return list(value) if isinstance(value, (list, tuple)) else []


def _bounded(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise TemplateError(f"a string of more than {MAX_TEXT} characters")
    return text


def _numbers(args: tuple[object, ...]) -> list[int | float]:
    return [a if isinstance(a, float) else _n(a) for a in args]


def _div(a: object, b: object) -> int:
    x, y = _n(a), _n(b)
    return int(x / y) if y else 0


def _mod(a: object, b: object) -> int:
    x, y = _n(a), _n(b)
    return int(math.fmod(x, y)) if y else 0


_FUNCTIONS: dict[str, Callable[..., object]] = {
    # Go's builtins
    "and": _and, "or": _or, "not": lambda v: not _truth(v), "len": lambda v: len(v) if isinstance(v, (str, list, tuple, dict)) else 0,
    "index": _index, "print": _print, "printf": _printf, "println": lambda *a: " ".join(_go_print(x) for x in a) + "\n",
    "eq": lambda a, *b: any(_same(a, x) for x in b), "ne": lambda a, b: not _same(a, b),
    "lt": lambda a, b: _compare(a, b) < 0, "le": lambda a, b: _compare(a, b) <= 0,
    "gt": lambda a, b: _compare(a, b) > 0, "ge": lambda a, b: _compare(a, b) >= 0,
    "urlquery": lambda *a: quote_plus(_print(*a)),
    # Sprig: defaults and flow
    "default": _default, "empty": lambda v=None: not _truth(v), "coalesce": lambda *a: next((x for x in a if _truth(x)), None),
    "ternary": lambda a, b, cond: a if _truth(cond) else b, "required": lambda _msg, value=None: value,
    # strings
    "quote": lambda *a: " ".join(_go_quote(_s(x)) for x in a if x is not None),
    "squote": lambda *a: " ".join(f"'{_s(x)}'" for x in a if x is not None),
    "toString": _s, "lower": lambda s: _s(s).lower(), "upper": lambda s: _s(s).upper(),
    "title": lambda s: re.sub(r"\b[a-z]", lambda m: m.group(0).upper(), _s(s)),
    "trim": lambda s: _s(s).strip(), "trimAll": lambda cut, s: _s(s).strip(_s(cut)),
    "trimSuffix": lambda suffix, s: _s(s)[:-len(_s(suffix))] if _s(suffix) and _s(s).endswith(_s(suffix)) else _s(s),
    "trimPrefix": lambda prefix, s: _s(s)[len(_s(prefix)):] if _s(s).startswith(_s(prefix)) else _s(s),
    "replace": lambda old, new, s: _s(s).replace(_s(old), _s(new)), "trunc": _trunc,
    "indent": _indent, "nindent": lambda n, s: "\n" + _indent(n, s),
    # paths (Go's path package): a template names its own component after its file or folder
    # (`.Template.Name | dir | base`)
    "base": _path_base, "dir": _path_dir, "ext": lambda s: posixpath.splitext(_s(s))[1],
    "clean": lambda s: posixpath.normpath(_s(s)) if _s(s) else ".", "isAbs": lambda s: _s(s).startswith("/"),
    "contains": lambda sub, s: _s(sub) in _s(s), "hasPrefix": lambda p, s: _s(s).startswith(_s(p)),
    "hasSuffix": lambda p, s: _s(s).endswith(_s(p)), "repeat": lambda n, s: _bounded(_s(s) * _width(n)),
    "substr": lambda a, b, s: _s(s)[_n(a):_n(b)] if _n(b) >= 0 else _s(s)[_n(a):],
    "nospace": lambda s: re.sub(r"\s", "", _s(s)), "cat": lambda *a: " ".join(_s(x) for x in a if x is not None),
    "splitList": lambda sep, s: _s(s).split(_s(sep)) if _s(sep) else list(_s(s)),
    "split": lambda sep, s: {f"_{i}": p for i, p in enumerate(_s(s).split(_s(sep)) if _s(sep) else [_s(s)])},
    "join": lambda sep, items: _s(sep).join(_s(x) for x in items) if isinstance(items, (list, tuple)) else _s(items),
    "b64enc": _s, "b64dec": _s,  # left readable: a value in a Secret is still an address
    "sha256sum": lambda s: hashlib.sha256(_s(s).encode()).hexdigest(), "sha1sum": lambda s: hashlib.sha1(_s(s).encode()).hexdigest(),
    "toYaml": _to_yaml, "toJson": _to_json, "toPrettyJson": lambda v: _to_json(v, pretty=True), "toRawJson": _to_json,
    "fromYaml": _from_yaml, "fromJson": _from_json,
    # numbers
    "int": _n, "int64": _n, "atoi": _n, "float64": lambda v: float(_n(v)) if not isinstance(v, float) else v,
    "add": lambda *a: sum(_numbers(a)), "add1": lambda a: _n(a) + 1, "sub": lambda a, b: _n(a) - _n(b),
    "mul": lambda *a: math.prod(_numbers(a)), "div": _div, "mod": _mod,
    "max": lambda *a: max(_numbers(a)), "min": lambda *a: min(_numbers(a)),
    # lists and maps
    "list": lambda *a: list(a), "dict": _dict, "get": lambda d, k: d.get(_s(k), "") if isinstance(d, dict) else "",
    "set": _set, "unset": _unset, "hasKey": lambda d, k: isinstance(d, dict) and _s(k) in d,
    "keys": lambda *ds: sorted(k for d in ds if isinstance(d, dict) for k in d),
    "values": lambda d: [d[k] for k in sorted(d)] if isinstance(d, dict) else [],
    "pick": lambda d, *ks: {k: d[k] for k in map(_s, ks) if k in d} if isinstance(d, dict) else {},
    "omit": lambda d, *ks: {k: v for k, v in d.items() if k not in set(map(_s, ks))} if isinstance(d, dict) else {},
    "merge": lambda t, *s: _merge(False, t, *s), "mergeOverwrite": lambda t, *s: _merge(True, t, *s),
    "deepCopy": copy.deepcopy, "dig": _dig,
    "until": _until, "untilStep": _until_step,
    "first": lambda v: _list_of(v)[0] if _list_of(v) else None, "last": lambda v: _list_of(v)[-1] if _list_of(v) else None,
    "rest": lambda v: _list_of(v)[1:], "initial": lambda v: _list_of(v)[:-1],
    "append": lambda v, x: _list_of(v) + [x], "prepend": lambda v, x: [x] + _list_of(v),
    "concat": lambda *ls: [x for v in ls for x in _list_of(v)],
    "uniq": lambda v: [x for i, x in enumerate(_list_of(v)) if x not in _list_of(v)[:i]],
    "compact": lambda v: [x for x in _list_of(v) if _truth(x)],
    "without": lambda v, *xs: [x for x in _list_of(v) if x not in xs], "has": lambda x, v: x in _list_of(v),
    "sortAlpha": lambda v: sorted(_s(x) for x in _list_of(v)), "reverse": lambda v: _list_of(v)[::-1],
    "toStrings": lambda v: [_s(x) for x in _list_of(v)],
    # types and versions
    "kindIs": lambda kind, v: _s(kind) == _kind_of(v), "kindOf": _kind_of, "typeOf": _type_of,
    "typeIs": lambda t, v: _s(t) == _type_of(v), "semverCompare": _semver_compare,
    "lookup": lambda *a: {},  # a running cluster's objects: none here
}
_FUNCTION_ERRORS = (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError, OverflowError)


# --------------------------------------------------------------------------- executing
class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Sink:
    """Output as pieces (text, template line, whether the text's own new lines advance the line:
    true for template text, false for what an action printed)."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, int, bool]] = []
        self.size = 0

    def write(self, text: str, line: int, advance: bool) -> None:
        if not text:
            return
        self.size += len(text)
        if self.size > MAX_TEXT:
            raise TemplateError(f"output of more than {MAX_TEXT} characters")
        self.pieces.append((text, line, advance))

    def text(self) -> str:
        return "".join(p[0] for p in self.pieces)

    def lines(self) -> tuple[tuple[int, str], ...]:
        """Output lines, each with the template line of its first non-blank text (else of its start)."""
        out: list[tuple[int, str]] = []
        parts: list[str] = []
        first: int | None = None
        start = self.pieces[0][1] if self.pieces else 1
        for text, line, advance in self.pieces:
            for k, chunk in enumerate(text.split("\n")):
                if k:
                    out.append((first if first is not None else start, "".join(parts)))
                    parts, first = [], None
                    if advance:
                        line += 1
                    start = line
                if chunk:
                    parts.append(chunk)
                    if first is None and chunk.strip():
                        first = line
        out.append((first if first is not None else start, "".join(parts)))
        return tuple(out)


class _Scope:
    """Template variables: one frame per block, ``$`` the data the template was executed with."""

    def __init__(self, root: object) -> None:
        self.frames: list[dict[str, object]] = [{"$": root}]

    def get(self, name: str) -> object:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def declare(self, name: str, value: object) -> None:
        self.frames[-1][name] = value

    def assign(self, name: str, value: object) -> None:
        for frame in reversed(self.frames):
            if name in frame:
                frame[name] = value
                return
        self.frames[-1][name] = value


def _field(value: object, name: str) -> object:
    if isinstance(value, dict):
        return value.get(name)
    if isinstance(value, _GoObject):
        if name in value.fields:
            return value.fields[name]
        method = value.methods.get(name)
        return method() if method is not None else None
    return None


def _items(value: object) -> list[tuple[object, object]]:
    """What range walks: list items with their index, map entries by sorted key, 0..n-1 for an int."""
    if isinstance(value, dict):
        pairs: list[tuple[object, object]] = [(k, value[k]) for k in sorted(value, key=str)]
    elif isinstance(value, (list, tuple)):
        pairs = list(enumerate(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        pairs = [(i, i) for i in range(min(value, MAX_LOOP + 1))]
    else:
        return []
    if len(pairs) > MAX_LOOP:
        raise TemplateError(f"a range over more than {MAX_LOOP} items")
    return pairs


class _Run:
    """One template's execution: the defines it may include, and the budgets it spends."""

    def __init__(self, defines: Mapping[str, tuple[_Node, ...]]) -> None:
        self.defines = dict(defines)
        self.steps = 0
        self.depth = 0
        self.line = 0  # the template's own line being executed (what a failure's warning points at)

    def spend(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise TemplateError(f"more than {MAX_STEPS} steps (a loop or recursion too large)")

    # ---- statements
    def execute(self, nodes: tuple[_Node, ...], dot: object, scope: _Scope, sink: _Sink) -> None:
        for node in nodes:
            self.spend()
            if self.depth == 0:
                self.line = node.line
            if isinstance(node, _Text):
                sink.write(node.text, node.line, True)
            elif isinstance(node, _OutNode):
                value = self.pipeline(node.pipe, dot, scope)
                if not node.pipe.decl:
                    sink.write(_bounded(_go_print(value)), node.line, False)
            elif isinstance(node, _BranchNode):
                self.branch(node, dot, scope, sink)
            elif isinstance(node, _CallNode):
                arg = self.pipeline(node.pipe, dot, scope) if node.pipe is not None else None
                sink.write(self.include(node.name, arg), node.line, False)
            else:
                raise _Break() if node.kind == "break" else _Continue()

    def branch(self, node: _BranchNode, dot: object, scope: _Scope, sink: _Sink) -> None:
        scope.frames.append({})
        try:
            if node.kind == "range":
                self.range(node, dot, scope, sink)
                return
            value = self.pipeline(node.pipe, dot, scope)
            if _truth(value):
                self.execute(node.body, value if node.kind == "with" else dot, scope, sink)
            else:
                self.execute(node.otherwise, dot, scope, sink)
        finally:
            scope.frames.pop()

    def range(self, node: _BranchNode, dot: object, scope: _Scope, sink: _Sink) -> None:
        pipe = node.pipe
        value = self.pipeline(_Pipeline((), False, pipe.commands), dot, scope)
        pairs = _items(value)
        if not pairs:
            self.execute(node.otherwise, dot, scope, sink)
            return
        for key, item in pairs:
            self.spend()
            scope.frames.append({})
            try:
                if len(pipe.decl) == 2:
                    scope.declare(pipe.decl[0], key)
                    scope.declare(pipe.decl[1], item)
                elif pipe.decl:
                    scope.declare(pipe.decl[0], item)
                self.execute(node.body, item, scope, sink)
            except _Continue:
                continue
            except _Break:
                break
            finally:
                scope.frames.pop()

    # ---- expressions
    def pipeline(self, pipe: _Pipeline, dot: object, scope: _Scope) -> object:
        value: object = None
        for i, command in enumerate(pipe.commands):
            value = self.command(command, dot, scope, (value,) if i else ())
        for name in pipe.decl[:1]:
            (scope.assign if pipe.assign else scope.declare)(name, value)
        return value

    def command(self, command: _Command, dot: object, scope: _Scope, piped: tuple[object, ...]) -> object:
        first, rest = command.terms[0], command.terms[1:]
        if first.kind == "func" and not first.fields:
            args = [self.term(t, dot, scope) for t in rest] + list(piped)
            return self.call(str(first.value), args)
        if first.fields and (rest or piped) and first.kind in ("dot", "var", "pipe"):
            receiver = self.term(_Term(first.kind, first.value, first.fields[:-1]), dot, scope)
            if isinstance(receiver, _GoObject) and first.fields[-1] in receiver.methods:
                args = [self.term(t, dot, scope) for t in rest] + list(piped)
                return self.guarded(receiver.methods[first.fields[-1]], args)
        return self.term(first, dot, scope)

    def term(self, term: _Term, dot: object, scope: _Scope) -> object:
        if term.kind == "lit":
            value = term.value
        elif term.kind == "dot":
            value = dot
        elif term.kind == "var":
            value = scope.get(str(term.value))
        elif term.kind == "pipe":
            assert isinstance(term.value, _Pipeline)
            value = self.pipeline(term.value, dot, scope)
        else:
            value = self.call(str(term.value), [])
        for name in term.fields:
            value = _field(value, name)
        return value

    def call(self, name: str, args: list[object]) -> object:
        self.spend()
        if name == "include":
            return self.include(_s(args[0]) if args else "", args[1] if len(args) > 1 else None)
        if name == "tpl":
            return self.tpl(args[0] if args else "", args[1] if len(args) > 1 else None)
        if name == "fail":
            # A chart refusing its values: the defaults often lack what an installer must set (a
            # database's address), and the rest of the template is still what gets deployed.
            return ""
        fn = _FUNCTIONS.get(name)
        return self.guarded(fn, args) if fn is not None else ""

    def guarded(self, fn: Callable[..., object], args: list[object]) -> object:
        """A function's result; a wrong argument makes an empty string, as an unknown function does.
        Results stay small: strings and collections are bounded, integers wrap like Go's int64."""
        try:
            result = fn(*args)
        except _FUNCTION_ERRORS:
            return ""
        if isinstance(result, str):
            return _bounded(result)
        if isinstance(result, (list, dict)) and len(result) > MAX_VALUE_NODES:
            raise TemplateError(f"a list or map of more than {MAX_VALUE_NODES} items")
        if isinstance(result, int) and not isinstance(result, bool) and not -2**63 <= result < 2**63:
            return (result + 2**63) % 2**64 - 2**63
        return result

    def include(self, name: str, dot: object) -> str:
        body = self.defines.get(name)
        if body is None:
            return ""
        return self.nested(body, dot)

    def tpl(self, text: object, dot: object) -> str:
        parsed = parse_template(_s(text))
        saved = self.defines
        self.defines = {**saved, **dict(parsed.defines)}
        try:
            return self.nested(parsed.nodes, dot)
        finally:
            self.defines = saved

    def nested(self, body: tuple[_Node, ...], dot: object) -> str:
        if self.depth >= MAX_INCLUDE_DEPTH:
            raise TemplateError(f"include nested more than {MAX_INCLUDE_DEPTH} deep (a recursive include?)")
        self.depth += 1
        try:
            sink = _Sink()
            self.execute(body, dot, _Scope(dot), sink)
            return sink.text()
        finally:
            self.depth -= 1


# --------------------------------------------------------------------------- YAML values
def _load_value(text: str) -> object:
    """The first YAML document of `text` as plain values (maps, lists, strings, numbers, booleans,
    None), read through the readers' budgeted composer so an alias bomb or deep nesting is refused
    (ValueError, RecursionError or a YAML error)."""
    from repomodeler.extract.readers._yaml import load_yaml_documents

    docs = load_yaml_documents(text)
    return _to_plain(docs[0], {}) if docs else None


def _to_plain(node: object, memo: dict[int, object]) -> object:
    """A composed YAML node as a plain value; nodes shared by aliases become one shared value."""
    from repomodeler.extract.readers._yaml import items, yaml

    if id(node) in memo:
        return memo[id(node)]
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, object] = {}
        memo[id(node)] = mapping
        for k, v in items(node):
            mapping[_s(_scalar_value(k))] = _to_plain(v, memo)
        return mapping
    if isinstance(node, yaml.SequenceNode):
        seq: list[object] = []
        memo[id(node)] = seq
        seq.extend(_to_plain(v, memo) for v in node.value)
        return seq
    return _scalar_value(node)


_STR_TAG = "tag:yaml.org,2002:str"


@lru_cache(maxsize=None)
def _resolvers() -> tuple[object, object]:
    from repomodeler.extract.readers._yaml import yaml

    return yaml.resolver.Resolver(), yaml.constructor.SafeConstructor()


def _scalar_value(node: object) -> object:
    """A scalar as YAML 1.1 types it (``8080`` an int, ``true`` a boolean, ``~`` None, quoted text a string)."""
    from repomodeler.extract.readers._yaml import yaml

    if not isinstance(node, yaml.ScalarNode):
        return None
    resolver, constructor = _resolvers()
    tag = node.tag
    if node.style is None and tag == _STR_TAG:
        tag = resolver.resolve(yaml.ScalarNode, node.value, (True, False))  # type: ignore[attr-defined]
    try:
        if tag.endswith(":null"):
            return None
        if tag.endswith(":bool"):
            return constructor.construct_yaml_bool(node)  # type: ignore[attr-defined]
        if tag.endswith(":int"):
            return constructor.construct_yaml_int(node)  # type: ignore[attr-defined]
        if tag.endswith(":float"):
            return constructor.construct_yaml_float(node)  # type: ignore[attr-defined]
    except (ValueError, KeyError, TypeError):
        pass
    return str(node.value)


# --------------------------------------------------------------------------- charts
@dataclass(frozen=True)
class _Chart:
    """One chart of the tree being rendered (the root, or an unpacked subchart under charts/)."""

    prefix: str  # "" or "charts/<name>/" (relative to the files given)
    chart: Mapping[str, object]  # the .Chart object
    values: Mapping[str, object]
    depth: int


def _chart_object(meta: Mapping[str, object], fallback: str) -> dict[str, object]:
    """Chart.yaml as ``.Chart`` shows it: ``name`` as ``Name``, ``appVersion`` as ``AppVersion``..."""
    out: dict[str, object] = {k[:1].upper() + k[1:]: v for k, v in meta.items() if k}
    if "apiVersion" in meta:
        out["APIVersion"] = meta["apiVersion"]
    out["Name"] = _s(meta.get("name")) or fallback
    for key in ("Version", "AppVersion"):
        out[key] = _s(out.get(key))
    return out


def _load_mapping(files: Mapping[str, str], path: str, warnings: list[RenderWarning]) -> dict[str, object]:
    """A YAML file of the chart as a map; a malformed one is a warning and an empty map."""
    text = files.get(path)
    if text is None:
        return {}
    try:
        value = _load_value(text)
    except RecursionError:
        warnings.append(RenderWarning(path, 0, "nested too deeply to read; rendered without it"))
        return {}
    except Exception as exc:  # YAML syntax errors, budgets: the chart renders without this file
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        detail = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        warnings.append(RenderWarning(path, line, f"malformed {PurePosixPath(path).name} ({detail}); rendered without it"))
        return {}
    return value if isinstance(value, dict) else {}


def _enabled(dependency: Mapping[str, object], parent_values: Mapping[str, object]) -> bool:
    """A dependency's ``condition`` (``mongodb.enabled``) against the parent's values: the first
    path that holds a boolean decides; none does, the subchart is on."""
    for path in _s(dependency.get("condition")).split(","):
        value: object = parent_values
        for part in path.strip().split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, bool):
            return value
    return True


def _dependencies(files: Mapping[str, str], prefix: str, meta: Mapping[str, object],
                  warnings: list[RenderWarning]) -> list[Mapping[str, object]]:
    """The chart's declared dependencies (Chart.yaml, or requirements.yaml of an apiVersion v1 chart)."""
    deps = meta.get("dependencies")
    if not isinstance(deps, list):
        deps = _load_mapping(files, prefix + "requirements.yaml", warnings).get("dependencies")
    return [d for d in deps if isinstance(d, dict)] if isinstance(deps, list) else []


def _subchart_folders(files: Mapping[str, str], prefix: str) -> list[str]:
    """Unpacked subcharts of the chart at `prefix`: ``charts/<name>/`` holding a Chart.yaml."""
    found = set()
    base = prefix + "charts/"
    for path in files:
        if path.startswith(base):
            rest = path[len(base):].split("/")
            if len(rest) == 2 and rest[1] == "Chart.yaml":
                found.add(base + rest[0] + "/")
    return sorted(found)


def _chart_tree(files: Mapping[str, str], warnings: list[RenderWarning],
                overrides: Mapping[str, object] | None = None) -> list[_Chart]:
    """The root chart and its enabled unpacked subcharts, parents first, each with its values
    (a subchart's own, under the parent's section for it and the parent's ``global``); ``overrides``
    (the install's values) go over the root chart's."""
    charts: list[_Chart] = []
    root_meta = _load_mapping(files, "Chart.yaml", warnings)
    root_values = _load_mapping(files, "values.yaml", warnings)
    if overrides:
        root_values = _deep_merge(root_values, copy.deepcopy(dict(overrides)))
    pending = [("", root_meta, root_values, 0)]
    while pending:
        prefix, meta, values, depth = pending.pop(0)
        fallback = PurePosixPath(prefix.rstrip("/")).name or "chart"
        charts.append(_Chart(prefix, _chart_object(meta, fallback), values, depth))
        if depth >= MAX_CHART_DEPTH:
            continue
        deps = _dependencies(files, prefix, meta, warnings)
        for sub in _subchart_folders(files, prefix):
            sub_meta = _load_mapping(files, sub + "Chart.yaml", warnings)
            name = _s(sub_meta.get("name")) or PurePosixPath(sub.rstrip("/")).name
            dep = next((d for d in deps if _s(d.get("name")) == name), {})
            key = _s(dep.get("alias")) or name
            if not _enabled(dep, values):
                continue
            own = _load_mapping(files, sub + "values.yaml", warnings)
            section = values.get(key)
            merged = _deep_merge(own, section if isinstance(section, dict) else {})
            own_global, parent_global = own.get("global"), values.get("global")
            merged["global"] = _deep_merge(own_global if isinstance(own_global, dict) else {},
                                          parent_global if isinstance(parent_global, dict) else {})
            pending.append((sub, {**sub_meta, "name": key}, merged, depth + 1))
    return charts


def _is_output(path: str, prefix: str) -> bool:
    """A template Helm writes as a manifest: under templates/, a .yaml/.yml not starting with ``_``."""
    rest = path[len(prefix):]
    name = rest.rsplit("/", 1)[-1]
    return rest.startswith("templates/") and not name.startswith("_") and name.endswith((".yaml", ".yml"))


def _template_files(files: Mapping[str, str], chart: _Chart) -> list[str]:
    """The chart's own template files (a subchart's lie below charts/, not below its parent's templates/)."""
    base = chart.prefix + "templates/"
    return sorted(p for p in files if p.startswith(base) and p.endswith((".yaml", ".yml", ".tpl")))


def _context(chart: _Chart, release: str, path: str, files: Mapping[str, str]) -> dict[str, object]:
    """The data a template is executed with (``.Values``, ``.Chart``, ``.Release``, ``.Capabilities``...)."""
    major, minor = KUBE_VERSION.lstrip("v").split(".")[:2]
    kube = {"Version": KUBE_VERSION, "GitVersion": KUBE_VERSION, "Major": major, "Minor": minor}
    capabilities = _GoObject({"KubeVersion": kube, "HelmVersion": {"Version": "v3.15.0"},
                              "APIVersions": _GoObject({}, {"Has": lambda *_a: True})})
    own = {p[len(chart.prefix):]: t for p, t in files.items() if p.startswith(chart.prefix)}
    chart_files = _GoObject({}, {"Get": lambda p=None, *_a: own.get(_s(p), ""), "Glob": lambda *_a: {},
                                 "Lines": lambda p=None, *_a: own.get(_s(p), "").splitlines(),
                                 "AsConfig": lambda *_a: "", "AsSecrets": lambda *_a: ""})
    name = _s(chart.chart.get("Name"))
    return {"Values": chart.values, "Chart": chart.chart, "Capabilities": capabilities, "Files": chart_files,
            "Release": {"Name": release, "Namespace": NAMESPACE, "Service": "Helm", "IsInstall": True,
                        "IsUpgrade": False, "Revision": 1},
            "Template": {"Name": f"{name}/{path[len(chart.prefix):]}", "BasePath": f"{name}/templates"}}


def _parse_all(files: Mapping[str, str], paths: list[str],
               warnings: list[RenderWarning]) -> dict[str, _Parsed]:
    """Every template file parsed once; one that does not parse is a warning (its defines are lost)."""
    parsed: dict[str, _Parsed] = {}
    for path in paths:
        try:
            parsed[path] = parse_template(files[path])
        except TemplateError as exc:
            warnings.append(RenderWarning(path, _line_in(str(exc)), f"Helm template not rendered: {exc}"))
        except RecursionError:
            warnings.append(RenderWarning(path, 0, "Helm template not rendered: nested too deeply"))
    return parsed


def _line_in(message: str) -> int:
    """The line a TemplateError's message names ("... at line 12"), or 0."""
    m = re.search(r"at line (\d+)", message)
    return int(m.group(1)) if m else 0


def _render_one(path: str, parsed: _Parsed, defines: Mapping[str, tuple[_Node, ...]],
                context: dict[str, object]) -> RenderedTemplate:
    run = _Run(defines)
    sink = _Sink()
    try:
        run.execute(parsed.nodes, context, _Scope(context), sink)
    except (_Break, _Continue):
        raise TemplateError(f"break or continue outside a range at line {run.line}") from None
    except TemplateError as exc:
        if _line_in(str(exc)):
            raise
        raise TemplateError(f"{exc} (at line {run.line})") from None
    return RenderedTemplate(path, sink.lines())


@dataclass(frozen=True)
class ChartDependency:
    """A dependency of the root chart that Helm installs with it from a chart repository (``charts/*.tgz`` or
    fetched), which is not rendered here: what it runs is known only by its name (``mongodb``, ``postgresql``)."""

    name: str  # the chart's name (bitnami's ``mongodb``)
    key: str  # its alias, else its name: the values section and the middle of its resources' names
    release: str  # the release name its resources are named after (``<release>-<key>``): the root chart's name
    line: int  # of its entry in Chart.yaml (0 when requirements.yaml declares it)


def chart_dependencies(files: Mapping[str, str]) -> tuple[ChartDependency, ...]:
    """The root chart's dependencies its own values switch on (``condition: mongodb.enabled``) and that are not
    unpacked beside it (those are rendered). Never raises."""
    try:
        warnings: list[RenderWarning] = []
        meta = _load_mapping(files, "Chart.yaml", warnings)
        values = _load_mapping(files, "values.yaml", warnings)
        unpacked = {PurePosixPath(p.rstrip("/")).name for p in _subchart_folders(files, "")}
        release = _s(meta.get("name")) or "chart"
        lines = files.get("Chart.yaml", "").splitlines()
        out = []
        for dep in _dependencies(files, "", meta, warnings):
            name = _s(dep.get("name"))
            if not name or name in unpacked or not _enabled(dep, values):
                continue
            line = next((i for i, text in enumerate(lines, start=1)
                         if re.match(rf"^\s*-?\s*name:\s*[\"']?{re.escape(name)}[\"']?\s*(#.*)?$", text)), 0)
            out.append(ChartDependency(name, _s(dep.get("alias")) or name, release, line))
        return tuple(sorted(out, key=lambda d: (d.key, d.name)))
    except Exception:  # a malformed Chart.yaml is the renderer's to warn about
        return ()


def render_chart(files: Mapping[str, str], release: str | None = None,
                 overrides: Mapping[str, object] | None = None) -> ChartRender:
    """Render a chart given as {path relative to the chart folder: text} (``Chart.yaml``,
    ``values.yaml``, ``templates/...``, ``charts/<sub>/...``), as release ``release`` (the chart's
    name when None) with ``overrides`` merged over its values (what ``helm install -f/--set`` gives).
    Never raises: whatever cannot be rendered is a warning naming its file."""
    warnings: list[RenderWarning] = []
    try:
        return _render_tree(files, warnings, release, overrides or {})
    except Exception as exc:  # a bug here must not sink a run: the chart is skipped with a warning
        detail = (str(exc).strip().splitlines() or [""])[0][:200]
        warnings.append(RenderWarning("Chart.yaml", 0, f"chart not rendered (internal error {type(exc).__name__}: "
                                                       f"{detail}); please report"))
        return ChartRender((), tuple(warnings))


def _render_tree(files: Mapping[str, str], warnings: list[RenderWarning], release_name: str | None,
                 overrides: Mapping[str, object]) -> ChartRender:
    if "Chart.yaml" not in files:
        return ChartRender((), (RenderWarning("", 0, "no Chart.yaml: not a chart"),))
    charts = _chart_tree(files, warnings, overrides)
    own_paths = {c.prefix: _template_files(files, c) for c in charts}
    parsed = _parse_all(files, sorted({p for paths in own_paths.values() for p in paths}), warnings)
    # One namespace of defines for the whole tree, as in Helm; a parent's definition wins over a subchart's.
    defines: dict[str, tuple[_Node, ...]] = {}
    for chart in sorted(charts, key=lambda c: (-c.depth, c.prefix)):
        for path in own_paths[chart.prefix]:
            if path in parsed:
                defines.update(parsed[path].defines)
    release = release_name or _s(charts[0].chart.get("Name"))
    rendered: list[RenderedTemplate] = []
    for chart in charts:
        for path in own_paths[chart.prefix]:
            if path not in parsed or not _is_output(path, chart.prefix):
                continue
            try:
                rendered.append(_render_one(path, parsed[path], defines, _context(chart, release, path, files)))
            except TemplateError as exc:
                warnings.append(RenderWarning(path, _line_in(str(exc)), f"Helm template not rendered: {exc}"))
            except RecursionError:
                warnings.append(RenderWarning(path, 0, "Helm template not rendered: nested too deeply"))
            except Exception as exc:  # a renderer bug costs this template only
                detail = (str(exc).strip().splitlines() or [""])[0][:200]
                warnings.append(RenderWarning(path, 0, f"Helm template not rendered (internal error "
                                                       f"{type(exc).__name__}: {detail}); please report"))
    return ChartRender(tuple(sorted(rendered, key=lambda t: t.path)),
                       tuple(sorted(set(warnings), key=lambda w: (w.path, w.line, w.message))))

