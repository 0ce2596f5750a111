"""Processes inside one component: a repository that builds several programs, or one binary whose
subcommands or roles start different servers, becomes one component per process.

Found from the code (Go: see ``grammars/go/structure.scm`` and ``processes.scm``):

* **programs**: folders with ``package main`` and ``func main()`` (tools, generators, examples and
  tests are not programs); the one at the component's root, named like it, or the only one, is the
  component itself;
* **subcommand roles**: a command (cobra ``&cobra.Command{Use: "serve", RunE: RunServer}``) whose
  handler calls into a package that serves (declares routes, registers a gRPC service or starts a
  server, itself or through its direct imports): ``ollama serve``, ``ollama runner``.  A program
  whose ``main`` only calls into such a package (``cmd/runner``) is that role;
* **service roles**: two or more sibling folders under ``service/``, ``services/``, ``roles/``,
  ``servers/`` or ``components/`` that each start a server, all run by one program (Temporal's
  ``service/frontend``, ``service/history``, ...).

Every package (code folder) of the component then belongs to one process: the role whose folder
holds it, the role whose entry calls reach it, else the one process whose imports reach it; code
several processes link stays with the component.  Ports, endpoints and connections follow the code
that declares or makes them.  Links between the processes come from the code too (``process_links``):
a process spawning another (``exec.Command(exe, "runner", ...)``), API paths a client sends that
another process serves (``c.do(ctx, http.MethodPost, "/api/generate", ...)``, loopback URLs), and
generated gRPC clients of a service another role registers.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.command_line import cli_name
from repomodeler.graph.catalog import HTTP_VERBS, LOCAL_HOSTS, STORE_KINDS, image_basename
from repomodeler.graph.identity import image_names, key, keys_of
from repomodeler.graph.naming import GENERIC_DIRS, is_under, join_path
from repomodeler.graph.packages import PackageIndex, build_index, folder
from repomodeler.graph.scripts import (SCRIPT_LANGUAGES, ScriptProgram, file_graph, find_programs,
                                       python_import_files, spawned_programs, started_binary,
                                       template_programs)
from repomodeler.graph.values import client_path, grpc_service_name, http_verb, parse_hosts
from repomodeler.inventory import API_DESCRIPTION
from repomodeler.records import Component, Connection, Endpoint, Evidence, Fact, Port

# Folders whose programs are tooling, not processes of the system.
TOOL_DIRS = frozenset({"tools", "tool", "hack", "scripts", "script", "ci", "dev", "develop", "devtools", "codegen",
                       "gen", "generate", "generator", "generators", "internal-tools", "bench", "benchmark",
                       "benchmarks", "example", "examples", "sample", "samples", "demo", "demos", "test", "tests",
                       "testing", "e2e", "mock", "mocks", "docs", "doc", "x-tools",
                       # experiments kept beside the product (trunk/research/api-server/server.go)
                       "research", "experiments",
                       # the client libraries a project ships for its users, and the programs showing their use
                       # (sdks/go/watch-workflow/main.go)
                       "sdk", "sdks"})
# Programs that run once or only against the system: a schema migration, a seeder, a load generator
# (cmd/shop-migrate, cmd/loadtest). A deployment runs them as a job, if at all: not a component.
ONE_SHOT_PROGRAM = re.compile(r"(?i)(^|[-_])(migrate|migrator|migration|migrations|seed|seeder|loadtest|load-test|"
                              r"loadgen|stress|bench|benchmark)$"
                              # a test harness or a demo named as one (cmd/test-rdma, cmd/demo-server)
                              r"|^(test|tests|demo|example)[-_]|[-_](test|tests|demo|example)$"
                              # a documentation generator (cmd/clidoc, pkg/docsgen: writes the reference pages)
                              r"|(^|[-_])(cli)?docs?[-_]?gen(erator)?$|^clidocs?$|^gen[-_]?docs?$"
                              # a code generator (cmd/gen-openapi, cmd/mock-gen)
                              r"|^gen[-_]|[-_]gen$")
# Folders whose children are the roles of one server binary.
ROLE_PARENTS = frozenset({"service", "services", "roles", "role", "servers", "components", "daemons"})
# Folder names that say what a module is rather than which: named with the folder above (order/service, courier/job).
PROGRAM_ROLE_WORDS = frozenset({"service", "job", "jobs", "worker", "admin", "interface", "api", "web", "server", "rpc",
                                "mq", "gateway", "bff", "consumer", "scheduler", "cron", "task", "tasks"})
ENTRY_CALLS = frozenset({"Serve", "Execute", "Run", "Start", "Main", "ListenAndServe", "RunServer", "StartServer"})
# A function an inline subcommand handler calls to start what it runs (server.Run, app.Serve, api.StartServer,
# cmd.Execute, NewServer): a word of ENTRY_CALLS' kind opening the name, not a longer word (Runner, Newsletter).
ENTRY_FUNCTION = re.compile(r"^(Run|Serve|Start|Execute|Main|Listen|Launch|Boot|Bootstrap|New)($|[A-Z_0-9])")


@dataclass
class Process:
    name: str
    kind: str  # "program" | "command" | "service"
    roots: set[str]  # package folders it starts from
    evidence: list[Evidence]
    command: str = ""  # the subcommand that starts it
    program: str = ""  # the program (binary) it is a role of
    cid: str = ""  # component id once created
    own_subtree: bool = False  # every package below a root is this process's
    core: set[str] = field(default_factory=set)  # packages its entry calls reach


# `via` of links drawn from a client library's import alone (code.sdk-services, code.container-engine)
IMPORT_VIAS = ("sdk ", "object storage library", "container engine sdk")


class ProcessRules(ResolverBase):
    """Splits components that run several processes and links the processes."""

    packages: PackageIndex
    package_owner: dict[tuple[str, str], str]
    package_holders: dict[tuple[str, str], set[str]]
    process_parent: dict[str, str]  # process component -> the component it was split from
    split_commands: dict[str, dict[str, str]]  # split component -> {subcommand: process component}
    process_kind: dict[str, str]  # process component -> program | command | service
    process_reused: set[str]  # deployed components found to be one of the processes
    file_owner: dict[tuple[str, str], str]  # Python/JavaScript splits: (repo, file) -> its process
    file_holders: dict[tuple[str, str], set[str]]  # ... the processes whose imports reach the file
    spawn_names: dict[str, dict[str, str]]  # split component -> {module, file or command: process}
    process_primaries: set[str]  # split components that are themselves one of the programs
    process_dispatchers: set[str]  # split components whose main only dispatches to subcommand processes

    # ------------------------------------------------------------------ the pass
    def processes(self) -> None:
        self.packages = build_index(self.results, self.by_kind["import"], self.by_kind["module.var"],
                                    self.by_kind["manifest"])
        self.package_owner = {}
        self.package_holders = {}
        self.process_parent = {}
        self.split_commands = {}
        self.process_kind = {}
        self.process_reused = set()
        self.file_owner = {}
        self.file_holders = {}
        self.spawn_names = {}
        self.process_primaries = set()
        self.process_dispatchers = set()
        self._scripts: dict[str, tuple[list[ScriptProgram], dict[str, set[str]]]] = {}
        self._by_file: dict[tuple[str, str], dict] = {}
        by_comp: dict[tuple[str, str], list[str]] = defaultdict(list)
        for (repo, d), paths in sorted(self.packages.packages.items()):
            owner = self.owner_of(repo, paths[0])
            if owner is None or self.model.components[owner].kind not in ("service", "gateway"):
                continue
            self.package_owner[(repo, d)] = owner
            by_comp[(owner, repo)].append(d)
        facts = self._structure_facts()
        for (cid, repo), dirs in sorted(by_comp.items()):
            self._split(cid, repo, set(dirs), facts)

    def _structure_facts(self) -> dict[str, dict[tuple[str, str], list[Fact]]]:
        """Facts of the kinds this pass reads, by (repository, folder)."""
        out: dict[str, dict[tuple[str, str], list[Fact]]] = {}
        for kind in ("program.main", "cli.command", "code.function", "code.call", "server.start", "grpc.server",
                     "http.route", "program.main_call"):
            by_dir: dict[tuple[str, str], list[Fact]] = defaultdict(list)
            for f in self.by_kind[kind]:
                by_dir[(f.repository, folder(f.path))].append(f)
            out[kind] = by_dir
        return out

    # ------------------------------------------------------------------ finding the processes
    def _split(self, cid: str, repo: str, dirs: set[str], facts: dict[str, dict[tuple[str, str], list[Fact]]]) -> None:
        comp = self.model.components[cid]
        graph = {d: {t for t in ts if t in dirs} for d, ts in self.packages.graph(repo).items() if d in dirs}
        programs = self._programs(repo, dirs, facts)
        if not programs:
            self._split_scripts(cid, repo, dirs)
            return
        serving = {d for d in dirs if any(facts[k].get((repo, d)) for k in ("http.route", "grpc.server", "server.start"))}

        def serves(root: str) -> bool:
            return any(is_under(d, root) for d in serving) or bool(graph.get(root, set()) & serving)

        closures = {p: _closure(graph, {p}, set()) for p in programs}
        roles: list[Process] = []
        # Subcommands whose handler calls into a package that serves, and subcommands a deployment starts.
        # (binary, subcommand) the deployments with no code of their own start (`fleetcontroller gitjob`)
        started_words = {words for cid, words in self.deployment_command_words().items()
                         if cid in self.model.components and not self.model.components[cid].source_roots}
        for p_dir in sorted(programs):
            binary = self._program_name(comp, p_dir).lower()
            if cli_name(binary) or cli_name(PurePosixPath(p_dir).name):
                continue  # a command-line client's commands (`vclusterctl snapshot create`) run against the system
            for name, cmd_fact, target in self._commands(repo, closures[p_dir], facts):
                if target in dirs and serves(target) and target not in programs:
                    roles.append(Process(name=f"{self._program_name(comp, p_dir)} {name}", kind="command",
                                         roots={target}, evidence=[cmd_fact.evidence], command=name,
                                         program=p_dir, own_subtree=True))
                elif target is None and (binary, name.lower()) in started_words and folder(cmd_fact.path) not in programs \
                        and folder(cmd_fact.path) in dirs and folder(cmd_fact.path) != p_dir:
                    # a command declared in the package that implements it (controller/gitops declaring `gitjob`),
                    # which a deployment starts this binary with by name (`fleetcontroller gitjob`): that role, serving
                    # or not
                    roles.append(Process(name=f"{self._program_name(comp, p_dir)} {name}", kind="command",
                                         roots={folder(cmd_fact.path)}, evidence=[cmd_fact.evidence], command=name,
                                         program=p_dir, own_subtree=True))
        # Sibling service folders that each start a server, run by a program of the component.
        by_parent: dict[str, set[str]] = defaultdict(set)
        for d in sorted(serving):
            parts = d.split("/")
            for i in range(len(parts) - 1):
                if parts[i].lower() in ROLE_PARENTS:
                    by_parent["/".join(parts[:i + 1])].add("/".join(parts[:i + 2]))
                    break
        for parent, role_dirs in sorted(by_parent.items()):
            if len(role_dirs) < 2:
                continue
            runs = {rd: {p for p in programs if any(is_under(d, rd) for d in closures[p])} for rd in role_dirs}
            if len({frozenset(r) for r in runs.values()}) == 1 and len(next(iter(runs.values()))) == 1 \
                    and not self._roles_call_each_other(repo, role_dirs):
                continue  # one program starting its few servers itself (flagd's evaluation and sync): one process
            for rd in sorted(role_dirs):
                runners = [p for p in sorted(programs) if any(is_under(d, rd) for d in closures[p])]
                if not runners or any(r.roots == {rd} for r in roles):
                    continue
                if len([p for p in runners if is_under(p, rd) and serves(p)]) >= 2:
                    continue  # a service folder holding several server programs (go-zero's order/api, order/rpc): each its own
                ev = sorted(f.evidence for d in sorted(dirs) if is_under(d, rd)
                            for k in ("server.start", "grpc.server") for f in facts[k].get((repo, d), []))
                roles.append(Process(name=PurePosixPath(rd).name, kind="service", roots={rd}, evidence=ev[:1],
                                     program=runners[0], own_subtree=True))
        binary = self._binary_roles(repo, programs, graph, roles)
        roles.extend(binary)
        roles = _dedupe_roles(roles)
        if not roles and self._split_clauses(comp, repo, dirs, graph, programs, facts):
            return
        # A program whose main only calls into a role's package is that role (cmd/runner -> `ollama runner`).
        merged: set[str] = set()
        for p_dir in sorted(programs):
            for f in facts["code.call"].get((repo, p_dir), []):
                target = self.packages.go_names.get((repo, f.path), {}).get(f.get("package") or "")
                role = next((r for r in roles if target in r.roots), None)
                if role is not None and f.get("function") in ENTRY_CALLS:
                    role.roots.add(p_dir)
                    role.evidence.extend(programs[p_dir])
                    merged.add(p_dir)
        # A program that imports the package of exactly one role, and no other role, runs that role
        # (cmd/frontend builds a services/frontend.Server and runs it).
        for p_dir in sorted(set(programs) - merged):
            imported = [r for r in roles if r.kind == "service" and graph.get(p_dir, set()) & r.roots]
            if len(imported) == 1:
                imported[0].roots.add(p_dir)
                imported[0].evidence.extend(programs[p_dir])
                merged.add(p_dir)
        # A program inside a role's folder is a tool of that role (a replay tester), not a process.
        standalone = {p: ev for p, ev in programs.items() if p not in merged
                      and not any(r.own_subtree and is_under(p, root) and p != root for r in roles for root in r.roots)}
        primary = self._primary(comp, repo, standalone)
        hosts = sorted({r.program for r in binary} & set(standalone))
        if primary is None and len(hosts) == 1:
            # the multi-call binary itself (cmd/main.go picking a program by the name it is started as): started
            # by its own name, it is the component's own program (the CLI), not one more process beside it
            primary = hosts[0]
        # the code the component's own program runs: its program's, and the programs running its roles
        linked = {d for p in ({primary} if primary is not None else set()) | merged for d in closures[p]}
        for p_dir in sorted(standalone):
            if p_dir != primary and self._launcher_of(comp, repo, p_dir, graph, linked):
                del standalone[p_dir]
        if not roles and len(standalone) <= 1:
            return
        procs: list[Process] = list(roles)
        # The component is itself the deployment of one of its roles (compose services sharing one
        # build context, each running its own program, the first of which holds the code): that role's
        # code is the component's own, not a second process named after it.
        names = {key(comp.name), *(key(a) for a in comp.aliases)}
        own = next((r for r in procs if r.kind == "service" and key(r.name) in names), None)
        if own is None and len(procs) == 1 and procs[0].kind == "command" \
                and not any(p != primary for p in standalone):
            # the one subcommand that serves (`alist server`, the image's entrypoint running `./alist server`):
            # how the program runs as a server, the component itself, not a second process beside it
            own = procs[0]
        own_roots: set[str] = set()
        if own is not None:
            procs.remove(own)
            own_roots = set(own.roots)
            comp.evidence.update(own.evidence[:1])
        for p_dir in sorted(standalone):
            if p_dir == primary:
                continue
            procs.append(Process(name=self._program_name(comp, p_dir), kind="program", roots={p_dir},
                                 evidence=standalone[p_dir][:1], program=p_dir, own_subtree=p_dir != ""))
        if not procs:
            return
        self._create(comp, repo, dirs, graph, primary, procs, standalone, own_roots)

    def _launcher_of(self, comp: Component, repo: str, p_dir: str, graph: dict[str, set[str]],
                     primary_closure: set[str]) -> bool:
        """A program whose only package of the repository is one the component's own program links too
        (``atc/cmd/atc`` parsing flags into ``atccmd.ATCCommand``, which ``cmd/concourse web`` runs): a
        launcher of part of that program, for working on it alone; no process of its own, unless a
        deployment runs it by its name.  A program with more code of its own than its main file (and one
        more) is a program, whatever it imports."""
        imported = graph.get(p_dir, set()) - {p_dir}
        if len(imported) != 1 or not imported <= primary_closure:
            return False
        sources = [x for x in self.packages.packages.get((repo, p_dir), []) if not x.endswith("_test.go")]
        if len(sources) > 2:
            return False  # a program with code of its own (a crash receiver's store, metrics, handlers): not a launcher
        name = self._program_name(comp, p_dir).lower()
        return self.alias.get(name) in (None, comp.id) and self.alias.get(PurePosixPath(p_dir).name.lower()) in (None, comp.id)

    def _roles_call_each_other(self, repo: str, role_dirs: set[str]) -> bool:
        """Are the service folders parts of a distributed design rather than servers of one daemon: more than
        two of them (a workflow engine's frontend, history, matching and worker), or one importing a package
        named after another (the frontend's generated history-service client)?"""
        if len(role_dirs) > 2:
            return True
        names = {PurePosixPath(rd).name.lower(): rd for rd in role_dirs}
        for (r, path), targets in self.packages.file_imports.items():
            if r != repo:
                continue
            here = next((rd for rd in role_dirs if is_under(path, rd)), None)
            if here is None:
                continue
            for target, _ev in targets:
                last = PurePosixPath(target).name.lower()
                if any(n in last and rd != here and not is_under(target, here) for n, rd in names.items()):
                    return True
        return False

    def _binary_roles(self, repo: str, programs: dict[str, list[Evidence]], graph: dict[str, set[str]],
                      roles: list[Process]) -> list[Process]:
        """A multi-call binary: one program importing the command packages of several binaries from
        folders named after them (``cmd/main.go`` imports ``cmd/argocd-server/commands`` and
        ``cmd/argocd-repo-server/commands`` and picks one by the name it is started as), where
        deployments of those names run it. Each named binary is a role, the deployment of its name."""
        taken = {root for r in roles for root in r.roots}
        started = self._subcommand_deployments()
        out: list[Process] = []
        for p_dir in sorted(programs):
            found: dict[str, tuple[str, str]] = {}  # folder name -> (imported package, deployment's name)
            for d in sorted(graph.get(p_dir, set())):
                rest = d[len(p_dir):].lstrip("/").split("/") if p_dir and is_under(d, p_dir) else []
                name = rest[0] if rest else ""
                if not name:
                    continue
                target = self.alias.get(name.lower())
                if target is None and len(started.get(name.lower(), ())) == 1:
                    # no deployment of that name, but one starting the binary with it as its subcommand
                    # (`args: [destination, -addr=:8086]` in linkerd-destination): that deployment is the role
                    target = next(iter(started[name.lower()]))
                comp = self.model.components.get(target) if target else None
                if comp is not None and comp.kind in ("service", "gateway") and not comp.source_roots \
                        and comp.attributes.get("deployment") and d not in taken:
                    found.setdefault(name, (d, comp.name))
            if len(found) < 2:
                continue  # one imported package named like a deployment says nothing of a multi-call binary
            for name, (d, deployed) in sorted(found.items()):
                root = join_path(p_dir, name)
                ev = [f.evidence for f in self.by_kind["import"] if f.repository == repo and folder(f.path) == p_dir
                      and (f.get("module") or "").endswith("/" + d.split("/", 1)[-1])][:1] or programs[p_dir][:1]
                out.append(Process(name=deployed, kind="service", roots={root}, evidence=ev, program=p_dir,
                                   own_subtree=True))
        return out

    def _subcommand_deployments(self) -> dict[str, set[str]]:
        """Subcommand -> the deployments (with no code of their own yet) starting their image's binary with it."""
        out: dict[str, set[str]] = defaultdict(set)
        for cid, word in self.deployment_subcommands().items():
            comp = self.model.components[cid]
            if not comp.source_roots and comp.attributes.get("deployment"):
                out[word].add(cid)
        return out

    def _programs(self, repo: str, dirs: set[str], facts) -> dict[str, list[Evidence]]:
        out: dict[str, list[Evidence]] = {}
        for d in sorted(dirs):
            fs = facts["program.main"].get((repo, d), [])
            mains = sorted(f.evidence for f in fs if f.get("part") == "func")
            pkg_files = {f.path for f in fs if f.get("part") == "package"}
            mains = [e for e in mains if e.path in pkg_files]
            # (a program in a migration tool's folder, `db/migration/cli`, is that one-shot tool too)
            if mains and not any(p.lower() in TOOL_DIRS or ONE_SHOT_PROGRAM.search(p) for p in d.split("/")):
                out[d] = mains
        return out

    # ------------------------------------------------------------------ subcommands of one main package
    def _clause_roles(self, repo: str, programs: dict[str, list[Evidence]], facts) -> list[tuple[str, Fact, str]]:
        """(name, fact, program folder) of the serving subcommands a program's ``main`` registers itself:
        ``main`` hands its app to ``registerSidecar(app)``, which declares ``app.Command(component.Sidecar.String(),
        "Sidecar for Prometheus server.")`` and, in the same file, starts a server (or calls into a package
        that does).  Commands registered one level down (``tools bucket web``) are a tool's subcommands."""
        out: list[tuple[str, Fact, str]] = []
        for p_dir in sorted(programs):
            called = {f.get("callee") for f in facts["program.main_call"].get((repo, p_dir), [])}
            commands = [f for f in sorted(facts["cli.command"].get((repo, p_dir), [])) if f.get("framework") == "kingpin"]
            for f in commands:
                if f.get("function") not in called:
                    continue
                # a file also registering commands one level down serves for them, perhaps not for this one
                nested = any(g.path == f.path and g.get("function") not in called for g in commands)
                name = self._clause_name(f)
                if not name or nested or not self._file_serves(repo, f.path, facts):
                    continue
                out.append((name, f, p_dir))
        return out

    def _clause_name(self, f: Fact) -> str:
        """The subcommand's name: the literal, else the constant it is built from (``component.Sidecar.String()``
        or a local ``comp := component.QueryFrontend``: ``query-frontend``), else the registering function's
        name without its verb (``registerQuery``: ``query``)."""
        expr = (f.get("name_expr") or "").strip()
        if expr[:1] in "\"`" and expr[-1:] == expr[:1] and len(expr) > 2:
            return expr[1:-1]
        expr = re.sub(r"(\.\w+\(\))+$", "", expr)
        if re.fullmatch(r"[A-Za-z_]\w*", expr):
            bound = [g for g in self.by_kind["value.assign"] if g.repository == f.repository and g.path == f.path
                     and g.get("name") == expr and g.line <= f.line]
            expr = max(bound).get("expr") or "" if bound else ""
        last = expr.split(".")[-1] if re.fullmatch(r"[A-Za-z_][\w.]*", expr) else ""
        if not last or not last[:1].isupper():
            last = re.sub(r"^(register|new|add|setup|init|make)", "", f.get("function") or "", flags=re.I)
            last = re.sub(r"(Cmd|Command)$", "", last)
        return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", last).lower()

    def _file_serves(self, repo: str, path: str, facts) -> bool:
        """The file serves (routes, gRPC services, a server it starts), or calls into a package that starts a
        server (a package only declaring routes or services may be a client's too)."""
        d = folder(path)
        if any(f.path == path for k in ("http.route", "grpc.server", "server.start") for f in facts[k].get((repo, d), [])):
            return True
        return any(facts["server.start"].get((repo, t)) for t in self.packages.go_names.get((repo, path), {}).values())

    def _split_clauses(self, comp: Component, repo: str, dirs: set[str], graph: dict[str, set[str]],
                       programs: dict[str, list[Evidence]], facts) -> bool:
        """One binary whose top-level subcommands each start a server (``thanos sidecar``, ``thanos query``):
        a process per subcommand, owning its registering file and the code only its imports reach."""
        clauses = self._clause_roles(repo, programs, facts)
        if len({name for name, _f, _p in clauses}) < 2:
            return False
        procs: list[Process] = []
        by_entry: dict[str, Process] = {}
        for name, f, p_dir in clauses:
            if f.path in by_entry:  # one file registering two serving commands: the first names it
                by_entry[f.path].evidence.append(f.evidence)
                continue
            proc = Process(name=f"{self._program_name(comp, p_dir)} {name}", kind="command", roots={p_dir},
                           evidence=[f.evidence], command=name, program=p_dir)
            by_entry[f.path] = proc
            procs.append(proc)
        self._add_processes(comp, repo, procs)
        self.split_commands[comp.id] = {p.command: p.cid for p in procs}
        files = {x for d in dirs for x in self.packages.packages.get((repo, d), [])}
        reach: dict[str, set[str]] = {}
        for entry in sorted(by_entry):
            imported = {t for t in self.packages.go_names.get((repo, entry), {}).values() if t in dirs}
            reached = _closure(graph, imported, set(programs))
            reach[entry] = {entry} | {x for d in reached for x in self.packages.packages.get((repo, d), [])}
        self.process_dispatchers.add(comp.id)  # before the ports move: shared routes go to their importers
        self._assign_files(comp, repo, dirs, files, reach, {e: p.cid for e, p in by_entry.items()})
        return True

    def _commands(self, repo: str, closure: set[str], facts) -> list[tuple[str, Fact, str | None]]:
        """(subcommand, its fact, the package its handler calls into) for the commands a program defines."""
        out = []
        for d in sorted(closure):
            best: dict[tuple[str, int], Fact] = {}
            for f in facts["cli.command"].get((repo, d), []):
                k = (f.path, f.line)
                if k not in best or len(f.attrs) > len(best[k].attrs):
                    best[k] = f
            for (_p, _l), f in sorted(best.items()):
                name = (f.get("name") or "").split(" ")[0].strip()
                if not re.match(r"^[A-Za-z][\w.-]*$", name):
                    continue
                names = self.packages.go_names.get((repo, f.path), {})
                target = None
                pkg = f.get("handler_package")
                handler = f.get("handler") or ""
                if pkg and ENTRY_FUNCTION.match(f.get("handler_function") or ""):
                    # (`RunE: func(...) { return server.Run(ctx) }`: the package the command starts; a verb calling
                    # into the library, `model.RenameTag(...)` of `tag rename`, starts nothing)
                    target = names.get(pkg)
                elif "." in handler:
                    target = names.get(handler.split(".")[0])
                elif handler:
                    target = self._handler_target(repo, d, handler, facts)
                out.append((name, f, target))
        return out

    def _handler_target(self, repo: str, d: str, handler: str, facts) -> str | None:
        """The package a named handler function (in the command's package) calls an entry point of."""
        functions = facts["code.function"].get((repo, d), [])
        for fn in sorted(f for f in functions if f.get("name") == handler):
            later = [g.line for g in functions if g.path == fn.path and g.line > fn.line]
            end = min(later) if later else 1 << 30
            names = self.packages.go_names.get((repo, fn.path), {})
            for call in sorted(facts["code.call"].get((repo, d), [])):
                if call.path == fn.path and fn.line <= call.line < end and call.get("function") in ENTRY_CALLS:
                    target = names.get(call.get("package") or "")
                    if target is not None:
                        return target
        return None

    def _primary(self, comp: Component, repo: str, programs: dict[str, list[Evidence]]) -> str | None:
        roots = {root for r, root in comp.source_roots if r == repo}
        for p in sorted(programs):
            if p in roots:
                return p
        started = self._recipe_started_programs(comp, repo) & set(programs)
        if len(started) == 1:  # the program the release's recipe of the component's image starts
            return next(iter(started))
        names = {key(comp.name), key(self.project_of(repo)), *(key(a) for a in comp.aliases)} - {""}
        for p in sorted(programs):
            if p and key(PurePosixPath(p).name) in names:
                return p
        built = self._built_binaries()
        for p in sorted(programs):  # the binary an image's recipe builds of it (`-o openmeter ./cmd/server`)
            if p and key(built.get((repo, p)) or "") in names:
                return p
        if len(programs) == 1:
            return next(iter(programs))
        # The programs other deployments run by their name (`emojivoto-web/cmd/vote-bot`, which the
        # `vote-bot` service starts from the same image) are theirs; one program left is the image's own
        # (`emojivoto-web/cmd`, the web server the `web` deployment runs by default).
        others = {p for p in programs if p and self.alias.get(PurePosixPath(p).name.lower()) not in (None, comp.id)}
        left = sorted(set(programs) - others)
        return left[0] if others and len(left) == 1 else None

    def _recipe_started_programs(self, comp: Component, repo: str) -> set[str]:
        """The package folders of the programs the image a component runs starts, as its release declares the
        image (``image.recipe``: GoReleaser's ``dockers`` and ``kos``): ko's package, or the binary the image's
        Dockerfile starts (``ENTRYPOINT /usr/local/bin/acme-agent``, its command's first word) or copies in among
        the binaries the release packages, by the package a build makes of that binary. A chart deploying
        ``ghcr.io/acme/acme`` runs the agent its recipe starts, not the CLI released as ``acme``."""
        image = comp.attributes.get("image") or ""
        wanted = keys_of(image_names(image))
        if not wanted:
            return set()
        builds: dict[str, set[str]] = defaultdict(set)  # binary -> its packages
        for f in self.by_kind["program.build"]:
            if f.repository == repo and f.get("binary"):
                builds[(f.get("binary") or "").lower()].add(f.get("code") or "")
        out: set[str] = set()
        for r in self.by_kind["image.recipe"]:
            if r.repository != repo or not keys_of(image_names(r.get("image") or "")) & wanted:
                continue
            if r.get("code") is not None:
                out.add(r.get("code") or "")
                continue
            recipe = r.get("dockerfile") or ""
            packaged = {b.lower() for b in (r.get("binaries") or "").split(",") if b}
            binaries = {started_binary(f.get("command") or "")
                        for f in self.by_kind["docker.command"] if f.repository == repo and f.path == recipe}
            binaries |= {PurePosixPath(src.strip()).name.lower() for f in self.by_kind["docker.copy"]
                         if f.repository == repo and f.path == recipe
                         for src in (f.get("sources") or "").split(",")} & packaged
            out |= {code for b in binaries for code in builds.get(b, ())}
        return out

    def _program_name(self, comp: Component, p_dir: str) -> str:
        """A program is named after the binary a build step makes of it (modd's ``go build -o
        data/server/order-rpc app/order/cmd/rpc/order.go``: order-rpc), else after its folder (Go names the
        binary so); a folder named for its role in its module's folder (``service/order/api``, ``service/order/rpc``)
        with the module's name in front (order-api, order-rpc). A generic folder (``cmd/server``,
        ``main``) is named after the module it starts: the folders above the ``cmd`` (``app/shop/admin/cmd/server``
        is ``shop-admin``, ``app/order/service/cmd/server`` ``order-service``, a role word taking its module's
        name in front); with no module folder above it, the component's name goes in front."""
        built = self._built_binaries().get((comp.repository or "", p_dir))
        if built:
            return built
        parts = [p for p in p_dir.split("/") if p]
        if not parts:
            return comp.name
        base = parts[-1]
        if base.lower() in PROGRAM_ROLE_WORDS and len(parts) >= 2 and parts[-2].lower() not in GENERIC_DIRS \
                and parts[-2].lower() not in ROLE_PARENTS and parts[-2].lower() not in TOOL_DIRS:
            return f"{parts[-2]}-{base}"  # a role's folder in its module's (service/order/api, service/order/rpc): order-api
        if base.lower() not in GENERIC_DIRS and base.lower() not in ("main", "app"):
            return base
        roots = {root for _r, root in comp.source_roots if root and is_under(p_dir, root)}
        inner = parts[len(max(roots, key=len).split("/")):] if roots else parts
        while inner and (inner[-1].lower() in GENERIC_DIRS or inner[-1].lower() in ("main", "app")):
            inner = inner[:-1]
        if not inner or inner[-1].lower() in TOOL_DIRS:
            return f"{comp.name} {base}"
        if inner[-1].lower() in PROGRAM_ROLE_WORDS and len(inner) >= 2 and inner[-2].lower() not in GENERIC_DIRS:
            return f"{inner[-2]}-{inner[-1]}"
        return inner[-1]

    def _built_binaries(self) -> dict[tuple[str, str], str]:
        """(repository, package folder) -> the binary a supervisor's build step or a release's build names it
        (one name only)."""
        memo = getattr(self, "_built_binary_names", None)
        if memo is None:
            names: dict[tuple[str, str], set[str]] = defaultdict(set)
            for f in self.by_kind["program.command"]:
                if f.get("code") is not None and f.get("owner"):
                    names[(f.repository, f.get("code") or "")].add(f.get("owner") or "")
            # executables deployments and image recipes start (`/keda` of `command: ["/keda", ...]`)
            started = {started_binary(f.get("command") or "")
                       for k in ("k8s.workload", "compose.service", "docker.command") for f in self.by_kind[k]
                       if f.get("command")}
            folders: dict[str, set[tuple[str, str]]] = defaultdict(set)  # binary -> the packages builds make it of
            for f in self.by_kind["program.build"]:
                folders[(f.get("binary") or "").lower()].add((f.repository, f.get("code") or ""))
            for f in self.by_kind["program.build"]:  # a release's build of the package (GoReleaser's binary)
                # (unless a component answers to that name already: the CLI released as `hatchet` beside the
                # system called hatchet keeps its folder's name; an image's recipe building the binary a
                # deployment of that name runs, `openmeter-jobs` of ./cmd/jobs, names that deployment's program,
                # as does a build, a Makefile's, of the binary a deployment or image starts: `/keda`)
                if f.get("binary") and (f.get("source") == "dockerfile"
                                        or self.alias.get((f.get("binary") or "").lower()) is None
                                        or (f.get("source") == "makefile" and (f.get("binary") or "").lower() in started
                                            and len(folders.get((f.get("binary") or "").lower(), ())) == 1)):
                    names[(f.repository, f.get("code") or "")].add(f.get("binary") or "")
            memo = self._built_binary_names = {k: next(iter(v)) for k, v in names.items() if len(v) == 1}
        return memo

    # ------------------------------------------------------------------ Python and JavaScript programs
    def _repo_scripts(self, repo: str) -> tuple[list[ScriptProgram], dict[str, set[str]]]:
        """The programs of a repository's Python/JavaScript code and its file-level import graph (once per repository)."""
        if repo not in self._scripts:
            files = {p for (r, p), lang in self.packages.files.items() if r == repo and lang in SCRIPT_LANGUAGES}
            mains = {f.path: f for f in self.by_kind["program.script_main"] if f.repository == repo}
            programs = find_programs(repo, files, {k: self.by_kind[k] for k in ("program.entry", "program.command",
                                                                                 "docker.command", "manifest")}, set(mains))
            programs += spawned_programs(repo, files, self.by_kind["process.spawn"], set(mains),
                                         {p.entry for p in programs})
            for p in programs:
                if p.source == "spawn":  # evidence: where the program starts, not where it is started
                    p.evidence = [mains[p.entry].evidence] if p.entry in mains else [Evidence(repo, p.entry, 1)]
            graph = file_graph(repo, files, [f for f in self.by_kind["import"] if f.repository == repo],
                               [f for f in self.by_kind["module.var"] if f.repository == repo]) if programs else {}
            self._scripts[repo] = (sorted(programs, key=lambda p: p.entry), graph)
        return self._scripts[repo]

    def _split_scripts(self, cid: str, repo: str, dirs: set[str]) -> None:
        """Python/JavaScript: programs whose code starts different servers (routes, a server start, a
        worker loop) are processes; a program that calls one of them on a loopback URL, or spawns one
        or is spawned, too.  Programs that do neither (an admin CLI, a dev script) stay with the component."""
        comp = self.model.components[cid]
        all_programs, graph = self._repo_scripts(repo)
        files = {p for d in dirs for p in self.packages.packages.get((repo, d), [])
                 if self.packages.files.get((repo, p)) in SCRIPT_LANGUAGES}
        programs = [p for p in all_programs if p.entry in files]
        if not programs:
            return
        serving = self._serving_facts(repo)
        roles = self._script_roles(comp, repo, programs, files, graph)
        programs = sorted(programs + roles, key=lambda p: p.entry)
        if len(programs) < 2:
            return
        # A program runs what its imports reach, up to the modules its subcommands start (roles of their own).
        stop = {r.entry for r in roles}
        reach = {p.entry: _closure(graph, {p.entry}, set(), files - (stop - {p.entry})) for p in programs}
        # What a program serves: the files of the routes, gRPC services and subscriptions it reaches (else
        # of the servers it starts), and its own module when a launcher (gunicorn, celery) serves it.
        signature: dict[str, frozenset[str]] = {}
        for p in programs:
            served = {x for x in reach[p.entry] if any(f.kind != "server.start" for f in serving.get(x, []))}
            started = {x for x in reach[p.entry] if x in serving}
            signature[p.entry] = frozenset((served or started) | ({p.entry} if p.launcher else set()))
        servers: list[ScriptProgram] = []  # one per server: a dev script running the same app is that server
        for p in sorted(programs, key=lambda p: (not p.main, p.source == "spawn", -len(signature[p.entry]), p.entry)):
            sig = signature[p.entry]
            if sig and not any(sig <= signature[q.entry] or signature[q.entry] <= sig for q in servers):
                servers.append(p)
        if not servers:
            return
        routes = {p.entry: {_norm(f.get("path") or "") for x in reach[p.entry] for f in serving.get(x, [])
                            if f.kind == "http.route" and (f.get("path") or "").startswith("/")} for p in servers}
        linked: set[str] = set()
        for p in programs:  # a CLI calling a server's API on a loopback URL
            for path in self._loopback_paths(repo, reach[p.entry]):
                for q in servers:
                    if q is not p and _norm(path) in routes[q.entry]:
                        linked |= {p.entry, q.entry}
        names = {n: p.entry for p in programs for n in sorted(p.spawn_names | ({p.command} - {""}))}
        for f in self._spawns(repo):
            if f.path not in files:
                continue
            target = names.get((f.get("arg") or "").removeprefix("./"))
            for p in programs:
                if target is not None and target != p.entry and f.path in reach[p.entry]:
                    linked |= {p.entry, target}
        together: dict[Evidence, set[str]] = defaultdict(set)  # programs one parallel runner starts side by side
        for p in programs:
            for ev in p.side_by_side:
                together[ev].add(p.entry)
        linked |= {e for group in together.values() if len(group) >= 2 for e in group}
        members = {p.entry for p in servers} | linked if len(servers) >= 2 or linked else set()
        if len(members) < 2:
            return
        chosen = [p for p in programs if p.entry in members]
        deployed = self._deployed_siblings(comp, repo, chosen)
        if len(deployed) == len(chosen):  # compose services that share one build context: give each its code
            self._assign_files(comp, repo, dirs, files, reach, deployed, keep_config=True)
            return
        keys = {key(comp.name), key(self.project_of(repo)), *(key(a) for a in comp.aliases)} - {""}
        primary = next((p for p in chosen if p.name and key(p.name) in keys), None)
        if primary is None:  # the one the deployment runs as itself; of several, the one no script names
            mains = [p for p in chosen if p.main]
            mains = mains if len(mains) < 2 else [p for p in mains if not p.name]
            primary = mains[0] if len(mains) == 1 else None
        if primary is None:  # the one an image's recipe starts (`CMD ["npm", "start"]`), when only one is
            started = [p for p in chosen if any((e.repository, e.path) in self.recipe_paths for e in p.evidence)]
            primary = started[0] if len(started) == 1 else None
        if primary is not None:
            # a recipe starting the primary that copies named folders only (`COPY app app`, `COPY public public`)
            # leaves out a program beside them (a webhook receiver's example in webhook/): not in the image
            held = self._image_folders(repo, {e.path for e in primary.evidence if (e.repository, e.path) in self.recipe_paths})
            if held is not None:
                chosen = [p for p in chosen if p is primary or any(is_under(p.entry, h) for h in held)]
                if len(chosen) < 2:
                    return
        # the deployment's own start (`npm start`: main, unnamed) that the primary command reaches as one of its
        # subcommands (`evershop start` importing ./start/index.js) is the primary run that way, not a process
        same = {p.entry for p in chosen if primary is not None and p is not primary and p.main and not p.name
                and p.entry in reach[primary.entry]}
        procs: list[Process] = []
        proc_of: dict[str, Process] = {}
        for p in chosen:
            if p is primary or p.entry in same:
                continue
            name = p.name or self._program_name(comp, PurePosixPath(p.entry).stem)
            kind = "command" if p.command else "server" if signature[p.entry] else "program"
            proc_of[p.entry] = Process(name=name, kind=kind, roots={folder(p.entry)}, evidence=list(p.evidence),
                                       program=name, command=p.command)
            procs.append(proc_of[p.entry])
        self._add_processes(comp, repo, procs)
        if primary is not None:
            comp.attributes["process"] = primary.name or comp.name
            comp.evidence.update(primary.evidence[:1])
            self.process_primaries.add(cid)
        by_entry = {p.entry: p for p in chosen}
        cid_of = {p.entry: proc_of[p.entry].cid if p is not primary and p.entry not in same else cid for p in chosen}
        self.split_commands[cid] = {p.command: cid_of[p.entry] for p in chosen if p.command}
        self.spawn_names[cid] = {n: cid_of[e] for n, e in sorted(names.items()) if e in by_entry}
        self._assign_files(comp, repo, dirs, files, reach, cid_of)

    def _image_folders(self, repo: str, recipes: set[str]) -> set[str] | None:
        """The repository folders and files the recipes copy into their image, None when one copies its whole
        build context (``COPY . .``) or none is known."""
        sources = self.recipe_sources(repo)
        held: set[str] = set()
        for path in sorted(recipes):
            copied = sources.get(path, frozenset())
            if copied is None:
                return None
            held |= copied
        # (read against the recipe's own folder as its build context: where no folder it copies holds code there,
        # the context is elsewhere and what it holds is not known)
        if not any(is_under(p, h) and p != h for h in held for r, p in self.code_paths if r == repo):
            return None
        return held

    def _script_roles(self, comp: Component, repo: str, programs: list[ScriptProgram], files: set[str],
                      graph: dict[str, set[str]]) -> list[ScriptProgram]:
        """Subcommands of a Python CLI whose handler goes into a module that serves (``@cli.command()
        def serve(): from shop.api.app import app; uvicorn.run(app)``): roles of that program (``shop serve``)."""
        commands: dict[str, dict[int, list[Fact]]] = defaultdict(lambda: defaultdict(list))
        names_in: dict[str, dict[str, str]] = defaultdict(dict)  # file -> {name bound by from-import: module}
        for f in self.by_kind["cli.subcommand"]:
            if f.repository == repo and f.path in files:
                commands[f.path][f.line].append(f)
        if not commands:
            return []
        for f in self.by_kind["module.var"]:
            if f.repository == repo and f.path in commands:
                names_in[f.path].setdefault(f.get("name") or "", f.get("module") or "")
        serving = self._serving_facts(repo)
        dirs = {folder(x) for x in files}
        taken = {p.entry: p for p in programs}
        out: list[ScriptProgram] = []
        for p in programs:
            for x in sorted(_closure(graph, {p.entry}, set(), files)):
                for _line, fs in sorted(commands.get(x, {}).items()):
                    fs = sorted(fs)
                    name = next((f.get("name") for f in fs if f.get("name")), None) or \
                        (fs[0].get("handler") or "").replace("_", "-")
                    target = None
                    for f in fs:
                        module, sub = f.get("handler_module"), None
                        for bound in (f.get("handler_function"), f.get("handler_package")):
                            if bound and bound in names_in[x]:
                                module, sub = names_in[x][bound], bound
                        cands = python_import_files(files, dirs, x, module, sub) if module else []
                        target = next((t for t in cands[::-1] if t != x
                                       and any(y in serving for y in _closure(graph, {t}, set(), files))), None)
                        if target is not None:
                            break
                    if target is None or not name:
                        continue
                    if target in taken:  # already a program (a console script of its own): also this subcommand
                        taken[target].command = taken[target].command or name
                        continue
                    role = ScriptProgram(name=f"{p.name or comp.name} {name}", entry=target, evidence=[fs[0].evidence],
                                         source="command", command=name)
                    taken[target] = role
                    out.append(role)
        return out

    def _deployed_siblings(self, comp: Component, repo: str, chosen: list[ScriptProgram]) -> dict[str, str]:
        """Programs a compose service of their own runs from the same build context as `comp`
        (``web: uvicorn main:app``, ``worker: celery -A worker.celery worker``): entry -> that service."""
        out: dict[str, str] = {}
        # (a recipe one compose service builds, `dockerfile: Dockerfile.backend` beside Dockerfile.frontend in one
        # context: the program its CMD starts is that service's)
        builders: dict[str, set[str]] = defaultdict(set)
        if any((e.repository, e.path) in self.recipe_paths for p in chosen for e in p.evidence):
            for f in self.by_kind["compose.service"]:
                if f.repository == repo and f.get("dockerfile"):
                    recipe = self.build_root(f)[1]
                    if recipe:
                        builders[recipe].add((f.get("name") or "").lower())
        for p in chosen:
            o = self.alias.get(p.owner.lower()) if p.owner and p.source == "compose" else None
            if o is None:
                names = {n for e in p.evidence if e.repository == repo for n in builders.get(e.path, set())}
                o = self.alias.get(next(iter(names))) if len(names) == 1 else None
            c = self.model.components.get(o) if o else None
            if c is not None and c.kind in ("service", "gateway") and o not in self.process_parent and \
                    any(r == repo and is_under(p.entry, root) for r, root in c.source_roots):
                out[p.entry] = c.id
        return out

    def _assign_files(self, comp: Component, repo: str, dirs: set[str], files: set[str], reach: dict[str, set[str]],
                      cid_of: dict[str, str], keep_config: bool = False) -> None:
        """Each file goes to the process whose program alone reaches it by imports; code several reach is
        shared (stays with `comp`); then ports and connections follow their code."""
        cid = comp.id
        holders: dict[str, set[str]] = defaultdict(set)
        for e, pc in sorted(cid_of.items()):
            for x in reach[e]:
                holders[x].add(pc)
        owner: dict[str, str] = {x: next(iter(hs)) for x, hs in holders.items() if len(hs) == 1}
        for e, pc in sorted(cid_of.items()):  # a program's own module is its code, whoever else imports it
            owner[e] = pc
        for d in sorted(dirs):
            ds = [x for x in self.packages.packages.get((repo, d), []) if x in files]
            found = {owner[x] for x in ds if x in owner}
            for x in ds:  # reached by no program: with the folder's code when one process owns it all
                if x not in holders:
                    owner[x] = next(iter(found)) if len(found) == 1 else cid
            folder_owners = {owner.get(x, cid) for x in ds}
            self.package_owner[(repo, d)] = next(iter(folder_owners)) if len(folder_owners) == 1 else cid
            self.package_holders[(repo, d)] = {h for x in ds for h in holders.get(x, set())}
        for x in sorted(files):
            self.file_owner[(repo, x)] = owner.get(x, cid)
            self.file_holders[(repo, x)] = set(holders.get(x, set()))
        self._move_ports(comp)
        self._move_connections(comp, keep_config)

    def _spawns(self, repo: str) -> list[Fact]:
        k = ("spawns", repo)
        if k not in self._by_file:
            self._by_file[k] = {"": [f for f in self.by_kind["process.spawn"] if f.repository == repo]}
        return self._by_file[k][""]

    def _serving_facts(self, repo: str) -> dict[str, list[Fact]]:
        """What serves, by file: routes, gRPC services, subscriptions, server starts and worker loops."""
        k = ("serving", repo)
        if k not in self._by_file:
            out: dict[str, list[Fact]] = defaultdict(list)
            for kind in ("http.route", "grpc.server", "server.start", "messaging.subscribe"):
                for f in self.by_kind[kind]:
                    if f.repository == repo:
                        out[f.path].append(f)
            self._by_file[k] = out
        return self._by_file[k]

    def _loopback_paths(self, repo: str, paths: set[str]) -> list[str]:
        """API paths the code at `paths` calls on a loopback URL (http://localhost:8000/api/items)."""
        k = ("loopback", repo)
        if k not in self._by_file:
            out: dict[str, list[str]] = defaultdict(list)
            for f in [*self.by_kind["http.client"], *self.by_kind["string.url"]]:
                if f.repository != repo:
                    continue
                value = f.get("url") or f.get("value") or ""
                hosts = parse_hosts(value) if "://" in value else []
                if hosts and all(h.host in LOCAL_HOSTS for h in hosts):
                    path = client_path(value)
                    if _specific(path):
                        out[f.path].append(path)
            self._by_file[k] = out
        return [p for x in sorted(paths) for p in self._by_file[k].get(x, [])]

    # ------------------------------------------------------------------ creating them
    def _create(self, comp: Component, repo: str, dirs: set[str], graph: dict[str, set[str]], primary: str | None,
                procs: list[Process], programs: dict[str, list[Evidence]], own_roots: set[str] | None = None) -> None:
        cid = comp.id
        self._add_processes(comp, repo, procs)
        if primary is not None:
            comp.attributes["process"] = self._program_name(comp, primary)
            comp.evidence.update(programs[primary][:1])
            self.credit(comp.rules)
        commands = {p.command: p.cid for p in procs if p.command}
        self.split_commands[cid] = commands

        # Which process each package belongs to.
        roots_of = {p.cid: set(p.roots) for p in procs}
        if primary is not None:
            roots_of[cid] = {primary}
        if own_roots:
            roots_of[cid] = roots_of.get(cid, set()) | own_roots
        # A program folder holding no code itself (a multi-call binary's `cmd/argocd-server`, whose code
        # is `cmd/argocd-server/commands`) starts from the packages below it.
        roots_of = {pc: {x for r in rs for x in ([r] if r in dirs or not r else
                                                 sorted(d for d in dirs if is_under(d, r)) or [r])}
                     for pc, rs in roots_of.items()}
        all_roots = {r for rs in roots_of.values() for r in rs}
        subtree_roots = sorted(((r, p.cid) for p in procs if p.own_subtree for r in p.roots if r),
                               key=lambda t: (-len(t[0]), t))
        closures = {pc: _closure(graph, rs, all_roots - rs) for pc, rs in roots_of.items()}
        core: dict[str, str] = {}
        for p in procs:
            if p.kind == "program":
                continue
            for d in sorted(self._entry_core(repo, p.roots, dirs, all_roots)):
                core.setdefault(d, p.cid)
        # Packages below a package a role's entry calls reach are that role's too (x/mlxrunner/cache).
        core_roots = sorted(((d, pc) for d, pc in core.items() if d), key=lambda t: (-len(t[0]), t))
        holders: dict[str, set[str]] = defaultdict(set)
        for pc, cl in closures.items():
            for d in cl:
                holders[d].add(pc)
        owner: dict[str, str] = {}
        for d in sorted(dirs):
            by_place = next((pc for r, pc in subtree_roots if is_under(d, r)), None)
            if by_place is not None:
                owner[d] = by_place
            elif d in core:
                owner[d] = core[d]
            elif any(is_under(d, r) for r, _pc in core_roots):
                owner[d] = next(pc for r, pc in core_roots if is_under(d, r))
            elif len(holders.get(d, ())) == 1:
                owner[d] = next(iter(holders[d]))
        for d in sorted(dirs, key=lambda x: (x.count("/"), x)):
            if d not in owner and not holders.get(d):  # reached by no process: like the nearest folder above it
                up = folder(d) if d else None
                while up is not None and up not in owner and up:
                    up = folder(up)
                found = owner.get(up) if up is not None else None
                if found is not None and found != cid:
                    owner[d] = found
        for d in sorted(dirs):
            o = owner.get(d, cid)
            self.package_owner[(repo, d)] = o
            self.package_holders[(repo, d)] = set(holders.get(d, set()))
        self._move_ports(comp)
        self._move_connections(comp)

    def _add_processes(self, comp: Component, repo: str, procs: list[Process]) -> None:
        """One component per process, named after its program, subcommand or role (``p.cid`` set)."""
        cid = comp.id
        used: set[str] = set()
        with_code = set(self.package_owner.values())
        by_words = self._path_word_deployments(comp, procs, with_code)
        for p in procs:
            name = p.name
            base = PurePosixPath(p.program).name if p.kind == "program" else ""
            if base and base.lower() != name.lower() and self.alias.get(base.lower()) is not None \
                    and self.alias.get(base.lower()) not in with_code:
                name = base  # cmd/web deployed as `web`
            elif p.kind == "command" and (deployed := self._deployment_starting(comp, p, with_code | used)):
                name = self.model.components[deployed].name  # `fleetcontroller gitjob` deployed as `gitjob`
            elif self.alias.get(name.lower()) is None and (not base or self.alias.get(base.lower()) is None):
                deployed = self._deployment_of_program(comp, base or name, with_code | used, binary=name) \
                    or (by_words.get(p.program) if p.kind == "program" and by_words.get(p.program) not in used else None)
                if deployed:
                    name = self.model.components[deployed].name  # cmd/agent deployed as `acme-agent`
            existing = self.alias.get(name.lower())
            # A deployed component of that name with no code of its own (compose services running
            # images built from this repository) is this process; any other name clash is avoided.
            if existing is not None and (existing == cid or existing in used or existing in with_code
                                         or existing in self.process_parent
                                         or self.model.components[existing].kind not in ("service", "gateway")):
                name = f"{comp.name} {p.name}" if not p.name.startswith(comp.name) else f"{p.name} process"
            elif existing is not None:
                self.process_reused.add(existing)
            label = (PurePosixPath(p.program).name or comp.name) if p.kind == "program" else p.name
            attrs = {"process": label if p.kind != "service" else f"{self._program_name(comp, p.program)} ({p.name})",
                     "part_of": comp.id}
            if p.command:
                attrs["command"] = p.command
            new = self.add_component(name, "service", repo, p.evidence[0] if p.evidence else
                                     Evidence(repo, self.packages.packages[(repo, sorted(p.roots)[0])][0], 1),
                                     attributes=attrs)
            new.evidence.update(p.evidence)
            if new.language is None:
                new.language = comp.language
            for k, v in attrs.items():
                new.attributes[k] = v
            p.cid = new.id
            used.add(new.id)
            self.process_parent[new.id] = cid
            self.process_kind[new.id] = p.kind
        comp.attributes["processes"] = ", ".join(sorted(self.model.components[p.cid].name for p in procs))

    def _path_word_deployments(self, comp: Component, procs: list[Process], taken: set[str]) -> dict[str, str]:
        """Program folder -> the deployment whose image is named ``<project>-`` and words of that folder's path
        (``vdaas/vald-agent-ngt`` runs ``cmd/agent/core/ngt``, ``vald-lb-gateway`` runs ``cmd/gateway/lb``).

        Why: a monorepo building one image per program names each image after the project and the program's
        place in the command tree, not after the last folder alone, so a program called ``ngt`` or ``lb`` is not
        found by its name. Only pairs that match one to one count: an image whose words fit two programs, or a
        program two images fit, is left to the other evidence."""
        prefixes = tuple(f"{comp.name.lower()}{sep}" for sep in ("-", "_"))
        path_words: dict[str, set[str]] = {}
        for p in procs:
            if p.kind != "program" or not p.program:
                continue
            parts = [x.lower() for x in PurePosixPath(p.program).parts]
            if "cmd" in parts:
                parts = parts[len(parts) - parts[::-1].index("cmd"):]
            words = {w for x in parts for w in re.split(r"[-_.]", x) if w}
            if parts and words:
                path_words[p.program] = words
        pairs: dict[str, set[str]] = defaultdict(set)
        fits: dict[str, set[str]] = defaultdict(set)
        for c in self.model.components.values():
            image = c.attributes.get("image") or ""
            if c.source_roots or c.kind not in ("service", "gateway") or not image or c.id in taken \
                    or c.id in self.process_parent:
                continue
            base = image_basename(image).lower()
            if not base.startswith(prefixes):
                continue
            words = [w for w in re.split(r"[-_]", base[len(comp.name) + 1:]) if w]
            if len(words) < 2:
                continue  # <project>-<program>: the program's own name, matched by the name rules
            for program, have in path_words.items():
                last = re.split(r"[-_.]", PurePosixPath(program).name.lower())[-1]
                if set(words) <= have and last in words:
                    pairs[c.id].add(program)
                    fits[program].add(c.id)
        return {next(iter(programs)): cid for cid, programs in sorted(pairs.items())
                if len(programs) == 1 and len(fits[next(iter(programs))]) == 1}

    def _deployment_starting(self, comp: Component, p: Process, taken: set[str]) -> str | None:
        """The one deployment with no code of its own starting the command's program by its name with the command
        (``command: [fleetcontroller]``, ``args: [gitjob]``), none when none or several do."""
        binary = self._program_name(comp, p.program).lower()
        found = sorted(cid for cid, (b, word) in self.deployment_command_words().items()
                       if b == binary and word == p.command.lower() and cid not in taken and cid in self.model.components
                       and not self.model.components[cid].source_roots)
        return found[0] if len(found) == 1 else None

    def _deployment_of_program(self, comp: Component, program: str, taken: set[str], binary: str = "") -> str | None:
        """The one deployment with no code of its own whose image or name is the program's name under
        the project's name (``acmeci/acme-agent`` or a compose service ``acme-agent`` runs ``cmd/agent``
        of repository or module ``acme``): images are commonly named ``<project>-<program>``; or whose
        command starts the binary the build makes of the program (``/keda-adapter``, built from
        ``cmd/adapter``). Only a unique match counts; two candidates mean the evidence is ambiguous."""
        wanted = keys_of([program], [])
        if not wanted:
            return None
        prefixes = [f"{comp.name.lower()}{sep}" for sep in ("-", "_", ".")]
        found = {cid for k in wanted for cid in self.image_deployments().get(k, set())}
        for c in self.model.components.values():
            # `image: ko://github.com/acme/shop/cmd/controller`: ko builds the image of that Go package
            image = c.attributes.get("image") or ""
            if image.startswith("ko://") and not c.source_roots and c.kind in ("service", "gateway") \
                    and image[5:].split("@")[0].split(":")[0].rstrip("/").lower().endswith(f"/{program.lower()}"):
                found.add(c.id)
        # (the binary is the program's own name where the build names it so: `/opt/guac/guaccsub` of cmd/guaccsub,
        # run by a compose service of an image given by a variable, `image: $GUAC_IMAGE`)
        starts = [(f.get("name") or "", f.get("command") or "") for f in self.by_kind["k8s.workload"]]
        starts += [(f.get("owner") or "", f.get("command") or "") for f in self.by_kind["program.command"]
                   if f.get("source") == "compose"]
        for name, command in starts:
            first = command.strip().strip("\"'[]").split(" ")[0].strip("\"',")
            started = PurePosixPath(first).name
            target = self.alias.get(name.lower())
            if started and started.lower() == (binary or program).lower() and target is not None \
                    and not self.model.components[target].source_roots \
                    and (binary.lower() != program.lower() or "/" in first):
                found.add(target)
        for c in self.model.components.values():
            if c.source_roots or c.kind not in ("service", "gateway") or not c.attributes.get("image"):
                continue
            names = [*image_names(c.attributes["image"]), c.name]
            if keys_of(names, prefixes) & wanted and not keys_of(names, []) & keys_of([comp.name], []):
                found.add(c.id)
        found -= taken
        found -= set(self.process_parent)
        if not found and len(program) >= 3:
            # an image named <word>-<program> (oamdev/vela-core runs cmd/core of kubevela): the one
            # deployment with no code of its own whose image ends so
            for c in self.model.components.values():
                if c.source_roots or c.kind not in ("service", "gateway") or not c.attributes.get("image") \
                        or c.id in taken or c.id in self.process_parent:
                    continue
                base = image_basename(c.attributes["image"]).lower()
                # (one word in front: vela-core; kserve-localmodelnode-agent names another program than cmd/agent)
                if base.endswith(f"-{program.lower()}") and "-" not in base[:-len(program) - 1]:
                    found.add(c.id)
        return found.pop() if len(found) == 1 else None

    def _entry_core(self, repo: str, roots: set[str], dirs: set[str], all_roots: set[str]) -> set[str]:
        """Packages a role's entry calls reach (runner.Execute -> mlxrunner.Execute -> ...)."""
        out = set(roots)
        todo = sorted(roots)
        calls_by_dir: dict[str, list[Fact]] = defaultdict(list)
        for f in self.by_kind["code.call"]:
            if f.repository == repo:
                calls_by_dir[folder(f.path)].append(f)
        depth = 0
        while todo and depth < 4:
            nxt = []
            for d in todo:
                for f in calls_by_dir.get(d, []):
                    t = self.packages.go_names.get((repo, f.path), {}).get(f.get("package") or "")
                    if t and t in dirs and t not in out and t not in all_roots and f.get("function") in ENTRY_CALLS:
                        out.add(t)
                        nxt.append(t)
            todo = sorted(nxt)
            depth += 1
        return out

    # ------------------------------------------------------------------ moving what the code declares
    def process_of_file(self, repo: str, path: str) -> str | None:
        o = self.file_owner.get((repo, path))
        if o is not None:
            return o
        d = self.packages.package_of(repo, path)
        if d is not None:
            return self.package_owner.get((repo, d))
        # a settings file kept in a program's folder (app/order/cmd/rpc/etc/order.yaml, which the program is started
        # with: `order-rpc -f app/order/cmd/rpc/etc/order.yaml`): the process of the nearest program folder above it
        parts = path.split("/")[:-1]
        for i in range(len(parts), 0, -1):
            o = self.package_owner.get((repo, "/".join(parts[:i])))
            if o is not None:
                return o if o in self.process_parent else None
        return None

    def _move_ports(self, comp: Component) -> None:
        """Each endpoint goes to the process whose code declares it (one declared by two processes is
        provided by both); a gRPC method goes to the process that registers its service."""
        registrar: dict[str, set[str]] = defaultdict(set)
        for f in self.by_kind["grpc.server"]:
            o = self.process_of_file(f.repository, f.path)
            if o is not None and self.process_parent.get(o) == comp.id:
                registrar[grpc_service_name(f.get("service") or "", f.get("strip"))].add(o)
        doc_target: dict[tuple[str, str], set[str]] = {}  # API description file -> where its operations went
        for pname in sorted(comp.ports):
            port = comp.ports[pname]
            keep: list[Endpoint] = []
            for ep in port.endpoints:
                groups: dict[str, list[Evidence]] = defaultdict(list)
                rpc = registrar.get(grpc_service_name(ep.path.split("/")[0])) if ep.method == "RPC" else None
                described: list[Evidence] = []
                for e in ep.evidence:
                    if rpc is not None and len(rpc) == 1:
                        groups[next(iter(rpc))].append(e)
                    elif API_DESCRIPTION.search(e.path.rsplit("/", 1)[-1]) and \
                            self.process_of_file(e.repository, e.path) is None:
                        described.append(e)  # an OpenAPI document: it follows the code serving the operation
                    else:
                        o = self.process_of_file(e.repository, e.path) or comp.id
                        direct = self._importing_processes(comp.id, e.repository, e.path) if o == comp.id else set()
                        for target in sorted(direct) or [o]:
                            groups[target].append(e)
                served = sorted(t for t in groups if t != comp.id)
                for follow in (served if served and comp.id not in groups else [comp.id]) if described else []:
                    groups[follow].extend(described)
                    for e in described:
                        doc_target.setdefault((e.repository, e.path), set()).add(follow)
                for target, evs in sorted(groups.items()):
                    # the typed fields (proto package, request and response bodies) go with the endpoint
                    if target == comp.id:
                        keep.append(replace(ep, evidence=evs))
                        continue
                    tport = self.model.components[target].ports.setdefault(
                        pname, Port(name=pname, protocol=port.protocol, direction=port.direction))
                    tport.endpoints.append(replace(ep, evidence=evs))
            port.endpoints = keep
            for e in list(port.evidence):  # where the port is declared (routes, registrations) follows its code
                o = self.process_of_file(e.repository, e.path)
                targets = doc_target.get((e.repository, e.path), set())
                if o is None and len(targets) == 1:
                    o = next(iter(targets))  # a description all of whose operations moved to one process
                if o is not None and o != comp.id:
                    t = self.model.components[o].ports.setdefault(
                        pname, Port(name=pname, protocol=port.protocol, direction=port.direction))
                    t.evidence.append(e)
                    port.evidence.remove(e)
            if not port.endpoints:
                for e in port.evidence:  # declarations in shared code of a port that moved
                    for t in self.model.components.values():
                        if self.process_parent.get(t.id) == comp.id and pname in t.ports:
                            t.ports[pname].evidence.append(e)
                            break
                del comp.ports[pname]

    def _move_connections(self, comp: Component, keep_config: bool = False) -> None:
        """Connections follow the code that makes them; with `keep_config` (a deployed service), what
        its deployment says (compose environment, not code) stays its own."""
        cid = comp.id
        for k in sorted(k for k in self.model.connections if k[0] == cid):
            conn = self.model.connections[k]
            groups: dict[str, set[Evidence]] = defaultdict(set)
            other: set[Evidence] = set()
            # A shared constant's declaration beside the lines using it (flag defaults naming
            # common.DefaultRepoServerAddr in each server's command): each using line is where its
            # process takes the address, and the declaration follows them.
            declared = {e for e in conn.evidence if self.constants.declares_constant(e)}
            using = {e for e in conn.evidence if e not in declared and self.constants.gives_value(e)} if declared else set()
            for e in conn.evidence:
                # a line that only gave the call its value (a constant of shared code) follows the call
                if using and e in declared:
                    o = None
                elif e in using:
                    o = self.process_of_file(e.repository, e.path)
                else:
                    o = None if self.constants.gives_value(e) else self.process_of_file(e.repository, e.path)
                if o is None:
                    other.add(e)
                else:
                    groups[o].add(e)
            if not groups or set(groups) == {cid}:
                continue
            if keep_config and other:
                groups[cid] |= other
                other = set()
            del self.model.connections[k]
            made_by = self.created_by.pop(k, "")
            for o, evs in sorted(groups.items()):
                if o != conn.target:
                    self._carry(conn, o, conn.target, evs | other, made_by)
        # Calls to the component for endpoints or gRPC services a process now provides go to that process.
        for k in sorted(k for k in self.model.connections if k[1] == cid):
            conn = self.model.connections[k]
            target = self._provider_of(comp, conn)
            if target is None or target == conn.source:
                continue
            del self.model.connections[k]
            self._carry(conn, conn.source, target, conn.evidence, self.created_by.pop(k, ""))

    def _carry(self, conn: Connection, source: str, target: str, evidence: set[Evidence], made_by: str) -> None:
        """Move what `conn` says (its evidence lines, rules, attributes) onto the link source -> target of
        the same protocol, made if missing (crediting the unit that made `conn`)."""
        nk = (source, target, conn.protocol)
        new = self.model.connections.get(nk)
        if new is None:
            new = Connection(source=source, target=target, kind=conn.kind, protocol=conn.protocol)
            self.model.connections[nk] = new
            self.created_by[nk] = made_by
        new.evidence.update(evidence)
        new.rules |= conn.rules
        self.credit(new.rules)
        for a, v in conn.attributes.items():
            new.attributes.setdefault(a, v)

    def shared_connections(self) -> None:
        """A call made in code several processes share (a cache package the server, the controller and
        the repository server all import) stays, after the split, with the component they came from,
        which no longer runs it. Each process whose imports reach that code makes the call; the
        component keeps only the lines of its own program and what no process reaches. A deployed
        component keeps its calls: its deployment is what runs, its processes are parts of it."""
        # A deployed component stays the running thing its deployment names (its processes are parts of
        # it); only code nothing deploys as such (a build module, a multi-call binary) hands calls on, and
        # a deployed one hands its stores to the processes deployed themselves (the module's other programs,
        # each the image of a workload of its own: the query server reaching the state store package it shares;
        # a store package is opened by whoever imports it, a shared client's calls depend on who calls them).
        deployed = {c.id for c in self.model.components.values() if c.attributes.get("deployment")}
        procs_of: dict[str, set[str]] = defaultdict(set)
        for p, parent in getattr(self, "process_parent", {}).items():
            if parent not in deployed or p in deployed:
                procs_of[parent].add(p)
        parents = set(procs_of)
        if not parents:
            return
        # the folders each process's own files import (for links known only from an import)
        imported: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for (repo, path), targets in sorted(self.packages.file_imports.items()):
            o = self.process_of_file(repo, path)
            if o in self.process_parent:
                imported[o].update((repo, t) for t, _ev in targets)
        for k in sorted(k for k in self.model.connections if k[0] in parents):
            conn = self.model.connections[k]
            src, target = k[0], k[1]
            if self.model.components[target].kind == "user":
                continue
            if src in deployed and self.model.components[target].kind not in STORE_KINDS:
                continue  # a deployed module's shared calls to services and APIs: which program makes them is not told
            # A link known only from a client library's import (an SDK, a storage library) says the
            # package can call the service, not that every program linking the package does: only the
            # processes whose own files import that package take it.
            by_import = (conn.attributes.get("via") or "").startswith(IMPORT_VIAS)
            moved: dict[str, set[Evidence]] = defaultdict(set)
            keep: set[Evidence] = set()
            for e in sorted(conn.evidence):
                holders = self._shared_holders(src, e)
                runners = holders & procs_of[src] - {target}
                if by_import:
                    here = (e.repository, folder(e.path))
                    runners = {p for p in runners if here in imported[p]}
                if not runners:
                    keep.add(e)
                    continue
                for p in runners:
                    moved[p].add(e)
                if src in deployed or src in holders and src in self.process_primaries:
                    keep.add(e)  # the component's own program reaches it too (a deployed one keeps its calls)
            if not moved:
                continue
            made_by = self.created_by.get(k, "")
            for p, evs in sorted(moved.items()):
                self._carry(conn, p, target, evs, made_by)
            if keep:
                conn.evidence = keep
            else:
                del self.model.connections[k]
                self.created_by.pop(k, None)

    def _shared_holders(self, cid: str, e: Evidence) -> set[str]:
        """The processes whose imports reach the code at `e` when that code is shared (its owner is
        still the component `cid` the processes were split from); empty for code a process owns."""
        if self.process_of_file(e.repository, e.path) != cid:
            return set()
        if (e.repository, e.path) in self.file_owner:
            return set(self.file_holders.get((e.repository, e.path), set()))
        d = self.packages.package_of(e.repository, e.path)
        return set(self.package_holders.get((e.repository, d), set())) if d is not None else set()

    def _provider_of(self, comp: Component, conn: Connection) -> str | None:
        """The process of `comp` that provides what `conn` calls (its endpoints, its gRPC service)."""
        procs = sorted(p for p, parent in self.process_parent.items() if parent == comp.id)
        if conn.protocol == "grpc":
            service = (conn.attributes.get("via") or "").replace("grpc stub ", "")
            hits = [p for p in procs if any(ep.method == "RPC" and grpc_service_name(ep.path.split("/")[0]) == service
                                            for port in self.model.components[p].ports.values() for ep in port.endpoints)]
            return hits[0] if len(hits) == 1 else None
        calls = [c for c in (conn.attributes.get("endpoints") or "").split(", ") if c]
        if not calls:
            return None
        hits = set()
        for call in calls:
            path = call.split(" ", 1)[-1]
            for p in procs:
                if _provides(self.model.components[p], path):
                    hits.add(p)
        return sorted(hits)[0] if len(hits) == 1 else None

    # ------------------------------------------------------------------ links between processes
    def process_links(self) -> None:
        if not getattr(self, "process_parent", None):  # none when process.programs is off
            return
        self._spawn_links()
        self._api_links()
        self._grpc_links()
        self._entry_links()

    def _sources(self, repo: str, path: str, target: str, strict: bool = False) -> list[str]:
        """The processes that run the code at `path` when it reaches `target`: the process its package
        belongs to; for code several processes link (or the target's own), the one of them that is not
        the target, else (unless `strict`) the component they were split from when it links that code."""
        if (repo, path) in self.file_owner:  # a Python/JavaScript split: by file
            o = self.file_owner[(repo, path)]
            holders = self.file_holders.get((repo, path), set())
        else:
            d = self.packages.package_of(repo, path)
            if d is None or (repo, d) not in self.package_owner:
                return []
            o = self.package_owner[(repo, d)]
            holders = self.package_holders.get((repo, d), set())
        if o != target and (o in self.process_parent or o not in self.split_commands):
            return [o]
        cands = sorted(holders - {target})
        if len(cands) == 1:
            return cands
        family = self._family(o)
        if strict:
            return []
        if family in cands or (not cands and family == o and o != target):
            return [family]
        return []

    def _client_runners(self, repo: str, path: str, owned: dict[tuple[str, str], list[str]]) -> set[str]:
        """The processes that run the code at `path`: its own process, else every process reaching it."""
        o = self.process_of_file(repo, path)
        if o in self.process_parent:
            return {o}
        d = self.packages.package_of(repo, path)
        if (repo, path) in self.file_owner:
            holders = set(self.file_holders.get((repo, path), set()))
        else:
            holders = set(self.package_holders.get((repo, d), set())) if d is not None else set()
        # of those, the ones whose own files import that code (not through the shared code in between)
        direct = {h for h in holders for x in owned.get((repo, h), [])
                  if d in self.packages.go_names.get((repo, x), {}).values()}
        return direct or holders

    def _importing_processes(self, cid: str, repo: str, path: str) -> set[str]:
        """For shared code of a binary whose main only dispatches subcommands: the subcommand processes
        whose own files import that code's package (the API package the query command mounts), which
        serve what it declares."""
        if cid not in self.process_dispatchers:
            return set()
        d = self.packages.package_of(repo, path)
        return {o for (r, x), o in self.file_owner.items() if r == repo and o != cid and o in self.process_parent
                and d in self.packages.go_names.get((r, x), {}).values()}

    def _family(self, cid: str) -> str:
        return self.process_parent.get(cid, cid)

    def _spawn_links(self) -> None:
        for f in self.by_kind["process.spawn"]:
            o = self.process_of_file(f.repository, f.path)
            if o is None:
                continue
            commands = self.split_commands.get(self._family(o), {})
            arg = f.get("arg") or ""
            if f.get("template") and not arg:  # f"service/{name}/main.py": each program of the split it fits
                names = self.spawn_names.get(self._family(o), {})
                for entry in template_programs(f.get("template") or "", folder(f.path), set(names)):
                    for src in self._sources(f.repository, f.path, names[entry]):
                        self.connect(src, names[entry], "process", [f.evidence], kind="spawns",
                                     attributes={"via": f"starts '{f.get('template')}' ({entry})",
                                                 "pattern": f.get("template") or ""})
                continue
            target = commands.get(arg)
            via = f"starts the '{arg}' subcommand"
            if target is None:  # a Python module or a script file another program of the split starts
                target = self.spawn_names.get(self._family(o), {}).get(arg.removeprefix("./"))
                via = f"starts '{arg}'"
            if target is None:
                continue
            for src in self._sources(f.repository, f.path, target):
                self.connect(src, target, "process", [f.evidence], kind="spawns", attributes={"via": via})

    def _client_users(self) -> dict[tuple[str, str], dict[str, Evidence]]:
        """(repository, package folder) -> the processes whose code makes a client of that package
        (``api.ClientFromEnvironment()``): they make the calls that package's client makes.  A program
        importing the package only for its types is not among them."""
        users: dict[tuple[str, str], dict[str, Evidence]] = defaultdict(dict)
        for f in self.by_kind["code.client_new"]:  # in fact order: the first place a program makes the client
            d = self.packages.go_names.get((f.repository, f.path), {}).get(f.get("package") or "")
            o = self.process_of_file(f.repository, f.path)
            if d is not None and o is not None:
                users[(f.repository, d)].setdefault(o, f.evidence)
        return users

    def _api_links(self) -> None:
        client_users = self._client_users()
        # Python/JavaScript: a URL literal handed to a client call is that call, not a second one.
        called = {(f.repository, f.path, f.line) for f in self.by_kind["http.client"] if f.language in SCRIPT_LANGUAGES}
        for f in [*self.by_kind["http.call_path"], *self.by_kind["http.client"], *self.by_kind["string.url"]]:
            if f.kind == "string.url" and (f.repository, f.path, f.line) in called:
                continue
            o = self.process_of_file(f.repository, f.path)
            if o is None or self._family(o) not in self.split_commands:
                continue
            if f.kind == "http.call_path":
                path, method = f.get("path") or "", http_verb(f.get("method") or "") or ""
            else:
                value = f.get("url") or f.get("value") or ""
                hosts = parse_hosts(value) if "://" in value else []
                if hosts and not all(h.host in LOCAL_HOSTS for h in hosts):
                    continue  # a named host: the other rules resolve it
                if f.kind == "string.url" and not hosts:
                    continue
                path, method = client_path(value), http_verb(f.get("method") or "") or ""
            if not _specific(path):
                continue
            family = self._family(o)
            procs = [family, *sorted(p for p, parent in self.process_parent.items() if parent == family)]
            providers = [p for p in procs if _provides(self.model.components[p], path)]
            if len(providers) != 1:
                continue
            target = providers[0]
            # A loopback URL in code the target links itself may be a call to another local server
            # (a sidecar on the same host): only code that one other process runs counts.
            sources = self._sources(f.repository, f.path, target, strict=f.kind != "http.call_path")
            made_by: dict[str, Evidence] = {}
            if f.kind == "http.call_path":  # ... and every program making a client of that package calls too
                made_by = {u: ev for u, ev in client_users.get(
                    (f.repository, self.packages.package_of(f.repository, f.path) or ""), {}).items() if u != target}
            for src in sorted({*sources, *made_by}):
                if _provides(self.model.components[src], path):
                    continue
                self.connect(src, target, "http", [f.evidence, *([made_by[src]] if src in made_by else [])],
                             kind="calls", attributes={"via": "http client (API path)"})
                conn = self.model.connections[(src, target, "http")]
                calls = set(filter(None, conn.attributes.get("endpoints", "").split(", ")))
                calls.add(f"{method if method in HTTP_VERBS else 'ANY'} {path}")
                conn.attributes["endpoints"] = ", ".join(sorted(calls))

    def _grpc_links(self) -> None:
        providers: dict[str, set[str]] = defaultdict(set)
        for f in self.by_kind["grpc.server"]:
            o = self.process_of_file(f.repository, f.path)
            if o is not None and (o in self.process_parent or o in self.split_commands):
                providers[grpc_service_name(f.get("service") or "", f.get("strip"))].add(o)
        for name, ps in providers.items():  # a role that registers the service is its server (test doubles aside)
            if any(p in self.process_parent for p in ps):
                providers[name] = {p for p in ps if p in self.process_parent}
        if not providers:
            return
        shared: list[tuple[Fact, str]] = []
        many: list[tuple[Fact, str]] = []
        exclusive: set[str] = set()
        for f in [*self.by_kind["grpc.client"], *self.by_kind["grpc.client_ref"]]:
            name = grpc_service_name(f.get("service") or "", f.get("strip"))
            targets = providers.get(name, set())
            o = self.process_of_file(f.repository, f.path)
            if len(targets) > 1 and o is not None:
                many.append((f, name))
            if len(targets) != 1 or o is None:
                continue
            target = next(iter(targets))
            if self._family(o) != self._family(target):
                continue
            if o in self.process_parent or o not in self.split_commands:
                if o != target:
                    exclusive.add(name)
                    self.connect(o, target, "grpc", [f.evidence], attributes={"via": f"grpc stub {name}"})
            else:
                shared.append((f, name))
        for f, name in shared:
            if name in exclusive:
                continue
            target = next(iter(providers[name]))
            for src in self._sources(f.repository, f.path, target):
                self.connect(src, target, "grpc", [f.evidence], attributes={"via": f"grpc stub {name}"})
        # A service several processes of one binary serve (a store API every data role answers): its
        # client is configured with their addresses at run time, so it reaches each of them.
        owned: dict[tuple[str, str], list[str]] = defaultdict(list)  # (repository, process) -> its files
        for (r, x), o in sorted(self.file_owner.items()):
            owned[(r, o)].append(x)
        for f, name in many:
            for target in sorted(providers[name]):
                for src in sorted(self._client_runners(f.repository, f.path, owned)):
                    if src != target and self._family(src) == self._family(target):
                        self.connect(src, target, "grpc", [f.evidence],
                                     attributes={"via": f"grpc stub {name} (served by {len(providers[name])} processes)"})

    def _entry_links(self) -> None:
        """People start programs: where the user enters a split component, the component's other
        programs that no process starts or calls, and that no deployment runs, are started by people too."""
        called = {c.target for c in self.model.connections.values() if self.model.components[c.source].kind != "user"}
        # (the helper servers a process starts from a table of names, f"service/{name}/main.py" on loopback ports, are
        # reached through their starter, not by people; a process manager's one web server, NodeBB's loader forking
        # app.js, is the server people reach)
        spawned = {c.target for c in self.model.connections.values()
                   if c.kind == "spawns" and c.attributes.get("pattern") and self.model.components[c.source].kind != "user"}
        for k in sorted(k for k in self.model.connections if self.model.components[k[0]].kind == "user"):
            family = k[1]
            if family not in self.split_commands:
                continue
            for p in sorted(p for p, parent in self.process_parent.items() if parent == family):
                if self.process_kind.get(p) == "program" and p not in called and p not in self.process_reused:
                    self.connect(k[0], p, "process", sorted(self.model.components[p].evidence)[:1], kind="spawns",
                                 attributes={"via": "a program people start"})
                elif self.process_kind.get(p) == "server" and k[2] == "http" and "http" in self.model.components[p].ports \
                        and p not in self.process_reused and p not in spawned:
                    # a Python/JavaScript process serving the HTTP API people reach the component by
                    self.connect(k[0], p, "http", sorted(self.model.connections[k].evidence), kind="calls",
                                 attributes={"via": self.model.connections[k].attributes.get("via", "published entry point")})


def _closure(graph: dict[str, set[str]], roots: set[str], stop: set[str],
             within: set[str] | None = None) -> set[str]:
    """What `roots` reach in `graph`, not through `stop`, and only inside `within` when given."""
    seen = set(roots)
    todo = sorted(roots)
    while todo:
        d = todo.pop()
        for t in graph.get(d, ()):
            if t not in seen and t not in stop and (within is None or t in within):
                seen.add(t)
                todo.append(t)
    return seen


def _dedupe_roles(roles: list[Process]) -> list[Process]:
    """One process per root package (two commands for one server: `serve` and its alias `start`)."""
    out: dict[frozenset[str], Process] = {}
    for r in roles:
        k = frozenset(r.roots)
        if k in out:
            out[k].evidence.extend(r.evidence)
        else:
            out[k] = r
    return list(out.values())


_PARAM = re.compile(r"\{[^}]*\}|:[A-Za-z_]\w*|%[sdv]|<[^>]*>|\$\{[^}]*\}|\*\w*")


def _norm(path: str) -> str:
    p = path.split("?")[0].split("#")[0]
    p = _PARAM.sub("{}", p)
    return p.rstrip("/") or "/"


def _specific(path: str) -> bool:
    return path.startswith("/") and len([s for s in _norm(path).split("/") if s and s != "{}"]) >= 1 and _norm(path) != "/"


def _provides(comp: Component, path: str) -> bool:
    want = _norm(path)
    for port in comp.ports.values():
        for ep in port.endpoints:
            if ep.method != "RPC" and _norm(ep.path) == want:
                return True
    return False
