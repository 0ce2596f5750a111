"""Acquire: turn what the user typed into pinned repositories on local disk.

Remote URLs are cloned once into a cache (``$REPOMODELER_HOME/repos``) as bare repositories and
fetched again on later runs; a bare clone has no work tree, so no checkout hooks or filters from
the repository ever run.  Local git work trees are read through their object database at the
pinned commit; plain directories are read as they are.  Every git call goes through
:func:`run_git`, which disables prompts, hooks and credential storage and applies a timeout.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from repomodeler.leftovers import tmp_prefix
from repomodeler.credentials import (TOKEN_VARS, GitCredential, askpass_env, credential_for, redact,
                                    remember_secret, scrub, split_url)
from repomodeler.proc import die_with_parent
from repomodeler.records import RepomodelerError, Repository, RepoSpec

_SCHEME_URL = re.compile(r"^(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*)://")
_SCP_URL = re.compile(r"^(?P<user>[A-Za-z0-9._-]+@)?(?P<host>[A-Za-z0-9.-]+):(?P<path>(?!//).+)$")
#: Transports git may use. Plain http only when asked (--allow-http) or to this machine (loopback
#: cannot be intercepted); remote helpers (`ext::`, `fd::`, `X::...`) never: they run commands.
_GIT_SCHEMES = {"https", "ssh", "git", "file"}
_REMOTE_HELPER = re.compile(r"^(?P<helper>[A-Za-z][A-Za-z0-9+.-]*)::")
_LOOPBACK = {"localhost", "127.0.0.1", "::1"}
#: git's own allow-list, passed on every call: a URL that slipped past parse_input (a submodule, a
#: redirect) still cannot reach another transport.
_PROTOCOL_CONFIG = ["-c", "protocol.allow=never", *[arg for proto in ("https", "http", "ssh", "git", "file")
                                                      for arg in ("-c", f"protocol.{proto}.allow=always")]]

DEFAULT_TIMEOUT = 300.0


def home_dir() -> Path:
    """Where clones (and later the cache database) live: ``$REPOMODELER_HOME`` or ~/.cache/repomodeler."""
    env = os.environ.get("REPOMODELER_HOME")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "repomodeler"


def redact_url(url: str) -> str:
    """A URL fit to print or store: user-info, query secrets and known tokens removed
    (:func:`repomodeler.credentials.redact`, the one redaction step)."""
    return redact(url)


def _name_from(location: str) -> str:
    parts = [p for p in location.rstrip("/").replace(":", "/").split("/") if p]
    if parts and parts[-1] == ".git":  # a path to a .git folder: name it after the work tree
        parts.pop()
    tail = parts[-1] if parts else ""
    if tail.endswith(".git"):
        tail = tail[:-4]
    return tail or "repository"


def _owner_from(location: str) -> str:
    parts = [p for p in location.rstrip("/").replace(":", "/").split("/") if p]
    return parts[-2] if len(parts) >= 2 else ""


def parse_input(raw: str, *, allow_http: bool = False) -> RepoSpec:
    """Parse one input (URL, URL@REF, path or path@REF) or raise a one-line error naming it.

    Only the https, ssh, git and file transports are accepted (http with `allow_http`, or to a
    loopback address); a password is accepted only in an https URL, where it goes to git through
    the askpass helper, never on a command line.
    """
    text = raw.strip()
    if not text:
        raise RepomodelerError("error: an empty input was given; pass a git URL or a local folder")
    helper = _REMOTE_HELPER.match(text)
    if helper and not os.path.exists(text):
        raise RepomodelerError(
            f"error: '{redact_url(raw)}' uses the git remote helper '{helper.group('helper')}::', which can run "
            "commands; repomodeler refuses it: use https://, ssh://, git:// or file://")
    m = _SCHEME_URL.match(text)
    if m:
        scheme = m.group("scheme").lower()
        head, userinfo, rest = split_url(text)
        if userinfo is not None:  # re-encoded, so that a secret holding '/', '#' or '?' stays in the user-info
            user, sep, secret = userinfo.partition(":")
            remember_secret(userinfo)
            remember_secret(secret if sep else user)
            text = (f"{head}{quote(unquote(user), safe='')}{':' if sep else ''}"
                    f"{quote(unquote(secret), safe='') if sep else ''}@{rest}")
        parts = urlsplit(text)
        if scheme == "http" and not allow_http and (parts.hostname or "") not in _LOOPBACK:
            raise RepomodelerError(
                f"error: '{redact_url(raw)}' uses plain http://, which anyone on the network can read and alter; "
                "use https:// (or pass --allow-http if you mean it)")
        if scheme not in _GIT_SCHEMES | {"http"}:
            raise RepomodelerError(
                f"error: '{redact_url(raw)}' uses the unsupported scheme '{scheme}://'; use https://, ssh://, git:// or file://"
            )
        try:
            password = parts.password
        except ValueError:
            password = None
        if password and scheme in ("ssh", "git"):
            raise RepomodelerError(
                f"error: '{redact_url(raw)}' holds a password, which repomodeler does not pass to {scheme}:// "
                "(it would show in the process list); use an ssh key or agent, or an https URL with "
                "REPOMODELER_GIT_TOKEN")
        path, ref = parts.path, None
        # (a file:// URL to a folder whose name holds an `@`, `/src/app@2/repo`, names that folder, as a local
        # path does: only an `@` the folder's name does not account for starts a ref)
        if "@" in path and not (scheme == "file" and os.path.isdir(unquote(path))):
            path, ref = path.rsplit("@", 1)
        if scheme != "file" and not parts.netloc:
            raise RepomodelerError(f"error: '{redact_url(raw)}' is not a valid git URL (no host); use e.g. https://github.com/owner/repo")
        if not path.strip("/"):
            raise RepomodelerError(f"error: '{redact_url(raw)}' is not a valid git URL (no repository path); use e.g. https://github.com/owner/repo")
        if ref == "":
            raise RepomodelerError(f"error: '{redact_url(raw)}' ends with '@' but names no ref; write URL@branch, URL@tag or URL@commit")
        location = urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))
        return RepoSpec(raw=raw, kind="url", location=location, ref=ref, name=_name_from(path))
    # A local path wins over scp-like syntax when it exists (e.g. 'C:foo' style names are rare).
    if os.path.exists(text):
        return RepoSpec(raw=raw, kind="path", location=str(Path(text).resolve()), ref=None,
                        name=_name_from(str(Path(text).resolve())))
    if "@" in text and os.path.exists(text.rsplit("@", 1)[0]):
        path, ref = text.rsplit("@", 1)
        if not ref:
            raise RepomodelerError(f"error: '{redact_url(raw)}' ends with '@' but names no ref; write PATH@branch, PATH@tag or PATH@commit")
        resolved = Path(path).resolve()
        return RepoSpec(raw=raw, kind="path", location=str(resolved), ref=ref, name=_name_from(str(resolved)))
    m = _SCP_URL.match(text)
    if m and "/" in m.group("path") and not text.startswith(("/", ".", "~")):
        path, ref = m.group("path"), None
        if "@" in path:
            path, ref = path.rsplit("@", 1)
        location = f"{m.group('user') or ''}{m.group('host')}:{path}"
        return RepoSpec(raw=raw, kind="url", location=location, ref=ref, name=_name_from(path))
    if "://" in text or text.startswith(("http:", "https:")):
        raise RepomodelerError(f"error: '{redact_url(raw)}' is not a valid git URL; use e.g. https://github.com/owner/repo")
    raise RepomodelerError(f"error: '{redact_url(raw)}' does not exist; give an existing folder or a git URL (https://, ssh://, git@host:owner/repo, file://)")


def git_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for every git call: no prompts, no system config surprises, no tokens unless asked.

    Tokens in our own environment are removed so git (and anything it starts) only sees a secret
    when :mod:`repomodeler.credentials` hands it one for a single call through `extra`.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k not in TOKEN_VARS}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        GIT_ASKPASS="true" if shutil.which("true") else "",
        SSH_ASKPASS="true" if shutil.which("true") else "",
        GIT_SSH_COMMAND="ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new",
        GIT_CONFIG_NOSYSTEM="1",
        GIT_LFS_SKIP_SMUDGE="1",
        LC_ALL="C",
    )
    env.update(extra or {})
    return env


_running: set[subprocess.Popen[bytes]] = set()
_running_lock = threading.Lock()
_cancelled = threading.Event()


class GitCancelled(RepomodelerError):
    """Raised in a worker thread whose git call was stopped by :func:`cancel_running_git`."""


def cancel_running_git() -> None:
    """Kill every git process started by :func:`run_git` and refuse new ones until :func:`allow_git`.

    Ctrl-C is delivered to the main thread only; clones running in worker threads would otherwise
    keep going (and keep the process alive) until their --timeout.
    """
    _cancelled.set()
    with _running_lock:
        procs = list(_running)
    for proc in procs:
        _kill_group(proc)


def allow_git() -> None:
    """Undo :func:`cancel_running_git` (for the next analysis in the same process)."""
    _cancelled.clear()


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill git and every helper it started (git-remote-https, ssh...): they share its session."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run_git(args: list[str], *, cwd: Path | None = None, timeout: float = DEFAULT_TIMEOUT,
            input_bytes: bytes | None = None, extra_env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[bytes]:
    """Run git with hooks disabled and a timeout; returns the completed process (never raises on exit code).

    git runs in its own session so that on a timeout or Ctrl-C the whole process group (including
    remote helpers that would otherwise keep the pipes open and hang us) is killed at once.
    """
    cmd = ["git", "-c", "core.hooksPath=/dev/null", "-c", "credential.helper=", *_PROTOCOL_CONFIG,
           "-c", "core.fsmonitor=false", *args]
    if _cancelled.is_set():
        raise GitCancelled("error: interrupted")
    proc = subprocess.Popen(cmd, cwd=cwd, env=git_env(extra_env), stdin=subprocess.PIPE if input_bytes is not None
                            else subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=die_with_parent())
    guard = _group_guard(proc.pid)
    with _running_lock:
        _running.add(proc)
    try:
        out, err = proc.communicate(input_bytes, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        _kill_group(proc)
        proc.communicate()
        raise TimeoutError(f"git {' '.join(args[:2])} did not finish within {timeout:.0f}s") from exc
    except BaseException:  # Ctrl-C and anything else: never leave git running behind us
        _kill_group(proc)
        proc.wait()
        raise
    finally:
        with _running_lock:
            _running.discard(proc)
        _release_guard(guard)
    if _cancelled.is_set():
        raise GitCancelled("error: interrupted")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _group_guard(group: int) -> subprocess.Popen[bytes] | None:
    """A watcher that kills git's process group when we die, however we die.

    git itself gets SIGKILL from the kernel when we die (PR_SET_PDEATHSIG), but the helpers it starts
    (git-remote-https, ssh, upload-pack, index-pack) do not: one blocked on the network lives on
    until its own timeout. The watcher is a shell reading a pipe that only we can write to: when we
    exit, even by ``kill -9``, the kernel closes our end, its read returns and it kills the group.
    """
    if not hasattr(os, "killpg") or not os.path.exists("/bin/sh"):
        return None
    try:
        return subprocess.Popen(["/bin/sh", "-c", 'read _ ; kill -s KILL -- "-$0" 2>/dev/null', str(group)],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)  # must outlive us: no death signal, its own session
    except OSError:
        return None


def _release_guard(guard: subprocess.Popen[bytes] | None) -> None:
    """git has ended normally: stop its watcher without letting it kill anything."""
    if guard is None:
        return
    try:
        guard.kill()
        guard.wait()
    except ProcessLookupError:
        pass
    finally:
        if guard.stdin is not None:
            guard.stdin.close()


def _explain_clone_failure(spec: RepoSpec, stderr: str, credential: GitCredential | None = None) -> str:
    """One line naming the input and a next step, from git's stderr (credentials removed)."""
    shown = redact_url(spec.raw)
    low = stderr.lower()
    if "could not resolve host" in low or "name or service not known" in low or "temporary failure in name resolution" in low:
        return f"error: cannot reach the host of '{shown}'; check the URL and your network"
    if "connection refused" in low or "connection timed out" in low or "network is unreachable" in low or "failed to connect" in low:
        return f"error: cannot connect to '{shown}'; check the URL, the port and your network"
    # (an HTTP status git reports, `returned error: 401`, not digits of the URL's port: 127.0.0.1:40153)
    status = re.search(r"\b40[13]\b", re.sub(r"\S+://\S+", " ", low))
    if ("authentication" in low or "could not read username" in low or "could not read password" in low
            or "permission denied" in low or status or "terminal prompts disabled" in low):
        if credential is not None:
            return (f"error: '{shown}' refused the credentials from {credential.source}; check the token "
                    "and that it may read this repository")
        return (f"error: '{shown}' needs authentication; set REPOMODELER_GIT_TOKEN (or GITHUB_TOKEN) "
                "or use an ssh URL with a loaded key")
    if ("not found" in low or "does not appear to be a git repository" in low or "does not exist" in low
            or "invalid gitfile format" in low or "not a git repository" in low):
        return f"error: no git repository at '{shown}'; check the URL"
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    first = lines[-1].strip() if lines else "git fetch failed"
    return f"error: cannot clone '{shown}': {scrub(redact_url(first))[:300]}"


