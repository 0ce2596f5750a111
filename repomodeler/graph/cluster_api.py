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

import re
from collections.abc import Callable

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence, Fact

API_HOST = "kubernetes.default.svc"
API_ALIASES = ("kube-api", "kubernetes api", "kube-apiserver", "kubernetes")
# Kubernetes client libraries, any part of them (a plain clientset too): Go's client-go and controller-runtime, the
# Python, JavaScript, Java (official and fabric8), .NET and Rust clients.
KUBE_CLIENT = re.compile(r"^(k8s\.io/client-go(/.*)?|sigs\.k8s\.io/controller-runtime(/.*)?|kubernetes(\.(client|config|watch)(\..*)?)?"
                         r"|kubernetes_asyncio(\..*)?|@kubernetes/client-node|io\.fabric8\.kubernetes\.client(\..*)?"
                         r"|io\.kubernetes\.client(\..*)?|k8s|kube(::.*)?|kube_client(::.*)?)$")


class ClusterApiRules(ResolverBase):
    """``kubernetes.custom-resources``, ``kubernetes.admission-webhooks``, ``kubernetes.aggregated-apis`` and
    ``kubernetes.api-clients``."""

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
        user = self.people_actor(crds[0].evidence)
        # ... and they drive its controllers through the API server, not by calling them: a workload of the
        # system that is a client of the API server, reached by no Ingress and published by no LoadBalancer or
        # NodePort Service, is no front door of its own (a UI or a gateway still is)
        exposed = {self.alias.get((f.get("name") or "").lower()) for f in self.by_kind["k8s.service"]
                   if f.get("type") in ("LoadBalancer", "NodePort")} | set(getattr(self, "ingress_routes", {}) or {})
        for k in sorted(self.model.connections):
            target = self.model.components[k[1]]
            if k[0] == user and target.kind == "service" and k[1] not in exposed \
                    and target.attributes.get("deployment") == "kubernetes" \
                    and (self.model.connections[k].attributes.get("via") or "") == "published entry point" \
                    and any(c[0] == k[1] and c[1] == api for c in self.model.connections) \
                    and "ui" not in target.attributes.get("platform_role", "").split(","):
                del self.model.connections[k]
                self.created_by.pop(k, None)
        self.connect(user, api, "https", [crds[0].evidence],
                     attributes={"via": f"applies the system's custom resources ({len(kinds)} kinds: "
                                        + ", ".join(kinds[:5]) + (", ..." if len(kinds) > 5 else "") + ")"})

    def admission_webhooks(self) -> None:
        self._api_server_calls("k8s.webhook", lambda f: f"admission webhook {f.get('configuration') or ''}")

    def aggregated_apis(self) -> None:
        self._api_server_calls("k8s.apiservice", lambda f: f"aggregated API {f.get('name') or f.get('group') or ''}")

    def _api_server_calls(self, kind: str, via: Callable[[Fact], str]) -> None:
        """The API server calls the workload behind the Service each fact of `kind` registers."""
        api = self._api_server()
        if api is None:
            return
        for f in sorted(self.by_kind[kind], key=Fact.order):
            target = self.alias.get((f.get("service") or "").lower())
            if target is None or target == api or self.model.components[target].kind not in ("service", "gateway"):
                continue
            self.connect(api, target, "https", [f.evidence], attributes={"via": via(f).strip()})

    def rbac_api_clients(self) -> None:
        """A workload whose service account the manifests grant rights in the API (a RoleBinding or
        ClusterRoleBinding names it) and whose code imports a Kubernetes client, itself or through a library of
        the system it depends on, calls the API server: the rights are what the client uses (a dashboard's API
        listing pods, a web server reading its settings ConfigMap).  Without the binding a client library's
        import may be an optional backend."""
        bound = {(f.repository, f.get("service_account") or "")
                 for f in [*self.by_kind["k8s.cluster_binding"], *self.by_kind["k8s.role_binding"]]}
        granted: dict[str, Evidence] = {}
        for f in sorted(self.by_kind["k8s.workload"], key=Fact.order):
            cid = self.alias.get((f.get("name") or "").lower())
            if cid and f.get("service_account") and (f.repository, f.get("service_account")) in bound:
                granted.setdefault(cid, f.evidence)
        if not granted:
            return
        clients: dict[str, Evidence] = {}
        libraries: dict[str, Evidence] = {}  # a library of the system wrapping the client (modules/common/client)
        for f in sorted(self.by_kind["import"], key=Fact.order):
            if not KUBE_CLIENT.match(f.get("module") or ""):
                continue
            for o in self._code_runners(f):
                if o in granted:
                    clients.setdefault(o, f.evidence)
            owner = self.owner_of(f.repository, f.path)
            if owner and self.model.components[owner].kind == "library":
                libraries.setdefault(owner, f.evidence)
        for k in sorted(self.model.connections):
            if k[0] in granted and k[1] in libraries and self.model.connections[k].kind == "depends_on":
                clients.setdefault(k[0], libraries[k[1]])
        api = self._api_server()
        for cid, ev in sorted(clients.items()):
            if api is None:
                api = self.add_component(API_HOST, "external", None, ev, aliases=API_ALIASES,
                                         attributes={"host": API_HOST}).id
            if not any(k[0] == cid and k[1] == api for k in self.model.connections):
                self.connect(cid, api, "https", [ev, granted[cid]],
                             attributes={"via": "kubernetes client with rights its service account is bound to"})
