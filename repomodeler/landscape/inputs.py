"""The inputs of an organisation: ``--inputs FILE`` (a text or YAML list, optionally grouped into
named systems) and ``--discover DIR`` (every git repository beneath a folder).

Both give the same record, :class:`LandscapeInputs`: the inputs as the user would have typed them
on the command line (URL, URL@REF, local path), each with the system it was put in (``None``: the
landscape infers the system).  Parsing an input (``acquire.parse_input``) happens later, per
repository, so one bad line is one failed repository, not a failed run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from repomodeler.records import RepomodelerError


@dataclass(frozen=True, order=True)
class LandscapeInput:
    """One repository of the organisation: the input text and the system it was listed under."""

    raw: str
    system: str | None = None
    origin: str = ""  # where it was given ("inputs.yml:12"), for error messages


@dataclass(frozen=True)
class LandscapeInputs:
    """Every repository of the organisation, in the order given (duplicates dropped)."""

    inputs: tuple[LandscapeInput, ...]

    @property
    def grouped(self) -> bool:
        """True when the user named the systems (every input then has one)."""
        return any(i.system for i in self.inputs)


def _resolve_local(text: str, base: Path) -> str:
    """A relative local path is relative to the inputs file's folder, not to the current folder."""
    if "://" in text or text.startswith("git@") or os.path.isabs(os.path.expanduser(text)):
        return os.path.expanduser(text)
    path, sep, ref = text.rpartition("@") if "@" in text else (text, "", "")
    candidate = base / (path if sep else text)
    if candidate.exists():
        return f"{candidate}{'@' + ref if sep else ''}"
    return text


def _entry_text(entry: object, where: str) -> str:
    """A YAML entry: a string, or a mapping with ``url``/``path`` and an optional ``ref``/``commit``."""
    if isinstance(entry, str) and entry.strip():
        return entry.strip()
    if isinstance(entry, dict):
        location = entry.get("url") or entry.get("path")
        ref = entry.get("ref") or entry.get("commit")
        if isinstance(location, str) and location.strip():
            return f"{location.strip()}@{ref}" if isinstance(ref, str) and ref.strip() else location.strip()
    raise RepomodelerError(f"error: {where}: an input must be a URL, URL@REF or path (or a mapping with 'url' or "
                           "'path'); fix that entry")


def _from_yaml(data: object, source: Path) -> list[LandscapeInput]:
    """A list of inputs; ``systems:`` (a mapping name -> inputs, or a list of ``{name, repositories}``);
    ``repositories:`` beside it for inputs whose system is inferred."""
    base = source.parent
    name = source.name
    out: list[LandscapeInput] = []

    def add(entries: object, system: str | None, where: str) -> None:
        if not isinstance(entries, list):
            raise RepomodelerError(f"error: {where}: expected a list of inputs; see 'repomodeler analyze --help'")
        for i, entry in enumerate(entries, 1):
            out.append(LandscapeInput(_resolve_local(_entry_text(entry, f"{where} entry {i}"), base), system,
                                      f"{name}: {where} entry {i}"))

    if isinstance(data, list):
        add(data, None, name)
        return out
    if not isinstance(data, dict):
        raise RepomodelerError(f"error: {source}: expected a list of inputs or a mapping with 'systems' or "
                               "'repositories'; see the README's 'A whole organisation'")
    unknown = sorted(set(data) - {"systems", "repositories"})
    if unknown:
        raise RepomodelerError(f"error: {source}: unknown key '{unknown[0]}'; use 'systems' and 'repositories'")
    systems = data.get("systems") or {}
    if isinstance(systems, dict):
        for system, entries in systems.items():
            add(entries, _system_name(system, source), f"system '{system}'")
    elif isinstance(systems, list):
        for i, item in enumerate(systems, 1):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise RepomodelerError(f"error: {source}: systems entry {i} needs a 'name' and 'repositories'")
            add(item.get("repositories"), _system_name(item["name"], source), f"system '{item['name']}'")
    else:
        raise RepomodelerError(f"error: {source}: 'systems' must be a mapping or a list")
    if data.get("repositories") is not None:
        add(data["repositories"], None, "repositories")
    return out


def _system_name(value: object, source: Path) -> str:
    name = str(value).strip()
    if not name or "/" in name or name.startswith("."):
        raise RepomodelerError(f"error: {source}: system name '{name}' is empty or holds '/'; give a plain name")
    return name


def _from_text(text: str, source: Path) -> list[LandscapeInput]:
    """One input a line; ``#`` starts a comment; a ``[name]`` line puts the lines after it in system ``name``."""
    out: list[LandscapeInput] = []
    system: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            system = _system_name(line[1:-1], source)
            continue
        out.append(LandscapeInput(_resolve_local(line, source.parent), system, f"{source.name}:{n}"))
    return out


def read_inputs_file(path: Path) -> LandscapeInputs:
    """The inputs listed in `path` (YAML when it ends in .yml/.yaml, text otherwise)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RepomodelerError(f"error: cannot read --inputs '{path}' ({exc}); give a text or YAML file") from None
    if path.suffix.lower() in (".yml", ".yaml"):
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" at line {mark.line + 1}" if mark is not None else ""
            raise RepomodelerError(f"error: --inputs '{path}' is not valid YAML{where}; fix the file") from None
        entries = _from_yaml(data, path) if data is not None else []
    else:
        entries = _from_text(text, path)
    if not entries:
        raise RepomodelerError(f"error: --inputs '{path}' lists no repositories; add one URL or path a line")
    return _checked(entries, f"--inputs '{path}'")


def _checked(entries: list[LandscapeInput], what: str) -> LandscapeInputs:
    """Drop repeats of one input; refuse one input listed under two systems (which would it be in?)."""
    seen: dict[str, LandscapeInput] = {}
    for e in entries:
        other = seen.get(e.raw)
        if other is None:
            seen[e.raw] = e
        elif other.system != e.system:
            raise RepomodelerError(f"error: {what}: '{e.raw}' is listed under system '{other.system}' and "
                                   f"'{e.system}'; list it once")
    return LandscapeInputs(tuple(seen.values()))


def discover(root: Path) -> LandscapeInputs:
    """Every git repository beneath `root` (a work tree with ``.git``, or a bare repository), sorted by
    path; a repository's own folders are not searched further, and symlinks are not followed."""
    if not root.is_dir():
        raise RepomodelerError(f"error: --discover '{root}' is not a folder; give the folder that holds the repositories")
    found: list[str] = []
    for here, dirs, _files in os.walk(root, followlinks=False):
        path = Path(here)
        if (path / ".git").exists() or ((path / "HEAD").is_file() and (path / "objects").is_dir()
                                         and (path / "refs").is_dir()):
            found.append(str(path.resolve()))
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not (path / d).is_symlink() and d not in (".git", "node_modules"))
    if not found:
        raise RepomodelerError(f"error: --discover '{root}' holds no git repository; point it at the folder "
                               "your organisation's repositories were cloned into")
    return LandscapeInputs(tuple(LandscapeInput(p, None, f"--discover {root}") for p in sorted(found)))


def combine(*groups: LandscapeInputs) -> LandscapeInputs:
    """Inputs from several sources (plain arguments, ``--inputs``, ``--discover``) as one list."""
    return _checked([e for g in groups for e in g.inputs], "inputs")
