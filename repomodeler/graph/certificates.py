"""The certificate authority a deployment's ACME client asks for its TLS certificates.

Why: a self-hosted system served over HTTPS on the operator's domain gets its certificates from Let's
Encrypt at run time: a certbot container renewing them (``certbot renew``), nginx-proxy's ACME companion,
Traefik with a certificate resolver (``--certificatesresolvers.le.acme.email=...``), a product's own ACME
container (``mailcow/acme``).  That is a call out of the system, and its documents draw it.  The client is
known from the image it runs or the command the deployment gives it; the authority is Let's Encrypt (the
default of every one of those clients), one external system whatever the number of clients.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import image_basename
from repomodeler.records import Evidence, Fact

# Images whose program is an ACME client (by name, under any owner).
ACME_CLIENT_IMAGE = re.compile(r"^(certbot|acme-companion|letsencrypt-nginx-proxy-companion|acme\.sh|acme|"
                               r"docker-letsencrypt-nginx-proxy-companion|lego)$", re.I)
# Commands that run an ACME client (`certbot renew`, Traefik's certificate resolver flags).
ACME_COMMAND = re.compile(r"\bcertbot\s+(certonly|renew)\b|--certificatesresolvers\.[\w-]+\.acme\.", re.I)


class CertificateRules(ResolverBase):
    """``proxy.acme-certificates``."""

    def acme_certificates(self) -> None:
        clients: dict[str, Evidence] = {}
        for f in sorted(self.by_kind["compose.service"], key=Fact.order):
            cid = self.alias.get((f.get("name") or "").lower())
            image = self.compose_interpolate(f, f.get("image")) or ""
            if cid and image and "$" not in image and ACME_CLIENT_IMAGE.match(image_basename(image)):
                clients.setdefault(cid, f.evidence)
        for f in sorted(self.by_kind["program.command"], key=Fact.order):
            if f.get("source") != "compose" or not ACME_COMMAND.search(f.get("command") or ""):
                continue
            cid = self.alias.get((f.get("owner") or "").lower())
            if cid:
                clients.setdefault(cid, f.evidence)
        for cid, evidence in sorted(clients.items()):
            if self.model.components[cid].kind not in ("service", "gateway"):
                continue
            existing = self.alias.get("letsencrypt")
            target = existing or self.add_component(
                "letsencrypt", "external", None, evidence, aliases=("let's encrypt", "acme-v02.api.letsencrypt.org"),
                attributes={"role": "certificate authority (ACME)", "host": "acme-v02.api.letsencrypt.org"}).id
            self.connect(cid, target, "https", [evidence], kind="calls", attributes={"via": "ACME client"})
