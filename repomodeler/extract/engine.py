"""The query engine: run declarative tree-sitter queries and turn their captures into facts.

Query file conventions (``grammars/<language>/<capability>.scm``):

* every pattern carries ``(#set! fact "<kind>")`` naming the fact it produces, e.g. ``http.route``;
  any other ``#set!`` key becomes a constant attribute (``(#set! framework "flask")``);
* the capture ``@fact`` marks the node whose first line is the fact's evidence line; without it
  the pattern's first capture is used;
* every other capture becomes an attribute named after the capture, its text unquoted when it is
  a string literal; captures whose names start with ``_`` are only for predicates and ignored;
* ``(#set! verbatim "expr")`` keeps the named captures as written (not unquoted); ``(#set! scope_nodes
  "t1 t2")`` adds ``scope``, the lines of the nearest enclosing node of those types (a local's function);
* the standard predicates ``#eq?``, ``#match?``, ``#any-of?`` (and ``not-`` forms) filter matches.

A file with syntax errors is still queried (tree-sitter recovers), and a warning names the file.
"""

from __future__ import annotations

import re
import time
import warnings as warnings_module
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from repomodeler.extract.query_order import cheap_predicates_first
from repomodeler.languages import load_language, query_files
from repomodeler.records import Fact, Warning_

_QUOTED = re.compile(r'^(?P<prefix>[rRbBuUfF]{0,2}|\$@?|@\$?)(?P<q>"""|\'\'\'|"|\'|`)(?P<body>.*)(?P=q)$', re.S)
MAX_ATTR_LEN = 2000
QUERY_BUDGET_MICROS = 10_000_000  # per file and language


@dataclass(frozen=True)
class CompiledQuery:
    name: str  # file stem, e.g. "http_routes"
    query: object  # tree_sitter.Query
    settings: tuple[dict[str, str], ...]  # per pattern
    rules: tuple[str, ...] = ()  # per pattern: "<language>/<file>.scm:<line>" where the pattern starts


def unquote(text: str) -> str:
    """Strip the quotes of a string literal (Python prefixes, triple quotes, backticks)."""
    m = _QUOTED.match(text.strip())
    if not m:
        return text
    body = m.group("body")
    return body.replace("\\$", "$") if "\\$" in body else body  # Kotlin "\${x}" is a literal ${x}


@lru_cache(maxsize=None)
def compiled_queries(language: str) -> tuple[CompiledQuery, ...]:
    """Compile all .scm files of a language into ONE query, once per process.

    One combined query walks the tree once instead of once per file; pattern indices still map
    to each pattern's ``#set!`` settings.  If the combination fails, each file is compiled alone
    so the error names the broken file.
    """
    import tree_sitter

    lang = load_language(language)
    files = query_files(language)
    sources = [(scm, scm.read_text(encoding="utf-8")) for scm in files]
    try:
        # Same patterns, same offsets; regular expressions checked after the cheap comparisons.
        query = tree_sitter.Query(lang, cheap_predicates_first("\n".join(src for _scm, src in sources)))
    except Exception:
        for scm, src in sources:
            try:
                tree_sitter.Query(lang, src)
            except Exception as exc:  # a broken query file is a bug in grammars/, say which one
                raise RuntimeError(f"query file {scm} does not compile: {exc}") from exc
        raise
    settings = tuple(
        {str(k): ("" if v is None else str(v)) for k, v in (query.pattern_settings(i) or {}).items()}
        for i in range(query.pattern_count)
    )
    for i, st in enumerate(settings):
        if "fact" not in st:
            raise RuntimeError(f"query files of {language}: pattern {i} has no (#set! fact \"...\")")
    return (CompiledQuery(language, query, settings, _pattern_rules(language, query, sources)),)


def _pattern_rules(language: str, query, sources: list[tuple[Path, str]]) -> tuple[str, ...]:
    """Name each pattern of a combined query by the file and line it was written at."""
    starts: list[tuple[int, Path, str]] = []
    offset = 0
    for scm, src in sources:
        starts.append((offset, scm, src))
        offset += len(src.encode("utf-8")) + 1  # joined with "\n"
    rules = []
    for i in range(query.pattern_count):
        byte = query.start_byte_for_pattern(i)
        base, scm, src = next(s for s in reversed(starts) if s[0] <= byte)
        line = src.encode("utf-8")[: byte - base].count(b"\n") + 1
        rules.append(f"{scm.parent.name}/{scm.name}:{line}")
    return tuple(rules)


PARSE_BUDGET_MICROS = 5_000_000  # per file: a grammar that goes exponential on odd input is stopped
# Memory: a syntax tree takes up to ~450 bytes per token (measured over the grammars: a Ruby array
# of one-digit numbers; ordinary code ~100), so a 30 MB one-line file could need gigabytes before
# the time budget stops it. A file whose tree could need more than the budget is not parsed.
PARSE_MEMORY_BUDGET = 512 * 2**20
TREE_BYTES_PER_TOKEN = 450
_WS, _PUNCT = b" \t\n\r\x0b\x0c", b"!\"#%&'()*+,-./:;<=>?@[\\]^`{|}~"
_CLASSES = bytes(32 if c in _WS else 112 if c in _PUNCT else 120 for c in range(256))  # ' ', 'p', 'x'


