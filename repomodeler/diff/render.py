"""Present a :class:`Diff`: a rich terminal table, JSON, or a ``Delta`` SysML package.

The Delta package declares its own ``metadata def Change`` and nothing else but ``Change`` metadata
``about`` the real elements of the two models compared (the parts and connectors of the current model
and of the target), so it never redeclares detached copies of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from repomodeler.diff.core import Diff, ElementChange
from repomodeler.emit.names import IdentAllocator, sysml_doc, sysml_name, sysml_string
from repomodeler.diff.view import ArchModel

STATUS_STYLE = {"added": "green", "removed": "red", "changed": "yellow"}
STATUS_MARK = {"added": "+", "removed": "-", "changed": "~"}


def describe(change: ElementChange) -> str:
    """One human sentence for a change (used by the table, the overlay and the Delta docs)."""
    what = {"component": "component", "port": "port", "endpoint": "endpoint", "connection": "connection"}[change.element]
    subject = change.id.replace("->", " -> ")
    if change.status == "changed":
        return f"{what} {subject} changed: {change.detail}"
    return f"{what} {subject} {change.status}" + (f" ({change.detail})" if change.detail else "")


def summary_line(diff: Diff) -> str:
    return ", ".join(f"{e}s +{v['added']} -{v['removed']} ~{v['changed']}" for e, v in diff.counts().items())


def render_json(diff: Diff) -> str:
    return json.dumps(diff.to_json(), indent=2, ensure_ascii=False) + "\n"


TABLE_HEADERS = ("", "element", "id", "change")
# rich's Table costs ~0.4 ms a row (markup, measuring, wrapping): a diff of 100,000 components would
# spend a minute there. Above this many rows a table whose columns fit the console is laid out here,
# to the same text; one that needs folding, or holds markup-like text, still goes through rich.
DIRECT_TABLE_ROWS = 200
DIRECT_BLOCK = 2000  # rows per print call


def render_table(diff: Diff, console) -> None:  # type: ignore[no-untyped-def]
    """Print the diff as a table on a rich console (colour only when it is a terminal)."""
    from rich.table import Table

    console.print(f"[bold]A[/bold] {diff.a.origin}\n[bold]B[/bold] {diff.b.origin}")
    if diff.empty:
        console.print("no differences")
    else:
        rows = [(c, c.id.replace("->", " -> ") + (f"  =>  {c.new_id.replace('->', ' -> ')}" if c.new_id else ""))
                for c in diff.changes]
        if len(rows) < DIRECT_TABLE_ROWS or not _print_direct_table(rows, console):
            table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
            for col in TABLE_HEADERS:
                table.add_column(col, overflow="fold")
            for c, ident in rows:
                style = STATUS_STYLE[c.status]
                table.add_row(f"[{style}]{STATUS_MARK[c.status]}[/{style}]", c.element, ident,
                              f"[{style}]{c.status}[/{style}]" + (f" {c.detail}" if c.detail else ""))
            console.print(table)
        console.print(summary_line(diff))
    for note in diff.notes:
        console.print(f"note: {note}")
    for rn in diff.reader_notes:
        console.print(f"note: {rn}")


def _print_direct_table(rows: list[tuple[ElementChange, str]], console) -> bool:  # type: ignore[no-untyped-def]
    """The table rich would print (box=None, no edge padding, natural column widths), written in
    blocks of lines; False (nothing printed) when the columns do not fit or a cell holds '['."""
    from rich.cells import cell_len
    from rich.text import Text

    cells = [(STATUS_MARK[c.status], c.element, ident, c.status + (f" {c.detail}" if c.detail else ""))
             for c, ident in rows]
    if any("[" in ident or "[" in change for _m, _e, ident, change in cells):
        return False  # rich would read these as markup
    widths = [cell_len(h) for h in TABLE_HEADERS]
    for row in cells:
        for i, text in enumerate(row):
            n = cell_len(text)
            if n > widths[i]:
                widths[i] = n
    if sum(widths) + 2 * (len(widths) - 1) > console.width:
        return False  # rich would fold columns: leave that layout to it

    if console.color_system is None:  # no styles to draw (a pipe, a file): plain lines
        pad = [lambda text, w=w: text + " " * (w - cell_len(text)) for w in widths]
        lines = ["  ".join(pad[i](text) for i, text in enumerate(row)) for row in [TABLE_HEADERS, *cells]]
        for start in range(0, len(lines), DIRECT_BLOCK):
            console.file.write("\n".join(lines[start:start + DIRECT_BLOCK]) + "\n")
        return True

    def line(row: tuple[str, ...], styles: tuple[str | None, ...], out: Text) -> None:
        if out:
            out.append("\n")
        for i, text in enumerate(row):
            if i:
                out.append("  ")
            head, _, tail = text.partition(" ") if i == 3 else (text, "", "")
            out.append(head, style=styles[i])
            if i == 3 and tail:
                out.append(" " + tail)
            out.append(" " * (widths[i] - cell_len(text)))

    block = Text()
    line(TABLE_HEADERS, ("bold",) * 4, block)
    for n, (row, (c, _ident)) in enumerate(zip(cells, rows), 1):
        style = STATUS_STYLE[c.status]
        line(row, (style, None, None, style), block)
        if n % DIRECT_BLOCK == 0:
            console.print(block, soft_wrap=True, highlight=False)
            block = Text()
    if block:
        console.print(block, soft_wrap=True, highlight=False)
    return True


@dataclass(frozen=True)
class SysmlRefs:
    """Qualified SysML names of one side's elements: component id -> part, connection id -> connector."""

    components: dict[str, str]
    connections: dict[str, str]
    package: str
    ports: dict[tuple[str, str], str] = field(default_factory=dict)  # (component id, port name) -> port usage


