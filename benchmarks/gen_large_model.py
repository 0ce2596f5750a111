"""Generate a large synthetic model folder and (optionally) time the viewer on it in chromium.

Why: the explorer must stay interactive on a 2,000-component model. This writes
`OUT/<name>/{model.json,model.sysml,run.json}` with a realistic mix of kinds, protocols,
endpoints and evidence, then, with --measure, serves it on 127.0.0.1, opens the explorer in
headless chromium and prints the browser-side timings (data load, element build, layout,
total) plus the time a search takes to narrow the graph.

    python benchmarks/gen_large_model.py --components 2000 --out /tmp/bigmodels --measure
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

KINDS = ["service"] * 12 + ["database"] * 3 + ["cache", "broker", "gateway", "external", "library"]
PROTOCOL_FOR = {"database": "sql", "cache": "redis", "broker": "amqp", "external": "http", "library": "tcp"}
LANGS = ["python", "go", "java", "typescript", "csharp", "rust"]


def generate(components: int, repos: int, seed: int = 7) -> tuple[dict, str]:
    """Return (model dict, sysml text) with `components` nodes spread over `repos` repositories."""
    rnd = random.Random(seed)
    repo_names = [f"repo-{i:02d}" for i in range(repos)]
    nodes, edges, sysml = [], [], ["package big {", "    part def Service;", "    part def Database;"]
    by_repo: dict[str, list[dict]] = {r: [] for r in repo_names}
    for i in range(components):
        repo = repo_names[i % repos]
        kind = rnd.choice(KINDS)
        name = f"{kind[:3]}-{i:04d}"
        ev = [{"repository": repo, "path": f"svc{i}/deploy.yaml", "line": rnd.randint(1, 80)}]
        ports = []
        if kind == "service":
            eps = [
                {"method": rnd.choice(["GET", "POST", "PUT"]), "path": f"/api/{name}/items/{j}",
                 "evidence": [{"repository": repo, "path": f"svc{i}/routes.py", "line": 10 + j}]}
                for j in range(rnd.randint(0, 4))
            ]
            ports.append({"name": "http", "protocol": "http", "direction": "provided", "endpoints": eps})
        node = {"id": name, "name": name, "kind": kind, "repository": repo,
                "language": rnd.choice(LANGS) if kind == "service" else None,
                "evidence": ev, "attributes": {"source_root": f"svc{i}"}, "ports": ports}
        nodes.append(node)
        by_repo[repo].append(node)
    for repo in repo_names:
        sysml.append(f"    part '{repo}' {{")
        for node in by_repo[repo]:
            sysml.append(f"        part '{node['name']}' : {node['kind'].capitalize()} {{")
            ev = node["evidence"][0]
            sysml.append(f"            @SourceRef {{ repository = \"{ev['repository']}\"; path = \"{ev['path']}\"; line = {ev['line']}; }}")
            sysml.append("        }")
        sysml.append("    }")
    services = [n for n in nodes if n["kind"] == "service"]
    seen = set()
    for src in services:
        for _ in range(rnd.randint(1, 3)):
            local = by_repo[src["repository"]] if rnd.random() < 0.8 else nodes
            dst = rnd.choice(local)
            if dst is src:
                continue
            proto = PROTOCOL_FOR.get(dst["kind"], rnd.choice(["http", "http", "grpc"]))
            eid = f"{src['id']}->{dst['id']}:{proto}"
            if eid in seen:
                continue
            seen.add(eid)
            attrs = {"topic": f"events.{dst['id']}"} if proto == "amqp" else {"via": f"env {dst['id'].upper()}_URL"}
            edges.append({"id": eid, "source": src["id"], "target": dst["id"],
                          "kind": "publishes" if proto == "amqp" else ("uses" if proto in ("sql", "redis") else "calls"),
                          "protocol": proto, "attributes": attrs,
                          "evidence": [{"repository": src["repository"], "path": f"{src['attributes']['source_root']}/client.py", "line": rnd.randint(1, 200)}]})
            sysml.append(f"    connection '{src['name']}-{dst['name']}-{proto}' connect '{src['name']}' to '{dst['name']}';")
    sysml.append("}")
    model = {
        "schema": "repomodeler/model@1", "name": f"synthetic-{components}",
        "repositories": [{"name": r, "url": f"https://github.com/example/{r}", "commit": f"{i:040x}", "ref": "main"} for i, r in enumerate(repo_names)],
        "nodes": nodes, "edges": edges, "warnings": [],
        "stats": {"files": components * 3, "skipped": {}, "components": len(nodes), "connections": len(edges),
                  "endpoints": sum(len(p["endpoints"]) for n in nodes for p in n["ports"])},
    }
    return model, "\n".join(sysml) + "\n"


def write(out: Path, name: str, components: int, repos: int) -> Path:
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    model, sysml = generate(components, repos)
    (folder / "model.json").write_text(json.dumps(model, indent=1))
    (folder / "model.sysml").write_text(sysml)
    (folder / "run.json").write_text(json.dumps({"analysed_at": "2026-01-01T00:00:00Z", "duration_s": 0, "version": "bench", "repositories": []}))
    return folder


def measure(models_dir: Path, name: str, query: str = "ser-00") -> dict:
    """Serve `models_dir`, open the explorer in chromium, return the browser's timings."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from repomodeler.serve.background import background_server

    with background_server(models_dir) as base:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            start = time.perf_counter()
            page.goto(f"{base}/models/{name}")
            page.wait_for_selector("#explorer[data-ready='true']", state="attached", timeout=120_000)
            wall = time.perf_counter() - start
            timings = page.evaluate("window.__timings")
            timings["wall_until_ready_ms"] = round(wall * 1000)
            shots = Path(__file__).resolve().parents[1] / "test-artifacts"
            shots.mkdir(exist_ok=True)
            page.screenshot(path=str(shots / f"bench-{name}-loaded.png"))
            t = page.evaluate(
                """(q) => { const t0 = performance.now(); window.explorer.state.q = q;
                     document.getElementById('search').value = q;
                     document.getElementById('search').dispatchEvent(new Event('input'));
                     return new Promise(r => setTimeout(() => r([performance.now() - t0 - 120,
                        window.explorer.visibleNodeIds().length]), 200)); }""",
                query,
            )
            timings["search_ms_approx"] = round(max(t[0], 0))
            timings["search_visible"] = t[1]
            t0 = time.perf_counter()
            page.click("#btn-expand")
            page.evaluate("new Promise(r => requestAnimationFrame(() => r()))")
            timings["expand_all_relayout_ms"] = round((time.perf_counter() - t0) * 1000)
            timings["after_expand"] = page.evaluate("({layout: window.__timings.layout, layout_ms: window.__timings.layout_ms, build_ms: window.__timings.build_ms})")
            page.screenshot(path=str(shots / f"bench-{name}-searched.png"))
            timings["screenshots"] = str(shots / f"bench-{name}-*.png")
            browser.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--components", type=int, default=2000)
    parser.add_argument("--repos", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("/tmp/repomodeler-bench"))
    parser.add_argument("--name", default=None)
    parser.add_argument("--measure", action="store_true", help="time the explorer in headless chromium")
    args = parser.parse_args()
    name = args.name or f"large-{args.components}"
    folder = write(args.out, name, args.components, args.repos)
    model = json.loads((folder / "model.json").read_text())
    print(f"wrote {folder}: {len(model['nodes'])} components, {len(model['edges'])} connections")
    if args.measure:
        print(json.dumps(measure(args.out, name), indent=2))


if __name__ == "__main__":
    main()
