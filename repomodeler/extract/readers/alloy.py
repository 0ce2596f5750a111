"""Grafana Alloy configuration (``config.alloy``, and the River files of its predecessor Grafana
Agent in flow mode, ``*.river``): where the telemetry pipeline it runs reads from and writes to.

The syntax is blocks and attributes::

    prometheus.scrape "apps" {
      targets    = [{"__address__" = "orders:8080"}]
      forward_to = [prometheus.remote_write.mimir.receiver]
    }
    loki.write "default" {
      endpoint { url = env("LOKI_URL") }
    }

A component block is named by its dotted type and a label; nested blocks configure it.  Read here:

* **exporters and writers** (``otelcol.exporter.*``, ``loki.write``, ``prometheus.remote_write``,
  ``pyroscope.write``, any ``*.write``): their ``endpoint``/``url`` (and the OTLP HTTP exporter's
  ``traces_endpoint``...) are the backends the component ships telemetry to; so is the ruler API
  address of ``mimir.rules.*``/``loki.rules.*``.  Each one is a ``monitoring.target`` fact, as an
  OpenTelemetry collector's exporter is (loopback addresses left out, like there).
* **scrapers** (``prometheus.scrape``, ``pyroscope.scrape``, any ``*.scrape``): every literal
  ``__address__`` of their ``targets`` list is a ``monitoring.target``, as a Prometheus scrape target
  is.  Targets handed over from a discovery component are not literal: left alone.
* **embedded exporters** (``prometheus.exporter.redis``, ``.postgres``...): the server named by their
  address or data source setting (credentials dropped) is one the component collects metrics from.
* **receivers** (``otelcol.receiver.*``, ``loki.source.api``, ``faro.receiver``,
  ``pyroscope.receive_http``...): the ports they listen on, as ``server.listen_port`` facts (an
  OTLP receiver's ``grpc {}``/``http {}`` without an endpoint listens on OTLP's 4317/4318).

Values are read when the file states them: string literals (double-quoted or raw backquoted),
``env("NAME")``/``sys.env("NAME")`` as the placeholder ``${NAME}`` the resolver fills from the
deployment's settings, ``coalesce(env("NAME"), "default")`` as ``${NAME:-default}``, ``+``
concatenations and ``string.format`` of those.  Anything else (a value read from another file with
``json_path``, a component's export) is not guessed at.  Every fact names the component block
(``via``) and the program (``program=alloy``) so the resolver can find the container running it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

# Blanks and comments before a token are part of its match; an unclosed string ends with its line,
# an unclosed raw string or block comment with the file, and a character nothing else takes is
# `stray` (skipped): every character is looked at once.
_TOKEN = re.compile(r"""
    (?:[ \t\r\n]+|//[^\n]*|/\*.*?(?:\*/|\Z))*
    (?:
      (?P<string>"[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"?)
    | (?P<raw>`[^`]*`?)
    | (?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
    | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>==|!=|<=|>=|&&|\|\||[-+*/%^<>!=(){}\[\],.:?])
    | (?P<stray>.)
    | \Z
    )
""", re.X | re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_PLACEHOLDER = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$")
# An OTLP receiver's protocol blocks, and the port each listens on when the block names no endpoint.
OTLP_DEFAULT_PORTS = {"grpc": 4317, "http": 4318}
MAX_DEPTH = 64  # blocks and values nested deeper are skipped (a hostile file)


class Opaque:
    """A value the file does not state (a component's export, a function of another file)."""


@dataclass
class Text:
    value: str
    line: int


@dataclass
class Number:
    value: str
    line: int


@dataclass
class Array:
    items: list[object]
    line: int


@dataclass
class Object:
    entries: list[tuple[str, object, int]]  # (key, value, line of the key)
    line: int

    def get(self, key: str) -> object | None:
        return next((v for k, v, _l in self.entries if k == key), None)


@dataclass
class Attribute:
    name: str
    value: object
    line: int


@dataclass
class Block:
    name: str  # dotted: `otelcol.exporter.otlp`, `client`
    label: str
    line: int
    body: list[object] = field(default_factory=list)  # Attribute and Block, in the file's order

    def attributes(self) -> list[Attribute]:
        return [a for a in self.body if isinstance(a, Attribute)]

    def blocks(self) -> list[Block]:
        return [b for b in self.body if isinstance(b, Block)]


# --------------------------------------------------------------------------- tokens and syntax
def tokenize(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) of every token; comments, white space and stray characters dropped."""
    out: list[tuple[str, str, int]] = []
    line, counted = 1, 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None or kind == "stray":
            continue
        start = m.start(kind)
        line += text.count("\n", counted, start)
        counted = start
        out.append((kind, m.group(kind), line))
    return out


def _unquote(token: str) -> str:
    quote = token[0]
    inner = token[1:-1] if len(token) > 1 and token.endswith(quote) else token[1:]  # (unclosed: to its end)
    if quote == "`":
        return inner
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), inner)


