"""Hosts only plug-ins call: optional integrations, listed rather than drawn.

Why: a product with a plug-in folder (``plugins/slack``, ``dolphinscheduler-alert-plugins/...webex``)
can talk to many vendors, each only when an operator enables that plug-in. Drawn as externals they
outnumber the system's own parts and are not how it runs by default; the architecture documents of
such systems leave them out. They stay in the model's ``unresolved`` list with the plug-in's line,
so nothing found is lost.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Unresolved

# Folders that hold one plug-in (an optional integration) per child.
PLUGIN_FOLDER = re.compile(r"^(plugins?|add-?ons?|extensions|integrations)$|[-_](plugins?|add-?ons?|integrations)$", re.I)


def in_plugin(path: str) -> str | None:
    """The plug-in folder a repository path lies in (``plugins/slack``), else None."""
    parts = PurePosixPath(path).parts[:-1]
    for i, part in enumerate(parts):
        if PLUGIN_FOLDER.search(part) and i + 1 < len(parts):
            return "/".join(parts[: i + 2])
    return None


class PluginRules(ResolverBase):
    """External systems that only plug-ins reach."""

    def optional_plugins(self) -> None:
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "external":
                continue
            into = [k for k in self.model.connections if k[1] == cid]
            if not into or any(k[0] not in self.model.components for k in into):
                continue
            evidence = [e for k in into for e in self.model.connections[k].evidence]
            plugins = {in_plugin(e.path) for e in evidence}
            if not evidence or None in plugins or any(self.model.connections[k].source == cid for k in self.model.connections):
                continue  # reached from the product's own code too (or it calls back): part of the system
            for k in sorted(into):
                conn = self.model.connections.pop(k)
                self.created_by.pop(k, None)
                first = min(conn.evidence)
                self.model.unresolved.append(Unresolved(
                    k[0], f"{comp.name}: optional integration of plug-in {in_plugin(first.path)}", first))
            del self.model.components[cid]
            self.created_by.pop(cid, None)
            for a in [a for a, target in self.alias.items() if target == cid]:
                del self.alias[a]
