"""Command-line interface: a thin layer over the library (see datasette / sqlite-utils for the style).

Every user-facing failure is a :class:`RepomodelerError` whose message is printed as one line on
stderr, with exit status 1.  Ctrl-C exits with status 130 and a short message.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from repomodeler import __version__
from repomodeler.records import RepomodelerError


class _RichProgress:
    """Per-stage progress on stderr with rich; used only when stderr is a terminal."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self._progress = Progress(TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
                                  TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self._task = None
        self._progress.start()

    def stage(self, name: str, total: int | None = None) -> None:
        if self._task is not None:
            self._progress.update(self._task, completed=self._progress.tasks[self._task].total or 0)
        self._task = self._progress.add_task(name, total=total)

    def advance(self, n: int = 1) -> None:
        if self._task is not None:
            self._progress.advance(self._task, n)

    def done(self) -> None:
        self._progress.stop()


def _fail(exc: BaseException) -> None:
    from repomodeler.credentials import redact

    click.echo(redact(str(exc)), err=True)
    sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="repomodeler")
def cli() -> None:
    """repomodeler: turn git repositories into an evidence-backed architecture model (SysML v2 + JSON)."""


@cli.command()
@click.argument("inputs", nargs=-1)
@click.option("--inputs", "inputs_file", type=click.Path(path_type=Path),
              help="A text or YAML list of inputs, optionally grouped into named systems: analyse a landscape.")
@click.option("--discover", "discover_dir", type=click.Path(path_type=Path),
              help="Analyse every git repository beneath this folder as a landscape.")
@click.option("--landscape", "as_landscape", is_flag=True,
              help="Analyse the INPUTS as a landscape of systems (implied by --inputs and --discover).")
