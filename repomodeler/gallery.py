"""A gallery of systems built from a list: analyse each entry into MODELS/<name>, publish the site.

The list is a YAML file (``samples/real-systems.yml`` for public repositories at pinned commits,
``samples/gallery.yml`` for the bundled samples, which needs no network)::

    systems:
      - name: online-boutique                 # model folder and system name (letters, digits, . _ -)
        about: 11 gRPC services on Kubernetes # optional, printed while building
        repositories:
          - url: https://github.com/GoogleCloudPlatform/microservices-demo
            commit: 34ffea9175946982c3088ed84994fe6019ad6e92   # full 40-hex SHA: a pinned commit
      - name: shop
        repositories:
          - path: shop                        # a local folder, relative to the list file

A remote repository must name a full commit SHA: the gallery is reproducible, a branch is not.
Each system is analysed with the ordinary pipeline (``URL@COMMIT`` inputs, the clone cache, the
publish lock), one failure does not stop the others, and the site is published from every model
that exists at the end (``repomodeler publish MODELS --out SITE``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from repomodeler.records import RepomodelerError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")
_SHA = re.compile(r"^[0-9a-f]{40}$")
_URL = re.compile(r"^(https|ssh|git|file)://", re.IGNORECASE)


@dataclass(frozen=True)
class Source:
    """One repository of a system: a git URL pinned to a commit, or a local folder."""

    url: str | None = None
    commit: str | None = None
    path: Path | None = None

    @property
    def input(self) -> str:
        """The input `repomodeler analyze` takes for it."""
        return f"{self.url}@{self.commit}" if self.url else str(self.path)

    def describe(self) -> str:
        return f"{self.url} @ {self.commit[:12]}" if self.url and self.commit else str(self.path)


@dataclass(frozen=True)
class System:
    name: str
    sources: tuple[Source, ...]
    about: str = ""


@dataclass
class BuildReport:
    built: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    published: int = 0


def _where(list_file: Path, index: int, name: str | None = None) -> str:
    return f"{list_file}: system {index + 1}" + (f" ('{name}')" if name else "")


def load_list(list_file: Path) -> list[System]:
    """Read and check a gallery list; every problem is one line naming the file and the entry."""
    list_file = Path(list_file)
    try:
        text = list_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RepomodelerError(f"error: gallery list '{list_file}' does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RepomodelerError(f"error: cannot read gallery list '{list_file}': {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise RepomodelerError(f"error: {list_file}{at}: not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("systems"), list):
        raise RepomodelerError(f"error: {list_file}: expected a mapping with a 'systems' list")
    systems: list[System] = []
    seen: set[str] = set()
    for i, entry in enumerate(data["systems"]):
        if not isinstance(entry, dict):
            raise RepomodelerError(f"error: {_where(list_file, i)}: expected a mapping with 'name' and 'repositories'")
        unknown = sorted(set(entry) - {"name", "about", "repositories"})
        if unknown:
            raise RepomodelerError(f"error: {_where(list_file, i)}: unknown key(s) {', '.join(map(str, unknown))}")
        name = entry.get("name")
        if not isinstance(name, str) or not _NAME.match(name):
            raise RepomodelerError(f"error: {_where(list_file, i)}: 'name' must be letters, digits, '.', '_' or '-' "
                                   f"(it names the model folder), got {name!r}")
        if name.lower() in seen:
            raise RepomodelerError(f"error: {_where(list_file, i, name)}: the name is used twice")
        seen.add(name.lower())
        repos = entry.get("repositories")
        if not isinstance(repos, list) or not repos:
            raise RepomodelerError(f"error: {_where(list_file, i, name)}: 'repositories' must be a non-empty list")
        sources = tuple(_source(list_file, i, name, j, r) for j, r in enumerate(repos))
        about = entry.get("about") or ""
        systems.append(System(name=name, sources=sources, about=str(about).strip()))
    if not systems:
        raise RepomodelerError(f"error: {list_file}: the 'systems' list is empty")
    return systems


def _source(list_file: Path, i: int, name: str, j: int, raw: Any) -> Source:
    where = f"{_where(list_file, i, name)}, repository {j + 1}"
    if not isinstance(raw, dict):
        raise RepomodelerError(f"error: {where}: expected 'url' and 'commit', or 'path'")
    unknown = sorted(set(raw) - {"url", "commit", "path"})
    if unknown:
        raise RepomodelerError(f"error: {where}: unknown key(s) {', '.join(map(str, unknown))}")
    if "path" in raw:
        if "url" in raw or "commit" in raw:
            raise RepomodelerError(f"error: {where}: give either 'path' or 'url' with 'commit', not both")
        if not isinstance(raw["path"], str) or not raw["path"].strip():
            raise RepomodelerError(f"error: {where}: 'path' must be a folder")
        path = Path(raw["path"])
        return Source(path=path if path.is_absolute() else (list_file.parent / path))
    url, commit = raw.get("url"), raw.get("commit")
    if not isinstance(url, str) or not _URL.match(url.strip()):
        raise RepomodelerError(f"error: {where}: 'url' must be an https://, ssh://, git:// or file:// git URL, got {url!r}")
    if "@" in url.split("://", 1)[1].split("/", 1)[-1]:
        raise RepomodelerError(f"error: {where}: put the commit in 'commit', not in the URL")
    if isinstance(commit, (int, float)) and not isinstance(commit, bool):
        raise RepomodelerError(f"error: {where}: YAML read 'commit' as a number; put the SHA in quotes")
    if not isinstance(commit, str) or not _SHA.match(commit.strip().lower()):
        raise RepomodelerError(f"error: {where}: 'commit' must be a full 40-character commit SHA (a pinned commit, "
                               f"not a branch or tag), got {commit!r}")
    return Source(url=url.strip(), commit=commit.strip().lower())


def _normal_url(url: str) -> str:
    return re.sub(r"(\.git)?/*$", "", str(url).strip()).lower()


def is_current(system: System, model_dir: Path) -> bool:
    """True when MODELS/<name>/model.json was analysed from exactly the listed commits."""
    from repomodeler.model import read_file

    if any(s.url is None for s in system.sources):
        return False
    try:
        repos = read_file(model_dir / "model.json").repositories
    except RepomodelerError:
        return False
    if len(repos) != len(system.sources):
        return False
    # local (file://) remotes are not recorded as URLs: then the commit alone must match
    have = {(r.commit or "").lower(): _normal_url(r.url or "") for r in repos}
    for source in system.sources:
        url = have.get(source.commit or "")
        if url is None or (url and url != _normal_url(source.url or "")):
            return False
    return True


def _counts(model_dir: Path) -> str:
    """What a built model holds: its top-level components and the connections between them."""
    from repomodeler.model import read_file

    try:
        model = read_file(Path(model_dir) / "model.json")
    except RepomodelerError:
        return "model written"
    from repomodeler.model.counts import count

    figures = count(model)  # the one counting rule, as the cards and the summary say it
    text = f"{figures.components} components, {figures.connections} connections"
    return text + (f" ({figures.subsystems} subsystems)" if figures.subsystems else "")


def write_about(model_dir: Path, about: str) -> None:
    """The list's ``about`` line beside the model (``about.txt``), which the gallery card shows; the
    file is the user's (re-analysis keeps it), so an empty ``about`` leaves an existing one alone."""
    from repomodeler.publish import replace_file
    from repomodeler.serve.store import ABOUT_FILE

    if about.strip():
        replace_file(Path(model_dir) / ABOUT_FILE, " ".join(about.split()) + "\n")


