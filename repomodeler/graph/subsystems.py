"""Subsystems inside each component, from the language's own module structure.

Every code file a component owns (tests, examples, fixtures and generated code are not) belongs to
exactly one subsystem: a package folder (:mod:`repomodeler.graph.packages`) chosen at the level
that shows the component as roughly 5 to 40 parts:

1. start from the component's common folder, skipping wrapper folders that hold nothing but one
   folder (``src/main/java/com/acme``);
2. open the largest part into its folders, as long as that keeps 40 parts or fewer (always while
   there are fewer than 5, or while it holds more than a quarter of the code): a component shows
   its packages unless they are too many;
3. in a component of more than 12 parts, fold single-file leaves into their parent folder; fold
   the smallest parts into the part above them while there are more than 40.

A subsystem is named by its path and described by its package documentation (Go package comment,
Python package docstring, ``package-info.java``, Rust ``//!``).  Subsystems are linked by the
imports between them (with the number of import statements and their lines); the subsystem that
declares routes is recorded with its endpoints; a connection the component makes is repeated from
the subsystem whose code makes it (and the component-level edge names those subsystems).

A library package with a single dependant in its repository (a workspace package nothing deploys)
becomes a subsystem of that dependant instead of a component of its own.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from repomodeler.graph.base import ResolverBase, merged_link
from repomodeler.graph.naming import is_under
from repomodeler.graph.packages import PackageIndex, folder, language_of
from repomodeler.records import Component, Connection, Evidence, Fact, Port

MIN_PARTS = 5
MAX_PARTS = 40
CROWDED = 12  # above this many parts, single-file leaves join their parent folder
BIG = 1 / 4  # a part holding more than this share of the code is opened even past MAX_PARTS
MAX_EVIDENCE = 8  # lines kept on an import link (the count says how many there are)
CODE_KINDS = ("service", "gateway", "library")


def choose_parts(sizes: dict[str, int], lo: int = MIN_PARTS, hi: int = MAX_PARTS) -> dict[str, str]:
    """Map each folder (with its number of files) to the folder of the part it belongs to."""
    if not sizes:
        return {}
    children: dict[str, set[str]] = defaultdict(set)
    total: Counter[str] = Counter()
    root = _common(list(sizes))
    for d, n in sizes.items():
        cur = d
        total[cur] += n
        while cur != root:
            parent = folder(cur) if cur else ""
            if not is_under(parent, root):
                parent = root
            children[parent].add(cur)
            total[parent] += n
            cur = parent

    def normal(h: str) -> str:
        while not sizes.get(h) and len(children.get(h, ())) == 1:
            h = next(iter(children[h]))
        return h

    n_files = sum(sizes.values())
    heads = {normal(root)}
    opened: set[str] = set()  # parts opened into their folders: they keep only their own files
    # Open the largest part into its folders while the result stays within `hi` parts; a part that
    # holds a large share of the code is opened anyway (and the smallest parts folded back below).
    while True:
        openable = [h for h in heads if h not in opened and children.get(h)]
        if not openable:
            break
        h = max(openable, key=lambda x: (total[x], x))
        grown = (heads - {h}) | {normal(c) for c in children[h]} | ({h} if sizes.get(h) else set())
        if len(grown) > hi and len(heads) >= lo and total[h] <= BIG * n_files:
            break
        heads = grown
        opened.add(h)

    def fold(h: str) -> str | None:
        """The nearest part above `h` (None when there is none)."""
        cur = h
        while cur and cur != root:
            cur = folder(cur)
            if cur in heads:
                return cur
        return None

    # In a crowded component, single-file leaves join their parent folder's part, or, two or more of
    # them, make their parent folder a part.
    loose: dict[str, list[str]] = defaultdict(list)
    for h in sorted(heads, key=lambda x: (total[x], x)):
        if len(heads) <= CROWDED:
            break
        if total[h] <= 1 and h != root and not any(x != h and is_under(x, h) for x in heads):
            if folder(h) in heads:
                heads.discard(h)
            elif is_under(folder(h), root):
                loose[folder(h)].append(h)
    for parent, leaves in sorted(loose.items()):
        if len(leaves) >= 2 and len(heads) - len(leaves) + 1 >= CROWDED:
            heads.difference_update(leaves)
            heads.add(parent)
    # Still too many parts: the smallest join the part above them, or their parent folder.
    while len(heads) > hi:
        own = _sizes(heads, sizes)
        h = min((x for x in heads if x != root), key=lambda x: (own.get(x, 0), -x.count("/"), x), default=None)
        if h is None:
            break
        heads.discard(h)
        if fold(h) is None:
            heads.add(folder(h) if is_under(folder(h), root) else root)
    return {d: _nearest(d, heads, root) for d in sizes}


def _nearest(d: str, heads: set[str], default: str) -> str:
    """The deepest head `d` is under (itself included): its folders walked upwards, not every head tried."""
    cur = d
    while True:
        if cur in heads:
            return cur
        if not cur:
            return default
        cur = folder(cur)


def _sizes(heads: set[str], sizes: dict[str, int]) -> dict[str, int]:
    """Files of each head's own folders (those not under a deeper head), in one pass over the folders."""
    own: Counter[str] = Counter()
    for d, n in sizes.items():
        h = _nearest(d, heads, "\0")
        if h != "\0":
            own[h] += n
    return own


