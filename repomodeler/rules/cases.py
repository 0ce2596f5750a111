"""Fixture cases of the rules: small systems written as a user would write them, and what a rule
must add to their model and must not.

A case file (``rules/<group>/cases/<rule id>.yml`` or ``<rule id>--<what>.yml``)::

    case: links between containers are connections        # one line: what the case shows
    repositories:                                          # repository name -> path -> text
      shop:
        docker-compose.yml: |
          services: ...
    expect:                                                # made (or given evidence) by the rule
      components: [web, db]                                # ids; "web: gateway" also checks the kind
      connections: ["web -> db", "web -> api : http"]      # "source -> target [: protocol]"
      attributes: {web: {exposed: "8080"}}                 # attribute values of components
    absent:                                                # must not be in the model
      connections: ["db -> web"]

Every expected element must name the case's rule among its ``rules`` (a connection: on itself or on
one of its ends, since a rule that names a component, by an alias or a kind, is what lets links
reach it).  With the rule switched off,
at least one expectation of at least one of its cases must fail: that is what shows the rule does
what its message says (``tests/test_rules_registry.py``).  Extraction is the real one (tree-sitter
queries and descriptor readers), with no git, cache or SysML engine, so a case runs in milliseconds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from repomodeler.records import ExtractResult, Inventory, RepomodelerError, RepoSpec, Repository, SourceFile


@dataclass(frozen=True)
class Case:
    rule: str
    path: Path
    title: str
    repositories: dict[str, dict[str, str]]
    expect_components: tuple[str, ...] = ()
    expect_connections: tuple[str, ...] = ()
    absent_components: tuple[str, ...] = ()
    absent_connections: tuple[str, ...] = ()
    expect_attributes: tuple[tuple[str, str, str], ...] = ()  # (component, attribute, value)


@dataclass
class Outcome:
    case: Case
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


_CASE_KEYS = frozenset({"case", "repositories", "expect", "absent"})
_SECTION_KEYS = {"expect": frozenset({"components", "connections", "attributes"}),
                 "absent": frozenset({"components", "connections"})}


class CaseError(RepomodelerError):
    """A case file that says something the runner would not check: refused, so a misspelt
    expectation (``unresolved:``, ``connection:``) cannot pass by being silently ignored."""


def load_case(rule_id: str, path: Path) -> Case:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:  # (a colon and a space inside a plain `case:` sentence, say)
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise CaseError(f"{path}:{where}: not valid YAML ({getattr(exc, 'problem', None) or exc}); "
                        "quote the text or write it as a block") from None
    if not isinstance(data, dict):
        raise CaseError(f"{path}: a case is a mapping with keys {', '.join(sorted(_CASE_KEYS))}")
    unknown = sorted(set(map(str, data)) - _CASE_KEYS)
    if unknown:
        raise CaseError(f"{path}: unknown key(s) {', '.join(unknown)}; a case has {', '.join(sorted(_CASE_KEYS))}")
    for section, keys in _SECTION_KEYS.items():
        given = data.get(section) or {}
        if not isinstance(given, dict):
            raise CaseError(f"{path}: {section}: is a mapping with keys {', '.join(sorted(keys))}")
        unknown = sorted(set(map(str, given)) - keys)
        if unknown:
            raise CaseError(f"{path}: {section}: cannot check {', '.join(unknown)}; "
                            f"it checks {', '.join(sorted(keys))}")
    expect, absent = data.get("expect") or {}, data.get("absent") or {}
    return Case(rule=rule_id, path=path, title=str(data.get("case", path.stem)),
                repositories={str(r): {str(p): str(t) for p, t in (files or {}).items()}
                              for r, files in (data.get("repositories") or {}).items()},
                expect_components=tuple(str(x) for x in expect.get("components") or ()),
                expect_connections=tuple(str(x) for x in expect.get("connections") or ()),
                absent_components=tuple(str(x) for x in absent.get("components") or ()),
                absent_connections=tuple(str(x) for x in absent.get("connections") or ()),
                expect_attributes=tuple((str(c), str(k), str(v)) for c, attrs in (expect.get("attributes") or {}).items()
                                        for k, v in (attrs or {}).items()))


def extract_in_memory(repos: dict[str, dict[str, str]]) -> list[ExtractResult]:
    """Facts of small repositories given as text: the real inventory rules and extraction."""
    from repomodeler.extract import extract_file
    from repomodeler.extract.helm_charts import helm_chart_facts
    from repomodeler.inventory import (COMPOSE_FILE, InventoryOptions, _skip_reason, _wanted, classify_role, root_readme,
                                       settle_roles)
    from repomodeler.languages import language_for_path

    results = []
    for repo, files in sorted(repos.items()):
        spec = RepoSpec(raw=repo, kind="path", location=f"/{repo}", ref=None, name=repo)
        # (a case's repository is named as if cloned from a URL ending in that name)
        repository = Repository(name=repo, spec=spec, checkout=Path(f"/{repo}"), kind="dir", commit=None, url=None,
                                project=repo)
        inventory_files, facts, warnings = [], [], []
        for path, text in sorted(files.items()):
            if not _wanted(path) or _skip_reason(path, len(text), InventoryOptions()):
                continue
            content = text.encode()
            inventory_files.append(SourceFile(path=path, blob=hashlib.sha1(content).hexdigest(), size=len(content),
                                              language=language_for_path(path), role=classify_role(path)))
        compose_texts = {f.path: files[f.path] for f in inventory_files if f.role == "source" and COMPOSE_FILE.search(f.path)}
        # (as a listing does: the env files a compose file names, the templates standing for missing ones, the
        # settings it mounts, the example stacks the README runs)
        readme = root_readme(inventory_files)
        inventory_files = settle_roles(inventory_files, files[readme.path] if readme else "", compose_texts)
        for sf in inventory_files:
            if sf.role != "source":
                continue
            fs, ws, _parsed = extract_file(repo, sf, files[sf.path].encode())
            facts.extend(fs)
            warnings.extend(ws)
        fs, ws = helm_chart_facts(repo, {sf.path: files[sf.path] for sf in inventory_files if sf.role == "source"},
                                  [f for f in facts if f.kind == "helm.install"])
        facts.extend(fs)
        warnings.extend(ws)
        results.append(ExtractResult(repository=repository, inventory=Inventory(repository, inventory_files),
                                     facts=facts, warnings=warnings))
    return results


def _connection(spec: str) -> tuple[str, str, str | None]:
    ends, _, protocol = spec.partition(":")
    source, _, target = ends.partition("->")
    return source.strip(), target.strip(), protocol.strip() or None


def run_case(case: Case, disabled: frozenset[str] = frozenset()) -> Outcome:
    from repomodeler.graph.build import resolve_system

    model = resolve_system("case", extract_in_memory(case.repositories), disabled)
    comps = {**model.components, **model.parts}
    links = [*model.connections.values(), *model.part_links.values()]
    out = Outcome(case)
    credit = case.rule not in disabled  # with the rule off, nothing can name it
    for spec in case.expect_components:
        cid, _, kind = (x.strip() for x in spec.partition(":"))
        comp = comps.get(cid)
        if comp is None:
            out.failures.append(f"missing component {cid}")
        elif kind and comp.kind != kind:
            out.failures.append(f"component {cid} is a {comp.kind}, not a {kind}")
        elif credit and case.rule not in comp.rules:
            out.failures.append(f"component {cid} does not name rule {case.rule} (it names {sorted(comp.rules)})")
    for spec in case.expect_connections:
        source, target, protocol = _connection(spec)
        found = [c for c in links if (c.source, c.target) == (source, target) and protocol in (None, c.protocol)]
        if not found:
            out.failures.append(f"missing connection {spec}")
        elif credit and not any(case.rule in c.rules or case.rule in comps[source].rules
                                or case.rule in comps[target].rules for c in found):
            # a rule naming a component (an alias, a kind) makes links to it: crediting an end counts
            out.failures.append(f"connection {spec} names rule {case.rule} neither on itself nor on its ends")
    for cid, key, value in case.expect_attributes:
        comp = comps.get(cid)
        if comp is None:
            out.failures.append(f"missing component {cid}")
        elif comp.attributes.get(key) != value:
            out.failures.append(f"component {cid} has {key}={comp.attributes.get(key)!r}, not {value!r}")
        elif credit and case.rule not in comp.rules:
            out.failures.append(f"component {cid} does not name rule {case.rule} (it names {sorted(comp.rules)})")
    for cid in case.absent_components:
        if cid in comps:
            out.failures.append(f"unexpected component {cid}")
    for spec in case.absent_connections:
        source, target, protocol = _connection(spec)
        if any((c.source, c.target) == (source, target) and protocol in (None, c.protocol) for c in links):
            out.failures.append(f"unexpected connection {spec}")
    return out


def cases_of(rule_id: str) -> list[Case]:
    from repomodeler.rules import by_id

    return [load_case(rule_id, p) for p in by_id(rule_id).case_files()]
