"""Publishing a model folder: one writer at a time, an atomic swap, recovery after a crash.

This module is the whole crash-safety argument for ``--out DIR``; read it here, in one place.

Names, all in the parent of ``DIR`` (hidden, so ``serve`` never lists them):

- ``.DIR.lock``          lock file; an exclusive ``flock`` on it is the right to change ``DIR``
                         (deleted by its holder on release; left behind only by a crash).
- ``.DIR.staging-PID``   the next model, written by process PID.
- ``.DIR.old-PID``       the previous model, moved aside by PID (fallback swap only, see below).

The model folder is the user's: analyze owns only the files listed in ``DIR/.repomodeler-manifest.json``
(written last into every staged model) and replaces only those. Everything else in ``DIR`` (a
``targets/`` folder, notes, files of ``repomodeler export``, a ``.git`` folder) is moved into the
staging folder just before the swap (:func:`carry_user_files`, one rename per entry, so nothing is
copied) and so is in ``DIR`` again the instant the swap is done. A kill while they are in the
staging folder is undone by recovery, which moves every entry its manifest does not list back
into ``DIR`` before it deletes a dead process's folder.

The protocol (:func:`output_lock`, :func:`stage_dir`, :func:`swap_into_place`):

1. Take the lock (a second writer waits for it and says so on stderr; ``flock`` is released by the
   kernel when its holder dies, even by ``kill -9``, so a crash never leaves a stale lock).
2. With the lock held, :func:`recover` cleans what a dead writer left: a ``.DIR.old-PID`` is put
   back as ``DIR`` if ``DIR`` is missing (else deleted); ``.DIR.staging-PID`` folders and
   ``DIR/.run.json.PID`` temporaries of dead processes are deleted; entries of a dead process's
   folder that its manifest does not list (the user's files) are first moved back into ``DIR``.
3. The new model is written into ``.DIR.staging-PID`` and audited there (``DIR`` is untouched),
   then every file and the folder are fsync'ed; the user's entries of ``DIR`` are moved into it.
4. Swap. On Linux ``renameat2(RENAME_EXCHANGE)`` swaps the two folders in one atomic step: at every
   instant ``DIR`` is a complete model, old or new; afterwards the staging name holds the old
   model and is deleted. Where the exchange is not available (other kernels, some filesystems)
   the fallback is rename ``DIR`` to ``.DIR.old-PID``, rename staging to ``DIR``, delete the old
   folder; a crash between the two renames leaves no ``DIR`` until the next run's step 2 puts the
   old model back (a reader in that window sees "no model", never a half one).
5. Release the lock.

So a crash at any instant leaves ``DIR`` (after recovery at the latest) holding either the complete
old or the complete new model, never a mixture, and leftovers are removed by the next writer.
``REPOMODELER_PUBLISH_CRASH_AT=N`` makes the process SIGKILL itself at the N-th step marked with
:func:`crash_point`; the fault-injection tests use it to kill publish at every step.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import signal
import stat
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from repomodeler.records import RepomodelerError

CRASH_ENV = "REPOMODELER_PUBLISH_CRASH_AT"
#: Optional file the crash hook appends each step name to (tests use it to count the steps).
TRACE_ENV = "REPOMODELER_PUBLISH_TRACE"

_steps_seen = 0

#: Errors that mean "the disk (or a quota or file-size limit) is full", not a bug.
_FULL = {errno.ENOSPC, errno.EFBIG, errno.EDQUOT}

#: Set to False to force the two-rename fallback (tests; filesystems without RENAME_EXCHANGE).
exchange_enabled = sys.platform.startswith("linux")


def crash_point(name: str) -> None:
    """Fault-injection hook: with REPOMODELER_PUBLISH_CRASH_AT=N, SIGKILL this process at step N.

    Costs one environment lookup when unset. SIGKILL (not an exception) because a real crash runs no
    ``finally`` blocks: the test must see exactly what a power cut or ``kill -9`` leaves.
    """
    target = os.environ.get(CRASH_ENV)
    if not target:
        return
    global _steps_seen
    _steps_seen += 1
    trace = os.environ.get(TRACE_ENV)
    if trace:
        with open(trace, "a", encoding="utf-8") as handle:
            handle.write(f"{_steps_seen} {name}\n")
    if target.isdigit() and _steps_seen == int(target):
        os.kill(os.getpid(), signal.SIGKILL)


# ---------------------------------------------------------------------------------------- names
def resolve_out(out: Path, flag: str = "--out") -> Path:
    """The folder a run publishes to, as the swap needs it.

    A symbolic link to a folder is followed: the link stays and the folder it points to gets the
    new model (the lock and staging folder go beside that folder). The current folder (``--out .``)
    or one holding it is refused in one line: a swap replaces the folder as a whole, and the shell
    you run it from would be left in the deleted old one.
    """
    path = out
    if path.is_symlink():
        target = Path(os.path.realpath(path))
        if target.exists() and not target.is_dir():
            raise RepomodelerError(f"error: {flag} '{out}' is a link to '{target}', which is not a folder; "
                                   "choose another path")
        path = target
    absolute = Path(os.path.realpath(path))
    try:
        cwd = Path(os.path.realpath(os.getcwd()))
    except OSError:
        cwd = None
    if out.name in ("", ".", "..") or (cwd is not None and (absolute == cwd or absolute in cwd.parents)):
        raise RepomodelerError(f"error: {flag} '{out}' is the current folder or holds it; it is replaced as a whole "
                               "when published: run from another folder or give a path such as ../NAME")
    return path


def lock_path(out: Path) -> Path:
    return out.parent / f".{out.name}.lock"


def staging_path(out: Path, pid: int | None = None) -> Path:
    return out.parent / f".{out.name}.staging-{pid or os.getpid()}"


def _old_path(out: Path, pid: int | None = None) -> Path:
    return out.parent / f".{out.name}.old-{pid or os.getpid()}"


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (a zombie counts as dead: it holds no lock any more)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def _pid_suffix(name: str, prefix: str) -> int | None:
    rest = name[len(prefix):]
    return int(rest) if name.startswith(prefix) and rest.isdigit() else None


# ---------------------------------------------------------------------------------------- manifest
#: The list of the files analyze wrote into a model folder (relative POSIX paths); all else is the user's.
MANIFEST = ".repomodeler-manifest.json"
MANIFEST_FORMAT = "repomodeler/manifest@1"
#: What a model folder written before the manifest existed holds of analyze's (``export/`` is not
#: claimed: ``repomodeler export`` writes there too).
LEGACY_FILES = ("RepoModeler.sysml", "model.json", "model.sysml", "run.json")


def _is_plain_file(path: Path) -> bool:
    return path.is_file() and not path.is_symlink()


#: What a static site published before the manifest existed holds of ``publish``'s (a trailing
#: ``/`` owns the whole folder).
LEGACY_SITE = ("index.html", "static/", "models/", "data/", "files/")


def owned_files(folder: Path) -> set[str] | None:
    """The files analyze (or publish) owns in `folder` (its manifest; the fixed names for a model or
    site written before manifests), or None when repomodeler did not write it."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        files = data.get("files") if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else None
        if isinstance(files, list):
            return {f for f in files if isinstance(f, str) and _safe_relative(f)} | {MANIFEST}
    except (OSError, ValueError, RecursionError):
        pass
    if _is_plain_file(folder / "model.json"):
        return set(LEGACY_FILES)
    if _is_plain_file(folder / "index.html") and (folder / "static").is_dir() and (folder / "models").is_dir():
        return set(LEGACY_SITE)
    return None


