"""Read a few lines around an evidence location from the analysed checkout.

The request names a repository, a repository-relative path and a line. We only answer for
paths that the model itself cites as evidence (so the endpoint cannot be used to browse the
checkout), reject absolute or `..` paths outright, and read either the pinned git commit via
`git cat-file` (argument list, no shell, no filters) or a plain directory with a containment
check after resolving symlinks.

The checkout path comes from the model folder's own run.json, which is untrusted: anyone can
write `"checkout": "/"` there. So a checkout is used only if it resolves to a folder under one of
the *source roots*: the clone cache (`$REPOMODELER_HOME/repos`) plus the folders the operator
names with `serve --source-root` / `publish --source-root`. Anything else is "not found".
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Iterator

from .store import NotFound

CONTEXT_LINES = 5
MAX_FILE_BYTES = 5 * 1024 * 1024
_COMMIT_RE = re.compile(r"^[0-9a-fA-F]{7,64}$")


class BadRequest(Exception):
    """Malformed input (as opposed to NotFound for input that is fine but not available)."""


def safe_relative_path(path: str) -> str:
    """Return `path` unchanged if it is a clean repository-relative POSIX path, else BadRequest."""
    if not isinstance(path, str) or not path or len(path) > 4096:
        raise BadRequest("path required")
    if "\x00" in path or "\\" in path or path.startswith(("/", "-")) or re.match(r"^[A-Za-z]:", path):
        raise BadRequest("absolute or unsafe path")
    parts = PurePosixPath(path).parts
    if any(part in ("..", ".") for part in path.split("/")) or not parts:
        raise BadRequest("path may not contain '..'")
    return path


def iter_evidence(model: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every evidence record of the model (nodes, ports, endpoints, edges, warnings, unresolved)."""

    def lst(value: Any) -> list[Any]:
        return value if isinstance(value, list) else []

    for node in lst(model.get("nodes")):
        if not isinstance(node, dict):
            continue
        yield from (e for e in lst(node.get("evidence")) if isinstance(e, dict))
        for port in lst(node.get("ports")):
            if not isinstance(port, dict):
                continue
            yield from (e for e in lst(port.get("evidence")) if isinstance(e, dict))
            for endpoint in lst(port.get("endpoints")):
                if isinstance(endpoint, dict):
                    yield from (e for e in lst(endpoint.get("evidence")) if isinstance(e, dict))
    for edge in lst(model.get("edges")):
        if isinstance(edge, dict):
            yield from (e for e in lst(edge.get("evidence")) if isinstance(e, dict))
    for warning in lst(model.get("warnings")):
        if isinstance(warning, dict) and warning.get("path"):
            yield warning
    for item in lst(model.get("unresolved")):
        evidence = item.get("evidence") if isinstance(item, dict) else None
        if isinstance(evidence, dict) and evidence.get("path"):
            yield evidence


def cited_paths(model: dict[str, Any]) -> set[tuple[str, str]]:
    """(repository, path) pairs the model cites; the only files the snippet API will read."""
    return {
        (str(e.get("repository", "")), str(e.get("path", "")))
        for e in iter_evidence(model)
        if e.get("path")
    }


def source_roots(extra: Iterable[Path | str] = ()) -> tuple[Path, ...]:
    """The folders checkouts may be read from: the clone cache plus `extra`, resolved; missing ones
    are dropped (they cannot contain anything)."""
    from repomodeler.acquire import home_dir

    roots = []
    for root in [home_dir() / "repos", *extra]:
        try:
            roots.append(Path(root).expanduser().resolve(strict=True))
        except (OSError, RuntimeError):
            continue
    return tuple(dict.fromkeys(roots))


def trusted_checkout(checkout: object, roots: Iterable[Path]) -> Path:
    """The resolved checkout if it lies under one of `roots`; NotFound otherwise (see module doc)."""
    if not isinstance(checkout, str) or not checkout or "\x00" in checkout or not os.path.isabs(checkout):
        raise NotFound("no usable checkout recorded")
    try:
        resolved = Path(checkout).resolve(strict=True)
    except (OSError, RuntimeError):
        raise NotFound("checkout missing") from None
    if not resolved.is_dir() or not any(resolved.is_relative_to(root) for root in roots):
        raise NotFound("checkout outside the source roots")
    return resolved


def _checkout_for(repository: str, model: dict[str, Any], run: dict[str, Any],
                  roots: Iterable[Path]) -> dict[str, Any]:
    """Merge run.json's checkout record with the model's pinned commit for `repository`; the
    checkout must be under a source root."""
    record: dict[str, Any] = {}
    for repo in model.get("repositories") or []:
        if isinstance(repo, dict) and repo.get("name") == repository:
            record["commit"] = repo.get("commit")
    for repo in run.get("repositories") or []:
        if isinstance(repo, dict) and repo.get("name") == repository:
            record.update({k: v for k, v in repo.items() if v is not None})
    if not record.get("checkout"):
        raise NotFound("no checkout recorded for repository")
    record["checkout"] = trusted_checkout(record["checkout"], roots)
    _refuse_clone_cache_as_folder(record)
    return record


