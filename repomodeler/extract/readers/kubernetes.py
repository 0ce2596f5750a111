"""Kubernetes manifests and kustomizations: workloads, services, ConfigMaps, ingresses (and the Gateway
API's HTTPRoutes and GRPCRoutes, which route as an Ingress does), bindings,
and the charts GitOps controllers install (Flux HelmRelease, Argo CD Application)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.readers._base import Reader, fact, idle_command
from repomodeler.extract.readers._templates import TEMPLATE_SUFFIX, strip_template
from repomodeler.extract.readers._yaml import get, items, load_yaml_documents, node_line, scalar, seq, yaml
from repomodeler.extract.readers.traefik import is_traefik_dynamic, traefik_routes
from repomodeler.extract.readers.kong import is_kong_declarative, kong_routes
from repomodeler.extract.readers.prometheus import is_prometheus_config, prometheus_facts
from repomodeler.extract.readers.nginx import is_nginx_entry, nginx_entry_routes
from repomodeler.records import Fact

_K8S_HINT = re.compile(r"^\s*apiVersion\s*:", re.M)

# (an OpenShift DeploymentConfig is its platform's Deployment: a pod template the cluster runs and scales)
# Knative Eventing's resources read (graph/knative.py): brokers, triggers, the event sources and Kafka sinks.
KNATIVE_EVENTING = frozenset({"Broker", "Trigger", "KafkaSink", "KafkaSource", "PingSource", "ApiServerSource",
                              "ContainerSource", "SinkBinding", "KafkaChannel", "InMemoryChannel", "Subscription"})
_WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "ReplicaSet", "Pod", "DeploymentConfig"}


def _core_api(api_version: str) -> bool:
    """Is `api_version` one of Kubernetes' own workload API groups (``v1``, ``apps/v1``, ``batch/v1``,
    ``extensions/v1beta1``), not a custom resource's group?"""
    group = api_version.split("/", 1)[0] if "/" in api_version else ""
    return group in ("", "apps", "batch", "extensions", "apps.openshift.io")


def _objects(doc: yaml.Node) -> list[yaml.Node]:
    """The objects a document holds: itself, or each of a ``List``'s ``items`` and of an OpenShift ``Template``'s
    ``objects`` (what ``oc process`` instantiates, its ``${PARAMETERS}`` filled with their defaults), nested ones too."""
    kind = scalar(get(doc, "kind"))
    api = scalar(get(doc, "apiVersion")) or ""
    if kind in ("List", "Template") and api in ("v1", "template.openshift.io/v1"):
        if kind == "Template":
            _fill_parameters(doc)
        return [o for item in seq(get(doc, "items" if kind == "List" else "objects")) for o in _objects(item)]
    return [doc]


# `${NAME}` (a string parameter) and `${{NAME}}` (a non-string one) in an OpenShift template's objects
_PARAMETER = re.compile(r"\$\{\{?([A-Za-z_][A-Za-z0-9_]*)\}?\}")


def _fill_parameters(template: yaml.Node) -> None:
    """Put each parameter's default value (``parameters: [{name: APPLICATION_NAME, value: inventory}]``) where the
    template's objects write ``${APPLICATION_NAME}``, as ``oc process`` does when given nothing; a parameter with
    no default (a password it generates, one the user must give) stays written as it is."""
    values = {scalar(get(p, "name")): scalar(get(p, "value")) for p in seq(get(template, "parameters"))}
    values = {k: v for k, v in values.items() if k and v is not None and "${" not in v}
    if not values:
        return
    todo = [get(template, "objects")]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.ScalarNode):
            if "${" in str(node.value):
                node.value = _PARAMETER.sub(lambda m: values.get(m.group(1), m.group(0)), node.value)
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            todo.extend(v for _k, v in node.value)


