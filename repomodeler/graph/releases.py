"""Charts installed from a chart repository: releases whose chart is not among the inputs.

Why: a README's ``helm install kafka oci://registry-1.docker.io/bitnamicharts/kafka``, a Flux
``HelmRelease`` of ``podinfo`` from a ``HelmRepository`` and an Argo CD ``Application`` whose source is
a Helm chart all deploy a running component the repository holds no manifest of: the store its
services' addresses name (``kafka.default.svc.cluster.local``), the application a GitOps repository
exists to run. With no chart to render, the release is still known by its name (the Service names a
chart derives start with it), by its chart, and by the technology the chart's name says (``kafka``,
``postgresql``, ``redis``). Charts that install the cluster's own machinery (a sidecar runtime such as
Dapr, a mesh, an autoscaler, a CNI) are the platform the system runs on, not parts of it. A release
named like a stand-in (``my-release``) is an example, not the project's, and so are the installs an add-on's
or a tutorial's document shows, and those of a guide in a subfolder of a repository whose compose files
deploy it (helm/defectdojo/README.md beside docker-compose.yml: another way to run it). A chart the repository holds is rendered per release instead
(:mod:`repomodeler.extract.helm_charts`), also when a README installs its published copy
(``oci://.../onlineboutique`` beside ``helm-chart/``); a chart written as a bare word or a path is a
folder of the repository.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.extract.helm_charts import PLACEHOLDER_RELEASE
from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import tech_for_image
from repomodeler.records import Fact

# Charts of the cluster's own machinery: sidecar runtimes, meshes, autoscalers, network plugins.
PLATFORM_CHARTS = re.compile(r"^(dapr|dapr-.*|istio.*|istiod|linkerd.*|keda|knative.*|flux2?|cilium|calico|"
                             r"tigera-operator|metrics-server|kube-state-metrics|reloader|sealed-secrets|"
                             r"external-secrets|external-dns|cert-manager|vertical-pod-autoscaler|cluster-autoscaler)$")


# Charts that install only the cluster's custom resource definitions (istio's `base`, `*-crds`): nothing runs.
CRD_CHARTS = re.compile(r"^(base|crds?|.+-crds?)$")


# Documents of add-ons, examples and tutorials: their installs are not the system's.
ASIDE = re.compile(r"(^|/)(add-?ons?|extras|optional|extensions|examples?|samples?|demos?|tutorials?|hack|tests?)/", re.I)


# Charts of ingress controllers: installed as a release, the controller is a front door, the one the
# cluster's Ingress resources are carried out by.
INGRESS_CONTROLLERS = re.compile(r"^(ingress-nginx|nginx-ingress(-controller)?|traefik|haproxy-ingress|kubernetes-ingress|"
                                 r"contour|emissary-ingress|ambassador|kong|"
                                 r"gateway)$")  # (istio's `gateway` chart: the mesh's ingress gateway proxy)


def _from_repository(repo: str, chart: str, folders: set[tuple[str, str]]) -> bool:
    """Is `chart`, as a `helm install` writes it, a chart repository's (``oci://...``, ``bitnami/kafka``)
    rather than a folder or package of this repository (``.``, ``./chart``, ``helm``, ``charts/app``)?"""
    if "://" in chart:
        return True
    if not chart or chart.startswith((".", "/")) or chart.endswith(".tgz") or chart.count("/") != 1:
        return False
    return (repo, chart.split("/", 1)[0]) not in folders


def chart_name(chart: str) -> str:
    """``oci://registry-1.docker.io/bitnamicharts/kafka`` and ``bitnami/kafka`` -> ``kafka``."""
    return chart.rstrip("/").rsplit("/", 1)[-1].split("@")[0].split(":")[0].lower()


class ReleaseRules(ResolverBase):
    """Releases of charts from a chart repository are components named by their release."""

    def remote_releases(self) -> None:
        rendered = {(f.repository, f.path, f.line) for f in self.by_kind["helm.release"]}
        # the project's own charts, rendered from the repository (a README installing the published copy of
        # `helm-chart/` as `oci://.../onlineboutique` installs the same chart): known by release and folder
        own = {n.lower() for f in self.by_kind["helm.release"]
               for n in (f.get("release") or "", PurePosixPath(f.get("chart") or "").parent.name) if n}
        # ... and the charts the repository holds (deployment/helm/charts/onyx/Chart.yaml: `onyx/onyx`)
        own |= {PurePosixPath(p).parent.name.lower() for _r, p in self.inventory_paths
                if PurePosixPath(p).name == "Chart.yaml" and "/" in p}
        folders = {(r, d) for r, p in self.inventory_paths for d in [p.split("/", 1)[0]] if "/" in p}
        # ... and the release names its documents install a chart of the repository under (`helm install
        # trigger .` beside `helm install trigger oci://ghcr.io/.../trigger`)
        own |= {(f.get("release") or "").lower() for f in self.by_kind["helm.install"]
                if f.get("release") and not _from_repository(f.repository, f.get("chart") or "", folders)}
        wanted: list[tuple[Fact, str, str]] = []
        for f in sorted(self.by_kind["helm.install"], key=Fact.order):
            chart = f.get("chart") or ""
            if (f.repository, f.path, f.line) in rendered or not _from_repository(f.repository, chart, folders) \
                    or ASIDE.search(f.path):
                continue  # a chart of the repository (rendered per release), or a tutorial's add-on
            if (f.get("release") or "").lower() in own or chart_name(chart) in own:
                continue
            if "/" in f.path and f.repository in self.composed_repos:
                continue  # a guide beside the compose files that deploy the system: another way to run it
            wanted.append((f, f.get("release") or "", chart))
        for f in sorted(self.by_kind["helm.remote_release"], key=Fact.order):
            if f.get("chart"):  # (a patch of a release written elsewhere names no chart)
                wanted.append((f, f.get("release") or "", f.get("chart") or ""))
        for f, release, chart in wanted:
            base = chart_name(chart)
            if not release or PLACEHOLDER_RELEASE.match(release) or not base or PLATFORM_CHARTS.match(base) \
                    or CRD_CHARTS.match(base):
                continue
            known = self.alias.get(release.lower())
            if known is not None:
                self.model.components[known].evidence.add(f.evidence)
                self.credit(self.model.components[known].rules)
                continue
            tech = tech_for_image(base)
            kind = tech[1] if tech else "service"
            namespace = f.get("namespace") or ""
            attributes = {"deployment": "helm", "chart": chart, "namespace": "" if "$" in namespace else namespace}
            if INGRESS_CONTROLLERS.match(base):
                kind = "gateway"  # it carries out the Ingresses (frontdoor.ingress-controller knows it by its chart)
            if tech:
                attributes["technology"] = tech[0]
            aliases = (base,) if base != release.lower() and self.alias.get(base) is None else ()
            self.add_component(release, kind, f.repository, f.evidence, aliases=aliases, attributes=attributes)
