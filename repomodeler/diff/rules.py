"""Drift check: does the analysed code match the target architecture and the dependency rules?

A violation is something CI should fail on, with evidence a reviewer can open: a component or
connection the code has and the target does not allow (evidence: the file:line analysis found it
at), one the target requires and the code lacks (evidence: the target's file:line), a connection
on another protocol than the target says, or a dependency a rules file forbids.

Rules file (YAML)::

    forbid:
      - to: payments-db          # nobody but billing may use payments-db
        except: [billing]
      - from: frontend           # the frontend never talks to a database directly
        to: "*-db"               # shell-style patterns are allowed
        protocol: sql            # optional
    ignore: [api.stripe.com]     # components the target comparison skips (both ways)
"""

from __future__ import annotations

import fnmatch
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from repomodeler.leftovers import tmp_prefix
from repomodeler.diff.core import diff_models
from repomodeler.records import RepomodelerError
from repomodeler.diff.view import ArchModel

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.model import Model


@dataclass(frozen=True)
class ForbidRule:
    source: str | None = None  # 'from' pattern
    target: str | None = None  # 'to' pattern
    protocol: str | None = None
    allowed: tuple[str, ...] = ()  # 'except': sources that may have the dependency anyway
    where: str = ""  # rules.yml:entry

    def describe(self) -> str:
        parts = [f"from {self.source}" if self.source else "from anything", f"to {self.target}" if self.target else "to anything"]
        if self.protocol:
            parts.append(f"over {self.protocol}")
        if self.allowed:
            parts.append(f"except {', '.join(self.allowed)}")
        return " ".join(parts)

    def matches(self, source: str, target: str, protocol: str) -> bool:
        if self.source and not fnmatch.fnmatchcase(source, self.source):
            return False
        if self.target and not fnmatch.fnmatchcase(target, self.target):
            return False
        if self.protocol and protocol != self.protocol:
            return False
        return not any(fnmatch.fnmatchcase(source, a) for a in self.allowed)


@dataclass(frozen=True)
class Rules:
    forbid: tuple[ForbidRule, ...] = ()
    ignore: tuple[str, ...] = ()


@dataclass(frozen=True, order=True)
class Violation:
    rule: str  # unexpected-component | missing-component | changed-component | unexpected-connection |
    #            missing-connection | wrong-protocol | forbidden-dependency
    subject: str
    message: str
    evidence: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"rule": self.rule, "subject": self.subject, "message": self.message, "evidence": list(self.evidence)}


@dataclass
class CheckResult:
    current: ArchModel
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.violations


