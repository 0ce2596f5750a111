"""The networkx graph of a resolved system: made from the canonical model (:mod:`repomodeler.model`).

Nodes are component ids with attributes ``name, kind, repository, language, evidence, attributes,
ports, rules`` and, for the parts of a component, ``parent``; edges are keyed by protocol (see
:mod:`repomodeler.model.graph`).  Evidence lists are sorted tuples so that two graphs built from the
same commits compare equal.
"""

from __future__ import annotations

import networkx as nx

from repomodeler.graph.build import SystemModel
from repomodeler.model import from_system, to_networkx
from repomodeler.model.build import used_messages  # noqa: F401 - kept importable from here
from repomodeler.model.graph import top_level  # noqa: F401 - kept importable from here
from repomodeler.records import Repository, Warning_


def to_graph(model: SystemModel, repositories: list[Repository], warnings: list[Warning_],
             stats: dict[str, object], nested: bool = False) -> nx.MultiDiGraph:
    """`nested`: also the parts inside components (subsystems) and the links between them."""
    return to_networkx(from_system(model, repositories, warnings, stats, nested=nested))
