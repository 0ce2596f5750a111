"""`repomodeler query MODEL QUESTION [ARGS]`: ask an architecture a question, answered with evidence.

A thin layer over :mod:`repomodeler.query`: it loads MODEL (a model folder, a model.json, a .sysml
file or ``run:SYSTEM:N``), asks, and prints the answer as text or JSON.
"""

from __future__ import annotations

import json
import sys

import click

from repomodeler.records import RepomodelerError

#: question -> (number of arguments, how to write them)
QUESTIONS = {
    "components": (-2, "components [KIND]"),
    "callers": (1, "callers COMPONENT"),
    "callees": (1, "callees COMPONENT"),
    "impact": (1, "impact COMPONENT"),
    "path": (2, "path FROM TO"),
    "uses": (-1, "uses TOPIC|STORE|ENDPOINT"),
    "evidence": (-1, "evidence COMPONENT|SOURCE->TARGET[:PROTOCOL]|COMPONENT.PORT|COMPONENT:METHOD /path"),
    "unresolved": (0, "unresolved"),
    "changes": (2, "changes RUN1 RUN2"),
    "against": (1, "against TARGET"),
}


def ask(spec: str, question: str, args: tuple[str, ...], max_routes: int = 20, max_hops: int = 8,  # type: ignore[no-untyped-def]
        limit: int = 0):
    """The answer to `question` with `args` about the model `spec` names."""
    from repomodeler import query
    from repomodeler.query.load import load, run_reference, split_run, RUN_PREFIX

    if question not in QUESTIONS:
        raise RepomodelerError(f"error: unknown question '{question}'; ask one of {', '.join(QUESTIONS)}")
    count, usage = QUESTIONS[question]
    if (count == -1 and not args) or (count == -2 and len(args) > 1) or (count >= 0 and len(args) != count):
        raise RepomodelerError(f"error: '{question}' takes {'an argument' if count < 0 else f'{count} argument(s)'}: "
                               f"repomodeler query MODEL {usage}")
    loaded = load(spec)
    index = query.QueryIndex(loaded.model, loaded.origin)
    if question == "components":
        return query.components(index, args[0] if args else "", limit=limit)
    if question == "impact":
        return query.impact(index, args[0], limit=limit)
    if question in ("callers", "callees"):
        return getattr(query, question)(index, args[0])
    if question == "path":
        return query.path(index, args[0], args[1], max_routes=max_routes, max_hops=max_hops)
    if question == "uses":
        return query.uses(index, " ".join(args))
    if question == "evidence":
        return query.evidence(index, " ".join(args))
    if question == "unresolved":
        return query.unresolved(index)
    if question == "changes":
        system = split_run(spec)[0] if spec.startswith(RUN_PREFIX) else loaded.model.name
        a, b = (run_reference(ref, system) for ref in args)
        return query.changes(query.QueryIndex(a.model, a.origin), query.QueryIndex(b.model, b.origin), "changes")
    target = load(args[0])
    return query.changes(index, query.QueryIndex(target.model, target.origin), "against",
                         arch_a=loaded.arch, arch_b=target.arch)


@click.command("query", context_settings={"ignore_unknown_options": False})
@click.argument("model")
@click.argument("question", type=click.Choice(list(QUESTIONS)))
@click.argument("args", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True,
              help="table for people, json for tools.")
@click.option("--max-routes", default=20, show_default=True, type=click.IntRange(1, 1000), help="path: routes listed at most.")
@click.option("--max-hops", default=8, show_default=True, type=click.IntRange(1, 50), help="path: connections per route at most.")
@click.option("--limit", default=0, show_default=True, type=click.IntRange(min=0),
              help="impact, components: list the first N only (0: all; the total is still given).")
def query_command(model: str, question: str, args: tuple[str, ...], fmt: str, max_routes: int, max_hops: int,
                  limit: int) -> None:
    """Ask MODEL (a model folder, model.json, .sysml file or run:SYSTEM:N) a QUESTION, with evidence.

    \b
      components [K]  the components (of kind K: service, database, broker...)
      callers X       who depends on X directly
      callees X       what X depends on directly
      impact X        everything that depends on X, transitively, with the path to each
      path A B        every route from A to B, through gateways and brokers
      uses T|S|E      who publishes/subscribes topic T, uses store S, provides/calls endpoint E
      evidence E      the file:line evidence and rules behind a component, connection, port or endpoint
      unresolved      the addresses and clients the analysis could not resolve
      changes R1 R2   what changed between two runs (N, latest, previous or run:SYSTEM:N)
      against T       how MODEL differs from the target architecture T (.sysml, model, run)
    """
    from repomodeler.query.records import to_json
    from repomodeler.query.render import render_text

    try:
        answer = ask(model, question, args, max_routes, max_hops, limit)
    except RepomodelerError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(to_json(answer), indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(answer), nl=False)


COMMANDS = [query_command]