def _common(dirs: list[str]) -> str:
    parts = [d.split("/") if d else [] for d in dirs]
    if not parts:
        return ""
    # The common prefix of the lexicographically least and greatest lists is that of them all.
    lo, hi = min(parts), max(parts)
    common: list[str] = []
    for a, b in zip(lo, hi):
        if a != b:
            break
        common.append(a)
    return "/".join(common)


# Banners of generated code (protoc, mockgen, stringer...): what made the file, not what the package does.
GENERATED_DOC = re.compile(r"(?i)\bcode generated\b|\bgenerated (by|gomock|mock)|\bDO NOT EDIT\b|is a generated\b"
                           r"|\bautogenerated\b|\bauto-generated\b")


def purpose(doc: str, more: str = "") -> str:
    """The first sentence of a package comment or docstring, without comment markers."""
    lines = []
    for raw in (doc + "\n" + more).splitlines():
        line = re.sub(r"^\s*(/\*\*?|\*/|\*|//[/!]?|#)\s?", "", raw).rstrip()
        line = re.sub(r"\*/\s*$", "", line).strip()
        if not line:
            if lines:
                break
            continue
        if line.startswith("@"):  # javadoc tags
            break
        lines.append(line)
    text = " ".join(lines)
    m = re.match(r"^(.+?[.!?])(\s|$)", text)
    sentence = (m.group(1) if m else text).strip()
    return sentence if len(sentence) <= 200 else sentence[:197].rstrip() + "..."


