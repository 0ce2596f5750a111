"""OpenAPI/Swagger documents: the HTTP API of the component whose folder holds them."""

from __future__ import annotations

import json
import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import load_yaml_documents, yaml
from repomodeler.records import Fact


# The version line an OpenAPI/Swagger document starts with (`openapi: 3.1.0`, `swagger: "2.0"`): a
# YAML file holding it is an API description, not configuration (see spring.content).
OPENAPI_DOCUMENT = re.compile(r'^["\']?(openapi|swagger)["\']?\s*:\s*["\']?[0-9]', re.M)
_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
OPENAPI_HINT = re.compile(r'^\s*["\']?(openapi|swagger)["\']?\s*:', re.M)


def _line_index(text: str) -> dict[str, int]:
    """First line of each `  /path:` key in a YAML or JSON OpenAPI document."""
    index: dict[str, int] = {}
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r'^\s*["\']?(/[^"\':]*)["\']?\s*:', raw)
        if m:
            index.setdefault(m.group(1), i)
    return index


# JSON Schema scalar types -> the Protocol Buffers scalar names the model's message fields use
# (records.MessageField), so an OpenAPI property is typed like a proto field (emit/typed_apis.py).
SCALARS = {"string": "string", "integer": "int64", "number": "double", "boolean": "bool"}
_REF = re.compile(r"^#/(?:components/schemas|definitions)/(.+)$")


def schema_package(path: str) -> str:
    """The namespace of one document's schemas in the model: its path, as a dotted lowercase word
    (``docs/openapi.yaml`` -> ``docs_openapi_yaml``), so two documents' ``Error`` schemas stay apart."""
    return re.sub(r"[^a-z0-9]+", "_", path.lower()).strip("_")


def _ref_name(schema: object) -> tuple[str, bool]:
    """(schema name, is an array) of a ``$ref`` schema or an array of one; ("", False) otherwise."""
    if not isinstance(schema, dict):
        return "", False
    if schema.get("type") == "array":
        inner, _ = _ref_name(schema.get("items"))
        return inner, bool(inner)
    ref = schema.get("$ref")
    m = _REF.match(ref) if isinstance(ref, str) else None
    return (m.group(1), False) if m else ("", False)


def _property_type(schema: object, package: str) -> tuple[str, bool]:
    """(field type, repeated) of a property: a scalar name, a qualified schema name, or "" (untyped)."""
    if not isinstance(schema, dict):
        return "", False
    if schema.get("type") == "array":
        inner, _ = _property_type(schema.get("items"), package)
        return inner, True
    name, _ = _ref_name(schema)
    if name:
        return f"{package}.{name}", False
    kind = schema.get("type")
    return (SCALARS.get(kind, ""), False) if isinstance(kind, str) else ("", False)


def _body(op: dict, side: str) -> object:  # type: ignore[type-arg]
    """The JSON schema of an operation's request body or success response (OpenAPI 3 or Swagger 2)."""
    def content_schema(holder: object) -> object:
        if not isinstance(holder, dict):
            return None
        content = holder.get("content")
        if isinstance(content, dict) and content:
            media = content.get("application/json") or next(iter(content[k] for k in sorted(content)), None)
            return media.get("schema") if isinstance(media, dict) else None
        return holder.get("schema")
    if side == "request":
        found = content_schema(op.get("requestBody"))
        if found is None:
            params = op.get("parameters")
            body = next((p for p in params if isinstance(p, dict) and p.get("in") == "body"), None) \
                if isinstance(params, list) else None
            found = body.get("schema") if body else None
        return found
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None
    code = next((c for c in sorted(responses, key=str) if str(c).startswith("2")), None)
    return content_schema(responses.get(code)) if code is not None else None


def _key_line(lines: list[str], key: str, start: int) -> int:
    """The 1-based line at or after `start` (0-based) where mapping key `key` is written, else start + 1."""
    pattern = re.compile(r'^\s*["\']?' + re.escape(key) + r'["\']?\s*:')
    for i in range(start, len(lines)):
        if pattern.match(lines[i]):
            return i + 1
    return start + 1