def _trigger_image(doc: yaml.Node, container: yaml.Node | None) -> str | None:
    """The image stream tag a DeploymentConfig's image-change trigger puts into the container (``web-ui:latest``),
    where the manifest leaves the container's own image blank for OpenShift to fill in."""
    cname = scalar(get(container, "name"))
    for trigger in seq(get(get(doc, "spec"), "triggers")):
        params = get(trigger, "imageChangeParams")
        names = [scalar(n) for n in seq(get(params, "containerNames"))]
        source = get(params, "from")
        if scalar(get(source, "kind")) == "ImageStreamTag" and scalar(get(source, "name")) and (not names or cname in names):
            return scalar(get(source, "name"))
    return None


def _sizing(doc: yaml.Node, containers: list[yaml.Node]) -> dict[str, str]:
    """How a workload is sized, as written: ``replicas`` of its spec and the first container's
    ``resources`` (``cpu_request``, ``memory_limit``...: Kubernetes quantities such as ``100m`` or
    ``64Mi``, which the SysML emitter turns into numbers and units).  Only what the manifest states."""
    out: dict[str, str] = {}
    replicas = scalar(get(get(doc, "spec"), "replicas"))
    if replicas:
        out["replicas"] = replicas
    resources = get(containers[0], "resources") if containers else None
    for side, prefix in (("requests", "request"), ("limits", "limit")):
        values = get(resources, side)
        for what in ("cpu", "memory"):
            value = scalar(get(values, what))
            if value:
                out[f"{what}_{prefix}"] = value
    return out


def _image_name(image: str) -> str:
    """The image's own name, without registry, owner or tag (``{{ .Values.repo }}/kraken-tracker:v1`` ->
    ``kraken-tracker``)."""
    last = image.split("@")[0].rsplit("/", 1)[-1]
    return last.split(":", 1)[0].strip().lower()


def _main_first(containers: list, workload: str) -> list:
    """The pod's containers with its program first: the first one, unless a later container is named after
    the workload or runs the image named after it (``kraken-tracker`` running ``redis:5.0`` then
    ``.../kraken-tracker:v1``): that one is the program, the others its sidecars (rule kubernetes.pod-stores
    reads a store among them)."""
    want = workload.lower()
    first = containers[0] if containers else None
    if first is None or _image_name(scalar(get(first, "image")) or "") == want \
            or (scalar(get(first, "name")) or "").lower() == want:
        return containers
    for i, c in enumerate(containers[1:], start=1):
        if _image_name(scalar(get(c, "image")) or "") == want or (scalar(get(c, "name")) or "").lower() == want:
            return [c, *containers[:i], *containers[i + 1:]]
    return containers


def _pod_spec(doc: yaml.Node, kind: str) -> yaml.Node | None:
    if kind == "Pod":
        return get(doc, "spec")
    if kind == "CronJob":
        return get(get(get(get(get(doc, "spec"), "jobTemplate"), "spec"), "template"), "spec")
    return get(get(get(doc, "spec"), "template"), "spec")


_APP_LABELS = ("app", "app.kubernetes.io/name", "k8s-app", "service")


def _asks_scrape(annotations: object) -> bool:
    """Does an object's annotations ask Prometheus's Kubernetes discovery to scrape it (`prometheus.io/scrape:
    "true"`, the convention the example configurations keep)?"""
    return (scalar(get(annotations, "prometheus.io/scrape")) or "").strip().lower() == "true"


def _app_label(labels: yaml.Node | None) -> str | None:
    """The application a workload's pods belong to, by the labels that conventionally name it."""
    for k in _APP_LABELS:
        value = scalar(get(labels, k))
        if value and "{{" not in value:
            return value
    return None


def _label_set(labels: yaml.Node | None) -> str:
    """Labels or a selector as sorted ``key=value`` pairs joined by commas; empty when any value is
    a template (Helm ``{{ }}``) whose value is only known at deploy time."""
    pairs = []
    for k, v in items(labels):
        value = scalar(v)
        if value is None or "{{" in value or "{{" in k.value:
            return ""
        pairs.append(f"{k.value}={value}")
    return ",".join(sorted(pairs))


