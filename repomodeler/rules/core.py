"""What a resolver rule is: an id a user can cite, a one-line message, the fact kinds it reads, the
parts of the model it writes, the rules whose results it uses, and the resolver unit that carries it
out.  Rules are declared by framework or platform in the folders beside this module, each with its
fixture cases (``cases/<rule id>.yml``, ``cases/<rule id>--<what>.yml``) that state, as a user would, what the rule adds to a small
system and what it must not add.

The parts of the model a rule may write: ``components`` (new nodes), ``kinds`` (a node's kind or
role), ``aliases`` (names a node answers to), ``roots`` (source folders a node owns), ``ports``
(provided APIs and endpoints), ``connections``, ``unresolved``, ``attributes``, ``messages`` (typed
rpc payloads)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from repomodeler.writes import UndeclaredWrite  # noqa: F401 - raised by the builder's guard

WRITABLE = frozenset({"components", "kinds", "aliases", "roots", "ports", "connections", "unresolved", "attributes",
                      "messages"})


@dataclass(frozen=True)
class Rule:
    id: str  # '<group>.<name>', the group being the folder the rule is declared in
    message: str  # one line: what the rule concludes from what
    unit: str  # the resolver method that carries the rule out
    reads: tuple[str, ...]  # fact kinds
    writes: tuple[str, ...]  # parts of the model
    after: tuple[str, ...] = ()  # ids of rules whose results it uses
    state: tuple[str, ...] = ()  # resolver state shared with other rules that it fills or reads (graph/base.py SHARED_STATE)

    @property
    def group(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def name(self) -> str:
        """The resolver unit, as the pass declarations used to name it (kept for the ``resolved_by``
        attribute of the model)."""
        return self.unit

    def cases_dir(self) -> Path:
        return Path(__file__).resolve().parent / self.group.replace("-", "_") / "cases"

    def case_files(self) -> list[Path]:
        folder = self.cases_dir()
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.yml") if p.stem == self.id or p.stem.startswith(f"{self.id}--"))


class UndeclaredState(AssertionError):
    """A rule touched resolver state shared between rules that it did not declare (strict runs)."""


