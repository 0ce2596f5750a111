"""Match two architectures and list what changed: components, ports, endpoints, connections.

Matching is by qualified name (component id; ``component.port``; ``source->target``) and, for
what is left over, by a normalised name (lowercase, quotes, '-', '_' and spaces removed), so a
target that writes ``orders_db`` still lines up with ``orders-db``; every such match is reported.
Connections are matched on (source, target, protocol) first, then on (source, target) alone, so a
protocol change reads as one *changed* connection rather than a removal plus an addition.

What is compared only when both sides can say it: a hand-written target that declares no ports
(or no endpoints) is not reported as removing them all, and attributes (language, technology,
image) are compared when both sides state them, or when both are analysed models.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repomodeler.diff.view import ArchModel, ModelComponent, ModelConnection, ReaderNote
from repomodeler.sysml_reader import gc_paused

COMPARED_ATTRIBUTES = ("language", "technology", "image")
ELEMENTS = ("component", "port", "endpoint", "connection")
STATUSES = ("added", "removed", "changed")


def normalise(name: str) -> str:
    return re.sub(r"['\"\-_\s]", "", name.lower())


@dataclass(frozen=True, order=True)
class FieldChange:
    field: str
    old: str
    new: str

    def __str__(self) -> str:
        return f"{self.field}: {self.old or '(none)'} -> {self.new or '(none)'}"


@dataclass(frozen=True, order=True)
class ElementChange:
    """One added, removed or changed element.  ``id`` uses A's names (B's for added elements)."""

    element: str  # component | port | endpoint | connection
    id: str
    status: str  # added | removed | changed
    changes: tuple[FieldChange, ...] = ()
    new_id: str = ""  # B's id when it differs (a connection whose protocol changed, a renamed match)
    component: str = ""  # the component this element belongs to (the source, for a connection)
    where: str = ""  # where the element is declared on the side that has it (file:line or model.json)

    @property
    def detail(self) -> str:
        return "; ".join(str(c) for c in self.changes)

    def to_json(self) -> dict[str, object]:
        return {"element": self.element, "id": self.id, "status": self.status, "new_id": self.new_id or None,
                "component": self.component, "where": self.where,
                "changes": [{"field": c.field, "old": c.old, "new": c.new} for c in self.changes]}


@dataclass
class Diff:
    a: ArchModel
    b: ArchModel
    changes: list[ElementChange] = field(default_factory=list)
    matches: list[tuple[str, str]] = field(default_factory=list)  # (A id, B id) matched by normalised name
    notes: list[str] = field(default_factory=list)

    @property
    def reader_notes(self) -> list[ReaderNote]:
        return sorted(set(self.a.notes) | set(self.b.notes))

    def of(self, element: str, status: str | None = None) -> list[ElementChange]:
        return [c for c in self.changes if c.element == element and (status is None or c.status == status)]

    @property
    def empty(self) -> bool:
        return not self.changes

    def counts(self) -> dict[str, dict[str, int]]:
        return {e: {s: len(self.of(e, s)) for s in STATUSES} for e in ELEMENTS}

    def to_json(self) -> dict[str, object]:
        return {
            "a": self.a.origin, "b": self.b.origin, "counts": self.counts(),
            "changes": [c.to_json() for c in self.changes],
            "matched_by_normalised_name": [{"a": x, "b": y} for x, y in self.matches],
            "notes": list(self.notes), "reader_notes": [str(n) for n in self.reader_notes],
        }


def _match_names(a_names: list[str], b_names: list[str]) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """B name -> A name for exact and (unique) normalised matches, and the list of normalised ones."""
    a_set = set(a_names)
    mapping = {n: n for n in b_names if n in a_set}
    matched_a = set(mapping)  # exact matches map a name to itself
    left_a = [n for n in a_names if n not in matched_a]
    left_b = [n for n in b_names if n not in mapping]
    by_key_a: dict[str, list[str]] = {}
    for n in left_a:
        by_key_a.setdefault(normalise(n), []).append(n)
    by_key_b: dict[str, list[str]] = {}
    for n in left_b:
        by_key_b.setdefault(normalise(n), []).append(n)
    fuzzy = []
    for key, bs in sorted(by_key_b.items()):
        as_ = by_key_a.get(key, [])
        if len(bs) == 1 and len(as_) == 1:
            mapping[bs[0]] = as_[0]
            fuzzy.append((as_[0], bs[0]))
    return mapping, fuzzy


def _component_changes(a: ModelComponent, b: ModelComponent, both_complete: bool) -> tuple[FieldChange, ...]:
    out = []
    if a.kind != b.kind:
        out.append(FieldChange("kind", a.kind, b.kind))
    for key in COMPARED_ATTRIBUTES:
        old, new = a.attributes.get(key, ""), b.attributes.get(key, "")
        if old != new and (both_complete or (old and new)):
            out.append(FieldChange(key, old, new))
    return tuple(out)


def diff_models(a: ArchModel, b: ArchModel) -> Diff:
    """Everything that differs from A to B (A = current, B = target, usually)."""
    with gc_paused():
        return _diff_models(a, b)


def _diff_models(a: ArchModel, b: ArchModel) -> Diff:
    d = Diff(a=a, b=b)
    rename, d.matches = _match_names(sorted(a.components), sorted(b.components))
    for a_id, b_id in d.matches:
        d.notes.append(f"component '{b_id}' in {b.origin} matched '{a_id}' by normalised name")
    both_complete = a.complete and b.complete
    skipped_ports: list[str] = []
    skipped_endpoints: list[str] = []
    matched_b = set(rename)
    matched_a = set(rename.values())
    changes: list[ElementChange] = []
    for a_id, comp in a.components.items():
        if a_id not in matched_a:
            changes.append(ElementChange("component", a_id, "removed", component=a_id, where=comp.where))
    for b_id, comp in b.components.items():
        if b_id not in matched_b:
            changes.append(ElementChange("component", b_id, "added", component=b_id, where=comp.where))
            continue
        a_id = rename[b_id]
        old = a.components[a_id]
        fields = _component_changes(old, comp, both_complete)
        if fields:
            changes.append(ElementChange("component", a_id, "changed", fields, new_id=b_id if b_id != a_id else "",
                                         component=a_id, where=comp.where))
        # A side that declares no ports (or no endpoints) for a component says nothing about them:
        # compared only when both sides state them, or both are analysed models.
        if both_complete or (old.provided_ports() and comp.provided_ports()):
            changes.extend(_port_changes(a_id, old, comp, both_complete, skipped_endpoints))
        elif old.provided_ports() or comp.provided_ports():
            skipped_ports.append(a_id)
    if skipped_ports:
        d.notes.append(f"ports of {len(skipped_ports)} component(s) not compared: declared on one side only "
                       f"({', '.join(skipped_ports[:5])}{', ...' if len(skipped_ports) > 5 else ''})")
    if skipped_endpoints:
        d.notes.append(f"endpoints of {len(skipped_endpoints)} port(s) not compared: declared on one side only "
                       f"({', '.join(skipped_endpoints[:5])}{', ...' if len(skipped_endpoints) > 5 else ''})")
    changes.extend(_connection_changes(a.connections, b.connections, rename))
    d.changes = sorted(changes, key=lambda c: (ELEMENTS.index(c.element), STATUSES.index(c.status), c.id))
    return d


def _port_changes(cid: str, a: ModelComponent, b: ModelComponent, both_complete: bool,
                  skipped_endpoints: list[str]) -> list[ElementChange]:
    out = []
    pa, pb = a.provided_ports(), b.provided_ports()
    rename, _fuzzy = _match_names(sorted(pa), sorted(pb))
    matched = set(rename.values())
    for name, port in pa.items():
        if name not in matched:
            out.append(ElementChange("port", f"{cid}.{name}", "removed", component=cid, where=a.where))
    for name, port in pb.items():
        if name not in rename:
            out.append(ElementChange("port", f"{cid}.{name}", "added", (FieldChange("protocol", "", port.protocol),),
                                     component=cid, where=b.where))
            continue
        old = pa[rename[name]]
        pid = f"{cid}.{old.name}"
        if old.protocol != port.protocol:
            out.append(ElementChange("port", pid, "changed", (FieldChange("protocol", old.protocol, port.protocol),),
                                     component=cid, where=b.where))
        if not both_complete and bool(old.endpoints) != bool(port.endpoints):
            skipped_endpoints.append(pid)
        elif both_complete or old.endpoints:
            ea, eb = {e.label for e in old.endpoints}, {e.label for e in port.endpoints}
            out.extend(ElementChange("endpoint", f"{pid}:{e}", "removed", component=cid, where=a.where)
                       for e in sorted(ea - eb))
            out.extend(ElementChange("endpoint", f"{pid}:{e}", "added", component=cid, where=b.where)
                       for e in sorted(eb - ea))
    return out


def _connection_changes(a_conns: list[ModelConnection], b_conns: list[ModelConnection],
                        rename: dict[str, str]) -> list[ElementChange]:
    a_map = {c.id: c for c in a_conns}
    b_map: dict[str, tuple[ModelConnection, str, str, str]] = {}
    for c in b_conns:
        src, tgt = rename.get(c.source, c.source), rename.get(c.target, c.target)
        b_map[f"{src}->{tgt}:{c.protocol}"] = (c, src, tgt, c.protocol)
    out = []
    only_a = sorted(set(a_map) - set(b_map))
    only_b = sorted(set(b_map) - set(a_map))
    # Same pair, other protocol: one changed connection (e.g. orders -> payments moved from http to grpc).
    pairs_b: dict[tuple[str, str], list[str]] = {}
    for key in only_b:
        _c, src, tgt, _p = b_map[key]
        pairs_b.setdefault((src, tgt), []).append(key)
    taken: set[str] = set()
    for key in only_a:
        conn = a_map[key]
        candidates = pairs_b.get((conn.source, conn.target)) or []
        if candidates:
            new_key = candidates.pop(0)
            new = b_map[new_key][0]
            out.append(ElementChange("connection", key, "changed", (FieldChange("protocol", conn.protocol, new.protocol),),
                                     new_id=new_key, component=conn.source, where=new.where))
            taken.add(new_key)
        else:
            out.append(ElementChange("connection", key, "removed", component=conn.source, where=conn.where))
    for key in only_b:
        if key in taken:
            continue
        conn, src, _tgt, _p = b_map[key]
        out.append(ElementChange("connection", key, "added", component=src, where=conn.where))
    return out
