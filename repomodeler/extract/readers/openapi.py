"""OpenAPI/Swagger documents: the HTTP API of the component whose folder holds them."""

from __future__ import annotations

import json
import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._yaml import load_yaml_documents, yaml
from repomodeler.records import Fact


_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_OPENAPI_HINT = re.compile(r'^\s*["\']?(openapi|swagger)["\']?\s*:', re.M)


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
    facts.append(fact("openapi.document", repo, path, 1, title=title))
    paths = doc.get("paths") or {}
    if isinstance(paths, dict):
        for p, ops in sorted(paths.items()):
            if not isinstance(ops, dict):
                continue
            for method in _HTTP_METHODS:
                if method in ops:
                    facts.append(fact("http.route", repo, path, lines.get(str(p), 1), method=method.upper(),
                                       path=str(p), framework="openapi"))
    return facts


READERS = (
    Reader("openapi", "api", 100, read_openapi, patterns=(r"[^/]*(?:openapi|swagger)[^/]*\.(?:ya?ml|json)",),
           shadows=("openapi.content",)),
    # A YAML or JSON file listed for another reason that starts like an OpenAPI document: the
    # inventory cannot look inside a file, so this reader lists nothing itself.
    Reader("openapi.content", "api", 110, read_openapi, patterns=(r"[^/]*\.(?:ya?ml|json)",),
           sniff=lambda path, head: bool(_OPENAPI_HINT.search(head)), lists=False),
)
