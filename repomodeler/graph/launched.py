"""Java programs a launcher script starts: ``bin/mqnamesrv`` runs ``org.acme.namesrv.NamesrvStartup``,
so the build module holding that class is a running program (a service named after its module, known
by the script's name too), not a library or nothing at all.

Why: a Java server started by a shell script in ``bin/`` from its own ``main`` class has no Spring
Boot annotation, Dockerfile or deployment saying it runs; its module looked like code others link.
The script naming the class is the evidence that it runs, and the class's ``main`` method the entry.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import is_under
from repomodeler.records import Fact

BUILD_FILES = ("pom.xml", "build.gradle", "build.gradle.kts")


class LaunchRules(ResolverBase):
    """Build modules started by launcher scripts."""

    def launched_programs(self) -> None:
        mains: dict[tuple[str, str], list[Fact]] = {}  # (repository, path suffix of the class) -> main facts
        for f in self.by_kind["program.java_main"]:
            mains.setdefault((f.repository, f"{PurePosixPath(f.path).stem}"), []).append(f)
        modules = {(m.repository, _folder(m.path)) for m in self.by_kind["manifest"]
                   if PurePosixPath(m.path).name in BUILD_FILES}
        for launch in self.by_kind["program.launch"]:
            cls = launch.get("java_class") or ""
            suffix = cls.replace(".", "/") + ".java"
            found = sorted(f for f in mains.get((launch.repository, cls.rsplit(".", 1)[-1]), [])
                           if f.path == suffix or f.path.endswith("/" + suffix))
            if not found:
                continue  # a class of a library the script puts on the class path: not this repository's program
            main = found[0]
            module = max((d for r, d in modules if r == main.repository and is_under(main.path, d)), key=len, default="")
            script = launch.get("script") or ""
            name = PurePosixPath(module).name or script or main.repository
            comp = next((c for c in self.model.components.values()
                         if (main.repository, module) in c.source_roots and c.kind in ("service", "library")), None)
            if comp is None:
                comp = self.add_component(name, "service", main.repository, launch.evidence, (script,))
                comp.source_roots.add((main.repository, module))
            else:
                if comp.kind == "library":
                    comp.kind = "service"  # it links into others too, but a script starts it: it runs
                self.add_component(comp.id, comp.kind, main.repository, launch.evidence, (script,))
            comp.evidence.add(main.evidence)
            comp.attributes.setdefault("main_class", cls)
            comp.language = comp.language or "java"


def _folder(path: str) -> str:
    parent = str(PurePosixPath(path).parent)
    return "" if parent == "." else parent
