"""The landscape model: one node per system (kind ``system``), its components nested in it, and the
connections that cross systems.

It is a :class:`repomodeler.model.Model` like any system's (written by the same model.json writer):
a component of system ``payments`` is node ``payments/api`` with ``parent`` ``payments``
(:mod:`repomodeler.model.nesting` decides what that means), so a connection between two components
lifts to the two systems.  Cross-system connections come from the systems' references
(:mod:`repomodeler.landscape.signature`):

* ``calls`` when a component addresses a host that a component of another system is named by,
  with the URL's protocol;
* ``calls`` over gRPC when a component holds a generated client of a gRPC service that a component
  of another system registers;
* ``calls`` over HTTP when a component holds a client generated from an OpenAPI document of another
  system (``openapi``: the document), and, on a call whose host resolves to another system, the
  operations of that system's OpenAPI documents its client calls address (``operations``: ``GET
  /payments/{}``, with the document's line as evidence too);
* ``publishes`` from a publisher to each subscriber of the same topic in another system;
* ``depends_on`` (protocol ``library``) when a component's manifest depends on a package that a
  component of another system publishes (npm, Maven, Go, PyPI, NuGet, Cargo);
* ``depends_on`` (protocol ``image``) when a compose service or Kubernetes workload runs an image
  named after a repository of another system that builds one (a Dockerfile).

A host or package that several other systems answer is ambiguous and links nothing.  Every
connection carries the evidence of the reference (the consumer's file and line) and of the answer.
"""

from __future__ import annotations

from collections import defaultdict

from repomodeler.graph.naming import slug
from repomodeler.landscape.signature import Ref
from repomodeler.landscape.tasks import SystemSummary
from repomodeler.model.records import Component, Connection, Model, RepositoryRef, frozen_mapping
from repomodeler.records import Evidence

SYSTEM_KIND = "system"


def node_id(system: str, component: str) -> str:
    return f"{system}/{component}"


def landscape_model(name: str, summaries: list[SystemSummary], repositories: list[RepositoryRef],
                    failures: list[str]) -> Model:
    """The landscape of `summaries` (one per system), sorted, whatever order they came in."""
    summaries = sorted(summaries, key=lambda s: s.name)
    components: dict[str, Component] = {}
    for s in summaries:
        repos = sorted({c[3] for c in s.components if c[3]})
        evidence = sorted({c[5] for c in s.components if c[5].path})[:1]
        components[s.name] = Component(
            id=s.name, name=s.name, kind=SYSTEM_KIND, evidence=tuple(evidence),
            attributes=frozen_mapping({"components": str(len(s.components)), "model": slug(s.name) or "system",
                                       "package": s.package, "repositories": ", ".join(repos)}))
        for cid, cname, kind, repo, language, ev in s.components:
            components[node_id(s.name, cid)] = Component(
                id=node_id(s.name, cid), name=cname, kind=kind, repository=repo or None, language=language or None,
                parent=s.name, evidence=(ev,) if ev.path else ())
    connections = _cross_links(summaries)
    return Model(
        name=name,
        components=frozen_mapping(dict(sorted(components.items()))),  # type: ignore[arg-type]
        connections=frozen_mapping({c.key: c for c in sorted(connections, key=lambda c: c.key)}),  # type: ignore[arg-type]
        repositories=tuple(sorted(repositories, key=lambda r: r.name)),
        stats=frozen_mapping({"systems": len(summaries), "failures": len(failures)}),
    )


def _cross_links(summaries: list[SystemSummary]) -> list[Connection]:
    answers: dict[tuple[str, str], dict[str, list[Ref]]] = defaultdict(lambda: defaultdict(list))
    for s in summaries:
        for r in s.provides:
            answers[(r.kind, r.key)][s.name].append(r)
    merged: dict[tuple[str, str, str], tuple[str, set[Evidence], dict[str, set[str]]]] = {}

    def add(source: str, target: str, kind: str, protocol: str, evidence: list[Evidence], attr: str,
            value: str) -> None:
        key = (source, target, protocol)
        if key not in merged:
            merged[key] = (kind, set(), defaultdict(set))
        merged[key][1].update(e for e in evidence if e.path)
        merged[key][2][attr].add(value)

    # where each component's calls were resolved to: an operation it calls links only there
    reached: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for s in summaries:
        for need in s.needs:
            if need.kind == "route":
                continue  # below, once the hosts are resolved
            others = {sys: refs for sys, refs in answers.get((need.kind, need.key), {}).items() if sys != s.name}
            if not others or s.name in answers.get((need.kind, need.key), {}):
                continue  # nobody else answers, or the system answers it itself
            if need.kind == "topic":  # every publisher elsewhere reaches this subscriber
                for sys in sorted(others):
                    for pub in sorted(others[sys]):
                        add(node_id(sys, pub.component), node_id(s.name, need.component), "publishes",
                            need.protocol or pub.protocol or "tcp", [pub.evidence, need.evidence], "topics", need.key)
                continue
            if len(others) != 1:
                continue  # several systems answer the name: ambiguous, drawn nowhere
            (sys, refs), = others.items()
            target = sorted(refs)[0]
            if need.kind in ("host", "openapi"):
                reached[(s.name, need.component)].add((sys, target.component))
                reached[(s.name, "@" + need.evidence.repository)].add((sys, target.component))
            if need.kind == "openapi":
                add(node_id(s.name, need.component), node_id(sys, target.component), "calls", "http",
                    [need.evidence, target.evidence], "openapi",
                    f"{target.evidence.repository}:{target.evidence.path}")
            elif need.kind == "grpc":
                add(node_id(s.name, need.component), node_id(sys, target.component), "calls", "grpc",
                    [need.evidence, target.evidence], "services", need.key)
            elif need.kind == "image":
                add(node_id(s.name, need.component), node_id(sys, target.component), "depends_on", "image",
                    [need.evidence, target.evidence], "images", need.key)
            elif need.kind == "package":
                add(node_id(s.name, need.component), node_id(sys, target.component), "depends_on", "library",
                    [need.evidence, target.evidence], "packages", need.key)
            else:
                add(node_id(s.name, need.component), node_id(sys, target.component), "calls",
                    need.protocol or "tcp", [need.evidence] + ([target.evidence] if target.evidence.path else []),
                    "via", f"host {need.key}")
    # the OpenAPI operations a component calls on a system its calls reach, with the document's line
    routes: dict[str, dict[str, list[Ref]]] = defaultdict(lambda: defaultdict(list))
    for s in summaries:
        for r in s.provides:
            if r.kind == "route":
                routes[s.name][r.key].append(r)
                routes[s.name]["ANY " + r.key.split(" ", 1)[1]].append(r)
    for s in summaries:
        for need in s.needs:
            if need.kind != "route":
                continue
            targets = reached.get((s.name, need.component)) or reached.get((s.name, "@" + need.evidence.repository)) \
                or set()
            for sys, component in sorted(targets):
                documented = sorted(routes.get(sys, {}).get(need.key, []))
                if documented:
                    operation = need.key if not need.key.startswith("ANY ") else documented[0].key
                    add(node_id(s.name, need.component), node_id(sys, component), "calls", "http",
                        [need.evidence, documented[0].evidence], "operations", operation)
    out = []
    for (source, target, protocol), (kind, evidence, attrs) in sorted(merged.items()):
        if not evidence:
            continue
        out.append(Connection(source=source, target=target, kind=kind, protocol=protocol,
                              evidence=tuple(sorted(evidence)),
                              attributes=frozen_mapping({k: ", ".join(sorted(v)) for k, v in sorted(attrs.items())}),
                              rules=()))
    return out
