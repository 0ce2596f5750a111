"""Language registry, read from ``grammars/<language>/language.toml``.

Adding a language is adding a folder: its ``language.toml`` names the grammar wheel's module and
function and the file extensions; its ``*.scm`` files are the queries.  Nothing here names a
language, so the engine never has to change for a new one.
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from repomodeler.resources import grammars_dir


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    module: str
    function: str
    extensions: tuple[str, ...]
    folder: Path
    inherits: tuple[str, ...] = ()


@lru_cache(maxsize=None)
def all_languages() -> dict[str, LanguageSpec]:
    specs: dict[str, LanguageSpec] = {}
    for toml_path in sorted(grammars_dir().glob("*/language.toml")):
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        spec = LanguageSpec(
            name=data["name"],
            module=data["module"],
            function=data.get("function", "language"),
            extensions=tuple(data.get("extensions", [])),
            folder=toml_path.parent,
            inherits=tuple(data.get("inherits", [])),
        )
        specs[spec.name] = spec
    return specs


@lru_cache(maxsize=None)
def _extension_map() -> dict[str, str]:
    mapping: dict[str, str] = {}
    for spec in all_languages().values():
        for ext in spec.extensions:
            mapping.setdefault(ext.lower(), spec.name)
    return mapping


def language_for_path(path: str) -> str | None:
    """The language whose extensions match `path` (longest extension wins, e.g. '.d.ts' before '.ts')."""
    name = path.rsplit("/", 1)[-1].lower()
    mapping = _extension_map()
    dot = name.find(".", 1)
    while dot != -1:
        lang = mapping.get(name[dot:])
        if lang is not None:
            return lang
        dot = name.find(".", dot + 1)
    return None


def query_files(name: str) -> list[Path]:
    """The .scm files of a language: its own plus those of the languages it inherits (own win by name)."""
    by_stem: dict[str, Path] = {}
    spec = all_languages()[name]
    for parent in spec.inherits:
        for path in query_files(parent):
            by_stem[path.stem] = path
    for path in sorted(spec.folder.glob("*.scm")):
        by_stem[path.stem] = path
    return [by_stem[k] for k in sorted(by_stem)]


@lru_cache(maxsize=None)
def load_language(name: str):  # -> tree_sitter.Language
    """Load the tree-sitter Language object from the grammar wheel named in language.toml."""
    import tree_sitter

    spec = all_languages()[name]
    module = importlib.import_module(spec.module)
    return tree_sitter.Language(getattr(module, spec.function)())
