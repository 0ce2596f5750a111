"""API descriptions kept in a repository: Protocol Buffers service definitions and OpenAPI/Swagger.

A ``.proto`` ``service`` with its ``rpc``s is the contract of a gRPC API; which component provides
it is decided later by the resolver from server registrations (``grpc.server`` facts).  An OpenAPI
document describes the HTTP API of the component whose folder holds it.
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

import yaml

from repomodeler.extract.descriptors import load_yaml_documents
from repomodeler.records import Fact, Warning_

_SERVICE = re.compile(r"^\s*service\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
_RPC = re.compile(r"^\s*rpc\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*(stream\s+)?([A-Za-z0-9_.]+)\s*\)\s*returns\s*\(\s*(stream\s+)?([A-Za-z0-9_.]+)")
_PACKAGE = re.compile(r"^\s*package\s+([A-Za-z0-9_.]+)\s*;")
_BLOCK = re.compile(r"^\s*(message|enum|oneof)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{")
_FIELD = re.compile(r"^\s*(?:(repeated|optional|required)\s+)?"
                    r"(map\s*<\s*[A-Za-z0-9_.]+\s*,\s*([A-Za-z0-9_.]+)\s*>|[A-Za-z_.][A-Za-z0-9_.]*)\s+"
                    r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\d+)")
_ENUM_VALUE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*-?(?:0x)?[0-9A-Fa-f]+")
_NOT_FIELDS = {"option", "reserved", "extensions", "extend", "message", "enum", "oneof", "rpc", "service"}
_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPENAPI_NAME = re.compile(r"(^|/)[^/]*(openapi|swagger)[^/]*\.(ya?ml|json)$", re.I)


def _fact(kind: str, repo: str, file: str, line: int, **attrs: str) -> Fact:
    return Fact(kind=kind, repository=repo, path=file, line=line, language="config",
                attrs=tuple(sorted((k, v) for k, v in attrs.items() if v)))


def read_proto(repo: str, path: str, text: str) -> list[Fact]:
    """Services, rpcs, messages (with their fields) and enums (with their values) of a ``.proto`` file.

    Line-oriented with a stack of open blocks: nested messages and enums are named ``Outer.Inner`` (the
    ``message`` attribute of their facts, the ``package`` apart), fields of a ``oneof`` belong to the
    message around it, a ``map<K, V>`` field is read as a repeated ``V``.  Types are kept as written; the
    resolver qualifies them (it knows every file's messages).
    """
    facts: list[Fact] = []
    package = ""
    service = None
    depth = 0
    stack: list[tuple[str, str]] = []  # (block kind, name): message / enum / oneof / other
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//", 1)[0]
        m = _PACKAGE.match(line)
        if m:
            package = m.group(1)
        m = _SERVICE.match(line)
        if m and service is None:
            service = m.group(1)
            depth = 0
            facts.append(_fact("grpc.service", repo, path, i, service=service, package=package))
        if service is not None:
            m = _RPC.match(line)
            if m:
                stream = {(True, True): "both", (True, False): "request", (False, True): "response"}.get(
                    (bool(m.group(2)), bool(m.group(4))), "")
                facts.append(_fact("grpc.rpc", repo, path, i, service=service, rpc=m.group(1), package=package,
                                   request=m.group(3), response=m.group(5), stream=stream))
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                service = None
            continue
        messages = [name for kind, name in stack if kind == "message"]
        top = stack[-1][0] if stack else ""
        opened = line.count("{")
        members = [line]
        m = _BLOCK.match(line)
        if m and (m.group(1) != "oneof" or top == "message"):
            kind, name = m.group(1), m.group(2)
            if kind == "oneof":
                stack.append(("oneof", messages[-1]))
            else:
                stack.append((kind, name))
                qualified = ".".join([*messages, name])
                messages = messages + [name] if kind == "message" else messages
                if kind == "message":
                    facts.append(_fact("proto.message", repo, path, i, message=qualified, package=package))
                else:
                    facts.append(_fact("proto.enum", repo, path, i, enum=qualified, package=package))
            opened -= 1
            top = stack[-1][0]
            members = line[m.end():].split(";")  # `message GetCartRequest { string user_id = 1; }`
        for member in members:
            if top in ("message", "oneof") and messages:
                f = _FIELD.match(member)
                if f and f.group(2).split("<")[0].strip() not in _NOT_FIELDS:
                    ftype = f.group(3) or f.group(2)
                    facts.append(_fact("proto.field", repo, path, i, message=".".join(messages), package=package,
                                       name=f.group(4), type=ftype, number=f.group(5),
                                       repeated="true" if f.group(1) == "repeated" or f.group(3) else ""))
            elif top == "enum":
                v = _ENUM_VALUE.match(member)
                if v and v.group(1) not in _NOT_FIELDS:
                    enum = ".".join([*messages, stack[-1][1]])
                    facts.append(_fact("proto.enum_value", repo, path, i, enum=enum, package=package,
                                       value=v.group(1)))
        stack.extend(("other", "") for _ in range(max(opened, 0)))
        for _ in range(line.count("}")):
            if stack:
                stack.pop()
    return facts


def _line_index(text: str) -> dict[str, int]:
    """First line of each `  /path:` key in a YAML or JSON OpenAPI document."""
    index: dict[str, int] = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r'^\s*["\']?(/[^"\':]*)["\']?\s*:', raw)
        if m:
            index.setdefault(m.group(1), i)
    return index


def read_openapi(repo: str, path: str, text: str) -> list[Fact]:
    if path.lower().endswith(".json"):
        doc = json.loads(text)
    else:
        docs = load_yaml_documents(text)
        if not docs:
            return []
        doc = yaml.safe_load(text)
    if not isinstance(doc, dict) or not ("openapi" in doc or "swagger" in doc):
        return []
    lines = _line_index(text)
    facts = []
    title = str((doc.get("info") or {}).get("title", "")) if isinstance(doc.get("info"), dict) else ""
    facts.append(_fact("openapi.document", repo, path, 1, title=title))
    paths = doc.get("paths") or {}
    if isinstance(paths, dict):
        for p, ops in sorted(paths.items()):
            if not isinstance(ops, dict):
                continue
            for method in _HTTP_METHODS:
                if method in ops:
                    facts.append(_fact("http.route", repo, path, lines.get(str(p), 1), method=method.upper(),
                                       path=str(p), framework="openapi"))
    return facts


_GQL_TYPE = re.compile(r"^\s*(?:extend\s+)?type\s+(Query|Mutation|Subscription)\b[^{]*\{")
_GQL_FIELD = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[(:]")


def read_graphql(repo: str, path: str, text: str) -> list[Fact]:
    """Root operation fields of a GraphQL schema: each is an operation of the service's API."""
    facts: list[Fact] = []
    current: str | None = None
    depth = 0
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0]
        if current is None:
            m = _GQL_TYPE.match(line)
            if m:
                current, depth = m.group(1), line.count("{") - line.count("}")
            continue
        if depth == 1:
            m = _GQL_FIELD.match(line)
            if m:
                facts.append(_fact("http.route", repo, path, i, method=current.upper(), path=f"{current}.{m.group(1)}",
                                   framework="graphql"))
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            current = None
    return facts


def api_reader(path: str, head: str):
    low = PurePosixPath(path).name.lower()
    if low.endswith(".proto"):
        return read_proto
    if low.endswith((".graphql", ".graphqls", ".gql")):
        return read_graphql
    if OPENAPI_NAME.search(path) or (low.endswith((".yml", ".yaml", ".json"))
                                     and re.search(r'^\s*["\']?(openapi|swagger)["\']?\s*:', head, re.M)):
        return read_openapi
    return None


def extract_api(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return [], [Warning_(repo, path, 0, "not valid UTF-8; skipped")]
    reader = api_reader(path, text[:4096])
    if reader is None:
        return [], []
    try:
        return sorted(set(reader(repo, path, text))), []
    except (ValueError, yaml.YAMLError, RecursionError, TypeError, AttributeError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return [], [Warning_(repo, path, 0, f"malformed API description {PurePosixPath(path).name}: {first[:200]}; skipped")]
