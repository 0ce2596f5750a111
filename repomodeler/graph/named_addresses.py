"""Addresses named after another process of the system: a field, variable or setting called
``namesrvAddr``, ``NAMESRV_ADDR``, ``brokerAddress`` or ``masterBrokerAddr`` in a component's own code
holds the address of the component of that name (``namesrv``, ``broker``), and so connects its holder
to it.

Why: servers of one repository that find each other at run time (an address given on the command
line, ``-n localhost:9876``, a list the name server returns, an environment variable an operator
sets) show no literal address in code, yet the code keeps the address it uses under the name of the
process it reaches.  The name is the evidence: a person reading ``brokerAddr`` reads "the broker's
address".  Only names that join a program's own name to an address word count, only in the code of another
running component of the same repository, and only for programs of that repository (a launcher
starts them, or they are processes split from one component), never a store's; postal and e-mail
addresses (``shippingAddress``, ``emailAddr``) are data.
The repository's client library (``client/``, ``sdk/``, ``<repository>-client``) doing this is how
people's applications reach those programs: the people reach them too, through it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.identity import key
from repomodeler.inventory import classify_role
from repomodeler.records import Component, Evidence, Fact

# <process name><address word>: namesrvAddr, NAMESRV_ADDR, brokerAddress, broker_addr_list, masterBrokerAddrs
ADDRESS_NAME = re.compile(r"^(?P<prefix>[A-Za-z][A-Za-z0-9_]*?)[_.-]?(?:addr|address|addresses|addrs)(?:[_-]?(?:list|set|table|s))?$",
                          re.I)
# Words of postal and e-mail addresses (shippingAddress, emailAddr): data a program keeps, not a peer's address.
POSTAL_WORDS = frozenset({"email", "mail", "e", "shipping", "billing", "delivery", "home", "street", "postal",
                          "mailing", "pickup", "return", "residential", "ip", "mac", "wallet"})
# A library people's applications embed to reach the system: `client/`, `sdk/`, or named for the
# repository (rocketmq-client in rocketmq); `orders-client` in a shop is how its services call orders.
CLIENT_WORDS = ("client", "clients", "sdk")
MAX_EVIDENCE = 4  # lines per connection: a few files say it; a hundred more lines say nothing new
RUNNING_KINDS = ("service", "gateway")


def _words(prefix: str) -> list[str]:
    """'masterBroker' -> ['master', 'broker']; 'NAMESRV' -> ['namesrv']; 'remote_broker' -> ['remote', 'broker']."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", prefix)
    return [w.lower() for w in re.split(r"[\s_.-]+", spaced) if w]


def _telling(evidence: list[Evidence]) -> list[Evidence]:
    """The first line of each of the files that name the address most (the client or API class that
    calls the program, not an exception that mentions it once), up to MAX_EVIDENCE lines."""
    by_file: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
    for e in sorted(set(evidence)):
        by_file[(e.repository, e.path)].append(e)
    ranked = sorted(by_file.items(), key=lambda item: (-len(item[1]), item[0]))
    return [lines[0] for _file, lines in ranked[:MAX_EVIDENCE]]


class NamedAddressRules(ResolverBase):
    """Holders of an address named after another process, connected to it."""

    def named_addresses(self) -> None:
        found: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for kind in ("code.address_name", "env.read", "config.property"):
            for f in sorted(self.by_kind[kind], key=Fact.order):
                m = ADDRESS_NAME.match((f.get("name") or "").rsplit(".", 1)[-1])
                if not m or classify_role(f.path) != "source":
                    continue
                target = self._named_process(m.group("prefix"))
                owner = self.owner_of(f.repository, f.path)
                if target is None or owner is None or owner == target \
                        or self.model.components[target].repository != f.repository:
                    continue  # only programs of the holder's own repository find each other this way
                ocomp = self.model.components[owner]
                if ocomp.kind in RUNNING_KINDS or (ocomp.kind == "library" and self._system_client(ocomp)):
                    found[(owner, target)].append(f.evidence)
        users = sorted(c.id for c in self.model.components.values() if c.kind == "user")
        links: dict[tuple[str, str], list[str]] = defaultdict(list)
        for s, t, protocol in self.model.connections:
            if protocol != "library":
                links[(s, t)].append(protocol)
        for (owner, target), evs in sorted(found.items()):
            evidence = _telling(evs)
            via = {"via": f"address named after {self.model.components[target].name}"}
            # a link other rules found (an rpc proxy, a configured URL) is the one this address serves
            protocol = min(links.get((owner, target), ["tcp"]))
            self.connect(owner, target, protocol, evidence, attributes=via)
            if self.model.components[owner].kind == "library":
                # the system's client library: the people's applications that embed it reach the process
                if not users:
                    users = [self.new_people_actor(min(self.model.components[owner].evidence))]
                for user in users[:1]:
                    self.connect(user, target, "tcp", evidence,
                                 attributes={"via": f"client library {self.model.components[owner].name}"})

    @staticmethod
    def _system_client(lib: Component) -> bool:
        """Is the library the repository's client for people's applications (``client``, ``<repo>-sdk``)?"""
        names = {lib.name.lower(), *(a.lower() for a in lib.aliases), lib.attributes.get("package", "").lower()}
        repo = key(lib.repository or "")
        return any(key(n) in CLIENT_WORDS or (repo and any(key(n) == repo + w for w in CLIENT_WORDS)) for n in names if n)

    def _named_process(self, prefix: str) -> str | None:
        """The running component the name's words end with (``masterBroker`` -> broker), if any."""
        words = _words(prefix)
        if POSTAL_WORDS & set(words):
            return None
        for i in range(len(words)):
            cid = self.alias.get("".join(words[i:])) or self.alias.get("-".join(words[i:]))
            if cid is not None:
                comp = self.model.components.get(cid)
                if comp is not None and comp.kind in RUNNING_KINDS and len(key(comp.name)) >= 3 and \
                        (comp.attributes.get("main_class") or cid in getattr(self, "process_parent", {})):
                    return cid  # a program of the repository (a launcher starts it, or a split process)
        return None