class _Parser:
    """A forgiving reader of the syntax: what it cannot make out it skips, never raising."""

    def __init__(self, tokens: list[tuple[str, str, int]]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self, ahead: int = 0) -> tuple[str, str, int]:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else ("eof", "", self.toks[-1][2] if self.toks else 0)

    def take(self) -> tuple[str, str, int]:
        tok = self.peek()
        self.i += 1
        return tok

    def at(self, text: str) -> bool:
        kind, value, _line = self.peek()
        return kind == "op" and value == text

    def body(self, depth: int) -> list[object]:
        """Statements up to the `}` closing the enclosing block (not taken) or the end."""
        items: list[object] = []
        while self.peek()[0] != "eof" and not self.at("}"):
            kind, value, line = self.peek()
            if kind != "ident":
                self.skip_statement(depth)
                continue
            start = self.i
            name = self.dotted()
            if self.at("="):
                self.take()
                items.append(Attribute(name, self.expr(depth + 1), line))
            elif self.peek()[0] in ("string", "raw") and self.peek(1)[:2] == ("op", "{"):
                label = _unquote(self.take()[1])
                items.append(self.block(name, label, line, depth))
            elif self.at("{"):
                items.append(self.block(name, "", line, depth))
            else:
                self.i = max(self.i, start + 1)
        return items

    def block(self, name: str, label: str, line: int, depth: int) -> Block:
        self.take()  # {
        body = self.body(depth + 1) if depth < MAX_DEPTH else self.skip_to_close()
        if self.at("}"):
            self.take()
        return Block(name, label, line, body)

    def skip_to_close(self) -> list[object]:
        """Past a block too deep to read: up to its closing `}` (not taken), nesting counted."""
        level, i, toks = 0, self.i, self.toks
        while i < len(toks):
            kind, value, _line = toks[i]
            if kind == "op" and value == "{":
                level += 1
            elif kind == "op" and value == "}":
                if level == 0:
                    break
                level -= 1
            i += 1
        self.i = i
        return []

    def skip_statement(self, depth: int) -> None:
        """A token that starts nothing: skipped, with the brackets it opens."""
        if self.at("{") or self.at("[") or self.at("("):
            self.expr(depth + 1)
        else:
            self.take()

    def dotted(self) -> str:
        parts = [self.take()[1]]
        while self.at(".") and self.peek(1)[0] == "ident":
            self.take()
            parts.append(self.take()[1])
        return ".".join(parts)

    # expressions: only what names an address is kept; operators other than `+` make Opaque
    def expr(self, depth: int) -> object:
        if depth > MAX_DEPTH:
            self.skip_value()
            return Opaque()
        left = self.unary(depth)
        while self.peek()[0] == "op" and self.peek()[1] in ("+", "-", "*", "/", "%", "^", "==", "!=", "<", ">",
                                                             "<=", ">=", "&&", "||"):
            op = self.take()[1]
            right = self.unary(depth)
            if op == "+" and isinstance(left, Text) and isinstance(right, (Text, Number)):
                left = Text(left.value + right.value, left.line)
            elif op == "+" and isinstance(left, Number) and isinstance(right, Text):
                left = Text(left.value + right.value, left.line)
            else:
                left = Opaque()
        return left

    def unary(self, depth: int) -> object:
        negated = False
        while self.at("-") or self.at("!"):
            self.take()
            negated = True
        value = self.postfix(self.primary(depth), depth)
        return Opaque() if negated else value

    def primary(self, depth: int) -> object:
        kind, value, line = self.peek()
        if kind in ("string", "raw"):
            self.take()
            return Text(_unquote(value), line)
        if kind == "number":
            self.take()
            return Number(value, line)
        if kind == "op" and value == "[":
            self.take()
            items = []
            while self.peek()[0] != "eof" and not self.at("]"):
                items.append(self.expr(depth + 1))
                if self.at(","):
                    self.take()
                elif not self.at("]"):
                    self.take()  # something unexpected: step over it
            self.take()
            return Array(items, line)
        if kind == "op" and value == "{":
            self.take()
            entries: list[tuple[str, object, int]] = []
            while self.peek()[0] != "eof" and not self.at("}"):
                kkind, key, kline = self.peek()
                if kkind in ("ident", "string", "raw") and self.peek(1)[:2] in (("op", "="), ("op", ":")):
                    self.i += 2
                    entries.append((_unquote(key) if kkind != "ident" else key, self.expr(depth + 1), kline))
                elif not self.at(","):
                    self.expr(depth + 1)  # something unexpected: stepped over, brackets and all
                if self.at(","):
                    self.take()
            self.take()
            return Object(entries, line)
        if kind == "op" and value == "(":
            self.take()
            inner = self.expr(depth + 1)
            if self.at(")"):
                self.take()
            return inner
        if kind == "ident":
            name = self.dotted()
            if self.at("("):
                return self.call(name, line, depth)
            return Opaque()
        if kind != "eof":
            self.take()
        return Opaque()

    def call(self, name: str, line: int, depth: int) -> object:
        self.take()  # (
        args: list[object] = []
        while self.peek()[0] != "eof" and not self.at(")"):
            args.append(self.expr(depth + 1))
            if self.at(","):
                self.take()
            elif not self.at(")"):
                self.take()
        self.take()
        return _call_value(name, args, line)

    def postfix(self, value: object, depth: int) -> object:
        """Indexing and field access after a value (`json_path(...)[0]`, `x.y`): nothing it states."""
        while self.at("[") or (self.at(".") and self.peek(1)[0] == "ident"):
            if self.at("["):
                self.take()
                self.expr(depth + 1)
                if self.at("]"):
                    self.take()
            else:
                self.take()
                self.take()
            value = Opaque()
        return value

    def skip_value(self) -> None:
        """Past one value too deeply nested to read, brackets balanced."""
        level, i, toks = 0, self.i, self.toks
        while i < len(toks):
            kind, value, _line = toks[i]
            if kind == "op" and value in ("(", "[", "{"):
                level += 1
            elif kind == "op" and value in (")", "]", "}"):
                if level == 0:
                    break
                level -= 1
            i += 1
            if level == 0:
                break
        self.i = i


