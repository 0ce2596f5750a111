"""Programs of a deployed module that nothing deploys, builds into an image or starts: the project's tools.

Why: a Go module keeps every binary under ``cmd/`` - the servers its charts and compose files run, and
beside them the generators, stubs, debugging helpers and test drivers its developers run by hand
(``cmd/generate-makefile``, ``cmd/choco-stub``, ``cmd/devbox-mutating-webhook``). Once some programs of
the module are known to run in deployments, one that no deployment runs, no recipe builds, no command line
names and no program spawns is no process of the deployed system: it is listed (with its main file), not
drawn. A module none of whose programs is deployed keeps them all (its programs may run in one container,
or be installed by hand), and so does a command-line program (rule frontdoor.command-line).

A program of a split component that, once every other rule has run, talks to nothing of the system (it calls
no service, store or broker, nothing starts or calls it, it publishes no port and no deployment runs it) is
the same kind of thing whatever its folder: a key generator, a state dumper, a container's init helper, a
kubectl plugin (``cmd/generate-keys``, ``cmd/nop``, ``cmd/plugin``). The people-start link is all it has,
and that link says only that people could run it: it stays as code (kind ``library``), not a running
component (rule ``process.idle-programs``).  One that waits for the stop signal (``syscall.SIGTERM``) is a daemon
whatever its links: it stays.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.command_line import cli_name
from repomodeler.graph.processes import PROGRAM_ROLE_WORDS
from repomodeler.records import Unresolved

# The last word of a program that runs for as long as the system does, whether or not its links are known.
RUNNING_ROLE_WORDS = PROGRAM_ROLE_WORDS | frozenset({
    "engine", "agent", "daemon", "controller", "operator", "manager", "proxy", "dispatcher", "ingress", "sidecar",
    "exporter", "collector", "server", "broker", "relay", "router", "watcher", "syncer", "webhook"})


class UndeployedProgramRules(ResolverBase):
    """``process.undeployed-programs`` and ``process.idle-programs``."""

    def undeployed_programs(self) -> None:
        if not getattr(self, "process_parent", None):  # none when process.programs is off
            return
        by_parent: dict[str, list[str]] = {}
        for cid, parent in sorted(self.process_parent.items()):
            if cid in self.model.components:
                by_parent.setdefault(parent, []).append(cid)
        named = self._started_program_words()
        for parent, members in sorted(by_parent.items()):
            deployed = {m for m in members if self._runs_in_deployment(m)}
            if parent in self.model.components and self._runs_in_deployment(parent):
                deployed.add(parent)
            if not deployed:
                continue
            for cid in members:
                comp = self.model.components[cid]
                if cid in deployed or self.process_kind.get(cid) != "program" or not comp.evidence:
                    continue
                main = min(comp.evidence)
                program = PurePosixPath(main.path).parent
                if "cmd" not in program.parts[:-1] or cli_name(comp.name) or cli_name(program.name):
                    continue  # (only binaries kept under cmd/; a command-line tool is people's, not a tool's)
                words = {w.lower() for w in (comp.name, program.name, comp.attributes.get("process") or "") if w}
                if words & named or any(self._runs_in_deployment(k[0]) for k in self.model.connections if k[1] == cid):
                    continue  # a deployment, a recipe or a program starts it, or a deployed component calls it
                for k in sorted(k for k in self.model.connections if cid in k[:2]):
                    self.model.connections.pop(k)
                    self.created_by.pop(k, None)
                self.model.unresolved.append(Unresolved(
                    parent, f"{comp.name}: a program of {self.model.components[parent].name if parent in self.model.components else parent} "
                            f"no deployment runs, builds or starts ({program}): a tool, not drawn", main))
                self.drop_component(cid)
                self._forget_process(cid)

    def idle_programs(self) -> None:
        """Programs talking to nothing of the system are code, not running components (module docstring)."""
        if not getattr(self, "process_parent", None):
            return
        users = {cid for cid, c in self.model.components.items() if c.kind == "user"}
        linked: dict[str, list[tuple[str, str, str]]] = {}
        for k in sorted(self.model.connections):
            linked.setdefault(k[0], []).append(k)
            if k[1] != k[0]:
                linked.setdefault(k[1], []).append(k)
        from_parts = {k[0] for k in self.model.part_links}
        for cid in sorted(self.process_parent):
            comp = self.model.components.get(cid)
            if comp is None or comp.kind != "service" or self.process_kind.get(cid) != "program" or comp.ports \
                    or self._runs_in_deployment(cid) or cid in from_parts:
                continue
            if self._named_for_running(comp.name):
                continue  # its name says it runs (a worker, an agent): links we did not find, not a tool
            if self._awaits_stop(comp):
                self.credit(comp.rules)  # it waits for SIGTERM (nsqd's svc.Run): a daemon whose links we did not find
                continue
            links = linked.get(cid, [])
            if any(str(self.model.connections[k].attributes.get("via", "")).startswith("a command-line program")
                   for k in links):
                continue  # the system's command-line client: frontdoor.command-line draws it on purpose
            if any(k[0] not in users or k[1] != cid for k in links):
                continue  # it calls something, or something of the system starts or calls it
            for k in links:
                self.model.connections.pop(k)
                self.created_by.pop(k, None)
            comp.kind = "library"
            comp.attributes["role"] = "a program that talks to nothing of the system: a tool, not a running component"
            self.credit(comp.rules)

    def _awaits_stop(self, comp) -> bool:
        """Does the program's main file (a Go program: its main package) wait to be told to stop (``syscall.SIGTERM``,
        ``process.on("SIGTERM")``)?  A tool runs once and exits; a program handling the stop signal runs until then."""
        if not comp.evidence:
            return False
        main = min(comp.evidence)
        here = PurePosixPath(main.path).parent
        return any(f.repository == main.repository and (f.path == main.path or (
                   f.path.endswith(".go") and main.path.endswith(".go") and PurePosixPath(f.path).parent == here))
                   for f in self.by_kind["process.awaits_stop"])

    @staticmethod
    def _named_for_running(name: str) -> bool:
        """Does the program's last word name a long-running role (``queue-worker``, ``node-agent``, ``api``)?"""
        words = [w for w in re.split(r"[-_.\s]+", name.lower()) if w]
        return bool(words) and words[-1] in RUNNING_ROLE_WORDS

    def _forget_process(self, cid: str) -> None:
        """Take a dropped process out of the decomposition the later process rules read."""
        del self.process_parent[cid]
        self.process_kind.pop(cid, None)
        for owners in (self.package_owner, self.file_owner):
            for k in [k for k, v in owners.items() if v == cid]:
                del owners[k]
        for holders in (self.package_holders, self.file_holders):
            for v in holders.values():
                v.discard(cid)
        for names in (*self.split_commands.values(), *self.spawn_names.values()):
            for k in [k for k, v in names.items() if v == cid]:
                del names[k]

    def _runs_in_deployment(self, cid: str) -> bool:
        comp = self.model.components.get(cid)
        return comp is not None and (bool(comp.attributes.get("deployment")) or cid in self.process_reused)

    def _started_program_words(self) -> set[str]:
        """Words the deployments' names, command lines, images and build arguments, the recipes' build and copy
        lines and the code's process spawns name: the programs something builds or starts."""
        texts: list[str] = []
        for kind, attrs in (("program.command", ("command", "code")), ("docker.command", ("command",)),
                            ("program.build", ("binary", "code")), ("docker.copy", ("sources",)),
                            ("process.spawn", ("command", "program", "name", "value")),
                            ("k8s.workload", ("command", "image", "name")),
                            # (a shared recipe's build argument choosing the program: `args: {cmd: gateway}`)
                            ("compose.service", ("image", "command", "build_args", "name", "hostname", "container_name"))):
            for f in self.by_kind[kind]:
                texts.extend(f.get(a) or "" for a in attrs)
        words: set[str] = set()
        for text in texts:
            words.update(w for w in re.split(r"[^A-Za-z0-9_.-]+", text.lower()) if w)
            words.update(PurePosixPath(w).name for w in re.split(r"[\s,;:=\"'\[\]]+", text.lower()) if "/" in w)
        return words
