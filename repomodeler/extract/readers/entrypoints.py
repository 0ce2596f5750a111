"""Container entrypoint scripts (``docker-entrypoint.sh``, ``nginx-entrypoint.sh``): the defaults they export.

An image's entrypoint often fills its settings before starting the program: ``export
PENPOT_BACKEND_URI=${PENPOT_BACKEND_URI:-http://penpot-backend:6060}`` and then ``envsubst`` into a web
server's configuration, or ``: "${DB_HOST:=db}"``. The default is the container's value when the
deployment sets nothing: a ``config.env`` fact of the script (its owner is whoever runs the script), so
the addresses it names connect like any setting, and a configuration that names the variable
(``proxy_pass $PENPOT_BACKEND_URI``) resolves to it.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._background import background_programs
from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

# export NAME=${NAME:-default} | NAME="${NAME:-default}" | : ${NAME:=default}
_DEFAULT = re.compile(r"""^\s*(?:export\s+|:\s+)?["']?(?:(?P<name>[A-Z][A-Z0-9_]*)=)?["']?\$\{(?P<var>[A-Z][A-Z0-9_]*)"""
                      r""":?[-=](?P<default>[^}"'$]*)\}["']?\s*(?:#.*)?$""")


def read_entrypoint(repo: str, path: str, text: str) -> list[Fact]:
    """One ``config.env`` fact per variable the script gives a default (the first line that does)."""
    facts: list[Fact] = []
    seen: set[str] = set()
    for i, line in enumerate(text.splitlines(), start=1):
        m = _DEFAULT.match(line)
        if not m or (m.group("name") and m.group("name") != m.group("var")):
            continue
        name, default = m.group("var"), m.group("default").strip()
        if default and name not in seen:
            seen.add(name)
            facts.append(fact("config.env", repo, path, i, owner="", name=name, value=default, source="entrypoint"))
    # (and the web server or store it runs in the background beside the application: _background)
    return facts + background_programs(repo, path, text)


READERS = (
    Reader("entrypoints", "descriptor", 219, read_entrypoint,
           patterns=(r"[^/]*entrypoint[^/]*\.sh", r"docker-entrypoint"), line_based=True,
           shadows=("launchers.script",)),
)
