"""How long `repomodeler query` and the MCP server take to answer on a 2,000-component model.

Why: an agent asks many questions in a row; each answer must come back in well under a second on
a large system (the target is 200 ms).  This generates a layered synthetic system (a user, gateways,
services calling services, databases, caches, brokers with topics, external APIs; every element with
evidence and rules), writes its model.json, then times:

- loading: reading model.json into the canonical model and building the query index (once per
  model; the MCP server keeps the index per model.json identity);
- every question on several subjects, worst ones included (the most depended-on store for
  ``impact``, a deep route for ``path``): from the library (on a fresh index, then again), through
  the MCP server (``MCPServer.call_tool``: argument validation, the answer, output validation and
  serialisation, with the tools' default limits: impact lists the nearest 200, components 500) and
  as a round trip through the MCP SDK's own in-process client, which also validates the answer
  against the tool's output schema with ``jsonschema`` (a cost of the client, shown apart).

    python benchmarks/query_bench.py                 # 2,000 components
    python benchmarks/query_bench.py --components 5000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from repomodeler.model import Component, Connection, Endpoint, Evidence, Model, Port, Rule, to_json

RULES = ("compose.services", "kubernetes.workloads", "code.client-calls", "config.address-values",
         "messaging.topics", "grpc.services", "api.endpoints")


def generate(components: int, seed: int = 11) -> Model:
    """A layered system of `components` components (deterministic for a seed)."""
    rnd = random.Random(seed)
    n_gw = max(2, components // 100)
    n_db, n_cache, n_broker, n_ext = components // 8, components // 20, max(2, components // 70), components // 20
    n_svc = components - 1 - n_gw - n_db - n_cache - n_broker - n_ext
    kinds = (["gateway"] * n_gw + ["service"] * n_svc + ["database"] * n_db + ["cache"] * n_cache
             + ["broker"] * n_broker + ["external"] * n_ext)
    comps: dict[str, Component] = {}
    by_kind: dict[str, list[str]] = {}

    def ev(repo: str, path: str) -> tuple[Evidence, ...]:
        return (Evidence(repo, path, rnd.randint(1, 300)),)

    comps["user"] = Component(id="user", name="user", kind="user", evidence=ev("repo-00", "deploy/ingress.yaml"),
                              rules=("frontdoor.entry-points",))
    by_kind["user"] = ["user"]
    for i, kind in enumerate(kinds):
        cid = f"{kind[:3]}-{i:05d}"
        repo = f"repo-{i % 40:02d}"
        ports: tuple[Port, ...] = ()
        if kind == "service":
            eps = tuple(Endpoint(rnd.choice(["GET", "POST"]), f"/api/{cid}/items/{{id}}/{j}", ev(repo, f"{cid}/routes.py"))
                        for j in range(rnd.randint(0, 4)))
            ports = (Port("http", "http", endpoints=eps, evidence=ev(repo, f"{cid}/Dockerfile")),)
        comps[cid] = Component(id=cid, name=cid, kind=kind, repository=repo, evidence=ev(repo, f"deploy/{cid}.yaml"),
                               ports=ports, rules=tuple(sorted(rnd.sample(RULES[:2], 1) + ["api.endpoints"])))
        by_kind.setdefault(kind, []).append(cid)
    conns: dict[tuple[str, str, str], Connection] = {}

    def connect(src: str, dst: str, kind: str, protocol: str, **attrs: str) -> None:
        if src != dst and (src, dst, protocol) not in conns:
            conns[(src, dst, protocol)] = Connection(src, dst, kind, protocol, ev(comps[src].repository or "repo-00",
                                                                                f"{src}/client.py"),
                                                     attrs, tuple(sorted(rnd.sample(RULES[2:], 2))))

    services, topics = by_kind["service"], [f"events.t{t}" for t in range(components // 10)]
    for gw in by_kind["gateway"]:
        connect("user", gw, "calls", "http", via="published entry point")
        for svc in rnd.sample(services, 20):
            connect(gw, svc, "calls", "http", via="route", endpoints=f"ANY /api/{svc}")
    for i, svc in enumerate(services):
        for other in rnd.sample(services[i + 1:] or services, min(rnd.randint(1, 3), len(services[i + 1:]) or 1)):
            connect(svc, other, "calls", rnd.choice(["http", "grpc"]), via=f"env {other.upper()}_URL",
                    endpoints=f"GET /api/{other}/items/{{id}}/0")
        connect(svc, rnd.choice(by_kind["database"]), "uses", "sql", via="env DATABASE_URL")
        if rnd.random() < 0.3:
            connect(svc, rnd.choice(by_kind["cache"]), "uses", "redis", via="env REDIS_URL")
        if rnd.random() < 0.1:
            connect(svc, rnd.choice(by_kind["external"]), "calls", "http", via="literal https://api.example.com")
        if rnd.random() < 0.25:
            topic = rnd.choice(topics)
            broker = by_kind["broker"][int(topic.rsplit("t", 1)[1]) % len(by_kind["broker"])]
            if rnd.random() < 0.5:
                connect(svc, broker, "publishes", "amqp", publishes=topic, topic=topic)
            else:
                connect(svc, broker, "subscribes", "amqp", subscribes=topic, topic=topic)
    return Model(name=f"synthetic-{components}", components=dict(sorted(comps.items())),
                 connections=dict(sorted(conns.items())), rules=tuple(Rule(r, f"rule {r}") for r in RULES))


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """(best-of-`repeat` wall time in ms, the last result)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, (time.perf_counter() - t) * 1000)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--components", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget-ms", type=float, default=200.0)
    args = ap.parse_args()

    from repomodeler import query
    from repomodeler.mcp_server.server import build_server

    model = generate(args.components)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "models" / "big"
        folder.mkdir(parents=True)
        (folder / "model.json").write_text(to_json(model), encoding="utf-8")
        size = (folder / "model.json").stat().st_size
        load_ms, loaded = timed(lambda: query.load(str(folder)), args.repeat)
        index_ms, index = timed(lambda: query.QueryIndex(loaded.model, "big"), args.repeat)
        print(f"model: {len(model.components)} components, {len(model.connections)} connections, "
              f"model.json {size / 1e6:.1f} MB; load {load_ms:.0f} ms, index {index_ms:.0f} ms (once per model)")

        stores = sorted((s for s in model.components if s.startswith(("dat-", "cac-", "bro-"))),
                        key=lambda s: -len(index.incoming(s)))
        services = sorted((s for s in model.components if s.startswith("ser-")), key=lambda s: -len(index.incoming(s)))
        deep = max((r for r in (query.impact(index, stores[0]).impacted) if r.component.id.startswith("ser-")),
                   key=lambda r: r.distance).component.id
        topic = next(iter(c.attributes["publishes"] for c in model.connections.values() if "publishes" in c.attributes))
        endpoint = next(f"{e.method} {e.path}" for c in model.components.values() for p in c.ports for e in p.endpoints)
        questions: list[tuple[str, str, dict[str, Any], Callable[[], Any]]] = [
            ("callers", stores[0], {"component": stores[0]}, lambda: query.callers(index, stores[0])),
            ("callers", services[0], {"component": services[0]}, lambda: query.callers(index, services[0])),
            ("callees", services[0], {"component": services[0]}, lambda: query.callees(index, services[0])),
            ("impact", stores[0], {"component": stores[0]}, lambda: query.impact(index, stores[0])),
            ("impact", stores[1], {"component": stores[1]}, lambda: query.impact(index, stores[1])),
            ("impact", services[0], {"component": services[0]}, lambda: query.impact(index, services[0])),
            ("path", f"user {stores[0]}", {"source": "user", "target": stores[0]}, lambda: query.path(index, "user", stores[0])),
            ("path", f"user {deep}", {"source": "user", "target": deep}, lambda: query.path(index, "user", deep)),
            ("uses", stores[0], {"subject": stores[0]}, lambda: query.uses(index, stores[0])),
            ("uses", topic, {"subject": topic}, lambda: query.uses(index, topic)),
            ("uses", endpoint, {"subject": endpoint}, lambda: query.uses(index, endpoint)),
            ("evidence", services[0], {"element": services[0]}, lambda: query.evidence(index, services[0])),
            ("unresolved", "", {}, lambda: query.unresolved(index)),
            ("components", "", {}, lambda: query.components(index)),
        ]

        import anyio
        from mcp import Client

        server = build_server(folder.parent)
        rows: list[tuple[str, str, float, float, float, float, int]] = []

        async def over_mcp() -> None:
            async with Client(server) as client:
                await client.call_tool("components", {"model": "big"})  # the server's index, built once
                for name, subject, arguments, ask in questions:
                    first = {"callers": query.callers, "callees": query.callees, "impact": query.impact,
                             "uses": query.uses, "evidence": query.evidence, "components": query.components,
                             "unresolved": query.unresolved, "path": query.path}[name]
                    cold_ms = float("inf")
                    for _ in range(args.repeat):  # on a fresh index: no element or link record made yet
                        cold_index = query.QueryIndex(loaded.model, "big")
                        t = time.perf_counter()
                        first(cold_index, *arguments.values())
                        cold_ms = min(cold_ms, (time.perf_counter() - t) * 1000)
                    lib_ms, answer = timed(ask, args.repeat)
                    server_ms = client_ms = float("inf")
                    for _ in range(args.repeat):
                        t = time.perf_counter()
                        result = await server.call_tool(name, {"model": "big", **arguments})
                        server_ms = min(server_ms, (time.perf_counter() - t) * 1000)
                        t = time.perf_counter()
                        result = await client.call_tool(name, {"model": "big", **arguments})
                        client_ms = min(client_ms, (time.perf_counter() - t) * 1000)
                    assert not result.is_error, result.content[0].text
                    size = len(json.dumps(result.structured_content))
                    rows.append((name, subject, cold_ms, lib_ms, server_ms, client_ms, size))

        anyio.run(over_mcp)

    print("library: the question on the model (first: on a fresh index; again: on the same index), best of --repeat;")
    print("server: MCPServer.call_tool (arguments, answer, output validation, serialisation); client: a round trip")
    print("through the SDK's in-process client, which also checks the answer against the tool's output schema.")
    print(f"{'question':<11} {'subject':<34} {'first':>8} {'again':>8} {'server':>8} {'client':>8} {'answer':>7}")
    worst = 0.0
    for name, subject, cold_ms, lib_ms, server_ms, client_ms, size in rows:
        worst = max(worst, cold_ms, lib_ms, server_ms)
        print(f"{name:<11} {subject[:34]:<34} {cold_ms:>6.1f}ms {lib_ms:>6.1f}ms {server_ms:>6.1f}ms {client_ms:>6.1f}ms "
              f"{size / 1000:>5.0f}kB")
    print(f"slowest answer (library or server) {worst:.1f} ms, budget {args.budget_ms:.0f} ms; slowest client round trip "
          f"{max(r[5] for r in rows):.1f} ms; median server {statistics.median(r[4] for r in rows):.1f} ms")
    sys.exit(0 if worst < args.budget_ms else 1)


if __name__ == "__main__":
    main()