def _schemas(repo: str, path: str, doc: dict, text: str) -> list[Fact]:  # type: ignore[type-arg]
    """An ``openapi.schema`` fact per named schema and an ``openapi.property`` per property, typed."""
    components = doc.get("components")
    schemas = components.get("schemas") if isinstance(components, dict) else doc.get("definitions")
    if not isinstance(schemas, dict):
        return []
    package, lines = schema_package(path), text.splitlines()
    section = _key_line(lines, "schemas" if isinstance(components, dict) else "definitions", 0) - 1
    facts = []
    for name in sorted(schemas, key=str):
        schema = schemas[name]
        if not isinstance(schema, dict):
            continue
        at = _key_line(lines, str(name), section)
        facts.append(fact("openapi.schema", repo, path, at, package=package, name=str(name)))
        props = schema.get("properties")
        if not isinstance(props, dict):
            continue
        for prop in props:  # in the order written
            type_, repeated = _property_type(props[prop], package)
            facts.append(fact("openapi.property", repo, path, _key_line(lines, str(prop), at), package=package,
                              schema=str(name), name=str(prop), type=type_, repeated="true" if repeated else ""))
    return facts


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
    facts.append(fact("openapi.document", repo, path, 1, title=title))
    paths = doc.get("paths") or {}
    package = schema_package(path)
    if isinstance(paths, dict):
        for p, ops in sorted(paths.items()):
            if not isinstance(ops, dict):
                continue
            for method in _HTTP_METHODS:
                if method in ops:
                    op = ops[method] if isinstance(ops[method], dict) else {}
                    bodies = {side: _ref_name(_body(op, side))[0] for side in ("request", "response")}
                    facts.append(fact("http.route", repo, path, lines.get(str(p), 1), method=method.upper(),
                                       path=str(p), framework="openapi",
                                       **{side: f"{package}.{name}" for side, name in bodies.items() if name}))
    facts.extend(_schemas(repo, path, doc, text))
    return facts


# ---- generated clients: the tools' configuration names the document the client is generated from
# A generator's command line in a package.json script: the tool, then its arguments up to the next command.
_GENERATOR_CALL = re.compile(r"\b(openapi-generator(?:-cli)?|swagger-codegen(?:-cli)?|openapi-typescript(?:-codegen)?"
                             r"|openapi-python-client|oapi-codegen|nswag|orval)\b([^&;|]*)")
_SPEC_FLAG = re.compile(r"(?:^|\s)(?:-i|--input-spec|--input|-input|--url|--path|/input:|-url)[\s=:]+['\"]?([^\s'\"]+)")
_SPEC_ARG = re.compile(r"(?:^|\s)['\"]?((?:https?://|\.{0,2}/)?[^\s'\"-][^\s'\"]*\.(?:ya?ml|json))\b")


def _line_of(text: str, needle: str) -> int:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _client(repo: str, path: str, text: str, spec: object, generator: str) -> list[Fact]:
    if not isinstance(spec, str) or not spec.strip() or "{" in spec or "$" in spec:
        return []  # no document, or one templated at build time
    spec = spec.strip()
    return [fact("openapi.client", repo, path, _line_of(text, spec), spec=spec, generator=generator)]


def read_openapi_clients(repo: str, path: str, text: str) -> list[Fact]:
    """An ``openapi.client`` fact per OpenAPI document a client is generated from, with the
    reference as written (a path, often into the server's repository, or a URL): openapi-generator's
    ``openapitools.json`` (``inputSpec``), an NSwag document (``documentGenerator.fromDocument``), and
    the generator commands of package.json scripts (openapi-generator, swagger-codegen,
    openapi-typescript, NSwag, orval, oapi-codegen, openapi-python-client)."""
    name = path.rsplit("/", 1)[-1].lower()
    facts: list[Fact] = []
    if name == "package.json":
        if not _GENERATOR_CALL.search(text):
            return []
        scripts = json.loads(text).get("scripts")
        if not isinstance(scripts, dict):
            return []
        for _key, command in sorted(scripts.items()):
            if not isinstance(command, str):
                continue
            for tool, args in _GENERATOR_CALL.findall(command):
                m = _SPEC_FLAG.search(args) or _SPEC_ARG.search(args)
                if m:
                    facts.extend(_client(repo, path, text, m.group(1), tool.removesuffix("-cli")))
        return facts
    doc = json.loads(text)
    if not isinstance(doc, dict):
        return []
    if name == "openapitools.json":
        cli = doc.get("generator-cli")
        generators = cli.get("generators") if isinstance(cli, dict) else None
        for _key, gen in sorted(generators.items()) if isinstance(generators, dict) else ():
            if isinstance(gen, dict):
                facts.extend(_client(repo, path, text, gen.get("inputSpec"), "openapi-generator"))
        return facts
    source = doc.get("documentGenerator")  # an NSwag document
    source = source.get("fromDocument") if isinstance(source, dict) else None
    if isinstance(source, dict):
        facts.extend(_client(repo, path, text, source.get("url"), "nswag"))
    return facts


READERS = (
    Reader("openapi.clients", "api", 90, read_openapi_clients, names=frozenset({"openapitools.json", "nswag.json"}),
           patterns=(r"[^/]*\.nswag",), shadows=("openapi", "openapi.content")),
    Reader("openapi.scripts", "api", 91, read_openapi_clients, names=frozenset({"package.json"}), lists=False,
           shadows=("openapi.content",)),
    Reader("openapi", "api", 100, read_openapi, patterns=(r"[^/]*(?:openapi|swagger)[^/]*\.(?:ya?ml|json)",),
           shadows=("openapi.content",)),
    # A YAML or JSON file listed for another reason that starts like an OpenAPI document: the
    # inventory cannot look inside a file, so this reader lists nothing itself.
    Reader("openapi.content", "api", 110, read_openapi, patterns=(r"[^/]*\.(?:ya?ml|json)",),
           sniff=lambda path, head: bool(OPENAPI_HINT.search(head)), lists=False),
)
