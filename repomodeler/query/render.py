"""Answers as text for people: one line per component or connection, evidence and rules beneath.

Plain text, no colour (it is read in terminals, CI logs and pasted into tickets); the JSON form is
:func:`repomodeler.query.records.to_json`.  At most :data:`CITES` evidence locations are printed
per element (the count of the rest is shown); ``--format json`` carries them all.
"""

from __future__ import annotations

from repomodeler.query.records import (
    Answer,
    ChangesAnswer,
    ComponentsAnswer,
    Element,
    EvidenceAnswer,
    ImpactAnswer,
    Link,
    NeighboursAnswer,
    PathAnswer,
    RuleRef,
    UnresolvedAnswer,
    UsesAnswer,
)

CITES = 3


def _cites(evidence: tuple[str, ...]) -> str:
    shown = ", ".join(evidence[:CITES])
    more = len(evidence) - CITES
    return (shown + (f" (+{more} more)" if more > 0 else "")) or "(no evidence)"


def _element(e: Element) -> str:
    return f"{e.id} ({e.kind}{', part of ' + e.parent if e.parent else ''})"


def _link(link: Link, back: bool = False) -> str:
    arrow = f"{link.target} <- {link.source}" if back else f"{link.source} -> {link.target}"
    extra = []
    if link.endpoints:
        extra.append(", ".join(link.endpoints[:4]) + (" ..." if len(link.endpoints) > 4 else ""))
    if link.topics:
        extra.append("topics " + ", ".join(link.topics))
    if link.via:
        extra.append(f"via {link.via}")
    return f"{arrow} {link.kind} [{link.protocol}]" + (f" ({'; '.join(extra)})" if extra else "")


def _link_lines(link: Link, indent: str, back: bool = False) -> list[str]:
    lines = [f"{indent}{_link(link, back)}", f"{indent}    evidence: {_cites(link.evidence)}"]
    if link.rules:
        lines.append(f"{indent}    rules: {', '.join(link.rules)}")
    return lines


def _rules(rules: tuple[RuleRef, ...]) -> list[str]:
    if not rules:
        return []
    return ["rules named above:", *(f"  {r.id}: {r.message}" for r in rules)]


def _neighbours(a: NeighboursAnswer) -> list[str]:
    word = "depend on" if a.question == "callers" else "is depended on by"
    head = f"{a.question} of {_element(a.subject)} in {a.model}: {len(a.neighbours)}"
    lines = [head]
    if not a.neighbours:
        lines.append(f"  nothing {'depends on it' if a.question == 'callers' else 'it depends on'}"
                     f" (a component that {word} it would be listed here)")
    for n in a.neighbours:
        lines.append(f"  {_element(n.component)}")
        for link in n.links:
            lines += _link_lines(link, "    ")
    return lines


def _impact(a: ImpactAnswer) -> list[str]:
    lines = [f"impact of {_element(a.subject)} in {a.model}: {a.total} component(s) depend on it"
             + (f" (the nearest {len(a.impacted)} shown)" if a.truncated else "")]
    links = {link.id: link for link in a.links}
    for r in a.impacted:
        lines.append(f"  {_element(r.component)}, {r.distance} step(s) away")
        for link_id in r.path:
            lines += _link_lines(links[link_id], "    ")
    return lines


def _path(a: PathAnswer) -> list[str]:
    lines = [f"routes from {a.source.id} to {a.target.id} in {a.model}: {len(a.routes)}"]
    for i, route in enumerate(a.routes, 1):
        lines.append(f"  {i}. {' -> '.join(route.through)}")
        for link, back in zip(route.hops, route.reversed or (False,) * len(route.hops)):
            lines += _link_lines(link, "     ", back)
    if a.note:
        lines.append(f"  note: {a.note}")
    return lines


def _uses(a: UsesAnswer) -> list[str]:
    lines = [f"uses of {a.what} {a.subject} in {a.model}: {len(a.users)}"]
    for u in a.users:
        lines.append(f"  {u.role:<10} {_element(u.component)}")
        if u.link is not None:
            lines += _link_lines(u.link, "             ")
        else:
            lines.append(f"                 evidence: {_cites(u.evidence)}")
    return lines


def _evidence(a: EvidenceAnswer) -> list[str]:
    lines = [f"{a.type} {a.element} ({a.kind}) in {a.model}", "  evidence:"]
    lines += [f"    {e}" for e in a.evidence] or ["    (none)"]
    if a.attributes:
        lines.append("  attributes:")
        lines += [f"    {k}: {v}" for k, v in a.attributes.items()]
    return lines


def _unresolved(a: UnresolvedAnswer) -> list[str]:
    lines = [f"unresolved in {a.model}: {len(a.items)}"]
    lines += [f"  {i.component}: {i.value}  ({i.evidence})" for i in a.items]
    return lines


def _changes(a: ChangesAnswer) -> list[str]:
    lines = [f"{a.question}: A {a.a}", f"{' ' * len(a.question)}  B {a.b}"]
    if not a.changes:
        lines.append("  no differences")
    mark = {"added": "+", "removed": "-", "changed": "~"}
    for c in a.changes:
        ident = c.id.replace("->", " -> ") + (f"  =>  {c.new_id.replace('->', ' -> ')}" if c.new_id else "")
        lines.append(f"  {mark.get(c.status, '?')} {c.element} {ident}" + (f": {c.detail}" if c.detail else ""))
        if c.evidence:
            lines.append(f"      evidence: {_cites(c.evidence)}")
        elif c.where:
            lines.append(f"      declared at: {c.where}")
    lines += [f"  note: {n}" for n in a.notes]
    return lines


def render_text(answer: Answer) -> str:
    """The answer as lines of text, ending with the rules it names and their messages."""
    if isinstance(answer, ComponentsAnswer):
        lines = [f"components of {answer.model}: {answer.total}"
                 + (f" (the first {len(answer.components)} shown)" if answer.truncated else "")]
        lines += [f"  {_element(e)}  {_cites(e.evidence)}" for e in answer.components]
    elif isinstance(answer, NeighboursAnswer):
        lines = _neighbours(answer)
    elif isinstance(answer, ImpactAnswer):
        lines = _impact(answer)
    elif isinstance(answer, PathAnswer):
        lines = _path(answer)
    elif isinstance(answer, UsesAnswer):
        lines = _uses(answer)
    elif isinstance(answer, EvidenceAnswer):
        lines = _evidence(answer)
    elif isinstance(answer, UnresolvedAnswer):
        lines = _unresolved(answer)
    else:
        lines = _changes(answer)
    rules = getattr(answer, "rules", ())
    if isinstance(answer, EvidenceAnswer):
        lines += ["  rules:", *(f"    {r.id}: {r.message}" for r in rules)] if rules else ["  rules: none named"]
    else:
        lines += _rules(rules)
    return "\n".join(lines) + "\n"
