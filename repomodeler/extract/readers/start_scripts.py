"""A container's start script (``run.sh``, ``start.sh``, ``startup.sh``) that runs a web server or a store in the
background beside the application: see :mod:`._background`.  (Scripts that start the system with ``docker compose
up`` are :mod:`.compose_launch`'s; entrypoint scripts are :mod:`.entrypoints`', which reads the same lines.)"""

from __future__ import annotations

from repomodeler.extract.readers._background import background_programs, starts_in_background
from repomodeler.extract.readers._base import Reader
from repomodeler.records import Fact


def read_start_script(repo: str, path: str, text: str) -> list[Fact]:
    return background_programs(repo, path, text)


READERS = (
    Reader("start_scripts", "descriptor", 223, read_start_script,
           patterns=(r"(?:start|run|launch|startup|boot|serve)(?:[-_][^/]*)?\.sh",), sniff=starts_in_background,
           line_based=True),
)