def sysml_refs(model: ArchModel) -> SysmlRefs:
    """Where each element of ``model`` is declared in its SysML: read from the SysML text it came from, or
    the names the emitter gives the graph of the model.json it was read from (the model.sysml beside it)."""
    if model.model_json is not None:
        from repomodeler.emit.sysml import system_names
        from repomodeler.model import read_file, to_networkx

        g = to_networkx(read_file(model.model_json))
        names = system_names(g)
        base = f"{names.package}::{names.system_def}"
        # model.json names a provided port by its protocol; the emitter names the port usage per protocol
        ports = {(cid, proto): f"{base}::{names.components[cid]}::{n}" for (cid, proto), n in names.ports.server.items()
                 if cid in names.components}
        return SysmlRefs({cid: f"{base}::{n}" for cid, n in names.components.items()},
                         {f"{u}->{v}:{k}": f"{base}::{n}" for (u, v, k), n in names.connections.items()},
                         names.package, ports)
    comps = {cid: c.sysml_ref for cid, c in model.components.items() if c.sysml_ref}
    conns = {c.id: c.sysml_ref for c in model.connections if c.sysml_ref}
    ports = {(cid, name): f"{c.sysml_ref}::{sysml_name(name)}" for cid, c in model.components.items() if c.sysml_ref
             for name in c.ports}
    packages = sorted({r.split("::", 1)[0] for r in comps.values()})
    # a target specializing a model's system def names parts of both packages: its own is the one to load
    package = model.name if model.name in packages else next(iter(packages), "")
    return SysmlRefs(comps, conns, package, ports)


def _about(change: ElementChange, side: SysmlRefs) -> str | None:
    """The element of one side a change is about: the connector (or, unnamed, its source part), the
    port usage for a port or endpoint change (its part when the side has no such port usage), the part
    for a component change."""
    if change.element == "connection":
        for cid in (change.id, change.new_id):
            if cid and cid in side.connections:
                return side.connections[cid]
        return side.components.get(change.id.partition("->")[0])
    if change.element in ("port", "endpoint") and change.component:
        # `cart.grpc` (a port), `cart.grpc:RPC CartService/AddItem` (an endpoint): the port usage itself
        port = change.id[len(change.component) + 1:].split(":", 1)[0]
        if (change.component, port) in side.ports:
            return side.ports[(change.component, port)]
    return side.components.get(change.component or change.id)


def render_delta_sysml(diff: Diff, package: str | None = None) -> str:
    """A ``Delta`` package: one ``Change`` metadata per difference, ``about`` the real elements of the two
    models (A's for a removal, B's for an addition, both for a change), so it adds nothing but annotations:
    load it together with both models' SysML files (when their packages have different names, as a
    current model and its target do).  A change with no element to point at (a stored run, an unnamed
    connector between parts the side does not name) annotates the Delta package itself."""
    name = package or f"{diff.a.name or diff.b.name or 'system'}Delta"
    refs_a, refs_b = sysml_refs(diff.a), sysml_refs(diff.b)
    loads = " and ".join(dict.fromkeys(f"{m.origin} (package {r.package})" for m, r in ((diff.a, refs_a), (diff.b, refs_b))
                                       if r.package))
    lines = [
        f"package {sysml_name(name)} {{",
        f"    doc /* {sysml_doc(f'Changes from {diff.a.origin} to {diff.b.origin} written by repomodeler diff ({summary_line(diff)}). Each Change is metadata about the elements it concerns; load this file with ' + (loads or 'both models') + '.')} */",
        "    private import ScalarValues::*;",
        "",
        "    metadata def Change {",
        "        doc /* One difference between two architectures: kind is added, removed or changed; the annotated "
        "elements are the element in the first model (removed, changed) and in the second (added, changed). */",
        "        attribute kind : String;",
        "        attribute element : String;",
        "        attribute elementId : String;",
        "        attribute detail : String;",
        "        attribute newElementId : String;",
        "    }",
    ]
    ns = IdentAllocator({"Change"}, inherited=False)
    for c in diff.changes:
        targets = []
        if c.status in ("removed", "changed"):
            targets.append(_about(c, refs_a))
        if c.status in ("added", "changed"):
            targets.append(_about(c, refs_b))
        about = list(dict.fromkeys(t for t in targets if t))
        fields = [("kind", c.status), ("element", c.element), ("elementId", c.id), ("detail", c.detail or describe(c))]
        if c.new_id:
            fields.append(("newElementId", c.new_id))
        body = " ".join(f"{k} = {sysml_string(v)};" for k, v in fields)
        label = ns.take(f"{c.status}-{c.element}-{c.new_id or c.id}", "change")
        where = f" about {', '.join(about)}" if about else ""
        lines.append(f"    metadata {label} : Change{where} {{ {body} }}")
    lines += ["}", ""]
    return "\n".join(lines)
