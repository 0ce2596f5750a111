"""What a string expression in code may evaluate to: a small constant-propagation pass over the text of
an expression, the same for every language.

Extraction hands the resolver the text of an expression (a client call's URL argument, the value bound
to a name). This module reads that text as an expression of literals, names, ``+`` concatenation, format
calls (``fmt.Sprintf``, ``String.format``, ``string.Format``, ``format!``, ``str.format``, ``%``),
interpolated strings (f-strings, template literals, C# ``$"..."``, Kotlin ``"$x"``), path joins
(``path.Join``, ``url.JoinPath``, ``urljoin``, ``os.path.join``, ``Path.Combine``) and environment reads,
and asks its caller for the value of every name (a constant of the file or of another file, a local
variable: see :mod:`repomodeler.graph.constants`). A part it cannot know stays as :data:`UNKNOWN`, so a
caller can tell ``http://{?}/x`` (no host) from ``http://orders:8080/{?}`` (host known, path not), and a
placeholder never becomes a host.

Each value carries the evidence of every binding it went through (the constant's line, the variable's
line), so a connection made from it points at the call and at the lines that gave the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from typing import Callable

from repomodeler.records import Evidence

UNKNOWN = "{?}"  # a part whose value is not known: never a host (see values.URL_PATTERN's host class)
MAX_VALUES = 8  # alternatives kept per expression (a name set in several places)
MAX_NESTING = 32  # brackets inside brackets an expression may have
MAX_STEPS = 2000  # names looked up for one expression
MAX_DEPTH = 10  # names whose values are names whose values are... (a parameter -> a call -> a local -> ...)


@dataclass(frozen=True)
class Value:
    """One value an expression may take, with the evidence of the bindings it was read through."""

    text: str
    chain: tuple[Evidence, ...] = ()

    @property
    def known(self) -> bool:
        return UNKNOWN not in self.text


@dataclass(frozen=True)
class Binding:
    """A name bound to a value: a literal (``text`` is the value) or an expression (``text`` is its
    source, read in the file and language of `evidence`)."""

    text: str
    literal: bool
    evidence: Evidence
    language: str


# lookup(name, evidence of the expression's site, language) -> the bindings the name may have there
Lookup = Callable[[str, Evidence, str], list[Binding]]
# env(name, default) -> values of a configuration/environment variable (a default if nothing sets it)
EnvLookup = Callable[[str, "str | None"], list[Value]]

_TOKEN = re.compile(r"""
    (?P<str>(?:[rRbBuUfF]{1,2}|\$@|@\$|\$|@)?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`))
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<op>::|\?\.|->|[()\[\]{},+%.!=:&*])
  | (?P<ws>\s+)
  | (?P<other>.)
""", re.X)

PRINTF_CALLS = frozenset({"sprintf", "fmt.sprintf", "string.format", "format!", "formatted", "fmt.errorf"})
JOIN_CALLS = frozenset({"path.join", "url.joinpath", "urljoin", "parse.urljoin", "urllib.parse.urljoin",
                        "os.path.join", "posixpath.join", "path.combine", "filepath.join", "paths.get"})
ENV_CALLS = frozenset({"os.getenv", "getenv", "os.environ.get", "system.getenv", "environment.getenvironmentvariable",
                       "env::var", "std::env::var", "os.lookupenv", "environ.get"})
PASS_CALLS = frozenset({"str", "string", "string.valueof", "strings.trimspace", "tostring", "strip", "trim",
                        "url.parse", "uri.create", "uri", "url.mustparse"})
URL_TYPES = frozenset({"URL", "url.URL"})  # Go: &url.URL{Scheme: s, Host: h, Path: p}


class _Parser:
    """Recursive descent over the tokens of one expression; every node evaluates to a list of Values."""

    def __init__(self, evaluator: "Evaluator", text: str, site: Evidence, language: str, depth: int,
                 seen: frozenset[Evidence], tokens: list[tuple[str, str]] | None = None) -> None:
        self.ev, self.site, self.language, self.depth, self.seen = evaluator, site, language, depth, seen
        self.tokens = tokens if tokens is not None else [
            (m.lastgroup or "", m.group()) for m in _TOKEN.finditer(text) if m.lastgroup != "ws"]
        self.i = 0

    # -- tokens
    def peek(self, offset: int = 0) -> tuple[str, str]:
        j = self.i + offset
        return self.tokens[j] if j < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        self.i += 1
        return tok

    def accept(self, op: str) -> bool:
        if self.peek() == ("op", op):
            self.i += 1
            return True
        return False

    # -- grammar
    def parse(self) -> list[Value]:
        depth = deepest = 0
        for kind, text in self.tokens:  # hostile input: nesting this reader would recurse into too deeply
            if kind == "op" and text in "([{":
                depth += 1
                deepest = max(deepest, depth)
            elif kind == "op" and text in ")]}":
                depth -= 1
        if deepest > MAX_NESTING:
            return [Value(UNKNOWN)]
        branches = self.conditional_branches()
        if branches is not None:
            # `cond ? "rabbit" : "localhost"`, `"a" if cond else "b"`: either branch may be the value
            out: list[Value] = []
            for tokens in branches:
                out.extend(_Parser(self.ev, "", self.site, self.language, self.depth, self.seen, tokens).parse())
            return best(out)[:MAX_VALUES] or [Value(UNKNOWN)]
        values = self.sum()
        if self.peek()[0] != "end":
            return [Value(UNKNOWN)]  # something this reader does not know (a ternary, a comparison...)
        return values

    def conditional_branches(self) -> list[list[tuple[str, str]]] | None:
        """The two branches of a conditional expression at the top level (C-family ``c ? a : b``, Python
        ``a if c else b``) or the two sides of a default (``a || b``, ``a ?? b``), as token lists; None when the
        expression is none of these."""
        depth, question, colon, if_at, else_at, either = 0, -1, -1, -1, -1, -1
        tokens = self.tokens
        for j, (kind, text) in enumerate(tokens):
            pair = depth == 0 and kind == "other" and text in "|?" and j + 1 < len(tokens) and tokens[j + 1] == (kind, text)
            after_pair = j > 0 and kind == "other" and text in "|?" and tokens[j - 1] == (kind, text)
            if kind == "op" and text in "([{":
                depth += 1
            elif kind == "op" and text in ")]}":
                depth -= 1
            elif pair or after_pair:
                if pair and either < 0:
                    either = j  # `a || "http://orders"`, `a ?? b`: either side may be the value
            elif depth == 0 and kind == "other" and text == "?" and question < 0:
                question = j
            elif depth == 0 and kind == "op" and text == ":" and question >= 0 and colon < 0:
                colon = j
            elif depth == 0 and kind == "name" and text == "if" and self.language == "python" and if_at < 0:
                if_at = j
            elif depth == 0 and kind == "name" and text == "else" and if_at >= 0 and else_at < 0:
                else_at = j
        if 0 < question < colon < len(self.tokens) - 1:
            return [self.tokens[question + 1:colon], self.tokens[colon + 1:]]
        if 0 < if_at < else_at < len(self.tokens) - 1:
            return [self.tokens[:if_at], self.tokens[else_at + 1:]]
        if 0 < either < len(tokens) - 2:
            return [tokens[:either], tokens[either + 2:]]
        return None

    def sum(self) -> list[Value]:
        left = self.modulo()
        while self.accept("+"):
            left = concat(left, self.modulo())
        return left

    def modulo(self) -> list[Value]:
        left = self.postfix()
        if self.accept("%"):  # "http://%s:%d" % (host, port)
            args = self.group_items() if self.peek() == ("op", "(") else [self.postfix()]
            return [v for fmt in left for v in printf(fmt, args)][:MAX_VALUES]
        return left

    def group_items(self) -> list[list[Value]]:
        self.take()  # "("
        items = self.arguments(")")
        return [v for _k, v in items]

    def arguments(self, close: str) -> list[tuple[str, list[Value]]]:
        """Arguments up to `close`: (keyword or "", values)."""
        items: list[tuple[str, list[Value]]] = []
        while self.peek()[0] != "end" and not self.accept(close):
            keyword = ""
            if self.peek()[0] == "name" and self.peek(1) == ("op", "=") and self.peek(2) != ("op", "="):
                keyword = self.take()[1]
                self.take()
            items.append((keyword, self.sum()))
            if not self.accept(","):
                if not self.accept(close):
                    self.skip_to(close)
                break
        return items

    def skip_to(self, close: str) -> None:
        depth = 0
        while self.peek()[0] != "end":
            kind, text = self.take()
            if kind == "op" and text in "([":
                depth += 1
            elif kind == "op" and text in ")]":
                if depth == 0 and text == close:
                    return
                depth -= 1

    def postfix(self) -> list[Value]:
        kind, text = self.peek()
        if kind == "str":
            self.take()
            values = self.ev.string_literal(text, self.site, self.language, self.depth, self.seen)
        elif kind == "num":
            self.take()
            values = [Value(text)]
        elif kind == "op" and text == "(":
            self.take()
            items = self.arguments(")")
            values = items[0][1] if len(items) == 1 else [Value(UNKNOWN)]  # a tuple outside % is not a string
        elif kind == "name":
            return self.name_or_call()
        elif kind == "op" and text == "{" and self.language in ("javascript", "typescript", "tsx"):
            # Node's request options (`https.request({host: "api.acme.io", path: "/v1"})`): the URL they describe
            self.take()
            return self.request_options(self.keyed("}"))
        elif kind == "op" and text in ("&", "*"):  # &url.URL{...}, *base: the value itself
            self.take()
            return self.postfix()
        else:
            self.take()
            return [Value(UNKNOWN)]
        return self.methods(values)

    def name_or_call(self) -> list[Value]:
        parts = [self.take()[1]]
        if parts[0] == "new" and self.peek()[0] == "name":
            parts = [self.take()[1]]
        while True:
            if self.peek()[1] in (".", "?.", "::", "->") and self.peek(1)[0] == "name":
                sep = "::" if self.peek()[1] == "::" else "."
                self.take()
                parts.append(sep + self.take()[1])
            else:
                break
        dotted = "".join(parts)
        if self.peek() == ("op", "!") and self.peek(1) == ("op", "("):  # Rust macro: format!(...)
            self.take()
            dotted += "!"
        if self.peek() == ("op", "("):
            self.take()
            args = self.arguments(")")
            return self.methods(self.call(dotted, args))
        if self.peek() == ("op", "{") and self.language == "go":  # a struct literal: url.URL{Host: h}
            self.take()
            return self.methods(self.composite(dotted, self.keyed("}")))
        if self.peek() == ("op", "["):  # os.environ["X"], process.env["X"]
            self.take()
            args = self.arguments("]")
            if dotted.lower().endswith(("environ", "process.env", "env")) and len(args) == 1:
                return self.env_values(args[0][1], None)
            return [Value(UNKNOWN)]
        if dotted.startswith("process.env."):  # process.env.ORDERS_URL
            return self.ev.env(dotted.split(".", 2)[2], None) or [Value(UNKNOWN)]
        return self.ev.name(dotted, self.site, self.language, self.depth, self.seen)

    def keyed(self, close: str) -> dict[str, list[Value]]:
        """``Key: value`` elements up to `close` (a Go struct literal's fields)."""
        fields: dict[str, list[Value]] = {}
        while self.peek()[0] != "end" and not self.accept(close):
            if self.peek()[0] == "name" and self.peek(1) == ("op", ":"):
                key = self.take()[1]
                self.take()
                fields[key] = self.sum()
            else:
                self.sum()
            if not self.accept(","):
                if not self.accept(close):
                    self.skip_to(close)
                break
        return fields

    @staticmethod
    def composite(type_name: str, fields: dict[str, list[Value]]) -> list[Value]:
        """A URL struct spelled out (``url.URL{Scheme: "https", Host: h, Path: p}``); any other struct
        is not a string."""
        if type_name not in URL_TYPES or "Host" not in fields:
            return [Value(UNKNOWN)]
        out = concat(fields.get("Scheme", [Value("http")]), [Value("://")])
        out = concat(out, fields["Host"])
        if "Path" not in fields:
            return out
        # String() puts the slash between host and a relative path (`Path: "youtube/v3/videos"`)
        return concat(out, rooted(fields["Path"]))

    @staticmethod
    def request_options(fields: dict[str, list[Value]]) -> list[Value]:
        """An object of request options naming a host (``{host, port, path}``, ``{hostname, protocol}``, as
        Node's http.request takes): the URL it describes; any other object is not a string."""
        host = fields.get("hostname") or fields.get("host")
        if not host:
            return [Value(UNKNOWN)]
        scheme = [Value(v.text.rstrip(":"), v.chain) for v in fields.get("protocol", [Value("http")])]
        out = concat(concat(scheme, [Value("://")]), host)
        if "port" in fields:
            out = concat(concat(out, [Value(":")]), fields["port"])
        if "path" in fields:
            out = concat(out, rooted(fields["path"]))
        return out

    def methods(self, values: list[Value]) -> list[Value]:
        """Method calls on a string value: "...".format(...), .concat(x), .formatted(...), .strip()."""
        while self.peek()[1] in (".", "?.") and self.peek(1)[0] == "name" and self.peek(2) == ("op", "("):
            self.take()
            method = self.take()[1]
            self.take()
            values = apply_method(values, method, self.arguments(")"))
        return values

    def call(self, callee: str, args: list[tuple[str, list[Value]]]) -> list[Value]:
        qualifier, _, method = callee.rpartition(".")
        if qualifier and method.lower() in STRING_METHODS and not builtin(callee, self.language):
            # base.JoinPath("v2"), requestURL.String(), url.format(h): a method of the value a name holds
            return apply_method(self.ev.name(qualifier, self.site, self.language, self.depth, self.seen), method, args)
        return self.function(callee, args)

    def function(self, callee: str, args: list[tuple[str, list[Value]]]) -> list[Value]:
        name = callee.lower().replace("->", ".")
        short = name.rsplit(".", 1)[-1]
        positional = [v for _k, v in args]
        if name in PRINTF_CALLS or short == "sprintf" or name.endswith("string.format") and self.language != "csharp":
            if not positional:
                return [Value(UNKNOWN)]
            if name == "format!" or self.language == "csharp":
                return [v for fmt in positional[0] for v in brace_format(fmt, args[1:])][:MAX_VALUES]
            return [v for fmt in positional[0] for v in printf(fmt, positional[1:])][:MAX_VALUES]
        if name.endswith("string.format") or short == "format" and self.language == "csharp":
            if not positional:
                return [Value(UNKNOWN)]
            return [v for fmt in positional[0] for v in brace_format(fmt, args[1:])][:MAX_VALUES]
        if name == "concat!":
            out = [Value("")]
            for a in positional:
                out = concat(out, a)
            return out
        if name in JOIN_CALLS or short == "urljoin":
            return join(positional)
        if name in ENV_CALLS or short in ("getenv", "getenvironmentvariable"):
            default = positional[1] if len(positional) > 1 else None
            return self.env_values(positional[0] if positional else [], default)
        if name in PASS_CALLS and len(positional) >= 1:
            return positional[0]
        # A function of the code: what it returns when it builds a value (n.BaseURL(), defaultURL()).
        return self.ev.name(callee + "()", self.site, self.language, self.depth, self.seen)

    def env_values(self, names: list[Value], default: list[Value] | None) -> list[Value]:
        out: list[Value] = []
        for n in names:
            if not n.known:
                continue
            found = self.ev.env(n.text, None)
            out.extend(found)
            if not found and default:
                out.extend(d for d in default if d.known)
        return out[:MAX_VALUES] or [Value(UNKNOWN)]


STRING_METHODS = frozenset({"format", "formatted", "joinpath", "resolve", "concat", "strip", "trim", "tostring",
                            "rstrip", "trimend", "string"})


def apply_method(values: list[Value], method: str, args: list[tuple[str, list[Value]]]) -> list[Value]:
    """A method called on a string (or URL) value; one this reader does not know gives an unknown."""
    name = method.lower()
    if name == "format":
        return [v for fmt in values for v in brace_format(fmt, args)][:MAX_VALUES]
    if name == "formatted":
        return [v for fmt in values for v in printf(fmt, [a for _k, a in args])][:MAX_VALUES]
    if name in ("joinpath", "resolve"):  # u.JoinPath("v2", name) / URI.resolve("/x")
        return join([values, *(a for _k, a in args)])
    if name == "concat":
        for _k, a in args:
            values = concat(values, a)
        return values
    if name in STRING_METHODS:
        return values  # strip, trim, toString, String(): the host stays the host
    return [Value(UNKNOWN)]


def builtin(callee: str, language: str) -> bool:
    """Is this a format, join, environment or conversion call this reader knows by name?"""
    name = callee.lower().replace("->", ".")
    short = name.rsplit(".", 1)[-1]
    return (name in PRINTF_CALLS or name in JOIN_CALLS or name in ENV_CALLS or name in PASS_CALLS
            or name == "concat!" or short in ("sprintf", "urljoin", "getenv", "getenvironmentvariable")
            or name.endswith("string.format") or (short == "format" and language == "csharp"))


def best(values: list[Value]) -> list[Value]:
    """The values most worth keeping, the most complete first (one value per text): a name set in many
    places keeps the assignments that say something over those that do not."""
    seen: dict[str, Value] = {}
    for v in values:
        seen.setdefault(v.text, v)
    ranked = sorted(seen.values(), key=lambda v: (v.text.count(UNKNOWN) - len(v.text) / 1e6 if v.text != UNKNOWN else 1e9))
    return ranked[:MAX_VALUES]


def rooted(paths: list[Value]) -> list[Value]:
    """URL paths as they follow a host: a relative one (``v3/videos``) gets its leading slash."""
    return [v if v.text.startswith("/") or not v.text else Value("/" + v.text, v.chain) for v in paths]


def concat(left: list[Value], right: list[Value]) -> list[Value]:
    out = []
    for a, b in product(left, right):
        out.append(Value(a.text + b.text, merge(a.chain, b.chain)))
        if len(out) >= MAX_VALUES:
            break
    return out


def merge(*chains: tuple[Evidence, ...]) -> tuple[Evidence, ...]:
    seen: dict[Evidence, None] = {}
    for chain in chains:
        for e in chain:
            seen.setdefault(e, None)
    return tuple(seen)


def fill(fmt: Value, pieces: list[tuple[int, int, list[Value]]]) -> list[Value]:
    """Replace the spans (start, end) of `fmt` by the values given, in every combination."""
    out = [fmt.text[:pieces[0][0]] if pieces else fmt.text]
    chains: list[tuple[Evidence, ...]] = [fmt.chain]
    for k, (start, end, values) in enumerate(pieces):
        tail = fmt.text[end:pieces[k + 1][0]] if k + 1 < len(pieces) else fmt.text[end:]
        new_out, new_chains = [], []
        for (text, chain), v in product(zip(out, chains), values):
            new_out.append(text + v.text + tail)
            new_chains.append(merge(chain, v.chain))
            if len(new_out) >= MAX_VALUES:
                break
        out, chains = new_out, new_chains
    return [Value(t, c) for t, c in zip(out, chains)]


PRINTF_SPEC = re.compile(r"%(?:\[\d+\])?[-+ #0-9.*]*([sdvqifx%])")


def printf(fmt: Value, args: list[list[Value]]) -> list[Value]:
    """printf-style: "http://%s:%d/x" with its arguments in order (%% is a percent sign)."""
    pieces, i = [], 0
    for m in PRINTF_SPEC.finditer(fmt.text):
        if m.group(1) == "%":
            pieces.append((m.start(), m.end(), [Value("%")]))
            continue
        pieces.append((m.start(), m.end(), args[i] if i < len(args) else [Value(UNKNOWN)]))
        i += 1
    return fill(fmt, pieces) if pieces else [fmt]


BRACE_SPEC = re.compile(r"\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*|\d*)(?:[:!][^{}]*)?\}")


def brace_format(fmt: Value, args: list[tuple[str, list[Value]]]) -> list[Value]:
    """"{}", "{0}", "{name}" placeholders (Python str.format, C# string.Format, Rust format!); a Rust
    ``{name}`` no argument names is the variable of that name, left unknown here."""
    positional = [v for k, v in args if not k]
    named = {k: v for k, v in args if k}
    pieces, auto = [], 0
    for m in BRACE_SPEC.finditer(fmt.text):
        if m.group(0) in ("{{", "}}"):
            pieces.append((m.start(), m.end(), [Value(m.group(0)[0])]))
            continue
        key = m.group(1) or ""
        if key == "":
            values = positional[auto] if auto < len(positional) else [Value(UNKNOWN)]
            auto += 1
        elif key.isdigit():
            values = positional[int(key)] if int(key) < len(positional) else [Value(UNKNOWN)]
        else:
            values = named.get(key, [Value(UNKNOWN)])
        pieces.append((m.start(), m.end(), values))
    return fill(fmt, pieces) if pieces else [fmt]


def join(parts: list[list[Value]]) -> list[Value]:
    """path.Join / urljoin: the pieces with one slash between them (a URL base keeps its scheme)."""
    if not parts:
        return [Value(UNKNOWN)]
    out = parts[0]
    for p in parts[1:]:
        out = [Value(a.text.rstrip("/") + "/" + b.text.lstrip("/"), merge(a.chain, b.chain))
               for a, b in product(out, p)][:MAX_VALUES]
    return out


class Evaluator:
    """Evaluates expressions; names are looked up through `lookup` (bounded depth, no cycles)."""

    def __init__(self, lookup: Lookup, env: EnvLookup) -> None:
        self.lookup = lookup
        self.env = env
        # A name's values at a site, once worked out (a parameter many calls feed is read once), and a
        # bound on the names looked up, so code where every call hands a value on stays fast.
        self.memo: dict[tuple[str, Evidence, str], list[Value]] = {}
        self.steps = MAX_STEPS

    def evaluate(self, text: str, site: Evidence, language: str, depth: int = 0,
                 seen: frozenset[Evidence] = frozenset()) -> list[Value]:
        if depth > MAX_DEPTH or len(text) > 2000:
            return [Value(UNKNOWN)]
        return _Parser(self, text, site, language, depth, seen).parse()

    def name(self, name: str, site: Evidence, language: str, depth: int, seen: frozenset[Evidence]) -> list[Value]:
        key = (name, site, language)
        if key in self.memo:
            return self.memo[key]
        if self.steps <= 0:
            return [Value(UNKNOWN)]
        self.steps -= 1
        values = self._name(name, site, language, depth, seen)
        self.memo[key] = values
        return values

    def _name(self, name: str, site: Evidence, language: str, depth: int, seen: frozenset[Evidence]) -> list[Value]:
        out: list[Value] = []
        for b in self.lookup(name, site, language):
            if b.evidence in seen:
                continue  # A = B + "x"; B = A: a cycle has no value
            if b.literal:
                out.append(Value(b.text, (b.evidence,)))
            else:
                for v in self.evaluate(b.text, b.evidence, b.language, depth + 1, seen | {b.evidence}):
                    out.append(Value(v.text, merge((b.evidence,), v.chain)))
            if len(out) >= 4 * MAX_VALUES:
                break
        return best(out) or [Value(UNKNOWN)]

    def string_literal(self, token: str, site: Evidence, language: str, depth: int,
                       seen: frozenset[Evidence]) -> list[Value]:
        """A string literal: plain, or interpolated (f"...{x}", `...${x}`, $"...{x}", Kotlin "$x")."""
        m = re.match(r"^([rRbBuUfF]{0,2}|\$@|@\$|\$|@)(\"\"\"|'''|\"|'|`)([\s\S]*)\2$", token)
        if not m:
            return [Value(UNKNOWN)]
        prefix, quote, body = m.group(1).lower(), m.group(2), m.group(3)
        if "f" in prefix or "$" in prefix:
            return self.template(body, r"\{([^{}]+)\}", site, language, depth, seen)
        if quote == "`" and language in ("javascript", "typescript", "tsx"):
            return self.template(body, r"\$\{([^{}]+)\}", site, language, depth, seen)
        if language == "kotlin" and "$" in body:
            return self.template(body, r"\$\{([^{}]+)\}|\$([A-Za-z_][A-Za-z0-9_]*)", site, language, depth, seen)
        return [Value(body)]

    def template(self, body: str, pattern: str, site: Evidence, language: str, depth: int,
                 seen: frozenset[Evidence]) -> list[Value]:
        pieces = []
        for m in re.finditer(pattern, body):
            inner = next(g for g in m.groups() if g is not None)
            inner = re.split(r"[:!](?![:=])", inner, maxsplit=1)[0] if language == "python" else inner
            pieces.append((m.start(), m.end(), self.evaluate(inner, site, language, depth + 1, seen)))
        return fill(Value(body), pieces) if pieces else [Value(body)]
