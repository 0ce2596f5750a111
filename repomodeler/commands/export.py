"""``repomodeler export MODEL_DIR --format ...``: re-render a model folder for other tools.

The folder is what ``analyze`` wrote (model.json is the source: the graph is rebuilt from it with
:func:`repomodeler.emit.graph_io.load_model_dir`), so exporting needs neither the repositories nor
the network, and gives the same bytes as ``analyze`` would for the same commits.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from repomodeler.records import RepomodelerError

FORMAT_HELP = "sysml, kpar, json, graphml, mermaid, plantuml or all; repeat or comma-separate for several"


@click.command("export")
@click.argument("model_dir", type=click.Path(path_type=Path))
@click.option("--format", "-f", "formats", multiple=True, default=("all",), show_default=True, help=FORMAT_HELP)
@click.option("--out", type=click.Path(path_type=Path), help="Folder for the exported files (default: MODEL_DIR/export).")
@click.option("--bundle", is_flag=True, help="kpar: one self-contained <system>.kpar with the RepoModeler library "
              "inside, instead of the system archive and RepoModeler.kpar.")
def export(model_dir: Path, formats: tuple[str, ...], out: Path | None, bundle: bool) -> None:
    """Write the model in MODEL_DIR (from analyze) as SysML files, a .kpar project, GraphML, Mermaid or PlantUML."""
    from repomodeler.emit.exports import write_exports
    from repomodeler.emit.graph_io import load_model_dir

    try:
        graph = load_model_dir(model_dir)
        target = out or model_dir / "export"
        if target.exists() and not target.is_dir():
            raise RepomodelerError(f"error: --out '{target}' exists and is not a folder; choose another path")
        written = write_exports(graph, target, formats, bundle=bundle)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    for path in written:
        click.echo(str(path))


COMMANDS = [export]
