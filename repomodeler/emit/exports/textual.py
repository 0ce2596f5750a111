"""The ``sysml`` and ``json`` exports: the SysML v2 text (single file and one file per package) and model.json."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from repomodeler.emit.model_json import render_json
from repomodeler.emit.sysml import render_sysml, sysml_files

PACKAGES_DIR = "sysml"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))  # bytes: no platform newline translation
    return path


def write_sysml(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    """``model.sysml`` (everything in one file) and ``sysml/<package>.sysml`` (one file per package).

    The per-package files live in their own folder because loading them together with model.sysml
    would declare every package twice: load either ``model.sysml`` or the ``sysml/`` folder.
    """
    written = [_write(out_dir / "model.sysml", render_sysml(g))]
    for name, text in sorted(sysml_files(g).items()):
        written.append(_write(out_dir / PACKAGES_DIR / name, text))
    return written


def write_json(g: nx.MultiDiGraph, out_dir: Path) -> list[Path]:
    return [_write(out_dir / "model.json", render_json(g))]