def _cache_path(spec: RepoSpec) -> Path:
    digest = hashlib.sha256(redact_url(spec.location).encode()).hexdigest()[:16]
    return home_dir() / "repos" / f"{re.sub(r'[^A-Za-z0-9._-]', '_', spec.name)}-{digest}.git"


def _fetch(spec: RepoSpec, git_dir: Path, timeout: float) -> None:
    """Fetch every branch and tag of `spec` into `git_dir` and point HEAD at the remote's default branch.

    The URL is passed on the command line and never stored in the clone's config, so a username
    (or token) in it is not written to disk; secrets go through :func:`credentials.askpass_env`.
    """
    url, credential = credential_for(spec.location)
    refspecs = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]
    with askpass_env(credential) as extra:
        proc = run_git(["fetch", "--prune", "--quiet", "--no-recurse-submodules", "--no-write-fetch-head", "--", url,
                        *refspecs], cwd=git_dir, timeout=timeout, extra_env=extra)
        if proc.returncode != 0:
            raise RepomodelerError(_explain_clone_failure(spec, proc.stderr.decode("utf-8", "replace"), credential))
        head = run_git(["ls-remote", "--symref", "--", url, "HEAD"], cwd=git_dir, timeout=timeout, extra_env=extra)
    m = re.search(rb"ref: (refs/heads/[^\s]+)\s+HEAD", head.stdout)
    branch = m.group(1).decode("utf-8", "replace") if m else None
    if branch is None:  # servers that do not report HEAD: fall back to a usual default branch
        names = run_git(["for-each-ref", "--format=%(refname)", "refs/heads"], cwd=git_dir).stdout.decode().split()
        branch = next((b for b in ("refs/heads/main", "refs/heads/master") if b in names), names[0] if names else None)
    if branch:
        run_git(["symbolic-ref", "HEAD", branch], cwd=git_dir)