def _safe_relative(rel: str) -> bool:
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def write_manifest(staging: Path) -> None:
    """List every file of the staged model (call after the last model file is written)."""
    files = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*")
                   if p.is_file() and not p.is_symlink() and p.name != MANIFEST)
    write_file(staging / MANIFEST, json.dumps({"format": MANIFEST_FORMAT, "files": files}, indent=1) + "\n")


def _move_unowned(src: Path, dst: Path, owned: set[str], rel: str = "") -> int:
    """Move every entry under `src` that is not an owned file into the same place under `dst`.

    A folder holding owned files is walked (its other entries move one by one); any other entry
    moves whole, by one rename. An entry whose name is taken in `dst` is left where it is: when
    carrying, the new model writes that name (analyze owns it now); in recovery, what is in
    ``DIR`` is never replaced. Returns the number of entries moved.
    """
    moved = 0
    try:
        children = sorted(src.iterdir(), key=lambda p: p.name)
    except OSError:
        return 0
    for child in children:
        sub = f"{rel}{child.name}"
        if (sub in owned and not child.is_dir()) or sub + "/" in owned:
            continue  # analyze's file (or folder): it goes (or stays) with its model
        target = dst / child.name
        if child.is_dir() and not child.is_symlink() and (any(o.startswith(sub + "/") for o in owned)
                                                          or (target.is_dir() and not target.is_symlink())):
            if not target.exists() and not target.is_symlink():
                target.mkdir()
                crash_point(f"keep {sub}/")
            if target.is_dir() and not target.is_symlink():
                moved += _move_unowned(child, target, owned, rel=sub + "/")
            continue
        if target.exists() or target.is_symlink():
            continue
        os.rename(child, target)
        moved += 1
        crash_point(f"keep {sub}")
    return moved


