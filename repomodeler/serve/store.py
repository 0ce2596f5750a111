"""Find and read model folders under MODELS_DIR without ever leaving it.

A models folder is untrusted input (it may come from anyone's CI artefact or a zip). Every name
that arrives from a URL goes through `ModelStore.folder`, which accepts only plain folder names
and re-checks the resolved path, and every file the viewer reads goes through one check,
`ModelStore.open_file`: a regular file directly inside the model folder, not a symbolic link,
opened with O_NOFOLLOW, within a size limit. So `..`, encoded slashes, absolute paths and symlinks
pointing elsewhere all end up as "not found". A model.json that cannot be read as a JSON object
(invalid, too deep, too large, a symlink) makes that one model a "broken" entry, never an error
for the whole gallery.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomodeler.model import Model, ModelFormatError, from_dict, nesting, parse

from . import budget
from .preview import sketch

#: Folder names a model may have; anything else is invisible to the viewer.
MODEL_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")

#: Files offered for download: the model itself and the exported companions. `run.json` is left
#: out on purpose: it records absolute checkout paths of the analysing machine.
DOWNLOAD_NAMES = {"model.json", "model.sysml"}
DOWNLOAD_EXTENSIONS = {".sysml", ".kpar", ".graphml", ".mmd", ".puml"}
_FILE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$")


#: The download that validates alone: model.sysml and the RepoModeler.sysml it imports in one kpar.
STANDALONE_KPAR = "model-with-library.kpar"

#: The system's one-line description in a model folder (gallery build writes it from the list's `about`).
ABOUT_FILE = "about.txt"

#: Most component names and technologies a card's filter text holds (a huge model stays a small page).
MAX_SEARCH_TERMS = 2000

#: Largest model file the viewer reads into memory (a hostile folder could hold a huge one).
MAX_MODEL_BYTES = 256 * 1024 * 1024


class NotFound(Exception):
    """Raised for anything the viewer refuses to show; the app maps it to HTTP 404."""


class BrokenModel(NotFound):
    """The folder holds a model.json that cannot be shown; `reason` is one line for the gallery."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(name)
        self.name = name
        self.reason = reason


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
        if not os.path.lexists(resolved / "model.json"):  # present (a symlink shows as a broken model)
            raise NotFound(name)
        return resolved

    def open_file(self, name: str, filename: str, limit: int = MAX_MODEL_BYTES) -> bytes:
        """The bytes of `filename` in model `name`: the one resolve-and-contain check of the viewer.

        A regular file directly inside the model folder; a symbolic link is refused even if it
        points inside (the name is opened with O_NOFOLLOW, so a link swapped in after the check
        is refused too), and so is anything larger than `limit`.
        """
        folder = self.folder(name)
        if "/" in filename or filename in ("", ".", ".."):
            raise NotFound(filename)
        try:
            fd = os.open(folder / filename, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError:
            raise NotFound(filename) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                raise NotFound(filename)
            with os.fdopen(fd, "rb", closefd=False) as handle:
                data = handle.read(limit + 1)
        finally:
            os.close(fd)
        if len(data) > limit:
            raise NotFound(filename)
        return data

    def file(self, name: str, filename: str) -> Path:
        """A downloadable file directly inside the model folder (not a symlink)."""
        folder = self.folder(name)
        if not is_downloadable(filename):
            raise NotFound(filename)
        path = folder / filename
        try:
            info = os.lstat(path)
        except OSError:
            raise NotFound(filename) from None
        if not stat.S_ISREG(info.st_mode):
            raise NotFound(filename)
        return path

    def read_download(self, name: str, filename: str) -> bytes:
        """A downloadable file's bytes, through :meth:`open_file`; :data:`STANDALONE_KPAR` (when the folder
        has no file of that name) is built from model.sysml and the RepoModeler.sysml beside it."""
        if filename == STANDALONE_KPAR and not self._has_file(name, filename):
            return self._standalone(name)
        self.file(name, filename)
        return self.open_file(name, filename)

    def _has_file(self, name: str, filename: str) -> bool:
        try:
            self.file(name, filename)
        except NotFound:
            return False
        return True

    def _standalone(self, name: str) -> bytes:
        """model.sysml with its library in one archive: the SysML download that validates on its own."""
        from repomodeler.emit.exports.kpar import standalone_kpar_bytes

        files = {f: self.open_file(name, f) for f in ("model.sysml", "RepoModeler.sysml")}  # NotFound if either is missing
        return standalone_kpar_bytes(files, name)

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
        if "model.sysml" in present and "RepoModeler.sysml" in present and STANDALONE_KPAR not in present:
            present.append(STANDALONE_KPAR)  # model.sysml and its library in one download (see read_download)
        order = {"model.sysml": 0, STANDALONE_KPAR: 1, "model.json": 2}
        return sorted(present, key=lambda n: (order.get(n, 3), n))

    # ---- reading --------------------------------------------------------------------------
    def model(self, name: str) -> dict[str, Any]:
        """The parsed model.json; BrokenModel (a NotFound) if it cannot be shown, with the reason."""
        folder = self.folder(name)  # an unknown name stays plain "not found"
        try:  # capped, costed and cached per file identity (serve/budget.py)
            data = budget.load_json(folder / "model.json", lambda limit: self.open_file(name, "model.json", limit),
                                    lambda raw: parse(raw, f"{name}/model.json"))
        except budget.OverBudget as exc:
            raise BrokenModel(name, f"model.json {exc.reason}") from None
        except BrokenModel:
            raise
        except NotFound:
            raise BrokenModel(name, "model.json is not a regular file inside the folder "
                                    "(a symbolic link, or too large)") from None
        except ModelFormatError as exc:
            raise BrokenModel(name, f"model.json {exc.reason}") from None
        if not isinstance(data, dict):
            raise BrokenModel(name, "model.json is not a JSON object")
        return data

    def architecture(self, name: str) -> Model:
        """The model.json as the canonical model; BrokenModel if it cannot be read as one."""
        try:
            return from_dict(self.model(name), f"{name}/model.json")
        except ModelFormatError as exc:
            raise BrokenModel(name, f"model.json {exc.reason}") from None

    def nesting(self, name: str) -> dict[str, dict[str, object]]:
        """Where each node of the model sits (top-level component, depth, ancestors), as
        repomodeler.model.nesting decides it: the viewer draws drill-down and names parts from
        this and never interprets ``parent`` itself."""
        nodes = self.model(name).get("nodes")
        return nesting.placement(nesting.parents_of_nodes(nodes if isinstance(nodes, list) else []))

    def run(self, name: str) -> dict[str, Any]:
        """The parsed run.json, or an empty dict: a model copied without it still shows."""
        try:
            data = _parse_json(self.open_file(name, "run.json"))
        except (NotFound, _JSONError):
            return {}
        return data if isinstance(data, dict) else {}

    def sysml(self, name: str) -> str:
        """The model.sysml text, or "" when the folder has none (or only a symlink)."""
        self.folder(name)
        try:
            return self.sysml_text(name)
        except NotFound:
            return ""

    def sysml_text(self, name: str) -> str:
        """The model.sysml text; NotFound when the folder has none (or only a symlink)."""
        return self.open_file(name, "model.sysml").decode("utf-8", errors="replace")

    def about(self, name: str) -> str:
        """The system's one-line description (``about.txt``, written by ``gallery build`` from the list's
        ``about``; a user's own file is kept by re-analysis), or ""."""
        try:
            text = self.open_file(name, ABOUT_FILE, limit=4096).decode("utf-8", errors="replace")
        except NotFound:
            return ""
        line = " ".join(text.split())
        return "".join(c for c in line if c.isprintable())[:300]

    def summary(self, name: str) -> dict[str, Any]:
        """What a gallery card shows; computed from the model so stale stats don't mislead."""
        model = self.architecture(name)
        try:
            return summarize(name, model, self.run(name), self.files(name), about=self.about(name))
        except (TypeError, ValueError, AttributeError, RecursionError):  # odd values deep inside
            raise BrokenModel(name, "model.json has values of unexpected types") from None

    def preview(self, name: str) -> dict[str, Any] | None:
        """The sketch a gallery card draws (preview.sketch); None for a model that cannot be
        shown or has nothing to draw (its card says why without a picture)."""
        try:
            return sketch(self.architecture(name))
        except (NotFound, TypeError, ValueError, AttributeError, RecursionError):
            return None

    def safe_summary(self, name: str) -> dict[str, Any] | None:
        """A gallery card for every listed folder: a broken model gets a card saying why, so one
        bad folder never takes the gallery or /api/models down. None if the folder vanished."""
        try:
            return self.summary(name)
        except BrokenModel as exc:
            return broken_summary(name, exc.reason)
        except NotFound:
            return None


class _JSONError(Exception):
    """run.json text that is not JSON we can hold."""


def _parse_json(data: bytes) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise _JSONError("is nested too deeply to read") from None
    except UnicodeDecodeError:
        raise _JSONError("is not UTF-8 text") from None
    except ValueError as exc:
        raise _JSONError(f"is not valid JSON ({str(exc)[:120]})") from None


def broken_summary(name: str, reason: str) -> dict[str, Any]:
    """Card data for a model that cannot be shown: every field a card reads, plus `broken`/`error`."""
    return {
        "name": name, "title": f"broken model: {reason}", "about": "", "search": [], "schema": None, "repositories": [], "languages": [],
        "kinds": [], "counts": {"part_defs": 0, "components": 0, "connections": 0, "endpoints": 0,
                                                 "subsystems": 0, "databases": 0},
        "warnings": 0, "unresolved": 0, "analysed_at": None, "duration_s": None, "version": None, "files": [],
        "broken": True, "error": reason,
    }


def search_terms(model: Model) -> list[str]:
    """What the gallery filter finds a system by besides its name, repositories and languages: its
    components and subsystems (names and ids), their kinds and technologies (``technology``,
    ``image``, ``framework``) and the protocols of its connections; sorted, capped."""
    terms: set[str] = set()
    for c in model.components.values():
        terms.update(str(v) for v in (c.name, c.id, c.kind) if v)
        for key in ("technology", "image", "framework"):
            value = c.attributes.get(key)
            if isinstance(value, str) and value:
                terms.add(value)
    terms.update(str(e.protocol) for e in model.connections.values() if e.protocol)
    return sorted(t.lower() for t in terms)[:MAX_SEARCH_TERMS]


def summarize(name: str, model: Model | dict[str, Any], run: dict[str, Any], files: list[str],
              about: str = "") -> dict[str, Any]:
    """Card data for one model (pure function, shared by the API and the publisher); model.json
    content that is not a model raises :class:`ModelFormatError`."""
    if not isinstance(model, Model):
        model = from_dict(model, f"{name}/model.json")
    # Cards count by the one rule (repomodeler/model/counts.py): components are the top level,
    # the parts inside them are counted apart as subsystems (or databases).
    from repomodeler.model.counts import count

    nodes = model.top_level()
    figures = count(model)
    repos = [{"name": r.name, "url": r.url, "ref": r.ref, "commit": r.commit,
              "short_commit": r.commit[:8] if r.commit else None} for r in model.repositories]
    languages = sorted({n.language for n in nodes if n.language})
    kinds = sorted({n.kind for n in nodes if n.kind})
    return {
        "name": name,
        "title": model.name or name,
        "about": about,
        "search": search_terms(model),
        "schema": model.schema,
        "repositories": repos,
        "languages": languages,
        "kinds": kinds,
        "counts": {
            "part_defs": len(kinds),
            "components": figures.components,
            "connections": figures.connections,
            "endpoints": figures.endpoints,
            "subsystems": figures.subsystems,
            "databases": figures.databases,
        },
        "warnings": len(model.warnings),
        "unresolved": len(model.unresolved),
        "analysed_at": run.get("analysed_at") if isinstance(run.get("analysed_at"), str) else None,
        "duration_s": run.get("duration_s") if isinstance(run.get("duration_s"), (int, float)) else None,
        "version": run.get("version") if isinstance(run.get("version"), str) else None,
        "files": files,
    }
