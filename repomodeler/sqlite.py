"""SQLite helpers shared by the fact cache and the run history."""

from __future__ import annotations

import sqlite3
import time


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