def carry_user_files(out: Path, staging: Path) -> None:
    """Move the user's entries of `out` (all that its manifest does not list) into `staging`, which
    is about to become `out`; call with the lock held, after the staged model is complete."""
    if not out.is_dir():
        return
    owned = owned_files(out) or set()
    owned.add(MANIFEST)
    if _move_unowned(out, staging, owned):
        _fsync_dir(staging)
        _fsync_dir(out)


def _give_back(folder: Path, out: Path) -> None:
    """Recovery: move the user's entries out of a dead process's `folder` into `out`."""
    if not (folder / MANIFEST).is_file() or not out.is_dir():
        return  # a staging folder without manifest was never given the user's files
    owned = owned_files(folder) or set()
    if _move_unowned(folder, out, owned):
        _fsync_dir(out)


# ---------------------------------------------------------------------------------------- lock
@contextmanager
def output_lock(out: Path, *, wait: bool = True) -> Iterator[list[str]]:
    """Hold the exclusive right to change `out`; yields the recovery notes (see :func:`recover`).

    Choice for a second concurrent writer: it waits (its work is not wasted, and CI jobs that
    share a folder just serialise) and prints one line saying whom it waits for; ``wait=False``
    fails with a one-line error instead. The holder deletes the lock file before it lets go, so
    nothing is left beside ``out``; a waiter that then wins the lock on the deleted file sees that
    the name no longer points at what it locked and starts again (otherwise two processes could
    each lock a different file of the same name).
    """
    path = lock_path(out)
    told = False
    while True:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            fd = _open_lock_file(path)
        except FileNotFoundError:
            continue  # the holder deleted it between our two opens: create it again
        except OSError as exc:
            raise RepomodelerError(f"error: cannot create the lock file '{path}' ({exc.strerror}); "
                                   "check that the folder of --out is writable") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _read_holder(fd)
                for _ in range(40):  # the holder writes its pid just after it locks: give it a moment
                    if holder:
                        break
                    time.sleep(0.025)
                    holder = _read_holder(fd)
                if not wait:
                    raise RepomodelerError(f"error: another repomodeler{holder} is publishing to '{out}'; "
                                           "try again when it has finished") from None
                if not told:
                    print(f"note: waiting for another repomodeler{holder} that is publishing to '{out}'",
                          file=sys.stderr, flush=True)
                    told = True
                fcntl.flock(fd, fcntl.LOCK_EX)
            if not _same_file(fd, path):
                os.close(fd)
                continue  # the previous holder deleted the file we locked: lock the current one
        except BaseException:
            os.close(fd)
            raise
        break
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield recover(out)
    finally:
        try:
            os.unlink(path)  # still ours: nobody else can hold a lock on this name now
        except OSError:
            pass
        os.close(fd)  # closing the only descriptor releases the flock


