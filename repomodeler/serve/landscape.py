"""The landscape of a models folder as the landscape page reads it, for the server and the static site.

Both serve the same two things: ``landscape.json``'s bytes (once they parse as a model document;
the page sets every value as text, never as markup) and each node's place (its system and depth)
from :mod:`repomodeler.model.nesting`, so the page never works nesting out of ``parent`` itself.
The server answers them at ``/api/landscape`` and ``/api/landscape/nesting``; a published site,
which a browser opens from ``file://`` where fetch() of a local file is refused, embeds them in
``data/landscape.js``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .store import BrokenModel, NotFound

LANDSCAPE_JSON = "landscape.json"


def has_landscape(models_dir: Path) -> bool:
    path = Path(models_dir) / LANDSCAPE_JSON
    return path.is_file() and not path.is_symlink()


def landscape_document(models_dir: Path) -> tuple[bytes, dict[str, Any]]:
    """(bytes, parsed document) of `models_dir`'s landscape.json; NotFound when there is none (or it
    is a symbolic link, which could point anywhere), BrokenModel when it is no model document."""
    from repomodeler.model import ModelFormatError, parse

    path = Path(models_dir) / LANDSCAPE_JSON
    if not path.is_file() or path.is_symlink():
        raise NotFound(str(path))
    try:
        raw = path.read_bytes()
        data = parse(raw, LANDSCAPE_JSON)
    except OSError:
        raise NotFound(str(path)) from None
    except ModelFormatError as exc:
        raise BrokenModel("landscape", exc.reason) from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list) or not isinstance(data.get("edges"), list):
        raise BrokenModel("landscape", "has no 'nodes' and 'edges' lists")
    return raw, data


def placement(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Node id -> {top: its system, depth}, from repomodeler.model.nesting."""
    from repomodeler.model import nesting

    placed = nesting.placement(nesting.parents_of_nodes(data["nodes"]))
    return {n: {"top": p["top"], "depth": p["depth"]} for n, p in placed.items()}
