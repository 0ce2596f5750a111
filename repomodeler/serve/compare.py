"""What a model can be compared with in the viewer, and the diff overlay against one of those.

A thin adapter over :mod:`repomodeler.diff`: the viewer lists *candidates* (other model folders,
target ``.sysml`` files, stored runs of the same system) and a request names one by its listed
id. Nothing in a request is ever turned into a filesystem path: the id is looked up in the list
this module built by walking MODELS_DIR, and anything not listed is refused. Files are read
only when they sit directly in the folder they were found in (symlinks out are skipped).

Origins passed to the diff are display names relative to MODELS_DIR ("shop/targets/next.sysml"),
so overlay JSON never carries absolute paths of the serving machine. The run store is only
read, and only when its database already exists (the server never creates it).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from repomodeler.diff.core import diff_models
from repomodeler.diff.load import model_from_dict
from repomodeler.diff.overlay import diff_to_overlay
from repomodeler.records import RepomodelerError
from repomodeler.diff.load import read_sysml_text
from repomodeler.diff.view import ArchModel

from .store import ModelStore, NotFound

#: Folder (beside the model folders, or inside one) holding hand-written target architectures.
TARGETS_DIR = "targets"
#: SysML files in a model folder that are the model itself or its library, never a target.
NOT_TARGETS = {"model.sysml", "RepoModeler.sysml"}
#: Shape of every id this module hands out; checked before the lookup so odd input is a 400.
CANDIDATE_ID_RE = re.compile(r"^(model|target|shared-target|run):[A-Za-z0-9][A-Za-z0-9._/-]{0,250}$")
_FILE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.sysml$")
MAX_TARGET_BYTES = 5 * 1024 * 1024
MAX_RUNS = 30


class BadCandidate(Exception):
    """A candidate id that is not even well-formed (as opposed to well-formed but not listed)."""


@dataclass(frozen=True)
class Candidate:
    """One thing the model can be compared with; `load` builds its ArchModel on demand."""

    id: str
    kind: str  # target | run | model
    label: str
    detail: str
    load: Callable[[], ArchModel]

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "kind": self.kind, "label": self.label, "detail": self.detail}


def _sysml_files(folder: Path) -> list[Path]:
    """`*.sysml` files directly inside `folder` (resolved, no symlinks out, sane names), sorted."""
    try:
        base = folder.resolve(strict=True)
    except (OSError, RuntimeError):
        return []
    if not base.is_dir():
        return []
    found = []
    for child in base.iterdir():
        if not _FILE_RE.match(child.name):
            continue
        try:
            resolved = child.resolve(strict=True)
        except (OSError, RuntimeError):
            continue
        if resolved.parent == base and resolved.is_file() and resolved.stat().st_size <= MAX_TARGET_BYTES:
            found.append(resolved)
    return sorted(found, key=lambda p: p.name)


def _sysml_loader(path: Path, display: str) -> Callable[[], ArchModel]:
    def load() -> ArchModel:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            raise NotFound(display) from None
        return read_sysml_text(text, display)

    return load


def _model_loader(store: ModelStore, name: str) -> Callable[[], ArchModel]:
    return lambda: current_model(store, name)


def current_model(store: ModelStore, name: str) -> ArchModel:
    """The model folder `name` as the diff's ArchModel, with origin `<name>/model.json`."""
    try:
        return model_from_dict(store.model(name), f"{name}/model.json")
    except (RepomodelerError, KeyError, TypeError, AttributeError):
        raise NotFound(name) from None


