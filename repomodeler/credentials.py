"""Credentials for private repositories, handed to git for one process only.

A token comes from ``REPOMODELER_GIT_TOKEN`` (sent to the host of the URL being cloned, whatever
it is) or ``GITHUB_TOKEN`` (sent to github.com only, so analysing some other host never leaks a
GitHub token to it), or from a password written into the URL itself (``https://user:pw@host/...``,
which is then removed from the URL before git sees it).

Why GIT_ASKPASS and not a URL or a config entry: git writes a clone's URL into the clone's config,
and a ``-c`` option shows up in ``ps``.  Instead a tiny helper script is written into a private
temporary folder (mode 0700); the script holds no secret, it reads the token from the environment
of the git process, and it answers only prompts for the expected host, so a redirect to another
host is refused.  The folder is removed as soon as the git call ends.  With ``credential.helper=``
(set in every git call) git never stores what the helper answered.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator
from urllib.parse import quote, unquote, urlsplit

from repomodeler.leftovers import tmp_prefix

TOKEN_VARS = ("REPOMODELER_GIT_TOKEN", "GITHUB_TOKEN")
USER_VAR = "REPOMODELER_GIT_USER"
DEFAULT_USER = "x-access-token"
GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})

# Names of the variables the helper script reads; none of them starts with GIT_.
_HOST_VAR = "REPOMODELER_ASKPASS_HOST"
_USER_VAR = "REPOMODELER_ASKPASS_USER"
_SECRET_VAR = "REPOMODELER_ASKPASS_SECRET"

# The script compares git's prompt ("Username for 'https://host': ", "Password for
# 'https://user@host': ") with the expected host and prints a value from its environment.
ASKPASS_SCRIPT = f"""#!/bin/sh
# repomodeler askpass helper: holds no secret; answers git's prompts for one host from the environment.
case "$1" in
  Username*"//${_HOST_VAR}'"*) printf '%s\\n' "${_USER_VAR}" ;;
  Password*"//${_HOST_VAR}'"*|Password*"@${_HOST_VAR}'"*) printf '%s\\n' "${_SECRET_VAR}" ;;
  *) exit 1 ;;
