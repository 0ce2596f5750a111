"""Services that find each other by the key one registers under in a registry (etcd, Consul, Nacos).

Why: in go-zero and frameworks like it a server's settings name the key it registers its address under
(``Etcd: {Hosts: [etcd:2379], Key: user.rpc}``) and a client's settings name the same key under the block of the
client it builds (``UserRpc: {Etcd: {Hosts: [etcd:2379], Key: user.rpc}}``).  No address of the callee is written
anywhere: the key is the only thing that ties the caller to it.  A key registered by exactly one program of the
system connects every program whose client block names it to that program.
"""

from __future__ import annotations

import re
from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence

# The key a server registers under (`Etcd.Key`) and the one a client block names (`UserRpc.Etcd.Key`).
REGISTERED_KEY = re.compile(r"^(?:etcd|consul|nacos)\.key$", re.I)
CLIENT_KEY = re.compile(r"^(?P<client>[A-Za-z][A-Za-z0-9_]*)\.(?:etcd|consul|nacos)\.key$", re.I)


class RegistryKeyRules(ResolverBase):
    """Clients linked to the one program registered under the key their settings name."""

    def registry_key_clients(self) -> None:
        registered: dict[tuple[str, str], set[str]] = defaultdict(set)
        clients: list[tuple[str, str, str, str, Evidence]] = []
        for f in self.by_kind["config.property"]:
            name, value = f.get("name") or "", (f.get("value") or "").strip()
            client = CLIENT_KEY.match(name)
            if not value or "$" in value or (client is None and not REGISTERED_KEY.match(name)):
                continue
            # the running program whose settings file this is (rpc.listen-port-addresses' reading of it)
            owner = self._settings_owner(f)  # type: ignore[attr-defined]
            if owner is None:
                continue
            if client is None:
                registered[(f.repository, value.lower())].add(owner)
            else:
                clients.append((owner, f.repository, value.lower(), client.group("client"), f.evidence))
        for owner, repo, value, client, evidence in sorted(clients):
            targets = registered.get((repo, value), set()) - {owner}
            if len(targets) != 1 or len(registered[(repo, value)]) != 1:
                continue  # registered by none, or by several programs: which one answers is not said
            target = next(iter(targets))
            protocol = "grpc" if re.search(r"rpc$", client, re.I) or re.search(r"[.-]rpc$", value) else "tcp"
            self.connect(owner, target, protocol, [evidence],
                         attributes={"via": f"registry key {value} ({client} client)"})
