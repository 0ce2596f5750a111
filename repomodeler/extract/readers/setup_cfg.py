"""setuptools ``setup.cfg``: the console scripts the package installs."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._text import first_match_line
from repomodeler.records import Fact


_SCRIPT_ENTRY = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*=\s*([A-Za-z_][\w.]*)(?::([A-Za-z_][\w.]*))?")


def console_lines(value: str, text: str, repo: str, path: str) -> list[Fact]:
    out = []
    for raw in value.splitlines():
        m = _SCRIPT_ENTRY.match(raw)
        if m:
            target = m.group(2) + (f":{m.group(3)}" if m.group(3) else "")
            line = first_match_line(text, rf"{re.escape(m.group(1))}\s*=\s*{re.escape(m.group(2))}")
            out.append(fact("program.entry", repo, path, line, name=m.group(1), target=target, source="console_scripts"))
    return out


def read_setup_cfg(repo: str, path: str, text: str) -> list[Fact]:
    """``[options.entry_points]`` ``console_scripts =`` lines of a setuptools ``setup.cfg``."""
    import configparser  # loaded when a setup.cfg is read, not when the inventory imports the readers

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    facts: list[Fact] = []
    if parser.has_option("options.entry_points", "console_scripts"):
        facts = console_lines(parser.get("options.entry_points", "console_scripts"), text, repo, path)
    return facts


READERS = (
    Reader("setup_cfg", "descriptor", 200, read_setup_cfg, names=frozenset({"setup.cfg"})),
)
