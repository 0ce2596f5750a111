"""`repomodeler gallery build [LIST]`: analyse the systems of a list and publish them as one site."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from repomodeler.records import RepomodelerError



def default_list() -> Path | None:
    """The bundled samples' list (no network needed): inside an installed wheel
    (``repomodeler/_data/samples``, see pyproject's force-include) or beside a source checkout."""
    from repomodeler.resources import samples_dir

    try:
        found = samples_dir() / "gallery.yml"
    except FileNotFoundError:
        return None
    return found if found.is_file() else None


@click.group("gallery")
def gallery() -> None:
    """Galleries of analysed systems built from a list (samples/gallery.yml, samples/real-systems.yml)."""


@gallery.command("build")
@click.argument("list_file", required=False, type=click.Path(path_type=Path))
@click.option("--models", "models_dir", default=Path("models"), show_default=True, type=click.Path(path_type=Path),
              help="Folder receiving one model folder per system.")
@click.option("--site", "site_dir", type=click.Path(path_type=Path),
              help="Publish the gallery here as a static site (default: only analyse; 'repomodeler serve MODELS' shows them).")
@click.option("--only", multiple=True, help="Build only this system of the list (repeatable).")
@click.option("--skip-existing", is_flag=True,
              help="Leave alone systems whose model already records the listed commits (no network needed for them).")
@click.option("--no-validate", is_flag=True, help="Skip the SysML v2 check of each emitted model.")
@click.option("--jobs", "-j", default=0, type=click.IntRange(min=0), help="Parallel parser processes (default: CPU count).")
@click.option("--timeout", default=600.0, show_default=True, type=float, help="Seconds allowed for each clone or fetch.")
@click.option("--accept-drop", is_flag=True, help="Publish a model even if far fewer components were found than last time.")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(path_type=Path),
              help="Folder whose checkouts evidence snippets may be read from, besides the clone cache (repeatable).")
def build(list_file: Path | None, models_dir: Path, site_dir: Path | None, only: tuple[str, ...], skip_existing: bool,
          no_validate: bool, jobs: int, timeout: float, accept_drop: bool, source_roots: tuple[Path, ...]) -> None:
    """Analyse every system of LIST_FILE into MODELS/<name> and publish the gallery into SITE.

    LIST_FILE defaults to the bundled samples (samples/gallery.yml, offline). Remote repositories
    are cloned at their pinned commits (network needed); a system that fails is reported and the
    others are still built and published. Exit status 1 if any system failed.
    """
    from repomodeler.gallery import build as run_build
    from repomodeler.gallery import load_list

    if list_file is None:
        list_file = default_list()
        if list_file is None:
            _fail("error: no gallery list given and the bundled samples/gallery.yml is not installed; name a list file "
                  "(reinstall with 'pip install .' to get the samples)")
            return
    try:
        systems = load_list(list_file)
        report = run_build(systems, models_dir, site_dir, only=only, skip_existing=skip_existing,
                           validate=not no_validate, jobs=jobs, timeout=timeout, accept_drop=accept_drop,
                           source_roots=source_roots, echo=lambda line: click.echo(line, err=True))
    except RepomodelerError as exc:
        _fail(str(exc))
        return
    if report.failed:
        click.echo(f"{len(report.failed)} system(s) failed: {', '.join(report.failed)}", err=True)
        sys.exit(1)


def _fail(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(1)


COMMANDS = [gallery]
