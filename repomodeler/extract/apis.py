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
_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPENAPI_NAME = re.compile(r"(^|/)[^/]*(openapi|swagger)[^/]*\.(ya?ml|json)$", re.I)


def _fact(kind: str, repo: str, file: str, line: int, **attrs: str) -> Fact:
    return Fact(kind=kind, repository=repo, path=file, line=line, language="config",
                attrs=tuple(sorted((k, v) for k, v in attrs.items() if v)))


def read_proto(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    package = ""
    service = None
    depth = 0
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
                facts.append(_fact("grpc.rpc", repo, path, i, service=service, rpc=m.group(1), package=package,
                                   request=m.group(3), response=m.group(5)))
            depth += line.count("{") - line.count("}")
            if depth <= 0 and "}" in line:
                service = None
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
