"""`repomodeler cache`: inspect or clear the extraction cache."""

from __future__ import annotations

import sqlite3

import click

from repomodeler.extract.cache import FactCache, default_cache_path


@click.group("cache")
def cache_group() -> None:
    """Manage the extraction cache ($REPOMODELER_HOME/cache.sqlite)."""


@cache_group.command("clear")
def clear() -> None:
    """Delete every cached extraction result, and what killed runs left (clones are kept)."""
    from repomodeler.leftovers import clean_abandoned

    removed = clean_abandoned()
    if removed:
        click.echo(f"removed {len(removed)} abandoned partial clone(s) and temporary folder(s) of killed runs")
    path = default_cache_path()
    if not path.exists():
        click.echo(f"cache is empty ({path})")
        return
    try:
        cache = FactCache(path)  # a corrupt file is moved aside and rebuilt here (one warning line)
        try:
            n = cache.clear()
        finally:
            cache.close()
    except (sqlite3.Error, OSError) as exc:  # whatever is wrong with it, clearing a cache = deleting it
        for name in (path.name, path.name + "-wal", path.name + "-shm"):
            (path.parent / name).unlink(missing_ok=True)
        click.echo(f"cleared the cache by deleting {path} (it could not be opened: {exc})")
        return
    click.echo(f"cleared {n} cached file result(s) from {path}")


@cache_group.command("prune")
def prune() -> None:
    """Drop results made by other versions of repomodeler's extractors and shrink the file."""
    path = default_cache_path()
    if not path.exists():
        click.echo(f"cache is empty ({path})")
        return
    before = path.stat().st_size
    cache = FactCache(path)  # opening already forgets other versions' rows; prune also vacuums
    try:
        n = cache.prune()
        kept = cache.count()
    finally:
        cache.close()
    after = path.stat().st_size
    click.echo(f"pruned {path}: {kept} current file result(s) kept, {n} more removed, "
               f"{max(before - after, 0)} bytes freed")


@cache_group.command("info")
def info() -> None:
    """Show where the cache is and how many file results it holds."""
    path = default_cache_path()
    if not path.exists():
        click.echo(f"{path}: empty")
        return
    cache = FactCache(path)
    try:
        n = cache.count()
    finally:
        cache.close()
    click.echo(f"{path}: {n} file result(s), {path.stat().st_size} bytes")


COMMANDS = [cache_group]
