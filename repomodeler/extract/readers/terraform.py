"""Terraform (HCL) files: the resources, module calls, variables, locals and outputs of a module.

A system deployed with Terraform declares its services as resources (``google_cloud_run_service``,
``aws_ecs_task_definition``, ``azurerm_container_app``...) or as calls of modules that declare them,
its databases, topics and buckets likewise, and wires them together with references
(``google_cloud_run_service.api.status[0].url`` in another service's environment).  A Terraform
module is a folder: every ``.tf`` file in it sees the others' blocks, so the facts name the folder.

Parsed with the tree-sitter HCL grammar (the ``tree-sitter-hcl`` wheel): blocks, nested blocks,
attributes, heredocs and comments come out as a syntax tree, and a syntax error only loses the
broken part (a file of which nothing could be read is a warning naming its first error).  Facts are described in :mod:`._iac`; nested blocks are indexed by their position
among blocks of the same type (``template[0].spec[0].containers[0].env[1].value``), a ``dynamic``
block's ``for_each`` and ``content`` are kept for the evaluation to make one block per item.  ``jsonencode``/``yamlencode``,
``merge``, ``concat`` and the conversion functions keep the structure of their arguments (an ECS
task's ``container_definitions = jsonencode([{ image = ... }])``); ``format`` fills its ``%s``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader
from repomodeler.extract.readers._iac import NOT_ADDRESSES, UNKNOWN, Leaves, plain_address
from repomodeler.records import Fact

# Functions whose result has the structure of their arguments (for reading, not for evaluating).
_STRUCTURAL = frozenset({"jsonencode", "yamlencode", "merge", "concat", "tolist", "toset", "tomap", "flatten",
                         "sensitive", "nonsensitive", "try", "coalesce", "one", "compact", "distinct"})
_TOP_BLOCKS = frozenset({"resource", "data", "module", "variable", "locals", "output"})


@lru_cache(maxsize=1)
def _parser():  # type: ignore[no-untyped-def]
    import tree_sitter_hcl
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_hcl.language()))


def _text(node, src: bytes) -> str:  # type: ignore[no-untyped-def]
    return src[node.start_byte:node.end_byte].decode("utf-8", "replace")


def _named(node):  # type: ignore[no-untyped-def]
    return [c for c in node.children if c.is_named and c.type != "comment"]


def _unwrap(node):  # type: ignore[no-untyped-def]
    """The expression inside ``expression`` wrappers and parentheses."""
    while node is not None and node.type in ("expression", "parenthesized_expression"):
        inner = _named(node)
        if node.type == "expression" and len(inner) > 1:
            return node  # a traversal: variable_expr followed by get_attr/index/splat
        node = inner[0] if inner else None
    return node


def _string_literal(node, src: bytes) -> str | None:  # type: ignore[no-untyped-def]
    """The text of a quoted string without interpolation, else None."""
    parts = [c for c in node.children if c.is_named and c.type not in ("quoted_template_start", "quoted_template_end")]
    if all(c.type == "template_literal" for c in parts):
        return "".join(_text(c, src) for c in parts)
    return None


class _Expr:
    """An expression read as a template (see :mod:`._iac`) and the addresses it mentions."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self.iterators: set[str] = set()  # names of the dynamic-block iterators in scope

    def traversal(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """``var.x``, ``aws_db_instance.db[0].address``: an address (indices dropped), or None when the
        expression is no plain traversal."""
        node = _unwrap(node)
        if node is None:
            return None
        if node.type == "variable_expr":
            parts = [node]
        elif node.type == "expression":
            parts = _named(node)
        else:
            return None
        if not parts or parts[0].type != "variable_expr":
            return None
        root = _text(parts[0], self.src)
        if root in self.iterators:
            root = "iter"  # a dynamic block's iterator: filled in per item of its for_each
        elif root in NOT_ADDRESSES:
            return None
        out = [root]
        for p in parts[1:]:
            if p.type == "get_attr":
                out.append(_text(p, self.src).lstrip(".").strip())
            elif p.type not in ("index", "splat", "legacy_index", "new_index"):
                return None
        return plain_address(".".join(out))

    def refs(self, node) -> set[str]:  # type: ignore[no-untyped-def]
        """Every address mentioned anywhere inside `node`."""
        found: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("expression", "variable_expr"):
                t = self.traversal(n)
                if t and "." in t:
                    found.add(t)
                    continue
            stack.extend(n.children)
        return found

    def template(self, node) -> str:  # type: ignore[no-untyped-def]
        """The expression as a template string."""
        node = _unwrap(node)
        if node is None:
            return UNKNOWN
        t = self.traversal(node)
        if t is not None:
            return "${" + t + "}" if "." in t else UNKNOWN
        if node.type == "literal_value":
            inner = _named(node)
            if inner and inner[0].type == "string_lit":
                return self.quoted(inner[0])
            if inner and inner[0].type == "null_lit":
                return ""
            return _text(node, self.src)
        if node.type == "template_expr":
            inner = _named(node)
            return self.quoted(inner[0]) if inner else UNKNOWN
        if node.type == "function_call":
            return self.call(node)
        return UNKNOWN

    def quoted(self, node) -> str:  # type: ignore[no-untyped-def]
        """A quoted or heredoc template: literal text and ``${...}`` parts."""
        out: list[str] = []
        prev_end: int | None = None
        for c in node.children:
            if prev_end is not None and c.type in ("template_literal", "template_interpolation", "template_directive"):
                out.append(self.src[prev_end:c.start_byte].decode("utf-8", "replace"))  # spaces the grammar skips
            if c.type in ("template_literal", "template_interpolation", "template_directive", "quoted_template_start",
                          "heredoc_identifier", "heredoc_start"):
                prev_end = c.end_byte
            if c.type == "template_literal":
                out.append(_text(c, self.src))
            elif c.type == "template_interpolation":
                exprs = [x for x in c.children if x.type == "expression"]
                out.append(self.template(exprs[0]) if exprs else UNKNOWN)
            elif c.type in ("template_directive",):
                out.append(UNKNOWN)
        text = "".join(out)
        if node.type == "heredoc_template":
            text = text.strip("\n")
        return text

    def call(self, node) -> str:  # type: ignore[no-untyped-def]
        name_node = next((c for c in node.children if c.type == "identifier"), None)
        args = next((c for c in node.children if c.type == "function_arguments"), None)
        exprs = [c for c in args.children if c.type == "expression"] if args is not None else []
        name = _text(name_node, self.src) if name_node is not None else ""
        if name == "format" and exprs:
            fmt = self.template(exprs[0])
            for arg in exprs[1:]:
                if "%s" not in fmt and "%d" not in fmt:
                    break
                at = min(i for i in (fmt.find("%s"), fmt.find("%d")) if i >= 0)
                fmt = fmt[:at] + self.template(arg) + fmt[at + 2:]
            return fmt
        if name in ("lower", "upper", "trimspace", "tostring", "nonsensitive", "sensitive") and len(exprs) == 1:
            return self.template(exprs[0])
        return UNKNOWN


class _Reader:
    def __init__(self, repo: str, path: str, text: str) -> None:
        self.src = text.encode("utf-8")
        folder = PurePosixPath(path).parent.as_posix()
        self.out = Leaves("terraform", repo, path, "" if folder == "." else folder)
        self.expr = _Expr(self.src)

    def read(self) -> list[Fact]:
        tree = _parser().parse(self.src)
        body = next((c for c in tree.root_node.children if c.type == "body"), None)
        for block in (body.children if body is not None else []):
            if block.type == "block":
                self.top(block)
        if not self.out.facts and tree.root_node.has_error and self.src.strip():
            raise ValueError(f"syntax error at line {_first_error(tree.root_node)}")  # a warning naming the file
        return self.out.facts

    def labels(self, block) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
        ident = next((c for c in block.children if c.type == "identifier"), None)
        labels = []
        for c in block.children:
            if c.type == "string_lit":
                labels.append(_string_literal(c, self.src) or "")
            elif c.type == "identifier" and c is not ident:
                labels.append(_text(c, self.src))
        return (_text(ident, self.src) if ident is not None else ""), labels

    def top(self, block) -> None:  # type: ignore[no-untyped-def]
        kind, labels = self.labels(block)
        if kind not in _TOP_BLOCKS:
            return
        line = block.start_point[0] + 1
        body = next((c for c in block.children if c.type == "body"), None)
        if kind == "locals":
            for attr in (body.children if body is not None else []):
                if attr.type == "attribute":
                    name = _text(attr.children[0], self.src)
                    owner = f"local.{name}"
                    self.out.block(attr.start_point[0] + 1, "local", owner)
                    self.value(owner, "", self.expression_of(attr))
            return
        if kind in ("resource", "data") and len(labels) == 2:
            rtype, label = labels
            address = f"{rtype}.{label}" if kind == "resource" else f"data.{rtype}.{label}"
            self.out.block(line, kind, address, rtype, label)
            self.body(address, "", body)
        elif kind == "module" and labels:
            address = f"module.{labels[0]}"
            source = self.attribute_literal(body, "source")
            self.out.block(line, "module", address, source or "", labels[0])
            self.body(address, "", body, skip=("source", "version", "providers", "depends_on", "count", "for_each"))
        elif kind == "variable" and labels:
            address = f"var.{labels[0]}"
            self.out.block(line, "variable", address)
            for attr in (body.children if body is not None else []):
                if attr.type == "attribute" and _text(attr.children[0], self.src) == "default":
                    self.value(address, "", self.expression_of(attr))
        elif kind == "output" and labels:
            address = f"output.{labels[0]}"
            self.out.block(line, "output", address)
            for attr in (body.children if body is not None else []):
                if attr.type == "attribute" and _text(attr.children[0], self.src) == "value":
                    self.value(address, "", self.expression_of(attr))

    def attribute_literal(self, body, name: str) -> str | None:  # type: ignore[no-untyped-def]
        for attr in (body.children if body is not None else []):
            if attr.type == "attribute" and _text(attr.children[0], self.src) == name:
                node = _unwrap(self.expression_of(attr))
                if node is not None and node.type == "literal_value" and _named(node)[0].type == "string_lit":
                    return _string_literal(_named(node)[0], self.src)
        return None

    @staticmethod
    def expression_of(attr):  # type: ignore[no-untyped-def]
        return next((c for c in attr.children if c.type == "expression"), None)

    def body(self, owner: str, prefix: str, body, skip: tuple[str, ...] = ("depends_on", "lifecycle", "provider",  # type: ignore[no-untyped-def]
                                                                          "count", "for_each")) -> None:
        if body is None:
            return
        seen: dict[str, int] = {}
        for child in body.children:
            if child.type == "attribute":
                name = _text(child.children[0], self.src)
                if name in skip:
                    continue
                self.value(owner, f"{prefix}{name}", self.expression_of(child))
            elif child.type == "block":
                name, labels = self.labels(child)
                if name in skip:
                    continue
                inner = next((c for c in child.children if c.type == "body"), None)
                if name == "dynamic" and labels:
                    self.dynamic(owner, prefix, labels[0], inner)
                    continue
                index = seen.get(name, 0)
                seen[name] = index + 1
                self.body(owner, f"{prefix}{name}[{index}].", inner, skip=())

    def dynamic(self, owner: str, prefix: str, name: str, body) -> None:  # type: ignore[no-untyped-def]
        """``dynamic "env" { for_each = X; content { name = env.value.name } }``: the collection at
        ``env[*]#`` and the content at ``env[*].``, its iterator written ``iter`` (the evaluation
        makes one block per item)."""
        children = body.children if body is not None else []
        iterator = name
        for attr in children:
            if attr.type == "attribute":
                attr_name = _text(attr.children[0], self.src)
                if attr_name == "for_each":
                    self.value(owner, f"{prefix}{name}[*]#", self.expression_of(attr))
                elif attr_name == "iterator":
                    iterator = _text(self.expression_of(attr), self.src).strip()
        content = next((b for b in children if b.type == "block" and self.labels(b)[0] == "content"), None)
        inner = next((c for c in content.children if c.type == "body"), None) if content is not None else None
        self.expr.iterators.add(iterator)
        try:
            self.body(owner, f"{prefix}{name}[*].", inner, skip=())
        finally:
            self.expr.iterators.discard(iterator)

    def value(self, owner: str, key: str, node) -> None:  # type: ignore[no-untyped-def]
        """The leaves of an expression: objects and tuples give keys, the rest one leaf."""
        node = _unwrap(node)
        if node is None:
            return
        dot = "." if key else ""
        if node.type == "collection_value":
            node = _named(node)[0]
        if node.type == "object":
            for elem in (c for c in node.children if c.type == "object_elem"):
                k_node, v_node = [c for c in elem.children if c.type == "expression"][:2]
                k_inner = _unwrap(k_node)
                if k_inner is not None and k_inner.type == "literal_value" and _named(k_inner)[0].type == "string_lit":
                    k = _string_literal(_named(k_inner)[0], self.src) or "?"
                else:
                    k = _text(k_node, self.src).strip()
                self.value(owner, f"{key}{dot}{k}", v_node)
            return
        if node.type == "tuple":
            for i, elem in enumerate(c for c in node.children if c.type == "expression"):
                self.value(owner, f"{key}[{i}]", elem)
            return
        if node.type == "function_call":
            name_node = next((c for c in node.children if c.type == "identifier"), None)
            name = _text(name_node, self.src) if name_node is not None else ""
            args = next((c for c in node.children if c.type == "function_arguments"), None)
            exprs = [c for c in args.children if c.type == "expression"] if args is not None else []
            if name in _STRUCTURAL and exprs:
                for arg in exprs:
                    self.value(owner, key, arg)
                return
        if node.type == "for_expr":
            self.out.leaf(node.start_point[0] + 1, owner, key, UNKNOWN, self.expr.refs(node))
            return
        self.out.leaf(node.start_point[0] + 1, owner, key, self.expr.template(node), self.expr.refs(node))


def _first_error(node) -> int:  # type: ignore[no-untyped-def]
    """The line of the first syntax error under `node`."""
    stack = [node]
    while stack:
        n = stack.pop(0)
        if n.type == "ERROR" or n.is_missing:
            return n.start_point[0] + 1
        stack = [c for c in n.children if c.has_error or c.is_missing or c.type == "ERROR"] + stack
    return node.start_point[0] + 1


def read_terraform(repo: str, path: str, text: str) -> list[Fact]:
    return _Reader(repo, path, text).read()


READERS = (
    Reader("terraform", "descriptor", 430, read_terraform, patterns=(r"[^/]*\.tf",)),
)
