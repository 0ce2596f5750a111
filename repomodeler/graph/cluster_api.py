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
from collections import defaultdict
from collections.abc import Callable

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import IMAGE_TECH, KUBE_API_ALIASES, KUBE_API_HOST, STORE_KINDS, image_basename, tech_for_image
from repomodeler.graph.identity import key
from repomodeler.records import Evidence, Fact
# Kubernetes client libraries, any part of them (a plain clientset too): Go's client-go and controller-runtime, the
# Python, JavaScript, Java (official and fabric8), .NET and Rust clients.
# The part of client-go that loads a kubeconfig (a user's credentials for a cluster), not the in-cluster account.
KUBECONFIG_LOADER = re.compile(r"^k8s\.io/client-go/tools/clientcmd(/.*)?$")
KUBE_CLIENT = re.compile(r"^(k8s\.io/client-go(/.*)?|sigs\.k8s\.io/controller-runtime(/.*)?|kubernetes(\.(client|config|watch)(\..*)?)?"
                         r"|kubernetes_asyncio(\..*)?|@kubernetes/client-node|io\.fabric8\.kubernetes\.client(\..*)?"
                         r"|io\.kubernetes\.client(\..*)?|k8s|kube(::.*)?|kube_client(::.*)?)$")


# Bindings only to use a pod security policy or an OpenShift security context constraint: no use of the API.
POLICY_ONLY = re.compile(r"(^|[-_:.\s])(psp|podsecuritypolic(y|ies)|scc|securitycontextconstraints?)([-_:.\s]|$)", re.I)


# Monitoring and logging servers an operator runs from a resource of their name (kind: Grafana, Prometheus,
# Alertmanager), beside the stores the image catalog knows (Kafka, Postgresql, RedisCluster...).
MANAGED_TOOLS = frozenset({"grafana", "prometheus", "alertmanager", "kibana", "jaeger", "loki", "tempo", "mimir",
                           "opensearchdashboards"})
# Words a resource kind adds to the technology it instantiates (RedisCluster, RabbitmqCluster, MongoDBCommunity)
INSTANCE_SUFFIX = re.compile(r"(cluster|instance|server|community|replicaset)$")
# Kinds naming no technology themselves (cloudnative-pg's Cluster, MinIO's Tenant): the API group's first label does
# (postgresql.cnpg.io, minio.min.io)
GENERIC_KINDS = frozenset({"cluster", "instance", "tenant", "server"})


def managed_technology(kind: str, group: str) -> tuple[str, str, str] | None:
    """(name, technology, component kind) of the software a custom resource of `kind` (in API `group`) runs: its kind
    names it whole (Kafka, Grafana, postgresql) or as an instance of it (RedisCluster); a generic kind goes by its
    group.  None for the resources that configure or extend a technology (KafkaTopic, GrafanaDashboard,
    PrometheusRule): they run nothing of their own."""
    word = kind.lower()
    if word in GENERIC_KINDS:
        word = group.split(".", 1)[0].lower()
    stem = INSTANCE_SUFFIX.sub("", word) or word
    for w in dict.fromkeys((word, stem)):
        if w in MANAGED_TOOLS:
            return w, w, "service"
        # (the whole word is the technology's image name, minio or postgresql, mongodb for mongo; not a prefix of
        # it, kafkatopic)
        for pattern, tech, kind_of in IMAGE_TECH:
            if kind_of in STORE_KINDS and any(re.fullmatch(pattern.pattern, x) for x in (w, re.sub(r"db$", "", w))):
                return w, tech, kind_of
    return None


# An image reference with a registry or owner and a tag (ghcr.io/keptn/deno-runtime:v3.0.1): never a host and port
IMAGE_REFERENCE = re.compile(r"^[a-z0-9][a-z0-9.-]*(?::\d+)?/[a-z0-9._/-]+:[A-Za-z0-9][\w.-]*$")


