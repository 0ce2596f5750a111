"""Incremental extraction cache: facts per (git blob, path, language, query-set version) in SQLite.

A file's facts are a pure function of its bytes, its path (file-name rules pick the readers) and
the query files of its language, so that tuple is the key.  Changing one language's ``.scm`` files
changes only that language's version and so invalidates only its entries; changing the engine or
the descriptor readers changes every version.  The database uses WAL and one transaction per
write batch: a crash mid-run loses at most that batch, and concurrent runs can share it.
A corrupt file (a disk error, a truncated copy) is moved aside with a one-line warning and the
cache starts empty: it only ever costs a re-parse, never a failed run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from functools import lru_cache
from pathlib import Path

from repomodeler import __version__
from repomodeler.languages import all_languages, query_files
from repomodeler.records import Fact, SourceFile, Warning_
from repomodeler.sqlite import enable_wal, full_error, is_corruption, is_full, move_aside

SCHEMA_VERSION = 1


@lru_cache(maxsize=None)
def _code_version() -> str:
    """The extraction code: every module of this package and of its descriptor readers, so a change
    to any reader (or a reader added) invalidates the cache."""
    h = hashlib.sha256(f"{__version__}:{SCHEMA_VERSION}".encode())
    here = Path(__file__).parent
    for path in sorted([*here.glob("*.py"), *here.glob("readers/*.py")]):
        if path.name != "cache.py":
            h.update(path.relative_to(here).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


@lru_cache(maxsize=None)
def language_version(language: str | None) -> str:
    """Version of the extractors for one language: its query files plus the shared engine code."""
    h = hashlib.sha256(_code_version().encode())
    if language:
        for path in query_files(language):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


class FileOutcome:
    """What extraction produced for one file, independent of the repository it sits in."""

    __slots__ = ("facts", "warnings", "parsed", "lines", "_json")

    def __init__(self, facts: list[Fact], warnings: list[Warning_], parsed: bool, lines: int) -> None:
        self.facts = facts
        self.warnings = warnings
        self.parsed = parsed
        self.lines = lines
        self._json: str | None = None  # the text it was read from, reused when it is cached

    def to_json(self) -> str:
        if self._json is not None:
            return self._json
        return json.dumps({
            "f": [[f.kind, f.line, f.language, [list(a) for a in f.attrs], f.rule] for f in self.facts],
            "w": [[w.line, w.message] for w in self.warnings],
            "p": self.parsed, "n": self.lines,
        }, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, repository: str, path: str) -> "FileOutcome":
        d = json.loads(text)
        # Positional arguments and map(tuple, ...): this runs once per fact of every file on a cold
        # run (the workers' results) and on every cached read, so it is kept lean.
        facts = [Fact(e[0], repository, path, e[1], e[2], tuple(map(tuple, e[3])), e[4] if len(e) > 4 else "")
                 for e in d["f"]]
        warnings = [Warning_(repository, path, line, msg) for line, msg in d["w"]]
        outcome = cls(facts, warnings, bool(d["p"]), int(d["n"]))
        outcome._json = text
        return outcome


def current_versions() -> list[str]:
    """Every version a key of this code can carry: one per language, one for files of no language."""
    return sorted({language_version(None), *(language_version(name) for name in all_languages())})


def cache_key(f: SourceFile) -> str:
    return f"{f.blob}:{language_version(f.language)}:{f.path}"


class FactCache:
    """SQLite-backed map from cache key to a file's extraction outcome (rebuilt if found corrupt)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db: sqlite3.Connection | None = None
        self.forgotten = 0  # rows of other extractor versions dropped when this cache was opened
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            if is_full(exc):
                self.close()
                raise full_error(self.path, "fact cache") from None
            if not is_corruption(exc):
                raise
            self._rebuild()

    def _open(self) -> None:
        self.db = sqlite3.connect(str(self.path), timeout=30, isolation_level=None)
        enable_wal(self.db)
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS facts (key TEXT PRIMARY KEY, data TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS validated (digest TEXT PRIMARY KEY)")
        self.db.execute("CREATE TABLE IF NOT EXISTS published (fingerprint TEXT PRIMARY KEY)")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
        self._forget_other_versions()

    def _forget_other_versions(self) -> None:
        """After an upgrade (or any change to the extraction code) no key of the old code can ever be
        read again: drop those rows once, when this code first opens the cache, so the file does not
        grow by a copy of every repository per version installed. Space is reused, not returned;
        `cache prune` also gives it back to the disk."""
        versions = " ".join(current_versions())
        row = self.db.execute("SELECT v FROM meta WHERE k = 'versions'").fetchone()
        if row is not None and row[0] == versions:
            return
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.forgotten += self._delete_stale()
            self.db.execute("INSERT OR REPLACE INTO meta (k, v) VALUES ('versions', ?)", (versions,))

    def _delete_stale(self) -> int:
        """Delete the rows whose key names an extractor version this code does not have."""
        current = current_versions()
        marks = ",".join("?" * len(current))
        # key = blob ':' version(16 hex) ':' path; the blob has no ':'
        cur = self.db.execute(
            f"DELETE FROM facts WHERE substr(key, instr(key, ':') + 1, 16) NOT IN ({marks})", current)
        return int(cur.rowcount)

    def _rebuild(self) -> None:
        """Move the corrupt file aside (one warning line) and start an empty cache."""
        if self.db is not None:
            self.db.close()
            self.db = None
        move_aside(self.path, "fact cache")
        self._open()

    def _guard(self, op, on_rebuilt):  # type: ignore[no-untyped-def]
        """Run `op()`; if the file turns out corrupt, rebuild it and return `on_rebuilt()`; a full
        disk is the user's to fix: one line naming the file."""
        try:
            return op()
        except sqlite3.DatabaseError as exc:
            if is_full(exc):
                raise full_error(self.path, "fact cache") from None
            if not is_corruption(exc):
                raise
        self._rebuild()
        return on_rebuilt()

    def get_many(self, files: list[SourceFile], repository: str) -> dict[str, FileOutcome]:
        return self._guard(lambda: self._get_many(files, repository), dict)

    def _get_many(self, files: list[SourceFile], repository: str) -> dict[str, FileOutcome]:
        keys = {cache_key(f): f for f in files}
        found: dict[str, FileOutcome] = {}
        items = list(keys)
        for i in range(0, len(items), 500):
            chunk = items[i:i + 500]
            rows = self.db.execute(f"SELECT key, data FROM facts WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            for key, data in rows:
                f = keys[key]
                found[f.path] = FileOutcome.from_json(data, repository, f.path)
        return found

    def put_many(self, entries: list[tuple[SourceFile, FileOutcome]]) -> None:
        if not entries:
            return
        self._guard(lambda: self._put_many(entries), lambda: self._put_many(entries))

    def _put_many(self, entries: list[tuple[SourceFile, FileOutcome]]) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR REPLACE INTO facts (key, data) VALUES (?, ?)",
                                [(cache_key(f), o.to_json()) for f, o in entries])

    def is_validated(self, digest: str) -> bool:
        return self._guard(lambda: self.db.execute("SELECT 1 FROM validated WHERE digest = ?",
                                                   (digest,)).fetchone() is not None, lambda: False)

    def mark_validated(self, digest: str) -> None:
        def op() -> None:
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO validated (digest) VALUES (?)", (digest,))
        self._guard(op, op)

    def is_published(self, fingerprint: str) -> bool:
        """Was a model made from exactly these inputs published before (see pipeline.input_fingerprint)?"""
        return self._guard(lambda: self.db.execute("SELECT 1 FROM published WHERE fingerprint = ?",
                                                   (fingerprint,)).fetchone() is not None, lambda: False)

    def mark_published(self, fingerprint: str) -> None:
        def op() -> None:
            with self.db:
                self.db.execute("INSERT OR IGNORE INTO published (fingerprint) VALUES (?)", (fingerprint,))
        self._guard(op, op)

    def count(self) -> int:
        return int(self._guard(lambda: self.db.execute("SELECT COUNT(*) FROM facts").fetchone()[0], lambda: 0))

    def clear(self) -> int:
        def op() -> int:
            n = self.db.execute("SELECT COUNT(*) FROM facts").fetchone()[0]
            with self.db:
                self.db.execute("DELETE FROM facts")
                self.db.execute("DELETE FROM validated")
                self.db.execute("DELETE FROM published")
            self.db.execute("VACUUM")
            return int(n)
        return self._guard(op, lambda: 0)

    def prune(self) -> int:
        """Drop results no version of the installed extractors can read, and give the space back."""
        def op() -> int:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                n = self._delete_stale()
            self.db.execute("VACUUM")
            return n + self.forgotten
        return int(self._guard(op, lambda: 0))

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None


def default_cache_path() -> Path:
    from repomodeler.acquire import home_dir

    return home_dir() / "cache.sqlite"
