"""The registry (or other pluggable back end) a process's configuration selects by type:
``registry.type: zookeeper`` beside ``registry.zookeeper.connect-string: localhost:2181``.

Why: servers that find each other through a registry (ZooKeeper, etcd, Consul, a database) carry a
plug-in per registry technology, and their settings hold a section per plug-in; the ``type`` key
says which one runs.  The selected section's address is the registry the process uses.  Its
development default is often the loopback (``localhost:2181``), which names no component, yet the
process cannot start without that registry: when the system deploys exactly one component of that
technology (a compose ``zookeeper`` image) that is the one; when it deploys none, the registry is
introduced for the technology, as a store a configuration section names is
(``stores.configured-sections``).  Sections of the technologies not selected say nothing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import LOCAL_HOSTS, SCHEME_TECH, TECH_KIND, TECH_PROTOCOL
from repomodeler.graph.identity import key
from repomodeler.graph.platform import COORDINATION, COORDINATION_PROTOCOL, RUNNING_PROFILE
from repomodeler.graph.values import parse_hosts
from repomodeler.records import Fact

# A key choosing one implementation among several (`registry.type`, `storage.kind`, `backend.provider`).
SELECTOR = re.compile(r"^(?P<section>(?:[A-Za-z0-9_-]+\.)*[A-Za-z0-9_-]+)\.(type|kind|provider|backend|plugin)$", re.I)
# The leaf of a key holding the selected implementation's address.
ADDRESS_LEAF = re.compile(r"^(connect[-_]?string|connection[-_]?string|endpoints?|address(es)?|addr|urls?|uris?|"
                          r"servers?|server[-_]?addr|hosts?|nodes|bootstrap[-_]?servers)$", re.I)
# A selected value that names a technology: a word, not a class name or a path.
TECH_VALUE = re.compile(r"^[a-z][a-z0-9]{1,30}$")
# Selected values that name a mode, not a technology one could deploy (`type: local`, `type: jdbc`).
NOT_TECH = frozenset({"local", "default", "none", "memory", "inmemory", "embedded", "file", "filesystem", "jdbc",
                      "database", "db", "custom", "simple", "static", "standalone", "mock", "noop", "disabled"})


class RegistryRules(ResolverBase):
    """Processes linked to the registry their configuration selects."""

    def selected_registries(self) -> None:
        by_file: dict[tuple[str, str, str], dict[str, Fact]] = defaultdict(dict)  # (repo, path, profile) -> {key: fact}
        for f in self.by_kind["config.property"]:
            profile = f.get("profile") or ""
            if profile and (f.get("profile_document") or not RUNNING_PROFILE.search(profile)):
                continue  # a development or test profile's choice
            by_file[(f.repository, f.path, profile)].setdefault(f.get("name") or "", f)
        for (_repo, _path, _profile), props in sorted(by_file.items()):
            for name, selector in sorted(props.items()):
                m = SELECTOR.match(name)
                tech = (selector.get("value") or "").strip().lower()
                if not m or not TECH_VALUE.match(tech) or tech in NOT_TECH:
                    continue
                prefix = f"{m.group('section')}.{tech}."
                for addr_key, addr in sorted(props.items()):
                    leaf = addr_key[len(prefix):] if addr_key.lower().startswith(prefix.lower()) else ""
                    if leaf and ADDRESS_LEAF.match(leaf):
                        self._link_registry(selector, addr, tech)

    def _link_registry(self, selector: Fact, addr: Fact, tech: str) -> None:
        value = (addr.get("value") or "").strip()
        hosts = parse_hosts(value if "://" in value else f"{tech}://{value}")
        if not hosts or any("$" in h.host or "{" in h.host for h in hosts):
            return  # a placeholder the deployment fills: configured-sections' concern
        if "://" in value and any(SCHEME_TECH.get(h.scheme or "") for h in hosts):
            return  # a data-store URL (jdbc:postgresql://...): the address rules resolve those
        evidence = [selector.evidence, addr.evidence]
        for owner in self.property_owners(addr):
            comp = self.model.components.get(owner) if owner else None
            if comp is None or comp.kind not in ("service", "gateway"):
                continue
            targets = {self.alias.get(h.host) for h in hosts if h.host not in LOCAL_HOSTS}
            targets.discard(None)
            if any(self.model.components[t].kind in ("service", "gateway") and t != owner
                   and not self._is_tech(self.model.components[t].name, tech, self.model.components[t].attributes)
                   for t in targets if t):
                continue  # the address is one of the system's own programs: the address rules link it
            target = next(iter(targets)) if len(targets) == 1 else self._deployed(tech)
            if target is None:
                attrs = {"technology": tech, "implied_by": "selected registry type"}
                if tech in COORDINATION:
                    attrs["role"] = COORDINATION[tech]
                target = self.add_component(tech, TECH_KIND.get(tech, "service"), addr.repository, addr.evidence,
                                            attributes=attrs).id
            if target == owner:
                continue
            protocol = TECH_PROTOCOL.get(tech) or COORDINATION_PROTOCOL.get(tech, "tcp")
            known = sorted(k[2] for k in self.model.connections if k[:2] == (owner, target) and k[2] != "library")
            protocol = known[0] if known else protocol  # the link the address rules found is this one
            self.connect(owner, target, protocol, evidence, attributes={"via": f"selected {tech} ({selector.get('name')})"})

    def _deployed(self, tech: str) -> str | None:
        """The system's one component of the technology: by its technology, its image or its name."""
        found = sorted(c.id for c in self.model.components.values()
                       if c.kind not in ("library", "user", "webapp") and self._is_tech(c.name, tech, c.attributes))
        return found[0] if len(found) == 1 else None

    @staticmethod
    def _is_tech(name: str, tech: str, attributes: dict[str, str]) -> bool:
        if attributes.get("technology") == tech:
            return True
        image = PurePosixPath((attributes.get("image") or "").split("@")[0].split(":")[0]).name
        return key(image) == tech or key(name) == tech or name.lower().endswith(f"-{tech}")
