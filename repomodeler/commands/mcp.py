"""`repomodeler mcp [MODELS_DIR]`: an MCP server for coding agents (stdio, or streamable HTTP on 127.0.0.1).

A thin layer over :mod:`repomodeler.mcp_server`.  Over stdio the protocol owns standard output, so
every message of ours goes to standard error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from repomodeler.records import RepomodelerError


@click.command("mcp")
@click.argument("models_dir", required=False, default="models", type=click.Path(path_type=Path))
@click.option("--http", "http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port for --http.")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(path_type=Path),
              help="Also read evidence snippets from checkouts under this folder (repeatable; the clone cache always).")
@click.option("--allow-analyze", "allow_analyze", default=None, metavar="HOSTS",
              help="Offer an 'analyze' tool for git URLs on these hosts (comma-separated; 'file' for file:// URLs). "
                   "Off by default: the server is read-only.")
@click.option("--allow-http", is_flag=True, help="With --allow-analyze: accept plain http:// remotes.")
def mcp(models_dir: Path, http: bool, port: int, source_roots: tuple[Path, ...], allow_analyze: str | None,
        allow_http: bool) -> None:
    """Serve the models of MODELS_DIR to MCP clients: the query questions as tools, models as resources."""
    try:
        from repomodeler.mcp_server.analyze import parse_hosts
        from repomodeler.mcp_server.server import build_server

        if not models_dir.is_dir():
            raise RepomodelerError(f"error: '{models_dir}' is not a folder; give the folder 'repomodeler analyze --out' "
                                   "writes models into (default: models)")
        hosts = parse_hosts(allow_analyze) if allow_analyze is not None else ()
        server = build_server(models_dir, tuple(source_roots), hosts, allow_http=allow_http)
        if http:
            from repomodeler.cli import _check_port_free

            _check_port_free("127.0.0.1", port)
            click.echo(f"repomodeler mcp: streamable HTTP on http://127.0.0.1:{port}/mcp (models: {models_dir})", err=True)
            server.run("streamable-http", host="127.0.0.1", port=port)
        else:
            server.run("stdio")
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)


COMMANDS = [mcp]
