"""Moleculer services: which deployment runs which service, and who calls whose actions.

Why: a Moleculer system is often one image deployed many times, each container told by its environment which
service files of the shared code to load (``SERVICES: accounts.service.js``, ``SERVICES: users,orders``, read by
``moleculer-runner``).  Nothing in the deployment says who calls whom: services call each other's actions through
the broker by name (``ctx.call("v1.boards.resolve")``), and the name is the one a service's schema declares
(``name: "boards", version: 1``).  So the containers are told apart by the files they load, and a call connects the
container loading the calling file to the one loading the service that declares the action's name.  Calls written
in a mixin (``member-check.mixin.js``) are made by every service that mixes it in (imports it).
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import replace

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import is_under
from repomodeler.records import Evidence, Fact

# The runner's variable naming the services a process loads (comma separated: names or file names).
SERVICES_VARIABLE = "SERVICES"
# The endings a service file goes by (`accounts.service.js`, `users.service.ts`).
_SERVICE_FILE = re.compile(r"\.service\.[cm]?[jt]s$|\.[cm]?[jt]s$")
# A gateway route's pattern over a service's actions (`v1.accounts.**`, `posts.*`).
_WILDCARD = re.compile(r"\.\*{1,2}$")
_JS_ENDINGS = ("", ".js", ".ts", ".mjs", ".cjs", "/index.js", "/index.ts")


def full_name(f: Fact) -> str:
    """The name a service's actions are called by: `v1.boards` for version 1 of `boards`, `staging.boards` for a
    version string, else the name."""
    name, version = (f.get("name") or "").strip(), (f.get("version") or "").strip().strip("\"'`")
    if not version:
        return name
    return f"v{version}.{name}" if version.isdigit() else f"{version}.{name}"


class MoleculerRules(ResolverBase):
    """Deployments told by the files they load, and the action calls between them."""

    def moleculer_actions(self) -> None:
        """Each action call connects the deployments running the calling service (or a service mixing in the
        calling helper) to those running the service that declares the action's name."""
        declared = self._moleculer_schemas()
        if not declared:
            return
        importers = self._moleculer_importers()
        # (a schema in a file another schema's file imports is a mixin's, not a service's: `cron.mixin.js`)
        schema_files = {(d.repository, d.path) for d in declared}
        declared = [f for f in declared if not any((f.repository, i) in schema_files
                                                   for i in importers.get((f.repository, f.path), ()))]
        by_name: dict[tuple[str, str], list[Fact]] = defaultdict(list)
        for f in declared:
            by_name[(f.repository, full_name(f).lower())].append(f)
        service_files = {(f.repository, f.path) for f in declared}
        loaded = self._moleculer_loaded(declared)
        self._moleculer_loaded_code(loaded)
        for call in sorted([*self.by_kind["moleculer.call"], *self._moleculer_auto_aliases(declared)], key=Fact.order):
            if _is_test(call.path):
                continue
            target_decl = self._moleculer_action_service(call, by_name)
            if target_decl is None:
                continue
            targets = self._moleculer_runners(target_decl.repository, target_decl.path, loaded)
            for caller_file in self._moleculer_calling_files(call, service_files, importers):
                for caller, how in self._moleculer_runners(call.repository, caller_file, loaded).items():
                    for target, loads in targets.items():
                        if caller == target or (how and loads and not _same_descriptors(how, loads)):
                            continue  # (a compose service calls the compose service, not the Kubernetes workload)
                        evidence = [call.evidence, target_decl.evidence, *how, *loads]
                        self.connect(caller, target, "moleculer", evidence,
                                     attributes={"via": f"{call.get('via') or 'action call'} {call.get('action')}"})

    def _moleculer_auto_aliases(self, declared: list[Fact]) -> list[Fact]:
        """A gateway route publishing every action that declares a REST alias (`autoAliases: true`, in the
        gateway's schema file): a call, from that file, of each service whose file declares one (`rest: "GET /"`)."""
        rest = {(f.repository, f.path) for f in self.by_kind["moleculer.rest"]}
        out: list[Fact] = []
        for auto in self.by_kind["moleculer.auto_aliases"]:
            for f in declared:
                if f.repository == auto.repository and (f.repository, f.path) in rest and f.path != auto.path:
                    out.append(replace(auto, kind="moleculer.call", attrs=tuple(sorted(
                        {"action": full_name(f), "via": "api gateway auto alias"}.items()))))
        return out

    def _moleculer_loaded_code(self, loaded: dict[tuple[str, str], dict[str, list[Evidence]]]) -> None:
        """What the code of a loaded service file connects to (its database adapter's address, the mail it sends)
        is the loading deployments' connection, not that of the component owning the shared tree: each loader
        makes it, and the owner keeps it only where it loads the file itself or other code of its own makes it."""
        for key, conn in sorted(self.model.connections.items()):
            source, target, protocol = key
            by_file: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
            for e in sorted(conn.evidence):
                by_file[(e.repository, e.path)].append(e)
            files = [f for f in by_file if f in loaded]
            if not files or any(self.owner_of(repo, path) != source for repo, path in files):
                continue
            for f in files:
                for runner, how in sorted(loaded[f].items()):
                    if runner != target:
                        self.connect(runner, target, protocol, [*by_file[f], *how], kind=conn.kind,
                                     attributes={k: v for k, v in conn.attributes.items() if k == "via"})
            if len(files) == len(by_file) and all(source not in loaded[f] for f in files):
                del self.model.connections[key]

    def _moleculer_runners(self, repo: str, path: str, loaded: dict[tuple[str, str], dict[str, list[Evidence]]]
                 ) -> dict[str, list[Evidence]]:
        """The running components that load a service file, with the lines saying so: the deployments whose
        environment names it, else the component owning the file (one process loading every service)."""
        if (repo, path) in loaded:
            return loaded[(repo, path)]
        owner = self.owner_of(repo, path)
        if owner is None or self.model.components[owner].kind not in ("service", "gateway"):
            return {}
        return {owner: []}

    def _moleculer_schemas(self) -> list[Fact]:
        """Each service file's schema, the versioned reading of it where there is one."""
        versions = {(f.repository, f.path, f.line, (f.get("name") or "").lower()): f.get("version") or ""
                    for f in self.by_kind["moleculer.version"]}
        best: dict[tuple[str, str, str], Fact] = {}
        for f in sorted(self.by_kind["moleculer.service"], key=Fact.order):
            version = versions.get((f.repository, f.path, f.line, (f.get("name") or "").lower()))
            if version and not f.get("version"):  # (the version written beside the name on this line)
                f = replace(f, attrs=tuple(sorted({**dict(f.attrs), "version": version}.items())))
            k = (f.repository, f.path, (f.get("name") or "").lower())
            if k not in best or (f.get("version") and not best[k].get("version")):
                best[k] = f
        return [f for f in best.values() if not _is_test(f.path)]

    def _moleculer_loaded(self, declared: list[Fact]) -> dict[tuple[str, str], dict[str, list[Evidence]]]:
        """(repository, service file) -> the deployments whose environment names the services they load
        (``SERVICES: accounts.service.js``, ``SERVICES: users``), with that line: they run those files, told apart
        from the other deployments of the shared image."""
        out: dict[tuple[str, str], dict[str, list[Evidence]]] = defaultdict(dict)
        for env in sorted(self.by_kind["config.env"], key=Fact.order):
            if (env.get("name") or "") != SERVICES_VARIABLE or not env.get("owner") or not env.get("value"):
                continue
            cid = self.alias.get((env.get("owner") or "").lower())
            comp = self.model.components.get(cid) if cid else None
            if comp is None or comp.kind not in ("service", "gateway"):
                continue
            for item in (i.strip() for i in (env.get("value") or "").split(",")):
                files = {(f.repository, f.path) for f in declared if f.repository == env.repository and _loads(item, f)}
                if len(files) > 1:
                    # (a repository of several systems, each with its `users` service: the one under the folder of
                    # the file deploying it, else under the deployment's own code)
                    here = posixpath.dirname(env.path)
                    files = {(r, p) for r, p in files if is_under(p, here)} or \
                        {(r, p) for r, p in files if any(r == cr and is_under(p, root) for cr, root in comp.source_roots)}
                if len(files) == 1:  # (none, or several files answering to one name: which one is loaded is not said)
                    out[next(iter(files))].setdefault(comp.id, []).append(env.evidence)
        return out

    def _moleculer_importers(self) -> dict[tuple[str, str], set[str]]:
        """(repository, file) -> the files importing it by a relative path (``require("../mixins/db.mixin")``)."""
        paths = {(r.repository.name, f.path) for r in self.results for f in r.inventory.files}
        out: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in self.by_kind["import"]:
            module = f.get("module") or ""
            if not module.startswith("."):
                continue
            base = posixpath.normpath(posixpath.join(posixpath.dirname(f.path), module))
            for ending in _JS_ENDINGS:
                if (f.repository, base + ending) in paths:
                    out[(f.repository, base + ending)].add(f.path)
                    break
        return out

    @staticmethod
    def _moleculer_action_service(call: Fact, by_name: dict[tuple[str, str], list[Fact]]) -> Fact | None:
        """The one service schema declaring the service an action name belongs to: the longest declared name the
        action starts with (`v1.card.attachments.create` is an action of `v1.card.attachments`); a gateway's
        route pattern (`v1.accounts.**`) and a REST alias onto a service (`"REST posts": "posts"`) name it whole."""
        action = _WILDCARD.sub("", (call.get("action") or "").strip()).lower()
        if not action or action.startswith("$"):
            return None  # the broker's own internal services ($node.*)
        whole = (call.get("via") is not None and "." not in action) or bool(_WILDCARD.search(call.get("action") or ""))
        candidates = [action] if whole else []
        parts = action.split(".")
        candidates += [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]
        for name in candidates:
            found = by_name.get((call.repository, name), [])
            if len(found) > 1:
                # (a repository of several systems each declaring `users`: the one nearest the calling file)
                def shared(f: Fact) -> int:
                    return len(posixpath.commonpath([posixpath.dirname(f.path), posixpath.dirname(call.path)]))
                best = max(shared(f) for f in found)
                found = [f for f in found if shared(f) == best]
            if len(found) == 1:
                return found[0]
            if found:
                return None
        return None

    @staticmethod
    def _moleculer_calling_files(call: Fact, service_files: set[tuple[str, str]],
                               importers: dict[tuple[str, str], set[str]]) -> list[str]:
        """The service files making a call: its own file when that declares a service, else (a mixin, a helper)
        the service files importing it, directly or through other helpers."""
        if (call.repository, call.path) in service_files:
            return [call.path]
        found: set[str] = set()
        seen = {call.path}
        todo = [call.path]
        while todo:
            path = todo.pop()
            for importer in sorted(importers.get((call.repository, path), ())):
                if importer in seen:
                    continue
                seen.add(importer)
                if (call.repository, importer) in service_files:
                    found.add(importer)
                else:
                    todo.append(importer)
        return sorted(found)


def _loads(item: str, f: Fact) -> bool:
    """Does a runner's list item (`accounts.service.js`, `accounts`, `v1.accounts`) name this schema's file?"""
    item = item.strip().strip("\"'").lower()
    if not item:
        return False
    base = posixpath.basename(f.path).lower()
    if "/" in item or _SERVICE_FILE.search(item):
        return f.path.lower().endswith(item.lstrip("./")) and base == posixpath.basename(item)
    stem = _SERVICE_FILE.sub("", base)
    return item in (stem, (f.get("name") or "").lower(), full_name(f).lower())


def _same_descriptors(a: list[Evidence], b: list[Evidence]) -> bool:
    """Do two deployments' lines come from one set of deployment files (a compose file's folder, a manifests
    folder)?  A system deployed both ways calls within each way."""
    return bool({posixpath.dirname(e.path) for e in a} & {posixpath.dirname(e.path) for e in b})


def _is_test(path: str) -> bool:
    return re.search(r"(^|/)(tests?|__tests__|spec)/|\.(spec|test)\.[cm]?[jt]s$", path) is not None
