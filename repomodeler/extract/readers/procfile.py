"""``Procfile``: the command each process type runs."""

from __future__ import annotations

import re

from repomodeler.extract.readers._base import Reader, fact
from repomodeler.records import Fact


def read_procfile(repo: str, path: str, text: str) -> list[Fact]:
    """``web: gunicorn app:app`` / ``worker: celery -A app worker``: one process type a line."""
    facts = []
    for i, raw in enumerate(text.splitlines(), start=1):
        m = re.match(r"^([A-Za-z0-9_\-]+)\s*:\s*(\S.*)$", raw)
        if m:
            facts.append(fact("program.command", repo, path, i, owner=m.group(1), command=m.group(2).strip()[:500],
                               source="procfile"))
    return facts


READERS = (
    Reader("procfile", "descriptor", 210, read_procfile, patterns=(r"Procfile(?:\.[^/]*)?",), line_based=True,
           shadows=("spring.name", "helm.template", "helm.values", "beats", "prometheus", "otel_collector", "grafana",
                    "compose", "kubernetes", "spring.content")),
)