class ClusterApiRules(ResolverBase):
    """``kubernetes.custom-resources``, ``kubernetes.admission-webhooks``, ``kubernetes.aggregated-apis``,
    ``kubernetes.api-clients``, ``kubernetes.managed-instances`` and ``kubernetes.launched-images``."""

    def _api_server(self) -> str | None:
        found = sorted(c.id for c in self.model.components.values()
                       if (c.attributes.get("host") or c.name).lower() == KUBE_API_HOST)
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

    def managed_instances(self) -> None:
        """An operator adding a resource type named for a technology (kind: Kafka, Grafana, Postgresql, RedisCluster;
        cloudnative-pg's Cluster of postgresql.cnpg.io) runs that technology for its users: one component of it (the
        one the system's manifests already name, if any), which the operator manages and the users use.  The
        operator is the client of the API server named for the technology or the resources' API group."""
        api = self._api_server()
        if api is None:
            return
        clients: dict[str | None, set[str]] = defaultdict(set)  # repository -> its programs calling the API server
        for k in self.model.connections:
            if k[1] == api and self.model.components[k[0]].kind in ("service", "gateway"):
                clients[self.model.components[k[0]].repository].add(k[0])
        for f in sorted(self.by_kind["k8s.crd"], key=Fact.order):
            found = managed_technology(f.get("kind") or "", f.get("group") or "")
            if found is None:
                continue
            name, tech, kind = found
            words = {name, tech, (f.get("group") or "").split(".")[0].lower()} - {""}
            named = sorted(c for c in clients[f.repository] if any(w in c.lower() for w in words))
            # (a client of the API server not named for it may be watching another project's resources whose
            # definitions the repository keeps a copy of: monitoring/.../prometheus-operator/crd-alertmanager.yaml)
            operator = named[0] if len(named) == 1 else None
            existing = sorted(c.id for c in self.model.components.values() if c.id != operator and (
                (c.attributes.get("technology") or "") == tech or c.id in (name, tech)) and c.kind in (kind, *STORE_KINDS))
            if len(existing) > 1 or (operator is None and not existing):
                continue  # several of it (which one the resources make is not told), or no operator of it known
            via = f"the {f.get('kind')} resources ({f.get('name')}) the operator runs"
            target = existing[0] if existing else self.add_component(
                name, kind, None, f.evidence, attributes={"technology": tech, "managed_by": operator or "",
                                                          "role": f"run by the operator from {f.get('kind')} resources"}).id
            protocol = "https" if kind == "service" else "tcp"
            if operator is not None:
                self.connect(operator, target, protocol, [f.evidence], attributes={"via": f"manages {via}"})
            self.connect(self.people_actor(f.evidence), target, protocol, [f.evidence], attributes={"via": f"uses {via}"})

    def launched_images(self) -> None:
        """A workload handed the image of another program of the system in a setting (``FUNCTION_RUNNER_IMAGE:
        ghcr.io/keptn/deno-runtime:v3.0.1``) starts containers of it: a task runner's jobs, an operator's pods."""
        for f in sorted(self.by_kind["config.env"], key=Fact.order):
            value = (f.get("value") or "").strip()
            if f.get("source") != "kubernetes" or not IMAGE_REFERENCE.match(value):
                continue
            owner = self.alias.get((f.get("owner") or "").lower())
            target = self.alias.get(image_basename(value).lower())
            if owner is None or target is None or owner == target:
                continue
            comp = self.model.components[target]
            if comp.kind != "service" or comp.repository is None or self.model.components[owner].kind != "service":
                continue  # (a store's image an operator runs is the technology's, not a program of the system)
            self.connect(owner, target, "process", [f.evidence], kind="spawns",
                         attributes={"via": f"starts its image ({f.get('name')})"})

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

    def _project_image(self, comp) -> bool:
        """Is the component's image published by the project whose repository deploys it (its registry namespace or
        name goes with a name the project goes by: `quay.io/kubescape/operator` of the Kubescape operator's charts),
        not another product's (a `fluent/fluentd-kubernetes-daemonset` log shipper given rights to read pods)?"""
        image = (comp.attributes.get("image") or "").split("@")[0]
        parts = [key(p) for p in re.split(r"[/:]", image)[:-1] if p] + [key(image_basename(image))]
        names = [key(n) for n in self.project_names(comp.repository or "") if key(n)]
        return any(p and (p.startswith(n) or n.startswith(p)) for p in parts for n in names if len(p) >= 3)

    def rbac_api_clients(self) -> None:
        """A workload whose service account the manifests grant rights in the API (a RoleBinding or
        ClusterRoleBinding names it) and whose code imports a Kubernetes client, itself or through a library of
        the system it depends on, calls the API server: the rights are what the client uses (a dashboard's API
        listing pods, a web server reading its settings ConfigMap).  Without the binding a client library's
        import may be an optional backend."""
        # (a binding only to use a pod security policy or OpenShift security context constraint grants no API use)
        bound = {(f.repository, f.get("service_account") or "")
                 for f in [*self.by_kind["k8s.cluster_binding"], *self.by_kind["k8s.role_binding"]]
                 if not POLICY_ONLY.search(f"{f.get('binding') or ''} {f.get('role') or ''}")}
        granted: dict[str, Evidence] = {}
        borrowed: set[str] = set()  # workloads running under another workload's account (a CronJob poking it)
        for f in sorted(self.by_kind["k8s.workload"], key=Fact.order):
            cid = self.alias.get((f.get("name") or "").lower())
            if cid and f.get("service_account") and (f.repository, f.get("service_account")) in bound:
                granted.setdefault(cid, f.evidence)
                if self.alias.get((f.get("service_account") or "").lower()) not in (None, cid):
                    borrowed.add(cid)
        # A program of a system that runs on Kubernetes that no deployment runs (its command-line tool, people's to
        # run) and that loads the user's kubeconfig (client-go's clientcmd) calls the API server of the cluster
        # that names: it installs, inspects or proxies the system there, with the user's rights.
        # (itself, or through a library of the system it depends on: the project's own client package)
        on_cluster = {f.repository for f in self.by_kind["k8s.workload"]}
        loaders: dict[str, Evidence] = {}  # a library of the system loading a kubeconfig -> where
        for f in sorted(self.by_kind["import"], key=Fact.order):
            if f.repository in on_cluster and KUBECONFIG_LOADER.match(f.get("module") or ""):
                runners = self._code_runners(f)
                owner = self.owner_of(f.repository, f.path)
                if not runners and owner and self.model.components[owner].kind == "library":
                    loaders.setdefault(owner, f.evidence)
                for o in runners:
                    comp = self.model.components[o]
                    if comp.kind == "service" and not comp.attributes.get("deployment") and o not in granted:
                        granted[o] = f.evidence
        for (source, target, _protocol), conn in sorted(self.model.connections.items()):
            comp = self.model.components[source]
            if target in loaders and conn.kind == "depends_on" and comp.kind == "service" \
                    and not comp.attributes.get("deployment") and source not in granted:
                granted[source] = loaders[target]
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
        # A workload of the system's own published image whose code the inputs do not hold (a chart repository's
        # operator, agent and scanner) has only its rights to show it: the rights are what it uses.  (Not a store's
        # image: a database or broker given an account reads its peers' addresses, people do not drive it by the API.)
        for cid, ev in sorted(granted.items()):
            comp = self.model.components[cid]
            if cid not in clients and cid not in borrowed and comp.kind in ("service", "gateway") and comp.attributes.get("deployment") \
                    and not self.has_code(comp) and not tech_for_image(comp.attributes.get("image") or "") \
                    and self._project_image(comp):
                clients[cid] = ev
        api = self._api_server()
        for cid, ev in sorted(clients.items()):
            if api is None:
                api = self.add_component(KUBE_API_HOST, "external", None, ev, aliases=KUBE_API_ALIASES,
                                         attributes={"host": KUBE_API_HOST}).id
            if not any(k[0] == cid and k[1] == api for k in self.model.connections):
                self.connect(cid, api, "https", [ev, granted[cid]],
                             attributes={"via": "kubernetes client with rights its service account is bound to"})
        if api is None:
            return
        # A program people reached for want of any published door (the system's one program, or a server with a port
        # nothing publishes) is a controller acting on the cluster's objects (a reboot daemon, a DNS or reload
        # controller): people drive it through the API server, by the objects they write, not by calling it
        for k in sorted(self.model.connections):
            conn = self.model.connections.get(k)
            if conn is None or conn.attributes.get("door") != "unpublished" \
                    or self.model.components[k[1]].attributes.get("deployment") != "kubernetes":
                continue
            to_api = sorted(c for c in self.model.connections if c[0] == k[1] and c[1] == api)
            if not to_api:
                continue
            del self.model.connections[k]
            self.created_by.pop(k, None)
            self.connect(k[0], api, "https", sorted(self.model.connections[to_api[0]].evidence),
                         attributes={"via": f"drives {k[1]} through the objects it watches"})
