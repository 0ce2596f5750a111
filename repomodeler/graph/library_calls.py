"""Calls made in a library of the system are made by the programs linking it.

Why: a workspace of modules (Go's ``go.work``, an npm or Cargo workspace) keeps client code in shared modules:
flagd's ``core`` module holds the gRPC client of flagd-proxy's sync service, and the flagd program links it.
The library does not run; the call is the linking program's (a server's, one serving or deployed: a browser or
mobile app linking the library runs other parts of it).  Only a library few programs link (three at most)
hands its calls on: a common library every service links holds clients for all of them, and which service uses
which is not told by linking alone.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase

MAX_LINKERS = 3
# Languages whose workspace modules run inside the programs linking them (not a Blazor WebAssembly or JavaScript
# library a server hands to browsers).
SERVER_LANGUAGES = frozenset({"go", "rust", "java", "kotlin", "python"})


class LibraryCallRules(ResolverBase):
    """``build.library-calls``."""

    def library_calls(self) -> None:
        linkers: dict[str, dict[str, object]] = defaultdict(dict)  # library -> linking component -> the dependency edge
        for k, conn in sorted(self.model.connections.items()):
            lib = self.model.components.get(k[1])
            user = self.model.components.get(k[0])
            if conn.kind == "depends_on" and lib is not None and lib.kind == "library" and user is not None \
                    and user.kind in ("service", "gateway") and (user.ports or user.attributes.get("deployment")):
                linkers[k[1]][k[0]] = conn
        outgoing: dict[str, list] = defaultdict(list)  # library -> its calls, in key order
        for k, c in sorted(self.model.connections.items()):
            if k[0] in linkers and c.kind in ("calls", "uses", "publishes", "subscribes"):
                outgoing[k[0]].append((k, c))
        for lib_id, users in sorted(linkers.items()):
            if len(users) > MAX_LINKERS or self.model.components[lib_id].language not in SERVER_LANGUAGES:
                continue  # (a C# or JavaScript library may be a browser app's code the server only hands out)
            calls = outgoing.get(lib_id, [])
            if len({k[1] for k, _c in calls} & set(users)) > 1:
                continue  # clients of several of its own linkers (each service's stub for the others): who calls whom is not told
            for (_src, target, protocol), conn in calls:
                for user_id, dep in sorted(users.items()):
                    if user_id == target or any(k[0] == user_id and k[1] == target for k in self.model.connections):
                        continue
                    self.connect(user_id, target, protocol, sorted(conn.evidence) + sorted(dep.evidence),
                                 kind=conn.kind, attributes={**conn.attributes,
                                                             "via": f"library {self.model.components[lib_id].name}: "
                                                                    + (conn.attributes.get("via") or conn.kind)})