def tree_bytes_bound(content: bytes) -> int:
    """An upper estimate of the memory tree-sitter needs for `content`: every punctuation mark and
    every word is a token (what string literals and comments hold is counted too: over, not under)."""
    if len(content) * TREE_BYTES_PER_TOKEN <= PARSE_MEMORY_BUDGET:
        return len(content) * TREE_BYTES_PER_TOKEN  # a token needs a byte: no need to count
    classes = content.translate(_CLASSES)
    tokens = classes.count(b"p") + classes.count(b"px") + classes.count(b" x") + 1
    return tokens * TREE_BYTES_PER_TOKEN


@lru_cache(maxsize=None)
def _parser(language: str):
    import tree_sitter

    parser = tree_sitter.Parser(load_language(language))
    with warnings_module.catch_warnings():  # deprecated in favour of progress callbacks, ignored for bytes
        warnings_module.simplefilter("ignore", DeprecationWarning)
        parser.timeout_micros = PARSE_BUDGET_MICROS
    return parser


def _first_error_line(node) -> int | None:
    """Line (1-based) of the first ERROR or MISSING node, searched without recursion limits."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_error or n.is_missing:
            return n.start_point[0] + 1
        if n.has_error:
            stack.extend(reversed(n.children))
    return None


def enclosing_span(node, types: frozenset[str]) -> str | None:
    """The lines (``"12-40"``) of the nearest ancestor of `node` whose type is one of `types` (the function a
    local assignment belongs to, as ``(#set! scope_nodes "function_declaration ...")`` names them); None at
    the top of the file.  The resolver uses it to read a local variable only inside its own function."""
    parent = node.parent
    while parent is not None:
        if parent.type in types:
            return f"{parent.start_point[0] + 1}-{parent.end_point[0] + 1}"
        parent = parent.parent
    return None


# A query fact of this kind marks test-only code inside a production file (Rust's #[cfg(test)] modules):
# no fact is kept from its lines, and it is no fact itself.
TEST_ONLY = "code.test_only"


# One string literal this long is no one's writing: a compiler's output (lingui's compiled catalogs,
# `module.exports={messages:JSON.parse("...")}`) or a data dump.  Matching the queries over one such literal costs
# seconds a file (a locale folder of them took 80 s) and finds nothing of the architecture.  (A long line of
# ordinary code or data, an array of numbers, is read as it is.)
GENERATED_STRING = 10_000
_LONG_STRING = re.compile(rb'"(?:[^"\\\n]|\\.){%d,}"|\'(?:[^\'\\\n]|\\.){%d,}\'' % (GENERATED_STRING, GENERATED_STRING))


_COMMENT_NODES = frozenset({"comment", "line_comment", "block_comment", "doc_comment"})
_ARGUMENT_LISTS = frozenset({"arguments", "argument_list", "value_arguments", "call_suffix"})


def _past_comments(node):
    """The node a capture means: a comment sits in the tree among a call's arguments (``http.request( // get the
    list`` then ``{host: ...}``), and an anchored ``(arguments . (_) @url)`` takes it for the first argument; the
    first argument is the next sibling that is no comment (None when only comments follow)."""
    holder = node.parent  # (the syntax node around it)
    if node.type not in _COMMENT_NODES or holder is None or holder.type not in _ARGUMENT_LISTS:
        return node  # (a query asking for a comment, a package's doc comment, gets it)
    while node is not None and node.type in _COMMENT_NODES:
        node = node.next_named_sibling
    return node


def is_generated_line(content: bytes) -> bool:
    """Does one of the file's first lines hold a string literal of more than GENERATED_STRING characters?"""
    return any(len(x) > GENERATED_STRING and _LONG_STRING.search(x) for x in content[:262144].split(b"\n", 8)[:8])


def is_built_bundle(content: bytes) -> bool:
    """Is this script a bundler's output committed beside the sources (Laravel Mix's ``public/js``, a
    ``static/`` build): a webpack runtime or chunk, or minified lines thousands of characters long?
    Read as source, every library it bundles (their URLs, their XHR calls) would be the app's."""
    head = content[:65536]
    if b"webpackChunk" in head or b"__webpack_require__" in head or b"webpackJsonp" in head:
        return True
    # minified code: a line thousands of characters long that is code, not one data literal (an
    # immediately invoked function, the minifier's license banner, a source map reference)
    lines = head.split(b"\n", 8)[:8]
    if any(len(x) > 5000 and (x.lstrip().startswith((b"!function", b"(function", b"(()=>", b"(() =>", b'"use strict";'))
                              or b"sourceMappingURL=" in content[-512:]) for x in lines) \
            or (head.startswith(b"/*! ") and any(len(x) > 5000 for x in lines)):
        return True
    # ... or after the banners of the libraries it bundles (`/* Voca string library ... */var a0=ZR,cr=...` on line 31
    # of a committed 900 kB pack): a line of the head closing a comment and going on with thousands of characters of code
    return any(x.lstrip().startswith(b"*/") and len(x.lstrip()[2:].strip()) > 5000
               and not x.lstrip()[2:].lstrip().startswith((b"/*", b"//")) for x in head.split(b"\n"))


def extract_source(repository: str, path: str, language: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Parse one file and run all of its language's queries.  Never raises for bad input."""
    warnings: list[Warning_] = []
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        # Query predicates decode node text as UTF-8; replacing bad bytes keeps every line where it was.
        content = content.decode("utf-8", "replace").encode("utf-8")
    need = tree_bytes_bound(content)
    if need <= PARSE_MEMORY_BUDGET and is_generated_line(content):
        return [], [Warning_(repository, path, 0, "a generated file (one string of more than "
                                                  f"{GENERATED_STRING // 1000} thousand characters on a line: a compiled "
                                                  "message catalog or data dump), not source: skipped")]
    if need <= PARSE_MEMORY_BUDGET and language == "javascript" and is_built_bundle(content):
        return [], [Warning_(repository, path, 0, "a built script bundle (webpack output or minified code), not "
                                                  "source: skipped")]
    if need > PARSE_MEMORY_BUDGET:
        return [], [Warning_(repository, path, 0,
                             f"too big to parse as {language} ({len(content) / 1e6:.1f} MB; its syntax tree could need "
                             f"{need / 2**30:.1f} GB, over the {PARSE_MEMORY_BUDGET // 2**20} MB a file may use); skipped")]
    try:
        tree = _parser(language).parse(content)
    except ValueError:  # the parse budget ran out
        return [], [Warning_(repository, path, 0,
                             f"too complex to parse as {language} within {PARSE_BUDGET_MICROS // 1_000_000} s; skipped")]
    except Exception as exc:  # pragma: no cover - tree-sitter itself failing
        return [], [Warning_(repository, path, 0, f"could not parse as {language}: {exc}")]
    root = tree.root_node
    if root.has_error:
        line = _first_error_line(root) or 1
        warnings.append(Warning_(repository, path, line, f"syntax error near line {line}; read what could be parsed"))
    facts: set[Fact] = set()
    test_spans: list[tuple[int, int]] = []
    import tree_sitter

    for cq in compiled_queries(language):
        cursor = tree_sitter.QueryCursor(cq.query, match_limit=10_000)
        # A pathological file must not stall the run: stop the query after a budget and say so.
        with warnings_module.catch_warnings():  # deprecated in favour of progress_callback, which crashes here
            warnings_module.simplefilter("ignore", DeprecationWarning)
            cursor.timeout_micros = QUERY_BUDGET_MICROS
        started = time.perf_counter()
        for pattern_index, captures in cursor.matches(root):
            settings = cq.settings[pattern_index]
            only = settings.get("only_files")
            if only and not re.search(only, path):
                continue
            kind = settings["fact"]
            attrs: dict[str, str] = {k: v for k, v in settings.items() if k not in ("fact", "only_files", "scope_nodes", "verbatim")}
            verbatim = settings.get("verbatim", "").split()
            anchor = None
            for name, nodes in captures.items():
                if not nodes:
                    continue
                if name == "fact":
                    anchor = nodes[0]
                    continue
                if name.startswith("_"):
                    continue
                node = _past_comments(nodes[0])
                if node is None:
                    continue
                text = node.text.decode("utf-8", "replace") if node.text is not None else ""
                attrs[name] = (text if name in verbatim else unquote(text))[:MAX_ATTR_LEN]
            if anchor is None:
                firsts = [ns[0] for ns in captures.values() if ns]
                if not firsts:
                    continue
                anchor = min(firsts, key=lambda n: n.start_byte)
            line = anchor.start_point[0] + 1
            if kind == TEST_ONLY:
                test_spans.append((line, anchor.end_point[0] + 1))
                continue
            if settings.get("scope_nodes"):
                span = enclosing_span(anchor, frozenset(settings["scope_nodes"].split()))
                if span:
                    attrs["scope"] = span
            facts.add(Fact(kind=kind, repository=repository, path=path, line=line, language=language,
                           attrs=tuple(sorted(attrs.items())), rule=cq.rules[pattern_index] if cq.rules else ""))
        if time.perf_counter() - started >= QUERY_BUDGET_MICROS / 1e6 or cursor.did_exceed_match_limit:
            warnings.append(Warning_(repository, path, 0, "too complex to query completely; read in part"))
    if test_spans:
        facts = {f for f in facts if not any(a <= f.line <= b for a, b in test_spans)}
    return sorted(facts, key=Fact.order), warnings
