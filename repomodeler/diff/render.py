"""Present a :class:`Diff`: a rich terminal table, JSON, or a ``Delta`` SysML package.

The Delta package is self-contained (its own ``metadata def Change``), so it passes the SysML v2
check on its own: every changed element appears as a part (component), a port inside it, or a
``connection`` between two parts, annotated with ``@Change { kind = "added"; ... }``.
"""

from __future__ import annotations

import json

from repomodeler.diff.core import Diff, ElementChange
from repomodeler.emit.names import safe_member_name, sysml_doc, sysml_name, sysml_string

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


def _part_name(cid: str, kind: str = "part") -> str:
    return sysml_name(safe_member_name(cid, kind))


def _metadata(change: ElementChange, indent: str) -> list[str]:
    fields = [("kind", change.status), ("element", change.element), ("elementId", change.id),
              ("detail", change.detail or describe(change))]
    if change.new_id:
        fields.append(("newElementId", change.new_id))
    body = " ".join(f"{k} = {sysml_string(v)};" for k, v in fields)
    return [f"{indent}@Change {{ {body} }}"]


def render_delta_sysml(diff: Diff, package: str | None = None) -> str:
    """A ``Delta`` package: the changed elements annotated with ``Change`` metadata (valid SysML v2)."""
    name = package or f"{diff.a.name or diff.b.name or 'system'}Delta"
    by_component: dict[str, list[ElementChange]] = {}
    for c in diff.changes:
        if c.element != "connection":
            by_component.setdefault(c.component or c.id, []).append(c)
    connections = [c for c in diff.changes if c.element == "connection"]
    parts = set(by_component)
    for c in connections:
        src, _, rest = c.id.partition("->")
        parts.update([src, rest.rsplit(":", 1)[0]])
    lines = [
        f"package {sysml_name(name)} {{",
        f"    doc /* {sysml_doc(f'Changes from {diff.a.origin} to {diff.b.origin} written by repomodeler diff.')} */",
        "    private import ScalarValues::*;",
        "",
        "    metadata def Change {",
        "        doc /* One difference between two architectures: kind is added, removed or changed. */",
        "        attribute kind : String;",
        "        attribute element : String;",
        "        attribute elementId : String;",
        "        attribute detail : String;",
        "        attribute newElementId : String;",
        "    }",
        "",
        "    part delta {",
        f"        doc /* {sysml_doc(summary_line(diff))} */",
    ]
    for cid in sorted(parts):
        own = by_component.get(cid, [])
        comp_changes = [c for c in own if c.element == "component"]
        port_changes = [c for c in own if c.element in ("port", "endpoint")]
        if not own:
            lines.append(f"        part {_part_name(cid)};")
            continue
        lines.append(f"        part {_part_name(cid)} {{")
        for c in comp_changes:
            lines.extend(_metadata(c, "            "))
        ports: dict[str, list[ElementChange]] = {}
        for c in port_changes:
            port = c.id[len(cid) + 1:].split(":", 1)[0]
            ports.setdefault(port, []).append(c)
        for port, changes in sorted(ports.items()):
            lines.append(f"            port {sysml_name(port)} {{")
            for c in changes:
                lines.extend(_metadata(c, "                "))
            lines.append("            }")
        lines.append("        }")
    for c in connections:
        src, _, rest = c.id.partition("->")
        tgt, _, proto = rest.rpartition(":")
        lines.append(f"        connection {sysml_name(f'{src}-{tgt}-{proto}')} connect {_part_name(src)} to {_part_name(tgt)} {{")
        lines.extend(_metadata(c, "            "))
        lines.append("        }")
    lines += ["    }", "}", ""]
    return "\n".join(lines)
