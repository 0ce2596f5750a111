"""A hosted service whose client library the code imports but no setting of the deployment names: optional.

Why: applications ship clients for many hosted services their operators may turn on (an OpenAI summary
feature, S3 beside the local disk, Stripe for the vendor's own cloud edition, Slack notifications). The
import alone says the code can reach the service, not that the system as deployed does. Where the
deployment is here to read (compose files, Kubernetes manifests, rendered charts) and nothing in it or in
the repository's settings files names the vendor (``OPENAI_API_KEY``, ``STORAGE_TYPE=s3``,
``stripe.secret-key``), the service is an integration nobody has configured: listed with the import line,
not drawn. A service any setting names, or that other evidence than the import reaches (a URL, an
address), stays.
"""

from __future__ import annotations

import re

from repomodeler.extract.readers._text import name_words
from repomodeler.graph.catalog import KUBE_API_HOST
from repomodeler.graph.keyed_vendors import ENV_DEPLOYMENTS, KeyedVendorRules
from repomodeler.graph.vendors import vendor_name
from repomodeler.records import Evidence

# The words a setting of a cloud platform's product carries (the platform's one domain serves many products,
# so its name alone says too little): AWS_S3_BUCKET, GCS_BUCKET, AZURE_STORAGE_CONNECTION_STRING, FCM_KEY.
PRODUCT_WORDS: dict[str, tuple[str, ...]] = {
    "s3.amazonaws.com": ("S3", "AWS", "AMAZON", "MINIO"),
    "storage.googleapis.com": ("GCS", "GCP", "GOOGLE", "GCLOUD"),
    "blob.core.windows.net": ("AZURE", "BLOB"),
    "firestore.googleapis.com": ("FIRESTORE", "FIREBASE", "GCP", "GOOGLE", "GCLOUD"),
    "pubsub.googleapis.com": ("PUBSUB", "GCP", "GOOGLE", "GCLOUD"),
    "fcm.googleapis.com": ("FCM", "FIREBASE", "PUSH"),
    "identitytoolkit.googleapis.com": ("FIREBASE",),
    "cognito-idp.amazonaws.com": ("COGNITO", "AWS"),
    "generativelanguage.googleapis.com": ("GEMINI", "GOOGLE"),
    "api.notifications.service.gov.uk": ("NOTIFY", "NOTIFICATIONS"),
}
# Hosts no setting configures: the cluster's own API server, reached from inside the cluster.
UNCONFIGURED_HOSTS = frozenset({KUBE_API_HOST})
# The kinds of facts that are settings: environment entries (any file), properties and settings files,
# secrets, and the keys a Kubernetes workload takes from ConfigMaps and Secrets.
SETTING_KINDS = ("config.env", "config.property", "config.setting", "config.secret", "k8s.env_key_ref",
                 "k8s.env_secret_ref")


def names_product(name: str, value: str, words: tuple[str, ...], host: str) -> bool:
    """Does a setting (`name` = `value`) name the product: one of its `words` a word of the name or of the
    value (``STORAGE_TYPE=s3``), a long word inside a run-together name (``OPENAIKEY``), or its host?"""
    found = {w.upper() for w in name_words(name)}  # openaiApiKey, OPENAI_API_KEY, spring.ai.openai.api-key
    if any(w in found for w in words):
        return True
    joined = "".join(sorted(found))
    if any(len(w) >= 5 and w in joined for w in words):
        return True
    low = value.lower()
    if host in low:
        return True
    return any(w.lower() in re.split(r"[^a-z0-9]+", low) for w in words)


class UnconfiguredSdkRules(KeyedVendorRules):
    """``code.unconfigured-sdk``."""

    def unconfigured_sdks(self) -> None:
        """An external system reached only through its client library (every connection made by the
        import alone), whose callers are all deployed by compose or Kubernetes, and which no setting in
        their repositories names, is an integration its operator has not configured: each connection
        becomes an unresolved entry at the import's line and the external leaves the model. A caller its
        deployment hands no setting at all is configured some other way: its services stay."""
        if not any(c.kind == "external" and (c.attributes.get("host") or "").lower() not in UNCONFIGURED_HOSTS
                   and c.attributes.get("host") for c in self.model.components.values()):
            return  # (no hosted service to judge: the settings are not gathered)
        links = self._links()
        handed = self._handed_names()
        settings: dict[str, list[tuple[str, str]]] = {}
        for kind in SETTING_KINDS:
            for f in self.by_kind[kind]:
                settings.setdefault(f.repository, []).append((f.get("name") or "", f.get("value") or ""))
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            host = (comp.attributes.get("host") or "").lower()
            if comp.kind != "external" or not host or host in UNCONFIGURED_HOSTS:
                continue
            words = PRODUCT_WORDS.get(host) or ((vendor_name(host).upper(),) if vendor_name(host) else ())
            keys = [k for k in links.get(cid, []) if k in self.model.connections]
            if not words or not keys or any(k[1] != cid for k in keys):
                continue
            conns = [self.model.connections[k] for k in keys]
            if any(not c.attributes.get("via", "").startswith("sdk ")
                   or c.rules - {"code.sdk-services", "code.vendor-domains"} for c in conns):
                continue  # reached by more than the import (a URL, an address): used
            callers = [self.model.components.get(k[0]) for k in keys]
            if any(c is None or c.attributes.get("deployment") not in ENV_DEPLOYMENTS or not handed.get(c.id)
                   for c in callers):
                continue  # (a deployment not read here, or one handing no settings at all, may configure it)
            repos = {c.repository for c in callers if c is not None} | {e.repository for c in conns for e in c.evidence}
            if any(names_product(n, v, words, host) for r in sorted(r for r in repos if r) for n, v in settings.get(r, [])):
                continue
            entries: dict[tuple[str, str, str], tuple[str, str, Evidence]] = {}
            for k, conn in zip(keys, conns):
                entries[k] = (k[0], f"{comp.name}: optional, its client library is imported but no setting of the "
                                    f"deployment names {words[0].lower()}", min(conn.evidence))
            self._unlist(cid, entries)