@click.option("--engine", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Landscape only: run the work in a local process pool or on Dask distributed.")
@click.option("--scheduler", help="With --engine dask: the address of an existing scheduler (default: a local cluster).")
@click.option("--cache-dir", type=click.Path(path_type=Path),
              help="Landscape only: the store every worker reads and writes (default: $REPOMODELER_HOME/landscape).")
@click.option("--name", help="System name (default: the repository name, or 'system' for several).")
@click.option("--out", type=click.Path(path_type=Path), help="Output folder (default: models/<name>).")
@click.option("--max-file-size", default=1_000_000, show_default=True, type=int, help="Skip files larger than this (bytes).")
@click.option("--timeout", default=300.0, show_default=True, type=float, help="Seconds allowed for each clone or fetch.")
@click.option("--keep-going", is_flag=True, help="Analyse the inputs that work and list those that failed.")
@click.option("--submodules", is_flag=True, help="Also analyse the repositories that git submodules pin (never by default).")
@click.option("--no-validate", is_flag=True, help="Skip the SysML v2 check of the emitted model.")
@click.option("--jobs", "-j", default=0, type=click.IntRange(min=0), help="Parallel parser processes (default: CPU count).")
@click.option("--no-cache", is_flag=True, help="Parse every file even if its facts are cached.")
@click.option("--accept-drop", is_flag=True, help="Publish even if far fewer components were found than last time.")
@click.option("--timings", is_flag=True, help="Print the time spent in each stage.")
@click.option("--format", "formats", multiple=True,
              help="Also export these formats into OUT/export (sysml, kpar, graphml, mermaid, plantuml; comma-separated or 'all').")
@click.option("--quiet", "-q", is_flag=True, help="No progress display and no summary.")
@click.option("--allow-http", is_flag=True, help="Accept plain http:// remotes (refused by default except to localhost).")
@click.option("--subsystems/--no-subsystems", default=True, show_default=True,
              help="Also write the subsystems inside each component (model.json nodes with a parent).")
@click.option("--max-time", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Stop the whole run after this many seconds (nothing is published then).")
@click.option("--force", is_flag=True,
              help="Write into a non-empty --out that holds no repomodeler model (its other files are kept).")
def analyze(inputs: tuple[str, ...], name: str | None, out: Path | None, max_file_size: int, timeout: float,
            keep_going: bool, submodules: bool, no_validate: bool, jobs: int, no_cache: bool, accept_drop: bool, timings: bool,
            formats: tuple[str, ...], quiet: bool, allow_http: bool, subsystems: bool, max_time: float | None,
            force: bool, inputs_file: Path | None = None, discover_dir: Path | None = None,
            as_landscape: bool = False, engine: str = "local", scheduler: str | None = None,
            cache_dir: Path | None = None) -> None:
    """Analyse INPUTS (git URLs, URL@REF, local folders) as one system; write model.sysml and model.json.

    With --inputs FILE or --discover DIR (or --landscape), analyse an organisation: every system
    into OUT/<system>/ and the landscape that connects them into OUT/landscape.json and
    OUT/landscape.sysml."""
    if inputs_file is not None or discover_dir is not None or as_landscape:
        _analyze_landscape(inputs, inputs_file, discover_dir, name, out, engine, scheduler, cache_dir, jobs,
                           max_file_size, timeout, not no_cache, subsystems, not no_validate, allow_http, quiet)
        return
    if not inputs:
        _fail(RepomodelerError("error: no repositories given; pass git URLs or local folders, --inputs FILE or "
                               "--discover DIR"))
    if engine != "local" or scheduler or cache_dir:
        _fail(RepomodelerError("error: --engine, --scheduler and --cache-dir apply to a landscape; add --landscape "
                               "(or use --inputs FILE / --discover DIR)"))
    from repomodeler.deadline import MaxTimeExceeded
    from repomodeler.pipeline import AnalyzeOptions, analyze as run_analyze
    from repomodeler.summary import print_summary

    progress = _RichProgress() if (not quiet and sys.stderr.isatty()) else None
    try:
        if formats:  # an unknown format is a one-line RepomodelerError from parse_formats
            from repomodeler.emit.exports import parse_formats

            formats = tuple(parse_formats(list(formats)))
        result = run_analyze(list(inputs), AnalyzeOptions(name=name, out=out, max_bytes=max_file_size, timeout=timeout,
                                                          validate=not no_validate, keep_going=keep_going,
                                                          use_cache=not no_cache, jobs=jobs, accept_drop=accept_drop,
                                                          formats=formats, submodules=submodules,
                                                          allow_http=allow_http, subsystems=subsystems,
                                                          force=force, max_time=max_time),
                             progress)
    except RepomodelerError as exc:
        if progress:
            progress.done()
        _fail(exc)
    except KeyboardInterrupt:
        if progress:
            progress.done()
        click.echo("interrupted: nothing was published; the previous model (if any) is unchanged", err=True)
        sys.exit(130)
    except MaxTimeExceeded as exc:
        if progress:
            progress.done()
        _fail(RepomodelerError(exc.message()))
    if not quiet:
        print_summary(result)
    if timings:
        for stage, seconds in result.timings.items():
            click.echo(f"timing {stage:<10} {seconds:8.3f}s", err=True)
        click.echo(f"timing {'total':<10} {sum(result.timings.values()):8.3f}s", err=True)


def _analyze_landscape(inputs: tuple[str, ...], inputs_file: Path | None, discover_dir: Path | None, name: str | None,
                       out: Path | None, engine: str, scheduler: str | None, cache_dir: Path | None, jobs: int,
                       max_file_size: int, timeout: float, use_cache: bool, subsystems: bool, validate: bool,
                       allow_http: bool, quiet: bool) -> None:
    """The landscape form of analyze (repomodeler.landscape); exit 1 when a repository or system failed."""
    from repomodeler.landscape.inputs import LandscapeInput, LandscapeInputs, combine, discover, read_inputs_file
    from repomodeler.landscape.run import LandscapeOptions, analyze_landscape

    try:
        groups = [LandscapeInputs(tuple(LandscapeInput(i, None, "argument") for i in inputs))]
        if inputs_file is not None:
            groups.append(read_inputs_file(inputs_file))
        if discover_dir is not None:
            groups.append(discover(discover_dir))
        given = combine(*groups)
        if not given.inputs:
            raise RepomodelerError("error: no repositories given; pass git URLs or local folders, --inputs FILE or "
                                   "--discover DIR")
        result = analyze_landscape(given, LandscapeOptions(
            name=name or "landscape", out=out or Path("models"), engine=engine, scheduler=scheduler, jobs=jobs,
            store_dir=cache_dir, max_bytes=max_file_size, timeout=timeout, use_cache=use_cache,
            subsystems=subsystems, validate=validate, allow_http=allow_http))
    except RepomodelerError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        click.echo("interrupted: the systems published so far are complete; the previous landscape is unchanged",
                   err=True)
        sys.exit(130)
    if not quiet:
        click.echo(f"landscape {result.name}: {len(result.systems)} systems, {result.repositories} repositories, "
                   f"{result.components} components, {result.connections} cross-system connections "
                   f"({len(result.resolved)} systems resolved, {len(result.extracted)} repositories extracted, "
                   f"{result.parsed_files} files parsed) -> {result.out}")
    for failure in result.failures:
        click.echo(f"failed: {failure}", err=True)
    if result.failures:
        sys.exit(1)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--no-strict", is_flag=True, help="Do not turn on the engine's strict conformance mode.")
def validate(paths: tuple[Path, ...], no_strict: bool) -> None:
    """Check .sysml files (or folders of them) with the SysML v2 engine; exit 1 on errors."""
    from repomodeler.validate import validate_files

    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.rglob("*.sysml")))
        elif p.is_file():
            files.append(p)
        else:
            _fail(RepomodelerError(f"error: '{p}' does not exist; give .sysml files or folders"))
    if not files:
        _fail(RepomodelerError("error: no .sysml files found in the given paths"))
    # a model.sysml imports the RepoModeler library that ships beside it: load that too when not given
    given = {f.resolve() for f in files}
    for f in list(files):
        library = f.parent / "RepoModeler.sysml"
        if library.resolve() not in given and library.is_file() and "import RepoModeler::" in f.read_text(
                encoding="utf-8", errors="replace"):
            files.insert(0, library)
            given.add(library.resolve())
    try:
        diags = validate_files(files, strict=not no_strict)
    except RepomodelerError as exc:
        _fail(exc)
    errors = [d for d in diags if d.severity == "error"]
    for d in diags:
        click.echo(d.format(Path.cwd()))
    click.echo(f"{'INVALID' if errors else 'OK'}: {len(files)} file(s), {len(errors)} error(s), "
               f"{len(diags) - len(errors)} warning(s)", err=True)
    sys.exit(1 if errors else 0)


