"""Who sends mail into a mail server the system runs.

Why: a mail transfer agent (Postfix in docker-mailserver, Stalwart, Maddy, Mailu's front) listens on SMTP's port 25,
where the internet's mail servers deliver to it, and it delivers to theirs: its documents draw those remote mail
servers.  A mail catcher for developers (MailHog, Mailpit, Inbucket) listens on an unprivileged SMTP port (1025, 2500,
2525), where the applications under test send their mail: its documents draw "the sending application".  Both are
peers outside the system that no address in the repository names; the port the deployment or the image's recipe
opens says which one it is.  One external node for each, reaching every component of the system's own code (or image)
listening so: a catcher image a system runs for its own services' mail is reached by those services.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Evidence, Fact

MTA_PORT = 25
CATCHER_PORTS = frozenset({1025, 2500, 2525})


class MailPeerRules(ResolverBase):
    """``code.mail-peers``."""

    def mail_peers(self) -> None:
        listening: dict[tuple[str, int], Evidence] = {}  # (component, port) -> the line opening it
        for f in sorted(self.by_kind["compose.service"], key=Fact.order):
            cid = self.alias.get((f.get("name") or "").lower())
            for p in re.split(r"[,\s]+", f.get("ports") or ""):
                inner = p.split("/")[0].rsplit(":", 1)[-1]
                if cid and inner.isdigit():
                    listening.setdefault((cid, int(inner)), f.evidence)
        for f in sorted(self.by_kind["docker.expose"], key=Fact.order):
            port = f.get("port") or ""
            cid = self.recipe_owner(f.repository, f.path)
            if cid and port.isdigit():
                listening.setdefault((cid, int(port)), f.evidence)
        peers = (("remote-mail-servers", "mail servers of the internet delivering to this one (SMTP, port 25)",
                  lambda port: port == MTA_PORT),
                 ("mail-senders", "applications sending their mail to this catcher (SMTP)",
                  lambda port: port in CATCHER_PORTS))
        for name, role, wanted in peers:
            for (cid, port), evidence in sorted(listening.items()):
                comp = self.model.components.get(cid)
                if comp is None or comp.kind not in ("service", "gateway") or not wanted(port):
                    continue
                if not self.built_here(comp):
                    continue  # a third-party image beside the system (a mail catcher its services send to): theirs
                if name == "mail-senders" and (cid, MTA_PORT) in listening:
                    continue  # (a mail server's extra listener, not a catcher)
                existing = self.alias.get(name)
                target = existing if existing and self.model.components[existing].kind == "external" else \
                    self.add_component(name, "external", None, evidence, attributes={"role": role}).id
                self.connect(target, cid, "smtp", [evidence], kind="calls", attributes={"via": f"SMTP port {port}"})