def _call_value(name: str, args: list[object], line: int) -> object:
    """What a function call states: the environment variables it reads as placeholders."""
    if name in ("env", "sys.env") and len(args) == 1 and isinstance(args[0], Text) \
            and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", args[0].value):
        return Text("${" + args[0].value + "}", line)
    if name == "coalesce" and args and all(isinstance(a, Text) for a in args):
        # the first non-empty value: an unset variable falls back on what follows it
        result = args[-1].value  # type: ignore[union-attr]
        for a in reversed(args[:-1]):
            m = _PLACEHOLDER.match(a.value)  # type: ignore[union-attr]
            if m:
                result = "${" + m.group(1) + ":-" + result + "}"
            elif a.value:  # type: ignore[union-attr]
                result = a.value  # type: ignore[union-attr]
        return Text(result, line)
    if name in ("string.format", "format") and args and isinstance(args[0], Text) \
            and all(isinstance(a, (Text, Number)) for a in args[1:]):
        rest = [a.value for a in args[1:]]  # type: ignore[union-attr]
        out = re.sub(r"%[svdq%]", lambda m: "%" if m.group(0) == "%%" else (rest.pop(0) if rest else m.group(0)),
                     args[0].value)
        return Text(out, line) if not rest else Opaque()
    return Opaque()


