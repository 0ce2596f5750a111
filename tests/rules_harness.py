"""Resolve small systems in memory: files -> facts -> resolver, with no git, no cache, no SysML
engine, so a resolver rule's test takes milliseconds.  Extraction is the real one (tree-sitter
queries and descriptor readers), so a test states the construct as a user would write it."""

from __future__ import annotations

from repomodeler.graph.base import SystemModel
from repomodeler.graph.build import resolve_system
from repomodeler.rules.cases import extract_in_memory


def resolve_files(repos: dict[str, dict[str, str]], name: str = "sys") -> SystemModel:
    return resolve_system(name, extract_in_memory(repos))


def edge_set(model: SystemModel) -> set[tuple[str, str]]:
    return {(c.source, c.target) for c in model.connections.values()}


def via(model: SystemModel, source: str, target: str) -> set[str]:
    return {c.attributes.get("via", "") for c in model.connections.values() if (c.source, c.target) == (source, target)}
