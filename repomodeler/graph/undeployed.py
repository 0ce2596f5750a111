"""Services of a repository that nothing deploys, beside the ones its deployment runs.

Why: a repository that ships its services as containers (a recipe in each service's folder, a compose
file or manifests building and running them) often holds more service projects than it deploys:
placeholders for services still to write (``src/Services/Billing`` beside ``src/Services/Catalogs``),
a service kept for later. Drawn as running components they are half of the picture and none of the
system. A service project with no recipe of its own and no deployment, whose folder sits beside the
folder of a service the deployment builds and runs inside a folder collecting services, and that talks
to nothing (no store, broker or service: a worker or a command-line client does) and is no application
its users run themselves (a mobile or desktop app), is code no deployment runs: it stays in the model as
code (kind ``library``, with the role saying so), not as a running component.
A repository whose deployment builds no service's own folder says nothing about the others.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import is_under

RUNNING = ("service", "webapp", "gateway")
# Folders an open-core repository keeps its licensed edition in.
EDITION_DIRS = frozenset({"ee", "enterprise"})


def _parent(path: str) -> str:
    parent = PurePosixPath(path).parent.as_posix()
    return "" if parent == "." else parent


class UndeployedRules(ResolverBase):
    """Service projects no deployment runs, beside those it runs, are code, not running components."""

    def undeployed_code(self) -> None:
        recipes = {(f.repository, _parent(f.path)) for f in self.by_kind["docker.from"]}
        deployed: dict[str, set[str]] = {}  # repository -> build roots of deployed services with a recipe there
        for comp in self.model.components.values():
            if comp.kind in RUNNING and comp.attributes.get("deployment"):
                for repo, root in comp.source_roots:
                    if root and any(r == repo and is_under(d, root) for r, d in recipes):
                        deployed.setdefault(repo, set()).add(root)
        # (once, not per candidate: who talks to something, and what the user reaches directly)
        talking = {src for src, _dst, *_rest in self.model.connections}
        used_directly = {dst for src, dst, *_rest in self.model.connections if self.model.components[src].kind == "user"}
        running_repos = {c.repository for c in self.model.components.values()
                         if c.kind in RUNNING and c.attributes.get("deployment") and c.source_roots}
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind in RUNNING and not comp.attributes.get("deployment") and not comp.attributes.get("part_of") \
                    and comp.source_roots and comp.repository in running_repos and all(
                        EDITION_DIRS & {p.lower() for p in root.split("/")} for _r, root in comp.source_roots):
                # an open-core repository's licensed edition (ee/api, ee/recommendation) that the deployment it
                # ships does not run: the paid add-ons, code here, not parts of the system people install
                comp.kind = "library"
                comp.attributes["role"] = "enterprise edition code no deployment runs"
                self.credit(comp.rules)
                continue
            if comp.kind not in RUNNING or comp.attributes.get("deployment") or comp.attributes.get("part_of") \
                    or not comp.source_roots or comp.repository not in deployed:
                continue
            roots = deployed[comp.repository]
            if any(is_under(r, root) or is_under(root, r) for _repo, root in comp.source_roots for r in roots):
                continue  # its code is (part of) a deployed service's
            if cid in talking:
                continue  # it talks to something (a store, a broker, the system's services): it does work
            if cid in used_directly:
                continue  # an application its users run themselves (a mobile or desktop app, a browser extension)
            beside = None
            for _repo, root in comp.source_roots:
                folder_ = root
                while _parent(folder_):  # the folder of the root (or one above it) beside a deployed root,
                    # in a folder collecting services (src/Services/), not at the repository's top
                    if any(_parent(r) == _parent(folder_) and r != folder_ for r in roots):
                        beside = folder_
                        break
                    folder_ = _parent(folder_)
                if beside is None or any(r == comp.repository and is_under(d, beside) for r, d in recipes):
                    beside = None
                    break  # a folder with a recipe of its own is built, whatever runs it
            if beside is None:
                continue
            comp.kind = "library"
            comp.attributes["role"] = "service code no deployment runs"
            self.credit(comp.rules)
