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
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator
from urllib.parse import unquote, urlsplit, urlunsplit

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


def split_userinfo(url: str) -> tuple[str, GitCredential | None]:
    """Take a password out of an http(s) URL: (URL without the password, credential or None).

    The username stays in the URL (git needs it to ask only for the password); the password is
    passed through the helper instead, so it never reaches the clone's config or ``ps``.
    """
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or "@" not in parts.netloc:
        return url, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, sep, password = userinfo.partition(":")
    if not sep:
        return url, None
    netloc = f"{user}@{host}" if user else host
    clean = urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return clean, GitCredential(host=host.lower(), username=unquote(user) or DEFAULT_USER, secret=unquote(password))


def credential_for(url: str, environ: dict[str, str] | None = None) -> tuple[str, GitCredential | None]:
    """The URL git should use and the credential (if any) for it, from the URL or the environment."""
    env = os.environ if environ is None else environ
    clean, from_url = split_userinfo(url)
    if from_url is not None:
        return clean, from_url
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return url, None
    host = parts.netloc.rsplit("@", 1)[-1].lower()
    user = env.get(USER_VAR) or DEFAULT_USER
    token = env.get("REPOMODELER_GIT_TOKEN")
    if token:
        return url, GitCredential(host=host, username=user, secret=token, source="REPOMODELER_GIT_TOKEN")
    token = env.get("GITHUB_TOKEN")
    if token and parts.hostname.lower() in GITHUB_HOSTS:
        return url, GitCredential(host=host, username=user, secret=token, source="GITHUB_TOKEN")
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
    folder = tempfile.mkdtemp(prefix="repomodeler-askpass-")
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


def scrub(text: str, environ: dict[str, str] | None = None) -> str:
    """Replace any token from the environment found in `text` (last line of defence for messages)."""
    env = os.environ if environ is None else environ
    for var in TOKEN_VARS:
        token = env.get(var)
        if token and len(token) >= 4:
            text = text.replace(token, "***")
    return text
