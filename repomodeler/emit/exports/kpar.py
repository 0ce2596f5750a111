"""The ``kpar`` export: a KerML model interchange project archive (KerML 1.0, clause 10.3).

A ``.kpar`` is a zip holding the project's textual notation files plus two JSON documents at its root:
``.project.json`` (name, version, description, and ``usage``: the standard library projects it needs)
and ``.meta.json`` (``index`` from each top-level element name to its file, ``created``, ``metamodel``
and a SHA256 ``checksum`` per file).  The archive is deterministic: entries sorted, fixed timestamps and
permissions, and ``created`` taken from the repositories' commit dates when the graph carries them
(``committed_at``/``date``), else from ``SOURCE_DATE_EPOCH``, else 1980-01-01T00:00:00Z (the zip epoch),
never from the wall clock.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import os
import zipfile
from pathlib import Path

import networkx as nx

from repomodeler.emit.sysml import LIBRARY_PACKAGE, system_package_name, sysml_files

METAMODEL = "https://www.omg.org/spec/SysML/20250201"
# The standard library projects the emitted packages import from (ScalarValues, Views, Parts...).
USAGE = [
    {"resource": "https://www.omg.org/spec/KerML/20250201/Semantic-Library.kpar"},
    {"resource": "https://www.omg.org/spec/KerML/20250201/Data-Type-Library.kpar"},
    {"resource": "https://www.omg.org/spec/SysML/20250201/Systems-Library.kpar"},
]
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
DEFAULT_CREATED = "1980-01-01T00:00:00Z"


def created_timestamp(g: nx.MultiDiGraph) -> str:
    """A reproducible ``created`` value: newest commit date known, else SOURCE_DATE_EPOCH, else the zip epoch."""
    dates = sorted(str(r[k]) for r in g.graph.get("repositories", []) for k in ("committed_at", "date") if r.get(k))
    if dates:
        try:
            when = _dt.datetime.fromisoformat(dates[-1].replace("Z", "+00:00"))
            return when.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            pass
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return DEFAULT_CREATED


def project_version(g: nx.MultiDiGraph) -> str:
    """Semantic version with the pinned commits as build metadata, so two archives of different commits differ."""
    pins = ";".join(f"{r['name']}@{r.get('commit') or 'working-tree'}" for r in g.graph.get("repositories", []))
    return "0.0.0+" + hashlib.sha256(pins.encode("utf-8")).hexdigest()[:12]


def kpar_bytes(g: nx.MultiDiGraph) -> tuple[str, bytes]:
    """(archive file name, archive bytes)."""
    files = {name: text.encode("utf-8") for name, text in sysml_files(g).items()}
    system_file = next(n for n in files if n != f"{LIBRARY_PACKAGE}.sysml")
    repos = ", ".join(f"{r['name']}@{(r.get('commit') or 'working tree')[:12]}" for r in g.graph.get("repositories", []))
    project = {
        "name": str(g.graph["name"]),
        "description": f"Architecture of {g.graph['name']} recovered by repomodeler from {repos}.",
        "version": project_version(g),
        "usage": USAGE,
    }
    meta = {
        "index": {LIBRARY_PACKAGE: f"{LIBRARY_PACKAGE}.sysml", system_package_name(g): system_file},
        "created": created_timestamp(g),
        "metamodel": METAMODEL,
        "checksum": {name: {"value": hashlib.sha256(data).hexdigest(), "algorithm": "SHA256"}
                     for name, data in sorted(files.items())},
    }
    entries = {".project.json": (json.dumps(project, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
               ".meta.json": (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), **files}

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3  # unix, whatever the host: same bytes everywhere
            zf.writestr(info, entries[name])
    return system_file[: -len(".sysml")] + ".kpar", buf.getvalue()


def write(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    name, data = kpar_bytes(g)
    path = out_dir / name
    path.write_bytes(data)
    return [path]


__all__ = ["created_timestamp", "kpar_bytes", "project_version", "write"]
