"""Extract: read every selected file of a repository into facts (tree-sitter sources, descriptors)."""

from __future__ import annotations

from typing import Callable

from repomodeler.extract.apis import api_reader, extract_api
from repomodeler.extract.descriptors import extract_descriptor, reader_for
from repomodeler.extract.engine import extract_source
from repomodeler.inventory import BlobReader
from repomodeler.records import ExtractResult, Fact, Inventory, SourceFile, Warning_

ProgressFn = Callable[[int], None]


def extract_file(repository: str, f: SourceFile, content: bytes) -> tuple[list[Fact], list[Warning_], bool]:
    """Facts of one file; the bool says whether tree-sitter parsed it.  Pure: same bytes, same facts."""
    if b"\0" in content[:8192]:
        return [], [Warning_(repository, f.path, 0, "binary content; skipped")], False
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    parsed = False
    if f.language is not None:
        fs, ws = extract_source(repository, f.path, f.language, content)
        facts.extend(fs)
        warnings.extend(ws)
        parsed = True
    head = content[:4096].decode("utf-8", "replace")
    if reader_for(f.path, head) is not None:
        fs, ws = extract_descriptor(repository, f.path, content)
        facts.extend(fs)
        warnings.extend(ws)
    if api_reader(f.path, head) is not None:
        fs, ws = extract_api(repository, f.path, content)
        facts.extend(fs)
        warnings.extend(ws)
    return facts, warnings, parsed


def extract_repository(inventory: Inventory, progress: ProgressFn | None = None) -> ExtractResult:
    """Run every extractor over the source-role files of one repository."""
    repo = inventory.repository
    wanted = [f for f in inventory.files if f.role == "source"]
    contents = BlobReader(repo).read_many(wanted)
    facts: list[Fact] = []
    warnings: list[Warning_] = list(inventory.warnings)
    parsed = 0
    for f in wanted:
        fs, ws, did_parse = extract_file(repo.name, f, contents.get(f.path, b""))
        if ws and any(w.message.startswith("binary") for w in ws):
            inventory.skipped["binary"] = inventory.skipped.get("binary", 0) + 1
        facts.extend(fs)
        warnings.extend(ws)
        parsed += int(did_parse)
        if progress:
            progress(1)
    return ExtractResult(repository=repo, inventory=inventory, facts=sorted(set(facts)),
                         warnings=sorted(set(warnings)), parsed_files=parsed)
