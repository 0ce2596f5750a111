"""The one counting rule: what "N components, M connections" means wherever a number is shown.

Components are the top-level nodes (no ``parent``); connections join two top-level components.
The parts inside components are counted apart and named for what they are: *subsystems* (the
packages inside a component) and the links between them or out of them, and *databases* (the
logical databases inside a store server) and the links that name them. The CLI summary, the
gallery cards, ``gallery build``, the run history and model.json's ``stats`` all take their
figures from :func:`count`; the explorer (``web/static/js/explorer``) applies the same rule to
what it draws, and ``tests/test_counts_agree.py`` reads every one of them back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from repomodeler.model import nesting

if TYPE_CHECKING:  # pragma: no cover
    from repomodeler.model.records import Model


@dataclass(frozen=True)
class Counts:
    components: int
    connections: int
    endpoints: int  # API endpoints of the ports (the parts inside components declare theirs in attributes)
    subsystems: int = 0
    subsystem_links: int = 0
    databases: int = 0
    database_links: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def count(model: "Model") -> Counts:
    """The figures of `model` under the one rule (see the module)."""
    parents = model.parents
    top = [c for c in model.components.values() if nesting.is_top_level(c)]
    subsystems, databases = nesting.nested_by_kind(model.components.values())
    database_ids = {c.id for c in databases}
    nested_links = nesting.nested_connections(model)
    database_links = sum(1 for e in nested_links if e.target in database_ids)
    return Counts(
        components=len(top),
        connections=sum(1 for e in model.connections.values() if nesting.is_top_level_link(parents, e.source, e.target)),
        endpoints=sum(len(p.endpoints) for c in model.components.values() for p in c.ports),
        subsystems=len(subsystems),
        subsystem_links=len(nested_links) - database_links,
        databases=len(databases),
        database_links=database_links,
    )
