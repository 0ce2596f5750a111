"""A store container in the application's own pod: the application's database, a component of its own.

Why: small Kubernetes deployments often run the database in the same pod as the application (a
Deployment with two containers, the server and ``postgres:14``), reached on the pod's loopback
address (``postgres://atuin@localhost/atuin``). Read as one workload, the database disappears into
the application. A container beside the first whose image is a known store, cache, broker or search
engine is that store: a component named after the container, which the pod's application uses.
Sidecars that are not stores (proxies, log shippers, exporters) stay part of the workload.
"""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL, image_basename, tech_for_image
from repomodeler.records import Fact

STORE_KINDS = ("database", "cache", "broker", "search", "storage")


class PodStoreRules(ResolverBase):
    """``kubernetes.pod-stores``."""

    def pod_stores(self) -> None:
        for f in sorted(self.by_kind["k8s.container"], key=Fact.order):
            found = tech_for_image(f.get("image"))
            if found is None or found[1] not in STORE_KINDS:
                continue
            tech, kind = found
            pod = self.alias.get((f.get("pod") or "").lower())
            if pod is None or self.model.components[pod].kind not in ("service", "gateway"):
                continue
            name = f.get("name") or tech
            target = self.alias.get(name.lower())
            if target is None or target == pod:
                image = f.get("image") or ""
                target = self.add_component(
                    name if target is None else f"{name}-{kind}", kind, f.repository, f.evidence,
                    aliases=tuple(a for a in (image_basename(image),) if a and a.lower() not in self.alias),
                    attributes={"technology": tech, "image": image, "deployment": "kubernetes",
                                "pod": self.model.components[pod].name}).id
            self.connect(pod, target, TECH_PROTOCOL.get(tech, "tcp"), [f.evidence],
                         attributes={"via": "store container in its pod"})
