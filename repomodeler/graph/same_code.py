"""Deployments of the same code in several descriptors: one component.

Why: a repository often says how to run its services more than once — a compose file, a Tye
application file, a .NET Aspire AppHost, Kubernetes manifests — each naming the same program
differently (``eshop-st-administration``, ``administration-service``, ``administrationService``).
They are alternative ways to start one program, not three programs; drawn apart, every service
appears three times and each copy holds a third of its links. The code a deployment runs (its
build root) is what they share, so deployments from *different* descriptor files with the same one
build root are one component, known by all their names. Within one file, services sharing a build
are separate instances (an API and a worker of one image) and stay apart.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase

# Which descriptor's name the merged component keeps: the deployment as it runs (compose, Kubernetes)
# before a developer's process runners (Tye, Aspire).
_RANK = {"compose": 0, "kubernetes": 1, "tye": 2, "aspire": 3}


class SameCodeRules(ResolverBase):
    """One component for the deployments of one build root across descriptor files."""

    def same_code_deployments(self) -> None:
        overridden = {(f.repository, (f.get("owner") or "").lower()) for f in self.by_kind["program.command"]
                      if f.get("source") == "compose"}
        groups: dict[tuple[str, str], list[str]] = defaultdict(list)
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            roots = {(r, root) for r, root in comp.source_roots if root}
            if comp.kind not in ("service", "gateway", "webapp") or not comp.attributes.get("deployment") \
                    or len(roots) != 1 or (comp.repository, comp.name.lower()) in overridden:
                continue  # (a service running another command than its image's is another program of that code)
            groups[next(iter(roots))].append(cid)
        for _root, members in sorted(groups.items()):
            files = {cid: self._descriptor_file(cid) for cid in members}
            if len(members) < 2 or len(set(files.values())) < len(members):
                continue  # one descriptor running a build twice: two instances (api and worker of one image)
            keep = min(members, key=lambda c: (self._descriptor_rank(c), files[c], c))
            for cid in sorted(set(members) - {keep}):
                self.fold_component(cid, keep)

    def _descriptor_file(self, cid: str) -> tuple[str, str]:
        """The descriptor that deployed the component: its first evidence (repository, path)."""
        first = min(self.model.components[cid].evidence)
        return first.repository, first.path

    def _descriptor_rank(self, cid: str) -> int:
        comp = self.model.components[cid]
        path = self._descriptor_file(cid)[1].rsplit("/", 1)[-1].lower()
        if path in ("tye.yaml", "tye.yml"):
            return _RANK["tye"]
        return _RANK.get(comp.attributes.get("deployment") or "", len(_RANK))