def _as_list(value: object, what: str, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    raise RepomodelerError(f"error: {where}: '{what}' must be a name or a list of names")


def load_rules(path: Path) -> Rules:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise RepomodelerError(f"error: cannot read rules file '{path}': {exc.strerror or exc}") from exc
    except yaml.YAMLError as exc:  # one line: file:line:col and the parser's reason
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RepomodelerError(f"error: {where}: the rules file is not valid YAML ({reason})") from exc
    if not isinstance(data, dict):
        raise RepomodelerError(f"error: {path}: expected a mapping with 'forbid' and/or 'ignore'")
    unknown = sorted(set(data) - {"forbid", "ignore"})
    if unknown:
        raise RepomodelerError(f"error: {path}: unknown key(s) {', '.join(unknown)} (known: forbid, ignore)")
    if not isinstance(data.get("forbid") or [], list):
        raise RepomodelerError(f"error: {path}: 'forbid' must be a list of rules (- {{to: name}})")
    forbid = []
    for i, entry in enumerate(data.get("forbid") or [], 1):
        where = f"{path}: forbid #{i}"
        if not isinstance(entry, dict) or not ({"from", "to"} & set(entry)):
            raise RepomodelerError(f"error: {where}: each rule needs 'from' and/or 'to'")
        bad = sorted(set(entry) - {"from", "to", "except", "protocol"})
        if bad:
            raise RepomodelerError(f"error: {where}: unknown key(s) {', '.join(bad)} (known: from, to, except, protocol)")
        forbid.append(ForbidRule(source=str(entry["from"]) if entry.get("from") else None,
                                 target=str(entry["to"]) if entry.get("to") else None,
                                 protocol=str(entry["protocol"]).lower() if entry.get("protocol") else None,
                                 allowed=_as_list(entry.get("except"), "except", where), where=where))
    return Rules(forbid=tuple(forbid), ignore=_as_list(data.get("ignore"), "ignore", str(path)))


def _without(model: ArchModel, ignore: tuple[str, ...]) -> ArchModel:
    if not ignore:
        return model
    gone = {c for c in model.components if any(fnmatch.fnmatchcase(c, p) for p in ignore)}
    return ArchModel(name=model.name, origin=model.origin, complete=model.complete, notes=model.notes,
                     components={k: v for k, v in model.components.items() if k not in gone},
                     connections=[c for c in model.connections if c.source not in gone and c.target not in gone])


def check_model(current: ArchModel, target: ArchModel | None, rules: Rules | None = None) -> CheckResult:
    """Violations of ``current`` against ``target`` (may be None: rules only) and ``rules``."""
    rules = rules or Rules()
    result = CheckResult(current=current)
    if target is not None:
        d = diff_models(_without(current, rules.ignore), _without(target, rules.ignore))
        result.notes.extend(d.notes)
        result.notes.extend(str(n) for n in target.notes)
        conns = {c.id: c for c in current.connections}
        for c in d.of("component"):
            if c.status == "removed":
                comp = current.components[c.id]
                result.violations.append(Violation(
                    "unexpected-component", c.id, f"{comp.kind} '{c.id}' is in the code but not in the target",
                    tuple(comp.evidence)))
            elif c.status == "added":
                result.violations.append(Violation(
                    "missing-component", c.id, f"'{c.id}' is required by the target but the code has no such component",
                    (c.where,)))
            else:
                comp = current.components[c.id]
                result.violations.append(Violation(
                    "changed-component", c.id, f"'{c.id}' differs from the target ({c.detail})", tuple(comp.evidence)))
        for c in d.of("connection"):
            label = c.id.replace("->", " -> ")
            if c.status == "removed":
                result.violations.append(Violation(
                    "unexpected-connection", c.id, f"{label} is in the code but the target does not allow it",
                    tuple(conns[c.id].evidence)))
            elif c.status == "added":
                result.violations.append(Violation(
                    "missing-connection", c.id, f"{label} is required by the target but the code has no such connection",
                    (c.where,)))
            else:
                result.violations.append(Violation(
                    "wrong-protocol", c.id, f"{label} should be {c.new_id.rsplit(':', 1)[-1]} per the target "
                    f"(found {c.id.rsplit(':', 1)[-1]})", tuple(conns[c.id].evidence)))
    for conn in current.connections:
        for rule in rules.forbid:
            if rule.matches(conn.source, conn.target, conn.protocol):
                result.violations.append(Violation(
                    "forbidden-dependency", conn.id,
                    f"{conn.source} -> {conn.target} ({conn.protocol}) is forbidden by {rule.where} ({rule.describe()})",
                    tuple(conn.evidence)))
    result.violations.sort()
    return result


def analyse_unpublished(inputs: list[str], name: str | None = None) -> "Model":
    """Run the analysis pipeline on INPUTS and return its model without publishing it: a CI check
    writes nothing outside a temporary folder and records no run in the history."""
    from repomodeler.model import from_networkx
    from repomodeler.pipeline import AnalyzeOptions, analyze

    with tempfile.TemporaryDirectory(prefix=tmp_prefix("repomodeler-check-")) as tmp:
        result = analyze(inputs, AnalyzeOptions(name=name, out=Path(tmp) / "model", validate=False, publish=False))
    return result.model if result.model is not None else from_networkx(result.graph)
