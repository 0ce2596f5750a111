"""Azure Bicep files: resources, module calls, parameters, variables and outputs.

An Azure system is often deployed only through Bicep: ``Microsoft.App/containerApps`` (or a module
that declares one, called once per service with its name, image and environment), Cosmos DB
accounts, Service Bus namespaces, API Management, Dapr components of the Container Apps
environment.  One file is one module; ``module api './container-app.bicep' = { params: {...} }``
calls another.

Parsed with the tree-sitter Bicep grammar (the ``tree-sitter-bicep`` wheel) into the facts of
:mod:`._iac`, written in Terraform's address words so one resolver reads both: a parameter is
``var.<name>``, a variable ``local.<name>``, a resource ``res.<symbol>``, a module call
``module.<symbol>`` (its ``outputs.x`` is read as the output ``x``), an output ``output.<name>``.
A module call's ``params`` are its inputs; a resource's properties keep their nesting
(``properties.template.containers[0].env[1].value``).  ``if (...)`` and ``[for ...]`` bodies are
read as the one resource or module they declare.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._iac import UNKNOWN, Leaves, plain_address
from repomodeler.records import Fact


@lru_cache(maxsize=1)
def _parser():  # type: ignore[no-untyped-def]
    import tree_sitter_bicep
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bicep.language()))


def _named(node):  # type: ignore[no-untyped-def]
    return [c for c in node.children if c.is_named and c.type not in ("comment", "decorators")]


class _Reader:
    def __init__(self, repo: str, path: str, text: str) -> None:
        self.src = text.encode("utf-8")
        self.out = Leaves("bicep", repo, path, path)
        self.symbols: dict[str, str] = {}  # symbol -> address

    def text(self, node) -> str:  # type: ignore[no-untyped-def]
        return self.src[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def read(self) -> list[Fact]:
        root = _parser().parse(self.src).root_node
        decls = [c for c in root.children if c.type.endswith("_declaration")]
        prefix = {"parameter_declaration": "var", "variable_declaration": "local", "resource_declaration": "res",
                  "module_declaration": "module", "output_declaration": "output"}
        for d in decls:
            ident = next((c for c in d.children if c.type == "identifier"), None)
            if ident is not None and d.type in prefix and d.type != "output_declaration":
                self.symbols[self.text(ident)] = f"{prefix[d.type]}.{self.text(ident)}"
        for d in decls:
            self.declaration(d)
        if not self.out.facts and root.has_error and self.src.strip():
            from repomodeler.extract.readers.terraform import _first_error

            raise ValueError(f"syntax error at line {_first_error(root)}")  # a warning naming the file
        return self.out.facts

    def string(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """A string without interpolation, else None."""
        if node is None or node.type != "string":
            return None
        parts = [c for c in node.children if c.is_named]
        if all(c.type in ("string_content", "escape_sequence") for c in parts):
            return "".join(self.text(c) for c in parts)
        return None

    def declaration(self, d) -> None:  # type: ignore[no-untyped-def]
        ident = next((c for c in d.children if c.type == "identifier"), None)
        if ident is None:
            return
        name, line = self.text(ident), d.start_point[0] + 1
        value = d.children[-1] if d.children and d.children[-1].is_named else None
        if d.type == "parameter_declaration":
            self.out.block(line, "variable", f"var.{name}")
            if any(c.type == "=" for c in d.children) and value is not None:
                self.value(f"var.{name}", "", value)
        elif d.type == "variable_declaration":
            self.out.block(line, "local", f"local.{name}")
            if value is not None:
                self.value(f"local.{name}", "", value)
        elif d.type == "output_declaration":
            self.out.block(line, "output", f"output.{name}")
            if value is not None:
                self.value(f"output.{name}", "", value)
        elif d.type in ("resource_declaration", "module_declaration"):
            target = next((c for c in d.children if c.type == "string"), None)
            type_ = self.string(target) or ""
            body = self.body_of(value)
            if d.type == "resource_declaration":
                existing = any(c.type == "existing" for c in d.children)
                self.out.block(line, "resource", f"res.{name}", type_.split("@", 1)[0], name, existing,
                               each=_loops(value))
                if body is not None:
                    self.value(f"res.{name}", "", body)
            else:
                source = type_
                if source and not source.startswith(("br:", "br/", "ts:", "ts/")):
                    folder = PurePosixPath(self.out.path).parent
                    source = (folder / source).as_posix()
                self.out.block(line, "module", f"module.{name}", _normal(source), name)
                if body is not None:
                    for prop in (c for c in body.children if c.type == "object_property"):
                        key = self.key(prop)
                        v = _named(prop)[-1]
                        if key == "params":
                            self.value(f"module.{name}", "", v)
                        elif key == "name":
                            self.value(f"module.{name}", "name", v)

    def body_of(self, node):  # type: ignore[no-untyped-def]
        """The object a resource or module declares, through ``if (...)`` and ``[for ...]``."""
        while node is not None and node.type in ("if_statement", "for_statement"):
            node = next((c for c in reversed(node.children) if c.type in ("object", "if_statement")), None)
        return node if node is not None and node.type == "object" else None

    def key(self, prop) -> str:  # type: ignore[no-untyped-def]
        k = prop.children[0]
        return self.string(k) or self.text(k) if k.type == "string" else self.text(k)

    def value(self, owner: str, key: str, node) -> None:  # type: ignore[no-untyped-def]
        if node.type == "parenthesized_expression" and len(_named(node)) == 1:
            node = _named(node)[0]
        if node.type == "object":
            for prop in (c for c in node.children if c.type == "object_property"):
                k = self.key(prop)
                if k in ("dependsOn", "scope"):
                    continue
                self.value(owner, f"{key}.{k}" if key else k, _named(prop)[-1])
            return
        if node.type == "array":
            for i, item in enumerate(c for c in node.children if c.is_named and c.type != "comment"):
                self.value(owner, f"{key}[{i}]", item)
            return
        if node.type == "call_expression" and self.text(node.children[0]) == "union":
            # union(tags, { 'azd-service-name': serviceName }): the object literals' leaves are known
            # even though the merged whole is not
            args = next((c for c in node.children if c.type == "arguments"), None)
            for arg in (c for c in (args.children if args is not None else []) if c.type == "object"):
                self.value(owner, key, arg)
        if node.type == "ternary_expression":  # cond ? {...} : null keeps the structure of its branches
            branches = _named(node)[1:]
            if any(b.type in ("object", "array") for b in branches):
                for b in branches:
                    if b.type != "null":
                        self.value(owner, key, b)
                return
        self.out.leaf(node.start_point[0] + 1, owner, key, self.template(node), self.refs(node))

    def address(self, node) -> str | None:  # type: ignore[no-untyped-def]
        """A symbol or a member chain on one, as an address (``mod.outputs.fqdn`` -> ``module.mod.fqdn``)."""
        parts: list[str] = []
        while node is not None:
            if node.type == "identifier":
                symbol = self.symbols.get(self.text(node))
                if symbol is None:
                    return None
                parts.append(symbol)
                break
            if node.type == "member_expression":
                prop = node.children[-1]
                parts.append(self.text(prop))
                node = node.children[0]
            elif node.type == "subscript_expression":
                node = node.children[0]
            else:
                return None
        address = ".".join(reversed(parts))
        if address.startswith("module.") and ".outputs." in address:
            address = address.replace(".outputs.", ".", 1)
        return plain_address(address)

    def refs(self, node) -> set[str]:  # type: ignore[no-untyped-def]
        found: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type in ("identifier", "member_expression", "subscript_expression"):
                a = self.address(n)
                if a:
                    found.add(a)
                    continue
            if n.type == "object_property":
                stack.extend(n.children[1:])  # a property's name is no reference
                continue
            stack.extend(n.children)
        return found

    def template(self, node) -> str:  # type: ignore[no-untyped-def]
        a = self.address(node)
        if a is not None:
            return "${" + a + "}"
        if node.type == "string":
            out = []
            for c in node.children:
                if c.type in ("string_content", "escape_sequence"):
                    out.append(self.text(c))
                elif c.type == "interpolation":
                    inner = [x for x in c.children if x.is_named]
                    out.append(self.template(inner[0]) if inner else UNKNOWN)
            return "".join(out)
        if node.type == "multiline_string":
            return self.text(node).strip("'").strip("\n")
        if node.type in ("number", "boolean", "true", "false"):
            return self.text(node)
        if node.type == "null":
            return ""
        if node.type == "call_expression":
            fn = self.text(node.children[0])
            args = next((c for c in node.children if c.type == "arguments"), None)
            inner = [c for c in args.children if c.is_named] if args is not None else []
            if fn in ("toLower", "toUpper", "trim", "string") and len(inner) == 1:
                return self.template(inner[0])
            if fn == "format" and inner:
                fmt = self.template(inner[0])
                for i, arg in enumerate(inner[1:]):
                    fmt = fmt.replace("{%d}" % i, self.template(arg))
                return fmt
        return UNKNOWN


def _loops(node) -> bool:  # type: ignore[no-untyped-def]
    """Is the declaration's value a ``[for ...]`` (through ``if``): one resource per item?"""
    while node is not None and node.type == "if_statement":
        node = next((c for c in reversed(node.children) if c.type in ("object", "if_statement", "for_statement")), None)
    return node is not None and node.type == "for_statement"


