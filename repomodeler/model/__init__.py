"""One canonical architecture model (see :mod:`repomodeler.model.records`).

* records: :class:`Model`, :class:`Component`, :class:`Port`, :class:`Endpoint`, :class:`Connection`,
  :class:`RepositoryRef`, :class:`Rule` (evidence, warnings, unresolved references and messages are
  the frozen records of :mod:`repomodeler.records`);
* :func:`from_system`: the model of the resolver's ``SystemModel``;
* :func:`to_json` / :func:`from_dict` / :func:`read_file` / :func:`parse`: the only model.json writer
  and reader;
* :mod:`repomodeler.model.nesting`: the only code that knows what ``parent`` means;
* :func:`to_networkx` / :func:`from_networkx`: the graph view for graph algorithms and renderers.
"""

from repomodeler.model.build import from_system, used_messages
from repomodeler.model.graph import from_networkx, to_networkx
from repomodeler.model.json_io import ModelFormatError, from_dict, parse, read_dict, read_file, to_dict, to_json
from repomodeler.model.records import (
    SCHEMA,
    Component,
    Connection,
    Endpoint,
    Model,
    Port,
    RepositoryRef,
    Rule,
)
from repomodeler.records import Evidence, MessageType, Unresolved, Warning_

__all__ = [
    "SCHEMA", "Component", "Connection", "Endpoint", "Evidence", "MessageType", "Model", "ModelFormatError", "Port",
    "RepositoryRef", "Rule", "Unresolved", "Warning_", "from_dict", "from_networkx", "from_system", "parse",
    "read_dict", "read_file", "to_dict", "to_json", "to_networkx", "used_messages",
]