def parse(text: str) -> list[object]:
    """The file's top-level statements (component blocks, top-level attributes)."""
    parser = _Parser(tokenize(text))
    items: list[object] = []
    while parser.peek()[0] != "eof":
        items.extend(parser.body(0))
        if parser.at("}"):
            parser.take()  # an unbalanced `}`: the statements after it still count
    return items


# --------------------------------------------------------------------------- what the blocks say
def _is_sender(name: str) -> bool:
    return name.startswith("otelcol.exporter.") or name.endswith((".write", ".remote_write"))


def _is_scraper(name: str) -> bool:
    return name.endswith(".scrape")


def _is_receiver(name: str) -> bool:
    return name.startswith("otelcol.receiver.") or ".receive" in name or name.endswith(".receiver") \
        or ".source." in name


def _host(value: str) -> str:
    """The host part of an address (``http://tempo:4317/v1`` -> ``tempo``)."""
    rest = re.sub(r"^[A-Za-z][A-Za-z0-9+.-]*://", "", value.strip()).split("/", 1)[0].rsplit("@", 1)[-1]
    if rest.startswith("["):
        return rest.split("]", 1)[0] + "]"
    return rest.rsplit(":", 1)[0] if rest.count(":") == 1 else rest


def _is_loopback(host: str) -> bool:
    return host in ("", "0.0.0.0", "localhost", "[::]", "[::1]", "::") or host.startswith("127.")


def _is_ruler(name: str) -> bool:
    return ".rules." in name


def _walk(block: Block, path: tuple[str, ...] = ()):
    """(enclosing nested block names, attribute) of every attribute of the component block."""
    for item in block.body:
        if isinstance(item, Attribute):
            yield path, item
        elif isinstance(item, Block) and len(path) < MAX_DEPTH:
            yield from _walk(item, (*path, item.name))


# Nested blocks whose addresses are not where telemetry goes (a proxy, an OAuth token server, TLS files).
_NOT_DESTINATION = frozenset({"tls", "oauth2", "proxy", "authorization", "basic_auth", "sigv4", "azuread",
                              "retry_on_failure", "sending_queue", "queue_config", "metadata_config"})
_DESTINATION_KEY = re.compile(r"^(endpoint|url|[a-z]+_endpoint)$")


def _destinations(block: Block) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for path, attr in _walk(block):
        if _NOT_DESTINATION & set(path):
            continue
        values = attr.value.items if isinstance(attr.value, Array) else [attr.value]
        if _DESTINATION_KEY.match(attr.name) or (attr.name == "brokers" and isinstance(attr.value, Array)):
            out.extend((v.value, v.line) for v in values if isinstance(v, Text))
    return out


def _scrape_targets(block: Block) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for attr in block.attributes():
        if attr.name != "targets" or not isinstance(attr.value, Array):
            continue
        for item in attr.value.items:
            address = item.get("__address__") if isinstance(item, Object) else None
            if isinstance(address, Text):
                out.append((address.value, address.line))
    return out


def _listen_ports(block: Block) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    otlp = block.name == "otelcol.receiver.otlp"
    for item in block.blocks():
        if otlp and item.name in OTLP_DEFAULT_PORTS and not any(a.name == "endpoint" for a in item.attributes()):
            out.append((OTLP_DEFAULT_PORTS[item.name], item.line))
    for path, attr in _walk(block):
        if _NOT_DESTINATION & set(path):
            continue
        value = attr.value
        if attr.name == "listen_port" and isinstance(value, (Text, Number)) and value.value.isdigit():
            out.append((int(value.value), value.line))
        elif attr.name in ("endpoint", "listen_address", "address") and isinstance(value, Text):
            # where it listens: any interface or the loopback, and a port (`0.0.0.0:4317`, `:4318`)
            m = re.fullmatch(r"(?:[a-z]+://)?([A-Za-z0-9_.\-]*|\[[0-9a-fA-F:]*\]):(\d{2,5})/?", value.value.strip())
            if m and _is_loopback(m.group(1)):
                out.append((int(m.group(2)), value.line))
    return [(p, line) for p, line in out if 0 < p < 65536]