def _clone_or_update(spec: RepoSpec, timeout: float) -> Path:
    """Bare-clone into the cache, or fetch into an existing clone; never leaves a half clone behind.

    A new clone is built in a temporary folder next to the cache entry and renamed into place only
    when complete, so an error, timeout or Ctrl-C leaves either no entry or the previous one.
    """
    dest = _cache_path(spec)
    try:
        if (dest / "HEAD").exists():
            _fetch(spec, dest, timeout)
            return dest
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=tmp_prefix(".clone-"), dir=dest.parent))
        try:
            work = tmp / "r.git"
            init = run_git(["init", "--quiet", "--bare", str(work)])
            if init.returncode != 0:
                raise RepomodelerError(f"error: cannot create a clone under '{dest.parent}'; check that it is writable")
            _fetch(spec, work, timeout)
            try:
                os.replace(work, dest)
            except OSError:
                if not (dest / "HEAD").exists():  # another run won the race if HEAD is there
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return dest
    except TimeoutError as exc:
        raise RepomodelerError(
            f"error: cloning '{redact_url(spec.raw)}' timed out after {timeout:g}s; check the host or raise --timeout"
        ) from exc


def _resolve_commit(git_dir: Path, spec: RepoSpec) -> str:
    ref = spec.ref or "HEAD"
    proc = run_git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], cwd=git_dir)
    if proc.returncode == 0:
        return proc.stdout.decode().strip()
    if spec.ref is None:
        any_ref = run_git(["for-each-ref", "--count=1"], cwd=git_dir)
        if not any_ref.stdout.strip():
            raise RepomodelerError(f"error: '{redact_url(spec.raw)}' is an empty repository (no commits); push a commit first")
        raise RepomodelerError(f"error: '{redact_url(spec.raw)}' has no default branch; pin one with {redact_url(spec.raw)}@BRANCH")
    raise RepomodelerError(
        f"error: ref '{spec.ref}' does not exist in '{redact_url(spec.location)}'; give an existing branch, tag or commit"
    )


