"""Locate the data folders (`grammars/`, `web/`, `samples/`) both in a source checkout and in an installed wheel.

A wheel carries them under ``repomodeler/_data/`` (see pyproject's force-include); a source
checkout or editable install keeps them at the project root, next to the package.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def data_dir(name: str) -> Path:
    """Return the folder `name` ("grammars", "web" or "samples"), preferring the installed copy."""
    for candidate in (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"repomodeler data folder '{name}' is missing; reinstall with 'pip install .'")


def grammars_dir() -> Path:
    return data_dir("grammars")


def web_dir() -> Path:
    return data_dir("web")


def samples_dir() -> Path:
    """The bundled sample systems and their gallery list (a wheel carries only those the list names)."""
    return data_dir("samples")
