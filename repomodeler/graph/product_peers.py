"""The peers a product exists to reach, as its README says what the product is.

Why a rule of its own: some programs are made to work with services their operator (or user) names at run time,
outside the system and outside its repository.  A reverse proxy, API gateway or ingress controller forwards to
the backends its operator configures (Traefik's "backend services", Kong's upstreams); a DNS server or ad-blocking
resolver forwards queries to upstream DNS servers; a feed reader fetches the feeds its users subscribe to; a
BitTorrent client trades with the peers of its swarms, announces to trackers and finds peers in the DHT.  No
address in the repository names those peers, so the address rules find nothing, yet the product's own documents
draw them beside it, the reason it runs.  What the project is comes from the opening paragraphs of its README
("Traefik is a modern HTTP reverse proxy", "CoreDNS is a DNS server/forwarder", "yarr is a web-based feed
aggregator"); the component reaching the peers is the system's own program the user reaches, or the server behind
the web app the user opens.  A proxy that already forwards to a service of the system (a demo app its compose file
runs behind it: oauth2-proxy's httpbin) has its upstreams drawn, and gets nothing more.  A tunnel exposing "a local
server behind a NAT" (frp, nps) forwards to the local services of the network it is in.  (A bookmark manager's
saved pages and a "proxy server" translating queries, Jackett's, were tried too: their documents draw them as
often as not.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Component, Fact


@dataclass(frozen=True)
class Product:
    """A kind of product a README can say the project is, and the peers such a product reaches."""

    says: re.Pattern[str]  # the words of a README paragraph naming the kind
    peer: str  # the external node standing for the peers
    role: str
    forwards: bool = False  # a proxy: nothing added when it already reaches a service of the system
    more: tuple[tuple[str, str], ...] = ()  # other peers of such a product, (name, role)


PRODUCTS = (
    Product(re.compile(r"\bDNS[- ](server|proxy|forwarder|resolver|sinkhole)s?\b|\bDNS[- ]over[- ]", re.I),
            "upstream dns servers", "the DNS servers it forwards the queries it does not answer to"),
    Product(re.compile(
        r"\b(reverse[- ]prox(y|ies|ying)|api[- ]gateway|(access|authenticating|identity[- ]aware|context[- ]aware|"
        r"forwarding|http|edge|application|tcp|l[47]|layer[- ][47]) proxy|ingress controller|load[- ]balancer|"
        r"application gateway|http router)\b", re.I),
        "upstream services", "the backends the proxy's operator configures it to forward to", forwards=True),
    Product(re.compile(r"\b(bit)?torrent client\b", re.I),
            "bittorrent peers", "the other peers of the swarms it joins",
            more=(("trackers", "the trackers it announces its torrents to"),
                  ("dht network", "the distributed hash table it finds peers through"))),
    Product(re.compile(r"\bDHT crawler\b", re.I), "dht network", "the BitTorrent DHT it crawls for torrents"),
    Product(re.compile(r"\b(rss|atom|feed|news)[- ](reader|aggregator|client)s?\b|\bfeed[- ]aggregat|"
                       r"\bagrégateur de flux", re.I),
            "feed sources", "the feeds its users subscribe to, fetched over HTTP"),
)
# ... unless a paragraph only says the project runs behind or beside one ("put it behind a reverse proxy").
BEHIND = re.compile(r"\b(behind|with|via|through|use|using|need|needs|requires?|like|such as|for|alongside|beside)\s+"
                    r"(a|an|your|the|any)?\s*"
                    r"([\w-]+\s+){0,2}$", re.I)
# A tunnel's users expose services of their own network, not a datacentre's backends.
TUNNEL = re.compile(r"\b(NAT|intranet|firewall|local (server|service|network)s?|private network)\b|内网", re.I)
PROTOCOLS = {"upstream dns servers": "dns", "bittorrent peers": "bittorrent", "trackers": "http", "dht network": "udp"}
DOOR_KINDS = ("service", "gateway")
SERVICE_KINDS = ("service", "gateway", "webapp")


def product_of(text: str) -> Product | None:
    """The kind of product a README paragraph says the project is (not one it runs behind or beside)."""
    found = [(m.start(), i) for i, p in enumerate(PRODUCTS) for m in p.says.finditer(text)
             if not BEHIND.search(text[:m.start()])]
    return PRODUCTS[min(found)[1]] if found else None


class ProductPeerRules(ResolverBase):
    """``docs.product-peers``."""

    def product_peers(self) -> None:
        said: dict[str, tuple[Product, Fact]] = {}  # repository -> what its README calls it, where
        for f in sorted(self.by_kind["project.summary"], key=Fact.order):
            product = product_of(f.get("text") or "")
            if product is not None and f.repository not in said:
                said[f.repository] = (product, f)
        if not said:
            return
        users = {c.id for c in self.model.components.values() if c.kind == "user"}
        reached = {k[1] for k in self.model.connections if k[0] in users}
        # (or the server behind the web app the user opens: AdGuard Home's UI calling its Go server)
        behind_ui = {k[1] for k in self.model.connections
                     if k[0] in reached and getattr(self.model.components.get(k[0]), "kind", None) == "webapp"}
        for repo, (product, f) in sorted(said.items()):
            doors = [c for c in sorted(self.model.components.values(), key=lambda c: c.id)
                     if c.id in reached and c.kind in DOOR_KINDS and self._own_program(c, repo)] or \
                [c for c in sorted(self.model.components.values(), key=lambda c: c.id)
                 if c.id in behind_ui and c.kind in DOOR_KINDS and self._own_program(c, repo)]
            if any(c.kind == "gateway" for c in doors):
                doors = [c for c in doors if c.kind == "gateway"]  # (beside a helper job the user also reaches)
            ours = {x for c in doors for x in self._product_family(c)}
            # (the web server in front of the product's own server in its container: the door the world reaches)
            doors = [c for c in doors if not any(k[1] == c.id and k[0] in ours and k[0] != c.id
                                                 and self.model.components[k[0]].kind in DOOR_KINDS
                                                 for k in self.model.connections)] or doors
            if not doors or (product.forwards and self._reaches_services(ours)):
                continue  # (a proxy already forwarding to a service of the system: those are its upstreams)
            name, role = product.peer, product.role
            if product.forwards and TUNNEL.search(f.get("text") or ""):
                name, role = "local services", "services of the network the tunnel exposes"
            for name, role in ((name, role), *product.more):
                existing = self.alias.get(name)
                target = existing if existing and self.model.components[existing].kind == "external" else \
                    self.add_component(name, "external", None, f.evidence, attributes={"role": role}).id
                for c in doors:
                    self.connect(c.id, target, PROTOCOLS.get(name, "http"), [f.evidence],
                                 attributes={"via": "what the project's README says it is"})

    def _own_program(self, comp: Component, repo: str) -> bool:
        """Is the component a program of that repository, or a process in the container of one (the nginx s6
        starts in front of the product's server)?"""
        host = self.model.components.get(comp.attributes.get("host") or "")
        return self.built_here(comp, repo) or (host is not None and host.id != comp.id and self.built_here(host, repo))

    def _product_family(self, comp: Component) -> set[str]:
        """The component, its processes, the processes in its container and the container it runs in."""
        host = comp.attributes.get("host") or ""
        return {comp.id, *([host] if host in self.model.components else [])} | {
            c.id for c in self.model.components.values()
            if c.parent == comp.id or (c.attributes.get("host") or "") in (comp.id, host or comp.id)}

    def _reaches_services(self, ours: set[str]) -> bool:
        """Does the product forward to a service of the system outside its own programs?"""
        return any(src in ours and tgt not in ours
                   and getattr(self.model.components.get(tgt), "kind", None) in SERVICE_KINDS
                   for src, tgt, _p in self.model.connections)
