"""The connections a Kubernetes NetworkPolicy declares.

Why: a cluster whose namespace denies all traffic by default (``netpol-default-deny``) lets each
workload be reached only by the pods its policy names: ``cart-access`` admits ``front-end`` and
``orders``, ``carts-db-access`` admits ``carts``. Those admissions are the system's own statement
of who calls whom, written by its operators, and a deployment repository without the services'
code holds no other. Each admitted pair of workloads (by the pod labels the selectors match) is a
connection, with the policy's line as its evidence; a selector matching no workload of the
repository (a label the workloads do not carry) draws nothing. A policy admitting the very pods it selects (from
``io.kompose.network/internal: "true"`` to the same label, as kompose writes for each compose network) states
that the members of one network may reach each other, not that any of them calls another: it draws nothing.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import TECH_PROTOCOL


class NetworkPolicyRules(ResolverBase):
    """``kubernetes.network-policies``."""

    def network_policies(self) -> None:
        labelled: dict[str, list[tuple[set[str], str]]] = defaultdict(list)  # repository -> (labels, component)
        for w in self.by_kind["k8s.workload"]:
            cid = self.alias.get((w.get("name") or "").lower())
            labels = set(filter(None, (w.get("labels") or "").split(",")))
            if cid and labels:
                labelled[w.repository].append((labels, cid))

        def picked(repo: str, selector: str) -> list[str]:
            wanted = set(filter(None, selector.split(",")))
            return sorted({cid for labels, cid in labelled.get(repo, []) if wanted and wanted <= labels})

        for f in self.by_kind["k8s.network_allow"]:
            if set(filter(None, (f.get("source") or "").split(","))) == set(filter(None, (f.get("target") or "").split(","))):
                continue  # a network's membership: its pods may reach each other
            for source in picked(f.repository, f.get("source") or ""):
                for target in picked(f.repository, f.get("target") or ""):
                    if source == target:
                        continue
                    comp = self.model.components[target]
                    tech = comp.attributes.get("technology") or ""
                    protocol = TECH_PROTOCOL.get(tech, "tcp") if comp.kind in ("database", "cache", "broker", "search") \
                        else "http"
                    self.connect(source, target, protocol, [f.evidence],
                                 attributes={"via": f"network policy {f.get('policy') or ''}".strip()})
