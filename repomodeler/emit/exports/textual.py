"""The ``sysml`` and ``json`` exports: the SysML v2 text (the system package and the library package) and model.json."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from repomodeler.emit.model_json import render_json
from repomodeler.emit.sysml import model_files


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))  # bytes: no platform newline translation
    return path


def write_sysml(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    """``model.sysml`` (the system package) and ``RepoModeler.sysml`` (the library it imports), as in a
    model folder: one top-level package per file; load the two together."""
    return [_write(out_dir / name, text) for name, text in sorted(model_files(g).items())]


def write_json(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    return [_write(out_dir / "model.json", render_json(g))]
