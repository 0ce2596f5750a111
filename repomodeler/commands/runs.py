"""`repomodeler runs list|show`: the history of analyses recorded by every `analyze`."""

from __future__ import annotations

import json
import sys

import click

from repomodeler.records import RepomodelerError


@click.group("runs")
def runs() -> None:
    """Recorded analyses (SQLite under $REPOMODELER_HOME); compare two with 'diff run:SYSTEM:N run:SYSTEM:M'."""


@runs.command("list")
@click.argument("system", required=False)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def list_runs(system: str | None, fmt: str) -> None:
    """List recorded runs, of SYSTEM or of every system, oldest first."""
    from repomodeler.store import RunStore

    store = RunStore()
    found = store.list(system)
    if fmt == "json":
        click.echo(json.dumps([_summary(r) for r in found], indent=2))
        return
    if not found:
        click.echo(f"no recorded runs{f' for {system}' if system else ''} in {store.path}", err=True)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(box=None, header_style="bold", pad_edge=False)
    for col in ("system", "#", "analysed at", "commits", "components", "connections", "endpoints", "duration"):
        table.add_column(col, justify="right" if col in ("#", "components", "connections", "endpoints", "duration") else "left")
    for r in found:
        table.add_row(r.system, str(r.number), r.analysed_at, r.commits, str(r.components), str(r.connections),
                      str(r.endpoints), f"{r.duration_s:.1f}s" if r.duration_s is not None else "")
    Console(width=None if sys.stdout.isatty() else 160, highlight=False).print(table)


def _summary(r) -> dict[str, object]:  # type: ignore[no-untyped-def]
    return {"system": r.system, "number": r.number, "analysed_at": r.analysed_at, "duration_s": r.duration_s,
            "version": r.version, "repositories": list(r.repositories), "components": r.components,
            "connections": r.connections, "endpoints": r.endpoints, "warnings": r.warnings, "out": r.out,
            "model_sha256": r.model_sha256, "ref": f"run:{r.system}:{r.number}"}


@runs.command("show")
@click.argument("system")
@click.argument("number", default="latest")
@click.option("--model", "print_model", is_flag=True, help="Print the stored model.json instead of the summary.")
def show(system: str, number: str, print_model: bool) -> None:
    """Details of run NUMBER (or latest / previous) of SYSTEM."""
    from repomodeler.store import RunStore

    try:
        run = RunStore().get(system, number)
        if print_model:
            click.echo(json.dumps(run.model(), indent=2, ensure_ascii=False))
            return
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    click.echo(f"run {run.system} #{run.number}  (diff with run:{run.system}:{run.number})")
    click.echo(f"analysed at   {run.analysed_at}  in {run.duration_s}s  (repomodeler {run.version})")
    for repo in run.repositories:
        click.echo(f"repository    {repo.get('name')}  {repo.get('commit') or 'working tree'}  ({repo.get('input')})")
    click.echo(f"components    {run.components}")
    click.echo(f"connections   {run.connections}")
    click.echo(f"endpoints     {run.endpoints}")
    click.echo(f"warnings      {run.warnings}")
    click.echo(f"published to  {run.out}")
    click.echo(f"model sha256  {run.model_sha256}")


COMMANDS = [runs]
