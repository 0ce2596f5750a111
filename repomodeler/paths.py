"""Repository-relative paths, '/'-separated, as every stage writes them.

One home for the few path operations extract and graph both need, so that a path a reader
records and the one a rule looks up are normalised alike (``deploy/./charts/../app`` ->
``deploy/app``), without building pathlib objects in hot loops."""

from __future__ import annotations


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
