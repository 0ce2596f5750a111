"""Read a few lines around an evidence location from the analysed checkout.

The request names a repository, a repository-relative path and a line. We only answer for
paths that the model itself cites as evidence (so the endpoint cannot be used to browse the
checkout), reject absolute or `..` paths outright, and read either the pinned git commit via
`git cat-file` (argument list, no shell, no filters) or a plain directory with a containment
check after resolving symlinks.

The checkout path comes from the model folder's own run.json, which is untrusted: anyone can
write `"checkout": "/"` there. So a checkout is used only if it resolves to a folder under one of
the *source roots*: the clone cache (`$REPOMODELER_HOME/repos`) plus the folders the operator
names with `serve --source-root` / `publish --source-root`.

Without a flag the sources are still found where this machine analysed the model (issue 27): the
run history under `$REPOMODELER_HOME` (the user's own file, which a models folder cannot write)
records the folder or clone each repository was read from, keyed by the SHA-256 of the model.json
that analysis wrote, so a model byte-identical to one analysed here reads its sources from there
(:func:`history_sources`); and a repository with a URL and a pinned commit is read from its clone
in the clone cache, found from the URL as `analyze` names it. Anything else is "not found", with a
message saying how to make the sources available (:class:`SourceMissing`).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any, Iterable, Iterator

from repomodeler.model import ModelFormatError, from_dict
from repomodeler.records import Evidence

from .store import NotFound

CONTEXT_LINES = 5
MAX_FILE_BYTES = 5 * 1024 * 1024
_COMMIT_RE = re.compile(r"^[0-9a-fA-F]{7,64}$")


class BadRequest(Exception):
    """Malformed input (as opposed to NotFound for input that is fine but not available)."""


class SourceMissing(NotFound):
    """No checkout of a repository can be read; `message` says how to make one available."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def history_sources(model_bytes: bytes) -> dict[str, dict[str, Any]]:
    """Repository -> checkout record (checkout, kind, commit) of the analysis on this machine that wrote
    exactly these model.json bytes, from the run history (read-only); {} when there is none."""
    import hashlib

    from repomodeler.store import RunStore

    try:
        return RunStore(read_only=True).sources(hashlib.sha256(model_bytes).hexdigest())
    except Exception:  # noqa: BLE001 - a missing, locked or broken history only loses this way of finding sources
        return {}


def _cached_clone(repository: str, model: dict[str, Any]) -> dict[str, Any] | None:
    """The clone cache's bare clone of `repository`'s URL, at the model's pinned commit, if it is there."""
    from repomodeler.acquire import _cache_path, parse_input
    from repomodeler.records import RepomodelerError

    for repo in model.get("repositories") or []:
        if not (isinstance(repo, dict) and repo.get("name") == repository):
            continue
        url, commit = repo.get("url"), repo.get("commit")
        if not (isinstance(url, str) and url and isinstance(commit, str) and _COMMIT_RE.match(commit)):
            return None
        try:
            spec = parse_input(url)
        except RepomodelerError:
            return None
        if spec.kind != "url":
            return None
        path = _cache_path(spec)
        return {"checkout": path, "kind": "git", "commit": commit} if path.is_dir() else None
    return None


def _missing(repository: str, model: dict[str, Any]) -> SourceMissing:
    remote = any(isinstance(r, dict) and r.get("name") == repository and r.get("url")
                 for r in model.get("repositories") or [])
    where = ("its clone is not in the clone cache ($REPOMODELER_HOME/repos): run 'repomodeler analyze' on its URL on "
             "this machine, or start the server with --source-root FOLDER naming a checkout"
             if remote else
             "it was analysed from a folder this server does not know: start the server with --source-root FOLDER "
             "(the folder it was analysed from, or a parent), or analyse it again on this machine")
    return SourceMissing(f"Source of '{repository}' not available: {where}.")


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


def iter_evidence(model: dict[str, Any]) -> Iterator[Evidence]:
    """Every evidence record of the model (nodes, ports, endpoints, edges, warnings, unresolved); none
    for model.json content that is not a model."""
    try:
        yield from from_dict(model).evidence()
    except ModelFormatError:
        return


def cited_paths(model: dict[str, Any]) -> set[tuple[str, str]]:
    """(repository, path) pairs the model cites; the only files the snippet API will read."""
    return {(e.repository, e.path) for e in iter_evidence(model) if e.path}


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
                  roots: Iterable[Path], known: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Where to read `repository` from: run.json's checkout when it lies under a source root, else
    the checkout the run history recorded for this model (`known`, :func:`history_sources`), else
    its clone in the clone cache; SourceMissing saying how to fix it otherwise."""
    record: dict[str, Any] = {}
    for repo in model.get("repositories") or []:
        if isinstance(repo, dict) and repo.get("name") == repository:
            record["commit"] = repo.get("commit")
    for repo in run.get("repositories") or []:
        if isinstance(repo, dict) and repo.get("name") == repository:
            record.update({k: v for k, v in repo.items() if v is not None})
    if record.get("checkout"):
        try:
            record["checkout"] = trusted_checkout(record["checkout"], roots)
            _refuse_clone_cache_as_folder(record)
            return record
        except NotFound:
            pass
    recorded = (known or {}).get(repository)
    if recorded and isinstance(recorded.get("checkout"), str):
        try:
            path = Path(recorded["checkout"]).resolve(strict=True)
        except (OSError, RuntimeError):
            path = None
        if path is not None and path.is_dir():
            return {"checkout": path, "kind": recorded.get("kind") or None, "commit": recorded.get("commit")}
    cached = _cached_clone(repository, model)
    if cached is not None:
        return cached
    raise _missing(repository, model)


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
    known: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Lines `line-context .. line+context` of a cited file, as JSON-ready data; checkouts under
    `roots` (default: :func:`source_roots`), or recorded for this model (`known`), or cached clones."""
    safe_relative_path(path)
    if line < 1:
        raise BadRequest("line must be >= 1")
    if (repository, path) not in cited_paths(model):
        raise NotFound("path is not cited by the model")
    record = _checkout_for(repository, model, run, source_roots() if roots is None else roots, known)
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
                 roots: Iterable[Path] | None = None,
                 known: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """Snippets for every cited location, keyed by repository, path and line joined with "\\n".

    Each file is read once; unreadable files (and checkouts outside `roots`, default
    :func:`source_roots`) are skipped so a missing checkout only loses the snippets, not the page.
    """
    roots = source_roots() if roots is None else tuple(roots)
    wanted: dict[tuple[str, str], set[int]] = {}
    for ev in iter_evidence(model):
        try:
            safe_relative_path(ev.path)
        except BadRequest:
            continue
        wanted.setdefault((ev.repository, ev.path), set()).add(max(ev.line, 1))
    out: dict[str, dict[str, Any]] = {}
    for (repo, path), lines_wanted in sorted(wanted.items()):
        try:
            record = _checkout_for(repo, model, run, roots, known)
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