def _is_git_worktree(path: Path) -> Path | None:
    """Return the git dir if `path` is the top of a git work tree (or a bare repo), else None."""
    if (path / ".git").exists():
        # one git call for both (a landscape rerun asks this of every repository); two when a path
        # holds a line break and the output cannot be split
        both = run_git(["rev-parse", "--absolute-git-dir", "--show-toplevel"], cwd=path)
        lines = both.stdout.decode().strip("\n").split("\n") if both.returncode == 0 else []
        if len(lines) == 2:
            git_dir, top_dir = lines
        else:
            proc = run_git(["rev-parse", "--absolute-git-dir"], cwd=path)
            top = run_git(["rev-parse", "--show-toplevel"], cwd=path)
            ok = proc.returncode == 0 and top.returncode == 0
            git_dir, top_dir = (proc.stdout.decode().strip(), top.stdout.decode().strip()) if ok else ("", "")
        if top_dir and Path(top_dir).resolve() == path.resolve():
            return Path(git_dir)
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return path
    return None


def _worktree_head(path: Path) -> tuple[Path, str] | None:
    """(git dir, HEAD commit) when `path` is the top of a git work tree whose HEAD is a commit, in
    one git call; None in any other case (the callers then ask step by step, with their errors)."""
    if not (path / ".git").exists():
        return None
    proc = run_git(["rev-parse", "--absolute-git-dir", "--show-toplevel", "HEAD^{commit}"], cwd=path)
    lines = proc.stdout.decode().strip("\n").split("\n") if proc.returncode == 0 else []
    if len(lines) != 3 or not re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", lines[2]):
        return None
    if Path(lines[1]).resolve() != path.resolve():
        return None
    return Path(lines[0]), lines[2]


