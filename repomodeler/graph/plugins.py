"""Hosts only plug-ins call: optional integrations, listed rather than drawn.

Why: a product with a plug-in folder (``plugins/slack``, ``dolphinscheduler-alert-plugins/...webex``)
can talk to many vendors, each only when an operator enables that plug-in. Drawn as externals they
outnumber the system's own parts and are not how it runs by default; the architecture documents of
such systems leave them out. They stay in the model's ``unresolved`` list with the plug-in's line,
so nothing found is lost.

The same holds for three other kinds of optional module: sign-in providers (``auth/provider/oauth/github.py``,
``google_oauth.py``: a login method an administrator turns on with a client id), alternative providers
(``upload/providers/azure-blob-provider.ts`` beside the S3 one: configuration picks one) and enterprise-edition
code (``src/ee/billing``: switched on by a licence key).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.values import parse_hosts
from repomodeler.graph.vendors import vendor_name
from repomodeler.records import Evidence, Unresolved

# How many vendors, each reached only from a module named after it, make a catalog of integrations.
CATALOG_SIZE = 4
# How many sibling modules (files or packages) beside a vendor-named module make its folder a catalog by
# itself (``destinations/chatwork.py`` among a dozen destinations, ``tools/api_bugcrowd/`` among parsers).
CATALOG_FOLDER_SIZE = 8
# Folders that hold one plug-in (an optional integration) per child.
# (connectors to other products, and importers or migrations from them, a user sets up and starts: optional too)
PLUGIN_FOLDER = re.compile(r"^(plugins?|add-?ons?|extensions|integrations?|connectors?|importers?|migration)$"
                           r"|[-_](plugins?|add-?ons?|integrations?|connectors?|importers?)$", re.I)
# Folders whose children are alternatives configuration picks from (storage, sandbox, push providers), and the
# enterprise edition's folder (``ee/``, enabled by a licence).
PROVIDER_FOLDER = re.compile(r"^providers?$", re.I)
ENTERPRISE_FOLDER = re.compile(r"^ee$")
# A sign-in provider's module: a folder or file named for OAuth, OpenID Connect, SAML or SSO
# (``provider/oauth/github.py``, ``google_oauth.py``, ``OAuthTokenProvider.java``, ``oauth_callback.go``).
SIGN_IN_MODULE = re.compile(r"(?:^|[^A-Za-z]|(?<=[a-z]))(?:[Oo][Aa]uth2?|OAUTH2?|oidc|OIDC|saml|SAML|sso|SSO)(?=$|[^a-z])")


def in_plugin(path: str) -> str | None:
    """The plug-in folder a repository path lies in (``plugins/slack``), else None."""
    parts = PurePosixPath(path).parts[:-1]
    for i, part in enumerate(parts):
        if PLUGIN_FOLDER.search(part) and i + 1 < len(parts):
            return "/".join(parts[: i + 2])
    return None


def optional_module(path: str) -> tuple[str, str] | None:
    """(what kind, which) of optional module a repository path lies in: a plug-in folder, an alternative of a
    providers folder (the child, file or folder), the enterprise edition's folder, or a sign-in provider's
    module (the folder or file named for OAuth/OIDC/SAML/SSO). None for the product's own code."""
    found = in_plugin(path)
    if found:
        return "plug-in", found
    p = PurePosixPath(path)
    parts = p.parts
    for i, part in enumerate(parts[:-1]):
        if PROVIDER_FOLDER.match(part) and i + 1 < len(parts):
            return "provider", "/".join(parts[: i + 2])
        if ENTERPRISE_FOLDER.match(part):
            return "enterprise edition", "/".join(parts[: i + 1])
    for i, part in enumerate([*parts[:-1], p.stem]):
        if SIGN_IN_MODULE.search(part):
            return "sign-in provider", "/".join(parts[: i + 1])
    return None


