"""`repomodeler target init|plan`: scaffold an editable target architecture and plan the way there."""

from __future__ import annotations

from pathlib import Path

import click

from repomodeler.commands.diff import _fail, write_or_echo
from repomodeler.records import RepomodelerError


@click.group("target")
def target() -> None:
    """Target architectures: a hand-editable SysML file describing the intended state."""


@target.command("init")
@click.argument("model")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="The target .sysml file to write.")
@click.option("--no-library", is_flag=True, help="Do not write RepoModeler.sysml beside the target (validate it "
              "together with the library of a model folder).")
@click.option("--force", is_flag=True, help="Overwrite an existing file.")
def init(model: str, out: Path, no_library: bool, force: bool) -> None:
    """Write a target scaffolded from MODEL (a model folder, model.json, .sysml or run:SYSTEM:N), and the
    RepoModeler library it imports as RepoModeler.sysml beside it (one package per file, as analyze writes).
    From a model folder the target's system def specializes the model's (model.sysml is copied beside the
    target when it is written elsewhere), so it keeps the model's typed APIs and follows it."""
    from repomodeler.diff.load import load_model
    from repomodeler.diff.target import library_from_sysml, render_specialized_target, render_target, system_def_of
    from repomodeler.emit.sysml import LIBRARY_FILE, render_library

    if out.exists() and not force:
        _fail(RepomodelerError(f"error: '{out}' exists; pass --force to overwrite it"))
    try:
        current = load_model(model)
        library_text = None
        emitted, library_file = Path(model) / "model.sysml", Path(model) / "RepoModeler.sysml"
        emitted_text = emitted.read_text(encoding="utf-8") if emitted.is_file() else None
        if library_file.is_file():  # the library ships beside model.sysml
            library_text = library_file.read_text(encoding="utf-8")
        elif emitted_text is not None:  # a model from before: the library was the first package of model.sysml
            library_text = library_from_sysml(emitted_text)
        base = system_def_of(emitted_text) if emitted_text is not None and library_file.is_file() else None
        if base is not None:
            text = render_specialized_target(current, *base)
        else:
            text = render_target(current, library=False)
        library = None if no_library else (library_text or render_library())
        library_out = out.parent / LIBRARY_FILE
        if library is not None and library_out.is_file() and not force \
                and library_out.read_text(encoding="utf-8") != library:
            raise RepomodelerError(f"error: '{library_out}' exists with another library text; pass --force to "
                                   "overwrite it, or --no-library to keep it")
        model_out = out.parent / "model.sysml"
        copy_model = base is not None and not (model_out.exists() and model_out.resolve() == emitted.resolve())
        if copy_model and model_out.exists() and not force and model_out.read_text(encoding="utf-8") != emitted_text:
            raise RepomodelerError(f"error: '{model_out}' exists with another model; the target specializes the system "
                                   f"def of {emitted}, which must be beside it: write the target to another folder, "
                                   "or pass --force to overwrite it")
    except RepomodelerError as exc:
        _fail(exc)
    write_or_echo(text, out)
    if library is not None:
        write_or_echo(library, library_out)
    if copy_model and emitted_text is not None:
        write_or_echo(emitted_text, model_out)
    click.echo(f"target for {current.name}: {len(current.components)} components, {len(current.connections)} "
               f"connections; edit {out}, then run 'repomodeler diff {model} {out} --steps'", err=True)


@target.command("plan")
@click.argument("current")
@click.argument("target_file", metavar="TARGET")
@click.option("--out", type=click.Path(path_type=Path), help="Write the Markdown plan to this file.")
def plan(current: str, target_file: str, out: Path | None) -> None:
    """Ordered migration steps from CURRENT to TARGET, as Markdown (same as 'diff --steps')."""
    from repomodeler.diff.core import diff_models
    from repomodeler.diff.load import load_model
    from repomodeler.diff.steps import render_steps_markdown

    try:
        result = diff_models(load_model(current), load_model(target_file))
    except RepomodelerError as exc:
        _fail(exc)
    write_or_echo(render_steps_markdown(result), out)


COMMANDS = [target]