def acquire_one(spec: RepoSpec, *, timeout: float = DEFAULT_TIMEOUT) -> Repository:
    """Make `spec` available locally and pin it to a commit."""
    if spec.kind == "url":
        if spec.location.startswith("file:"):
            local = Path(unquote(urlsplit(spec.location).path))
            if not local.is_dir():
                raise RepomodelerError(f"error: '{redact_url(spec.raw)}' is not a git repository (a file:// URL must "
                                       "name a repository folder); check the path")
        git_dir = _clone_or_update(spec, timeout)
        commit = _resolve_commit(git_dir, spec)
        public = redact_url(spec.location) if not spec.location.startswith("file:") else None
        return Repository(name=spec.name, spec=spec, checkout=git_dir, kind="git", commit=commit, url=public)
    path = Path(spec.location)
    if not path.is_dir():
        raise RepomodelerError(f"error: '{spec.raw}' is not a directory; give a folder or a git URL")
    pinned = _worktree_head(path) if spec.ref is None else None
    if pinned is not None:  # the common case in one git call (a landscape rerun asks it of every repository)
        return Repository(name=spec.name, spec=spec, checkout=pinned[0], kind="git", commit=pinned[1], url=None)
    git_dir = _is_git_worktree(path)
    if git_dir is not None:
        commit = _resolve_commit(git_dir, spec)
        return Repository(name=spec.name, spec=spec, checkout=git_dir, kind="git", commit=commit, url=None)
    if spec.ref:
        raise RepomodelerError(f"error: '{spec.raw}' pins a ref, but '{spec.location}' is not a git repository; drop the @ref")
    return Repository(name=spec.name, spec=spec, checkout=path, kind="dir", commit=None, url=None)


