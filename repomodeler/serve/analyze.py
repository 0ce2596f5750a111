"""Analyse from the browser (``serve --allow-analyze HOSTS``): the refusals, the queue, the runs.

Off by default: the gallery is read-only unless the operator names the hosts whose repositories
a visitor may have analysed. What a visitor can make the server do is kept small:

* only ``https://`` URLs whose host is on the operator's list, without user-info (no token in a
  form, none stored), query or fragment, and the run gets none of the operator's tokens
  (``REPOMODELER_GIT_TOKEN``, ``GITHUB_TOKEN``): public repositories only; never ``file://``, ``ext::`` or another remote helper,
  a local path, ssh (the operator's keys) or plain http. The URL then goes through the CLI's own
  parser (:func:`repomodeler.acquire.parse_input`) and git's transport allow-list;
* a run is queued and started by one of ``workers`` threads (one by default), each running the
  analysis as a child process (:mod:`repomodeler.serve.analyze_worker`) with the CLI's limits:
  a timeout per clone, a time limit for the whole run, the file-size limit. The pipeline publishes
  only a complete, audited model, so a failed run leaves the gallery as it was;
* a run never replaces a model folder made from other repositories (a visitor cannot overwrite
  someone's model by choosing its name);
* each client may submit ``rate`` runs per ``window`` seconds, and the queue holds at most
  ``max_queued`` runs.

Progress is kept per job as a list of events (the worker's JSON lines) that the server streams
as server-sent events.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

from repomodeler.records import RepomodelerError

MAX_URLS = 10
MAX_JOBS_KEPT = 200
MAX_URL_LENGTH = 500
_HOST_RE = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class Refused(Exception):
    """A submission the server will not run; `message` is the one line the error page shows."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class AnalyzePolicy:
    """What `serve --allow-analyze` permits; `hosts` empty means analysing is off."""

    hosts: frozenset[str] = frozenset()
    workers: int = 1
    max_queued: int = 50
    rate: int = 20  # runs a client may submit per `window` seconds
    window: float = 600.0
    timeout: float = 300.0  # each clone or fetch
    max_time: float = 1800.0  # the whole run
    max_file_size: int = 1_000_000
    validate: bool = True

    @property
    def enabled(self) -> bool:
        return bool(self.hosts)


def parse_hosts(values: Iterable[str]) -> frozenset[str]:
    """Host names from `--allow-analyze` values (repeatable, comma-separated); a bad one is an error."""
    hosts = set()
    for value in values:
        for raw in str(value).split(","):
            host = raw.strip().lower().rstrip(".")
            if not host:
                continue
            if not _HOST_RE.match(host):
                raise RepomodelerError(f"error: --allow-analyze '{raw.strip()}' is not a host name; give names like "
                                       "github.com (no scheme, path or port)")
            hosts.add(host)
    return frozenset(hosts)


def check_url(raw: str, hosts: frozenset[str]) -> str:
    """The URL, stripped, if a visitor may have it analysed; Refused with the reason otherwise."""
    from repomodeler.acquire import parse_input
    from repomodeler.credentials import redact

    text = str(raw).strip()
    shown = redact(text)[:200]
    allowed = ", ".join(sorted(hosts))
    if not text:
        raise Refused("no URL was given; paste the https:// address of a git repository")
    if len(text) > MAX_URL_LENGTH:
        raise Refused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    if any(ord(c) < 33 or ord(c) == 127 for c in text):
        raise Refused(f"'{shown}' holds spaces or control characters")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise Refused(f"'{shown}' is not a URL") from None
    scheme = parts.scheme.lower()
    if scheme != "https":
        what = {"file": "a file:// URL reads this server's disk", "http": "plain http:// can be read and altered on the way",
                "ssh": "ssh would use this server's own keys", "git": "git:// is not encrypted"}.get(
            scheme, "remote helpers such as ext:: run commands" if "::" in text else "it is not an https:// URL")
        raise Refused(f"'{shown}' is refused: {what}; only https:// URLs of {allowed} can be analysed from the browser")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise Refused(f"'{shown}' holds a user name or token; the browser form takes public URLs only (no secret is "
                      "ever stored)")
    host = (parts.hostname or "").lower().rstrip(".")
    if host not in hosts:
        raise Refused(f"'{shown}' is refused: its host '{host or '?'}' is not one this server analyses ({allowed})")
    if port not in (None, 443):
        raise Refused(f"'{shown}' is refused: only the standard https port is allowed")
    if parts.query or parts.fragment or not parts.path.strip("/"):
        raise Refused(f"'{shown}' is not a repository address; give https://{host}/OWNER/REPOSITORY")
    try:
        parse_input(text)  # the CLI's own rules on top (remote helpers, refs, names)
    except RepomodelerError as exc:
        raise Refused(str(exc).removeprefix("error: ")) from None
    return text


