"""Image build scripts (``build.sh``, ``build_images.sh``, ``docker-publish.sh``): which folder's code each
image a ``docker build -t IMAGE -f FILE CONTEXT`` line tags holds.

Why: Kubernetes manifests often run images by a name no compose file or build tool gives
(``image: community-api`` where the compose file builds ``communityapi`` from
``Services/Community/Community.API``); the script the project builds its images with is what says which
code the image holds, as a publishing workflow or a Makefile recipe does (:mod:`.workflows`,
:mod:`.makefile`).  Each such line is a ``manifest.image`` fact (tool ``script``) naming the module, as
those readers' are, so the deployment running the image is the component of that code.

Paths are the shell's: relative to the folder the script runs in.  A path leaving the script's folder
(``../../Backend/``), or any path after ``cd "$(dirname "$0")"``, is the script's own folder's; other paths
are the repository root's (scripts are run from there: ``./scripts/build.sh``).  After a ``cd`` to a folder
the script does not spell out, nothing more is read: where the paths lead is not known.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.extract.readers._docker_build import DOCKER_BUILD, build_args, built_image
from repomodeler.extract.readers._text import joined_shell_lines
from repomodeler.records import Fact

# `cd "$(dirname "$0")"`, `cd $(dirname $0)/..`, `cd "${0%/*}"`, `cd "$(dirname "${BASH_SOURCE[0]}")/.."`: to the
# script's folder, or a folder spelled from it
_TO_SCRIPT_DIR = re.compile(r"""^cd\s+["']?(?:\$\(\s*dirname\s+["']?\$(?:0|\{?BASH_SOURCE(?:\[0\])?\}?)["']?\s*\)"""
                            r"""|\$\{(?:0|BASH_SOURCE(?:\[0\])?)%/\*\})["']?((?:/[A-Za-z0-9_.-]*)*)["']?\s*$""")
_CD = re.compile(r"^(?:pushd|cd)\b\s*(.*)$")


def _resolve(cwd: str | None, script_dir: str, path: str) -> str | None:
    """`path` as the repository's, from the folder the script is in (`cwd`; None: the script's invoker's, the
    repository root unless the path leaves the script's folder); None when it leaves the repository."""
    if path.startswith("/") or "$" in path:
        return None
    base = cwd if cwd is not None else (script_dir if path.startswith("..") else "")
    joined = posixpath.normpath(posixpath.join(base, path)) if base else posixpath.normpath(path)
    return None if joined.startswith("..") else joined


def read_build_script(repo: str, path: str, text: str) -> list[Fact]:
    """``manifest.image`` facts (tool ``script``) for the ``docker build`` lines of an image build script."""
    script_dir = posixpath.dirname(path)
    cwd: str | None = None  # None: the invoker's folder
    facts: list[Fact] = []
    for line, command in joined_shell_lines(text):
        if command.startswith("#"):
            continue  # (a comment: a build someone turned off)
        for part in re.split(r"\s*(?:&&|;|\|\|)\s*", command):
            part = part.strip()
            if (to_dir := _TO_SCRIPT_DIR.match(part)) is not None:
                rest = to_dir.group(1).strip("/")
                spelled = _resolve(script_dir, script_dir, rest) if rest else script_dir
                if spelled is None:
                    return facts
                cwd = "" if spelled == "." else spelled
                continue
            cd = _CD.match(part)
            if cd is not None:
                try:
                    words = shlex.split(cd.group(1))
                except ValueError:
                    return facts
                target = words[0] if words else ""
                if not target or "$" in target or target.startswith(("/", "~", "-")):
                    return facts  # a folder the script does not spell out: the rest is not followed
                resolved = _resolve(cwd, script_dir, target) if cwd is not None or target.startswith("..") \
                    else posixpath.normpath(target)
                if resolved is None:
                    return facts
                cwd = "" if resolved == "." else resolved
                continue
            m = DOCKER_BUILD.search(part)
            if m is None:
                continue
            tag, file, context, target = build_args(m.group(1))
            if context is None:
                continue
            context_path = _resolve(cwd, script_dir, context)
            file_path = _resolve(cwd, script_dir, file) if file else ""
            if context_path is None or file_path is None:
                continue
            built = built_image(tag, file_path, context_path)
            if built is not None:
                # (a stage of a recipe building several programs, `docker build . -t accountservice:release --target
                # accountservice`: the graph asks the recipe which code that stage copies in)
                recipe = (file_path or posixpath.join(context_path, "Dockerfile").removeprefix("./")) if target else ""
                facts.append(fact("manifest.image", repo, path, line, ecosystem="docker", image=built[0],
                                  module=built[1], tool="script", build_target=target,
                                  dockerfile=posixpath.normpath(recipe) if recipe else ""))
    return facts


def _builds_images(path: str, head: str) -> bool:
    return DOCKER_BUILD.search(head) is not None


READERS = (
    Reader("build_scripts", "descriptor", 227, read_build_script,
           patterns=(r"(?:docker[-_]?)?(?:build|publish|push|mkall)(?:[-_.][^/]*)?\.sh",
                     r"[^/]*[-_](?:build|publish|push)(?:[-_][^/]*)?\.sh",
                     # (a Windows batch file building the images: BuildServiceImage.bat, build-images.cmd)
                     r"(?:[Dd]ocker[-_]?)?(?:[Bb]uild|[Pp]ublish|[Pp]ush)[^/]*\.(?:bat|cmd)"),
           sniff=_builds_images, line_based=True),
)