def _refuse_clone_cache_as_folder(record: dict[str, Any]) -> None:
    """Under the clone cache only a cached clone itself (``repos/NAME.git``) read through git is a
    checkout: a forged run.json naming the cache root, a clone's folder as a plain folder, or a
    partial clone would otherwise expose the git metadata of every cached clone (issue 23)."""
    from repomodeler.acquire import home_dir

    try:
        cache = (home_dir() / "repos").resolve()
    except (OSError, RuntimeError):
        return
    checkout = Path(str(record["checkout"]))
    if not checkout.is_relative_to(cache):
        return
    kind = record.get("kind") or ("git" if record.get("commit") else "dir")
    if (kind != "git" or checkout.parent != cache or not checkout.name.endswith(".git")
            or checkout.name.startswith(".")):
        raise NotFound("not a cached clone")


def _git_env() -> dict[str, str]:
    """No GIT_* from our environment (GIT_DIR etc.), no system or global config."""
    from repomodeler.credentials import child_env

    env = {k: v for k, v in child_env().items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return env


def read_file_text(record: dict[str, Any], path: str) -> str:
    """The file's text at the pinned commit (git) or from the directory (dir); `record["checkout"]`
    must come from :func:`trusted_checkout`."""
    checkout = Path(str(record["checkout"]))
    kind = record.get("kind") or ("git" if record.get("commit") else "dir")
    if kind == "git":
        commit = str(record.get("commit") or "")
        if not _COMMIT_RE.match(commit):
            raise NotFound("no pinned commit")
        if not checkout.is_dir():
            raise NotFound("checkout missing")
        try:
            # The ceiling stops git from searching the checkout's parents for another repository:
            # the checkout itself must be the git dir (bare clone, .git folder) or hold one.
            done = subprocess.run(
                ["git", "-C", str(checkout), "cat-file", "blob", f"{commit}:{path}"],
                capture_output=True,
                timeout=15,
                check=False,
                stdin=subprocess.DEVNULL,
                env=_git_env() | {"GIT_CEILING_DIRECTORIES": str(checkout.parent)},
            )
        except (OSError, subprocess.TimeoutExpired):
            raise NotFound("git failed") from None
        if done.returncode != 0 or len(done.stdout) > MAX_FILE_BYTES:
            raise NotFound("file not in commit")
        data = done.stdout
    else:
        if any(part.lower() == ".git" for part in path.split("/")):
            raise NotFound("git metadata")  # a work tree's .git folder is never a source file
        try:
            base = checkout.resolve(strict=True)
            target = (base / path).resolve(strict=True)
        except (OSError, RuntimeError):
            raise NotFound("file missing") from None
        if not target.is_relative_to(base) or not target.is_file():
            raise NotFound("outside checkout")
        if target.stat().st_size > MAX_FILE_BYTES:
            raise NotFound("file too large")
        data = target.read_bytes()
    if b"\x00" in data[:8192]:
        raise NotFound("binary file")
    return data.decode("utf-8", errors="replace")


def snippet(
    model: dict[str, Any],
    run: dict[str, Any],
    repository: str,
    path: str,
    line: int,
    context: int = CONTEXT_LINES,
    roots: Iterable[Path] | None = None,
) -> dict[str, Any]:
    """Lines `line-context .. line+context` of a cited file, as JSON-ready data; checkouts only
    under `roots` (default: :func:`source_roots`)."""
    safe_relative_path(path)
    if line < 1:
        raise BadRequest("line must be >= 1")
    if (repository, path) not in cited_paths(model):
        raise NotFound("path is not cited by the model")
    record = _checkout_for(repository, model, run, source_roots() if roots is None else roots)
    lines = read_file_text(record, path).splitlines()
    return cut(lines, line, context) | {"repository": repository, "path": path, "commit": record.get("commit")}


def cut(lines: list[str], line: int, context: int = CONTEXT_LINES) -> dict[str, Any]:
    """The window of `lines` around 1-based `line` (clamped to the file's end)."""
    if not lines:
        raise NotFound("empty file")
    focus = min(max(line, 1), len(lines))
    start = max(1, focus - context)
    end = min(len(lines), focus + context)
    return {"line": line, "highlight": focus, "start": start, "lines": lines[start - 1 : end]}


def all_snippets(model: dict[str, Any], run: dict[str, Any], limit: int = 20000,
                 roots: Iterable[Path] | None = None) -> dict[str, dict[str, Any]]:
    """Snippets for every cited location, keyed by repository, path and line joined with "\\n".

    Each file is read once; unreadable files (and checkouts outside `roots`, default
    :func:`source_roots`) are skipped so a missing checkout only loses the snippets, not the page.
    """
    roots = source_roots() if roots is None else tuple(roots)
    wanted: dict[tuple[str, str], set[int]] = {}
    for ev in iter_evidence(model):
        repo, path = str(ev.get("repository", "")), str(ev.get("path", ""))
        try:
            safe_relative_path(path)
            line = int(ev.get("line") or 1)
        except (BadRequest, TypeError, ValueError):
            continue
        wanted.setdefault((repo, path), set()).add(max(line, 1))
    out: dict[str, dict[str, Any]] = {}
    for (repo, path), lines_wanted in sorted(wanted.items()):
        try:
            record = _checkout_for(repo, model, run, roots)
            lines = read_file_text(record, path).splitlines()
        except NotFound:
            continue
        for line in sorted(lines_wanted):
            if len(out) >= limit:
                return out
            try:
                out[f"{repo}\n{path}\n{line}"] = cut(lines, line) | {"repository": repo, "path": path}
            except NotFound:
                continue
    return out
