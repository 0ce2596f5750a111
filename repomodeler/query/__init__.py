"""Ask the architecture: callers, callees, impact, paths, uses, evidence, unresolved, changes.

One library behind ``repomodeler query`` (people) and ``repomodeler mcp`` (coding agents):

* :mod:`.load`: the canonical model of a model folder, a model.json, a .sysml file or a stored run;
* :mod:`.index`: names, neighbours and topics of one model, built once;
* :mod:`.questions`: the questions, each answering with a typed record of :mod:`.records` whose
  elements carry their file:line evidence and the ids of the rules that made them;
* :mod:`.render`: those answers as a table for people (JSON is :func:`.records.to_json`).
"""

from repomodeler.query.index import QueryError, QueryIndex
from repomodeler.query.load import Loaded, load, sysml_text
from repomodeler.query.questions import (
    callees,
    callers,
    changes,
    components,
    evidence,
    impact,
    path,
    unresolved,
    uses,
)
from repomodeler.query.records import to_json

__all__ = ["Loaded", "QueryError", "QueryIndex", "callees", "callers", "changes", "components", "evidence", "impact", "load",
           "sysml_text", "path", "to_json", "unresolved", "uses"]
