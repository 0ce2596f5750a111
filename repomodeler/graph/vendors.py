"""Hosts of one vendor's domain are one external system.

Why: code reaches a vendor through several host names (``github.com`` for clones and sign-in pages,
``api.github.com`` for its REST API). Drawn apart they are two boxes for one system the architecture
documents call by one name, and each caller links to only one of them. Where the bare domain is itself
one of the externals, the other hosts of that domain fold into it and stay its aliases. Every such
external is also known by the vendor's name (``api.pushover.net``: ``pushover``), the name people
and documents use for it. Cloud
platforms whose subdomains are separate services (``s3.amazonaws.com`` and ``sqs.amazonaws.com``)
are left apart, as are domains where no bare-domain external exists (nothing to name the group).
"""

from __future__ import annotations

import re
from collections import defaultdict

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import SDK_SERVICES
from repomodeler.records import Unresolved

# Domains whose subdomains are separate services (or separate tenants' sites), not one vendor API.
MULTI_SERVICE_DOMAINS = frozenset({
    "amazonaws.com", "aws.amazon.com", "googleapis.com", "google.com", "cloudfunctions.net", "appspot.com",
    "windows.net", "azure.com", "azurewebsites.net", "azure-api.net", "microsoft.com", "microsoftonline.com",
    "cloudfront.net", "herokuapp.com", "github.io", "gitlab.io", "netlify.app", "vercel.app", "pages.dev",
    "workers.dev", "firebaseapp.com", "web.app", "ngrok.io", "svc.cluster.local", "cluster.local",
})
# Second-level labels under a country code (example.co.uk): the registered domain has three labels.
COUNTRY_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"})


def registered_domain(host: str) -> str | None:
    """``api.github.com`` -> ``github.com``; ``api.example.co.uk`` -> ``example.co.uk``; None for a name
    with one label or an IP address."""
    labels = host.lower().strip(".").split(".")
    if len(labels) < 2 or all(x.isdigit() for x in labels):
        return None
    n = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in COUNTRY_SECOND_LEVEL else 2
    return ".".join(labels[-n:])


def vendor_name(host: str) -> str:
    """The vendor a host belongs to, as people name it: ``api.pushover.net`` -> ``pushover``; a label
    that only adds "api"/"app" to the name drops it (``api.dropboxapi.com`` -> ``dropbox``); empty for
    a host with no registered domain."""
    domain = registered_domain(host)
    label = re.sub(r"[^a-z0-9]", "", domain.split(".")[0]) if domain else ""
    short = re.sub(r"(apis?|app|hq)$", "", label)
    return short if len(short) >= 4 else label


# Names too general to say which project a repository is (a root package called "server").
GENERIC_PROJECT_NAMES = frozenset({
    "server", "client", "backend", "frontend", "service", "services", "monorepo", "workspace", "project",
    "example", "examples", "sample", "samples", "demo", "platform", "system", "application", "webapp",
    "website", "common", "shared", "utils", "tools", "root", "main", "master", "myapp", "microservices",
})
# Code hosting and package domains a Go module path starts with: they name the host, not the project.
# Hosts serving the files of a code host's repositories (raw.githubusercontent.com/<owner>/<name>/...).
RAW_CODE_HOSTS = frozenset({"githubusercontent.com"})
# A call and its URL argument: the URL is written on the call's line or on one of the next lines.
CALL_LINES = 3
CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "golang.org", "googlesource.com", "gopkg.in",
                        "k8s.io", "sigs.k8s.io", "go.dev", "codeberg.org", "sr.ht"})


def project_names(manifests: list[tuple[str, str]], packages: list[str] = ()) -> set[str]:
    """Keys of the names a repository gives itself: its root manifests' names ((ecosystem, name)
    pairs: ``outline`` (package.json), ``netbox`` (pyproject), ``woodpecker`` and ``woodpeckerci`` (the
    Go module ``go.woodpecker-ci.org/woodpecker/v3``), the scope of ``@karakeep/root``) and the npm scope
    three or more of its `packages` share (``@novu/api``, ``@novu/ws``...). Names shorter than five
    letters (four for a scope) or generic ones say nothing."""
    out: set[str] = set()

    def add(name: str, shortest: int = 5) -> None:
        k = re.sub(r"[^a-z0-9]", "", name)
        if len(k) >= shortest and k not in GENERIC_PROJECT_NAMES:
            out.add(k)
            # pgadmin4: a name ending in its major version goes by the name without it too (pgadmin.org)
            bare = re.sub(r"(?<=[a-z])\d{1,2}$", "", k)
            if bare != k and len(bare) >= shortest and bare not in GENERIC_PROJECT_NAMES:
                out.add(bare)

    for ecosystem, name in manifests:
        name = name.strip().lower()
        if not name:
            continue
        if ecosystem == "go":
            parts = [p for p in name.split("/") if not re.fullmatch(r"v\d+", p)]
            if parts:
                add(parts[-1])
            if parts and "." in parts[0] and registered_domain(parts[0]) not in CODE_HOSTS:
                add((registered_domain(parts[0]) or "").split(".")[0])
            continue
        add(name.rsplit("/", 1)[-1])
        # unleash-server, growthbook-app: the project's name before a word for the role of the package
        head, _sep, role = name.rsplit("/", 1)[-1].rpartition("-")
        if head and (role in GENERIC_PROJECT_NAMES or role in ("app", "api", "web", "core")):
            add(head)
        if name.startswith("@") and "/" in name:
            add(name[1:].split("/", 1)[0], 4)
    scopes: dict[str, int] = defaultdict(int)
    for name in packages:
        if name.startswith("@") and "/" in name:
            scopes[name[1:].split("/", 1)[0].lower()] += 1
    for scope, n in scopes.items():
        if n >= 3:
            add(scope, 4)
    return out


