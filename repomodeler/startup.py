"""Start-up: secrets leave the process list and the environment children inherit.

A token in a URL on the command line (``analyze https://me:TOKEN@host/r``) is visible to every
user in ``ps`` for as long as the process runs, and ``REPOMODELER_GIT_TOKEN`` in our environment
is inherited by every child (the SysML engine, the parser processes). So the first thing
:func:`repomodeler.cli.main` does, when either is present, is re-execute itself once: the new
process gets the command line with credentials redacted and an environment without the token
variables, and the real arguments and tokens arrive through a pipe (read once, then closed).
Only git, for the one call that needs it, is handed a secret (through its askpass helper).
"""

from __future__ import annotations

import json
import os
import sys

from repomodeler.credentials import TOKEN_VARS, redact, take_tokens

HANDOVER_ENV = "REPOMODELER_HANDOVER_FD"
_MAX_PAYLOAD = 60_000  # below a pipe's buffer: the write never blocks


def hide_secrets() -> None:
    """Re-execute without secrets on the command line or in the environment (see the module)."""
    fd_text = os.environ.pop(HANDOVER_ENV, None)
    if fd_text is not None:
        _receive(fd_text)
        return
    if os.name != "posix":
        return
    tokens = {var: os.environ[var] for var in TOKEN_VARS if os.environ.get(var)}
    take_tokens(tokens)  # redact() knows them from here on
    args = sys.argv[1:]
    shown = [redact(a) for a in args]
    orig = list(getattr(sys, "orig_argv", []) or [])
    if (not tokens and shown == args) or not orig or len(orig) <= len(args):
        return
    if args and orig[len(orig) - len(args):] != args:
        return
    payload = json.dumps({"argv": args, "tokens": tokens}).encode()
    if len(payload) > _MAX_PAYLOAD:
        return
    read, write = os.pipe()
    os.write(write, payload)
    os.close(write)
    os.set_inheritable(read, True)
    env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS}
    env[HANDOVER_ENV] = str(read)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *orig[1:len(orig) - len(args)], *shown], env)


def _receive(fd_text: str) -> None:
    try:
        fd = int(fd_text)
        chunks = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        os.close(fd)
        payload = json.loads(b"".join(chunks))
    except (ValueError, OSError):
        return
    sys.argv[1:] = [str(a) for a in payload.get("argv", [])]
    take_tokens({str(k): str(v) for k, v in payload.get("tokens", {}).items()})
