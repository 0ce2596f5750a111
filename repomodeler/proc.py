"""Child processes that die with repomodeler, even after ``kill -9``.

A killed process runs no ``finally`` blocks, so anything it started (the SysML engine, git) would
otherwise live on as an orphan. On Linux, PR_SET_PDEATHSIG asks the kernel to SIGKILL the child
when its parent goes away. Caveat that shapes the callers: "parent" is the *thread* that forked the
child, so a child started from a short-lived thread must have that thread kept alive (see
:class:`repomodeler.validate.SysmlEngine`).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from functools import lru_cache
from typing import Any, Callable

_PR_SET_PDEATHSIG = 1


@lru_cache(maxsize=1)
def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the child receive SIGKILL when its parent dies; None where the
    system has no such facility. A child whose parent died before the call exits at once."""
    prctl = _prctl()
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died between fork and prctl
            os._exit(1)

    return preexec


def die_with_parent_now(parent: int) -> None:
    """The same for a process already running, e.g. from a process pool's initializer: SIGKILL
    when `parent` (the pid that started this process) goes away; exit at once if it already has."""
    prctl = _prctl()
    if prctl is None:
        return
    prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
