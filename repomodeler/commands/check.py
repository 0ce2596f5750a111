"""`repomodeler check`: fail CI when the code drifts from the target architecture or breaks a rule.

Exit status: 0 when everything conforms, 1 when there are violations (each printed with the
file:line evidence), 2 when the check itself could not run (bad input, unreadable target).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from repomodeler.records import RepomodelerError

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.model import Model


@click.command("check")
@click.argument("inputs", nargs=-1, required=True)
@click.option("--target", "target_file", type=click.Path(path_type=Path),
              help="Target architecture (.sysml, model folder or run:SYSTEM:N) the code must match.")
@click.option("--rules", "rules_file", type=click.Path(path_type=Path), help="YAML rules: forbidden dependencies, ignores.")
@click.option("--name", help="System name for the analysis (default: from the inputs).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--sysml-out", type=click.Path(path_type=Path),
              help="Also write the analysed model, its rules as requirements and the violations as metadata "
                   "(model.sysml, RepoModeler.sysml, rules.sysml) into this folder.")
def check(inputs: tuple[str, ...], target_file: Path | None, rules_file: Path | None, name: str | None, fmt: str,
          sysml_out: Path | None) -> None:
    """Analyse INPUTS (as 'analyze' does, publishing nothing) and check them against --target and --rules."""
    from repomodeler.diff.load import arch_model, load_model
    from repomodeler.diff.rules import (
        Rules,
        analyse_unpublished,
        check_model,
        load_rules,
    )

    if target_file is None and rules_file is None:
        click.echo("error: give --target and/or --rules; there is nothing to check against", err=True)
        sys.exit(2)
    try:
        target = load_model(str(target_file)) if target_file is not None else None
        rules = load_rules(rules_file) if rules_file is not None else Rules()
        analysed = analyse_unpublished(list(inputs), name)
        current = arch_model(analysed, "analysis of " + " ".join(inputs))
        result = check_model(current, target, rules)
        if sysml_out is not None:
            _write_sysml(analysed, rules, result.violations, str(target_file) if target_file else None, sysml_out)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(2)
    if fmt == "json":
        click.echo(json.dumps({"ok": result.ok, "system": current.name,
                               "violations": [v.to_json() for v in result.violations], "notes": result.notes}, indent=2))
    else:
        for v in result.violations:
            click.echo(f"VIOLATION [{v.rule}] {v.message}")
            for ev in v.evidence:
                click.echo(f"    at {ev}")
        for note in result.notes:
            click.echo(f"note: {note}", err=True)
        what = " and ".join(x for x in (f"target {target_file}" if target_file else "",
                                         f"rules {rules_file}" if rules_file else "") if x)
        if result.ok:
            click.echo(f"OK: {current.name} ({len(current.components)} components, {len(current.connections)} "
                       f"connections) conforms to {what}")
        else:
            click.echo(f"FAILED: {len(result.violations)} violation(s) of {what}", err=True)
    sys.exit(0 if result.ok else 1)


def _write_sysml(analysed: "Model", rules, violations, target: str | None, out: Path) -> None:  # type: ignore[no-untyped-def]
    """model.sysml + RepoModeler.sysml of the analysis and rules.sysml (requirements, violations) into ``out``."""
    from repomodeler.emit.requirements import RULES_FILE, render_rules
    from repomodeler.emit.sysml import model_files
    from repomodeler.model import to_networkx

    graph = to_networkx(analysed)
    files = {**model_files(graph), RULES_FILE: render_rules(graph, rules.forbid, violations, target)}
    try:
        out.mkdir(parents=True, exist_ok=True)
        for file_name, text in sorted(files.items()):
            (out / file_name).write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise RepomodelerError(f"error: cannot write '{out}': {exc.strerror or exc}") from exc


COMMANDS = [check]
