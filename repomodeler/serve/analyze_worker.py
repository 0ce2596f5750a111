"""One analysis asked for from the browser, run as its own process: ``python -m repomodeler.serve.analyze_worker``.

Why a process and not a thread of the server: the run's time limit is a ``SIGALRM`` in the main
thread (:mod:`repomodeler.deadline`), a crash or a runaway parse must not take the gallery down,
and the server must be able to stop a run by killing it. The job arrives as one JSON object on
stdin (inputs, name, out folder, limits); progress leaves as JSON lines on stdout, the last one
``{"event": "published", ...}`` or ``{"event": "failed", "message": ...}``. Messages go through
the one redaction step, so no secret reaches the browser.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO


class LineProgress:
    """The pipeline's Progress protocol as JSON lines; `advance` is sent at most every 0.25 s."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.stage_name = ""
        self.total: int | None = None
        self.done_count = 0
        self._sent = 0.0

    def emit(self, event: dict[str, Any]) -> None:
        self.out.write(json.dumps(event, sort_keys=True) + "\n")
        self.out.flush()

    def stage(self, name: str, total: int | None = None) -> None:
        self.stage_name, self.total, self.done_count = name, total, 0
        self.emit({"event": "stage", "stage": name, "total": total})

    def advance(self, n: int = 1) -> None:
        self.done_count += n
        now = time.monotonic()
        if now - self._sent >= 0.25 or (self.total and self.done_count >= self.total):
            self._sent = now
            self.emit({"event": "progress", "stage": self.stage_name, "done": self.done_count, "total": self.total})

    def done(self) -> None:
        pass


def run(job: dict[str, Any], out: TextIO) -> int:
    """Analyse `job` and report on `out`; exit status 0 when the model was published."""
    from repomodeler.credentials import redact
    from repomodeler.deadline import MaxTimeExceeded
    from repomodeler.model.counts import count
    from repomodeler.pipeline import AnalyzeOptions, analyze
    from repomodeler.records import RepomodelerError

    progress = LineProgress(out)
    try:
        options = AnalyzeOptions(name=str(job["name"]), out=Path(job["out"]), timeout=float(job["timeout"]),
                                 max_time=float(job["max_time"]), max_bytes=int(job["max_file_size"]),
                                 validate=bool(job.get("validate", True)))
        result = analyze([str(i) for i in job["inputs"]], options, progress)
    except RepomodelerError as exc:
        progress.emit({"event": "failed", "message": redact(str(exc))})
        return 1
    except MaxTimeExceeded as exc:
        progress.emit({"event": "failed", "message": redact(exc.message())})
        return 1
    except Exception as exc:  # noqa: BLE001 - a bug is one failed run, reported in one line
        detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
        progress.emit({"event": "failed", "message": redact(f"error: internal error ({type(exc).__name__}: {detail})")})
        return 2
    model = result.model
    figures = count(model).to_json() if model is not None else {}
    progress.emit({"event": "published", "name": result.out.name, "counts": figures})
    return 0


def main() -> None:
    try:
        job = json.loads(sys.stdin.read())
    except ValueError:
        print(json.dumps({"event": "failed", "message": "error: the job description is not JSON"}))
        sys.exit(2)
    events = sys.stdout
    sys.stdout = sys.stderr  # anything the pipeline prints stays out of the event stream
    sys.exit(run(job, events))


if __name__ == "__main__":
    main()
