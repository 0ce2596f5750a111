"""Evaluating Terraform and Bicep leaves across modules: which workloads, stores and gateways a
deployment declares, and what each of them references.

The readers (:mod:`repomodeler.extract.readers._iac`) leave every block as flat leaves.  Here the
modules are instantiated as Terraform and Bicep do: a root module (one no other module calls) once,
each local module call (``source = "./service"``, ``module x './app.bicep'``) once more with the
call's inputs as its variables, so a module called twice gives two of everything it declares.  A
leaf naming another block is expanded where it stands: ``environment = local.common_env`` brings that
list's leaves, ``value = var.name`` the caller's input, ``module.db.address`` the child's output.
Text comes out with ``{}`` where nothing can know the value (a generated id, a conditional); the
resources an expression mentions, directly or through variables, locals, outputs and value holders
(an SSM parameter or a secret whose value is built from a database's address), are kept beside it.

A pure function of the facts (no model), so every rule reading it sees the same thing.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from repomodeler.records import Evidence, Fact

_REF = re.compile(r"\$\{([^{}]*)\}")
_INDEX = re.compile(r"\[\d+\]")
# Steps of evaluation (variable -> module input -> output -> ...): a module library such as the Azure
# Developer CLI's ``core/`` nests an app's setting four modules deep, three steps each.
MAX_DEPTH = 64
MAX_INSTANCES = 2000  # module instances of one repository: a bound against call cycles and explosions
# Resources holding a value for others (a parameter store entry, a secret): a reference to one is a
# reference to what its value is built from.
VALUE_HOLDERS = re.compile(r"ssm_parameter|secretsmanager_secret|secret_manager_secret|key_vault_secret|"
                           r"Microsoft\.KeyVault/vaults/secrets|secret_version", re.I)


@dataclass(frozen=True)
class Leaf:
    key: str
    value: str
    refs: tuple[str, ...]
    evidence: Evidence


@dataclass
class Module:
    """The blocks of one Terraform folder or Bicep file."""

    repo: str
    name: str
    fmt: str
    blocks: dict[str, Fact] = field(default_factory=dict)
    leaves: dict[str, list[Leaf]] = field(default_factory=lambda: defaultdict(list))


@dataclass(frozen=True)
class Instance:
    """One instantiation of a module: ``calls`` is the chain of module-call addresses from its root."""

    repo: str
    module: str
    calls: tuple[tuple[str, str], ...] = ()  # ((caller module, call address), ...)

    @property
    def parent(self) -> "Instance | None":
        if not self.calls:
            return None
        return Instance(self.repo, self.calls[-1][0], self.calls[:-1])


ResourceRef = tuple[Instance, str]  # (instance, resource address or opaque module-call address)


@dataclass(frozen=True)
class Value:
    """A leaf evaluated in an instance: its text, the resources it mentions, and the lines it came through."""

    key: str
    text: str
    resources: frozenset[ResourceRef]
    evidence: tuple[Evidence, ...]


def local_source(source: str) -> bool:
    return source.startswith(("./", "../")) or source.endswith(".bicep")


def _module_path(module: Module, source: str) -> str:
    """The module a call's source names (Terraform: a folder relative to the caller's; Bicep: the
    reader already made it a path of the repository)."""
    if module.fmt == "bicep":
        return source
    parts: list[str] = [p for p in module.name.split("/") if p]
    for p in source.split("/"):
        if p in ("", "."):
            continue
        if p == "..":
            if parts:
                parts.pop()
        else:
            parts.append(p)
    return "/".join(parts)


class Deployment:
    """Every module of the repositories, their instances, and evaluation in an instance."""

    def __init__(self, blocks: list[Fact], values: list[Fact]) -> None:
        self.modules: dict[tuple[str, str], Module] = {}
        for f in sorted(blocks, key=Fact.order):
            key = (f.repository, f.get("module") or "")
            m = self.modules.setdefault(key, Module(f.repository, key[1], f.get("format") or "terraform"))
            m.blocks.setdefault(f.get("address") or "", f)
        given: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)  # the deployment's parameter values
        for f in sorted(values, key=Fact.order):
            if f.get("given"):
                given[(f.repository, f.get("module") or "", f.get("owner") or "")].append(f)
                continue
            m = self.modules.get((f.repository, f.get("module") or ""))
            if m is not None:
                m.leaves[f.get("owner") or ""].append(Leaf(f.get("key") or "", f.get("value") or "",
                                                           tuple((f.get("refs") or "").split()), f.evidence))
        # (a parameters file, main.parameters.json or main.bicepparam, gives the root template's parameters their
        # values in place of their defaults; of several such files, the values they agree on)
        for (repo, module, owner), fs in sorted(given.items()):
            m = self.modules.get((repo, module))
            texts = {f.get("value") or "" for f in fs}
            if m is not None and len(texts) == 1:
                m.leaves[owner] = [Leaf("", texts.pop(), (), fs[0].evidence)]
        self.instances = self._instantiate()
        self._memo: dict[tuple[Instance, str], list[Value]] = {}
        self._carried: dict[str, Value] = {}  # "@n" -> a dynamic block item's value (see _dynamic_blocks)

    # ------------------------------------------------------------------ instances
    def calls(self, module: Module) -> list[tuple[str, str]]:
        """(call address, module called) of a module's local module calls that the inputs hold."""
        memo = self.__dict__.setdefault("_calls", {})
        if (module.repo, module.name) in memo:
            return memo[(module.repo, module.name)]
        out = []
        for address, f in sorted(module.blocks.items()):
            source = f.get("type") or ""
            if f.get("block") == "module" and local_source(source):
                target = _module_path(module, source)
                if (module.repo, target) in self.modules and target != module.name:
                    out.append((address, target))
        memo[(module.repo, module.name)] = out
        return out

    def _instantiate(self) -> list[Instance]:
        called = {(m.repo, target) for m in self.modules.values() for _a, target in self.calls(m)}
        out: list[Instance] = []
        todo = [Instance(repo, name) for (repo, name) in sorted(self.modules) if (repo, name) not in called]
        while todo and len(out) < MAX_INSTANCES:
            inst = todo.pop(0)
            out.append(inst)
            module = self.modules[(inst.repo, inst.module)]
            for address, target in self.calls(module):
                if any(c[0] == target for c in inst.calls) or target == inst.module:
                    continue  # a module calling itself, directly or not
                todo.append(Instance(inst.repo, target, (*inst.calls, (inst.module, address))))
        return out

    def module_of(self, inst: Instance) -> Module:
        return self.modules[(inst.repo, inst.module)]

    def call_fact(self, inst: Instance) -> Fact | None:
        """The module-call block that made `inst` (None for a root)."""
        if not inst.calls:
            return None
        caller, address = inst.calls[-1]
        return self.modules[(inst.repo, caller)].blocks.get(address)

    def child(self, inst: Instance, address: str) -> Instance | None:
        targets = self.__dict__.setdefault("_targets", {})
        key = (inst.repo, inst.module)
        if key not in targets:
            targets[key] = dict(self.calls(self.module_of(inst)))
        target = targets[key].get(address)
        return Instance(inst.repo, target, (*inst.calls, (inst.module, address))) if target else None

    def resources(self, inst: Instance) -> list[Fact]:
        """The resources of an instance's module, and its calls of modules the inputs do not hold
        (a registry module: an opaque resource whose inputs are its attributes)."""
        module = self.module_of(inst)
        local = dict(self.calls(module))
        return [f for a, f in sorted(module.blocks.items())
                if f.get("block") == "resource" or (f.get("block") == "module" and a not in local)]

    # ------------------------------------------------------------------ evaluation
    def owner_values(self, inst: Instance, owner: str, prefix: str = "", depth: int = 0) -> list[Value]:
        """The leaves of a block (or the part of it under `prefix`) evaluated in `inst`."""
        memo_key = (inst, f"{owner}|{prefix}")
        if memo_key in self._memo:
            return self._memo[memo_key]
        self._memo[memo_key] = []  # a cycle evaluates to nothing
        out: list[Value] = []
        leaves = self.module_of(inst).leaves.get(owner, [])
        if any("[*]" in leaf.key for leaf in leaves):
            leaves = self._dynamic_blocks(inst, leaves, depth)
        for leaf in leaves:
            rel = _under(leaf.key, prefix)
            if rel is None:
                if prefix and _under(prefix, leaf.key) is not None and _bare(leaf.value):
                    # the block hands a whole value on (`service_config = var.x`), asked for a part of it
                    rest = _under(prefix, leaf.key) or ""
                    address = _bare(leaf.value) or ""
                    for v in self.address_values(inst, f"{address}.{rest}" if rest else address, depth + 1):
                        out.append(Value(v.key, v.text, v.resources, (leaf.evidence, *v.evidence)))
                continue
            out.extend(self.leaf_values(inst, leaf, rel, depth))
        self._memo[memo_key] = out
        return out

    def _dynamic_blocks(self, inst: Instance, leaves: list[Leaf], depth: int) -> list[Leaf]:
        """The leaves of a block with its ``dynamic`` blocks made, one per item of their ``for_each``
        (``env[*]#``), the content's ``${iter.value.x}``/``${iter.key}`` filled from the item."""
        plain = [leaf for leaf in leaves if "[*]" not in leaf.key]
        bases = sorted({leaf.key[:leaf.key.index("[*]") + 3] for leaf in leaves if "[*]" in leaf.key})
        for base in bases:
            items: dict[str, dict[str, Value]] = {}
            order: list[str] = []
            for position, leaf in enumerate(leaves):
                if leaf.key.startswith(base + "#"):
                    for v in self.leaf_values(inst, leaf, leaf.key[len(base) + 1:], depth + 1):
                        m = re.match(r"^(\[\d+\]|\.?[^.\[]+)\.?(.*)$", v.key)
                        if not m:
                            continue
                        # concat(a, b) puts both at the same key: items of different leaves stay apart
                        item = f"{position}:{m.group(1).lstrip('.')}" if leaf.key == base + "#" else m.group(1).lstrip(".")
                        if item not in items:
                            items[item] = {}
                            order.append(item)
                        items[item][m.group(2)] = v
            content = [leaf for leaf in leaves if leaf.key.startswith(base + ".")]
            for n, item in enumerate(order[:200]):
                fields = items[item]
                key_text = item.split(":", 1)[-1].strip("[]")
                for leaf in content:
                    def fill(m: re.Match[str]) -> str:
                        path = m.group(1)
                        if path == "iter.key":
                            return key_text
                        if path == "iter.value" and "" in fields:
                            return fields[""].text
                        if path.startswith("iter.value.") and path[len("iter.value."):] in fields:
                            return fields[path[len("iter.value."):]].text
                        return m.group(0) if not path.startswith("iter.") else "${?}"

                    value = _REF.sub(fill, leaf.value)
                    used = [f for f in fields.values() if f.resources and any(
                        r == "iter.key" or r == "iter.value" or r.startswith("iter.value.") for r in leaf.refs)]
                    refs = tuple(r for r in leaf.refs if not r.startswith("iter"))
                    key_ = f"{base[:-3]}[{1000 + n}]{leaf.key[len(base):]}"
                    extra = tuple(sorted({f"@{id(f)}" for f in used}))
                    made = Leaf(key_, value, refs + extra, leaf.evidence)
                    plain.append(made)
                    for f in used:
                        self._carried[f"@{id(f)}"] = f
        return plain

    def leaf_values(self, inst: Instance, leaf: Leaf, rel: str, depth: int) -> list[Value]:
        bare = _bare(leaf.value)
        if bare is not None and depth < MAX_DEPTH:
            expanded = self.address_values(inst, bare, depth + 1)
            if expanded:
                return [Value(_join(rel, v.key), v.text, v.resources, (leaf.evidence, *v.evidence)) for v in expanded]
        resources: set[ResourceRef] = set()
        evidence = [leaf.evidence]
        if bare is None:
            # an address built around a resource's name (``'https://${name}.search.windows.net/'`` where
            # the module's search service is named ``name``) reaches that resource
            named = self._named_by(inst)
            resources |= {(inst, named[r]) for r in leaf.refs if r in named}
        for ref in leaf.refs:
            if ref.startswith("@"):  # an item of a dynamic block's for_each: what it references
                carried = self._carried[ref]
                resources |= carried.resources
                evidence.extend(carried.evidence)
                continue
            resources |= self.resources_of(inst, ref, depth + 1)

        def scalar(m: re.Match[str]) -> str:
            address = m.group(1)
            if address == "?":
                return "{}"
            found = self.address_values(inst, address, depth + 1) if depth < MAX_DEPTH else []
            if len(found) == 1 and not found[0].key:
                return found[0].text
            return "{}"

        text = _REF.sub(scalar, leaf.value)
        return [Value(rel, text, frozenset(resources), tuple(dict.fromkeys(evidence)))]

    def _named_by(self, inst: Instance) -> dict[str, str]:
        """Variable or local address -> the one resource of the instance's module named exactly by it."""
        memo = self.__dict__.setdefault("_named", {})
        key = (inst.repo, inst.module)
        if key not in memo:
            module = self.module_of(inst)
            found: dict[str, set[str]] = defaultdict(set)
            for address, f in module.blocks.items():
                if f.get("block") != "resource":
                    continue
                for leaf in module.leaves.get(address, []):
                    bare = _bare(leaf.value) if leaf.key == "name" else None
                    if bare and bare.startswith(("var.", "local.")) and bare.count(".") == 1:
                        found[bare].add(address)
            memo[key] = {a: next(iter(rs)) for a, rs in sorted(found.items()) if len(rs) == 1}
        return memo[key]

    def address_values(self, inst: Instance, address: str, depth: int) -> list[Value]:
        """What an address stands for in `inst`: a variable's input or default, a local, a child
        module's output (a resource reference gives no leaves: see :meth:`resources_of`)."""
        if depth > MAX_DEPTH:
            return []
        parts = address.split(".")
        if parts[0] == "var" and len(parts) >= 2:
            rest = ".".join(parts[2:])
            parent = inst.parent
            call = self.call_fact(inst)
            if parent is not None and call is not None:
                given = self.owner_values(parent, call.get("address") or "", _join(parts[1], rest), depth + 1)
                if given or self._gives(parent, call.get("address") or "", parts[1]):
                    return given
            return self.owner_values(inst, f"var.{parts[1]}", rest, depth + 1)
        if parts[0] == "local" and len(parts) >= 2:
            return self.owner_values(inst, f"local.{parts[1]}", ".".join(parts[2:]), depth + 1)
        if parts[0] == "module" and len(parts) >= 3:
            child = self.child(inst, f"module.{parts[1]}")
            if child is not None:
                return self.owner_values(child, f"output.{parts[2]}", ".".join(parts[3:]), depth + 1)
        return []

    def _gives(self, inst: Instance, call: str, name: str) -> bool:
        return any(_under(leaf.key, name) is not None for leaf in self.module_of(inst).leaves.get(call, []))

    def resource_address(self, inst: Instance, address: str) -> str | None:
        """The resource (or opaque module call) an address starts with, if the module declares it."""
        module = self.module_of(inst)
        parts = address.split(".")
        for n in (3, 2):
            head = ".".join(parts[:n])
            f = module.blocks.get(head)
            if f is not None and (f.get("block") in ("resource", "data") or (
                    f.get("block") == "module" and self.child(inst, head) is None)):
                return head
        return None

    def resources_of(self, inst: Instance, address: str, depth: int) -> set[ResourceRef]:
        """The resources an address reaches: itself, or through variables, locals, outputs and value
        holders (a parameter or secret built from a database's address reaches the database)."""
        if depth > MAX_DEPTH:
            return set()
        head = self.resource_address(inst, address)
        if head is not None:
            f = self.module_of(inst).blocks[head]
            if VALUE_HOLDERS.search(f.get("type") or ""):
                held: set[ResourceRef] = set()
                for v in self.owner_values(inst, head, "", depth + 1):
                    held |= v.resources
                return held or {(inst, head)}
            return {(inst, head)}
        out: set[ResourceRef] = set()
        for v in self.address_values(inst, address, depth + 1):
            out |= v.resources
        return out