def read_kubernetes(repo: str, path: str, text: str) -> list[Fact]:
    facts: list[Fact] = []
    for doc in (o for d in load_yaml_documents(text) for o in _objects(d)):
        kind = scalar(get(doc, "kind"))
        if PurePosixPath(path).name.startswith("kustomization") and kind != "Component" and any(
                (scalar(r) or "").startswith("../") and not (scalar(r) or "").endswith((".yaml", ".yml", ".json"))
                for r in seq(get(doc, "resources"))):
            # A kustomize overlay (`resources: [../../base]`): one deployment variant (development,
            # production) of a base. What only an overlay adds is opted into, like a compose variant.
            facts.append(fact("k8s.variant", repo, path, node_line(doc), folder=str(PurePosixPath(path).parent)))
            continue
        if not kind or get(doc, "apiVersion") is None:
            continue
        if kind == "Component" and (scalar(get(doc, "apiVersion")) or "").startswith("dapr.io/"):
            facts.extend(_dapr_component(repo, path, doc))
            continue
        if kind == "Configuration" and (scalar(get(doc, "apiVersion")) or "").startswith("dapr.io/"):
            # the sidecars' name resolution (`nameResolution: {component: consul}`): where apps register
            resolver = get(get(get(doc, "spec"), "nameResolution"), "component")
            if scalar(resolver):
                facts.append(fact("dapr.name_resolution", repo, path, node_line(resolver),
                                  component=scalar(resolver) or ""))
            continue
        if kind == "Component" and PurePosixPath(path).name.startswith("kustomization"):
            # An optional kustomize Component: what it adds is a variant people opt into, not the base system.
            facts.append(fact("k8s.variant", repo, path, node_line(doc), folder=str(PurePosixPath(path).parent)))
            continue
        meta = get(doc, "metadata")
        name_node = get(meta, "name")
        name = scalar(name_node)
        if not name:
            continue
        line = node_line(name_node) if name_node is not None else node_line(doc)
        release = _gitops_release(doc, kind, name)
        if release is not None:
            facts.append(fact("helm.remote_release", repo, path, line, namespace=scalar(get(meta, "namespace")) or "",
                              **release))
            continue
        # Knative Eventing (eventing.knative.dev, sources.knative.dev): a Broker events are sent to, a Trigger
        # subscribing a service to it, a source (KafkaSource, PingSource...) reading from a system and sending to its
        # sink, a KafkaSink writing what it is sent to a Kafka topic
        api_version = scalar(get(doc, "apiVersion")) or ""
        if api_version.startswith(("eventing.knative.dev/", "sources.knative.dev/")) and kind in KNATIVE_EVENTING:
            spec = get(doc, "spec")
            ref = get(get(spec, "sink"), "ref") or get(get(spec, "subscriber"), "ref")
            servers = [scalar(x) or "" for x in seq(get(spec, "bootstrapServers"))]
            topics = [scalar(x) or "" for x in seq(get(spec, "topics"))] or [scalar(get(spec, "topic")) or ""]
            annotations = get(meta, "annotations")
            facts.append(fact("knative.eventing", repo, path, line, kind=kind, name=name,
                              broker=scalar(get(spec, "broker")) or "",
                              ref=scalar(get(ref, "name")) or "", ref_kind=scalar(get(ref, "kind")) or "",
                              servers=",".join(x for x in servers if x), topics=",".join(t for t in topics if t),
                              broker_class=scalar(get(annotations, "eventing.knative.dev/broker.class")) or ""))
            continue
        # A Knative Service (serving.knative.dev): a workload Knative runs and scales, answering at its name
        knative = kind == "Service" and (scalar(get(doc, "apiVersion")) or "").startswith("serving.knative.dev/")
        if kind in _WORKLOADS and not knative and not _core_api(scalar(get(doc, "apiVersion")) or ""):
            # a custom resource named like a workload (OpenKruise's apps.kruise.io StatefulSet): its operator
            # makes the pods, as it likes; not a workload of the cluster's own API
            kind = f"{kind} ({scalar(get(doc, 'apiVersion'))})"
        if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet") \
                and (scalar(get(doc, "apiVersion")) or "") == "apps/v1" and get(get(doc, "spec"), "selector") is None \
                and "patch" in PurePosixPath(path).name.lower():
            # apps/v1 requires a selector: a Deployment without one in a patch file is a kustomize patch of another
            # file's (kubebuilder's manager_auth_proxy_patch.yaml adding a proxy container), not a workload of its own
            continue
        if kind in _WORKLOADS or knative:
            if knative:
                kind = "KnativeService"
            spec = _pod_spec(doc, kind)
            labels = get(get(get(get(doc, "spec"), "template"), "metadata"), "labels") or get(meta, "labels")
            app = _app_label(labels)
            containers = _main_first(seq(get(spec, "containers")), name)
            image = scalar(get(containers[0], "image")) if containers else None
            if containers and not (image or "").strip():
                image = _trigger_image(doc, containers[0])
            ports = []
            for c in containers:
                for p in seq(get(c, "ports")):
                    cp = scalar(get(p, "containerPort"))
                    if cp:
                        ports.append(cp)
            # what the first container runs when it overrides the image's own command (a multi-call binary
            # started as `argocd-server` in one workload and `argocd-repo-server` in another)
            command = " ".join(x for x in (scalar(w) for part in ("command", "args") if containers
                                          for w in seq(get(containers[0], part))) if x)[:2000]
            if containers and all(idle_command(" ".join(x for x in (scalar(w) for part in ("command", "args")
                                                                  for w in seq(get(c, part))) if x))
                                  for c in containers):
                continue  # a toolbox pod kept alive to be exec'd into (`sleep 10000`): it runs nothing
            facts.append(fact("k8s.workload", repo, path, line, name=name, workload_kind=kind, image=image,
                               namespace=scalar(get(meta, "namespace")) or "",
                               app=app, ports=",".join(ports), labels=_label_set(labels), command=command,
                               service_account=scalar(get(spec, "serviceAccountName")) or "",
                               # a bare Pod restarted never or only on failure runs once to completion (a
                               # restore, a debug task someone applies by hand), like a Job
                               **({"runs_once": "true"} if kind == "Pod" and scalar(get(spec, "restartPolicy"))
                                  in ("Never", "OnFailure") else {}),
                               # (its pods ask Prometheus's Kubernetes discovery to scrape them)
                               **({"scrape": "true"} if _asks_scrape(get(get(get(get(doc, "spec"), "template"),
                                                                             "metadata"), "annotations")) else {}),
                               **_sizing(doc, containers)))
            for volume in seq(get(spec, "volumes")):
                # a ConfigMap the pod mounts (an nginx site kept in one: the routes are this workload's)
                mapped = scalar(get(get(volume, "configMap"), "name"))
                if mapped:
                    facts.append(fact("k8s.config_volume", repo, path, node_line(get(volume, "configMap")),
                                      owner=name, configmap=mapped))
            for c in containers[1:]:
                # a container beside the first in the same pod (a sidecar: a proxy, a log shipper, the
                # application's own database): its image says what it is (rule kubernetes.pod-stores)
                cname, cimage = scalar(get(c, "name")), scalar(get(c, "image"))
                if cname and cimage:
                    cports = [p for p in (scalar(get(x, "containerPort")) for x in seq(get(c, "ports"))) if p]
                    facts.append(fact("k8s.container", repo, path, node_line(get(c, "name")), pod=name, name=cname,
                                      image=cimage, ports=",".join(cports)))
            annotations = get(get(get(get(doc, "spec"), "template"), "metadata"), "annotations")
            app_id = get(annotations, "dapr.io/app-id")
            if scalar(app_id):  # the Dapr sidecar injected beside it answers to this app id
                facts.append(fact("dapr.app_id", repo, path, node_line(app_id), app_id=scalar(app_id), owner=name))
            for c in containers:
                for e in seq(get(c, "env")):
                    en = get(e, "name")
                    value = scalar(get(e, "value"))
                    if scalar(en) and value is not None:
                        facts.append(fact("config.env", repo, path, node_line(en), owner=name, name=scalar(en),
                                           value=value, source="kubernetes"))
                    key_ref = get(get(e, "valueFrom"), "configMapKeyRef")
                    if scalar(en) and key_ref is not None and scalar(get(key_ref, "name")) and scalar(get(key_ref, "key")):
                        # SPRING_DATASOURCE_URL from ConfigMap sql-config, key connection_string
                        facts.append(fact("k8s.env_key_ref", repo, path, node_line(en), owner=name, name=scalar(en),
                                           configmap=scalar(get(key_ref, "name")), key=scalar(get(key_ref, "key"))))
                    secret_ref = get(get(e, "valueFrom"), "secretKeyRef")
                    if scalar(en) and secret_ref is not None and scalar(get(secret_ref, "name")):
                        # STRIPE_KEY from Secret stripe-secret: the deployment hands the setting (its value unseen)
                        facts.append(fact("k8s.env_secret_ref", repo, path, node_line(en), owner=name, name=scalar(en),
                                           secret=scalar(get(secret_ref, "name")),
                                           key=scalar(get(secret_ref, "key")) or ""))
                for ef in seq(get(c, "envFrom")):
                    ref = scalar(get(get(ef, "configMapRef"), "name"))
                    if ref:
                        facts.append(fact("k8s.env_from", repo, path, node_line(ef), owner=name, configmap=ref))
        elif kind == "Service":
            spec = get(doc, "spec")
            selector = get(spec, "selector")
            app = _app_label(selector)
            ports = [p for p in (scalar(get(x, "port")) for x in seq(get(spec, "ports"))) if p]
            facts.append(fact("k8s.service", repo, path, line, name=name, app=app, ports=",".join(ports),
                               namespace=scalar(get(meta, "namespace")) or "",
                               type=scalar(get(spec, "type")), selector=_label_set(selector),
                               **({"scrape": "true"} if _asks_scrape(get(meta, "annotations")) else {})))
        elif kind == "NetworkPolicy":
            # the traffic a policy lets in or out: pods its podSelector picks reached from (ingress) or
            # reaching (egress) the pods a peer's podSelector picks; an empty selector (every pod), a namespace
            # or an IP block names no workload
            spec = get(doc, "spec")
            selected = _label_set(get(get(spec, "podSelector"), "matchLabels"))
            for direction, peers_key in (("ingress", "from"), ("egress", "to")):
                for rule in seq(get(spec, direction)):
                    ports = [p for p in (scalar(get(x, "port")) for x in seq(get(rule, "ports"))) if p]
                    for peer in seq(get(rule, peers_key)):
                        labels = _label_set(get(get(peer, "podSelector"), "matchLabels"))
                        if selected and labels and get(peer, "namespaceSelector") is None:
                            source, target = (labels, selected) if direction == "ingress" else (selected, labels)
                            facts.append(fact("k8s.network_allow", repo, path, node_line(peer), policy=name,
                                              source=source, target=target, ports=",".join(ports)))
        elif kind == "CustomResourceDefinition":
            # a resource type the system adds to the cluster's API: people drive it by applying such objects
            spec = get(doc, "spec")
            facts.append(fact("k8s.crd", repo, path, line, name=name, group=scalar(get(spec, "group")) or "",
                              kind=scalar(get(get(spec, "names"), "kind")) or ""))
        elif kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"):
            # the API server calls these Services on every admission of the objects the rules match
            for hook in seq(get(doc, "webhooks")):
                service = get(get(hook, "clientConfig"), "service")
                if scalar(get(service, "name")):
                    facts.append(fact("k8s.webhook", repo, path, node_line(get(service, "name")), configuration=name,
                                      service=scalar(get(service, "name")) or "", webhook_kind=kind,
                                      path=scalar(get(service, "path")) or ""))
        elif kind == "APIService":
            # an aggregated API (metrics.k8s.io, external.metrics.k8s.io): the API server proxies the group's
            # requests to this Service (the autoscaler's metrics reach a metrics adapter this way)
            spec = get(doc, "spec")
            service = get(spec, "service")
            if scalar(get(service, "name")):
                facts.append(fact("k8s.apiservice", repo, path, node_line(get(service, "name")), name=name,
                                  service=scalar(get(service, "name")) or "", group=scalar(get(spec, "group")) or ""))
        elif kind in ("ClusterRoleBinding", "RoleBinding"):
            # Rights for a service account (cluster-wide: what controllers, operators and agents need; in a
            # namespace: what a program reading its own ConfigMaps or Secrets through the API needs).
            role = scalar(get(get(doc, "roleRef"), "name")) or ""
            for subject in seq(get(doc, "subjects")):
                if scalar(get(subject, "kind")) == "ServiceAccount" and scalar(get(subject, "name")):
                    account = scalar(get(subject, "name")) or ""
                    if kind == "ClusterRoleBinding":
                        facts.append(fact("k8s.cluster_binding", repo, path, node_line(subject), service_account=account,
                                          binding=name, role=role))
                    else:
                        facts.append(fact("k8s.role_binding", repo, path, node_line(subject), service_account=account,
                                          binding=name, role=role))
        elif kind == "ConfigMap":
            for k, v in items(get(doc, "data")):
                value = scalar(v)
                if value is not None:
                    facts.append(fact("k8s.configmap", repo, path, node_line(k), configmap=name, name=k.value, value=value))
                    if is_kong_declarative(value):  # the gateway's DB-less routing table, mounted from here
                        facts.extend(kong_routes(repo, path, value, node_line(k) + 1, configmap=name))
                    elif is_prometheus_config(value):  # `prometheus.yml: |` for the Prometheus mounting it
                        facts.extend(prometheus_facts(repo, path, value, node_line(k) + 1, configmap=name))
                    elif is_nginx_entry(k.value or "", value):  # an nginx site (or a file it includes)
                        facts.extend(nginx_entry_routes(repo, path, name, value, node_line(k) + 1))
                    elif is_traefik_dynamic(value):  # Traefik's file-provider routing table (`dynamic.yml: |`)
                        try:
                            facts.extend(traefik_routes(repo, path, value, node_line(k) + 1))
                        except (ValueError, yaml.YAMLError):
                            pass  # (a value that is no YAML after all: the manifest's other objects still count)
        elif kind in ("HorizontalPodAutoscaler", "ScaledObject"):
            # an autoscaler (Kubernetes' own, KEDA's) sizing a workload: one written with `replicas: 0` still runs
            target = get(get(doc, "spec"), "scaleTargetRef")
            if scalar(get(target, "name")):
                facts.append(fact("k8s.autoscaled", repo, path, node_line(target), name=scalar(get(target, "name")),
                                  autoscaler=kind))
        elif kind == "Gateway" and (scalar(get(doc, "apiVersion")) or "").startswith("networking.istio.io/"):
            # an Istio Gateway: the mesh's ingress gateway pods its selector picks (`istio: ingressgateway`)
            # take outside traffic on its servers' ports
            selector = ",".join(f"{k.value}={scalar(v)}" for k, v in items(get(get(doc, "spec"), "selector")) if scalar(v))
            facts.append(fact("k8s.mesh_gateway", repo, path, line, gateway=name, selector=selector))
        elif kind == "VirtualService" and (scalar(get(doc, "apiVersion")) or "").startswith("networking.istio.io/"):
            # routes of an Istio VirtualService bound to Gateways (`gateways: [shop-gateway]`; `mesh` is the
            # sidecars' own routing, no way in): each destination host is a Service reached through them
            gateways = [g for g in (scalar(x) or "" for x in seq(get(get(doc, "spec"), "gateways"))) if g and g != "mesh"]
            for route in seq(get(get(doc, "spec"), "http")):
                prefixes = [scalar(get(get(m, "uri"), "prefix")) or scalar(get(get(m, "uri"), "exact")) or ""
                            for m in seq(get(route, "match"))]
                for dest in seq(get(route, "route")):
                    host = get(get(dest, "destination"), "host")
                    if scalar(host):
                        for gateway in gateways:
                            facts.append(fact("k8s.mesh_route", repo, path, node_line(host), gateway=gateway,
                                              service=name, target=scalar(host), route=next(iter(prefixes), "")))
        elif (kind == "HTTPProxy" and (scalar(get(doc, "apiVersion")) or "").startswith("projectcontour.io/")) or (
                kind == "IngressRoute" and (scalar(get(doc, "apiVersion")) or "").startswith(("traefik.io/", "traefik.containo.us/"))):
            # an ingress controller's own route resource (Contour's HTTPProxy, Traefik's IngressRoute): each route sends
            # matching requests to its Services (`conditions: [{prefix: /rate}]`; Traefik's match PathPrefix(`/rate`))
            facts.append(fact("k8s.ingress_resource", repo, path, line, ingress=name))
            for route in seq(get(get(doc, "spec"), "routes")):
                prefix = next((scalar(get(c, "prefix")) or "" for c in seq(get(route, "conditions")) if scalar(get(c, "prefix"))), "")
                match = re.search(r"PathPrefix\(`([^`]*)`\)", scalar(get(route, "match")) or "")
                for svc in seq(get(route, "services")):
                    target = get(svc, "name")
                    if scalar(target) and (scalar(get(svc, "kind")) or "Service") == "Service":
                        facts.append(fact("k8s.ingress", repo, path, node_line(target), ingress=name, target=scalar(target),
                                          route=prefix or (match.group(1) if match else "")))
        elif kind == "Ingress":
            facts.append(fact("k8s.ingress_resource", repo, path, line, ingress=name))
            for rule in seq(get(get(doc, "spec"), "rules")):
                for p in seq(get(get(rule, "http"), "paths")):
                    svc = get(get(get(p, "backend"), "service"), "name") or get(get(p, "backend"), "serviceName")
                    if scalar(svc):
                        facts.append(fact("k8s.ingress", repo, path, node_line(svc), ingress=name, target=scalar(svc),
                                           route=scalar(get(p, "path"))))
        elif kind in ("HTTPRoute", "GRPCRoute") and (scalar(get(doc, "apiVersion")) or "").startswith(
                "gateway.networking.k8s.io/"):
            # Kubernetes Gateway API: the route's rules send matching requests to their backend Services
            facts.append(fact("k8s.ingress_resource", repo, path, line, ingress=name))
            for rule in seq(get(get(doc, "spec"), "rules")):
                paths = [scalar(get(get(m, "path"), "value")) or "" for m in seq(get(rule, "matches"))]
                for ref in seq(get(rule, "backendRefs")):
                    svc = get(ref, "name")
                    if scalar(svc) and (scalar(get(ref, "kind")) or "Service") == "Service":
                        facts.append(fact("k8s.ingress", repo, path, node_line(svc), ingress=name, target=scalar(svc),
                                          route=paths[0] if paths else ""))
    return facts


