"""Load an architecture from whatever the user names: a model folder, model.json, a .sysml file, a run.

Every source becomes the same :class:`ArchModel`, so the diff never needs to know where a side
came from.  model.json lists only the API ports analysis found; the SysML emitter also declares a
server port for every protocol a component is reached over, so the JSON loader adds those implied
ports too (marked nowhere: they are what the emitted SysML says), which makes a model.json and its
own model.sysml read back identically.
"""

from __future__ import annotations

import json
from pathlib import Path

from repomodeler.records import RepomodelerError
from repomodeler.sysml_reader import (
    ArchModel,
    ModelComponent,
    ModelConnection,
    ModelEndpoint,
    ModelPort,
    gc_paused,
    read_sysml_file,
)

RUN_PREFIX = "run:"


def _evidence(items: list[dict[str, object]]) -> list[str]:
    ordered = sorted(items, key=lambda e: (str(e.get("repository", "")), str(e.get("path", "")), int(e.get("line") or 0)))
    return [f"{e.get('repository', '')}:{e.get('path', '')}:{e.get('line', 0)}" for e in ordered]


def model_from_dict(data: dict[str, object], origin: str) -> ArchModel:
    """model.json content (schema repomodeler/model@1) -> ArchModel."""
    if not isinstance(data, dict) or "nodes" not in data or "edges" not in data:
        raise RepomodelerError(f"error: '{origin}' is not a repomodeler model.json (no nodes/edges)")
    with gc_paused():
        return _model_from_dict(data, origin)


def _model_from_dict(data: dict[str, object], origin: str) -> ArchModel:
    model = ArchModel(name=str(data.get("name") or ""), origin=origin, complete=True)
    # Parts inside components (subsystems: nodes with a parent) and their links are kept apart
    # (model.parts, model.part_links): diff and check compare the top level.
    nested = {n["id"] for n in data["nodes"] if n.get("parent")}  # type: ignore[union-attr]
    for node in data["nodes"]:  # type: ignore[union-attr]
        attrs = {str(k): str(v) for k, v in (node.get("attributes") or {}).items()}
        for key in ("language", "repository"):
            if node.get(key):
                attrs[key] = str(node[key])
        comp = ModelComponent(id=node["id"], kind=node["kind"], attributes=attrs,
                              evidence=_evidence(node.get("evidence") or []), where=origin,
                              parent=str(node.get("parent") or ""))
        for p in node.get("ports") or []:
            comp.ports[p["name"]] = ModelPort(
                name=p["name"], protocol=p["protocol"], direction=p.get("direction", "provided"),
                endpoints=sorted(ModelEndpoint(e["method"], e["path"]) for e in p.get("endpoints") or []))
        (model.parts if node["id"] in nested else model.components)[comp.id] = comp
    for edge in data["edges"]:  # type: ignore[union-attr]
        conn = ModelConnection(
            source=edge["source"], target=edge["target"], protocol=edge["protocol"], kind=edge.get("kind", "connects"),
            name=f"{edge['source']}-{edge['target']}-{edge['protocol']}", evidence=_evidence(edge.get("evidence") or []),
            where=origin)
        nested_end = edge["source"] in nested or edge["target"] in nested
        (model.part_links if nested_end else model.connections).append(conn)
    # The ports the SysML emitter declares for incoming connections (see emit/sysml.py render_system).
    for conn in model.connections:
        target = model.components.get(conn.target)
        if target is not None and not any(p.protocol == conn.protocol and p.direction == "provided"
                                          for p in target.ports.values()):
            target.ports[conn.protocol] = ModelPort(name=conn.protocol, protocol=conn.protocol)
    model.connections.sort(key=lambda c: (c.source, c.target, c.protocol))
    model.part_links.sort(key=lambda c: (c.source, c.target, c.protocol))
    model.components = dict(sorted(model.components.items()))
    model.parts = dict(sorted(model.parts.items()))
    return model


def load_model_json(path: Path) -> ArchModel:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RepomodelerError(f"error: cannot read '{path}': {exc}") from exc
    except RecursionError:
        raise RepomodelerError(f"error: cannot read '{path}': the JSON is nested too deeply") from None
    model = model_from_dict(data, str(path))
    model.model_json = path
    return model


def load_model(spec: str) -> ArchModel:
    """A model folder, a model.json, a .sysml file, or ``run:<system>:<n|latest|previous>``."""
    if spec.startswith(RUN_PREFIX):
        from repomodeler.store import RunStore

        system, _, which = spec[len(RUN_PREFIX):].rpartition(":")
        if not system:
            system, which = which, "latest"
        run = RunStore().get(system, which)
        return model_from_dict(run.model(), f"run:{run.system}:{run.number}")
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
