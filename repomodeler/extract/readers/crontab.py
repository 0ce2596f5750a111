"""Crontab files: the commands a cron daemon runs on a schedule.

Why: self-hosted applications often install a crontab into their image (``COPY cronjobs
/etc/cron.d/cronjobs``) and start ``crond`` beside the web server, so their scheduled jobs (sending
notifications, fetching exchange rates, Laravel's ``artisan schedule:run``) run as a process of their
own: the scheduler the documents draw.  Each schedule line is a ``program.command`` with source
``cron``; the graph keeps the file only where an image installs it.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact

# `m h dom mon dow [user] command` (or `@daily command`): the five schedule fields, then the command.
_LINE = re.compile(r"^\s*(?:@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)|"
                   r"(?:[*0-9/,-]+\s+){4}[*0-9/,A-Za-z-]+)\s+(?P<command>\S.*)$")
_ENV = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*=")


def read_crontab(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#") or _ENV.match(raw):
            continue
        m = _LINE.match(raw)
        if m:
            command = re.sub(r"\s*(>>?|2>&1|2>>?)\s*\S*", " ", m.group("command")).strip()
            facts.append(fact("program.command", repo, path, i, owner="cron", command=command[:500], source="cron"))
    return facts


def _looks_like_crontab(path: str, head: str) -> bool:
    lines = [ln for ln in head.splitlines() if ln.strip() and not ln.lstrip().startswith("#") and not _ENV.match(ln)]
    return bool(lines) and all(_LINE.match(ln) for ln in lines[:5])


READERS = (
    Reader("crontab", "descriptor", 220, read_crontab, patterns=(r"crontab", r"cronjobs?", r"[^/]*\.(crontab|cron)",
                                                                   r"cron\.d/[^/]+"),
           sniff=_looks_like_crontab, line_based=True),
)
