"""The landscape package: one part per system (typed by the system def its own package declares) and
one connection per cross-system link, between the parts of the systems' parts that it joins.

Each system keeps its own package (its ``model.sysml``); the landscape refers to them by qualified
name (``payments::PaymentsSystem``), so loading the library, every system file and
``landscape.sysml`` gives one consistent SysML v2 model.  Names depend only on the ids they stand
for, so they stay the same from run to run.
"""

from __future__ import annotations

from repomodeler.emit.names import IdentAllocator, sysml_doc, sysml_name, sysml_string
from repomodeler.emit.sysml import KIND_DEF, library_names
from repomodeler.landscape.tasks import SystemSummary
from repomodeler.model.records import Model


def render_landscape(model: Model, summaries: list[SystemSummary]) -> str:
    by_name = {s.name: s for s in summaries}
    reserved = library_names() | {s.package for s in summaries}
    package = IdentAllocator(reserved).take(f"{model.name}_landscape")
    body = IdentAllocator(reserved | {package})
    landscape_def = body.take(f"{model.name}_Landscape")
    members = IdentAllocator(reserved | {package, landscape_def})
    system_parts = {name: members.take(name, "system") for name in sorted(by_name)}
    lines = [f"package {sysml_name(package)} {{",
             f"    doc /* {sysml_doc(f'The landscape {model.name}: {len(summaries)} systems and the connections between them.')} */",
             "    private import RepoModeler::*;"]
    # each system def by a membership import (the engine resolves another root package's members
    # only through an import); qualified references below, so equal member names never clash
    lines += [f"    private import {by_name[n].package}::{by_name[n].system_def};" for n in sorted(by_name)]
    lines.append(f"    part def {landscape_def} {{")
    for name in sorted(by_name):
        s = by_name[name]
        # no short name: ``<billing>`` would hide the package ``billing`` its type is named through
        lines.append(f"        part {system_parts[name]} : {s.package}::{s.system_def} {{ doc /* System {sysml_doc(name)}. */ }}")
    parts = {(s.name, cid): f"{system_parts[s.name]}.{part}" for s in summaries for cid, part in s.parts}
    # components the landscape adds (a repository that only publishes a package): parts of the landscape
    for s in sorted(summaries, key=lambda s: s.name):
        for cid, _name, kind, _repo, _lang, ev in s.components:
            if (s.name, cid) not in parts:
                part = members.take(f"{s.name}_{cid}", "part")
                parts[(s.name, cid)] = part
                lines.append(f"        part <{sysml_name(f'{s.name}/{cid}')}> {part} : {KIND_DEF.get(kind, 'Component')} {{")
                lines.append(f"            doc /* {sysml_doc(f'{kind.capitalize()} {cid} of system {s.name}, found in its repository only.')} */")
                if ev.path:
                    lines.append(f"            @SourceRef {{ repository = {sysml_string(ev.repository)}; "
                                 f"path = {sysml_string(ev.path)}; line = {ev.line}; }}")
                lines.append("        }")
    for conn in model.connections.values():
        src_sys, _, src = conn.source.partition("/")
        dst_sys, _, dst = conn.target.partition("/")
        if (src_sys, src) not in parts or (dst_sys, dst) not in parts:
            continue
        name = members.take(f"{conn.source}_{conn.target}_{conn.protocol}", "link")
        doc = f"{conn.source} {conn.kind.replace('_', ' ')} {conn.target} over {conn.protocol}" + "".join(
            f"; {k} {v}" for k, v in conn.attributes.items())
        lines.append(f"        connection <{sysml_name(conn.id)}> {name} connect "
                     f"{parts[(src_sys, src)]} to {parts[(dst_sys, dst)]} {{")
        lines.append(f"            doc /* {sysml_doc(doc)}. */")
        for e in conn.evidence[:8]:
            lines.append(f"            @SourceRef {{ repository = {sysml_string(e.repository)}; path = {sysml_string(e.path)}; "
                         f"line = {e.line}; }}")
        lines.append("        }")
    lines += ["    }", f"    part landscape : {landscape_def};", "}", ""]
    return "\n".join(lines)