@cli.command()
@click.argument("models_dir", required=False, default="models", type=click.Path(path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind (keep 127.0.0.1 unless you mean it).")
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(path_type=Path),
              help="Folder whose checkouts snippets may be read from, besides the clone cache (repeatable).")
@click.option("--allow-host", "allowed_hosts", multiple=True,
              help="Host name the viewer answers besides localhost and the bound host (repeatable).")
@click.option("--allow-analyze", "analyze_hosts", multiple=True, metavar="HOSTS",
              help="Let visitors analyse https:// repositories of these hosts from the gallery (repeatable or "
                   "comma-separated, e.g. github.com; off by default).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1, max=8),
              help="Analyses run at the same time with --allow-analyze (the others wait in a queue).")
def serve(models_dir: Path, host: str, port: int, source_roots: tuple[Path, ...], allowed_hosts: tuple[str, ...],
          analyze_hosts: tuple[str, ...], workers: int) -> None:
    """Serve the gallery and explorer for every model under MODELS_DIR (read-only unless --allow-analyze)."""
    if not models_dir.is_dir():
        _fail(RepomodelerError(f"error: '{models_dir}' is not a folder; run 'repomodeler analyze' first or name the models folder"))
    from repomodeler.serve.analyze import AnalyzePolicy, parse_hosts

    try:
        policy = AnalyzePolicy(hosts=parse_hosts(analyze_hosts), workers=workers) if analyze_hosts else None
    except RepomodelerError as exc:
        _fail(exc)
    _check_port_free(host, port)
    from repomodeler.serve.app import run_server

    run_server(models_dir, host=host, port=port, source_roots=source_roots, allowed_hosts=allowed_hosts, analyze=policy)


def _check_port_free(host: str, port: int) -> None:
    """One clear line instead of uvicorn's traceback when the address cannot be bound."""
    import errno
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        _fail(RepomodelerError(f"error: cannot serve on host '{host}': {exc}"))
        return
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                _fail(RepomodelerError(f"error: port {port} on {host} is already in use (another 'repomodeler serve'?); "
                                       f"pick another one with --port {port + 1 if port < 65535 else 8080}"))
            _fail(RepomodelerError(f"error: cannot serve on {host}:{port}: {exc.strerror or exc}; pick another port with --port"))


@cli.command()
@click.argument("models_dir", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Folder for the static site.")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(path_type=Path),
              help="Folder whose checkouts snippets may be read from, besides the clone cache (repeatable).")
def publish(models_dir: Path, out: Path, source_roots: tuple[Path, ...]) -> None:
    """Write the gallery and every explorer as a static site (works from file:// or any static host)."""
    if not models_dir.is_dir():
        _fail(RepomodelerError(f"error: '{models_dir}' is not a folder of models; run 'repomodeler analyze' first"))
    from repomodeler.serve.publish import publish_site

    count = publish_site(models_dir, out, source_roots)
    click.echo(f"published {count} model(s) to {out}")


def _register_plugins() -> None:
    from repomodeler.commands import load_commands

    for command in load_commands():
        cli.add_command(command)


_register_plugins()


def main() -> None:
    """Console entry point: a bug surfaces as one line (the traceback with REPOMODELER_DEBUG=1)."""
    import os

    from repomodeler.startup import hide_secrets

    hide_secrets()  # secrets off the command line and out of the environment children inherit
    try:
        cli(prog_name="repomodeler")
    except (KeyboardInterrupt, SystemExit):
        raise
    except RepomodelerError as exc:
        _fail(exc)
    except OSError as exc:  # a full disk (or quota, or file-size limit) is the user's to fix, not a bug
        from repomodeler.publish import full_disk_error

        error = full_disk_error(exc.filename, exc)
        if error is None or os.environ.get("REPOMODELER_DEBUG"):
            _internal(exc)
        _fail(error)
    except Exception as exc:
        error = _full_database(exc)
        if error is None or os.environ.get("REPOMODELER_DEBUG"):
            _internal(exc)
        _fail(error)


def _full_database(exc: BaseException) -> RepomodelerError | None:
    """A database under $REPOMODELER_HOME that could not be written (full disk, ``ulimit -f``) that
    no caller named more precisely: one line naming the folder."""
    from repomodeler.sqlite import is_full

    if not is_full(exc):
        return None
    from repomodeler.acquire import home_dir

    return RepomodelerError(f"error: cannot write under '{home_dir()}' (disk I/O error): the disk is full or a "
                            "file-size limit was reached; free some space (or set REPOMODELER_HOME to a folder on a "
                            "disk with room) and rerun (the previous model, if any, was kept)")


def _internal(exc: BaseException) -> NoReturn:
    """A bug: one line (the traceback with REPOMODELER_DEBUG=1)."""
    import os

    if os.environ.get("REPOMODELER_DEBUG"):
        raise exc
    detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    from repomodeler.credentials import redact

    detail = redact(detail)
    click.echo(f"error: internal error ({type(exc).__name__}: {detail}); rerun with REPOMODELER_DEBUG=1 "
               "for the traceback and please report it", err=True)
    sys.exit(2)


if __name__ == "__main__":
    main()