class PluginRules(ResolverBase):
    """External systems that only plug-ins reach."""

    _url_literals: dict[str, list[str]] | None = None  # host -> paths of the URL literals naming it

    def optional_plugins(self) -> None:
        catalog = self._vendor_modules()
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "external":
                continue
            into = [k for k in self.model.connections if k[1] == cid]
            if not into or any(k[0] not in self.model.components for k in into):
                continue
            evidence = [e for k in into for e in self.model.connections[k].evidence]
            plugins = {optional_module(e.path) for e in evidence}
            if None in plugins and plugins - {None} and self._host_written_only_in_plugins(comp.name, comp.evidence):
                plugins.discard(None)  # shared code (an OAuth helper's fetch) calling what a plug-in hands it
            if cid in catalog:
                plugins = {("module", catalog[cid])}
            if not evidence or None in plugins or any(self.model.connections[k].source == cid for k in self.model.connections):
                continue  # reached from the product's own code too (or it calls back): part of the system
            for k in sorted(into):
                conn = self.model.connections.pop(k)
                self.created_by.pop(k, None)
                first = min(conn.evidence)
                what = " ".join(optional_module(first.path) or ()) if cid not in catalog else f"module {catalog[cid]}"
                self.model.unresolved.append(Unresolved(k[0], f"{comp.name}: optional integration of {what}", first))
            self.drop_component(cid)

    def _host_written_only_in_plugins(self, host: str, found_at: set[Evidence] | None = None) -> bool:
        """Whether every URL literal naming `host` in the code lies in a plug-in folder (at least one; where the
        code writes it in no URL literal, `url.URL{Host: "login.microsoftonline.com"}`, the lines the external
        was found at): then the product's shared code reaches it only with what a plug-in passes in.  A URL in
        a sentence (a flag's help text, `"issuer URL (ie: https://accounts.google.com)"`) is an example, no
        address the code uses."""
        if self._url_literals is None:
            self._url_literals = {}
            for f in self.by_kind["string.url"]:
                if re.search(r"\s", (f.get("value") or "").strip()):
                    continue
                for ref in parse_hosts(f.get("value") or ""):
                    self._url_literals.setdefault(ref.host.lower(), []).append(f.path)
        paths = self._url_literals.get(host.lower(), []) or sorted(e.path for e in found_at or ())
        return bool(paths) and all(optional_module(p) for p in paths)

    def _vendor_modules(self) -> dict[str, str]:
        """External id -> the module named after its vendor, when the code reaches each of at least
        CATALOG_SIZE vendors only from modules named after that vendor (``lib/tumblr_api_client.rb``
        for api.tumblr.com, ``agents/pushover_agent.rb`` for api.pushover.net): a catalog of
        integrations a user picks from, not the system's own dependencies. Fewer such vendors (a
        shop's ``stripe_client.py``) stay external systems, unless the vendor's module (the file, or the
        package folder ``api_bugcrowd/``) is one of CATALOG_FOLDER_SIZE or more siblings: a folder of
        destinations or parsers is a catalog whatever number of them name a host."""
        found: dict[str, str] = {}
        in_big_folder: set[str] = set()
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            vendor = vendor_name(comp.name) if comp.kind == "external" else ""
            if len(vendor) < 4:
                continue
            paths = {(e.repository, e.path) for k, conn in self.model.connections.items() if k[1] == cid
                     for e in conn.evidence}
            modules = {self._vendor_module(r, p, vendor) for r, p in paths}
            if paths and None not in modules:
                found[cid] = min(p for _r, p in paths)
                if all(self._siblings(m) >= CATALOG_FOLDER_SIZE for m in modules if m is not None):
                    in_big_folder.add(cid)
        return found if len(found) >= CATALOG_SIZE else {c: m for c, m in found.items() if c in in_big_folder}

    @staticmethod
    def _vendor_module(repo: str, path: str, vendor: str) -> tuple[str, str] | None:
        """(repository, the module named after `vendor`): the file (``chatwork.py``) or its package folder
        (``api_bugcrowd/api_client.py``); None when neither names the vendor."""
        p = PurePosixPath(path)
        for node in (p, p.parent):
            st = re.sub(r"[^a-z0-9]", "", node.stem.lower() if node is p else node.name.lower())
            if st and (vendor in st or (st in vendor and len(st) >= 4)):
                return repo, node.as_posix()
        return None

    def _siblings(self, module: tuple[str, str]) -> int:
        """How many modules (files or packages) of code sit in the folder of `module`, itself included."""
        repo, path = module
        parent = PurePosixPath(path).parent.as_posix()
        prefix = "" if parent == "." else parent + "/"
        return len({x[len(prefix):].split("/")[0] for r, x in self.code_paths if r == repo and x.startswith(prefix)})