def _open_lock_file(path: Path) -> int:
    """Open (creating it if needed) the lock file without ever following a link.

    Anyone who can write the parent of --out could plant ``.DIR.lock`` as a symbolic or hard link
    to a file of ours, which the lock holder would truncate to its PID. So the file is created with
    ``O_CREAT|O_EXCL|O_NOFOLLOW``, as git creates its locks; an existing one (left by a crash, or
    held by another run) is opened with ``O_NOFOLLOW`` and must be a plain file of ours with one
    link, else the run stops with a one-line error and touches nothing.
    """
    flags = os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _not_a_lock(path) from None
        raise
    st = os.fstat(fd)
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 0 and st.st_uid == os.getuid():
        # the holder deleted it between our open and this look (it lets go that way): create it again
        os.close(fd)
        raise FileNotFoundError(errno.ENOENT, "lock file deleted by its holder", str(path))
    if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1 or st.st_uid != os.getuid():
        os.close(fd)
        raise _not_a_lock(path)
    return fd


def _not_a_lock(path: Path) -> RepomodelerError:
    return RepomodelerError(f"error: the lock file '{path}' is a link or not a plain file of yours; nothing was "
                            "written: remove it (repomodeler deletes its own lock files) and rerun")


def _same_file(fd: int, path: Path) -> bool:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    own = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (own.st_dev, own.st_ino)


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def recover(out: Path) -> list[str]:
    """Undo or finish what dead writers left next to `out`; call with the lock held.

    Only leftovers whose PID is dead are touched: a drift check (``publish=False``) stages next to
    ``out`` without the lock, and its folder must survive while it runs. Returns one note per
    action (the caller may print them).
    """
    notes: list[str] = []
    if not out.parent.is_dir():
        return notes
    old_prefix, staging_prefix = f".{out.name}.old-", f".{out.name}.staging-"
    leftovers = sorted(out.parent.iterdir(), key=lambda p: p.name)
    for child in leftovers:
        pid = _pid_suffix(child.name, old_prefix)
        if pid is None or pid == os.getpid() or pid_alive(pid):
            continue
        if not out.exists() and owned_files(child) is not None:  # a model or a site
            os.rename(child, out)  # the crash came between the two renames of the fallback swap
            _fsync_dir(out.parent)
            notes.append(f"restored the previous model of '{out}' left by interrupted process {pid}")
        else:
            _give_back(child, out)
            shutil.rmtree(child, ignore_errors=True)
            notes.append(f"removed {child.name} left by process {pid}")
    for child in leftovers:
        pid = _pid_suffix(child.name, staging_prefix)
        if pid is None or pid == os.getpid() or pid_alive(pid):
            continue
        _give_back(child, out)
        shutil.rmtree(child, ignore_errors=True)
        notes.append(f"removed {child.name} left by process {pid}")
    if out.is_dir():
        for child in out.iterdir():
            pid = _pid_suffix(child.name, ".run.json.")
            if pid is not None and pid != os.getpid() and not pid_alive(pid):
                child.unlink(missing_ok=True)
    return notes


