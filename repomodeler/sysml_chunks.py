"""Split one big SysML file into pieces the engine can check one at a time, in bounded memory.

The OpenSysML engine holds the whole model it loads, at ~200-300 bytes of memory per byte of text:
a 12 MB model of 10,000 services took 3 GB and, on a busy machine, more than the 300 s the audit
waits. A big model is almost all *members* of a few namespaces (the parts and connectors of the
system, the workloads of the deployment, the allocations between them), so the file is checked as
several *chunks*. Each chunk is the file itself with some of those members blanked out (replaced by
their line breaks, so every line and column the engine reports is the line and column of the
original file). What each chunk keeps, and why the chunks together check what the whole file would:

* everything that is not a member: packages, definitions, views, imports, docs, attributes,
  unnamed usages (they may redefine an inherited feature, which only the whole namespace can
  judge), and the namespaces themselves (a package, or a part usage or definition holding at least
  two parts, down to four levels);
* members (named part, item, occurrence and reference usages; connectors, flows, allocations,
  bindings, satisfy and verify statements, named or not) are split: each chunk holds some of them,
  each together with every member it names, transitively: a name token anywhere in a member's
  text (outside comments and strings) that spells another member's name or short name pulls that
  member in, so a connector is checked with the parts it joins, and an allocation with both ends;
* members that share a name are always in one chunk, so the engine still reports duplicate names
  and ambiguous references; a member named outside every member (other than by a view's
  ``expose``, which stays in the chunks holding what it exposes) is in every chunk.

Every member is in at least one chunk, so each is checked by the engine with all it refers to; the
diagnostics of all chunks are merged without repeats. What differs from one whole-file check:
"did you mean" hints are computed from one chunk's names, so they are dropped. A file with a syntax
error (as tree-sitter-sysml reads it), or with fewer than two members, is not split.

**Members checked once per shape** (``dedup``). A generated model repeats itself: 10,000 services
are 10,000 parts, connectors and allocations that differ only in their names, strings, comments
and evidence line numbers, and the engine spends ~9 ms of CPU on each. A member is checked together
with everything it names (its *group*); a group whose *shape* was already put in a chunk is left
out. The shape is the group's text, member by member with the namespace it is in, where comments,
string contents and integer attribute values (``line = N;``, ``files = N;``) are blanked and the
names the group itself declares are numbered in order of appearance. Such groups bind every name the same way, so the engine gives them
the same verdict. Kept as written, so they break the likeness when they differ: names that also
appear outside the members (in the rest of the file or in the files loaded beside it), names
declared outside the group, and names made of letters only (the standard library's features are
such names; a member declaring one may hide an inherited feature, which depends on the name).
The caller checks the whole chunked plan again when a shape-checked plan reports anything, so
every repeat of a problem is reported at its own line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from repomodeler.sysml_reader import unquote

# Members that are split across chunks; everything else (definitions, views, imports, docs,
# attributes...) is in every chunk. Usages are split when they have a name (an unnamed one may
# redefine an inherited feature, which only the whole namespace can judge); relationships always.
USAGE_TYPES = frozenset({"part_usage", "item_usage", "occurrence_usage", "individual_usage", "reference_usage"})
RELATIONSHIP_TYPES = frozenset({"interface_usage", "connection_usage", "connect_statement", "flow_usage",
                                "flow_statement", "message_statement", "succession_statement", "allocation_usage",
                                "allocate_statement", "bind_statement", "satisfy_statement", "verify_statement"})
CHUNKED_TYPES = USAGE_TYPES | RELATIONSHIP_TYPES
# Comments and strings (skipped), or a name: quoted or plain (the group findall returns).
_TOKENS = re.compile(rb"/\*.*?\*/|//[^\n]*|\"(?:[^\"\\]|\\.)*\"|('(?:[^'\\]|\\.)*'|[A-Za-z_][A-Za-z0-9_]*)", re.S)
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BODIES = ("usage_body", "structural_body", "package_body", "action_body", "definition_body")


@dataclass
class _Member:
    start: int
    end: int
    names: tuple[str, ...]
    refs: set[int] = field(default_factory=set)  # the members it names
    first_ref: int | None = None  # the first member it names, in its text


def _quoted(name: str) -> str:
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _child(node, *types: str):  # type: ignore[no-untyped-def]
    for c in node.named_children:
        if c.type in types:
            return c
    return None


def _declared_names(node, src: bytes) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """The name and short name a usage or definition declares (``<'a-b'> a_b``)."""
    decl = _child(node, "usage_declaration", "definition_declaration") or node
    ident = _child(decl, "identification")
    if ident is None:
        return ()
    names = []
    for c in ident.named_children:
        target = _child(c, "name") if c.type == "short_name" else c if c.type == "name" else None
        if target is not None:
            names.append(unquote(src[target.start_byte:target.end_byte].decode("utf-8")))
    return tuple(names)


_SCOPES = ("package_definition", "library_package", "part_usage", "part_definition")


def _members(root):  # type: ignore[no-untyped-def]
    """The members that may be split, each with the start of the namespace body it is in: parts and
    connectors directly in a package, or in the body of a part (usage or definition) that holds at
    least two parts. Such parts are namespaces, never split themselves; their bodies are searched
    again (down to four levels)."""
    found = []
    stack = [(root, 0)]
    while stack:
        body, depth = stack.pop()
        for c in body.named_children:
            inner = _child(c, *_BODIES) if c.type in _SCOPES else None
            holds = inner is not None and sum(1 for m in inner.named_children if m.type == "part_usage") >= 2
            if inner is not None and depth < 4 and (holds or c.type in ("package_definition", "library_package")):
                stack.append((inner, depth + 1))
            elif c.type in CHUNKED_TYPES and body is not root:
                found.append((c, body.start_byte))
    return sorted(found, key=lambda n: n[0].start_byte)


@dataclass
class ChunkPlan:
    """The chunks to check instead of a file, and how many groups were left out because a group of
    the same shape is in a chunk (0 without ``dedup``)."""

    texts: list[str]
    skipped: int = 0


def plan_chunks(text: str, chunk_bytes: int) -> list[str] | None:
    """The texts of the chunks to check instead of `text` (see the module docstring), or None when
    the file should be checked whole (it fits one chunk, has a syntax error, or too few members).
    Every member is in a chunk (no ``dedup``)."""
    plan = plan_check(text, chunk_bytes)
    return plan.texts if plan is not None else None


def plan_check(text: str, chunk_bytes: int, *, dedup: bool = False, context: tuple[str, ...] = ()) -> ChunkPlan | None:
    """The chunks to check instead of `text`, or None when it should be checked whole. With
    `dedup`, a member group whose shape is already in a chunk is left out (see the module
    docstring); `context` is the text of the files loaded beside it (their names are kept)."""
    src = text.encode("utf-8")
    if len(src) <= chunk_bytes:
        return None
    from repomodeler.sysml_reader import _parser

    parser = _parser()
    root = parser.parse(src).root_node
    if root.has_error:
        return None
    import tree_sitter

    exposes = sorted((n.start_byte, n.end_byte) for n in tree_sitter.QueryCursor(
        tree_sitter.Query(parser.language, "(expose_statement) @e")).captures(root).get("e", []))
    found = [(n, scope, _declared_names(n, src)) for n, scope in _members(root)]
    found = [f for f in found if f[0].type in RELATIONSHIP_TYPES or f[2]]  # unnamed usages stay in every chunk
    members = [_Member(n.start_byte, n.end_byte, names) for n, _scope, names in found]
    scopes = [scope for _n, scope, _names in found]
    dedup = dedup and b"\0" not in src  # a shape marks the renamed names with NUL
    declared_at = _declarations(parser, root, src) if dedup else []
    del root, found
    if len(members) < 2:
        return None
    by_name: dict[str, list[int]] = {}
    for i, m in enumerate(members):
        for n in m.names:
            by_name.setdefault(n, []).append(i)
    # A name is written plain (orders) or quoted ('orders', 'api.stripe.com'); tokens are matched raw.
    spelled: dict[bytes, list[int]] = {}
    for n, idx in by_name.items():
        for form in ({n, _quoted(n)} if _PLAIN.fullmatch(n) else {_quoted(n)}):
            spelled.setdefault(form.encode("utf-8"), []).extend(idx)
    spellings = set(spelled)

    def named(start: int, end: int) -> list[bytes]:
        """The member names written in src[start:end], in order (not in comments or strings)."""
        return [t for t in _TOKENS.findall(src, start, end) if t in spellings] if start < end else []

    # Inside a member a name is a reference of that member; inside an expose (of a view) it ties the
    # expose to the member; anywhere else that member is needed in every chunk.
    for i, m in enumerate(members):
        for t in named(m.start, m.end):
            others = [j for j in spelled[t] if j != i]
            if others and m.first_ref is None:
                m.first_ref = others[0]
            m.refs.update(others)
    tied: dict[int, set[int]] = {}  # expose index -> members it names
    always: set[int] = set()
    pos = 0
    for kind, k, start, end in sorted([(0, i, m.start, m.end) for i, m in enumerate(members)] +
                                      [(1, k, s, e) for k, (s, e) in enumerate(exposes)], key=lambda x: x[2]):
        if start < pos:
            continue  # an expose inside a member: read with the member
        for t in named(pos, start):
            always.update(spelled[t])
        if kind == 1:
            for t in named(start, end):
                tied.setdefault(k, set()).update(spelled[t])
        pos = end
    for t in named(pos, len(src)):
        always.update(spelled[t])

    # Units: members that share a name; a unit's closure is every unit its members name, transitively.
    unit_of = list(range(len(members)))

    def find(i: int) -> int:
        while unit_of[i] != i:
            unit_of[i] = unit_of[unit_of[i]]
            i = unit_of[i]
        return i

    for same in by_name.values():
        for j in same[1:]:
            unit_of[find(j)] = find(same[0])
    units: dict[int, list[int]] = {}
    for i in range(len(members)):
        units.setdefault(find(i), []).append(i)
    size = {u: sum(members[i].end - members[i].start for i in ms) for u, ms in units.items()}
    deps = {u: {find(r) for i in ms for r in members[i].refs} - {u} for u, ms in units.items()}
    always_units = {find(i) for i in always}
    for u in list(always_units):
        always_units |= _closure(u, deps)

    # Order: each unit, then the members after it that name it (a connector after its source part,
    # an allocation after its component rather than after the system every allocation names), so
    # a member mostly shares its chunk with what it refers to.
    named_by: dict[int, int] = {}
    for u, ds in deps.items():
        for v in ds:
            named_by[v] = named_by.get(v, 0) + 1
    anchored: dict[int, list[int]] = {}
    order: list[int] = []
    for u in sorted(units, key=lambda u: members[units[u][0]].start):
        start = members[units[u][0]].start
        earlier = [v for v in deps[u] if members[units[v][0]].start < start and v not in always_units]
        if earlier:
            first = find(members[units[u][0]].first_ref) if members[units[u][0]].first_ref is not None else None
            anchored.setdefault(min(earlier, key=lambda v: (named_by[v], v != first, members[units[v][0]].start)),
                                []).append(u)
        else:
            order.append(u)
    sequence: list[int] = []
    for u in order:
        sequence.append(u)
        sequence.extend(anchored.pop(u, ()))
    for rest in anchored.values():
        sequence.extend(rest)

    shape = _Shapes(src, members, scopes, declared_at, units, context) if dedup else None
    skipped = 0
    chunks: list[set[int]] = []
    current: set[int] = set()
    weight = 0
    covered: set[int] = set(always_units)
    for u in sequence:
        if u in covered:
            continue
        need = _closure(u, deps) - always_units
        if shape is not None and not shape.is_new(need):
            skipped += 1
            continue
        extra = sum(size[v] for v in need - current)
        if current and weight + extra > chunk_bytes:
            chunks.append(current)
            current, weight = set(), 0
            extra = sum(size[v] for v in need)
        current |= need
        weight += extra
        covered |= need
    if current or not chunks:
        chunks.append(current)
    if len(chunks) < 2 and not skipped:
        return None

    # What a chunk may leave out, in file order: members, and exposes naming members. A run of
    # left-out items with only white space between them is blanked as one range.
    items = sorted([(m.start, m.end, 0, i) for i, m in enumerate(members)] +
                   [(exposes[k][0], exposes[k][1], 1, k) for k in tied])
    joins = [k > 0 and not src[items[k - 1][1]:items[k][0]].strip() for k in range(len(items))]
    texts = []
    for chunk in chunks:
        keep = chunk | always_units
        kept = {i for u in keep for i in units[u]}
        cut: list[tuple[int, int]] = []
        for k, (start, end, kind, i) in enumerate(items):
            if (i in kept) if kind == 0 else tied[i] <= kept:
                continue
            if cut and joins[k] and cut[-1][1] == items[k - 1][1]:
                cut[-1] = (cut[-1][0], end)
            else:
                cut.append((start, end))
        texts.append(_blank(src, cut))
    return ChunkPlan(texts, skipped)


# A comment, a string, the integer value of an attribute (``line = 12;``, ``files = 3;``: all blanked in a
# shape, they never change how a name resolves or whether a value fits a Natural), or a name (group 4).
# Letters-only names are never renamed (see the module docstring), so they are not even matched.
_SHAPE_TOKENS = re.compile(rb"(/\*.*?\*/)|(\"(?:[^\"\\]|\\.)*\")|(= ?\d+ ?;)|//[^\n]*|"
                           rb"('(?:[^'\\]|\\.)*'|\b(?=[A-Za-z]*[0-9_])[A-Za-z_][A-Za-z0-9_]*)", re.S)
_LETTERS = re.compile(r"[A-Za-z]+")


def _declarations(parser, root, src: bytes) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    """(byte offset, name) of every name declared in the file (identifications and short names)."""
    import tree_sitter

    query = tree_sitter.Query(parser.language, "(identification (name) @n) (identification (short_name (name) @n))")
    nodes = tree_sitter.QueryCursor(query).captures(root).get("n", [])
    return sorted((n.start_byte, unquote(src[n.start_byte:n.end_byte].decode("utf-8"))) for n in nodes)


class _Shapes:
    """The shapes of the member groups already put in a chunk (see the module docstring)."""

    def __init__(self, src: bytes, members: list[_Member], scopes: list[int], declared_at: list[tuple[int, str]],
                 units: dict[int, list[int]], context: tuple[str, ...]) -> None:
        import bisect

        self.units = units
        self.scopes = scopes
        starts = [m.start for m in members]
        self.declares: list[set[str]] = [set() for _ in members]
        for at, name in declared_at:
            i = bisect.bisect_right(starts, at) - 1
            if i >= 0 and members[i].start <= at < members[i].end:
                self.declares[i].add(name)
        anywhere = set().union(*self.declares)
        # Names written outside the members, here or in the files loaded beside, are kept as written.
        raw: set[bytes] = set()
        pos = 0
        for m in members:
            raw.update(_TOKENS.findall(src, pos, m.start))
            pos = m.end
        raw.update(_TOKENS.findall(src, pos))
        for other in context:
            raw.update(_TOKENS.findall(other.encode("utf-8")))
        outside = {unquote(t.decode("utf-8")) for t in raw if t}
        renamable = {n for n in anywhere - outside if not _LETTERS.fullmatch(n)}
        # How each renamable name may be spelled: plain (when it can be) or quoted.
        spelled = {form.encode("utf-8"): n for n in renamable
                   for form in ((n, _quoted(n)) if _PLAIN.fullmatch(n) else (_quoted(n),))}
        # A member as its fixed text between renamable names, and those names (unquoted, quoted?).
        self.templates: list[tuple[tuple[bytes, ...], tuple[tuple[str, bool], ...]]] = []
        names: list[tuple[str, bool]] = []
        fixed_forms = {1: b"/**/", 2: b'""', 3: b"= 0;"}

        def shape_token(tok: re.Match[bytes]) -> bytes:
            group = tok.lastindex
            if group in fixed_forms:
                return fixed_forms[group]
            text = tok.group()
            name = spelled.get(text)
            if name is None:
                return text
            names.append((name, text[:1] == b"'"))
            return b"\0"

        for m in members:
            names = []
            shaped = _SHAPE_TOKENS.sub(shape_token, src[m.start:m.end])
            self.templates.append((tuple(shaped.split(b"\0")), tuple(names)))
        self.seen: set[tuple[object, ...]] = set()

    def is_new(self, group: set[int]) -> bool:
        """Record the shape of the members of these units; False if it was recorded before."""
        indices = sorted(i for u in group for i in self.units[u])
        declared = set().union(*(self.declares[i] for i in indices))
        number: dict[str, int] = {}
        key: list[object] = []
        for i in indices:
            fixed, names = self.templates[i]
            key += (self.scopes[i], fixed)
            for name, quoted in names:
                key += (number.setdefault(name, len(number)) if name in declared else name, quoted)
        shape = tuple(key)
        if shape in self.seen:
            return False
        self.seen.add(shape)
        return True


def _closure(unit: int, deps: dict[int, set[int]]) -> set[int]:
    seen = {unit}
    stack = [unit]
    while stack:
        for v in deps[stack.pop()]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def _blank(src: bytes, cut: list[tuple[int, int]]) -> str:
    """`src` with each (sorted, disjoint) range replaced by its line breaks and, on its last line,
    by spaces up to where it ended, so what follows keeps its line and column."""
    out: list[bytes] = []
    pos = 0
    for start, end in cut:
        out.append(src[pos:start])
        breaks = src.count(b"\n", start, end)
        line_start = src.rfind(b"\n", start, end) + 1 if breaks else start
        out.append(b"\n" * breaks + b" " * len(src[line_start:end].decode("utf-8")))
        pos = end
    out.append(src[pos:])
    return b"".join(out).decode("utf-8")
