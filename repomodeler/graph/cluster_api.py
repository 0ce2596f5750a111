"""The Kubernetes API server as the systems that extend it use it: people apply custom resources to it, and it
calls the admission webhooks and the aggregated APIs the system registers.

Why: a controller or operator is driven through the cluster's API: its users write objects of the resource types
it adds (``kind: CustomResourceDefinition``), and the API server itself calls the system's webhook Services on
each admission (``ValidatingWebhookConfiguration``, ``MutatingWebhookConfiguration``), and proxies an API group a
system serves itself (``APIService``: the metrics adapter the autoscaler reads through it). None shows in the code
as a call: the users' edge is the CRDs, the API server's the webhook configuration. Both are drawn only where the
system's own code is a client of the API server (its informers or controller-runtime made that node).
"""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Fact

API_HOST = "kubernetes.default.svc"


class ClusterApiRules(ResolverBase):
    """``kubernetes.custom-resources``, ``kubernetes.admission-webhooks`` and ``kubernetes.aggregated-apis``."""

    def _api_server(self) -> str | None:
        found = sorted(c.id for c in self.model.components.values()
                       if (c.attributes.get("host") or c.name).lower() == API_HOST)
        return found[0] if found else None

    def custom_resource_users(self) -> None:
        api = self._api_server()
        crds = sorted(self.by_kind["k8s.crd"], key=Fact.order)
        if api is None or not crds:
            return
        kinds = sorted({f.get("kind") or f.get("name") or "" for f in crds} - {""})
        # the people applying the resources are the system's users, whether or not a front door made them yet
        self.connect(self.people_actor(crds[0].evidence), api, "https", [crds[0].evidence],
                     attributes={"via": f"applies the system's custom resources ({len(kinds)} kinds: "
                                        + ", ".join(kinds[:5]) + (", ..." if len(kinds) > 5 else "") + ")"})

    def admission_webhooks(self) -> None:
        api = self._api_server()
        if api is None:
            return
        for f in sorted(self.by_kind["k8s.webhook"], key=Fact.order):
            target = self.alias.get((f.get("service") or "").lower())
            if target is None or target == api or self.model.components[target].kind not in ("service", "gateway"):
                continue
            self.connect(api, target, "https", [f.evidence],
                         attributes={"via": f"admission webhook {f.get('configuration') or ''}".strip()})

    def aggregated_apis(self) -> None:
        api = self._api_server()
        if api is None:
            return
        for f in sorted(self.by_kind["k8s.apiservice"], key=Fact.order):
            target = self.alias.get((f.get("service") or "").lower())
            if target is None or target == api or self.model.components[target].kind not in ("service", "gateway"):
                continue
            self.connect(api, target, "https", [f.evidence],
                         attributes={"via": f"aggregated API {f.get('name') or f.get('group') or ''}".strip()})
