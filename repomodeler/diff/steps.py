"""Migration steps from a current architecture to a target: an ordered, concrete Markdown plan.

The order is what keeps every intermediate state working: first introduce what is new
(components, then their APIs), then add connections, then change what exists (protocols,
technologies), and only then take things away (connections, then APIs, then components), so
nothing is removed while something still depends on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from repomodeler.diff.core import Diff

PHASES = ("introduce", "expose", "connect", "change", "disconnect", "withdraw", "retire")
PROTOCOL_NAMES = {"http": "HTTP", "grpc": "gRPC", "sql": "SQL", "mongodb": "MongoDB", "redis": "Redis", "amqp": "AMQP",
                  "kafka": "Kafka", "nats": "NATS", "elasticsearch": "Elasticsearch", "tcp": "TCP"}


@dataclass(frozen=True)
class MigrationStep:
    phase: str  # one of PHASES
    text: str  # Markdown, one sentence
    element: str  # the change's element id (component id, connection id...)


def _proto(p: str) -> str:
    return PROTOCOL_NAMES.get(p, p)


def _ends(conn_id: str) -> tuple[str, str, str]:
    src, _, rest = conn_id.partition("->")
    tgt, _, proto = rest.rpartition(":")
    return src, tgt, proto


def _names(items: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in items)


def plan_steps(diff: Diff) -> list[MigrationStep]:
    """The diff as ordered steps (see the module docstring for why this order)."""
    steps: list[MigrationStep] = []
    a, b = diff.a, diff.b
    for c in diff.of("component", "added"):
        comp = b.components[c.id]
        extra = ", ".join(x for x in (comp.kind, comp.attributes.get("technology") or comp.attributes.get("language")) if x)
        steps.append(MigrationStep("introduce", f"Introduce `{c.id}` ({extra}).", c.id))
    for c in diff.of("port", "added"):
        proto = next((f.new for f in c.changes if f.field == "protocol"), "")
        steps.append(MigrationStep("expose", f"Add API port `{c.id}`" + (f" ({_proto(proto)})." if proto else "."), c.id))
    for c in diff.of("endpoint", "added"):
        steps.append(MigrationStep("expose", f"Add endpoint `{c.id}`.", c.id))
    for c in diff.of("connection", "added"):
        src, tgt, proto = _ends(c.id)
        steps.append(MigrationStep("connect", f"Connect `{src}` to `{tgt}` over {_proto(proto)}.", c.id))
    for c in diff.of("connection", "changed"):
        src, tgt, old = _ends(c.id)
        new = _ends(c.new_id)[2]
        steps.append(MigrationStep("change", f"Move `{src}` calls to `{tgt}` from {_proto(old)} to {_proto(new)}.", c.id))
    for c in diff.of("component", "changed") + diff.of("port", "changed"):
        changes = "; ".join(f"{f.field} from {f.old or '(none)'} to {f.new or '(none)'}" for f in c.changes)
        steps.append(MigrationStep("change", f"Change `{c.id}`: {changes}.", c.id))
    retired = {c.id for c in diff.of("component", "removed")}
    for c in diff.of("connection", "removed"):
        src, tgt, proto = _ends(c.id)
        why = f" (`{tgt}` is retired)" if tgt in retired and src not in retired else ""
        if src in retired:
            why = f" (goes with `{src}`)"
        steps.append(MigrationStep("disconnect", f"Remove the {_proto(proto)} connection `{src}` -> `{tgt}`{why}.", c.id))
    for c in diff.of("endpoint", "removed") + diff.of("port", "removed"):
        what = "API port" if c.element == "port" else "endpoint"
        steps.append(MigrationStep("withdraw", f"Withdraw {what} `{c.id}`.", c.id))
    callers_of: dict[str, set[str]] = {}
    for conn in a.connections:
        if conn.source != conn.target:
            callers_of.setdefault(conn.target, set()).add(conn.source)
    for c in diff.of("component", "removed"):
        callers = sorted(callers_of.get(c.id, ()))
        if callers:
            n = len(callers)
            text = f"Retire `{c.id}` after its {n} caller{'s are' if n != 1 else ' is'} moved ({_names(callers)})."
        else:
            text = f"Retire `{c.id}` (nothing calls it)."
        steps.append(MigrationStep("retire", text, c.id))
    return sorted(steps, key=lambda s: PHASES.index(s.phase))  # stable: keeps the diff's order within a phase


def render_steps_markdown(diff: Diff) -> str:
    steps = plan_steps(diff)
    title = f"# Migration plan: {diff.a.name or diff.a.origin} -> {diff.b.name or diff.b.origin}"
    lines = [title, "", f"From `{diff.a.origin}` (current) to `{diff.b.origin}` (target).",
             ("Ordered so nothing is removed while something still depends on it: introduce, connect, change, "
              "then disconnect and retire."), ""]
    if not steps:
        lines.append("Nothing to do: the current architecture matches the target.")
    lines.extend(f"{i}. {s.text}" for i, s in enumerate(steps, 1))
    notes = list(diff.notes) + [str(n) for n in diff.reader_notes]
    if notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in notes]
    return "\n".join(lines) + "\n"