def _bare(value: str) -> str | None:
    """The address a value is exactly (``${var.env}``), or None."""
    m = _REF.fullmatch(value)
    return m.group(1) if m and m.group(1) != "?" else None


def _under(key: str, prefix: str) -> str | None:
    """`key` relative to `prefix` (``env[0].name`` under ``env`` is ``[0].name``), None when outside."""
    if not prefix:
        return key
    if key == prefix:
        return ""
    if key.startswith(prefix) and key[len(prefix)] in ".[":
        return key[len(prefix):].lstrip(".")
    return None


def _join(prefix: str, key: str) -> str:
    if not prefix:
        return key
    if not key:
        return prefix
    return prefix + key if key.startswith("[") else f"{prefix}.{key}"


def plain_key(key: str) -> str:
    """A key without list indices: ``template[0].containers[1].image`` -> ``template.containers.image``."""
    return _INDEX.sub("", key)


def clean_name(text: str) -> str:
    """A name with what no one can know removed: ``quickwit-{}-indexer-{}`` -> ``quickwit-indexer``."""
    parts = [p for p in re.split(r"[-_/.:\s]*\{\}[-_/.:\s]*", text)]
    name = "-".join(p.strip("-_/.: ") for p in parts if p.strip("-_/.: "))
    return PurePosixPath(name).name if "/" in name else name
