"""A store container in the application's own pod: the application's database, a component of its own; and
another of the project's own programs run beside the application (its web UI).

Why: small Kubernetes deployments often run the database in the same pod as the application (a
Deployment with two containers, the server and ``postgres:14``), reached on the pod's loopback
address (``postgres://atuin@localhost/atuin``). Read as one workload, the database disappears into
the application. A container beside the first whose image is a known store, cache, broker or search
engine is that store: a component named after the container, which the pod's application uses.
Sidecars that are not stores (proxies, log shippers, exporters) stay part of the workload. A container
running another image the project itself publishes (``ghcr.io/opencost/opencost-ui`` beside
``ghcr.io/opencost/opencost``) is another program of the system, drawn as its own component; a user
interface (its image named ui, web, frontend, dashboard, console) is what people open, and it calls the
application beside it.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import STORE_KINDS, TECH_PROTOCOL, image_basename, tech_for_image
from repomodeler.records import Fact

def _image_owner(image: str) -> str:
    """The owner part of an image reference (``ghcr.io/acme/costs:1`` -> ``ghcr.io/acme``)."""
    path = image.split("@")[0].rsplit(":", 1)[0] if ":" in image.rsplit("/", 1)[-1] else image.split("@")[0]
    return path.rsplit("/", 1)[0].lower() if "/" in path else ""


UI_WORDS = frozenset({"ui", "web", "frontend", "dashboard", "console", "webui", "portal"})



class PodStoreRules(ResolverBase):
    """``kubernetes.pod-stores`` and ``kubernetes.pod-programs``."""

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

    def pod_programs(self) -> None:
        for f in sorted(self.by_kind["k8s.container"], key=Fact.order):
            image = f.get("image") or ""
            pod = self.alias.get((f.get("pod") or "").lower())
            if pod is None or tech_for_image(image) is not None:
                continue
            app = self.model.components[pod]
            app_image = app.attributes.get("image") or ""
            if app.kind not in ("service", "gateway") or image_basename(image).lower() == image_basename(app_image).lower():
                continue  # the same program twice (an init step, a second role of one image)
            # the project's own image: published under its name, or beside the application's image under the same
            # owner and named after it (ghcr.io/acme/costs-ui beside ghcr.io/acme/costs)
            sibling = _image_owner(image) and _image_owner(image) == _image_owner(app_image) \
                and image_basename(image).lower().startswith(image_basename(app_image).lower() + "-")
            if not (sibling or self._published_by_project(f.repository, image)):
                continue
            name = f.get("name") or image_basename(image)
            if self.alias.get(name.lower()) not in (None,):
                continue  # named like a component already
            words = set(re.split(r"[-_.]", image_basename(image).lower()))
            ui = bool(words & UI_WORDS)
            comp = self.add_component(name, "webapp" if ui else "service", f.repository, f.evidence,
                                      aliases=tuple(a for a in (image_basename(image),) if a.lower() not in self.alias),
                                      attributes={"image": image, "deployment": "kubernetes", "pod": app.name,
                                                  "ports": f.get("ports") or ""})
            if ui:  # (people open it: the front doors' rule draws them to it, as to any interface nobody calls)
                self.connect(comp.id, pod, "http", [f.evidence],
                             attributes={"via": "the application beside it in its pod"})
