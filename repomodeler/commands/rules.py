"""``repomodeler rules`` lists the resolver's rules; ``repomodeler explain MODEL ELEMENT`` shows which
rules made one element of a model, with their messages and the evidence behind it.

Both read declarations and model folders only: nothing is analysed again, nothing is written."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from repomodeler.records import RepomodelerError

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.model import Component, Connection, Model


def rule_listing() -> list[dict[str, object]]:
    """Every rule in the order the resolver runs them, with its fixture cases (paths relative to the package)."""
    from repomodeler.rules import RULES
    from repomodeler.rules.cases import load_case

    package = Path(__file__).resolve().parent.parent
    out: list[dict[str, object]] = []
    for r in RULES:
        cases = [{"file": p.relative_to(package).as_posix(), "case": load_case(r.id, p).title} for p in r.case_files()]
        out.append({"id": r.id, "group": r.group, "message": r.message, "unit": r.unit, "reads": list(r.reads),
                    "writes": list(r.writes), "after": list(r.after), "cases": cases})
    return out


@click.command("rules")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--check", is_flag=True, help="Run every rule's fixture cases; exit 1 if one fails.")
def rules(fmt: str, check: bool) -> None:
    """List the resolver's rules: id, message, what each reads and writes, and its fixture cases."""
    listing = rule_listing()
    if check:
        from repomodeler.rules.cases import cases_of, run_case

        failed = 0
        for r in listing:
            for case in cases_of(str(r["id"])):
                outcome = run_case(case)
                if not outcome.ok:
                    failed += 1
                    click.echo(f"FAIL {r['id']} {case.path.name}: {'; '.join(outcome.failures)}")
        click.echo(f"{sum(len(r['cases']) for r in listing)} case(s) of {len(listing)} rule(s), {failed} failed")  # type: ignore[arg-type]
        sys.exit(1 if failed else 0)
    if fmt == "json":
        click.echo(json.dumps({"rules": listing}, indent=2))
        return
    width = max(len(str(r["id"])) for r in listing)
    for r in listing:
        click.echo(f"{str(r['id']):<{width}}  {r['message']}")
    click.echo(f"{len(listing)} rules; 'repomodeler rules --format json' for reads, writes and fixture cases")


def _load(model: Path) -> "Model":
    from repomodeler.model import read_file

    path = model / "model.json" if model.is_dir() else model
    if not path.is_file():
        raise RepomodelerError(f"error: '{model}' holds no model.json; name a folder 'repomodeler analyze' wrote")
    return read_file(path)


def _find(model: "Model", element: str) -> tuple[str, "Component | Connection"]:
    wanted = element.strip().lower()
    for c in model.components.values():
        if wanted in (c.id.lower(), c.name.lower()):
            return "component", c
    for e in model.connections.values():
        if wanted == e.id.lower():
            return "connection", e
    if "->" in wanted:  # 'a -> b' without a protocol: the first such connection
        source, _, target = (x.strip() for x in wanted.partition("->"))
        for e in sorted(model.connections.values(), key=lambda e: e.id):
            if (e.source.lower(), e.target.lower()) == (source, target):
                return "connection", e
    raise RepomodelerError(f"error: no component or connection '{element}' in the model; use an id from model.json "
                           "(a component id, or a connection as SOURCE->TARGET or SOURCE->TARGET:PROTOCOL)")


def explanation(model: "Model", element: str) -> dict[str, object]:
    """The rules behind one element (and, for a connection, behind its two ends), with their messages
    and the element's evidence."""
    from repomodeler.model import Connection
    from repomodeler.rules import RULES

    messages = {r.id: r.message for r in RULES}
    messages.update({r.id: r.message for r in model.rules if r.message})
    kind, item = _find(model, element)

    def rules_of(rules: tuple[str, ...]) -> list[dict[str, str]]:
        return [{"id": r, "message": messages.get(r, "")} for r in rules]

    out: dict[str, object] = {
        "element": item.id, "type": kind, "kind": item.kind, "rules": rules_of(item.rules),
        "resolved_by": item.attributes.get("resolved_by", ""), "patterns": item.attributes.get("patterns", ""),
        "evidence": [str(e) for e in item.evidence],
    }
    if isinstance(item, Connection):
        out["via"] = item.attributes.get("via", "")
        ends = {"source": item.source, "target": item.target}
        out["ends"] = {end: {"id": cid, "rules": rules_of(model.components[cid].rules if cid in model.components else ())}
                       for end, cid in ends.items()}
    elif model.parent_of(item.id):
        out.update(parent=model.parent_of(item.id))  # the JSON names the part's holder
    return out


@click.command("explain")
@click.argument("model", type=click.Path(path_type=Path))
@click.argument("element")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def explain(model: Path, element: str, fmt: str) -> None:
    """Which rules made ELEMENT (a component id or SOURCE->TARGET[:PROTOCOL]) of MODEL (a model folder or
    model.json), what they conclude, and the evidence."""
    try:
        loaded = _load(model)
        out = explanation(loaded, element)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{out['type']} {out['element']} ({out['kind']})")
    holder = loaded.parent_of(str(out["element"])) if out["type"] == "component" else None
    if holder:
        click.echo(f"  part of {holder}")
    if out.get("ends"):
        for end, info in out["ends"].items():  # type: ignore[union-attr]
            click.echo(f"  {end} {info['id']}: made by {', '.join(r['id'] for r in info['rules']) or '(no rule named)'}")
    click.echo("  rules:" if out["rules"] else "  rules: none named (a model from an older repomodeler)")
    for r in out["rules"]:  # type: ignore[union-attr]
        click.echo(f"    {r['id']}: {r['message']}")
    if out.get("via"):
        click.echo(f"  via: {out['via']}")
    if out["patterns"]:
        click.echo(f"  extracted by: {out['patterns']}")
    click.echo("  evidence:")
    for e in out["evidence"]:  # type: ignore[union-attr]
        click.echo(f"    {e}")


COMMANDS = [rules, explain]
