"""Repository-relative paths, '/'-separated, as every stage writes them.

One home for the few path operations extract and graph both need, so that a path a reader
records and the one a rule looks up are normalised alike (``deploy/./charts/../app`` ->
``deploy/app``), without building pathlib objects in hot loops."""

from __future__ import annotations

# A container recipe's file name, as every stage recognises one: Docker's `Dockerfile` (`Dockerfile.web`,
# `web.Dockerfile`, `dockerfile`) and Podman's and Buildah's `Containerfile`, a Dockerfile by another name.
# (The inventory keeps them, the Dockerfile reader reads them, the plug-in rule counts a line there as the
# deployment's: one list, so a recipe one stage knows is never a stranger to the next.)
RECIPE_FILE_NAMES = (r"Dockerfile[^/]*", r"dockerfile", r"dockerfile[._-][^/]*", r"[^/]*\.[Dd]ockerfile",
                     r"Containerfile[^/]*", r"[^/]*\.[Cc]ontainerfile")
RECIPE_FILE = "|".join(RECIPE_FILE_NAMES)


def norm_path(path: str) -> str:
    """``a/./b/../c`` -> ``a/c``; leading, doubled and trailing slashes dropped; ``..`` above the
    root is dropped (a repository-relative path never leaves the repository)."""
    parts: list[str] = []
    for seg in path.split("/"):  # the segments pathlib would keep, without building a path object
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts:
                parts.pop()
            continue
        parts.append(seg)
    return "/".join(parts)


def join_path(folder: str, name: str) -> str:
    """`name` inside `folder` ('' or '.' is the repository root), not normalised."""
    return name if folder in ("", ".") else f"{folder}/{name}"


def is_under(path: str, root: str) -> bool:
    """Is `path` `root` itself or inside it ('' is the whole repository)?"""
    return root == "" or path == root or path.startswith(root + "/")
