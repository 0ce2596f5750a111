"""The canonical model of whatever a user names: a model folder, a model.json, a .sysml file, a run.

Questions are answered on :class:`repomodeler.model.Model` only.  model.json goes through the
model's own reader (:func:`repomodeler.model.read_file`), a stored run through the run store
(:mod:`repomodeler.store`), and a ``.sysml`` file through the SysML reader
(:mod:`repomodeler.sysml_reader`), which reads into the same records: a SysML model names no rules
and no unresolved references, so those answers are empty for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repomodeler.diff.load import arch_model
from repomodeler.diff.view import ArchModel
from repomodeler.model import Model, from_dict, read_file
from repomodeler.records import RepomodelerError
from repomodeler.sysml_reader import read_model_file, read_model_text

RUN_PREFIX = "run:"


@dataclass(frozen=True)
class Loaded:
    """A model and where it came from (``origin``: the path, or ``run:SYSTEM:N``); ``arch`` is the SysML
    reader's view when it was read from SysML (a hand-written target states less than an analysed
    model, and the diff must know it)."""

    model: Model
    origin: str
    arch: ArchModel | None = None


def run_model(system: str, which: str) -> Loaded:
    """A stored run of `system` (``N``, ``latest``, ``previous``) from the run history."""
    from repomodeler.store import RunStore

    run = RunStore().get(system, which)
    origin = f"run:{run.system}:{run.number}"
    return Loaded(from_dict(run.model(), origin), origin)


def split_run(spec: str) -> tuple[str, str]:
    """``run:SYSTEM:N`` -> (SYSTEM, N); ``run:SYSTEM`` means the latest run."""
    system, _, which = spec[len(RUN_PREFIX):].rpartition(":")
    if not system:
        system, which = which, "latest"
    if not system:
        raise RepomodelerError(f"error: '{spec}' names no system; write run:SYSTEM:N, run:SYSTEM:latest or run:SYSTEM:previous")
    return system, which or "latest"


def _sysml(path: Path) -> Loaded:
    model = read_model_file(path)
    return Loaded(model, str(path), arch_model(model, str(path)))


def sysml_text(text: str, origin: str) -> Loaded:
    """SysML text (a target file a models folder holds) as a loaded model."""
    model = read_model_text(text, origin)
    return Loaded(model, origin, arch_model(model, origin))


def load(spec: str) -> Loaded:
    """A model folder, a model.json, a .sysml file, or ``run:SYSTEM:N|latest|previous``."""
    if spec.startswith(RUN_PREFIX):
        return run_model(*split_run(spec))
    path = Path(spec)
    if path.is_dir():
        if (path / "model.json").is_file():
            return Loaded(read_file(path / "model.json"), str(path / "model.json"))
        sysml = sorted(path.glob("*.sysml"))
        if len(sysml) == 1:
            return _sysml(sysml[0])
        raise RepomodelerError(f"error: '{path}' holds no model.json; give a model folder, a model.json, "
                               "a .sysml file or run:SYSTEM:N")
    if path.is_file():
        if path.suffix == ".json":
            return Loaded(read_file(path), str(path))
        if path.suffix in (".sysml", ".kerml"):
            return _sysml(path)
        raise RepomodelerError(f"error: '{path}' is neither a model.json nor a .sysml file; give a model folder, "
                               "a model.json, a .sysml file or run:SYSTEM:N")
    raise RepomodelerError(f"error: '{spec}' does not exist; give a model folder, a model.json, a .sysml file "
                           "or run:SYSTEM:N")


def run_reference(ref: str, system: str) -> Loaded:
    """A run named in full (``run:SYSTEM:N``) or by its number alone (``N``, ``latest``, ``previous``),
    then of `system`."""
    ref = ref.strip()
    if ref.startswith(RUN_PREFIX):
        return run_model(*split_run(ref))
    if not ref or not (ref.isdigit() or ref in ("latest", "previous")):
        raise RepomodelerError(f"error: '{ref}' is not a run; write N, latest, previous or run:SYSTEM:N "
                               "('repomodeler runs list' shows them)")
    return run_model(system, ref)
