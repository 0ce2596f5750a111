"""Dependency rules as SysML v2 requirements, and ``check`` results as metadata on the violating elements.

``repomodeler check --rules rules.yml ... --sysml-out DIR`` writes the analysed model (``model.sysml``
and ``RepoModeler.sysml``) and ``rules.sysml``: one package ``<system>_rules`` that imports the system
package and holds

* a ``requirement def`` per ``forbid`` rule, its id the short name (``<'forbid-1'>``), specializing the
  library's ``DependencyRule`` (its
  ``fromPattern``, ``toPattern``, ``protocol`` and ``allowedSources`` attributes say the rule, the
  ``doc`` says it in words and where it was written);
* a requirement ``kept_rules`` grouping a usage of every rule the analysed system keeps, with
  ``satisfy kept_rules by system;``, and ``broken_rules`` grouping the rules it breaks, with
  ``assert not satisfy broken_rules by system;`` (one relation per group: mercurio gives unnamed
  satisfy relations one id); each usage sets ``violations``, the number of connections breaking the
  rule, which the library's ``DependencyRule`` requires to be zero (``require constraint``);
* one ``CheckViolation`` metadata ``about`` each violating element of the system def (the connector
  for a forbidden, unexpected or wrong-protocol connection, the part for an unexpected or changed
  component; what the code lacks is noted about the system def itself), with the rule, the
  requirement or target it breaks and the evidence.

Names are basic identifiers derived from the rule's position (``forbid_1``) and the violation's order,
which is sorted, so the same rules and commits give byte-identical text.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

from repomodeler.emit.names import IdentAllocator, short_name_ok, sysml_doc, sysml_string
from repomodeler.emit.sysml import system_names

RULES_FILE = "rules.sysml"


def _rule_key(where: str) -> str:
    """'rules.yml: forbid #2' -> 'forbid_2'."""
    tail = where.rpartition(":")[2].strip() or where
    return tail.replace("#", "").replace(" ", "_")


def render_rules(g: nx.MultiDiGraph, forbid: Sequence[object], violations: Sequence[object],
                 target: str | None = None) -> str:
    """The ``<system>_rules`` package for ``forbid`` rules (:class:`repomodeler.diff.rules.ForbidRule`) and the
    ``violations`` (:class:`repomodeler.diff.rules.Violation`) ``check`` found; ``target`` names the target
    file the target comparison used, if any."""
    names = system_names(g)
    ns = IdentAllocator({"system", names.package, names.system_def, "RepoModeler"}, inherited=False)
    package = ns.take(f"{names.package}_rules")
    lines = [f"package {package} {{",
             "    doc /* " + sysml_doc(
                 f"The dependency rules of {g.graph['name']} as requirements, and what 'repomodeler check' found "
                 "breaking them (or the target architecture) in the analysed code, as CheckViolation metadata on "
                 "the elements concerned.") + " */",
             "    private import RepoModeler::*;",
             f"    private import {names.package}::*;"]
    def broken_by(v: object, rule: object) -> bool:
        return v.rule == "forbidden-dependency" and f" is forbidden by {rule.where} (" in v.message  # type: ignore[attr-defined]

    rule_names: dict[str, str] = {}
    kept, broken_rules = ns.take("kept_rules"), ns.take("broken_rules")
    groups: dict[str, list[str]] = {kept: [], broken_rules: []}
    for rule in forbid:
        key = _rule_key(rule.where)  # type: ignore[attr-defined]
        req_def = ns.take(key, "rule")
        req = f"{req_def}_req"
        count = sum(1 for v in violations if broken_by(v, rule))
        broken = count > 0
        doc = f"No dependency {rule.describe()} ({rule.where})."  # type: ignore[attr-defined]
        if broken:
            doc += " The analysed code breaks it: see the CheckViolation metadata."
        rule_id = key.replace("_", "-")  # the requirement's id (its short name): forbid-1
        head = f"<'{rule_id}'> {req_def}" if short_name_ok(rule_id, req_def) else req_def
        lines += ["", f"    requirement def {head} :> DependencyRule {{", "        doc /* " + sysml_doc(doc) + " */",
                  f"        attribute :>> fromPattern = {sysml_string(rule.source or '*')};",  # type: ignore[attr-defined]
                  f"        attribute :>> toPattern = {sysml_string(rule.target or '*')};"]  # type: ignore[attr-defined]
        if rule.protocol:  # type: ignore[attr-defined]
            lines.append(f"        attribute :>> protocol = {sysml_string(rule.protocol)};")  # type: ignore[attr-defined]
        if rule.allowed:  # type: ignore[attr-defined]
            lines.append(f"        attribute :>> allowedSources = {sysml_string(','.join(rule.allowed))};")  # type: ignore[attr-defined]
        lines.append("    }")
        group = broken_rules if broken else kept
        groups[group].append(f"        requirement {req} : {req_def} {{ attribute :>> violations = {count}; }}")
        rule_names[rule.where] = f"{group}::{req}"  # type: ignore[attr-defined]
    # one requirement group the system satisfies and one it breaks (one satisfy: several unnamed ones
    # share one id in mercurio)
    for group, doc in ((kept, "The dependency rules the analysed system keeps."),
                       (broken_rules, "The dependency rules the analysed system breaks: see the CheckViolation metadata.")):
        if groups[group]:
            lines += ["", f"    requirement {group} {{", f"        doc /* {doc} */", "        subject system : System;",
                      *groups[group], "    }"]
            # by reference: the system satisfies the rules it keeps, and asserts it does not satisfy the others
            lines.append(f"    satisfy {kept} by system;" if group == kept else f"    assert not satisfy {group} by system;")
    for i, v in enumerate(violations, 1):
        about = _violating_element(names, v)
        violates = target or ""
        if v.rule == "forbidden-dependency":  # type: ignore[attr-defined]
            violates = next((rule_names[r.where] for r in forbid if broken_by(v, r)), "")  # type: ignore[attr-defined]
        detail = v.message + ("; at " + ", ".join(v.evidence) if v.evidence else "")  # type: ignore[attr-defined]
        lines += ["", f"    metadata {ns.take(f'violation_{i}')} : CheckViolation about {about} {{",
                  f"        rule = {sysml_string(v.rule)};",  # type: ignore[attr-defined]
                  f"        violates = {sysml_string(violates)};",
                  f"        detail = {sysml_string(detail)};",
                  "    }"]
    lines += ["}", ""]
    return "\n".join(lines)


def _violating_element(names, violation) -> str:  # type: ignore[no-untyped-def]
    """The qualified name of the element a violation is about (the system def when the code lacks it)."""
    base = f"{names.package}::{names.system_def}"
    subject = str(violation.subject)
    if "->" in subject and ":" in subject:
        source, _, rest = subject.partition("->")
        target, _, protocol = rest.rpartition(":")
        conn = names.connection(source, target, protocol)
        return f"{base}::{conn}" if conn else base
    part = names.components.get(subject)
    return f"{base}::{part}" if part else base
