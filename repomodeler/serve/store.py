"""Find and read model folders under MODELS_DIR without ever leaving it.

Every name that arrives from a URL goes through `ModelStore.folder`, which accepts only plain
folder names and re-checks the resolved path, so `..`, encoded slashes, absolute paths and
symlinks pointing elsewhere all end up as "not found".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Folder names a model may have; anything else is invisible to the viewer.
MODEL_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")

#: Files offered for download: the model itself and the exported companions. `run.json` is left
#: out on purpose: it records absolute checkout paths of the analysing machine.
DOWNLOAD_NAMES = {"model.json", "model.sysml"}
DOWNLOAD_EXTENSIONS = {".sysml", ".kpar", ".graphml", ".mmd", ".puml"}
_FILE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")


class NotFound(Exception):
    """Raised for anything the viewer refuses to show; the app maps it to HTTP 404."""


def is_downloadable(filename: str) -> bool:
    """Whether `filename` is a name the viewer would offer (independent of existence)."""
    if not _FILE_NAME_RE.match(filename) or ".." in filename:
        return False
    return filename in DOWNLOAD_NAMES or Path(filename).suffix.lower() in DOWNLOAD_EXTENSIONS


@dataclass(frozen=True)
class ModelStore:
    """Read-only view over MODELS_DIR; one subfolder with a model.json per model."""

    root: Path

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root).resolve())

    # ---- locating -------------------------------------------------------------------------
    def names(self) -> list[str]:
        """Model folder names, sorted; folders with odd names or no model.json are skipped."""
        if not self.root.is_dir():
            return []
        found = []
        for child in self.root.iterdir():
            try:
                self.folder(child.name)
            except NotFound:
                continue
            found.append(child.name)
        return sorted(found, key=lambda n: (n.lower(), n))

    def folder(self, name: str) -> Path:
        """The folder of model `name`, or NotFound if the name could point anywhere else."""
        if not isinstance(name, str) or not MODEL_NAME_RE.match(name) or ".." in name:
            raise NotFound(name)
        candidate = self.root / name
        try:
            resolved = candidate.resolve(strict=True)
        except (OSError, RuntimeError):
            raise NotFound(name) from None
        if resolved.parent != self.root or not resolved.is_dir():
            raise NotFound(name)
        if not (resolved / "model.json").is_file():
            raise NotFound(name)
        return resolved

    def file(self, name: str, filename: str) -> Path:
        """A downloadable file directly inside the model folder (no symlinks out)."""
        folder = self.folder(name)
        if not is_downloadable(filename):
            raise NotFound(filename)
        try:
            resolved = (folder / filename).resolve(strict=True)
        except (OSError, RuntimeError):
            raise NotFound(filename) from None
        if resolved.parent != folder or not resolved.is_file():
            raise NotFound(filename)
        return resolved

    def files(self, name: str) -> list[str]:
        """Names of the downloadable files present in the model folder, model files first."""
        folder = self.folder(name)
        present = []
        for child in folder.iterdir():
            try:
                self.file(name, child.name)
            except NotFound:
                continue
            present.append(child.name)
        order = {"model.sysml": 0, "model.json": 1}
        return sorted(present, key=lambda n: (order.get(n, 2), n))

    # ---- reading --------------------------------------------------------------------------
    def model(self, name: str) -> dict[str, Any]:
        """The parsed model.json; NotFound if it is unreadable or not an object."""
        data = _read_json(self.folder(name) / "model.json")
        if not isinstance(data, dict):
            raise NotFound(name)
        return data

    def run(self, name: str) -> dict[str, Any]:
        """The parsed run.json, or an empty dict: a model copied without it still shows."""
        path = self.folder(name) / "run.json"
        try:
            data = _read_json(path)
        except NotFound:
            return {}
        return data if isinstance(data, dict) else {}

    def sysml(self, name: str) -> str:
        """The model.sysml text, or "" when the folder has none."""
        path = self.folder(name) / "model.sysml"
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def summary(self, name: str) -> dict[str, Any]:
        """What a gallery card shows; computed from the model so stale stats don't mislead."""
        return summarize(name, self.model(name), self.run(name), self.files(name))


def _read_json(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        raise NotFound(path.name) from None


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def summarize(name: str, model: dict[str, Any], run: dict[str, Any], files: list[str]) -> dict[str, Any]:
    """Card data for one model (pure function, shared by the API and the publisher)."""
    nodes = [n for n in _list(model.get("nodes")) if isinstance(n, dict)]
    edges = [e for e in _list(model.get("edges")) if isinstance(e, dict)]
    endpoints = sum(
        len(_list(port.get("endpoints")))
        for node in nodes
        for port in _list(node.get("ports"))
        if isinstance(port, dict)
    )
    repos = []
    for repo in _list(model.get("repositories")):
        if not isinstance(repo, dict):
            continue
        commit = repo.get("commit") if isinstance(repo.get("commit"), str) else None
        repos.append(
            {
                "name": str(repo.get("name", "")),
                "url": repo.get("url") if isinstance(repo.get("url"), str) else None,
                "ref": repo.get("ref") if isinstance(repo.get("ref"), str) else None,
                "commit": commit,
                "short_commit": commit[:8] if commit else None,
            }
        )
    languages = sorted({str(n["language"]) for n in nodes if n.get("language")})
    kinds = sorted({str(n.get("kind", "")) for n in nodes if n.get("kind")})
    return {
        "name": name,
        "title": str(model.get("name") or name),
        "schema": model.get("schema"),
        "repositories": repos,
        "languages": languages,
        "kinds": kinds,
        "counts": {
            "part_defs": len(kinds),
            "components": len(nodes),
            "connections": len(edges),
            "endpoints": endpoints,
        },
        "warnings": len(_list(model.get("warnings"))),
        "unresolved": len(_list(model.get("unresolved"))),
        "analysed_at": run.get("analysed_at") if isinstance(run.get("analysed_at"), str) else None,
        "duration_s": run.get("duration_s") if isinstance(run.get("duration_s"), (int, float)) else None,
        "version": run.get("version") if isinstance(run.get("version"), str) else None,
        "files": files,
    }
