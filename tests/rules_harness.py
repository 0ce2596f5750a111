"""Resolve small systems in memory: files -> facts -> resolver, with no git, no cache, no SysML
engine, so a resolver rule's test takes milliseconds.  Extraction is the real one (tree-sitter
queries and descriptor readers), so a test states the construct as a user would write it."""

from __future__ import annotations

import hashlib
from pathlib import Path

from repomodeler.extract import extract_file
from repomodeler.graph.base import SystemModel
from repomodeler.graph.build import resolve_system
from repomodeler.inventory import _skip_reason, _wanted, InventoryOptions, classify_role, promote_example_deployments
from repomodeler.languages import language_for_path
from repomodeler.records import ExtractResult, Inventory, RepoSpec, Repository, SourceFile


def resolve_files(repos: dict[str, dict[str, str]], name: str = "sys") -> SystemModel:
    results = []
    for repo, files in sorted(repos.items()):
        spec = RepoSpec(raw=repo, kind="path", location=f"/{repo}", ref=None, name=repo)
        repository = Repository(name=repo, spec=spec, checkout=Path(f"/{repo}"), kind="dir", commit=None, url=None)
        inventory_files, facts, warnings = [], [], []
        for path, text in sorted(files.items()):
            if not _wanted(path) or _skip_reason(path, len(text), InventoryOptions()):
                continue
            content = text.encode()
            inventory_files.append(SourceFile(path=path, blob=hashlib.sha1(content).hexdigest(), size=len(content),
                                              language=language_for_path(path), role=classify_role(path)))
        inventory_files = promote_example_deployments(inventory_files)
        for sf in inventory_files:
            if sf.role != "source":
                continue
            fs, ws, _parsed = extract_file(repo, sf, files[sf.path].encode())
            facts.extend(fs)
            warnings.extend(ws)
        results.append(ExtractResult(repository=repository, inventory=Inventory(repository, inventory_files),
                                     facts=facts, warnings=warnings))
    return resolve_system(name, results)


def edge_set(model: SystemModel) -> set[tuple[str, str]]:
    return {(c.source, c.target) for c in model.connections.values()}


def via(model: SystemModel, source: str, target: str) -> set[str]:
    return {c.attributes.get("via", "") for c in model.connections.values() if (c.source, c.target) == (source, target)}
