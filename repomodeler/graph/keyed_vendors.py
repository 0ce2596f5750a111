"""Vendors the code reaches only with a key the deployment never hands it: optional, listed not drawn.

Why: an application built to talk to many hosted services (web search, scrapers, model providers,
e-mail, payments) turns each on when its operator sets that vendor's key (``EXA_API_KEY``,
``RESEND_API_KEY``): ``if os.getenv("EXA_API_KEY"): ...``. Its default deployment sets none of them, and
the system's own documents draw only what that deployment runs. Drawn as externals these vendors
outnumber the system's parts. A vendor whose key the deployment does hand over (``OPENAI_API_KEY:
${OPENAI_API_KEY}`` in the compose file) is one the operator is asked to configure: it stays.

What is dropped stays in the model's ``unresolved`` list with the line reading the key, so nothing
found is lost.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.setting_reads import canonical
from repomodeler.graph.vendors import vendor_name
from repomodeler.records import Evidence, Unresolved

# The last words of a setting holding a credential (``EXA_API_KEY``, ``SLACK_BOT_TOKEN``, ``STRIPE_SECRET``).
CREDENTIAL_WORDS = frozenset({"KEY", "APIKEY", "TOKEN", "SECRET", "SECRETKEY", "ACCESSKEY"})
# Words a framework or a sign-in library puts before a vendor's name (``NEXT_PUBLIC_STRIPE_KEY``, ``AUTH_GITHUB_SECRET``).
NAME_PREFIXES = frozenset({"NEXT", "PUBLIC", "VITE", "REACT", "APP", "NUXT", "EXPO", "AUTH", "OAUTH"})
# Platforms whose one domain serves many products, each with keys of its own.
PLATFORM_VENDORS = frozenset({"google", "googleapis", "amazon", "amazonaws", "aws", "microsoft", "azure", "windows",
                              "apple", "cloudflare"})


def names_vendor(name: str, vendor: str) -> bool:
    """Does the setting `name` (canonical: ``ELEVEN_LABS_API_KEY``, ``STRIPE_API``) belong to `vendor`
    (``elevenlabs``, ``stripe``): the vendor its first word or run of words, after a framework's prefix
    (``NEXT_PUBLIC_``, ``AUTH_``)? A vendor named later is another's (``AZURE_OPENAI_API_KEY`` is Azure's), and a
    platform of many products (Google, Amazon, Microsoft) has no one setting."""
    words = name.split("_")
    if not vendor or vendor in PLATFORM_VENDORS:
        return False
    while words and words[0] in NAME_PREFIXES:
        words = words[1:]
    wanted = re.sub(r"[^A-Z0-9]", "", vendor.upper())
    joined = ""
    for w in words:
        joined += w
        if joined == wanted:
            return True
        if len(joined) >= len(wanted):
            break
    return False


def credential_vendor(name: str, vendor: str) -> bool:
    """Is `name` a credential setting of `vendor` (``EXA_API_KEY``): one of its settings, with a credential word?"""
    return any(w in CREDENTIAL_WORDS for w in name.split("_")) and names_vendor(name, vendor)


# Deployments whose environment entries are all read (compose files, Kubernetes manifests, rendered charts).
ENV_DEPLOYMENTS = frozenset({"compose", "kubernetes", "helm"})


class KeyedVendorRules(ResolverBase):
    """``code.unset-credentials``."""

    def _handed_names(self) -> dict[str, set[str]]:
        """component -> canonical names of the settings its deployments hand it: environment entries, the
        lines of its env files, and Kubernetes ConfigMap and Secret keys."""
        handed: dict[str, set[str]] = {}
        for owner, f in self._handed_settings():
            handed.setdefault(owner, set()).add(canonical(f.get("name") or ""))
        for f in [*self.by_kind["k8s.env_key_ref"], *self.by_kind["k8s.env_secret_ref"]]:
            owner = self.config_owner(f)
            if owner:
                handed.setdefault(owner, set()).add(canonical(f.get("name") or ""))
        return handed

    def _links(self) -> dict[str, list[tuple[str, str, str]]]:
        """component -> the keys of the connections it is an end of (sorted), read once per rule."""
        links: dict[str, list[tuple[str, str, str]]] = {}
        for k in sorted(self.model.connections):
            links.setdefault(k[0], []).append(k)
            if k[1] != k[0]:
                links.setdefault(k[1], []).append(k)
        return links

    def _unlist(self, cid: str, entries: dict[tuple[str, str, str], tuple[str, str, Evidence]]) -> None:
        """Take an optional vendor out of the model: each of its connections becomes an unresolved entry
        (caller, text, evidence), then the vendor goes."""
        for k, (caller, text, evidence) in sorted(entries.items()):
            self.model.connections.pop(k)
            self.created_by.pop(k, None)
            self.model.unresolved.append(Unresolved(caller, text, evidence))
        self.drop_component(cid)

    def unset_credentials(self) -> None:
        """An external system every caller of which is deployed by compose or Kubernetes, reads a
        credential setting naming the vendor in its code, and is handed no setting of that vendor by any
        deployment, is an integration its operator has not turned on: its connections become
        unresolved entries (at the line reading the key) and it leaves the model."""
        externals = {cid: vendor_name(c.name) for cid, c in self.model.components.items() if c.kind == "external"}
        if not any(externals.values()):
            return
        handed = self._handed_names()
        reads: dict[str, list[tuple[str, Evidence]]] = {}
        for f, names in sorted(self._code_reads(), key=lambda p: p[0].order()):
            owner = self.owner_of(f.repository, f.path)
            if owner:
                reads.setdefault(owner, []).extend((n, f.evidence) for n in sorted(names))
        links = self._links()
        for cid in sorted(externals):
            vendor = externals[cid]
            comp = self.model.components[cid]
            into = [k for k in links.get(cid, []) if k[1] == cid and k in self.model.connections]
            if not vendor or not into or any(k[0] not in self.model.components for k in into) \
                    or any(k[0] == cid for k in links.get(cid, []) if k in self.model.connections):
                continue
            keys: dict[tuple[str, str, str], tuple[str, Evidence]] = {}
            for k in into:
                caller = self.model.components[k[0]]
                if caller.attributes.get("deployment") not in ENV_DEPLOYMENTS:
                    break  # (an IaC workload's secrets and a platform's app settings are not all read here)
                read = next(((n, e) for n, e in reads.get(k[0], []) if credential_vendor(n, vendor)), None)
                if read is None or any(names_vendor(n, vendor) for n in handed.get(k[0], ())):
                    break  # (a deployment handing any setting of the vendor, `STRIPE_API: https://...`, configures it)
                keys[k] = read
            else:
                self._unlist(cid, {k: (k[0], f"{comp.name}: optional, turned on by setting {keys[k][0]}, which no "
                                              f"deployment hands it", keys[k][1]) for k in into})


# How many external vendors one component reaches that make it an integration hub (an AI platform's model
# providers, web-search tools and document connectors), whose vendors its users pick and configure.
HUB_SIZE = 12


class IntegrationHubRules(KeyedVendorRules):
    """``code.integration-hub``."""

    def integration_hubs(self) -> None:
        """A component reaching HUB_SIZE or more external vendors offers them as choices (a model-provider
        list, web-search tools, data connectors): of those only it reaches, the ones its deployment hands no
        setting naming (``TAVILY_API_KEY``, ``OPENAI_BASE_URL``) are listed as optional integrations, not drawn."""
        handed = self._handed_names()
        links = self._links()
        reached: dict[str, set[str]] = {}
        for (source, target, _p) in self.model.connections:
            comp = self.model.components.get(target)
            if comp is not None and comp.kind == "external" and source in self.model.components \
                    and comp.attributes.get("technology") != "smtp":  # (the mail relay is no vendor offered)
                reached.setdefault(source, set()).add(target)
        for hub in sorted(reached):
            vendors = {vendor_name(self.model.components[t].name) or t for t in reached[hub]}
            if len(vendors) < HUB_SIZE:
                continue
            for cid in sorted(reached[hub]):
                comp = self.model.components[cid]
                keys = [k for k in links.get(cid, []) if k in self.model.connections]
                if any(k[0] != hub or k[1] != cid for k in keys):
                    continue  # another component reaches it too, or it calls back
                if any(names_vendor(n, vendor_name(comp.name)) for n in handed.get(hub, ())):
                    continue  # its deployment configures it (`OPENAI_BASE_URL`, `TAVILY_API_KEY`)
                self._unlist(cid, {k: (hub, f"{comp.name}: optional, one of the {len(vendors)} vendors {hub} "
                                            f"integrates with", min(self.model.connections[k].evidence)) for k in keys})


# How many side-by-side parts of one folder, each reaching a vendor of its own, make that folder a set of choices.
CHOICES = 3


class VendorChoiceRules(IntegrationHubRules):
    """``code.vendor-choices``."""

    def vendor_choices(self) -> None:
        """Code offering one capability through several vendors keeps each vendor's client in a part of its own,
        side by side in one folder (``integration/notion/``, ``integration/raindrop/``...; ``storage/s3-storage.ts``,
        ``storage/azure-storage.ts``, ``storage/google-storage.ts``; ``idp/google.go``, ``idp/github.go``,
        ``idp/baidu.go``, files named for their vendors): the operator picks one, or none, by
        configuration. An external vendor every call of which lies in such a part (a file or folder of a folder
        where CHOICES or more parts each reach a different vendor), whose deployments hand no setting naming it,
        is listed as an optional choice, not drawn."""
        # (the operator's mail relay, reached by a mail library, is no vendor one picks: code.mail-senders)
        externals = {cid: vendor_name(c.name) or cid for cid, c in self.model.components.items()
                     if c.kind == "external" and c.attributes.get("technology") != "smtp"}
        if len(externals) < CHOICES:
            return
        links = self._links()
        # (repository, folder) -> part of it (first path step below the folder, and whether it is the file) ->
        # vendors reached from there
        parts: dict[tuple[str, str], dict[tuple[str, bool], set[str]]] = {}
        calls: dict[str, list[Evidence]] = {}
        file_vendors: dict[tuple[str, str], set[str]] = {}
        for cid in sorted(externals):
            for k in links.get(cid, []):
                conn = self.model.connections.get(k)
                if conn is None or k[1] != cid:
                    continue
                for ev in sorted(conn.evidence):
                    calls.setdefault(cid, []).append(ev)
                    file_vendors.setdefault((ev.repository, ev.path), set()).add(externals[cid])
                    steps = PurePosixPath(ev.path).parts
                    for depth in range(1, len(steps) + 1):
                        place = (ev.repository, "/".join(steps[:depth - 1]) if depth > 1 else "")
                        part = (steps[depth - 1], depth == len(steps))
                        parts.setdefault(place, {}).setdefault(part, set()).add(externals[cid])

        def role(part: str) -> str:
            """What a file does, without the vendor word its name starts with (``s3-storage.ts``: storage); ""
            for a file named by one word."""
            words = re.split(r"[-_.]", PurePosixPath(part).stem.lower(), maxsplit=1)
            return words[1] if len(words) == 2 else ""

        def named_for_vendor(part: tuple[str, bool], vendors: set[str]) -> bool:
            """Is the part a file named by one word for a vendor it reaches (``idp/google.go``)?"""
            stem = re.sub(r"[^a-z0-9]", "", PurePosixPath(part[0]).stem.lower())
            return part[1] and role(part[0]) == "" and bool(stem) \
                and any(v and stem.startswith(re.sub(r"[^a-z0-9]", "", v)) for v in vendors)

        def chosen(ev: Evidence) -> bool:
            """Does the call lie in a part of a folder of vendor choices: CHOICES or more parts reaching a vendor
            of their own each, all folders (a package per vendor: integration/notion/) or all files named for one
            role after the vendor (s3-storage.ts, azure-storage.ts, google-storage.ts)? Files of a flat folder each
            doing something else (server_firebase.go, server_twilio.go) are integrations side by side, not choices."""
            steps = PurePosixPath(ev.path).parts
            for depth in range(2, len(steps) + 1):
                here = parts.get((ev.repository, "/".join(steps[:depth - 1])), {})
                is_file = depth == len(steps)
                mine = (steps[depth - 1], is_file)
                kind = role(mine[0]) if is_file else None
                if is_file and mine in here:
                    # a folder of files each named for a vendor it reaches (idp/google.go, idp/github.go,
                    # idp/baidu.go): one file per vendor, the folder's capability offered through each
                    named = {PurePosixPath(p[0]).stem.lower() for p, v in here.items() if named_for_vendor(p, v)}
                    if len(named) >= CHOICES:
                        return True
                if len(here.get(mine, set())) != 1 or kind == "":
                    continue
                alike = [p for p, v in here.items() if len(v) == 1 and p[1] == is_file
                         and (not is_file or role(p[0]) == kind)]
                # (distinct vendors: three files calling one API are no choice)
                if len({next(iter(here[p])) for p in alike}) >= CHOICES:
                    return True
            return False

        handed = self._handed_names()
        for cid in sorted(calls):
            comp = self.model.components.get(cid)
            if comp is None or "code.container-engine" in comp.rules:
                continue  # (the host's container engine a pipeline back end drives is no vendor one picks)
            keys = [k for k in links.get(cid, []) if k in self.model.connections]
            if not keys or any(k[1] != cid for k in keys):
                continue
            # a file reaching several vendors (a shared HTTP client the choices call through) says nothing;
            # every file reaching this vendor alone must be a choice, and one call at least
            dedicated = [ev for ev in calls[cid] if file_vendors.get((ev.repository, ev.path)) == {externals[cid]}]
            if not any(chosen(ev) for ev in calls[cid]) or not all(chosen(ev) for ev in dedicated):
                continue
            vendor = externals[cid]
            if any(names_vendor(n, vendor) for k in keys for n in handed.get(k[0], ())):
                continue  # its deployment configures it
            self._unlist(cid, {k: (k[0], f"{comp.name}: optional, one of several vendors offered side by side",
                                   min(self.model.connections[k].evidence)) for k in keys})


# Services that answer a caller with its own public address (and, for some, where that address is): a program
# asks them about the machine it runs on, to print it, check its connectivity or fill in a setting.
ADDRESS_ECHO_HOSTS = frozenset({
    "api.ipify.org", "api4.ipify.org", "api6.ipify.org", "api64.ipify.org", "ipinfo.io", "ipapi.co", "api.ipapi.is",
    "ip-api.com", "checkip.amazonaws.com", "icanhazip.com", "ipv4.icanhazip.com", "ipv6.icanhazip.com", "ifconfig.me",
    "ifconfig.co", "whatismyip.akamai.com", "ident.me", "v4.ident.me", "v6.ident.me", "api.myip.com", "ipecho.net",
    "wtfismyip.com", "ipv4.wtfismyip.com", "api.ip.sb", "checkip.dyndns.org", "api.seeip.org", "ipwho.is",
})


class AddressEchoRules(KeyedVendorRules):
    """``code.address-echo``."""

    def address_echo(self) -> None:
        """An external system that only tells the caller its own public address (``api.ipify.org``,
        ``checkip.amazonaws.com``, ``ipinfo.io``) is a probe of the host's network, not a system the architecture
        uses: its connections become unresolved entries and it leaves the model."""
        links = self._links()
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            host = (comp.attributes.get("host") or comp.name).lower()
            if comp.kind != "external" or not any(host == h or host.endswith("." + h) for h in ADDRESS_ECHO_HOSTS):
                continue
            entries = {}
            for k in links.get(cid, []):
                caller = k[0] if k[1] == cid else k[1]
                evidence = min(self.model.connections[k].evidence)
                entries[k] = (caller, f"{host}: asks for its host's own public address (not a system it uses)", evidence)
            self._unlist(cid, entries)
