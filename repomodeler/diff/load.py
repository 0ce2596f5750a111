"""Load an architecture from whatever the user names: a model folder, model.json, a .sysml file, a run.

Every source becomes the same :class:`ArchModel`, so the diff never needs to know where a side
came from.  model.json lists only the API ports analysis found; the SysML emitter also declares a
server port for every protocol a component is reached over, so the JSON loader adds those implied
ports too (marked nowhere: they are what the emitted SysML says), which makes a model.json and its
own model.sysml read back identically.
"""

from __future__ import annotations

from pathlib import Path

from repomodeler.diff.view import ArchModel, ModelComponent, ModelConnection, ModelEndpoint, ModelPort
from repomodeler.model import Model, from_dict, read_file
from repomodeler.records import Evidence, RepomodelerError
from repomodeler.sysml_reader import gc_paused, read_model_file, read_model_text

RUN_PREFIX = "run:"


def _evidence(items: tuple[Evidence, ...]) -> list[str]:
    return [str(e) for e in items]


def model_from_dict(data: dict[str, object], origin: str) -> ArchModel:
    """model.json content (schema repomodeler/model@1) -> ArchModel."""
    return arch_model(from_dict(data, origin), origin)


def arch_model(model: Model, origin: str) -> ArchModel:
    """The diff's view of a canonical model."""
    with gc_paused():
        return _arch_model(model, origin)


def read_sysml_text(text: str, path: str = "<text>") -> ArchModel:
    """A SysML document, read into the canonical model, as the diff's view."""
    return arch_model(read_model_text(text, path), path)


def read_sysml_file(path: Path) -> ArchModel:
    return arch_model(read_model_file(path), str(path))


def _arch_model(model: Model, origin: str) -> ArchModel:
    arch = ArchModel(name=model.name, origin=origin, complete=model.complete, notes=list(model.notes))
    declared = model.declared
    # Parts inside components (subsystems, logical databases) and their links are kept apart
    # (arch.parts, arch.part_links): diff and check compare the top level.
    for node in model.components.values():
        attrs = {str(k): str(v) for k, v in node.attributes.items()}
        for key, value in (("language", node.language), ("repository", node.repository)):
            if value:
                attrs[key] = value
        place = declared.get(node.id)
        comp = ModelComponent(id=node.id, kind=node.kind, attributes=attrs, evidence=_evidence(node.evidence),
                              where=place.where if place else origin, sysml_ref=place.sysml_ref if place else "",
                              parent=model.parent_of(node.id) or "")
        for p in node.ports:
            comp.ports[p.name] = ModelPort(name=p.name, protocol=p.protocol, direction=p.direction,
                                           endpoints=sorted(ModelEndpoint(e.method, e.path) for e in p.endpoints))
        (arch.components if model.is_top_level(node.id) else arch.parts)[comp.id] = comp
    nested = {c.key for c in model.nested_connections()}
    for edge in model.connections.values():
        place = declared.get(edge.id)
        conn = ModelConnection(
            source=edge.source, target=edge.target, protocol=edge.protocol, kind=edge.kind or "connects",
            name=place.name if place else f"{edge.source}-{edge.target}-{edge.protocol}",
            evidence=_evidence(edge.evidence), where=place.where if place else origin,
            sysml_ref=place.sysml_ref if place else "")
        (arch.part_links if edge.key in nested else arch.connections).append(conn)
    # The ports the SysML emitter declares for incoming connections (see emit/sysml.py render_system):
    # an analysed model has them in its SysML; a hand-written one says what it says.
    for conn in arch.connections if model.complete else ():
        target = arch.components.get(conn.target)
        if target is not None and not any(p.protocol == conn.protocol and p.direction == "provided"
                                          for p in target.ports.values()):
            target.ports[conn.protocol] = ModelPort(name=conn.protocol, protocol=conn.protocol)
    return arch


def load_model_json(path: Path) -> ArchModel:
    arch = arch_model(read_file(path), str(path))
    arch.model_json = path
    return arch


def load_model(spec: str) -> ArchModel:
    """A model folder, a model.json, a .sysml file, or ``run:<system>:<n|latest|previous>``."""
    if spec.startswith(RUN_PREFIX):
        from repomodeler.store import RunStore

        system, _, which = spec[len(RUN_PREFIX):].rpartition(":")
        if not system:
            system, which = which, "latest"
        run = RunStore().get(system, which)
        origin = f"run:{run.system}:{run.number}"
        return arch_model(from_dict(run.model(), origin), origin)
    path = Path(spec)
    if path.is_dir():
        if (path / "model.json").is_file():
            return load_model_json(path / "model.json")
        sysml = sorted(path.glob("*.sysml"))
        if len(sysml) == 1:
            return read_sysml_file(sysml[0])
        raise RepomodelerError(f"error: '{path}' holds no model.json; give a model folder, a .sysml file or run:SYSTEM:N")
    if path.is_file():
        if path.suffix == ".json":
            return load_model_json(path)
        if path.suffix in (".sysml", ".kerml"):
            return read_sysml_file(path)
        raise RepomodelerError(f"error: '{path}' is neither model.json nor a .sysml file")
    raise RepomodelerError(f"error: '{spec}' does not exist; give a model folder, a .sysml file or run:SYSTEM:N")