def unique_names(specs: list[RepoSpec]) -> list[RepoSpec]:
    """Give repositories that share a name distinct ones: owner-name first, then a numeric suffix."""
    counts: dict[str, int] = {}
    for s in specs:
        counts[s.name] = counts.get(s.name, 0) + 1
    used: set[str] = set()
    out: list[RepoSpec] = []
    for s in specs:
        name = s.name
        if counts[name] > 1:
            owner = _owner_from(s.location)
            name = f"{owner}-{name}" if owner else name
        base, n = name, 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        out.append(RepoSpec(raw=s.raw, kind=s.kind, location=s.location, ref=s.ref, name=name))
    return out


def submodule_specs(repo: Repository, taken: set[str] | None = None, *, allow_http: bool = False,
                    errors: list[str] | None = None) -> list[RepoSpec]:
    """Inputs for the submodules of a pinned repository (only with --submodules): URL@recorded-commit.

    Only network URLs are followed (https, ssh, git), and file:// or local paths only when the parent
    itself is local, so a hostile `.gitmodules` cannot make us read other repositories on this machine.
    A URL that cannot be used (``ext::``, ``fd::``, ``--upload-pack=...``, ``~/x``) is an error of
    that submodule, naming it: appended to `errors` (--keep-going) and the others still returned,
    or raised when `errors` is None.
    """
    if repo.kind != "git" or not repo.commit:
        return []
    tree = run_git(["ls-tree", "-r", "-z", "--full-tree", repo.commit], cwd=repo.checkout)
    links = {}
    for entry in tree.stdout.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) == 3 and parts[1] == b"commit":
            links[path.decode("utf-8", "replace")] = parts[2].decode()
    if not links:
        return []
    config = run_git(["config", "--blob", f"{repo.commit}:.gitmodules", "--get-regexp", r"^submodule\..*\.(path|url)$"],
                     cwd=repo.checkout)
    paths: dict[str, str] = {}
    urls: dict[str, str] = {}
    for line in config.stdout.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition(" ")
        name, _, field = key[len("submodule."):].rpartition(".")
        (paths if field == "path" else urls)[name] = value.strip()
    parent_local = repo.spec.kind == "path" or repo.spec.location.startswith("file:")
    specs: list[RepoSpec] = []
    for name in sorted(paths):
        path, url = paths[name], urls.get(name, "")
        if path not in links or not url:
            continue
        if url.startswith(("./", "../")):  # relative to the parent's URL
            base = repo.spec.location.rstrip("/")
            url = base.rsplit("/", 1)[0] + "/" + url[3:] if url.startswith("../") else base + "/" + url[2:]
        local = url.startswith(("file:", "/")) or not _SCHEME_URL.match(url) and not _SCP_URL.match(url)
        if local and not parent_local:
            continue
        if url.startswith("/"):
            url = f"file://{url}"
        try:
            spec = parse_input(f"{url}@{links[path]}", allow_http=allow_http)
        except RepomodelerError as exc:
            message = (f"error: submodule '{path}' of '{repo.name}': {str(exc).removeprefix('error: ')}"
                       + ("" if errors is not None else " (pass --keep-going to analyse the others)"))
            if errors is None:
                raise RepomodelerError(message) from None
            errors.append(message)
            continue
        name = spec.name if spec.name not in (taken or set()) else f"{repo.name}-{_name_from(path)}"
        specs.append(RepoSpec(raw=spec.raw, kind=spec.kind, location=spec.location, ref=spec.ref, name=name))
    return specs