# ---------------------------------------------------------------------------------------- writing
def full_disk_error(path: Path | str | None, exc: OSError, needed: int | None = None) -> RepomodelerError | None:
    """A one-line error naming `path` (and, when known, the room the file needs) when `exc` means
    the disk, a quota or a size limit is full. ``shutil.Error`` (a copy of a folder) carries the
    failures of its files: the first full-disk one is reported."""
    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list):
        for item in exc.args[0]:
            if isinstance(item, tuple) and len(item) == 3:
                _src, dst, why = item
                if any(code in str(why) for code in ("[Errno 28]", "[Errno 27]", "[Errno 122]")):
                    number = 28 if "[Errno 28]" in str(why) else 27 if "[Errno 27]" in str(why) else 122
                    return full_disk_error(dst, OSError(number, os.strerror(number)))
        return None
    if exc.errno not in _FULL:
        return None
    what = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is exceeded",
            errno.EFBIG: "the file is larger than the system allows"}[exc.errno]
    target = f" '{path}'" if path else ""
    room = f" (it needs {max(1, -(-needed // 1024))} kB)" if needed else ""
    return RepomodelerError(f"error: cannot write{target}{room}: {what}; free some space and rerun "
                            "(the previous model, if any, was kept)")


def write_file(path: Path, text: str) -> None:
    """Write a staged file, naming the path if the disk is full (never 'internal error')."""
    data = text.encode("utf-8")
    try:
        with open(path, "wb") as handle:
            half = len(data) // 2
            handle.write(data[:half])
            if os.environ.get(CRASH_ENV):
                handle.flush()
                crash_point(f"write {path.name} (half)")
            handle.write(data[half:])
    except OSError as exc:
        error = full_disk_error(path, exc, len(data))
        if error is not None:
            raise error from None
        raise
    crash_point(f"write {path.name}")


def stage_dir(out: Path) -> Path:
    """A fresh, empty staging folder for this process next to `out`."""
    staging = staging_path(out)
    shutil.rmtree(staging, ignore_errors=True)
    try:
        staging.mkdir(parents=True)
    except OSError as exc:
        error = full_disk_error(staging, exc)
        if error is not None:
            raise error from None
        raise
    crash_point("mkdir staging")
    return staging


def replace_file(path: Path, text: str) -> None:
    """Replace one file of a published model atomically (write a temporary, fsync, rename)."""
    tmp = path.parent / f".{path.name}.{os.getpid()}"
    write_file(tmp, text)
    _fsync_file(tmp)
    os.replace(tmp, path)
    crash_point(f"replace {path.name}")
    _fsync_dir(path.parent)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    try:
        _fsync_file(path)
    except OSError:  # some filesystems refuse fsync on a directory; the rename is still atomic
        pass


def _fsync_tree(root: Path) -> None:
    """Flush the staged files to disk before they become the published model (power-cut safety)."""
    for folder, _dirs, files in os.walk(root):
        for name in files:
            _fsync_file(Path(folder) / name)
        _fsync_dir(Path(folder))


# ---------------------------------------------------------------------------------------- swap
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux renameat2); False when the system cannot."""
    if not exchange_enabled:
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(a))


def swap_into_place(staging: Path, out: Path) -> None:
    """Make the complete `staging` folder the model at `out`; call with :func:`output_lock` held."""
    write_manifest(staging)
    _fsync_tree(staging)
    crash_point("fsync staging")
    carry_user_files(out, staging)
    if not out.exists():
        os.rename(staging, out)  # nothing to keep: one atomic rename
        crash_point("rename staging -> out")
        _fsync_dir(out.parent)
        return
    if _exchange(staging, out):
        crash_point("exchange staging <-> out")
        _fsync_dir(out.parent)
        shutil.rmtree(staging, ignore_errors=True)  # the staging name now holds the old model
        crash_point("remove old model")
        return
    old = _old_path(out)
    os.rename(out, old)
    crash_point("rename out -> old")
    try:
        os.rename(staging, out)
    except BaseException:  # Ctrl-C or an error between the renames: put the old model back now
        if old.exists() and not out.exists():
            os.rename(old, out)
        raise
    crash_point("rename staging -> out")
    _fsync_dir(out.parent)
    shutil.rmtree(old, ignore_errors=True)
    crash_point("remove old model")
