"""The diff's index of an architecture: components by id with their ports by name, connections as a
list, the top level apart from the parts inside components.

Only :func:`repomodeler.diff.load.arch_model` builds it, from the canonical
:class:`repomodeler.model.Model` -- whether that was read from model.json, a stored run or a SysML
file (:mod:`repomodeler.sysml_reader`) -- so the comparison never depends on where a side came from.
It exists because the comparison wants mutable lookups by name (ports by name, implied ports added
for a fair comparison) that the frozen model deliberately does not offer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from repomodeler.model.records import ReaderNote

__all__ = ["ArchModel", "ModelComponent", "ModelConnection", "ModelEndpoint", "ModelPort", "ReaderNote"]


@dataclass(frozen=True, order=True)
class ModelEndpoint:
    method: str
    path: str

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}".strip()


@dataclass
class ModelPort:
    """A port of a component; ``direction`` is 'provided' (an API it offers) or 'required' (a client port)."""

    name: str
    protocol: str
    direction: str = "provided"
    endpoints: list[ModelEndpoint] = field(default_factory=list)


@dataclass
class ModelComponent:
    id: str
    kind: str
    attributes: dict[str, str] = field(default_factory=dict)
    ports: dict[str, ModelPort] = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)  # "repository:path:line", sorted
    where: str = ""  # where it is declared: "file.sysml:12" or "model.json"
    # Its qualified SysML name (``shop::ShopSystem::orders``, ``ShopTarget::system::'orders-db'``): what
    # metadata written elsewhere (a delta) annotates with ``about``; "" when unknown.
    sysml_ref: str = ""
    parent: str = ""  # the component (or part) this one is nested in; "" at the top level

    def provided_ports(self) -> dict[str, ModelPort]:
        return {n: p for n, p in self.ports.items() if p.direction == "provided"}


@dataclass
class ModelConnection:
    source: str
    target: str
    protocol: str
    kind: str = "connects"
    name: str = ""
    evidence: list[str] = field(default_factory=list)
    where: str = ""
    sysml_ref: str = ""  # qualified SysML name of the connector; "" when it has no name (or is unknown)

    @property
    def id(self) -> str:
        return f"{self.source}->{self.target}:{self.protocol}"


@dataclass
class ArchModel:
    """One architecture, whatever it was read from (SysML text, model.json, a stored run)."""

    name: str
    origin: str
    components: dict[str, ModelComponent] = field(default_factory=dict)
    connections: list[ModelConnection] = field(default_factory=list)
    notes: list[ReaderNote] = field(default_factory=list)
    complete: bool = False  # True for analysed models (every attribute known), False for hand-written SysML
    # The model.json it was read from, when it was: its elements' SysML names are those the emitter gives
    # that graph (computed when needed, see diff/render.py), not stored per element.
    model_json: Path | None = None
    # Parts inside components (subsystems, logical databases: ``parent`` set) and the connections with
    # a nested end, apart from the top level that diff and check compare (model.json keeps them apart too).
    parts: dict[str, ModelComponent] = field(default_factory=dict)
    part_links: list[ModelConnection] = field(default_factory=list)

    def connection_ids(self) -> set[str]:
        return {c.id for c in self.connections}
