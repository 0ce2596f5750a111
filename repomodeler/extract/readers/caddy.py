"""Caddy's Caddyfile: the sites a Caddy server answers for and the upstreams its ``reverse_proxy``
(and ``php_fastcgi``) directives forward to, as ``proxy.route`` facts.

A Caddyfile is read as Caddy's own lexer reads it: tokens split on whitespace (quotes kept
together), one directive a line, a ``{`` closing a line opens a block and a lone ``}`` ends it.  That
structure matters because where a request goes is spread over several lines: snippets
(``(common) { ... }``) imported into site blocks (``import common``), routes nested in
``handle /api/* { reverse_proxy api:8000 }``, ``handle_path`` and ``route`` blocks, named matchers
(``@api path /api/*`` then ``reverse_proxy @api api:8000``) and upstreams listed in the proxy's own
block (``to api:8000``).  Environment placeholders are written as Caddy substitutes them when it
loads the file: ``{$API_HOST:api}`` becomes ``${API_HOST:-api}``, so the deployment's setting wins
and the default written in place is used otherwise; ``{env.API_HOST}`` likewise.

Files named ``Caddyfile`` and its variants (``Caddyfile.prod``, ``Caddyfile.ce``, ``dev.Caddyfile``,
``*.caddyfile``) are read: projects keep one per deployment and copy the right one into the image.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

_TOKEN = re.compile(r'"(?:\\.|[^"\\])*"|`[^`]*`|\S+')
_ENV_PLACEHOLDER = re.compile(r"\{\$([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?\}")
_ENV_RUNTIME = re.compile(r"\{env\.([A-Za-z_][A-Za-z0-9_]*)\}")
# Directives whose children are routes of a path (the matcher is their first argument).
_ROUTE_BLOCKS = frozenset({"handle", "handle_path", "route"})
# Directives whose arguments after the matcher are upstream addresses.
_PROXIES = {"reverse_proxy": "reverse_proxy", "php_fastcgi": "php_fastcgi"}
# Bounds for a hostile file: blocks nested deeper are read as if flat, imports nest this deep at
# most, and a site stops after this many lines walked (snippets importing snippets twice each).
MAX_DEPTH = 32
MAX_IMPORT_DEPTH = 8
MAX_WALKED = 20000


@dataclass
class _Node:
    """One line of the file (its tokens) and, when it opened a block, the lines inside."""
    tokens: list[str]
    line: int
    children: list[_Node] = field(default_factory=list)


def _placeholders(token: str) -> str:
    """Caddy's environment placeholders in the project's ``${NAME:-default}`` form."""
    token = _ENV_PLACEHOLDER.sub(lambda m: "${" + m.group(1) + (f":-{m.group(2)}" if m.group(2) is not None else "") + "}",
                                 token)
    return _ENV_RUNTIME.sub(lambda m: "${" + m.group(1) + "}", token)


def _tokens(line: str) -> list[str]:
    """The tokens of a line, a comment (``#`` starting a token) cut off, quotes removed."""
    out: list[str] = []
    for m in _TOKEN.finditer(line):
        tok = m.group(0)
        if tok.startswith("#"):
            break
        if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "\"`":
            tok = tok[1:-1]
        out.append(_placeholders(tok))
    return out


def parse(text: str) -> list[_Node]:
    """The file as a tree of lines.  An unbalanced ``}`` is ignored; an unclosed block ends with the file."""
    root = _Node([], 0)
    stack = [root]
    for i, raw in enumerate(text.splitlines(), start=1):
        toks = _tokens(raw)
        while toks and toks[0] == "}":  # `}` closes, possibly before more on the line (`} else {` is not Caddy)
            if len(stack) > 1:
                stack.pop()
            toks = toks[1:]
        # (past MAX_DEPTH a block's lines stay with the enclosing one, and so does its `}`: a hostile
        # file's extra closing braces then end outer blocks early, which only loses routes)
        if not toks:
            continue
        opens = toks[-1] == "{"
        if opens:
            toks = toks[:-1]
        closes = bool(toks) and toks[-1] == "}" and "{" in toks  # a one-line block: `handle /x { reverse_proxy a:1 }`
        if closes:
            inner_at = toks.index("{")
            node = _Node(toks[:inner_at], i, [_Node(toks[inner_at + 1:-1], i)] if toks[inner_at + 1:-1] else [])
            stack[-1].children.append(node)
            continue
        node = _Node(toks, i)
        stack[-1].children.append(node)
        if opens and len(stack) <= MAX_DEPTH:
            stack.append(node)
    return root.children


def _with_args(nodes: list[_Node], args: list[str]) -> list[_Node]:
    """A snippet's lines with its argument placeholders filled by the arguments of one import."""
    def fill(token: str) -> str:
        return re.sub(r"\{args(?:\[(\d+)\]|\.(\d+))\}",
                      lambda m: args[int(m.group(1) or m.group(2))] if int(m.group(1) or m.group(2)) < len(args) else m.group(0),
                      token)
    return [_Node([fill(t) for t in n.tokens], n.line, _with_args(n.children, args)) for n in nodes]


def _is_matcher(token: str) -> bool:
    return token.startswith(("/", "@")) or token == "*"


def _site_names(tokens: list[str]) -> str:
    """The host names of a site block's addresses (``https://shop.example.com:443, www.shop.example.com``)."""
    names = set()
    for tok in tokens:
        for part in tok.split(","):
            host = re.sub(r"^[a-z]+://", "", part.strip()).split("/")[0]
            host = re.sub(r":\d+$", "", host)
            if host and "$" not in host and "{" not in host and not host.startswith(":"):
                names.add(host)
    return " ".join(sorted(names))


class _Site:
    """Walks the directives of one site block, with the file's snippets at hand."""

    def __init__(self, repo: str, path: str, snippets: dict[str, list[_Node]], server_names: str) -> None:
        self.repo, self.path, self.snippets, self.server_names = repo, path, snippets, server_names
        self.matchers: dict[str, str] = {}  # a named matcher's path (`@api path /api/*`)
        self.facts: list[Fact] = []
        self.walked = 0

    def location(self, matcher: str, outer: str) -> str:
        if matcher.startswith("@"):
            return self.matchers.get(matcher, outer)
        return outer if matcher in ("", "*") else matcher

    def walk(self, nodes: list[_Node], location: str, importing: tuple[str, ...] = ()) -> None:
        for node in nodes:  # named matchers first: a route may use one defined below it
            if node.tokens and node.tokens[0].startswith("@"):
                paths = node.tokens[2:] if len(node.tokens) > 2 and node.tokens[1] == "path" else \
                    [t for c in node.children if c.tokens[:1] == ["path"] for t in c.tokens[1:]]
                if paths:
                    self.matchers[node.tokens[0]] = paths[0]
        for node in nodes:
            self.walked += 1
            if not node.tokens or self.walked > MAX_WALKED:
                continue
            name, args = node.tokens[0], node.tokens[1:]
            if name == "import" and args and args[0] in self.snippets and args[0] not in importing \
                    and len(importing) < MAX_IMPORT_DEPTH:
                # `import backend api:8000`: the snippet's {args[0]} / {args.0} are the import's arguments
                self.walk(_with_args(self.snippets[args[0]], args[1:]), location, (*importing, args[0]))
            elif name in _ROUTE_BLOCKS:
                matcher = args[0] if args and _is_matcher(args[0]) else ""
                self.walk(node.children, self.location(matcher, location), importing)
            elif name in _PROXIES:
                self.proxy(node, _PROXIES[name], location)

    def proxy(self, node: _Node, directive: str, outer: str) -> None:
        args = node.tokens[1:]
        matcher = args[0] if args and _is_matcher(args[0]) else ""
        upstreams = [(a, node.line) for a in (args[1:] if matcher else args)]
        upstreams += [(a, c.line) for c in node.children if c.tokens[:1] == ["to"] for a in c.tokens[1:]]
        location = self.location(matcher, outer)
        for upstream, line in upstreams:
            if upstream.startswith(":"):
                upstream = "localhost" + upstream  # `reverse_proxy :8080`: a port of this machine
            self.facts.append(fact("proxy.route", self.repo, self.path, line, upstream=upstream, location=location,
                                   server_names=self.server_names, software="caddy"))


def read_caddyfile(repo: str, path: str, text: str) -> list[Fact]:
    nodes = parse(text)
    snippets = {n.tokens[0][1:-1]: n.children for n in nodes
                if len(n.tokens) == 1 and n.tokens[0].startswith("(") and n.tokens[0].endswith(")")}
    sites = [n for n in nodes if n.tokens and n.tokens[0][1:-1] not in snippets]
    facts: list[Fact] = []
    if sites and not sites[0].children:
        # One site and no braces: the first line is its address, the rest its directives.
        site = _Site(repo, path, snippets, _site_names(sites[0].tokens))
        site.walk(sites[1:], "")
        return site.facts
    for node in sites:
        if not node.children:
            continue  # a directive outside any site: Caddy rejects the file; nothing routes through it
        site = _Site(repo, path, snippets, _site_names(node.tokens))
        site.walk(node.children, "")
        facts.extend(site.facts)
    return facts


READERS = (
    Reader("caddy", "proxy", 90, read_caddyfile,
           patterns=(r"Caddyfile", r"Caddyfile\.[A-Za-z0-9_.-]+", r"[A-Za-z0-9_.-]+\.Caddyfile", r"[^/]*\.caddyfile"),
           ignore_case=False),
)
