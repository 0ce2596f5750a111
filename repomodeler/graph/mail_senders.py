"""The mail server a program sends through: the SMTP relay its operator configures.

Why a rule of its own: most applications with accounts send mail (invitations, password resets, alerts)
through an SMTP server the operator names in a setting (``SMTP_HOST``, ``MAIL_HOST``, ``spring.mail.host``,
``MAILER_DSN``).  The address is the operator's and is rarely in the repository (empty, ``smtp.example.com``,
``localhost``), so the address rules, which draw a named mail host (``config.address-values``), cannot draw
it.  The mail library the code imports (smtplib, nodemailer, net/smtp, lettre, JavaMail, MailKit,
PHPMailer, Laravel's Mail, a Rails mailer) says the program sends mail by SMTP: it reaches a mail server, one external
``smtp`` node for the system, or the mail server the system runs itself (a mail catcher such as MailHog,
a host a setting names) when there is one.
"""

from __future__ import annotations

import re

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Fact

# Libraries that send mail by SMTP, by the module name each language imports.  (Message builders alone,
# MimeKit or Python's `email` package, send nothing; an SMTP *server* library is not a client.)
MAIL_LIBRARIES = re.compile(
    r"^("
    # Python
    r"smtplib|aiosmtplib|django\.core\.mail(\..*)?|flask_mail|flask_mailman|fastapi_mail|yagmail|redmail"
    # JavaScript and TypeScript
    r"|nodemailer(/.*)?|@nestjs-modules/mailer|@nest-modules/mailer|emailjs"
    # Go
    r"|net/smtp|gopkg\.in/(gomail|mail)\.v2|github\.com/go-mail/mail(/v\d+)?|github\.com/wneessen/go-mail(/.*)?"
    r"|github\.com/jordan-wright/email|github\.com/xhit/go-simple-mail(/v\d+)?"
    # Java and Kotlin
    r"|javax\.mail(\..*)?|jakarta\.mail(\..*)?|org\.springframework\.mail(\..*)?|org\.simplejavamail(\..*)?"
    r"|org\.apache\.commons\.mail(\..*)?"
    # .NET
    r"|MailKit(\..*)?|System\.Net\.Mail|FluentEmail\.(Smtp|MailKit)(\..*)?"
    # PHP
    r"|PHPMailer\\PHPMailer(\\.*)?|Symfony\\Component\\Mailer(\\.*)?|Illuminate\\Mail(\\.*)?"
    r"|Cake\\Mailer(\\.*)?|Illuminate\\Support\\Facades\\Mail|Illuminate\\Notifications\\Messages\\MailMessage|Laminas\\Mail(\\.*)?"
    # Ruby (a Rails mailer: `class Mailer < ActionMailer::Base`, SMTP its default delivery method)
    r"|ActionMailer::Base"
    # Rust
    r"|lettre(::.*)?"
    r")$")
# Settings naming the SMTP server a program sends through, as its code reads them from the environment
# (`os.environ.get("EMAIL_HOST")`, Laravel's `env('MAIL_HOST')`, `process.env.SMTP_HOST`, Meteor's
# `MAIL_URL`, Symfony's `MAILER_DSN`), with or without the program's prefix (`GF_SMTP_HOST`).  A sender's
# *address* (`MAIL_FROM_ADDRESS`, `EMAIL_ADDRESS`) names no server; only SMTP_ADDRESS (Rails) does.
MAIL_SERVER_SETTING = re.compile(
    r"(^|_)(SMTP_(HOST|HOSTS|HOSTNAME|SERVER|ADDRESS|URL|RELAY|RELAY_HOST)"
    r"|(MAIL|EMAIL|MAILER)_(HOST|HOSTNAME|SERVER|SMTP_HOST|SMTP_SERVER|URL|DSN))$", re.I)
# Ports of SMTP: a program listening on one is a mail server itself, not a sender through one.
SMTP_PORTS = frozenset({25, 465, 587, 1025, 2525})


def mail_library(module: str) -> bool:
    return bool(MAIL_LIBRARIES.match(module))


def mail_server_setting(name: str) -> bool:
    """Does a setting the code reads name the SMTP server it sends through?"""
    return bool(MAIL_SERVER_SETTING.search(name))


class MailSenderRules(ResolverBase):
    """``code.mail-senders``."""

    def mail_senders(self) -> None:
        """Each process whose code imports a mail library (and each deployment running that code with another
        command, its worker) sends through a mail server: the one it already
        reaches by a setting (left as it is), else the single mail server the system runs (a mail catcher,
        a host a setting names), else one external ``smtp`` node standing for the operator's relay."""
        senders: dict[str, Fact] = {}
        # the mail library it imports, or (a framework's mailer, configured rather than imported: Django,
        # Laravel, Rails) the SMTP server setting its code reads
        clues = [f for f in self.by_kind["import"] if mail_library(f.get("module") or "")]
        clues += [f for f in self.by_kind["env.read"] if mail_server_setting(f.get("name") or "")]
        for f in sorted(clues, key=lambda f: f.order()):
            for o in self._code_runners(f):
                if not self.maintenance_code(o, f):
                    senders.setdefault(o, f)
        if not senders:
            return
        # a deployment running a sender's code with another command (its worker) runs the mail code too
        for c in sorted(self.model.components.values(), key=lambda c: c.id):
            code = c.attributes.get("runs_code_of")
            if code in senders and c.kind in ("service", "gateway"):
                senders.setdefault(c.id, senders[code])
        servers = sorted(c.id for c in self.model.components.values()
                         if c.attributes.get("technology") == "smtp"
                         or "mail" in c.attributes.get("platform_role", "").split(","))
        for cid in sorted(senders):
            if any(cid in self.ports_served.get(p, ()) for p in SMTP_PORTS):
                continue  # it serves SMTP: a mail server of the system's own
            if cid in servers or any(k[0] == cid and k[1] in servers for k in self.model.connections):
                continue  # its mail server is known
            f = senders[cid]
            if len(servers) == 1:
                target = servers[0]
            elif servers:
                continue  # several: which one is not told
            else:
                existing = self.alias.get("smtp")
                target = existing if existing and self.model.components[existing].kind == "external" else \
                    self.add_component("smtp", "external", None, f.evidence, aliases=("mail server", "smtp server"),
                                       attributes={"technology": "smtp",
                                                   "role": "the mail server the operator configures (SMTP host setting)"}).id
                servers = [target]
            via = f"mail library {f.get('module')}" if f.kind == "import" else f"mail server setting {f.get('name')}"
            self.connect(cid, target, "tcp", [f.evidence], attributes={"via": via})
