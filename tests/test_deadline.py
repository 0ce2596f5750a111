"""The run's time limit survives being swallowed: a signal landing inside a C extension's callback
(tree-sitter compiling a query's regular expression) comes back as that extension's own error, which a
per-file handler would record as one bad file; the expiry is remembered and raised again."""

from __future__ import annotations

import time

import pytest

from repomodeler import deadline
from repomodeler.deadline import MaxTimeExceeded


def test_an_expiry_something_swallowed_is_raised_again_by_check() -> None:
    assert deadline.arm(0.05)
    try:
        swallowed = False
        try:
            end = time.monotonic() + 5
            while time.monotonic() < end:
                pass
        except MaxTimeExceeded:
            swallowed = True  # what a C extension turning it into its own error amounts to
        assert swallowed
        with pytest.raises(MaxTimeExceeded):
            deadline.check()
    finally:
        deadline.disarm()


def test_a_new_run_starts_with_no_expiry() -> None:
    assert deadline.arm(30)
    try:
        deadline.check()  # nothing fired: no error
    finally:
        deadline.disarm()