esac
"""


@dataclass(frozen=True)
class GitCredential:
    """A username and secret that may be sent to exactly one host (host[:port])."""

    host: str
    username: str
    secret: str = field(repr=False)
    source: str = "the URL"  # where the secret came from, for error messages (never the secret)


def split_url(url: str) -> tuple[str, str | None, str]:
    """``(scheme://, userinfo or None, rest)`` of a URL, robust to secrets holding ``/``, ``#``, ``?``.

    ``urlsplit`` ends the authority at the first ``/``, ``?`` or ``#``, so in
    ``https://me:to/ken@host/r`` it sees no user-info at all and the whole secret would be printed
    or passed on. Here the user-info is what comes before the first ``@`` of the URL when that part
    either has no ``/`` (``user``, ``user:secret``) or has a ``:`` that does not start a port
    (``host:8443/o/r@main`` is a path with a ref, not a user), or holds ``?`` or ``#``, or is
    followed by a second ``@`` (``https://TO/KEN@host/o/r@main``).
    """
    m = _URL_START.match(url)
    if not m:
        return "", None, url
    head, rest = m.group(0), url[m.end():]
    at = rest.find("@")
    if at < 0:
        return head, None, rest
    candidate = rest[:at]
    if "/" in candidate or "?" in candidate or "#" in candidate:
        colon = candidate.find(":")
        looks_like_user = (colon >= 0 and not _PORT_THEN_PATH.match(candidate[colon + 1:])
                           and "/" not in candidate[:colon])
        # a path before a ref ('host/o/r@main') holds no '?' or '#' and is followed by no second '@'
        if not (looks_like_user or "?" in candidate or "#" in candidate or "@" in rest[at + 1:]):
            return head, None, rest
    return head, candidate, rest[at + 1:]


def split_userinfo(url: str) -> tuple[str, GitCredential | None]:
    """Take the user-info out of an http(s) URL: (URL without it, credential or None).

    The user name and password both go to git through the askpass helper (a token is often given
    as the user name, ``https://TOKEN@host/...``), so neither reaches the clone's config or ``ps``.
    """
    head, userinfo, rest = split_url(url)
    if head.lower() not in ("http://", "https://") or userinfo is None:
        return url, None
    host = re.split(r"[/?#]", rest, maxsplit=1)[0]
    user, sep, password = userinfo.partition(":")
    remember_secret(userinfo)
    if sep:
        remember_secret(password)
    elif user:
        remember_secret(user)
    return head + rest, GitCredential(host=host.lower(), username=unquote(user) or DEFAULT_USER,
                                      secret=unquote(password) if sep else "")


def credential_for(url: str, environ: dict[str, str] | None = None) -> tuple[str, GitCredential | None]:
    """The URL git should use and the credential (if any) for it, from the URL or the environment."""
    env = os.environ if environ is None else environ
    clean, from_url = split_userinfo(url)
    if from_url is not None and from_url.secret:
        return clean, from_url
    url = clean
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return url, None
    host = parts.netloc.rsplit("@", 1)[-1].lower()
    user = (from_url.username if from_url is not None else "") or env.get(USER_VAR) or DEFAULT_USER
    token = _token("REPOMODELER_GIT_TOKEN", env, environ is None)
    if token:
        return url, GitCredential(host=host, username=user, secret=token, source="REPOMODELER_GIT_TOKEN")
    token = _token("GITHUB_TOKEN", env, environ is None)
    if token and parts.hostname.lower() in GITHUB_HOSTS:
        return url, GitCredential(host=host, username=user, secret=token, source="GITHUB_TOKEN")
    if from_url is not None:  # a token given as the user name: git asks for it as the user name
        return url, from_url
    return url, None


@contextmanager
def askpass_env(credential: GitCredential | None) -> Iterator[dict[str, str]]:
    """Environment additions that let one git process answer auth prompts for one host.

    Yields ``{}`` without a credential.  The helper folder is private (0700) and removed on exit,
    whatever happens (also on Ctrl-C).
    """
    if credential is None:
        yield {}
        return
    folder = tempfile.mkdtemp(prefix=tmp_prefix("repomodeler-askpass-"))
    try:
        os.chmod(folder, stat.S_IRWXU)
        script = os.path.join(folder, "askpass.sh")
        fd = os.open(script, os.O_WRONLY | os.O_CREAT | os.O_EXCL, stat.S_IRWXU)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(ASKPASS_SCRIPT)
        yield {"GIT_ASKPASS": script, _HOST_VAR: credential.host, _USER_VAR: credential.username,
               _SECRET_VAR: credential.secret}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------------------- redaction
_URL_START = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_PORT_THEN_PATH = re.compile(r"\d{1,5}(?:[/?#]|$)")
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>`]+")
_QUERY_SECRET = re.compile(r"(?i)([?&;][^=&#\s'\"]*(?:token|secret|passw|pwd|key|sig|auth|credential|session|code)"
                           r"[^=&#\s'\"]*=)[^&#\s'\"]+")

#: Secrets seen this run besides the environment's tokens (passwords and tokens taken out of URLs,
#: tokens handed over at start-up by :mod:`repomodeler.startup`): redact() removes them anywhere.
_SECRETS: set[str] = set()
#: Tokens taken out of the environment at start-up (so no child process inherits them).
_TAKEN: dict[str, str] = {}


def remember_secret(secret: str) -> None:
    if secret and len(secret) >= 4:
        _SECRETS.add(secret)


def take_tokens(tokens: dict[str, str]) -> None:
    """Hold tokens handed over at start-up (they are no longer in ``os.environ``)."""
    for var, value in tokens.items():
        if var in TOKEN_VARS and value:
            _TAKEN[var] = value
            remember_secret(value)


def _token(var: str, env: "os._Environ[str] | dict[str, str]", own: bool) -> str | None:
    return env.get(var) or (_TAKEN.get(var) if own else None)


def _known_secrets() -> list[str]:
    found = set(_SECRETS)
    for var in TOKEN_VARS:
        value = os.environ.get(var) or _TAKEN.get(var)
        if value and len(value) >= 4:
            found.add(value)
    found |= {unquote(f) for f in found if len(unquote(f)) >= 4}
    return sorted(found, key=len, reverse=True)


def _secret_pattern(secret: str) -> str:
    """`secret` with each character but letters and digits also matched percent-encoded (``%2F``)."""
    return "".join(re.escape(c) if c.isalnum() else
                   "(?:" + re.escape(c) + "|" + "".join(f"%{b:02X}" for b in c.encode()) + ")" for c in secret)


def _redact_url(match: re.Match[str]) -> str:
    head, userinfo, rest = split_url(match.group(0))
    return head + rest if userinfo is not None else match.group(0)


def redact(text: str) -> str:
    """The one redaction step for everything shown, stored or passed on.

    Removes the user-info of every URL in `text` (``user:secret@``, ``TOKEN@``; secrets with ``/``,
    ``#`` or ``?`` too), the value of query parameters that look like secrets (``?token=``,
    ``&sig=``...), and every known secret (the environment's tokens, and those taken out of URLs
    this run, also percent-encoded) wherever it appears.
    """
    if not text:
        return text
    secrets = _known_secrets()
    if secrets:
        text = re.sub("|".join(_secret_pattern(x) for x in secrets), "***", text, flags=re.IGNORECASE)
    text = _URL_IN_TEXT.sub(_redact_url, text)
    return _QUERY_SECRET.sub(r"\1***", text)


def scrub(text: str, environ: dict[str, str] | None = None) -> str:
    """Replace any token from the environment found in `text` (kept for callers; see :func:`redact`)."""
    env = os.environ if environ is None else environ
    for var in TOKEN_VARS:
        token = env.get(var)
        if token and len(token) >= 4:
            text = text.replace(token, "***")
    return redact(text)


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process that needs no credential (the SysML engine, git for
    snippets): ours without the token variables."""
    env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS}
    env.update(extra or {})
    return env