def _normal(path: str) -> str:
    """``deploy/./modules/../app.bicep`` -> ``deploy/app.bicep``."""
    parts: list[str] = []
    for p in path.split("/"):
        if p in ("", "."):
            continue
        if p == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(p)
    return "/".join(parts)


def read_bicep(repo: str, path: str, text: str) -> list[Fact]:
    return _Reader(repo, path, text).read()


# A value the deployment tool fills in when it runs (`${AZURE_ENV_NAME}` of the Azure Developer CLI): unknown here.
_DEPLOY_VARIABLE = re.compile(r"\$\{[^}]*\}")
_USING = re.compile(r"""^\s*using\s+'([^']+)'""", re.M)
_PARAM = re.compile(r"""^\s*param\s+([A-Za-z_]\w*)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|(-?\d+|true|false))\s*(?://.*)?$""", re.M)


def _given(repo: str, path: str, line: int, module: str, name: str, value: str) -> Fact:
    """A parameter's value as the deployment gives it: `given` leaves stand in for the parameter's default."""
    return fact("iac.value", repo, path, line, module=module, owner=f"var.{name}",
                value=_DEPLOY_VARIABLE.sub(UNKNOWN, value), given="true")


def read_parameters_json(repo: str, path: str, text: str) -> list[Fact]:
    """An ARM deployment parameters file (``main.parameters.json`` beside ``main.bicep``, the file `az deployment`
    and the Azure Developer CLI deploy the template with): the values of the template's parameters, which a
    parameter declared without a default (``param backendApiServiceName string``) has nowhere else."""
    try:
        doc = json.loads(text)
    except ValueError:
        return []
    params = doc.get("parameters") if isinstance(doc, dict) else None
    if not isinstance(params, dict) or "deploymentParameters" not in str(doc.get("$schema", "")):
        return []
    module = _normal(str(PurePosixPath(path).parent / (PurePosixPath(path).name[: -len(".parameters.json")] + ".bicep")))
    lines = text.splitlines()
    out: list[Fact] = []
    for name, spec in params.items():
        value = spec.get("value") if isinstance(spec, dict) else None
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            continue
        line = next((i for i, ln in enumerate(lines, 1) if f'"{name}"' in ln), 1)
        out.append(_given(repo, path, line, module, name, str(value)))
    return out


def read_bicepparam(repo: str, path: str, text: str) -> list[Fact]:
    """A Bicep parameters file (``main.bicepparam``: ``using './main.bicep'``, then ``param name = 'value'``)."""
    using = _USING.search(text)
    if not using:
        return []
    module = _normal(str(PurePosixPath(path).parent / using.group(1)))
    return [_given(repo, path, text.count("\n", 0, m.start()) + 1, module, m.group(1),
                   m.group(2) if m.group(2) is not None else m.group(3)) for m in _PARAM.finditer(text)]


READERS = (
    Reader("bicep", "descriptor", 430, read_bicep, patterns=(r"[^/]*\.bicep",)),
    Reader("bicep.parameters", "descriptor", 431, read_parameters_json, patterns=(r"[^/]*\.parameters\.json",),
           sniff=lambda path, head: "deploymentParameters" in head),
    Reader("bicep.bicepparam", "descriptor", 432, read_bicepparam, patterns=(r"[^/]*\.bicepparam",)),
)
