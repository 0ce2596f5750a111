"""The landscape's shared store: what one repository's extraction produced, and what one system's
resolution produced, each in one file named by a digest of everything it depends on.

Every worker of a run must reach this folder (``--cache-dir``, default ``$REPOMODELER_HOME/landscape``):
on one machine it is a local folder; on a cluster, a shared folder every worker mounts (NFS, SMB,
an object store mounted with a FUSE driver such as ``gcsfuse`` or ``s3fs``).  It needs nothing but
whole-file writes and renames: a file is written under a temporary name and renamed into place, so
a worker that dies mid-write leaves no half file, and two workers writing the same key write the
same bytes.  Entries are JSON (never pickle: the folder may be shared, and reading it must not run
code), gzip-compressed.

* ``repos/<fingerprint>.json.gz``: a repository's facts, warnings and inventory.  The fingerprint is
  a digest of the tool, the repository's name and commit and every file's blob id, so it is the
  extraction cache keyed by blob ids; a changed file changes it.
* ``systems/<fingerprint>.json.gz``: a resolved system's summary (its components and the references
  the landscape links by), so an unchanged system is not resolved again.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path

from repomodeler.extract.cache import FileOutcome
from repomodeler.records import ExtractResult, Fact, Inventory, Repository, SourceFile, Warning_

FORMAT = 1


def default_store_dir() -> Path:
    from repomodeler.acquire import home_dir

    return home_dir() / "landscape"


def _path(root: Path, kind: str, key: str) -> Path:
    return root / kind / key[:2] / f"{key}.json.gz"


def write_entry(root: Path, kind: str, key: str, data: object) -> None:
    """Write one entry whole (temporary file + rename): readers never see half of it."""
    path = _path(root, kind, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = gzip.compress(json.dumps({"format": FORMAT, "data": data}, separators=(",", ":"),
                                       ensure_ascii=False).encode("utf-8"), compresslevel=3, mtime=0)
    fd, tmp = tempfile.mkstemp(prefix=f".{key[:16]}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_entry(root: Path, kind: str, key: str) -> object | None:
    """The entry's data, or None when it is missing or unreadable (it is then made again)."""
    try:
        raw = json.loads(gzip.decompress(_path(root, kind, key).read_bytes()).decode("utf-8"))
    except (OSError, EOFError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        return None
    return raw.get("data")


def has_entry(root: Path, kind: str, key: str) -> bool:
    return _path(root, kind, key).is_file()


# ---- one repository's extraction ---------------------------------------------------------------
def extract_to_json(result: ExtractResult) -> dict[str, object]:
    """What resolution needs of one repository, without the checkout's location (a worker's path)."""
    by_path: dict[str, list[Fact]] = {}
    for f in result.facts:
        by_path.setdefault(f.path, []).append(f)
    warnings_by_path: dict[str, list[Warning_]] = {}
    for w in result.warnings:
        warnings_by_path.setdefault(w.path, []).append(w)
    paths = sorted(set(by_path) | set(warnings_by_path) | set(result.line_counts))
    return {
        "files": [[f.path, f.blob, f.size, f.language, f.role] for f in result.inventory.files],
        "skipped": dict(sorted(result.inventory.skipped.items())),
        "links": dict(sorted(result.inventory.links.items())),
        "outcomes": {p: FileOutcome(by_path.get(p, []), warnings_by_path.get(p, []), False,
                                    result.line_counts.get(p, 0)).to_json() for p in paths},
        "lines": sorted(result.line_counts),
        "parsed": result.parsed_files,
        "cached": result.cached_files,
    }


def extract_from_json(data: dict[str, object], repository: Repository) -> ExtractResult:
    files = [SourceFile(p, b, int(s), lang, role) for p, b, s, lang, role in data["files"]]  # type: ignore[union-attr]
    inventory = Inventory(repository=repository, files=files, skipped=dict(data["skipped"]),  # type: ignore[arg-type]
                          links=dict(data.get("links") or {}))  # type: ignore[arg-type, union-attr]
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    line_counts: dict[str, int] = {}
    counted = set(data["lines"])  # type: ignore[arg-type]
    for path, text in data["outcomes"].items():  # type: ignore[union-attr]
        outcome = FileOutcome.from_json(text, repository.name, path)
        facts.extend(outcome.facts)
        warnings.extend(outcome.warnings)
        if path in counted:
            line_counts[path] = outcome.lines
    return ExtractResult(repository=repository, inventory=inventory, facts=sorted(facts, key=Fact.order),
                         warnings=sorted(warnings), parsed_files=0, cached_files=0, line_counts=line_counts)
