"""The ``kpar`` export: KerML model interchange project archives (KerML 1.0, clause 10.3).

A ``.kpar`` is a zip holding the project's textual notation files plus two JSON documents at its root:
``.project.json`` (name, version, description, and ``usage``: the projects it needs) and ``.meta.json``
(``index`` from each top-level element name to its file, ``created``, ``metamodel`` and a SHA256
``checksum`` per file).  Two archives are written: ``RepoModeler.kpar``, the library project (the same
bytes for every model: ship it once), and ``<system>.kpar`` with the system package alone, whose usages
are the standard libraries and the library project (:data:`LIBRARY_IRI`, version :data:`LIBRARY_VERSION`).
Tools resolve that usage to the ``RepoModeler.kpar`` beside it (with sysand: a ``sysand.toml`` entry
``identifiers = ["urn:kpar:repomodeler-library"]``, ``sources = [{ kpar_path = "RepoModeler.kpar" }]``).
The archives are deterministic: entries sorted, fixed timestamps and
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
import re
import zipfile
from pathlib import Path

import networkx as nx

from repomodeler.emit.names import sysml_ident
from repomodeler.emit.sysml import LIBRARY_FILE, LIBRARY_PACKAGE, render_library, sysml_files, system_package_name

METAMODEL = "https://www.omg.org/spec/SysML/20250201"
# The standard library projects the emitted packages import from (ScalarValues, Views, Parts...).
USAGE = [
    {"resource": "https://www.omg.org/spec/KerML/20250201/Semantic-Library.kpar"},
    {"resource": "https://www.omg.org/spec/KerML/20250201/Data-Type-Library.kpar"},
    {"resource": "https://www.omg.org/spec/SysML/20250201/Systems-Library.kpar"},
]
# The RepoModeler library project: its IRI (what a model's usage names) and version (bumped when the
# library text changes: minor for added definitions, major for incompatible ones; models constrain it with
# Cargo-style "^" semantics).
LIBRARY_IRI = "urn:kpar:repomodeler-library"
LIBRARY_VERSION = "2.2.0"
LIBRARY_KPAR = f"{LIBRARY_PACKAGE}.kpar"
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


def _archive(project: dict[str, object], index: dict[str, str], created: str, files: dict[str, bytes]) -> bytes:
    meta = {
        "index": index,
        "created": created,
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
    return buf.getvalue()


def library_kpar_bytes() -> bytes:
    """``RepoModeler.kpar``: the library project, byte-identical for every model."""
    project = {
        "name": LIBRARY_PACKAGE,
        "description": "The RepoModeler library: component kinds, protocol ports, links, provenance metadata, views "
                       "and dependency-rule requirements used by every model repomodeler emits.",
        "version": LIBRARY_VERSION,
        "usage": USAGE,
    }
    return _archive(project, {LIBRARY_PACKAGE: LIBRARY_FILE}, DEFAULT_CREATED,
                    {LIBRARY_FILE: render_library().encode("utf-8")})


def kpar_bytes(g: nx.MultiDiGraph) -> tuple[str, bytes]:
    """(archive file name, archive bytes) of the system project (the library is a usage, not a file in it)."""
    files = {name: text.encode("utf-8") for name, text in sysml_files(g).items() if name != LIBRARY_FILE}
    system_file = next(iter(files))
    repos = ", ".join(f"{r['name']}@{(r.get('commit') or 'working tree')[:12]}" for r in g.graph.get("repositories", []))
    project = {
        "name": str(g.graph["name"]),
        "description": f"Architecture of {g.graph['name']} recovered by repomodeler from {repos}.",
        "version": project_version(g),
        "usage": USAGE + [{"resource": LIBRARY_IRI, "versionConstraint": LIBRARY_VERSION}],
    }
    index = {sysml_ident(system_package_name(g)): system_file}
    return system_file[: -len(".sysml")] + ".kpar", _archive(project, index, created_timestamp(g), files)


_PACKAGE_DECL = re.compile(r"^\s*(?:library\s+)?package\s+(?:<'[^']*'>\s*)?('(?:[^'\\]|\\.)*'|[A-Za-z_][A-Za-z0-9_]*)", re.M)


def standalone_kpar_bytes(files: dict[str, bytes], name: str) -> bytes:
    """One archive with a model's ``model.sysml`` *and* the ``RepoModeler.sysml`` it imports, so the download
    validates on its own (what the viewer offers as ``model-with-library.kpar``); its usages are the standard
    libraries only.  Same bytes for the same files."""
    index = {}
    for filename, data in sorted(files.items()):
        m = _PACKAGE_DECL.search(data.decode("utf-8", errors="replace"))
        if m:
            index[m.group(1).strip("'")] = filename
    project = {"name": name, "description": f"{name} with the RepoModeler library it imports, in one project.",
               "version": "0.0.0+" + hashlib.sha256(b"".join(files[k] for k in sorted(files))).hexdigest()[:12],
               "usage": USAGE}
    return _archive(project, index, DEFAULT_CREATED, dict(files))


def bundle_kpar_bytes(g: nx.MultiDiGraph) -> tuple[str, bytes]:
    """(archive file name, bytes) of one self-contained project: the system package *and* the RepoModeler
    library it imports, both indexed, so the archive resolves with the standard libraries alone (no
    ``urn:kpar:repomodeler-library`` usage to map).  Same name, version and ``created`` as the system
    archive of :func:`kpar_bytes`: ``export --format kpar --bundle`` writes it instead of the two."""
    files = {name: text.encode("utf-8") for name, text in sysml_files(g).items()}
    system_file = next(name for name in files if name != LIBRARY_FILE)
    repos = ", ".join(f"{r['name']}@{(r.get('commit') or 'working tree')[:12]}" for r in g.graph.get("repositories", []))
    project = {
        "name": str(g.graph["name"]),
        "description": f"Architecture of {g.graph['name']} recovered by repomodeler from {repos}, with the "
                       "RepoModeler library it imports.",
        "version": project_version(g),
        "usage": USAGE,
    }
    index = {sysml_ident(system_package_name(g)): system_file, LIBRARY_PACKAGE: LIBRARY_FILE}
    return system_file[: -len(".sysml")] + ".kpar", _archive(project, index, created_timestamp(g), files)


def write_bundle(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    name, data = bundle_kpar_bytes(g)
    path = out_dir / name
    path.write_bytes(data)
    return [path]


def write(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    name, data = kpar_bytes(g)
    path = out_dir / name
    path.write_bytes(data)
    library = out_dir / LIBRARY_KPAR
    library.write_bytes(library_kpar_bytes())
    return [path, library]


__all__ = ["LIBRARY_IRI", "LIBRARY_VERSION", "bundle_kpar_bytes", "created_timestamp", "kpar_bytes",
           "library_kpar_bytes", "project_version", "standalone_kpar_bytes", "write", "write_bundle"]
