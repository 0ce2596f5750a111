"""Folders a killed run leaves behind, found and removed by the next run and by `cache clear`.

``kill -9`` runs no cleanup: a clone being fetched stays as ``$REPOMODELER_HOME/repos/.clone-*``
and the temporary folders (the askpass helper, the SysML engine's cache, validation chunks) stay
in the temporary folder. Every such folder is named with the PID of the process that made it
(:func:`tmp_prefix`), so a later run can tell an abandoned one (its process is dead) from one in
use by a concurrent run (left alone). Folders named before the PID was part of the name are
removed once they are a day old.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

#: Temporary folders (in the system's temporary folder) repomodeler makes; each is followed by "PID-".
TMP_KINDS = ("repomodeler-askpass-", "repomodeler-sysml-cache-", "repomodeler-chunks-", "repomodeler-validate-",
             "repomodeler-ls-", "repomodeler-check-")
CLONE_KIND = ".clone-"
_LEGACY_AGE_S = 86_400
_PID = re.compile(r"(\d+)-")


def tmp_prefix(kind: str) -> str:
    """The name prefix of a temporary folder of this process (``repomodeler-askpass-1234-``)."""
    return f"{kind}{os.getpid()}-"


def _abandoned(path: Path, rest: str) -> bool:
    from repomodeler.publish import pid_alive

    try:
        st = path.lstat()
    except OSError:
        return False
    if not path.is_dir() or path.is_symlink() or st.st_uid != os.getuid():
        return False
    m = _PID.match(rest)
    if m:
        pid = int(m.group(1))
        return pid != os.getpid() and not pid_alive(pid)
    return time.time() - st.st_mtime > _LEGACY_AGE_S


def clean_abandoned(home: Path | None = None) -> list[Path]:
    """Remove the partial clones and temporary folders of dead repomodeler processes; return them."""
    from repomodeler.acquire import home_dir

    removed: list[Path] = []
    places = [((home or home_dir()) / "repos", (CLONE_KIND,)), (Path(tempfile.gettempdir()), TMP_KINDS)]
    for folder, kinds in places:
        try:
            children = list(folder.iterdir())
        except OSError:
            continue
        for child in children:
            kind = next((k for k in kinds if child.name.startswith(k)), None)
            if kind is not None and _abandoned(child, child.name[len(kind):]):
                shutil.rmtree(child, ignore_errors=True)
                if not child.exists():
                    removed.append(child)
    return removed
