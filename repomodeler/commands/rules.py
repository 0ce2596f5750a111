"""``repomodeler rules`` lists the resolver's rules; ``repomodeler explain MODEL ELEMENT`` shows which
rules made one element of a model, with their messages and the evidence behind it.

Both read declarations and model folders only: nothing is analysed again, nothing is written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from repomodeler.records import RepomodelerError


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


def _load(model: Path) -> dict:
    path = model / "model.json" if model.is_dir() else model
    if not path.is_file():
        raise RepomodelerError(f"error: '{model}' holds no model.json; name a folder 'repomodeler analyze' wrote")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RepomodelerError(f"error: cannot read '{path}': {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list) or not isinstance(data.get("edges"), list):
        raise RepomodelerError(f"error: '{path}' is not a repomodeler model.json (no 'nodes' and 'edges')")
    return data


def _find(data: dict, element: str) -> tuple[str, dict]:
    wanted = element.strip().lower()
    for n in data["nodes"]:
        if wanted in (str(n.get("id", "")).lower(), str(n.get("name", "")).lower()):
            return "component", n
    for e in data["edges"]:
        if wanted == str(e.get("id", "")).lower():
            return "connection", e
    if "->" in wanted:  # 'a -> b' without a protocol: the first such connection
        source, _, target = (x.strip() for x in wanted.partition("->"))
        for e in sorted(data["edges"], key=lambda e: str(e.get("id"))):
            if (str(e.get("source")).lower(), str(e.get("target")).lower()) == (source, target):
                return "connection", e
    raise RepomodelerError(f"error: no component or connection '{element}' in the model; use an id from model.json "
                           "(a component id, or a connection as SOURCE->TARGET or SOURCE->TARGET:PROTOCOL)")


def explanation(data: dict, element: str) -> dict[str, object]:
    """The rules behind one element (and, for a connection, behind its two ends), with their messages
    and the element's evidence."""
    from repomodeler.rules import RULES

    messages = {r.id: r.message for r in RULES}
    messages.update({str(r.get("id")): str(r.get("message")) for r in data.get("rules", []) or []
                     if isinstance(r, dict) and r.get("message")})
    kind, item = _find(data, element)
    nodes = {str(n.get("id")): n for n in data["nodes"]}

    def rules_of(x: dict) -> list[dict[str, str]]:
        return [{"id": str(r), "message": messages.get(str(r), "")} for r in x.get("rules", []) or []]

    attributes = item.get("attributes") or {}
    out: dict[str, object] = {
        "element": str(item.get("id")), "type": kind, "kind": item.get("kind"),
        "rules": rules_of(item),
        "resolved_by": attributes.get("resolved_by", ""), "patterns": attributes.get("patterns", ""),
        "evidence": [f"{e.get('repository')}:{e.get('path')}:{e.get('line')}" for e in item.get("evidence", [])],
    }
    if kind == "connection":
        out["via"] = attributes.get("via", "")
        out["ends"] = {end: {"id": str(item.get(end)), "rules": rules_of(nodes.get(str(item.get(end)), {}))}
                       for end in ("source", "target")}
    elif item.get("parent"):
        out["parent"] = item.get("parent")
    return out


@click.command("explain")
@click.argument("model", type=click.Path(path_type=Path))
@click.argument("element")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def explain(model: Path, element: str, fmt: str) -> None:
    """Which rules made ELEMENT (a component id or SOURCE->TARGET[:PROTOCOL]) of MODEL (a model folder or
    model.json), what they conclude, and the evidence."""
    try:
        out = explanation(_load(model), element)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(out, indent=2))
        return
    click.echo(f"{out['type']} {out['element']} ({out['kind']})")
    if out.get("parent"):
        click.echo(f"  part of {out['parent']}")
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
