"""A local work tree's HEAD commit read from its files, without starting git.

A landscape rerun must learn, for every local repository, whether its commit moved.  Asking git
costs a process (and the guard process that kills git's helpers if repomodeler dies) per
repository: with hundreds of repositories that was most of a 1 %-changed rerun.  In the ordinary
layout the answer of ``git rev-parse --absolute-git-dir --show-toplevel HEAD^{commit}`` (what
:func:`repomodeler.acquire.acquire_one` asks) lies in three kinds of file: ``.git/HEAD``, a loose
ref, and ``packed-refs``.  :func:`read_head` reads them and answers None, so the caller asks git,
for every layout where that reading might differ from git's: a ``.git`` file (linked work tree,
submodule), a symlinked ``.git``, a config that moves the work tree, marks the repository bare,
includes other files or declares extensions (the reftable ref store among them), a folder another
user owns (git's ``safe.directory`` check), an unborn branch, a symbolic ref chain deeper than git
follows.  Uncommitted changes play no part: a git work tree is analysed at its HEAD commit (the
inventory lists the commit's tree), so the commit is the whole identity.

Branches and a detached HEAD always name commits (git refuses to point them at anything else), so
no peeling is needed; the object itself is not looked up: a repository whose commit object was
deleted after a run is found out when the commit is not in the store, or by git when it is read.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_MAX_DEPTH = 5  # git's own limit of symbolic refs followed
# config keys that change what rev-parse answers, or that only git should interpret
# (a key written alone, ``bare``, is true; a value that is not plainly false is left to git too)
_CONFIG_UNSAFE = re.compile(r"^\s*(?:worktree\b|bare\s*(?:$|[#;]|=(?![ \t]*(?:false|no|off|0)[ \t]*(?:$|[#;])))"
                            r"|\[\s*(?:include|includeif|extensions)\b)", re.IGNORECASE | re.MULTILINE)


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _packed(git_dir: Path, name: str) -> str | None:
    text = _text(git_dir / "packed-refs")
    if not text:
        return None
    for line in text.splitlines():
        if not line or line[0] in "#^":
            continue
        sha, _, ref = line.partition(" ")
        if ref == name:
            return sha if _SHA.fullmatch(sha) else None
    return None


def _resolve(git_dir: Path, content: str) -> str | None:
    """The commit a HEAD or ref file's content names, following symbolic refs like git."""
    for _ in range(_MAX_DEPTH):
        content = content.strip()
        if _SHA.fullmatch(content):
            return content
        if not content.startswith("ref: "):
            return None
        name = content[5:].strip()
        if not name.startswith("refs/") or ".." in name.split("/"):
            return None
        loose = git_dir / name
        if loose.is_file():
            text = _text(loose)
            if text is None:
                return None
            content = text
            continue
        if loose.exists():  # a folder where the ref should be: let git say what it means
            return None
        return _packed(git_dir, name)
    return None


def read_head(path: Path) -> tuple[Path, str] | None:
    """(git dir, HEAD commit) of the work tree whose top is `path`, exactly as git answers it, or
    None when git must be asked (see the module's docstring)."""
    dot = path / ".git"
    try:
        if dot.is_symlink() or not dot.is_dir():
            return None
        if hasattr(os, "getuid") and (os.stat(path).st_uid != os.getuid() or os.stat(dot).st_uid != os.getuid()):
            return None
    except OSError:
        return None
    if not (dot / "objects").is_dir() or not (dot / "refs").is_dir() or (dot / "reftable").exists() \
            or (dot / "commondir").exists():
        return None
    config = _text(dot / "config")
    if config is None or _CONFIG_UNSAFE.search(config):
        return None
    head = _text(dot / "HEAD")
    if head is None:
        return None
    commit = _resolve(dot, head)
    if commit is None:
        return None
    return Path(os.path.realpath(dot)), commit