@dataclass
class Job:
    """One queued run; `events` is everything the worker reported, in order (streamed as SSE)."""

    id: int
    inputs: tuple[str, ...]
    name: str  # the system name
    folder: str  # its model folder under MODELS_DIR
    client: str
    state: str = "queued"  # queued | running | published | failed
    events: list[dict[str, Any]] = field(default_factory=list)
    submitted: float = field(default_factory=time.time)
    message: str = ""

    @property
    def finished(self) -> bool:
        return self.state in ("published", "failed")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "inputs": list(self.inputs), "name": self.name, "folder": self.folder, "state": self.state,
                "message": self.message, "events": len(self.events)}


class AnalyzeQueue:
    """The runs asked for from the browser: a FIFO served by `policy.workers` threads."""

    def __init__(self, models_dir: Path, policy: AnalyzePolicy) -> None:
        self.models_dir = Path(models_dir).resolve()
        self.policy = policy
        self.jobs: dict[int, Job] = {}
        self._pending: deque[Job] = deque()
        self._ids = itertools.count(1)
        self._lock = threading.Condition()
        self._recent: dict[str, deque[float]] = {}
        self._procs: set[subprocess.Popen[str]] = set()
        self._stopping = False
        self._threads = [threading.Thread(target=self._serve, name=f"analyze-{i}", daemon=True)
                         for i in range(max(1, policy.workers))]
        for thread in self._threads:
            thread.start()

    # ---- submitting ----------------------------------------------------------------------
    def submit(self, urls: list[str], name: str, client: str) -> Job:
        """Check and queue a run; Refused (nothing queued) when anything is wrong."""
        urls = [u for u in (str(u).strip() for u in urls) if u]
        if not urls:
            raise Refused("no URL was given; paste the https:// address of a git repository")
        if len(urls) > MAX_URLS:
            raise Refused(f"at most {MAX_URLS} repositories can be analysed as one system")
        inputs = tuple(check_url(u, self.policy.hosts) for u in urls)
        name, folder = self._name(inputs, name)
        self._check_folder(folder, inputs)
        with self._lock:
            now = time.monotonic()
            recent = self._recent.setdefault(client, deque())
            while recent and now - recent[0] > self.policy.window:
                recent.popleft()
            if len(recent) >= self.policy.rate:
                wait = int(self.policy.window - (now - recent[0])) + 1
                raise Refused(f"too many runs asked for from this address; try again in {wait} s", status=429)
            if len(self._pending) >= self.policy.max_queued:
                raise Refused(f"the queue is full ({self.policy.max_queued} runs waiting); try again later", status=503)
            recent.append(now)
            finished = [j for j in self.jobs.values() if j.finished]
            for old in sorted(finished, key=lambda j: j.id)[:max(0, len(self.jobs) - MAX_JOBS_KEPT)]:
                del self.jobs[old.id]  # the oldest finished runs are forgotten (the history keeps them)
            job = Job(id=next(self._ids), inputs=inputs, name=name, folder=folder, client=client)
            job.events.append({"event": "queued", "position": len(self._pending) + 1})
            self.jobs[job.id] = job
            self._pending.append(job)
            self._lock.notify_all()
        return job

    def _name(self, inputs: tuple[str, ...], name: str) -> tuple[str, str]:
        """The system name (given, or the repository's) and its model folder (as `analyze` names it)."""
        from repomodeler.acquire import parse_input
        from repomodeler.graph.naming import slug

        name = (name or "").strip()
        if not name:
            name = parse_input(inputs[0]).name if len(inputs) == 1 else ""
        if not name:
            raise Refused("several repositories are one system: give it a name")
        if not _NAME_RE.match(name):
            raise Refused(f"the name '{name[:100]}' may hold only letters, digits, '.', '_' and '-' (it names the "
                          "model folder)")
        return name, slug(name)

    def _check_folder(self, name: str, inputs: tuple[str, ...]) -> None:  # `name`: the folder
        """A model folder made from other repositories is someone else's: never replaced from here."""
        from repomodeler.acquire import parse_input
        from repomodeler.model import read_file

        folder = self.models_dir / name
        if not os.path.lexists(folder):
            return
        if folder.is_symlink() or not folder.is_dir():
            raise Refused(f"'{name}' is taken in the models folder; give the system another name")
        try:
            repos = read_file(folder / "model.json").repositories
        except RepomodelerError:
            raise Refused(f"a folder '{name}' that holds no readable model is in the models folder; give the system "
                          "another name") from None
        have = sorted(_normal(r.url or "") for r in repos)
        want = sorted(_normal(parse_input(u).location) for u in inputs)
        if have != want:
            raise Refused(f"a model named '{name}' from other repositories is in the gallery; give the system another "
                          "name")

    # ---- running -------------------------------------------------------------------------
    def _serve(self) -> None:
        while True:
            with self._lock:
                while not self._pending and not self._stopping:
                    self._lock.wait()
                if self._stopping:
                    return
                job = self._pending.popleft()
                job.state = "running"
                job.events.append({"event": "started"})
                self._lock.notify_all()
            try:
                self._run(job)
            except Exception as exc:  # noqa: BLE001 - one broken run must not stop the queue
                self._finish(job, {"event": "failed", "message": f"error: the run could not be started ({exc})"})

    def _run(self, job: Job) -> None:
        from repomodeler.proc import die_with_parent

        spec = {"inputs": list(job.inputs), "name": job.name, "out": str(self.models_dir / job.folder),
                "timeout": self.policy.timeout, "max_time": self.policy.max_time,
                "max_file_size": self.policy.max_file_size, "validate": self.policy.validate}
        from repomodeler.credentials import TOKEN_VARS

        # no token reaches a run a visitor asked for: the operator's credentials must not open a
        # private repository into a gallery anyone can read (public repositories only)
        env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS}
        proc = subprocess.Popen([sys.executable, "-m", "repomodeler.serve.analyze_worker"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                                preexec_fn=die_with_parent(), cwd=str(self.models_dir))
        with self._lock:
            self._procs.add(proc)
        final: dict[str, Any] | None = None
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(spec))
            proc.stdin.close()
            for line in proc.stdout:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(event, dict):
                    continue
                if event.get("event") in ("published", "failed"):
                    final = event
                    continue
                with self._lock:
                    job.events.append(event)
                    self._lock.notify_all()
            proc.wait(timeout=self.policy.max_time + 120)
        except subprocess.TimeoutExpired:
            proc.kill()
        finally:
            with self._lock:
                self._procs.discard(proc)
        if final is None:
            final = {"event": "failed", "message": "error: the run stopped without publishing; the gallery is unchanged"}
        self._finish(job, final)

    def _finish(self, job: Job, event: dict[str, Any]) -> None:
        with self._lock:
            job.state = "published" if event.get("event") == "published" else "failed"
            job.message = str(event.get("message") or "")
            job.events.append(event)
            self._lock.notify_all()

    # ---- reading -------------------------------------------------------------------------
    def get(self, job_id: int) -> Job | None:
        return self.jobs.get(job_id)

    def listing(self) -> list[Job]:
        """The runs, newest first."""
        with self._lock:
            return sorted(self.jobs.values(), key=lambda j: -j.id)

    def events_since(self, job: Job, start: int) -> list[dict[str, Any]]:
        with self._lock:
            return list(job.events[start:])

    def wait_for(self, job: Job, start: int, timeout: float) -> None:
        """Block until `job` has more than `start` events (or `timeout` passes)."""
        with self._lock:
            self._lock.wait_for(lambda: len(job.events) > start or self._stopping, timeout)

    def stop(self) -> None:
        """Stop the workers and kill the runs in progress (the server is shutting down)."""
        with self._lock:
            self._stopping = True
            procs = list(self._procs)
            self._lock.notify_all()
        for proc in procs:
            proc.kill()


def _normal(url: str) -> str:
    return re.sub(r"(\.git)?/*$", "", str(url).strip()).lower()
