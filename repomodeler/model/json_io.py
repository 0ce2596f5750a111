"""model.json (schema ``repomodeler/model@1``): the only reader and writer of the file.

:func:`to_json` writes a :class:`~repomodeler.model.records.Model`; :func:`from_dict` reads parsed
model.json content back into the same records, so ``to_json(from_dict(json.loads(text))) == text``
for every file ``analyze`` wrote.  :func:`parse` turns bytes or text into that content (with the
errors a user can act on), :func:`read_file` does both for a path.

The fields other code adds concurrently are optional: a node's or edge's ``rules`` (rule ids) and
the document's ``rules`` catalog are read when present and written only when non-empty.
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

from repomodeler.model.nesting import DERIVED_STATS, derived_stats
from repomodeler.model.records import (
    SCHEMA,
    Component,
    Connection,
    Endpoint,
    Model,
    Port,
    RepositoryRef,
    Rule,
    frozen_mapping,
    make,
)
from repomodeler.records import Evidence, MessageType, RepomodelerError, Unresolved, Warning_


class ModelFormatError(RepomodelerError):
    """model.json content that is not a model this version can read.  ``reason`` completes the
    sentence "model.json ..." (what the server shows on a broken gallery card)."""

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason or message.removeprefix("error: ")


# ------------------------------------------------------------------------------------------ writing
def to_dict(model: Model) -> dict[str, object]:
    """The model.json content of `model` (nodes by id, edges by source, target and protocol)."""
    nodes = []
    for cid in sorted(model.components):
        c = model.components[cid]
        nodes.append({
            "id": cid, "name": c.name, "kind": c.kind, "repository": c.repository, "language": c.language,
            **({"parent": c.parent} if c.parent else {}),
            "evidence": [e.to_json() for e in c.evidence], "attributes": dict(c.attributes),
            "ports": [p.to_json() for p in c.ports],
            **({"rules": list(c.rules)} if c.rules else {}),
        })
    edges = []
    for key in sorted(model.connections):
        e = model.connections[key]
        edges.append({
            "id": e.id, "source": e.source, "target": e.target, "kind": e.kind, "protocol": e.protocol,
            "evidence": [x.to_json() for x in e.evidence], "attributes": dict(e.attributes),
            **({"rules": list(e.rules)} if e.rules else {}),
        })
    return {
        "schema": SCHEMA,
        "name": model.name,
        "repositories": [r.to_json() for r in model.repositories],
        "nodes": nodes,
        "edges": edges,
        **({"messages": [m.to_json() for m in model.messages]} if model.messages else {}),
        "unresolved": [{"component": u.component, "value": u.value, "evidence": u.evidence.to_json()}
                       for u in model.unresolved],
        "warnings": [w.to_json() for w in model.warnings],
        "stats": derived_stats(model),
        **({"rules": [r.to_json() for r in model.rules]} if model.rules else {}),
    }


def to_json(model: Model) -> str:
    """The text of model.json."""
    return json.dumps(to_dict(model), indent=2, sort_keys=False, ensure_ascii=False) + "\n"


# ------------------------------------------------------------------------------------------ reading
def parse(data: bytes | str, origin: str = "model.json") -> Any:
    """JSON text (or UTF-8 bytes) -> its content; ModelFormatError with a one-line reason otherwise."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        return json.loads(text)
    except RecursionError:
        raise ModelFormatError(f"error: cannot read '{origin}': the JSON is nested too deeply",
                               "is nested too deeply to read") from None
    except UnicodeDecodeError as exc:
        raise ModelFormatError(f"error: cannot read '{origin}': {exc}", "is not UTF-8 text") from None
    except ValueError as exc:
        raise ModelFormatError(f"error: cannot read '{origin}': {exc}",
                               f"is not valid JSON ({str(exc)[:120]})") from None