# Top-level names private to a network or reserved for tests: no vendor's public site lives there.
LOCAL_TLDS = frozenset({"local", "localhost", "internal", "lan", "home", "test", "example", "invalid", "localdomain"})


class VendorRules(ResolverBase):
    """External hosts of one registered domain fold into the domain's own external."""

    def vendor_domains(self) -> None:
        groups: dict[str, list[str]] = defaultdict(list)
        known = {host: names for _pattern, host, names in SDK_SERVICES}
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind == "external" and comp.name.lower() in known:  # s3.amazonaws.com: s3, amazon s3
                fresh = tuple(n for n in known[comp.name.lower()] if n not in comp.aliases and n not in self.alias)
                if fresh:
                    self.add_component(comp.name, comp.kind, comp.repository, min(comp.evidence), fresh)
            domain = registered_domain(comp.name) if comp.kind == "external" else None
            if domain and domain not in MULTI_SERVICE_DOMAINS and not any(
                    comp.name.lower().endswith("." + d) for d in MULTI_SERVICE_DOMAINS):
                groups[domain].append(cid)
        for domain in sorted(groups):
            members = groups[domain]
            bare = [c for c in members if self.model.components[c].name.lower() == domain]
            if len(members) >= 2 and bare:
                for cid in members:
                    if cid != bare[0]:
                        self._fold_external(cid, bare[0])
                members = bare[:1]
            vendor = vendor_name(domain)
            for cid in members:  # known by the vendor's name too (api.pushover.net: pushover)
                comp = self.model.components[cid]
                if len(vendor) >= 3 and vendor not in comp.aliases and vendor not in self.alias:
                    self.add_component(comp.name, comp.kind, comp.repository, min(comp.evidence), (vendor,))

    def _fold_external(self, cid: str, into: str) -> None:
        """Move `cid`'s links and names onto `into` and drop `cid`."""
        self.fold_component(cid, into)

    def _project_names(self) -> tuple[set[str], set[str], set[str]]:
        """(names, exact short names, image domains) the project goes by: see project_sites."""
        names = project_names([(f.get("ecosystem") or "", f.get("name") or "") for f in self.by_kind["manifest"]
                               if "/" not in f.path.strip("/")],
                              sorted({f.get("name") or "" for f in self.by_kind["manifest"] if f.get("ecosystem") == "npm"}))
        # ... and by the names its repositories are published under (lago, bitwarden-server): a short one
        # only as a whole label (a local folder's own name says nothing: it is whatever the user called it)
        repo_names = {p for p in self.projects.values() if p}
        names |= project_names([("", n) for n in sorted(repo_names)])
        exact = {k for n in repo_names for k in [re.sub(r"[^a-z0-9]", "", n.lower())]
                 if len(k) == 4 and k not in GENERIC_PROJECT_NAMES}
        # ... and by its published image when that is named like a domain (calcom/cal.com: the site cal.com)
        image_domains = {re.sub(r"[^a-z0-9]", "", seg.lower()) for f in self.by_kind["compose.service"]
                         for seg in (f.get("image") or "").split(":")[0].split("/")[1:] if "." in seg}
        return names, exact, image_domains

    def project_sites(self) -> None:
        """Hosts of the project's own domain (``updates.getoutline.com`` in Outline, ``plane.so`` in
        Plane, ``woodpecker-ci.org`` in Woodpecker) are the vendor's update checks, telemetry, docs and
        news feeds, which a running installation calls home to; they are not a part of the system
        being deployed, and documents never draw them. The project is known by the names its root
        manifests give it and by its repositories' names; such an external is left out and listed in
        ``unresolved`` with its line."""
        names, exact, image_domains = self._project_names()
        if not names and not exact and not image_domains:
            return
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            domain = registered_domain(comp.name) if comp.kind == "external" else None
            if not domain or domain in MULTI_SERVICE_DOMAINS or domain in CODE_HOSTS \
                    or domain.rsplit(".", 1)[-1] in LOCAL_TLDS:
                continue  # (a name under .local or .internal is a host of the deployment, never the vendor's site)
            label = re.sub(r"[^a-z0-9]", "", domain.split(".")[0])
            if not any(n in label for n in names) and label not in exact \
                    and re.sub(r"[^a-z0-9]", "", domain) not in image_domains:
                continue
            self._list_not_draw(cid, f"{comp.name}: the project's own site (update checks, telemetry, news), not drawn")

    def own_repository_checks(self) -> None:
        """A code host reached only at the project's own repositories (``api.github.com/repos/<owner>/<project>/
        releases/latest``, ``raw.githubusercontent.com/<owner>/homebrew-tap/...``) is the program checking for a
        newer release of itself: no part of the system, listed and not drawn. (It runs after the integration
        hub has counted the vendors a component reaches, which it is one of.)"""
        names, _exact, _domains = self._project_names()
        own = {re.sub(r"[^a-z0-9]", "", n.lower()) for n in self.projects.values() if n} | names
        if not own:
            return
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            domain = registered_domain(comp.name) if comp.kind == "external" else None
            if (domain in CODE_HOSTS or domain in RAW_CODE_HOSTS) and self._own_repository_urls(comp, own):
                self._list_not_draw(cid, f"{comp.name}: the project's own repository (a release or update check), not drawn")

    def raw_file_downloads(self) -> None:
        """A code host's raw file host (``raw.githubusercontent.com``, ``gist.githubusercontent.com``) serves the
        files kept in repositories: a program reaching it downloads a file (a country list, a blocklist, an
        installer script), it calls no service of the system. Listed at each caller's line, not drawn. One a
        gateway's reverse proxy forwards the users to (`location /github/ { proxy_pass https://raw.githubusercontent.com;
        }`) serves the system's own pages: it stays."""
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "external" or registered_domain(comp.name) not in RAW_CODE_HOSTS:
                continue
            if any(cid == k[1] and str(conn.attributes.get("via", "")).startswith("reverse proxy")
                   for k, conn in self.model.connections.items()):
                continue
            self._list_not_draw(cid, f"{comp.name}: a file downloaded from a code host's repository, not a service")

    def _list_not_draw(self, cid: str, why: str) -> None:
        """Drop external `cid`, listing each caller's line (else its own) in ``unresolved`` with `why`."""
        comp = self.model.components[cid]
        callers = []
        for key in sorted(k for k in self.model.connections if cid in k[:2]):
            conn = self.model.connections.pop(key)
            self.created_by.pop(key, None)
            if conn.source != cid:
                callers.append(Unresolved(conn.source, why, min(conn.evidence)))
        self.model.unresolved.extend(callers or [Unresolved(cid, why, min(comp.evidence))])
        self.drop_component(cid)

    def _own_repository_urls(self, comp, own: set[str]) -> bool:  # type: ignore[no-untyped-def]
        """Does the code reach this code host only at the project's own repositories
        (``https://api.github.com/repos/inngest/inngest/releases/latest``,
        ``https://raw.githubusercontent.com/inngest/homebrew-tap/...``: the owner, or the repository, named like
        the project)? Only the URLs written on the lines that are the external's evidence are read, and on the
        few lines below them (a call whose URL argument is written on the next line: ``requests.get(\\n "https://
        api.github.com/repos/...",\\n timeout=5)``)."""
        seen = {(e.repository, e.path, e.line) for e in comp.evidence}
        for key in self.model.connections:
            if comp.id in key[:2]:
                seen |= {(e.repository, e.path, e.line) for e in self.model.connections[key].evidence}
        lines = {(r, p, n + below) for r, p, n in seen for below in range(CALL_LINES)}
        # (by every host name the external goes by: github.com holds api.github.com's calls too)
        hosts = "|".join(re.escape(h) for h in sorted({comp.name.lower(), *comp.aliases}) if "." in h)
        urls = [v for k in ("string.url", "const.string") for f in self.by_kind[k]
                if (f.repository, f.path, f.line) in lines
                for v in [(f.get("value") or "").strip("\"'`")] if hosts and re.match(rf"(?i)https?://({hosts})(/|$|:)", v)]
        if not urls:
            return False
        for url in urls:
            segments = [x for x in url.split("://", 1)[1].split("/")[1:] if x]
            if segments[:1] == ["repos"]:  # the REST API's /repos/<owner>/<name>
                segments = segments[1:]
            if not any(re.sub(r"[^a-z0-9]", "", x.lower()) in own for x in segments[:2]):
                return False
        return True
