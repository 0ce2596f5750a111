"""The push state file: what the last push of a model folder sent to each server project.

``MODEL_DIR/push-state.json`` keeps, per target (the server's base URL without any user-info or query,
and the project ``@id``), a SHA-256 of every record sent, keyed by its stable ``@id``, with the key
(qualified name) of each element.  The next push compares the model's records with it: an unchanged
model sends nothing, a change sends only the records that differ and the deletion of what is gone,
whatever ids the server gave the elements meanwhile (a server that re-derives ids, as ``longeron
serve`` does from positions in its files, is matched by qualified name instead).  It never holds a token:
the URL is reduced to scheme, host, port and path before it is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repomodeler.records import RepomodelerError

FILE_NAME = "push-state.json"
SCHEMA = "repomodeler/push-state@1"


def target_key(api: str, project_id: str) -> str:
    """``http://host:port/path#project``: no user-info, query or fragment (nothing secret reaches disk)."""
    parts = urllib.parse.urlsplit(api)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", "")) + "#" + project_id


def record_hash(record: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


@dataclass
class PushedRecord:
    """What a push sent for one ``@id``: the record's hash, its owner's ``@id``, for an element its key,
    for a relationship its ``@type`` and target's ``@id`` (to find it again on a server with ids of its own)."""

    hash: str
    owner: str | None = None
    key: str | None = None
    relationship: str | None = None
    target: str | None = None
    sent: bool = True  # False: the server stores no such record (longeron: metadata, values), so never delete it


@dataclass
class TargetState:
    commit: str | None = None
    records: dict[str, PushedRecord] = field(default_factory=dict)


def load(model_dir: Path) -> dict[str, TargetState]:
    path = model_dir / FILE_NAME
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            raise ValueError(f"schema {data.get('schema')!r}")
        return {target: TargetState(t.get("commit"), {eid: PushedRecord(*row) for eid, row in t["records"].items()})
                for target, t in data["targets"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RepomodelerError(f"error: {path} is not a push state file ({exc}); delete it to push the whole "
                               "model again") from exc


def save(model_dir: Path, states: dict[str, TargetState]) -> None:
    """Written to a temporary file and renamed: a killed push never leaves half a state file."""
    data = {"schema": SCHEMA, "targets": {
        target: {"commit": s.commit, "records": {eid: [r.hash, r.owner, r.key, r.relationship, r.target, r.sent]
                                                 for eid, r in sorted(s.records.items())}}
        for target, s in sorted(states.items())}}
    fd, tmp = tempfile.mkstemp(prefix=".push-state-", dir=model_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, model_dir / FILE_NAME)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
