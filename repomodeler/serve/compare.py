"""What a model can be compared with in the viewer, and the diff overlay against one of those.

A thin adapter over :mod:`repomodeler.diff`: the viewer lists *candidates* (other model folders
of the same system, target ``.sysml`` files, stored runs of the same system) and a request names
one by its listed id. A library package (the generated ``RepoModeler.sysml``, wherever it was
copied) is never a target, a shared target (``MODELS_DIR/targets/``) is offered to the system its
file name names, and another model folder only when it is the same system (name or a repository
in common). Nothing in a request is ever turned into a filesystem path: the id is looked up in the list
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
#: The start of a library package (RepoModeler.sysml, or a copy under another name): never a target.
_LIBRARY_START = re.compile(rb"^\s*(?:(?://[^\n]*|/\*.*?\*/)\s*)*(?:standard\s+)?library\s+package\b", re.S)
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


def _is_library(path: Path) -> bool:
    """A library package (the generated RepoModeler.sysml, or a copy): what models import, not a
    system to compare with (it shows as every element "removed")."""
    if path.name in NOT_TARGETS:
        return True
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return True
    return bool(_LIBRARY_START.match(head))


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def _names_system(file_name: str, system: str) -> bool:
    """A shared target belongs to `system` when its file name holds the system's name as whole words
    (``shop-v3.sysml`` for shop, ``spring-cloud-next.sysml`` for spring-cloud)."""
    stem, want = _words(Path(file_name).stem), _words(system)
    return bool(want) and any(stem[i:i + len(want)] == want for i in range(len(stem) - len(want) + 1))


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
        if _is_library(path):
            continue
        display = f"{name}/{path.name}"
        out.append(Candidate(f"target:{path.name}", "target", path.name, display, _sysml_loader(path, display)))
    own_targets = folder / TARGETS_DIR
    if not own_targets.is_symlink():
        for path in _sysml_files(own_targets):
            if _is_library(path):
                continue
            display = f"{name}/{TARGETS_DIR}/{path.name}"
            out.append(Candidate(f"target:{TARGETS_DIR}/{path.name}", "target", path.name, display,
                                 _sysml_loader(path, display)))
    shared = store.root / TARGETS_DIR
    # a model that happens to be called "targets" is a model, not a folder of targets
    if not shared.is_symlink() and not (shared / "model.json").exists():
        system = _system_name(store, name)
        for path in _sysml_files(shared):
            # shared targets are every system's: offered to the one they name only
            if _is_library(path) or not (_names_system(path.name, system) or _names_system(path.name, name)):
                continue
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


def _system_name(store: ModelStore, name: str) -> str:
    try:
        return str(store.model(name).get("name") or name)
    except NotFound:
        return name


def _identity(store: ModelStore, name: str) -> tuple[str, set[str]]:
    """What makes two model folders the same system: its name, and its repositories (by URL, or by
    name and pinned commit for a repository without one)."""
    try:
        data = store.model(name)
    except NotFound:
        return "", set()
    repos = set()
    for r in data.get("repositories") or []:
        if not isinstance(r, dict):
            continue
        url = r.get("url")
        if isinstance(url, str) and url:
            repos.add("url:" + re.sub(r"(\.git)?/*$", "", url.strip()).lower())
        elif r.get("name") and r.get("commit"):
            repos.add(f"commit:{r.get('name')}@{r.get('commit')}")
    return str(data.get("name") or "").strip().lower(), repos


def model_candidates(store: ModelStore, name: str) -> list[Candidate]:
    """The other model folders of the same system: the same system name or a repository in common
    (an unrelated system is no comparison)."""
    own_name, own_repos = _identity(store, name)
    out = []
    for other in store.names():
        if other == name:
            continue
        other_name, other_repos = _identity(store, other)
        if not ((own_name and other_name == own_name) or own_repos & other_repos):
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
