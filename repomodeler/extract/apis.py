"""The names API description reading had before the reader registry, for callers that still use
them (tests).  The readers live in :mod:`repomodeler.extract.readers` (proto, openapi, graphql)."""

from __future__ import annotations

from repomodeler.extract.readers.graphql import read_graphql
from repomodeler.extract.readers.openapi import read_openapi
from repomodeler.extract.readers.proto import read_proto
from repomodeler.extract.readers.registry import read_api as extract_api

__all__ = ["extract_api", "read_graphql", "read_openapi", "read_proto"]