def _gitops_release(doc: yaml.Node, kind: str, name: str) -> dict[str, str] | None:
    """A chart a GitOps controller installs from a chart repository: a Flux ``HelmRelease`` (its
    ``spec.releaseName``, else its name; the chart of ``spec.chart.spec`` or ``spec.chartRef``) or an
    Argo CD ``Application`` whose source is a Helm chart (``spec.source.chart``, the release
    ``spec.source.helm.releaseName``, else the application's name). A chart kept in a Git source (a
    path) is rendered from the repository instead; None for it and for anything else."""
    api = scalar(get(doc, "apiVersion")) or ""
    spec = get(doc, "spec")
    if kind == "HelmRelease" and api.startswith("helm.toolkit.fluxcd.io/"):
        chart_spec = get(get(spec, "chart"), "spec")
        chart = scalar(get(chart_spec, "chart")) or scalar(get(get(spec, "chartRef"), "name")) or ""
        source = scalar(get(get(chart_spec, "sourceRef"), "kind")) or scalar(get(get(spec, "chartRef"), "kind")) or ""
        if source == "GitRepository" or "/" in chart:
            return None
        return {"release": scalar(get(spec, "releaseName")) or name, "chart": chart, "controller": "flux"}
    if kind == "Application" and api.startswith("argoproj.io/"):
        for src in [get(spec, "source"), *seq(get(spec, "sources"))]:
            chart = scalar(get(src, "chart"))
            if chart:
                return {"release": scalar(get(get(src, "helm"), "releaseName")) or name, "chart": chart,
                        "controller": "argocd"}
    return None


