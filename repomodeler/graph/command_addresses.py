"""Addresses a deployment passes to a service on its command line.

Why: many servers take their peers' addresses as flags rather than settings (``hbbs -r
relay:21117``, ``--upstream http://api:8000``, ``--broker kafka:9092``); a compose ``command:`` or
a Kubernetes container's ``command``/``args`` (``$(RELAY_HOST)`` filled from the container's
``env`` as Kubernetes does) is then the only place the link is written.  Only
components the system has are reached (an argument is no declaration of a new system), and the
hosts of waiting tools (``wait-for-it db:5432 -- ...``, ``dockerize -wait tcp://db:5432``) are
skipped, and so are those a start-up loop probes (``while ! curl -s http://config:8888/health;
do sleep 5; done; /app/run.sh``): like ``depends_on`` they order start-up, they do not say the
program talks to that host.  The rule runs once the running components are settled (after the
process rules): a compose service that turns out to be a library's name runs no command here.
A host under a domain reserved for documentation (``relay.example.com``, ``*.example``, ``*.test``,
``*.invalid``: RFC 2606) is a placeholder for the operator's own machine: the port says which
component of the system is meant, when exactly one serves it.  A flag named for a peer's host
(``--master-host master --master-port 8086``) names it alone, without a port: the bare name links too.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.catalog import RESERVED_EXAMPLE, SCHEME_TECH, TECH_KIND
from repomodeler.graph.service_names import UNDERSCORE_HOSTPORT
from repomodeler.graph.values import HOSTPORT_PATTERN, URL_PATTERN, HostRef, parse_hosts
from repomodeler.records import Evidence, Fact

# Tools a start-up script runs to wait for a peer or probe it: their hosts order start-up (like
# depends_on), they are not what the program talks to.
PROBE_TOOLS = re.compile(r"^(wait-for.*|dockerize|curl|wget|nc|ncat|netcat|telnet|ping|nslookup|pg_isready|mysqladmin"
                         r"|redis-cli|healthcheck.*)$")
RUNNING_KINDS = ("service", "gateway")  # what a deployment runs and a command line can start
# A long flag that names a peer's host (`--master-host master`, `--redis-hostname cache`, `--db-addr db`): its value
# may be a bare name, the port given apart (`--master-port 8086`) or left to its default.
HOST_FLAG = re.compile(r"^--[a-z0-9]+(?:[-_][a-z0-9]+)*[-_](?:host|hostname|addr|address)$", re.I)
BARE_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9-]*(?:[._][A-Za-z0-9-]+)*$")
SEPARATORS = frozenset({"--", "do", "then", "done", "fi"})


def _words(command: str, depth: int = 0) -> list[str]:
    """The words of a command line, shell operators (``;``, ``&&``, ``|``, ``>``) apart, those of a
    quoted script (``sh -c "a && b"``) among them."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # an unbalanced quote: the words as written
        words = command.split()
    if depth < 2:
        words = [w for word in words for w in (_words(word, depth + 1) if re.search(r"\s", word) else [word])]
    return words


def argument_addresses(command: str) -> list[tuple[str, str]]:
    """(flag, address) for each argument of `command` that is a URL or a host:port, with the flag
    before it (``-r``) or around it (``--relay=...``); the hosts that waiting and probing tools wait
    for or probe (``wait-for-it``, ``dockerize -wait``, ``curl`` in a wait loop) are left out."""
    out: list[tuple[str, str]] = []
    probing, flag = False, ""
    for word in _words(command):
        if word in SEPARATORS or re.fullmatch(r"[;&|<>()]+", word):
            probing, flag = False, ""
            continue
        if PROBE_TOOLS.match(PurePosixPath(word).name) or word in ("-wait", "--wait"):
            probing = True
            continue
        value = word
        if word.startswith("-"):
            name, eq, rest = word.partition("=")
            if not eq:
                flag = name
                continue
            flag, value = name, rest
        if not probing and (URL_PATTERN.match(value) or HOSTPORT_PATTERN.match(value) or UNDERSCORE_HOSTPORT.match(value)
                            or (HOST_FLAG.match(flag) and BARE_HOST.match(value))):
            out.append((flag, value))
        flag = ""
    return out


class CommandAddressRules(ResolverBase):
    """Services connected to the components their command-line arguments name."""

    def command_line_addresses(self) -> None:
        for f in self.by_kind["program.command"]:
            if f.get("source") == "compose":
                self._command_links(f.get("owner") or "", f.get("command") or "", f.evidence)
        env: dict[tuple[str, str, str], set[str]] = {}
        for f in self.by_kind["config.env"]:
            if f.get("source") == "kubernetes":
                env.setdefault((f.repository, (f.get("owner") or "").lower(), f.get("name") or ""), set()).add(f.get("value") or "")

        def expand(f: Fact, m: re.Match[str]) -> str:  # `$(RELAY_HOST)`: Kubernetes fills it from the container's env
            values = env.get((f.repository, (f.get("name") or "").lower(), m.group(1)), set())
            return next(iter(values)) if len(values) == 1 else m.group(0)

        for f in self.by_kind["k8s.workload"]:
            command = re.sub(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", lambda m, f=f: expand(f, m), f.get("command") or "")
            self._command_links(f.get("name") or "", command, f.evidence)

    def _command_links(self, owner_name: str, command: str, evidence: Evidence) -> None:
        owner = self.alias.get(owner_name.lower())
        if owner is None or not command or self.model.components[owner].kind not in RUNNING_KINDS:
            return  # a service merged into a library (its package's name) runs nothing of its own here
        for flag, value in argument_addresses(command):
            refs = parse_hosts(value) or ([HostRef(m.group("host").lower(), int(m.group("port")), None)]
                                          if (m := UNDERSCORE_HOSTPORT.match(value)) else [])
            if not refs and HOST_FLAG.match(flag) and BARE_HOST.match(value):
                refs = [HostRef(value.lower(), None, None)]  # `--master-host master`: a host named alone
            if len(refs) == 1 and refs[0].scheme and SCHEME_TECH.get(refs[0].scheme) in TECH_KIND \
                    and self.alias.get(refs[0].host) is None:
                # a store's connection URL (amqp://user@rabbitmq:5672) declares the store as a setting does
                self._resolve_value(owner, value, [evidence], allow_external=False,  # type: ignore[attr-defined]
                                    origin=evidence, env_name=flag.lstrip("-"))
                continue
            for ref in refs:
                target = self.alias.get(ref.host) or self.cluster_service(ref.host)  # executor.default.svc.cluster.local
                if target is None and RESERVED_EXAMPLE.search(ref.host):
                    target = self.served_on(ref.port, owner)  # type: ignore[attr-defined]
                if target is None or target == owner:
                    continue
                protocol = self._protocol(ref, target, flag.lstrip("-"))  # type: ignore[attr-defined]
                self.connect(owner, target, protocol, [evidence],
                             attributes={"via": f"command-line argument {flag}".rstrip()})
