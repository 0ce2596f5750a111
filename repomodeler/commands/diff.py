"""`repomodeler diff A B`: what changed between two architectures, or the steps from one to the other.

A and B are each a model folder (model.json), a model.json, a .sysml file (an emitted model or a
hand-written target), or a stored run: ``run:SYSTEM:N``, ``run:SYSTEM:latest``, ``run:SYSTEM:previous``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from repomodeler.records import RepomodelerError


def _fail(exc: BaseException, code: int = 1) -> None:
    click.echo(str(exc), err=True)
    sys.exit(code)


def write_or_echo(text: str, out: Path | None) -> None:
    if out is None:
        click.echo(text, nl=False)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    click.echo(f"wrote {out}", err=True)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "sysml", "overlay"]), default="table",
              show_default=True, help="table for people, json for tools, sysml for a Delta package, overlay for the viewer.")
@click.option("--steps", is_flag=True, help="Write the ordered migration steps from A (current) to B (target) as Markdown.")
@click.option("--out", type=click.Path(path_type=Path), help="Write to this file instead of standard output.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when A and B differ (like git diff --exit-code).")
def diff(a: str, b: str, fmt: str, steps: bool, out: Path | None, exit_code: bool) -> None:
    """Compare architecture A with B: added, removed and changed components, ports, endpoints, connections."""
    import json

    from repomodeler.diff.core import diff_models
    from repomodeler.diff.load import load_model

    try:
        result = diff_models(load_model(a), load_model(b))
    except RepomodelerError as exc:
        _fail(exc)
    if steps:
        from repomodeler.diff.steps import render_steps_markdown

        write_or_echo(render_steps_markdown(result), out)
    elif fmt == "json":
        from repomodeler.diff.render import render_json

        write_or_echo(render_json(result), out)
    elif fmt == "sysml":
        from repomodeler.diff.render import render_delta_sysml

        write_or_echo(render_delta_sysml(result), out)
    elif fmt == "overlay":
        from repomodeler.diff.overlay import diff_to_overlay

        write_or_echo(json.dumps(diff_to_overlay(result), indent=2, ensure_ascii=False) + "\n", out)
    else:
        from rich.console import Console

        from repomodeler.diff.render import render_table

        if out is not None:
            with out.open("w", encoding="utf-8") as fh:
                render_table(result, Console(file=fh, width=120, no_color=True))
            click.echo(f"wrote {out}", err=True)
        else:
            render_table(result, Console(width=None if sys.stdout.isatty() else 120, highlight=False))
    sys.exit(1 if exit_code and not result.empty else 0)


COMMANDS = [diff]