# The settings of an embedded exporter (``prometheus.exporter.redis``: ``redis_addr``,
# ``prometheus.exporter.postgres``: ``data_source_names``) naming the server it collects metrics from.
_COLLECTED_KEY = re.compile(r"^(?:[a-z]+_)?(?:addr|address|uri|uris|url|urls|data_source_names?)$")
_ADDRESS = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://\S+|[A-Za-z0-9_.\-]+:\d{1,5})$")


def _collected_from(block: Block) -> list[tuple[str, int]]:
    """The servers an embedded exporter reads metrics from: URLs (their credentials dropped) and
    ``host:port`` addresses.  A driver's own DSN form (``user:pw@(mysql:3306)/``) is left alone."""
    out: list[tuple[str, int]] = []
    for path, attr in _walk(block):
        if _NOT_DESTINATION & set(path) or not _COLLECTED_KEY.match(attr.name):
            continue
        for v in attr.value.items if isinstance(attr.value, Array) else [attr.value]:
            if isinstance(v, Text):
                value = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]*@", r"\1", v.value.strip())
                if _ADDRESS.match(value) and "@" not in value:
                    out.append((value, v.line))
    return out


def _components(items: list[object], depth: int = 0):
    """The component blocks, those of a custom component's definition (``declare "name" { ... }``) too."""
    for item in items:
        if isinstance(item, Block) and item.name == "declare" and depth < MAX_DEPTH:
            yield from _components(item.body, depth + 1)
        elif isinstance(item, Block):
            yield item


def read_alloy(repo: str, path: str, text: str) -> list[Fact]:
    """A Grafana Alloy (or Grafana Agent flow mode) configuration: the backends its exporters and
    writers send to, the targets its scrapers read and the servers its embedded exporters collect
    from (``monitoring.target``), the ports its receivers listen on (``server.listen_port``)."""
    facts: list[Fact] = []
    for block in _components(parse(text)):
        via = f'Alloy {block.name} "{block.label}"' if block.label else f"Alloy {block.name}"
        if _is_scraper(block.name):
            job = next((a.value.value for a in block.attributes() if a.name == "job_name" and isinstance(a.value, Text)),
                       block.label)
            for value, line in _scrape_targets(block):
                if value.strip():
                    facts.append(fact("monitoring.target", repo, path, line, value=value.strip(), via=via,
                                      job=job, program="alloy"))
            continue
        if _is_receiver(block.name):
            for port, line in _listen_ports(block):
                facts.append(fact("server.listen_port", repo, path, line, port=port, via=via, program="alloy"))
            continue
        if _is_sender(block.name):
            peers = _destinations(block)
        elif _is_ruler(block.name):
            peers = [(a.value.value, a.line) for a in block.attributes() if a.name == "address" and isinstance(a.value, Text)]
        elif block.name.startswith("prometheus.exporter."):
            peers = _collected_from(block)
        else:
            continue
        for value, line in peers:
            value = value.strip()
            if not value or _is_loopback(_host(value)):
                continue  # (the loopback: a sidecar's or a developer's own machine, as for a collector)
            # a bare `tempo:4317` (an OTLP gRPC endpoint) is no web address; a placeholder may hold a URL
            bare = "://" not in value and "${" not in value
            facts.append(fact("monitoring.target", repo, path, line, value=f"tcp://{value}" if bare else value,
                              via=via, program="alloy"))
    return facts


READERS = (
    Reader("alloy", "descriptor", 420, read_alloy, patterns=(r"[^/]*\.alloy", r"[^/]*\.river")),
)
