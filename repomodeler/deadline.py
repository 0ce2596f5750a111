"""The per-run time limit (``analyze --max-time SECONDS``).

A real-time timer (``SIGALRM``) raises :class:`MaxTimeExceeded` in the main thread wherever the run
is: cloning, parsing, resolving or checking. It derives from ``BaseException`` like Ctrl-C, so no
``except Exception`` or ``--keep-going`` handler turns it into one more failure, and every clean-up
that Ctrl-C runs (git process groups killed, parser processes and the SysML engine stopped, the
staging folder removed) runs for it too. The timer is disarmed just before the swap that publishes
the model, so a run either publishes completely or reports the limit with nothing published.

A signal lands between any two Python steps, also inside a C extension's callback into Python (the
tree-sitter binding compiling a query's regular expression with ``re``), which may turn the exception
into one of its own errors that a per-file handler then records as one bad file. So the expiry is also
remembered: :func:`check` raises it again at the safe points that would otherwise carry on (the per-file
handler, the step before publishing).
"""

from __future__ import annotations

import signal
import threading


class MaxTimeExceeded(BaseException):
    """The run went past --max-time (see the module)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds

    def message(self) -> str:
        return (f"error: the run took longer than --max-time {self.seconds:g}s and was stopped; nothing was published "
                "(the previous model, if any, is unchanged); raise --max-time or analyse fewer repositories")


_armed: float | None = None
_expired: float | None = None  # the limit that fired in this run (see check)


def arm(seconds: float | None) -> bool:
    """Start the limit (main thread, POSIX only); returns whether it is armed."""
    global _armed, _expired
    _expired = None
    if not seconds or seconds <= 0 or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        return False

    def expire(_signum: int, _frame: object) -> None:
        global _expired
        disarm()
        _expired = seconds
        raise MaxTimeExceeded(seconds)

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    _armed = seconds
    return True


def disarm() -> None:
    """Stop the limit (before publishing, and when the run ends)."""
    global _armed
    if _armed is None:
        return
    _armed = None
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def check() -> None:
    """Raise the limit again if it fired and something swallowed it (see the module)."""
    if _expired is not None:
        raise MaxTimeExceeded(_expired)
