"""The STUN and TURN servers a WebRTC program's configuration names.

Why: a program that sets up peer-to-peer media or file transfer (a video call, a camera's stream, a file drop between
browsers) hands its peers a list of ICE servers (``iceServers: [{urls: "stun:stun.l.google.com:19302"}]``); the peers
ask those servers for their public addresses, or relay through a TURN server, every time they connect.  When the
list names public servers, the system reaches them by default, and its documents draw them ("Google's STUN server").
A server the deployment runs itself (a coturn service) is a component already and is connected by its address.
One external node stands for the public STUN servers (``stun-server``: a program listing several, Google's and
Cloudflare's, uses any of them) and one for the TURN relays, whatever the number of literals.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence, Fact

# scheme, host of an ICE server's URI (`stun:stun.l.google.com:19302`, `turns:relay.example.org:443?transport=tcp`)
ICE_URI = re.compile(r"^[\"'`]?(stuns?|turns?):([A-Za-z0-9][A-Za-z0-9.-]*\.[A-Za-z]{2,})(?::\d+)?", re.I)
# Hosts that stand for the operator's own server in a sample (example.com, your-domain.tld, localhost names).
PLACEHOLDER_HOST = re.compile(r"(^|\.)(example\.(com|org|net)|your[-_]?domain\.[a-z]+|domain\.tld|localhost)$", re.I)


class IceServerRules(ResolverBase):
    """``code.ice-servers``."""

    def ice_servers(self) -> None:
        found: dict[tuple[str, str], list[tuple[str, Evidence]]] = {}  # (component, stun|turn) -> (host, line)
        for f in sorted(self.by_kind["string.ice_server"], key=Fact.order):
            m = ICE_URI.match(f.get("value") or "")
            if m is None or PLACEHOLDER_HOST.search(m.group(2)):
                continue
            host = m.group(2).lower()
            own = [self.alias.get(host), self.alias.get(host.split(".")[0])]
            if any(cid and self.model.components[cid].kind != "external" for cid in own):
                continue  # a server the system runs (coturn by its service name): connected by its address
            role = "turn" if m.group(1).lower().startswith("turn") else "stun"
            owner = self.owner_of(f.repository, f.path)
            comp = self.model.components.get(owner) if owner else None
            if comp is None or comp.kind not in ("service", "gateway", "webapp"):
                continue
            found.setdefault((owner, role), []).append((host, f.evidence))
        for (owner, role), uses in sorted(found.items()):
            hosts = sorted({h for h, _ev in uses})
            name = f"{role}-server"
            existing = self.alias.get(name)
            target = existing if existing and self.model.components[existing].kind == "external" else self.add_component(
                name, "external", None, uses[0][1], aliases=tuple(hosts), attributes={
                    "role": f"public {role.upper()} server of WebRTC peers (ICE)", "host": ", ".join(hosts)}).id
            self.connect(owner, target, "udp", [ev for _h, ev in uses[:3]], kind="calls",
                         attributes={"via": f"ICE server {hosts[0]}"})
