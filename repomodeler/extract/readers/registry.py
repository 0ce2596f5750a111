"""The descriptor readers, in one fixed order: which files are listed, and which reader reads each.

Every module of this package declares its ``READERS`` (see :class:`~._base.Reader`); the registry
collects them sorted by (family, order, id).  The inventory lists a file when a source language or
some reader claims it (:func:`is_descriptor`); extraction hands a listed file to the first reader
of each family that recognises it (:func:`reader_for`).  There is no other list of file names.

Most readers need no tree-sitter: YAML is read with PyYAML's node API (so every value keeps its line,
and aliases are never expanded), most of the rest line by line; Terraform and Bicep, whose nesting
and expressions no line pattern follows, with their tree-sitter grammars.  A malformed file yields a warning naming
it, never an exception (:func:`read_file`).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import replace
from functools import lru_cache
from pathlib import PurePosixPath

from repomodeler.extract.readers import (alloy, ansible, appsettings, azd, azure_functions, beats, bicep, build_scripts, bundler, caddy, cargo, cdk, cloudformation, cmake, compose, compose_launch, composer, config_json,
                                         consul_template, crontab, dockerfile, dotenv, dotnet_project, entrypoints, envoy, firebase, go_mod, goreleaser, gradle, grafana, graphql,
                                         haproxy, helm, helm_install, heroku_app, hjson, laravel_config,
                                         nacos,
                                         kong, kubernetes, launchers, logback, makefile, maven, mix, nginx, nomad, npm, openapi,
                                         otel_collector,
                                         pm2, prisma, procfile, prometheus, proto, pyproject, rails_storage, requirements,
                                         settings_files, setup_cfg, setup_py, skaffold, spring, start_scripts, terraform, traefik, tye, workflows)
from repomodeler.extract.readers._base import FAMILIES, Reader, alternation
from repomodeler.extract.readers._yaml import yaml
from repomodeler.records import Fact, Warning_

MODULES = (alloy, ansible, appsettings, azd, azure_functions, beats, bicep, build_scripts, bundler, caddy, cargo, cdk, cloudformation, cmake, compose, compose_launch, composer, config_json, consul_template, crontab, dockerfile, dotenv, dotnet_project,
           entrypoints, envoy, firebase, go_mod, goreleaser, gradle,
           grafana, graphql, haproxy, helm, helm_install, heroku_app, hjson, kong, kubernetes, laravel_config, launchers, logback, makefile, maven, mix, nacos, nginx, nomad, npm, openapi,
           otel_collector, pm2, prisma, procfile, prometheus, proto, pyproject, rails_storage, requirements, settings_files, setup_cfg,
           setup_py, skaffold, spring, start_scripts, terraform, traefik, tye, workflows)
READERS: tuple[Reader, ...] = tuple(sorted((r for m in MODULES for r in m.READERS),
                                           key=lambda r: (FAMILIES.index(r.family), r.order, r.id)))
HEAD = 4096  # characters of a file a reader's sniff sees


def _listing() -> tuple[frozenset[str], re.Pattern[str] | None, re.Pattern[str] | None]:
    """What the listing readers claim, merged: exact names, name patterns, path patterns."""
    listing = [r for r in READERS if r.lists]
    names = frozenset(n for r in listing for n in r.names)
    by_name = sorted({p for r in listing for p in r.patterns if "/" not in p})
    by_path = sorted({p for r in listing for p in r.patterns if "/" in p})
    return names, alternation(by_name), alternation(by_path, r"(?:^|/)(?:", r")$")


_LISTED_NAMES, _LISTED_NAME, _LISTED_PATH = _listing()


def is_descriptor(path: str) -> bool:
    """Does some reader claim `path` by its name (so the inventory lists it)?"""
    name = path.rpartition("/")[2]
    return (name in _LISTED_NAMES or (_LISTED_NAME is not None and _LISTED_NAME.fullmatch(name) is not None)
            or (_LISTED_PATH is not None and _LISTED_PATH.search(path) is not None))


def claimants(path: str, head: str, family: str = "descriptor") -> list[Reader]:
    """Every reader of `family` that recognises the listed file `path`, first the one that reads it."""
    return [r for r in READERS if r.family == family and r.recognises(path, head)]


def reader_for(path: str, head: str, family: str = "descriptor") -> Reader | None:
    """The reader of `family` for the listed file `path` starting with `head`, or None.  The first
    reader that recognises the file decides, even one that reads nothing (a Helm template)."""
    members, by_name, by_path = _family(family)
    if not ((by_name is not None and by_name.fullmatch(path.rpartition("/")[2]))
            or (by_path is not None and by_path.search(path))):
        return None  # no reader of the family wants a file of this name (most source files)
    for r in members:
        if r.recognises(path, head):
            return r if r.read is not None else None
    return None


@lru_cache(maxsize=None)
def _family(family: str) -> tuple[tuple[Reader, ...], re.Pattern[str] | None, re.Pattern[str] | None]:
    """The readers of `family` in order, and what any of them might claim in any case (a quick no)."""
    members = tuple(r for r in READERS if r.family == family)
    by_name = alternation(sorted({p.pattern for r in members if (p := r.name_pattern) is not None}), flags=re.I)
    by_path = alternation(sorted({p for r in members for p in r.patterns if "/" in p}), r"(?:^|/)(?:", r")$", re.I)
    return members, by_name, by_path


# --------------------------------------------------------------------------- reading one file
MAX_LINE = 20_000


def _cut_long_lines(text: str) -> tuple[str, int | None]:
    """Text with every line cut to MAX_LINE characters, and the first cut line (or None).  Readers
    that scan line by line with regular expressions get this, so no pattern can spend quadratic
    time on a hostile line (a minified blob named Dockerfile, say)."""
    if len(text) <= MAX_LINE:
        return text, None
    lines = text.split("\n")
    first = next((i + 1 for i, ln in enumerate(lines) if len(ln) > MAX_LINE), None)
    if first is None:
        return text, None
    return "\n".join(ln[:MAX_LINE] for ln in lines), first


def read_descriptor(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Read one descriptor/manifest file; a malformed one yields a warning naming it, never an exception."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        return [], [Warning_(repo, path, line, f"not valid UTF-8 near line {line}; skipped")]
    reader = reader_for(path, text[:HEAD])
    if reader is None or reader.read is None:
        return [], []
    notes: list[Warning_] = []
    if reader.line_based:
        text, cut = _cut_long_lines(text)
        if cut is not None:
            notes.append(Warning_(repo, path, cut, f"line {cut} is longer than {MAX_LINE} characters; "
                                                   "read its start only"))
    # Imported here like the parsers that raise them: the inventory imports this module for its claims.
    import configparser
    import xml.etree.ElementTree as ET

    try:
        facts = reader.read(repo, path, text)
    except RecursionError:
        return [], [Warning_(repo, path, 0, f"malformed {PurePosixPath(path).name}: nested too deeply; skipped")]
    except (yaml.YAMLError, ValueError, json.JSONDecodeError, tomllib.TOMLDecodeError, ET.ParseError, configparser.Error,
            TypeError, AttributeError, KeyError, IndexError, OverflowError, UnicodeError) as exc:
        line, detail = _error_position(exc)
        return [], [Warning_(repo, path, line, f"malformed {PurePosixPath(path).name}: {detail[:200]}; skipped")]
    return sorted(set(facts), key=Fact.order), sorted(set(notes))


def _error_position(exc: Exception) -> tuple[int, str]:
    """(line, one-line description) of a parser error, the line being 0 when the parser gave none."""
    import xml.etree.ElementTree as ET

    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        line = exc.problem_mark.line + 1
        return line, f"{exc.problem or exc.context or 'invalid YAML'} at line {line}"
    if isinstance(exc, json.JSONDecodeError):
        return exc.lineno, f"{exc.msg} at line {exc.lineno}"
    if isinstance(exc, ET.ParseError) and getattr(exc, "position", None):
        line = exc.position[0]
        return line, str(exc).splitlines()[0] if str(exc).strip() else f"invalid XML at line {line}"
    text = str(exc).strip()
    return 0, (text.splitlines()[0] if text else type(exc).__name__)


def read_api(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Read one API description (.proto, GraphQL, OpenAPI)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return [], [Warning_(repo, path, 0, "not valid UTF-8; skipped")]
    reader = reader_for(path, text[:HEAD], "api")
    if reader is None or reader.read is None:
        return [], []
    try:
        return sorted(set(reader.read(repo, path, text))), []
    except (ValueError, yaml.YAMLError, RecursionError, TypeError, AttributeError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return [], [Warning_(repo, path, 0, f"malformed API description {PurePosixPath(path).name}: {first[:200]}; skipped")]


def read_proxy(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Read one reverse proxy's configuration (its name picks the reader; for a plain ``.conf`` its
    start too)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return [], [Warning_(repo, path, 0, "not valid UTF-8; skipped")] if reader_for(path, "", "proxy") else []
    reader = reader_for(path, text[:HEAD], "proxy")
    if reader is None or reader.read is None:
        return [], []
    return sorted(set(reader.read(repo, PurePosixPath(path).as_posix(), text))), []


_READ_FAMILY = {"descriptor": read_descriptor, "api": read_api, "proxy": read_proxy}


def read_file(repo: str, path: str, content: bytes) -> tuple[list[Fact], list[Warning_]]:
    """Facts and warnings of every family's reader for one listed file, each fact naming its reader."""
    head = content[:HEAD].decode("utf-8", "replace")
    facts: list[Fact] = []
    warnings: list[Warning_] = []
    for family in FAMILIES:
        reader = reader_for(path, head, family)
        if reader is None:
            continue
        fs, ws = _READ_FAMILY[family](repo, path, content)
        facts.extend(replace(x, rule=reader.rule) for x in fs)
        warnings.extend(ws)
    return facts, warnings
