"""Outside hosts that only a literal URL in an HTTP client call names: listed, not drawn.

Why: code calls many hosts by a URL written into it: a metadata lookup, a release check, a notification
channel one setting turns on, a geocoder, a currency rate. Each is real, and each is drawn by the
client-call rule as an external system. The architecture a system's own documents draw shows the hosted
services it is built around, which its deployment configures (a key, an endpoint, an SDK's settings) or
its documents name; a host only one call's literal names is seldom among them. On the project's
development sets (about 370 systems whose ground truth was drawn from their documents), 19 of 135 such
hosts were drawn by the truth: as nodes they cost far more precision than they bring recall.

The rule reads hosts the client-call rule made: URLs the code assembles before the call (a variable, a
constant passed on, a template with the path's parameters). A URL literal written at the call is the
address-literal rule's and stays drawn: on the shared kit, the one such host (a movie service's TMDB API,
called with a key from its settings) is in the truth, and listing those too cost more than it brought there.

A host that anything else names stays drawn: a setting or deployment value the call reads, an address
literal the code keeps elsewhere, the vendor's SDK, a rule of another kind. What is taken out stays in the
model's ``unresolved`` list at the call's line, so nothing found is lost and a reader sees every call.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from repomodeler.graph.keyed_vendors import KeyedVendorRules, names_vendor
from repomodeler.graph.vendors import vendor_name
from repomodeler.inventory import SETTINGS_DIRS
from repomodeler.languages import language_for_path
from repomodeler.records import Evidence

# Rules whose mark on a host adds nothing to the literal call: the call itself, and the naming of a
# vendor's hosts as one system.
CALL_RULES = frozenset({"code.client-calls", "code.vendor-domains"})
# Source files that are an application's settings (Django's settings.py, Laravel's config/services.php,
# a config package's constants): a URL kept there is one the operator is meant to change. (The inventory's
# settings folders, and two more names a settings module goes by.)
SETTINGS_WORDS = SETTINGS_DIRS | {"setting", "configuration"}


def in_settings(path: str) -> bool:
    """Is `path` a settings module or under a settings folder (``herder/settings.py``, ``config/services.php``,
    ``app/config/base.py``)?"""
    p = PurePosixPath(path.lower())
    return p.stem in SETTINGS_WORDS or any(part in SETTINGS_WORDS for part in p.parts[:-1])


class LiteralHostRules(KeyedVendorRules):
    """``code.literal-hosts``."""

    def literal_hosts(self) -> None:
        """An external system the client-call rule made, every mark and every piece of evidence of which
        comes from literal URLs of HTTP client calls in source files that are not settings modules (no
        setting file, deployment, SDK or other rule names it, and no deployment hands its callers a setting
        naming its vendor), and which calls nothing itself, is listed as unresolved at each call, not
        drawn."""
        if not any(self.created_by.get(cid) == "client_calls" for cid, c in self.model.components.items()
                   if c.kind == "external"):
            return  # (no host to weigh: the links need not be gathered)
        links = self._links()
        handed: dict[str, set[str]] | None = None
        calls: set[Evidence] | None = None
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "external" or self.created_by.get(cid) != "client_calls" or not comp.rules <= CALL_RULES:
                continue
            keys = [k for k in links.get(cid, []) if k in self.model.connections]
            if not keys or any(k[1] != cid for k in keys):
                continue  # (it calls something back, or nothing reaches it: not this rule's)
            evidence: set[Evidence] = set(comp.evidence)
            marks: set[str] = set()
            for k in keys:
                conn = self.model.connections[k]
                evidence |= conn.evidence
                marks |= conn.rules
            if not marks <= CALL_RULES or any(language_for_path(ev.path) is None or in_settings(ev.path)
                                              for ev in evidence):
                continue  # another rule, a setting or a deployment file names it too
            if handed is None:
                handed = self._handed_names()
            vendor = vendor_name(comp.name)
            if vendor and any(names_vendor(n, vendor) for k in keys for n in handed.get(k[0], ())):
                continue  # its deployment hands the caller a setting of that vendor (LYRICS_DB_TOKEN): configured
            host = comp.attributes.get("host") or comp.name
            if calls is None:
                calls = {f.evidence for f in self.by_kind["http.client"]}
            # (listed at the call's line, not at a constant the URL came through)
            self._unlist(cid, {k: (k[0], f"{host}: an outside host only a literal URL of this call names "
                                         f"(listed, not drawn)",
                                   min(self.model.connections[k].evidence & calls or self.model.connections[k].evidence))
                               for k in keys})
