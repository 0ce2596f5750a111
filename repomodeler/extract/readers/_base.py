"""What a reader declares, and the one helper every reader builds its facts with."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from repomodeler.records import Fact

ReadFn = Callable[[str, str, str], "list[Fact]"]  # (repository, path, text) -> facts
Sniff = Callable[[str, str], bool]  # (path, first 4096 characters) -> is the file this reader's format

# One reader of each family reads a file (the first whose claim matches, in order); the families
# read independently, so a file can be both a descriptor and an API description (application-openapi.yml).
FAMILIES = ("descriptor", "api", "proxy")
# The rule recorded on a fact (Fact.rule, shown as a model element's "patterns"): a descriptor's
# reader by its name, API descriptions and proxy configuration by their family.
FAMILY_RULES = {"api": "extract_api", "proxy": "extract_proxy"}


# A container kept alive doing nothing, to be exec'd into (a toolbox pod, a debugging shell): `sleep
# infinity`, `sleep 10000`, `tail -f /dev/null`, also wrapped in a shell (`/bin/sh -ec "sleep 10000"`).
_IDLE = re.compile(r"^(?:(?:/(?:usr/)?bin/)?(?:ba)?sh\s+-[a-z]*c\s+)?[\"']?\s*(?:(?:/(?:usr/)?bin/)?sleep\s+"
                   r"(?:infinity|inf|\d+[smhd]?)|(?:/(?:usr/)?bin/)?tail\s+-f\s+/dev/null)\s*;?\s*[\"']?$")


def idle_command(command: str) -> bool:
    """Does the container run nothing but a wait (``sleep infinity``, ``tail -f /dev/null``)?"""
    return bool(command.strip()) and _IDLE.match(" ".join(command.split())) is not None


# A developer's check run in a container of the build image: a linter, a formatter, a test runner, a coverage or lint
# target of the Makefile, or a script named for one (cubefs' `bs_golint`, `unit_test_cubefs`, `format` services).
_CHECK = re.compile(r"^(?:(?:/\S*/)?(?:golangci-lint|gofumpt|gofmt|goimports|staticcheck|gosec|govulncheck|revive|eslint|"
                    r"prettier|tslint|stylelint|flake8|pylint|ruff|black|isort|mypy|rubocop|phpcs|phpstan|shellcheck|"
                    r"hadolint|pytest|tox|phpunit|jest|mocha)(?:\s|$)|go\s+(?:vet|test|fmt)\b|cargo\s+(?:test|clippy|fmt)\b|"
                    r"make\s+(?:-\S+\s+)*(?:test|lint|fmt|format|check|vet|cover)[\w-]*\s*$|"
                    r"(?:npm|yarn|pnpm)\s+(?:run\s+)?(?:test|lint|format)\b|"
                    r"(?:(?:/\S*/)?(?:ba)?sh\s+)?\S*?(?:^|/)(?:run[-_])?(?:format|lint|fmt|test|tests|check)[\w-]*\.sh\s*$)")
# Steps around it that do no work of their own: the shell's options, changing or making folders, a message, the
# check that the formatter changed nothing.
_NEUTRAL = re.compile(r"^(?:set\s+-\w+|cd\s+\S+|mkdir\s.*|echo\b.*|export\s.*|git\s+diff\b.*|true)$")


def check_command(command: str) -> bool:
    """Does the container only run a developer's checks (lint, format, tests), nothing that serves?

    Why: a build stack's compose file often keeps a service per check beside the system's services, all running the
    build image; they exit when the check does and are no part of the running system."""
    text = " ".join(command.split())
    text = re.sub(r"^(?:/(?:usr/)?bin/)?(?:ba)?sh\s+-[a-z]*c\s+", "", text).strip("\"' >-")
    steps = [x.strip().strip("\"'") for x in re.split(r"&&|\|\||;", text)]
    work = [x for x in steps if x and not _NEUTRAL.match(x)]
    return bool(work) and all(_CHECK.match(x) for x in work)


def fact(kind: str, repo: str, path: str, line: int, /, **attrs: object) -> Fact:
    """A fact of a non-source file: attributes as sorted strings, empty and None ones left out."""
    clean = tuple(sorted((k, str(v)) for k, v in attrs.items() if v is not None and v != ""))
    return Fact(kind=kind, repository=repo, path=path, line=line, language="config", attrs=clean)


@dataclass(frozen=True)
class Reader:
    """One descriptor format: the files it claims and how it reads them.

    ``names`` (exact file names) and ``patterns`` (regular expressions that match the whole file
    name or, when they hold a slash, the end of the path from a folder boundary:
    ``nginx/[^/]*\\.conf``) are the files the reader claims; the inventory lists exactly the files
    some reader claims (see :mod:`.registry`).  They are matched as written when files are listed;
    ``ignore_case`` readers then recognise a listed file whatever the case of its name
    (``Setup.py``, ``Application.yml``).  ``sniff`` looks at the start of the file
    when the name alone does not decide (a YAML file is Kubernetes when it has ``apiVersion:``).
    ``read`` None claims files without reading them: they are listed (their lines are counted) and
    keep later readers of the family away.  ``lists`` False: the reader reads files other claims
    list but lists none itself (the inventory cannot sniff content).  ``shadows`` names the readers
    whose claims overlap this one's and which it goes before; any other overlap is a mistake (a test
    checks).
    """

    id: str  # unique: "<module>" or "<module>.<variant>"
    family: str
    order: int  # within the family, lower goes first
    read: ReadFn | None
    names: frozenset[str] = frozenset()
    patterns: tuple[str, ...] = ()
    sniff: Sniff | None = None
    ignore_case: bool = True
    lists: bool = True
    line_based: bool = False  # cut over-long lines before reading (its regular expressions scan lines)
    shadows: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        return FAMILY_RULES.get(self.family) or getattr(self.read, "__name__", "descriptor")

    @cached_property
    def name_pattern(self) -> re.Pattern[str] | None:
        """The claims that look at the file name alone (the whole name must match)."""
        alternatives = [re.escape(n) for n in sorted(self.names)] + [p for p in self.patterns if "/" not in p]
        return alternation(alternatives)

    @cached_property
    def path_pattern(self) -> re.Pattern[str] | None:
        """The claims that look at folders too (``nginx/[^/]*\\.conf``): the end of the path must
        match, starting at a folder boundary."""
        alternatives = [p for p in self.patterns if "/" in p]
        return alternation(alternatives, r"(?:^|/)(?:", r")$")

    @cached_property
    def _folded(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        return tuple(re.compile(p.pattern, re.I) if p is not None else None  # type: ignore[return-value]
                     for p in (self.name_pattern, self.path_pattern))

    def _match(self, path: str, fold: bool) -> bool:
        by_name, by_path = self._folded if fold else (self.name_pattern, self.path_pattern)
        return ((by_name is not None and by_name.fullmatch(path.rpartition("/")[2]) is not None)
                or (by_path is not None and by_path.search(path) is not None))

    def claims(self, path: str) -> bool:
        """Does this reader claim `path` by its name (what the inventory lists)?"""
        return self._match(path, False)

    def recognises(self, path: str, head: str) -> bool:
        """Would this reader read the listed file `path` that starts with `head`?"""
        return self._match(path, self.ignore_case) and (self.sniff is None or self.sniff(path, head))


def alternation(alternatives: list[str], before: str = "", after: str = "",
                flags: int = 0) -> re.Pattern[str] | None:
    """One regular expression matching any of `alternatives` (None for none), between `before` and `after`."""
    if not alternatives:
        return None
    return re.compile(before + "|".join(f"(?:{a})" for a in alternatives) + after, flags)