def read_dict(path: Path) -> dict[str, Any]:
    """The parsed content of the model.json at `path` (a JSON object)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ModelFormatError(f"error: cannot read '{path}': {exc}") from exc
    data = parse(raw, str(path))
    if not isinstance(data, dict):
        raise ModelFormatError(f"error: '{path}' is not a repomodeler model.json (not a JSON object)",
                               "is not a JSON object")
    return data


def read_file(path: Path) -> Model:
    """The model in the model.json at `path`."""
    return from_dict(read_dict(path), str(path))


def _text(value: object, what: str) -> str:
    if type(value) is str:
        return value  # type: ignore[return-value]
    if isinstance(value, (dict, list)):
        raise TypeError(f"{what} is not a text")
    return str(value)


def _optional(value: object, what: str) -> str | None:
    return None if value is None else _text(value, what)


def _evidence_one(e: object) -> Evidence:
    if not isinstance(e, dict):
        raise TypeError("evidence is not an object")
    repository, path, line = e.get("repository", ""), e.get("path", ""), e.get("line")
    if type(repository) is str and type(path) is str and type(line) is int:
        return make(Evidence, repository=repository, path=path, line=line)  # the common case: as analyze wrote it
    return Evidence(_text(repository, "repository"), _text(path, "path"), int(line or 0))  # type: ignore[call-overload]


def _evidence(items: object) -> tuple[Evidence, ...]:
    if not items:
        return ()
    if not isinstance(items, list):
        raise TypeError("evidence is not a list")
    if len(items) == 1:
        return (_evidence_one(items[0]),)
    return tuple(sorted([_evidence_one(e) for e in items]))


def _attributes(value: object) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError("attributes is not an object")
    return {str(k): v for k, v in value.items()}  # values kept as written (to write them back unchanged)


def _rules(value: object) -> tuple[str, ...]:
    if not value:
        return ()
    if not isinstance(value, list):
        raise TypeError("rules is not a list")
    return tuple(_text(r, "rule") for r in value)


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError(f"'{key}' is not a list")
    return value


def _port(data: object) -> Port:
    if not isinstance(data, dict):
        raise TypeError("port is not an object")
    endpoints = []
    for ep in _list(data, "endpoints"):
        if not isinstance(ep, dict):
            raise TypeError("endpoint is not an object")
        endpoints.append(make(
            Endpoint, method=_text(ep.get("method", ""), "method"), path=_text(ep.get("path", ""), "path"),
            evidence=_evidence(ep.get("evidence")),
            **{k: _text(ep[k], k) if ep.get(k) else "" for k in ("package", "request", "response", "stream")}))
    return make(Port, name=_text(data.get("name", ""), "port name"), protocol=_text(data.get("protocol", ""), "protocol"),
                direction=_text(data.get("direction", "provided"), "direction"), endpoints=tuple(endpoints),
                evidence=_evidence(data.get("evidence")))


def _component(n: object) -> Component:
    if not isinstance(n, dict):
        raise TypeError("node is not an object")
    if n.get("id") is None:
        raise TypeError("node without an id")
    cid = _text(n["id"], "id")
    ports = [_port(p) for p in _list(n, "ports")]
    if len(ports) > 1:
        ports.sort(key=lambda p: p.name)
    return make(
        Component, id=cid, name=_text(n.get("name", cid), "name"), kind=_text(n.get("kind", ""), "kind"),
        repository=_optional(n.get("repository"), "repository"), language=_optional(n.get("language"), "language"),
        parent=_optional(n.get("parent"), "parent") or None, evidence=_evidence(n.get("evidence")),
        attributes=frozen_mapping(_attributes(n.get("attributes"))),  # type: ignore[arg-type]
        ports=tuple(ports), rules=_rules(n.get("rules")))


def _connection(e: object) -> Connection:
    if not isinstance(e, dict):
        raise TypeError("edge is not an object")
    source, target = _text(e["source"], "source"), _text(e["target"], "target")
    protocol = _text(e.get("protocol", ""), "protocol")
    return make(Connection, source=source, target=target, kind=_text(e.get("kind", ""), "kind"), protocol=protocol,
                evidence=_evidence(e.get("evidence")),
                attributes=frozen_mapping(_attributes(e.get("attributes"))),  # type: ignore[arg-type]
                rules=_rules(e.get("rules")),
                id=_text(e.get("id"), "id") if e.get("id") else f"{source}->{target}:{protocol}")


def _repository(r: object) -> RepositoryRef:
    if not isinstance(r, dict):
        raise TypeError("repository is not an object")
    return RepositoryRef(name=_text(r.get("name", ""), "name"), url=_optional(r.get("url"), "url"),
                         commit=_optional(r.get("commit"), "commit"), ref=_optional(r.get("ref"), "ref"),
                         committed_at=_optional(r.get("committed_at"), "committed_at"))


def _unresolved(u: object) -> Unresolved:
    if not isinstance(u, dict):
        raise TypeError("unresolved reference is not an object")
    return Unresolved(component=_text(u.get("component", ""), "component"), value=_text(u.get("value", ""), "value"),
                      evidence=_evidence_one(u.get("evidence") or {}))


def _warning(w: object) -> Warning_:
    if not isinstance(w, dict):
        raise TypeError("warning is not an object")
    return Warning_(_text(w.get("repository", ""), "repository"), _text(w.get("path", ""), "path"),
                    int(w.get("line") or 0), _text(w.get("message", ""), "message"))


def from_dict(data: object, origin: str = "") -> Model:
    """Parsed model.json content -> :class:`Model`.  Missing optional fields take their defaults;
    content of the wrong shape raises :class:`ModelFormatError`."""
    where = f"'{origin}' " if origin else ""
    if not isinstance(data, dict) or "nodes" not in data or "edges" not in data:
        raise ModelFormatError(f"error: {where}is not a repomodeler model.json (no 'nodes' and 'edges')",
                               "is not a JSON object" if not isinstance(data, dict) else "has no 'nodes' and 'edges'")
    enabled = gc.isenabled()
    gc.disable()  # it makes nothing cyclic; a collection would walk every record made so far, again and again
    try:
        components: dict[str, Component] = {}
        for n in _list(data, "nodes"):
            c = _component(n)
            components[c.id] = c
        connections: dict[tuple[str, str, str], Connection] = {}
        for e in _list(data, "edges"):
            conn = _connection(e)
            connections[conn.key] = conn
        stats = data.get("stats") or {}
        if not isinstance(stats, dict):
            raise TypeError("'stats' is not an object")
        messages = sorted((MessageType.from_json(m) for m in _list(data, "messages")
                           if isinstance(m, dict) and m.get("name")), key=lambda m: m.name)
        rules = tuple(Rule(_text(r.get("id", ""), "rule id"), _text(r.get("message", ""), "rule message"))
                      for r in _list(data, "rules") if isinstance(r, dict))
        name = data.get("name")
        return Model(
            name=_text(name, "name") if name is not None else "",
            components=frozen_mapping(dict(sorted(components.items()))),  # type: ignore[arg-type]
            connections=frozen_mapping(dict(sorted(connections.items()))),  # type: ignore[arg-type]
            repositories=tuple(_repository(r) for r in _list(data, "repositories")),
            messages=tuple(messages),
            unresolved=tuple(_unresolved(u) for u in _list(data, "unresolved")),
            warnings=tuple(sorted({_warning(w) for w in _list(data, "warnings")})),
            stats=frozen_mapping({k: v for k, v in stats.items() if k not in DERIVED_STATS}),
            rules=rules,
            schema=_optional(data.get("schema"), "schema"),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ModelFormatError(f"error: {where}is not a model.json this version can read ({exc})",
                               "has values of unexpected types") from None
    except RecursionError:
        raise ModelFormatError(f"error: {where}is nested too deeply to read", "is nested too deeply to read") from None
    finally:
        if enabled:
            gc.enable()
