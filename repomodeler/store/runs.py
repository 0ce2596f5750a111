"""SQLite run history (stdlib sqlite3, WAL mode, one transaction per write).

Why store the model.json content and not only its path: ``analyze`` publishes over the same
folder every time, so the file a path points at is gone after the next run.  Content is
deduplicated by SHA-256 and zlib-compressed, so re-analysing an unchanged system costs one row.
Run numbers are per system (1, 2, 3...), assigned inside an IMMEDIATE transaction so two
concurrent analyses of the same system never get the same number.  A corrupt database is moved
aside (``runs.sqlite.corrupt-TIME``, kept for forensics) with a one-line warning and a new one is
started, so a damaged file never blocks ``analyze`` or ``runs``; the viewer, which only reads,
shows no history instead.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import sys
import zlib
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from repomodeler.acquire import home_dir
from repomodeler.model import from_dict, parse
from repomodeler.model.nesting import derived_stats
from repomodeler.records import RepomodelerError
from repomodeler.sqlite import enable_wal, is_corruption, is_full, move_aside

SCHEMA = """
CREATE TABLE IF NOT EXISTS models (
    sha256 TEXT PRIMARY KEY,
    content BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    system TEXT NOT NULL,
    number INTEGER NOT NULL,
    analysed_at TEXT NOT NULL,
    duration_s REAL,
    version TEXT,
    repositories TEXT NOT NULL,
    components INTEGER NOT NULL,
    connections INTEGER NOT NULL,
    endpoints INTEGER NOT NULL,
    warnings INTEGER NOT NULL,
    out TEXT,
    model_sha256 TEXT NOT NULL REFERENCES models(sha256),
    UNIQUE (system, number)
);
CREATE TABLE IF NOT EXISTS sources (
    model_sha256 TEXT NOT NULL,
    repository TEXT NOT NULL,
    checkout TEXT NOT NULL,
    kind TEXT,
    revision TEXT,
    PRIMARY KEY (model_sha256, repository, checkout)
);
"""


def store_path() -> Path:
    return home_dir() / "runs.sqlite"


@dataclass(frozen=True)
class StoredRun:
    """One recorded analysis; :meth:`model` returns its model.json content."""

    system: str
    number: int
    analysed_at: str
    duration_s: float | None
    version: str | None
    repositories: tuple[dict[str, object], ...]
    components: int
    connections: int
    endpoints: int
    warnings: int
    out: str | None
    model_sha256: str
    _db: Path = field(repr=False, compare=False, default=Path())

    @property
    def commits(self) -> str:
        return ", ".join(f"{r.get('name')}@{str(r.get('commit') or 'working tree')[:12]}" for r in self.repositories)

    def model(self) -> dict[str, object]:
        with closing(_connect(self._db)) as db:
            row = db.execute("SELECT content FROM models WHERE sha256 = ?", (self.model_sha256,)).fetchone()
        if row is None:
            raise RepomodelerError(f"error: run {self.system} #{self.number} has no stored model")
        data = parse(zlib.decompress(row[0]), f"run {self.system} #{self.number}")
        if not isinstance(data, dict):
            raise RepomodelerError(f"error: run {self.system} #{self.number} has no stored model")
        return data


def _connect(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=30, isolation_level=None)  # autocommit; explicit BEGIN below
    try:
        db.execute("PRAGMA busy_timeout=30000")
        enable_wal(db)
        db.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        db.close()
        raise
    return db


class RunStore:
    """The run history database (created on first use)."""

    def __init__(self, path: Path | None = None, *, read_only: bool = False) -> None:
        self.path = path or store_path()
        self.read_only = read_only  # the viewer reads history and must never create or change it

    def _open(self) -> sqlite3.Connection:
        if self.read_only:
            return sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=30)
        db = _connect(self.path)
        try:
            db.executescript(SCHEMA)
        except BaseException:
            db.close()
            raise
        return db

    def _with_db(self, op):  # type: ignore[no-untyped-def]
        """Run `op(db)` on an open connection; a corrupt file is moved aside and `op` runs once more
        on a fresh database (never for the read-only viewer, which must not change anything)."""
        for attempt in (0, 1):
            try:
                with closing(self._open()) as db:
                    return op(db)
            except sqlite3.DatabaseError as exc:
                if attempt or self.read_only or not is_corruption(exc):
                    raise
                move_aside(self.path, "run history")
        raise AssertionError("unreachable")  # pragma: no cover

    def record(self, model_json: str, run: dict[str, object], out: Path | None = None) -> StoredRun:
        """Store one run; ``run`` is the pipeline's run.json content (time, duration, repositories)."""
        model = from_dict(parse(model_json))
        system = model.name
        stats = derived_stats(model)  # the counts model.json states, from its records
        sha = hashlib.sha256(model_json.encode("utf-8")).hexdigest()
        repos = [{"name": r.get("name"), "commit": r.get("commit"), "input": r.get("input")}
                 for r in run.get("repositories") or []]  # type: ignore[union-attr]
        def op(db: sqlite3.Connection) -> int:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("INSERT OR IGNORE INTO models (sha256, content) VALUES (?, ?)",
                           (sha, zlib.compress(model_json.encode("utf-8"), 6)))
                number = db.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM runs WHERE system = ?",
                                    (system,)).fetchone()[0]
                db.execute(
                    "INSERT INTO runs (system, number, analysed_at, duration_s, version, repositories, components,"
                    " connections, endpoints, warnings, out, model_sha256) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (system, number, str(run.get("analysed_at") or ""), run.get("duration_s"), run.get("version"),
                     json.dumps(repos), int(stats["components"]),  # type: ignore[call-overload]
                     int(stats["connections"]), int(stats["endpoints"]),  # type: ignore[call-overload]
                     len(model.warnings), str(out.resolve()) if out else None, sha))
                # where each repository was read from: the viewer finds the sources of this exact model
                # here without --source-root (this file is the user's own; a models folder is not)
                for r in run.get("repositories") or []:  # type: ignore[union-attr]
                    if isinstance(r, dict) and isinstance(r.get("checkout"), str) and os.path.isabs(r["checkout"]):
                        db.execute("INSERT OR REPLACE INTO sources (model_sha256, repository, checkout, kind, revision)"
                                   " VALUES (?,?,?,?,?)", (sha, str(r.get("name")), r["checkout"],
                                                           str(r.get("kind") or ""), r.get("commit")))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return int(number)

        number = self._with_db(op)
        return self.get(system, number)

    def _row(self, row: tuple) -> StoredRun:  # type: ignore[type-arg]
        return StoredRun(system=row[0], number=row[1], analysed_at=row[2], duration_s=row[3], version=row[4],
                         repositories=tuple(json.loads(row[5])), components=row[6], connections=row[7],
                         endpoints=row[8], warnings=row[9], out=row[10], model_sha256=row[11], _db=self.path)

    _COLUMNS = ("system, number, analysed_at, duration_s, version, repositories, components, connections, endpoints,"
                " warnings, out, model_sha256")

    def list(self, system: str | None = None) -> list[StoredRun]:
        if not self.path.exists():
            return []
        def op(db: sqlite3.Connection) -> list[tuple]:  # type: ignore[type-arg]
            if system is None:
                return db.execute(f"SELECT {self._COLUMNS} FROM runs ORDER BY system, number").fetchall()
            return db.execute(f"SELECT {self._COLUMNS} FROM runs WHERE system = ? ORDER BY number",
                              (system,)).fetchall()

        return [self._row(r) for r in self._with_db(op)]

    def sources(self, model_sha256: str) -> dict[str, dict[str, object]]:
        """Repository name -> {checkout, kind, commit} that the analysis which wrote the model with this
        SHA-256 read it from (the newest record per repository); {} without a history or a record."""
        if not self.path.exists():
            return {}

        def op(db: sqlite3.Connection) -> list[tuple]:  # type: ignore[type-arg]
            try:
                return db.execute("SELECT repository, checkout, kind, revision FROM sources WHERE model_sha256 = ?"
                                  " ORDER BY rowid", (model_sha256,)).fetchall()
            except sqlite3.OperationalError:  # a history written before sources were recorded
                return []

        try:
            rows = self._with_db(op)
        except sqlite3.Error:
            return {}
        return {str(name): {"checkout": checkout, "kind": kind or None, "commit": revision}
                for name, checkout, kind, revision in rows}

    def systems(self) -> list[str]:
        return sorted({r.system for r in self.list()})

    def get(self, system: str, which: int | str = "latest") -> StoredRun:
        """Run N of a system; ``latest``/``previous`` (or -1/-2) count from the newest."""
        runs = self.list(system)
        if not runs:
            known = ", ".join(self.systems()) or "none yet"
            raise RepomodelerError(f"error: no recorded runs for system '{system}' (systems with runs: {known})")
        text = str(which).strip().lower()
        index: int | None = None
        if text in ("latest", "last", "-1"):
            index = len(runs) - 1
        elif text in ("previous", "prev", "-2"):
            index = len(runs) - 2
        elif text.lstrip("-").isdigit():
            n = int(text)
            if n < 0:
                index = len(runs) + n
            else:
                match = [r for r in runs if r.number == n]
                if match:
                    return match[0]
        if index is None or not 0 <= index < len(runs):
            raise RepomodelerError(f"error: system '{system}' has no run '{which}' (runs 1..{runs[-1].number}; "
                                   "use a number, latest or previous)")
        return runs[index]


def record_published_run(out: Path, store: RunStore | None = None) -> StoredRun | None:
    """Record the model just published in ``out``; on any failure warn on stderr and return None.

    The model is already in place when this runs, so history is best-effort by design: a locked
    or corrupt database must never make a successful analysis look failed.
    """
    store = store or RunStore()
    try:
        model_json = (out / "model.json").read_text(encoding="utf-8")
        run_file = out / "run.json"
        run = json.loads(run_file.read_text(encoding="utf-8")) if run_file.exists() else {}
        return store.record(model_json, run, out)
    except Exception as exc:  # noqa: BLE001 - deliberately broad, see docstring
        if is_full(exc) or (isinstance(exc, OSError) and exc.errno == errno.ENOSPC):
            print(f"warning: the run was not recorded in the history '{store.path}': the disk is full; free some "
                  "space for the next runs (the model was published)", file=sys.stderr)
            return None
        print(f"warning: the run was not recorded in the history ({type(exc).__name__}: {exc}); "
              "the model was published", file=sys.stderr)
        return None
