"""Extract: read every selected file of a repository into facts (tree-sitter sources, descriptors)."""

from __future__ import annotations

from typing import Callable

from repomodeler.extract.apis import api_reader, extract_api
from repomodeler.extract.descriptors import extract_descriptor, reader_for
from repomodeler.extract.engine import extract_source
from repomodeler.inventory import BlobReader, is_lfs_pointer
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
        try:
            content.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = content.count(b"\n", 0, exc.start) + 1
            warnings.append(Warning_(repository, f.path, line,
                                     f"not valid UTF-8 near line {line}; read with replacement characters"))
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
    reader = BlobReader(repo)
    contents = reader.read_many(wanted)
    facts: list[Fact] = []
    warnings: list[Warning_] = list(inventory.warnings)
    parsed = 0
    for f in wanted:
        content = contents.get(f.path, b"")
        if f.path in reader.problems:
            warnings.append(Warning_(repo.name, f.path, 0, reader.problems[f.path]))
            inventory.skipped["unreadable"] = inventory.skipped.get("unreadable", 0) + 1
            if progress:
                progress(1)
            continue
        if is_lfs_pointer(content):  # the real file lives on an LFS server: data, not source
            inventory.skipped["lfs_pointer"] = inventory.skipped.get("lfs_pointer", 0) + 1
            if progress:
                progress(1)
            continue
        try:
            fs, ws, did_parse = extract_file(repo.name, f, content)
        except RecursionError:
            fs, ws, did_parse = [], [Warning_(repo.name, f.path, 0, "nested too deeply to read; skipped")], False
        except Exception as exc:  # one file must never sink a run: an extractor bug becomes a warning
            detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ""
            fs, ws, did_parse = [], [Warning_(repo.name, f.path, 0,
                                              f"internal error while reading ({type(exc).__name__}: {detail}); "
                                              "skipped, please report")], False
        if ws and any(w.message.startswith("binary") for w in ws):
            inventory.skipped["binary"] = inventory.skipped.get("binary", 0) + 1
        facts.extend(fs)
        warnings.extend(ws)
        parsed += int(did_parse)
        if progress:
            progress(1)
    return ExtractResult(repository=repo, inventory=inventory, facts=sorted(set(facts)),
                         warnings=sorted(set(warnings)), parsed_files=parsed)
