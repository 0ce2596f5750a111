"""Programs that only host other programs of the system: a launcher's main class whose build module
depends on nothing of the repository but other programs' modules (``container`` depending only on
``broker``: several brokers in one process; ``standalone-server`` depending only on the api, master,
worker and alert servers: all of them in one JVM for a trial).

Why: such a program runs no role of its own; it is another way to run the programs it hosts.  Drawn
as a component it doubles those programs and their links (and the settings of its own trial
configuration become the system's).  Hosting one program, it is that program started another way:
its names, evidence, code and links go to that program.  Hosting several, it is the all-in-one mode
of those programs: it is left out of the drawing, and what only it reaches is listed in the model's
``unresolved`` references with the line that named it, so nothing found is lost.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.packages import folder
from repomodeler.records import Component, Connection, Fact, Unresolved

BUILD_FILES = ("pom.xml", "build.gradle", "build.gradle.kts")


class HostRules(ResolverBase):
    """Launched programs whose module hosts other programs' modules, folded into them."""

    def host_programs(self) -> None:
        module_of: dict[tuple[str, str], str] = {}  # (repository, artifact name) -> component of that module
        own: dict[tuple[str, str], str] = {}  # (repository, build file) -> the component it builds
        for f in sorted(self.by_kind["manifest"], key=Fact.order):
            if PurePosixPath(f.path).name not in BUILD_FILES:
                continue
            owner = self.owner_of(f.repository, f.path)
            if owner is not None and self.model.components[owner].source_roots and \
                    (f.repository, folder(f.path)) in self.model.components[owner].source_roots:
                module_of.setdefault((f.repository, f.get("name") or ""), owner)
                own[(f.repository, f.path)] = owner
        deps: dict[str, set[str]] = defaultdict(set)  # program -> components its build depends on
        for f in self.by_kind["manifest.dependency"]:
            c = own.get((f.repository, f.path))
            if c is None:
                continue
            dep = module_of.get((f.repository, f.get("name") or ""))
            if dep is not None and dep != c:
                deps[c].add(dep)
        for cid in sorted(deps):
            comp = self.model.components.get(cid)
            if comp is None or comp.kind != "service" or not comp.attributes.get("main_class") \
                    or comp.attributes.get("deployment") or comp.attributes.get("image"):
                continue  # a deployment runs it: that is how the system is deployed, not another way to start it
            hosted = sorted(d for d in deps[cid] if d in self.model.components
                            and self.model.components[d].kind == "service"
                            and self.model.components[d].attributes.get("main_class"))
            if not hosted or len(hosted) != len(deps[cid]):
                continue  # it builds on the repository's libraries too: a program of its own
            if len(hosted) == 1:
                self._fold_into(comp, hosted[0])
            else:
                self._leave_out(comp, hosted)

    def _fold_into(self, comp: Component, target_id: str) -> None:
        target = self.model.components[target_id]
        for name in sorted({comp.name.lower(), *comp.aliases}):
            target.aliases.add(name)
            self.alias[name] = target_id
        target.evidence.update(comp.evidence)
        target.source_roots.update(comp.source_roots)
        self.credit(target.rules)
        for k in sorted(k for k in self.model.connections if comp.id in k[:2]):
            conn = self.model.connections.pop(k)
            made_by = self.created_by.pop(k, "")
            source = target_id if conn.source == comp.id else conn.source
            dest = target_id if conn.target == comp.id else conn.target
            if source == dest:
                continue
            nk = (source, dest, conn.protocol)
            new = self.model.connections.get(nk)
            if new is None:
                new = self.model.connections[nk] = Connection(source=source, target=dest, kind=conn.kind,
                                                              protocol=conn.protocol, attributes=dict(conn.attributes))
                self.created_by[nk] = made_by
            new.evidence.update(conn.evidence)
            new.rules |= conn.rules
            self.credit(new.rules)
        self._drop(comp.id)

    def _leave_out(self, comp: Component, hosted: list[str]) -> None:
        reached_by_hosted = {k[1] for k in self.model.connections if k[0] in hosted}
        runs = ", ".join(self.model.components[h].name for h in hosted)
        for k in sorted(k for k in self.model.connections if comp.id in k[:2]):
            conn = self.model.connections.pop(k)
            self.created_by.pop(k, None)
            other = conn.target if conn.source == comp.id else conn.source
            if other in hosted or other in reached_by_hosted or conn.protocol == "library":
                continue
            self.model.unresolved.append(Unresolved(
                comp.id, f"{self.model.components[other].name}: reached from {comp.name}, which runs {runs} in one "
                         f"process", min(conn.evidence)))
            if self.model.components[other].kind == "external" and not any(other in k2[:2] for k2 in self.model.connections):
                self._drop(other)  # named only by the all-in-one program's own settings
        launch = sorted(e for e in comp.evidence if not PurePosixPath(e.path).name in BUILD_FILES) or sorted(comp.evidence)
        self.model.unresolved.append(Unresolved(comp.id, f"{comp.name}: runs {runs} in one process (not drawn)", launch[0]))
        self._drop(comp.id)

    def _drop(self, cid: str) -> None:
        self.drop_component(cid)
