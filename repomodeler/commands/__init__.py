"""Sub-commands that live in their own modules.

Each module in this package may define ``COMMANDS``: a list of click commands.  The CLI registers
them all, so a capability (export, diff, target, check...) adds a module here instead of editing
``cli.py``.
"""

from __future__ import annotations

import importlib
import pkgutil

import click


def load_commands() -> list[click.Command]:
    found: list[click.Command] = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        found.extend(getattr(module, "COMMANDS", []))
    return found
