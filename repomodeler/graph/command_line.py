"""People run command-line programs: a program of the system that is a CLI is reached by the user.

Why a rule of its own: the front doors are what deployments publish (ports, ingress, gateways, browser
apps), and the programs of a split component are started by people only when the user already enters
that component.  A repository's own command-line client (``woodpecker-cli``, ``kubectl``-like tools)
is neither deployed nor published nor started by another program: without this rule it hangs in the
picture with nobody using it.  A program is a CLI when its name says so (``cli``, ``*ctl``, ``admin``,
``*-cli``), or when its code registers commands with a command framework (cobra, urfave/cli, click,
typer, commander, yargs, oclif, picocli, clap...) and it serves nothing (no routes, no gRPC service).
Either way nothing of the system starts or calls it and no deployment runs it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Component, Evidence, Fact

# Import names of command frameworks (the module as the language's import names it).
COMMAND_FRAMEWORKS = re.compile(
    r"^(github\.com/spf13/cobra|github\.com/urfave/cli(/v\d+)?|gopkg\.in/urfave/cli\.v\d+|github\.com/alecthomas/kong"
    r"|github\.com/alecthomas/kingpin(/v\d+)?|gopkg\.in/alecthomas/kingpin\.v\d+|click|typer|cleo(\..*)?|fire"
    r"|commander|yargs|@oclif/core|oclif|cac|meow|picocli(\..*)?|clap|System\.CommandLine(\..*)?|thor)$")
LOOPBACK_ADDRESS = re.compile(r"[\"'](127\.0\.0\.1|localhost|\[::1\]):")
CLI_TOKEN = re.compile(r"^(cli|ctl|admin|[a-z0-9]+ctl|[a-z0-9]+cli)$")


def cli_name(name: str) -> bool:
    """Does a program's name say it is a command-line tool (``cli``, ``woodpecker-cli``, ``etcdctl``,
    ``mq-admin``)? The last word decides: ``admin-server`` is a server."""
    tokens = [t for t in re.split(r"[-_.\s/]+", name.lower()) if t]
    return bool(tokens) and bool(CLI_TOKEN.match(tokens[-1]))


class CommandLineRules(ResolverBase):
    """The user runs the system's command-line programs."""

    def command_line_users(self) -> None:
        called = {k[1] for k, c in self.model.connections.items()
                  if self.model.components[k[0]].kind != "user" and k[0] != k[1]}
        reached = {k[1] for k in self.model.connections if self.model.components[k[0]].kind == "user"}
        frameworks = self._framework_users()
        for cid in sorted(self.model.components):
            comp = self.model.components[cid]
            if comp.kind != "service" or cid in called or cid in reached or self._runs_deployed(comp):
                continue
            named = next((n for n in self._names(comp) if cli_name(n)), None)
            framework = frameworks.get(cid)
            serves = any(p.endpoints for p in comp.ports.values()) and not self._loopback_only(comp)
            if serves or comp.attributes.get("ports"):
                continue  # a server, whatever its name (an `admin` API, a port it publishes)
            if named is not None:
                ev, via = self._entry(comp), f"a command-line program people run ({named})"
            elif framework is not None:
                ev, via = framework.evidence, f"a command-line program people run ({framework.get('module')})"
            else:
                continue
            user = self.people_actor(ev)
            self.connect(user, cid, "process", [ev], kind="spawns", attributes={"via": via})

    def _framework_users(self) -> dict[str, Fact]:
        """Component or process -> the first import of a command framework in the code it runs."""
        runners = getattr(self, "_runners", None)
        out: dict[str, Fact] = {}
        for f in self.by_kind["import"]:
            if not COMMAND_FRAMEWORKS.match(f.get("module") or ""):
                continue
            owners = runners(f.repository, f.path) if runners is not None else [self.owner_of(f.repository, f.path)]
            for o in owners:
                if o is not None and o not in out:
                    out[o] = f
        return out

    def _loopback_only(self, comp: Component) -> bool:
        """Every route it declares is served by a server it binds to the loopback address
        (``&http.Server{Addr: fmt.Sprintf("127.0.0.1:%d", port)}``): a sign-in callback for the browser on the
        same machine, not a service anyone else reaches."""
        files = {(e.repository, e.path) for p in comp.ports.values() for ep in p.endpoints for e in ep.evidence}
        if not files:
            return False
        starts: dict[tuple[str, str], list[int]] = defaultdict(list)
        for f in self.by_kind["server.start"]:
            if (f.repository, f.path) in files:
                starts[(f.repository, f.path)].append(f.line)
        if set(starts) != files:
            return False
        bound = {(f.repository, f.path, f.line) for kind in ("value.field", "value.assign") for f in self.by_kind[kind]
                 if (f.repository, f.path) in files and LOOPBACK_ADDRESS.search(f.get("expr") or "")}
        return all((r, p, line) in bound for (r, p), lines in starts.items() for line in lines)

    @staticmethod
    def _names(comp: Component) -> list[str]:
        names = [comp.name, comp.attributes.get("process") or ""]
        command = (comp.attributes.get("command") or "").split()
        if command:
            names.append(PurePosixPath(command[0]).name)
        names += [PurePosixPath(e.path).parent.name for e in sorted(comp.evidence)
                  if PurePosixPath(e.path).name in ("main.go", "main.py", "__main__.py", "main.rs", "index.ts", "index.js")]
        return [n for n in names if n]

    @staticmethod
    def _runs_deployed(comp: Component) -> bool:
        return bool(comp.attributes.get("deployment") or comp.attributes.get("image"))

    @staticmethod
    def _entry(comp: Component) -> Evidence:
        return min(comp.evidence)