def build(
    systems: list[System],
    models_dir: Path,
    site_dir: Path | None,
    *,
    only: tuple[str, ...] = (),
    skip_existing: bool = False,
    validate: bool = True,
    jobs: int = 0,
    timeout: float = 300.0,
    accept_drop: bool = False,
    source_roots: tuple[Path, ...] = (),
    echo: Callable[[str], None] = print,
) -> BuildReport:
    """Analyse each system into `models_dir/<name>`, then publish `models_dir` into `site_dir`."""
    from repomodeler.pipeline import AnalyzeOptions, analyze

    wanted = {n.lower() for n in only}
    unknown = wanted - {s.name.lower() for s in systems}
    if unknown:
        raise RepomodelerError(f"error: --only names no system of the list: {', '.join(sorted(unknown))}")
    models_dir = Path(models_dir)
    models_dir.mkdir(parents=True, exist_ok=True)
    report = BuildReport()
    chosen = [s for s in systems if not wanted or s.name.lower() in wanted]
    for n, system in enumerate(chosen, 1):
        out = models_dir / system.name
        head = f"[{n}/{len(chosen)}] {system.name}"
        if skip_existing and is_current(system, out):
            echo(f"{head}: already analysed at the listed commits, skipped")
            write_about(out, system.about)
            report.skipped.append(system.name)
            continue
        echo(f"{head}: " + ", ".join(s.describe() for s in system.sources) + (f" ({system.about})" if system.about else ""))
        started = time.perf_counter()
        try:
            result = analyze([s.input for s in system.sources],
                             AnalyzeOptions(name=system.name, out=out, validate=validate, jobs=jobs, timeout=timeout,
                                            accept_drop=accept_drop))
        except RepomodelerError as exc:
            report.failed[system.name] = str(exc)
            echo(f"{head}: FAILED: {exc}")
            continue
        except Exception as exc:  # noqa: BLE001 - a bug analysing one system must not lose the others
            detail = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
            report.failed[system.name] = f"internal error ({type(exc).__name__}: {detail})"
            echo(f"{head}: FAILED: internal error ({type(exc).__name__}: {detail}); "
                 f"'repomodeler analyze' on its repositories with REPOMODELER_DEBUG=1 shows the traceback")
            continue
        echo(f"{head}: {_counts(result.out)} in {time.perf_counter() - started:.0f} s")
        write_about(result.out, system.about)
        report.built.append(system.name)
    if site_dir is not None:
        from repomodeler.serve.publish import publish_site

        report.published = publish_site(models_dir, Path(site_dir), source_roots)
        echo(f"published {report.published} model(s) to {site_dir} (open {Path(site_dir) / 'index.html'})")
    return report