def target_candidates(store: ModelStore, name: str) -> list[Candidate]:
    """Target files: in the model folder, in its `targets/` folder, and in MODELS_DIR/targets/."""
    folder = store.folder(name)
    out = []
    for path in _sysml_files(folder):
        if path.name in NOT_TARGETS:
            continue
        display = f"{name}/{path.name}"
        out.append(Candidate(f"target:{path.name}", "target", path.name, display, _sysml_loader(path, display)))
    own_targets = folder / TARGETS_DIR
    if not own_targets.is_symlink():
        for path in _sysml_files(own_targets):
            display = f"{name}/{TARGETS_DIR}/{path.name}"
            out.append(Candidate(f"target:{TARGETS_DIR}/{path.name}", "target", path.name, display,
                                 _sysml_loader(path, display)))
    shared = store.root / TARGETS_DIR
    # a model that happens to be called "targets" is a model, not a folder of targets
    if not shared.is_symlink() and not (shared / "model.json").exists():
        for path in _sysml_files(shared):
            display = f"{TARGETS_DIR}/{path.name}"
            out.append(Candidate(f"shared-target:{path.name}", "target", path.name, display,
                                 _sysml_loader(path, display)))
    return out


def run_candidates(store: ModelStore, name: str, runs: Any | None) -> list[Candidate]:
    """Stored runs of the same system, newest first, one per distinct model; [] without a run database."""
    if runs is None or not Path(runs.path).exists():
        return []
    system = str(store.model(name).get("name") or name)
    try:
        stored = runs.list(system)
    except Exception:  # noqa: BLE001 - a locked or broken history must not break the viewer
        return []
    try:
        own_sha = hashlib.sha256(store.open_file(name, "model.json")).hexdigest()
    except NotFound:
        own_sha = ""
    out: list[Candidate] = []
    seen: set[str] = set()
    # re-analysing an unchanged system records identical models: offer each distinct one once
    for run in reversed(stored):
        if run.model_sha256 in seen:
            continue
        seen.add(run.model_sha256)
        if len(out) >= MAX_RUNS:
            break
        when = str(run.analysed_at or "")[:16].replace("T", " ")
        same = " (same as shown)" if run.model_sha256 == own_sha else ""
        label = f"run #{run.number} · {when}{same}" if when else f"run #{run.number}{same}"
        detail = f"{run.components} components, {run.connections} connections; {run.commits}"

        def load(run: Any = run) -> ArchModel:
            try:
                return model_from_dict(run.model(), f"run:{run.system}:{run.number}")
            except (RepomodelerError, KeyError, TypeError, ValueError):
                raise NotFound(f"run {run.number}") from None

        out.append(Candidate(f"run:{run.number}", "run", label, detail, load))
    return out


def model_candidates(store: ModelStore, name: str) -> list[Candidate]:
    """The other model folders under MODELS_DIR."""
    out = []
    for other in store.names():
        if other == name:
            continue
        out.append(Candidate(f"model:{other}", "model", other, f"model folder {other}", _model_loader(store, other)))
    return out


def candidates(store: ModelStore, name: str, runs: Any | None = None, *, with_runs: bool = True) -> list[Candidate]:
    """Everything model `name` can be compared with: targets, then runs (newest first), then models."""
    store.folder(name)  # NotFound for an unknown model before listing anything
    found = target_candidates(store, name)
    if with_runs:
        found += run_candidates(store, name, runs)
    found += model_candidates(store, name)
    return found


def overlay(store: ModelStore, name: str, against: str, runs: Any | None = None) -> dict[str, Any]:
    """The diff overlay from model `name` (current) to the listed candidate `against`.

    Raises BadCandidate for a malformed id and NotFound for one that is not listed (so a path,
    `..` or an absolute name can never reach the filesystem).
    """
    if not isinstance(against, str) or not CANDIDATE_ID_RE.match(against) or ".." in against:
        raise BadCandidate(against)
    listed = {c.id: c for c in candidates(store, name, runs, with_runs=against.startswith("run:"))}
    chosen = listed.get(against)
    if chosen is None:
        raise NotFound(against)
    return overlay_between(current_model(store, name), chosen)


def overlay_between(current: ArchModel, chosen: Candidate) -> dict[str, Any]:
    """diff_to_overlay(current -> candidate), labelled with the candidate it was made against."""
    result = diff_to_overlay(diff_models(current, chosen.load()))
    result["against"] = chosen.to_json()
    return result