class SubsystemRules(ResolverBase):
    """Subsystem nodes (kind ``subsystem``, ``parent`` their component) and their links."""

    packages: PackageIndex
    package_owner: dict[tuple[str, str], str]

    def subsystems(self) -> None:
        if getattr(self, "packages", None) is None:  # the package index process.programs builds (off: no parts)
            return
        owner: dict[tuple[str, str], str] = {}
        for (repo, d), paths in sorted(self.packages.packages.items()):
            o = self.package_owner.get((repo, d)) or self.owner_of(repo, paths[0])
            if o is not None and o in self.model.components and self.model.components[o].kind in CODE_KINDS:
                owner[(repo, d)] = o
        forced = self._fold_single_use_libraries(owner)
        docs: dict[tuple[str, str], Fact] = {}
        for f in sorted(self.by_kind["package.doc"]):
            docs.setdefault((f.repository, folder(f.path)), f)
        lines = {(r.repository.name, p): n for r in self.results for p, n in r.line_counts.items()}
        by_comp: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
        for (repo, d), o in owner.items():
            by_comp[(o, repo)][d] = len(self.packages.packages[(repo, d)])
        part_of: dict[tuple[str, str], str] = {}  # (repo, package folder) -> subsystem id
        for (cid, repo), sizes in sorted(by_comp.items()):
            heads = choose_parts(sizes)
            for d, h in sorted(forced.get((cid, repo), {}).items()):
                for x in sizes:
                    if is_under(x, d):
                        heads[x] = d
            members: dict[str, list[str]] = defaultdict(list)
            for d, h in heads.items():
                members[h].append(d)
            if len(members) == 1 and self._part_name(self.model.components[cid], repo, next(iter(members))) == ".":
                continue  # all its code is one package at its root: nothing inside to show
            for h, ds in sorted(members.items()):
                sid = self._subsystem(cid, repo, h, sorted(ds), docs, lines)
                for d in ds:
                    part_of[(repo, d)] = sid
        self._route_owners(part_of)
        self._import_links(part_of)
        self._nested_connections(part_of)

    # ------------------------------------------------------------------ nodes
    def _subsystem(self, cid: str, repo: str, head: str, dirs: list[str], docs: dict[tuple[str, str], Fact],
                   lines: dict[tuple[str, str], int]) -> str:
        comp = self.model.components[cid]
        name = self._part_name(comp, repo, head)
        if name == ".":
            name = self._root_part_name(comp, repo, head, dirs)
        sid = f"{cid}/{name}"
        paths = sorted(p for d in dirs for p in self.packages.packages[(repo, d)])
        # Its purpose comes from its own package's comment only: a sub-package's comment describes the
        # sub-package, and a generated file's banner describes the generator.
        doc = docs.get((repo, head))
        if doc is not None and GENERATED_DOC.search(doc.get("doc") or ""):
            doc = None
        if doc is not None:
            evidence = doc.evidence
        else:
            own = [p for p in paths if folder(p) == head] or paths
            first = next((p for p in own if lines.get((repo, p), 1) >= 1), own[0])
            evidence = Evidence(repo, first, 1)
        sub = Component(id=sid, name=name, kind="subsystem", repository=repo, language=language_of(self.packages, repo, paths))
        sub.parent = cid
        sub.evidence.add(evidence)
        sub.attributes["path"] = head or "."
        sub.attributes["files"] = str(len(paths))
        if doc is not None:
            text = purpose(doc.get("doc") or "", doc.get("more") or "")
            if text:
                sub.attributes["purpose"] = text
        sub.attributes["resolved_by"] = "subsystems"
        self.model.parts[sid] = sub
        return sid

    @staticmethod
    def _root_part_name(comp: Component, repo: str, head: str, dirs: list[str]) -> str:
        """The part at a component's root, beside other parts: named after the folders it gathers (the
        root's own files count under the component's name), never ``.``: ``auth+format``."""
        names = sorted({d[len(head):].strip("/").split("/")[0] if d != head else "" for d in dirs})
        shown = [n or comp.name for n in names]
        if "" in names:
            shown = [comp.name] + [n for n in shown if n != comp.name]
        label = "+".join(shown[:3]) + (f"+{len(shown) - 3} more" if len(shown) > 3 else "")
        return label or comp.name

    @staticmethod
    def _part_name(comp: Component, repo: str, head: str) -> str:
        """A part's path below its component's folder; Java and Kotlin packages by their package name
        (``src/main/java/com/acme/web`` -> ``com.acme.web``)."""
        roots = sorted((root for r, root in comp.source_roots if r == repo and is_under(head, root)), key=len)
        rel = head[len(roots[-1]):].strip("/") if roots and roots[-1] else head
        m = re.match(r"^(?:.*/)?src/(?:main|test)/(?:java|kotlin)/(.+)$", f"/{rel}") or \
            re.match(r"^(?:.*/)?src/(?:java|kotlin)/(.+)$", f"/{rel}")
        if m:
            return m.group(1).replace("/", ".")
        return rel or "."

    def _fold_single_use_libraries(self, owner: dict[tuple[str, str], str]) -> dict[tuple[str, str], dict[str, str]]:
        """Library packages with one dependant in their repository become a part of it.

        Folding is repeated until nothing changes, with the dependants counted afresh each time: a
        library used only by a library that was itself folded into an application (db <- api <- web)
        then belongs to that application, whatever order their names sort in."""
        forced: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
        folded: dict[tuple[str, str, str], tuple[Component, Connection]] = getattr(self, "_folded_libraries", {})
        self._folded_libraries = folded
        while True:
            dependants: dict[str, set[str]] = defaultdict(set)
            for (src, tgt, proto) in self.model.connections:
                if proto == "library" and self.model.components[tgt].kind == "library":
                    dependants[tgt].add(src)
            for lib, users in sorted(dependants.items()):
                if self._fold_library(lib, users, owner, forced, folded):
                    break
            else:
                return forced

    def _fold_library(self, lib: str, users: set[str], owner: dict[tuple[str, str], str],
                      forced: dict[tuple[str, str], dict[str, str]],
                      folded: dict[tuple[str, str, str], tuple[Component, Connection]]) -> bool:
        """Make `lib` a part of its single dependant; False when it stays a component."""
        comp = self.model.components[lib]
        if len(users) != 1 or any(k[1] == lib and k[2] != "library" for k in self.model.connections):
            return False
        user = next(iter(users))
        ucomp = self.model.components[user]
        if ucomp.kind not in CODE_KINDS or ucomp.repository != comp.repository or comp.repository is None:
            return False
        roots = sorted(root for r, root in comp.source_roots if r == comp.repository)
        if len(roots) != 1:
            return False
        dirs = [k for k, o in owner.items() if o == lib]
        if not dirs:
            return False
        for k in dirs:
            owner[k] = user
        forced[(user, comp.repository)][roots[0]] = roots[0]
        for key in sorted(k for k in forced if k[0] == lib):  # what was folded into lib before
            forced[(user, key[1])].update(forced.pop(key))
        for key in sorted(k for k in folded if k[0] == lib):
            folded[(user, key[1], key[2])] = folded.pop(key)
        for pname, port in sorted(comp.ports.items()):  # the routes a library declares, its user serves
            mine = ucomp.ports.setdefault(pname, Port(name=port.name, protocol=port.protocol, direction=port.direction))
            known = {(e.method, e.path) for e in mine.endpoints}
            mine.endpoints.extend(e for e in port.endpoints if (e.method, e.path) not in known)
            mine.evidence.extend(e for e in port.evidence if e not in mine.evidence)
        edge = self.model.connections.pop((user, lib, "library"))
        self.created_by.pop((user, lib, "library"), None)
        for k in sorted(k for k in self.model.connections if k[0] == lib):
            conn = self.model.connections.pop(k)
            made = self.created_by.pop(k, "")
            nk = (user, k[1], k[2])
            if nk not in self.model.connections:
                self.created_by[nk] = made
            self.credit(merged_link(self.model.connections, nk, conn).rules)
        del self.model.components[lib]
        self.created_by.pop(lib, None)
        self.move_part_links(lib, user)
        for a in comp.aliases:
            if self.alias.get(a) == lib:
                self.alias[a] = user
        folded[(user, comp.repository, roots[0])] = (comp, edge)
        return True

    # ------------------------------------------------------------------ what subsystems declare and make
    def _route_owners(self, part_of: dict[tuple[str, str], str]) -> None:
        folded = getattr(self, "_folded_libraries", {})
        for (user, repo, root), (lib, edge) in folded.items():
            sid = part_of.get((repo, root)) or next((s for (r, d), s in sorted(part_of.items())
                                                    if r == repo and is_under(d, root)), None)
            if sid is not None:  # the package's manifest and the dependant's dependency line
                sub = self.model.parts[sid]
                sub.attributes["package"] = lib.attributes.get("package", lib.name)
                sub.evidence.update(lib.evidence)
                sub.evidence.update(edge.evidence)
        declared: dict[str, set[str]] = defaultdict(set)
        for comp in list(self.model.components.values()):
            for port in comp.ports.values():
                for ep in port.endpoints:
                    for e in ep.evidence[:1]:
                        d = self.packages.package_of(e.repository, e.path)
                        sid = part_of.get((e.repository, d)) if d is not None else None
                        if sid is not None and self.model.parts[sid].parent == comp.id:
                            declared[sid].add(f"{ep.method} {ep.path}")
        for sid, eps in declared.items():
            self.model.parts[sid].attributes["endpoints"] = ", ".join(sorted(eps))

    def _import_links(self, part_of: dict[tuple[str, str], str]) -> None:
        links: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for (repo, path), targets in sorted(self.packages.file_imports.items()):
            src = part_of.get((repo, folder(path)))
            if src is None:
                continue
            parent = self.model.parts[src].parent
            for target, ev in targets:
                dst = part_of.get((repo, target))
                if dst is None or dst == src or self.model.parts[dst].parent != parent:
                    continue
                links[(src, dst)].append(ev)
        for (src, dst), evs in sorted(links.items()):
            evs = sorted(set(evs))
            key = (src, dst, "import")
            conn = Connection(source=src, target=dst, kind="depends_on", protocol="import")
            conn.evidence.update(evs[:MAX_EVIDENCE])
            conn.attributes["imports"] = str(len(evs))
            conn.attributes["via"] = "imports"
            conn.attributes["resolved_by"] = "subsystems"
            self.model.part_links[key] = conn

    def _nested_connections(self, part_of: dict[tuple[str, str], str]) -> None:
        for k in sorted(self.model.connections):
            conn = self.model.connections[k]
            by_sub: dict[str, set[Evidence]] = defaultdict(set)
            for e in conn.evidence:
                d = self.packages.package_of(e.repository, e.path)
                sid = part_of.get((e.repository, d)) if d is not None else None
                if sid is not None and self.model.parts[sid].parent == conn.source:
                    by_sub[sid].add(e)
            if not by_sub:
                continue
            conn.attributes["subsystems"] = ", ".join(sorted(self.model.parts[s].name for s in by_sub))
            for sid, evs in sorted(by_sub.items()):
                nk = (sid, conn.target, conn.protocol)
                nested = Connection(source=sid, target=conn.target, kind=conn.kind, protocol=conn.protocol)
                nested.evidence.update(evs)
                for a, v in conn.attributes.items():
                    if a != "subsystems":
                        nested.attributes[a] = v
                nested.attributes["resolved_by"] = "subsystems"
                self.model.part_links[nk] = nested
