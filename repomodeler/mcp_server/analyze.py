"""The MCP server's one writing tool, off unless the operator names hosts: ``--allow-analyze HOSTS``.

An agent may ask for any URL; the gate lets through only git URLs whose host the operator listed
(``github.com``; ``file`` for ``file://`` URLs, which read this machine), parsed by
:func:`repomodeler.acquire.parse_input` (the transport allow-list of ``repomodeler analyze``: no
remote helpers, no plain http unless ``--allow-http``, no passwords in ssh URLs).  Local folder
paths are never accepted: they would let an agent read any folder of this machine.  The model is
published into ``MODELS/NAME`` by the pipeline, with its usual audit and crash safety; one analysis
runs at a time.
"""

from __future__ import annotations

import threading
from pathlib import Path
from urllib.parse import urlsplit

from repomodeler.records import RepomodelerError
from repomodeler.serve.store import MODEL_NAME_RE


def parse_hosts(text: str) -> tuple[str, ...]:
    """``github.com,gitlab.example.com`` -> the host names, lowercased, sorted; an error for none."""
    hosts = tuple(sorted({h.strip().lower() for h in text.split(",") if h.strip()}))
    if not hosts:
        raise RepomodelerError("error: --allow-analyze needs host names, e.g. --allow-analyze github.com "
                               "(or 'file' for file:// URLs)")
    return hosts


class AnalyzeGate:
    """Checks each input against the allowed hosts, then runs the pipeline (one run at a time)."""

    def __init__(self, hosts: tuple[str, ...], allow_http: bool = False) -> None:
        self.hosts = tuple(sorted({h.lower() for h in hosts}))
        self.allow_http = allow_http
        self._lock = threading.Lock()

    def check(self, raw: str) -> str:
        """`raw` if it is a git URL on an allowed host, else a one-line error naming it."""
        from repomodeler.acquire import parse_input
        from repomodeler.credentials import redact

        if not isinstance(raw, str) or not raw.strip():
            raise RepomodelerError("error: an empty input was given; pass a git URL on an allowed host")
        if "://" not in raw and not raw.startswith("git@") and ":" not in raw.split("/")[0]:
            raise RepomodelerError(f"error: '{redact(raw)[:200]}' is not a git URL; this server analyses git URLs "
                                   f"on {', '.join(self.hosts)} only, never local folders")
        spec = parse_input(raw, allow_http=self.allow_http)
        if spec.kind != "url":
            raise RepomodelerError(f"error: '{redact(raw)[:200]}' is a local path; this server analyses git URLs on "
                                   f"{', '.join(self.hosts)} only")
        location = spec.location
        if "://" in location:
            parts = urlsplit(location)
            host = "file" if parts.scheme == "file" else (parts.hostname or "").lower()
        else:  # scp-like git@host:owner/repo
            host = location.split("@", 1)[-1].split(":", 1)[0].lower()
        if host not in self.hosts:
            raise RepomodelerError(f"error: '{redact(raw)[:200]}' is on host '{host or '(none)'}', which this server may "
                                   f"not analyse; allowed: {', '.join(self.hosts)} (the operator sets --allow-analyze)")
        return raw

    def analyze(self, inputs: list[str], name: str, models_root: Path, validate: bool = True
                ) -> tuple[int, int, tuple[str, ...]]:
        """Analyse `inputs` as system `name` into ``models_root/name``: (components, connections, failures)."""
        from repomodeler.pipeline import AnalyzeOptions, analyze

        if not MODEL_NAME_RE.match(name) or ".." in name:
            raise RepomodelerError(f"error: '{name[:130]}' is not a model name; use letters, digits, '.', '_' and '-'")
        checked = [self.check(raw) for raw in inputs]
        if not self._lock.acquire(blocking=False):
            raise RepomodelerError("error: another analysis is running on this server; ask again when it has finished")
        try:
            result = analyze(checked, AnalyzeOptions(name=name, out=Path(models_root) / name, validate=validate,
                                                     allow_http=self.allow_http))
        finally:
            self._lock.release()
        model = result.model
        if model is None:
            from repomodeler.model import read_file

            model = read_file(result.out / "model.json")
        return len(model.top_level()), len(model.top_level_connections()), tuple(result.failures)
