"""SQLite helpers shared by the fact cache and the run history (WAL switch, corruption recovery)."""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from pathlib import Path


def enable_wal(db: sqlite3.Connection, attempts: int = 50) -> None:
    """Switch to WAL once; the switch takes a lock that the busy timeout does not cover, so when
    several processes open a new database at once, the losers retry instead of failing."""
    for attempt in range(attempts):
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            time.sleep(0.02 * (attempt + 1))
    raise sqlite3.OperationalError("database is locked (could not switch to WAL)")


def is_corruption(exc: BaseException) -> bool:
    """Whether a sqlite3 error means the file is damaged or not a database (as opposed to busy,
    locked or read-only, which must never make us throw data away)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def is_full(exc: BaseException) -> bool:
    """Whether a sqlite3 error means the disk (or a quota, or a file-size limit) is full: SQLITE_FULL,
    or SQLITE_IOERR, which is what a write refused by ``ulimit -f`` (EFBIG) or a full disk in the
    middle of a journal or WAL write becomes."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)
    text = str(exc).lower()
    return "database or disk is full" in text or "disk i/o error" in text


def full_error(path: Path, what: str) -> "RepomodelerError":
    """The one-line error for a full disk under a database: it names the file and what to do."""
    from repomodeler.records import RepomodelerError

    return RepomodelerError(f"error: cannot write the {what} '{path}': the disk is full (or a file-size limit was "
                            "reached); free some space (or set REPOMODELER_HOME to a folder on a disk with room) and "
                            "rerun (the previous model, if any, was kept)")


def still_corrupt(path: Path) -> bool:
    """Re-check with a fresh connection, so a process that saw the damage late does not move aside
    the new database another process has just rebuilt."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            row = db.execute("PRAGMA quick_check(1)").fetchone()
            return bool(row) and row[0] != "ok"
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return is_corruption(exc)


def move_aside(path: Path, what: str) -> Path | None:
    """Rename a corrupt database (and its -wal/-shm) to NAME.corrupt-TIME and warn in one line;
    the caller then creates a fresh one. Returns the new name (None if another process already did it)."""
    path = Path(path)
    if not path.exists() or not still_corrupt(path):
        return None
    dest = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    try:
        os.replace(path, dest)
    except FileNotFoundError:
        return None
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        try:
            os.replace(side, dest.with_name(dest.name + suffix))
        except FileNotFoundError:
            pass
    print(f"warning: the {what} '{path}' was corrupt; moved it to '{dest.name}' and started a new one",
          file=sys.stderr)
    return dest