READERS = (
    # A kustomization may omit apiVersion and kind.
    Reader("kubernetes.kustomization", "descriptor", 360, read_kubernetes,
           names=frozenset({"kustomization.yaml", "kustomization.yml"}),
           shadows=("prometheus", "otel_collector", "grafana", "compose", "kubernetes", "spring.content")),
    # Any YAML with an apiVersion: line.
    Reader("kubernetes", "descriptor", 440, read_kubernetes, patterns=(r"[^/]*\.ya?ml",),
           sniff=lambda path, head: bool(_K8S_HINT.search(head)), shadows=("spring.content",)),
    # A manifest a deploy tool renders from a template (Shopify krane's `web.yaml.erb`, an Ansible role's
    # `deployment.yaml.j2`): read as the manifest it writes, its directives taken out (see _templates).
    Reader("kubernetes.template", "descriptor", 441,
           lambda repo, path, text: read_kubernetes(repo, path, strip_template(text)),
           patterns=(r"[^/]*\.ya?ml\." + TEMPLATE_SUFFIX,),
           sniff=lambda path, head: bool(_K8S_HINT.search(head)), shadows=("spring.content",)),
)


# Dapr component metadata keys that hold the address of the backing store or broker.
_DAPR_ADDRESS_KEY = re.compile(r"(?i)(host|hosts|url|uri|endpoint|brokers|server|servers|connectionstring|address|"
                               r"servicebusnamespace|accountname|nodes)$")


def _dapr_component(repo: str, path: str, doc: yaml.Node) -> list[Fact]:
    """A Dapr component (``kind: Component``, ``spec.type: pubsub.rabbitmq``): a pub/sub broker, state
    store or binding the apps in its ``scopes`` reach through their sidecar, with the addresses its
    metadata gives (``host: amqp://rabbitmq:5672``, ``redisHost: redis:6379``)."""
    meta = get(doc, "metadata")
    name_node = get(meta, "name")
    name, ctype = scalar(name_node), scalar(get(get(doc, "spec"), "type"))
    if not name or not ctype:
        return []
    addresses = []
    for item in seq(get(get(doc, "spec"), "metadata")):
        key, value = scalar(get(item, "name")) or "", scalar(get(item, "value"))
        if value and _DAPR_ADDRESS_KEY.search(key):
            addresses.append(value)
    scopes = [s for s in (scalar(x) for x in seq(get(doc, "scopes"))) if s]
    line = node_line(name_node) if name_node is not None else node_line(doc)
    return [fact("dapr.component", repo, path, line, name=name, type=ctype, scopes=",".join(scopes),
                 addresses=" ".join(addresses), namespace=scalar(get(meta, "namespace")) or "")]
