"""GraphQL schemas: the root operation fields, each an operation of the service's API."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


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
                facts.append(fact("http.route", repo, path, i, method=current.upper(), path=f"{current}.{m.group(1)}",
                                   framework="graphql"))
        depth += line.count("{") - line.count("}")
        if depth <= 0:
            current = None
    return facts


READERS = (
    Reader("graphql", "api", 100, read_graphql, patterns=(r"[^/]*\.(?:graphql|graphqls|gql)",)),
)
