"""A whole organisation: generate N realistic repositories and time ``analyze --inputs`` on them.

Not a timed test.  Each generated repository is one service of a *domain* (five repositories a
domain: ``<domain>-api`` in Python, ``<domain>-worker`` in Python, ``<domain>-svc`` in Go,
``<domain>-web`` in TypeScript, ``<domain>-lib`` an npm library), with 30 to 300 files (packages of
ordinary code around a few architecture lines), a compose file or Kubernetes manifests, calls to
services of its own and of other domains (``PEER_URL: http://<repo>:8080``), RabbitMQ topics one
domain publishes and another consumes, and npm dependencies on other domains' libraries.  The
inputs file names one system per domain.

    python benchmarks/org.py generate /tmp/org --repos 100          # repositories + /tmp/org/inputs.yml
    python benchmarks/org.py run /tmp/org --engine local --jobs 2   # cold, then a 1 %-changed rerun
    python benchmarks/org.py run /tmp/org --engine dask --jobs 2
    python benchmarks/org.py all /tmp/orgbench --repos 100 500      # both engines, both sizes, a table

``run`` uses a fresh ``REPOMODELER_HOME`` (no cache), reports cold wall time, files per second per
core, the driver's peak RSS (VmHWM of the ``repomodeler`` process, sampled), then changes one file
in 1 % of the repositories (a new commit) and reports the rerun.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ("billing", "catalog", "checkout", "delivery", "identity", "inventory", "ledger", "loyalty", "media",
         "notify", "orders", "payments", "pricing", "profile", "ratings", "search", "shipping", "tickets")
ROLES = ("api", "worker", "svc", "web", "lib")


def _domain(i: int) -> str:
    return f"{WORDS[i % len(WORDS)]}{i // len(WORDS) or ''}"


def _filler_py(pkg: str, k: int, rnd: random.Random) -> str:
    funcs = "\n\n".join(
        f"def {pkg}_step_{k}_{j}(values):\n    total = 0\n    for v in values:\n        if v % {j + 2} == 0:\n"
        f"            total += v * {j}\n        else:\n            total -= v\n    return total"
        for j in range(rnd.randint(2, 6)))
    return f'"""Helpers {k} of {pkg}."""\nimport math\n\nfrom . import util\n\n\n{funcs}\n'


def _filler_go(pkg: str, k: int, rnd: random.Random) -> str:
    funcs = "\n".join(
        f"func Step{k}x{j}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n\t\tif x%{j + 2} == 0 {{\n"
        f"\t\t\ttotal += x * {j}\n\t\t}} else {{\n\t\t\ttotal -= x\n\t\t}}\n\t}}\n\treturn total\n}}\n"
        for j in range(rnd.randint(2, 6)))
    return f"// Package {pkg} holds helpers.\npackage {pkg}\n\n{funcs}"


def _filler_ts(pkg: str, k: int, rnd: random.Random) -> str:
    funcs = "\n".join(
        f"export function step{k}x{j}(xs: number[]): number {{\n  let total = 0;\n  for (const x of xs) {{\n"
        f"    if (x % {j + 2} === 0) {{ total += x * {j}; }} else {{ total -= x; }}\n  }}\n  return total;\n}}\n"
        for j in range(rnd.randint(2, 6)))
    return f'import {{ clamp }} from "../util";\n\n{funcs}'


def _peers(i: int, role: int, n: int, rnd: random.Random) -> list[int]:
    """Repositories this one calls: one of its own domain, sometimes one of another domain."""
    base = i - role
    own = [base + r for r in range(len(ROLES)) if r != role and ROLES[r] != "lib" and base + r < n]
    peers = [rnd.choice(own)] if own else []
    if rnd.random() < 0.4 and n > len(ROLES):
        other = rnd.randrange(0, n // len(ROLES)) * len(ROLES)
        if other != base:
            peers.append(other)  # the other domain's api
    return peers


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _repo_name(i: int) -> str:
    return f"{_domain(i // len(ROLES))}-{ROLES[i % len(ROLES)]}"


def generate_repo(root: Path, i: int, n: int, seed: int = 7) -> int:
    """One repository; returns its number of files."""
    rnd = random.Random(seed * 100_003 + i)
    role = i % len(ROLES)
    name = _repo_name(i)
    domain = _domain(i // len(ROLES))
    target = rnd.randint(30, 300)
    peers = [_repo_name(p) for p in _peers(i, role, n, rnd)]
    other_domain = _domain(rnd.randrange(0, max(1, n // len(ROLES))))
    env = {f"PEER{k}_URL": f"http://{p}:8080" for k, p in enumerate(peers)}
    kind = ROLES[role]
    files = 0
    if kind in ("api", "worker"):
        calls = "\n".join(f'    requests.get(os.getenv("PEER{k}_URL") + "/items")' for k in range(len(peers)))
        if kind == "api":
            main = (f'"""{name}: the {domain} API."""\nimport os\n\nimport pika\nimport requests\nfrom fastapi import FastAPI\n\n'
                    f'app = FastAPI()\n\n\n@app.get("/{domain}/items")\ndef items():\n{calls or "    pass"}\n    return []\n\n\n'
                    f'@app.post("/{domain}/items")\ndef create(item: dict):\n'
                    f'    channel = pika.BlockingConnection(pika.URLParameters(os.getenv("AMQP_URL"))).channel()\n'
                    f'    channel.basic_publish(exchange="", routing_key="{domain}.created", body=str(item))\n    return item\n')
        else:
            main = (f'"""{name}: consumes {other_domain}.created."""\nimport os\n\nimport pika\nimport requests\n\n\n'
                    f'def handle(ch, method, properties, body):\n{calls or "    pass"}\n\n\n'
                    f'def main():\n    channel = pika.BlockingConnection(pika.URLParameters(os.getenv("AMQP_URL"))).channel()\n'
                    f'    channel.basic_consume(queue="{other_domain}.created", on_message_callback=handle)\n'
                    f'    channel.start_consuming()\n\n\nif __name__ == "__main__":\n    main()\n')
        _write(root, "app/main.py", main)
        _write(root, "app/__init__.py", "")
        _write(root, "app/util.py", "def clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n")
        _write(root, "requirements.txt", "fastapi==0.110.0\nrequests==2.31.0\npika==1.3.2\n")
        _write(root, "Dockerfile", "FROM python:3.12-slim\nCOPY . /app\nCMD [\"python\", \"-m\", \"app.main\"]\n")
        files += 5
        filler, ext = _filler_py, "py"
    elif kind == "svc":
        calls = "\n".join(f'\thttp.Get(os.Getenv("PEER{k}_URL") + "/items")' for k in range(len(peers)))
        _write(root, "go.mod", f"module github.com/acme/{name}\n\ngo 1.22\n")
        _write(root, "main.go", f'package main\n\nimport (\n\t"net/http"\n\t"os"\n)\n\nfunc items(w http.ResponseWriter, r *http.Request) {{\n'
               f'{calls}\n\tw.Write([]byte("[]"))\n}}\n\nfunc main() {{\n\thttp.HandleFunc("GET /{domain}/stock", items)\n'
               f'\thttp.ListenAndServe(":8080", nil)\n}}\n')
        _write(root, "Dockerfile", "FROM golang:1.22\nCOPY . /src\nRUN go build -o /svc .\nCMD [\"/svc\"]\n")
        files += 3
        filler, ext = _filler_go, "go"
    else:
        deps = {"express": "^4.19.0", "axios": "^1.7.0"}
        if kind == "web":
            deps[f"@acme/{domain}-lib"] = "^1.0.0"
            deps[f"@acme/{other_domain}-lib"] = "^1.0.0"
            calls = "\n".join(f'  await axios.get(`${{process.env.PEER{k}_URL}}/items`);' for k in range(len(peers)))
            _write(root, "src/index.ts", f'import express from "express";\nimport axios from "axios";\n\nconst app = express();\n'
                   f'app.get("/{domain}", async (req, res) => {{\n{calls}\n  res.json([]);\n}});\napp.listen(3000);\n')
            manifest = {"name": f"{name}", "version": "1.0.0", "main": "src/index.ts",
                        "scripts": {"start": "node dist/index.js"}, "dependencies": dict(sorted(deps.items()))}
        else:
            _write(root, "src/index.ts", f'export {{ clamp }} from "./util";\nexport const DOMAIN = "{domain}";\n')
            manifest = {"name": f"@acme/{domain}-lib", "version": "1.0.0", "main": "src/index.ts",
                        "dependencies": {"lodash": "^4.17.21"}}
        _write(root, "package.json", json.dumps(manifest, indent=2) + "\n")
        _write(root, "src/util.ts", "export function clamp(x: number, lo: number, hi: number): number {\n"
               "  return Math.max(lo, Math.min(hi, x));\n}\n")
        files += 3
        filler, ext = _filler_ts, "ts"
    if kind != "lib":
        env["AMQP_URL"] = "amqp://guest:guest@rabbitmq:5672/"
        if rnd.random() < 0.5:
            lines = "\n".join(f"      {k}: {v}" for k, v in sorted(env.items()))
            _write(root, "docker-compose.yml", f"services:\n  {name}:\n    build: .\n    environment:\n{lines}\n"
                   "  rabbitmq:\n    image: rabbitmq:3-management\n")
        else:
            lines = "\n".join(f"            - name: {k}\n              value: \"{v}\"" for k, v in sorted(env.items()))
            _write(root, "deploy/k8s.yaml",
                   f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n    spec:\n"
                   f"      containers:\n        - name: {name}\n          image: acme/{name}:1.0\n          env:\n{lines}\n"
                   f"---\napiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\nspec:\n  ports:\n    - port: 8080\n")
        files += 1
    packages = max(1, (target - files) // 12)
    k = 0
    while files < target:
        pkg = f"pkg{k % packages}"
        # every file names its repository, as real code differs from one repository to the next (identical
        # files at identical paths would all but one come from the extraction cache)
        if ext == "py":
            folder = f"app/{pkg}"
            if not (root / folder / "__init__.py").exists():
                _write(root, f"{folder}/__init__.py", f"# {name}\n")
                _write(root, f"{folder}/util.py", f"# {name}\ndef clamp(x, lo, hi):\n    return max(lo, min(hi, x))\n")
                files += 2
            _write(root, f"{folder}/mod{k}.py", f"# {name}\n" + filler(pkg, k, rnd))
        elif ext == "go":
            _write(root, f"internal/{pkg}/file{k}.go", f"// {name}\n" + filler(pkg, k, rnd))
        else:
            _write(root, f"src/{pkg}/mod{k}.ts", f"// {name}\n" + filler(pkg, k, rnd))
        files += 1
        k += 1
    return files


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    subprocess.run(["git", "-c", "user.email=bench@example.com", "-c", "user.name=bench", *args], cwd=root,
                   check=True, capture_output=True, env=env)


def generate(root: Path, n: int) -> Path:
    """N repositories under root/repos, and root/inputs.yml with one system per domain."""
    repos = root / "repos"
    shutil.rmtree(root, ignore_errors=True)
    repos.mkdir(parents=True)
    systems: dict[str, list[str]] = {}
    total = 0
    for i in range(n):
        name = _repo_name(i)
        path = repos / name
        path.mkdir()
        total += generate_repo(path, i, n)
        _git(path, "init", "-q", "-b", "main")
        _git(path, "add", "-A")
        _git(path, "commit", "-qm", "initial")
        systems.setdefault(_domain(i // len(ROLES)), []).append(str(path))
    lines = ["systems:"]
    for name, members in systems.items():
        lines.append(f"  {name}:")
        lines.extend(f"    - {m}" for m in members)
    (root / "inputs.yml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"generated {n} repositories, {total} files, {len(systems)} systems in {root}", file=sys.stderr)
    return root / "inputs.yml"


def change_one_percent(root: Path) -> list[str]:
    """Change one file in 1 % of the repositories (at least one), each a new commit."""
    repos = sorted((root / "repos").iterdir())
    step = max(1, len(repos) // max(1, len(repos) // 100))
    changed = []
    for path in repos[::step][:max(1, len(repos) // 100)]:
        source = next(p for p in sorted(path.rglob("*")) if ".git" not in p.parts and p.suffix in (".py", ".ts", ".go"))
        with source.open("a", encoding="utf-8") as fh:
            fh.write("\n// changed\n" if source.suffix in (".ts", ".go") else "\n# changed\n")
        _git(path, "commit", "-qam", "change")
        changed.append(path.name)
    return changed


def _peak_rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def timed_run(inputs: Path, out: Path, home: Path, engine: str, jobs: int) -> dict[str, float]:
    """One `repomodeler analyze --inputs` as a new process: wall time and the driver's peak RSS."""
    cmd = [sys.executable, "-m", "repomodeler", "analyze", "--inputs", str(inputs), "--out", str(out), "--name", "org",
           "--engine", engine, "--jobs", str(jobs), "--no-validate", "--cache-dir", str(home / "landscape")]
    env = {**os.environ, "REPOMODELER_HOME": str(home)}
    load_before = os.getloadavg()[0]  # the machine is shared: say how busy it was
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, _peak_rss(proc.pid))
        time.sleep(0.1)
    wall = time.perf_counter() - started
    stdout, stderr = proc.communicate()
    if proc.returncode != 0:
        raise SystemExit(f"analyze failed ({proc.returncode}): {stderr.decode()[-2000:]}")
    run = json.loads((out / "landscape-run.json").read_text())
    return {"wall_s": round(wall, 2), "driver_peak_rss_mb": round(peak / 2**20, 1), "parsed_files": run["parsed_files"],
            "resolved": len(run["resolved"]), "extracted": len(run["extracted"]),
            "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],  # before, after
            "phases_s": run.get("timings", {})}


def run_bench(root: Path, engine: str, jobs: int) -> dict[str, object]:
    inputs = root / "inputs.yml"
    work = Path(tempfile.mkdtemp(prefix=f"orgbench-{engine}-"))
    try:
        cold = timed_run(inputs, work / "out", work / "home", engine, jobs)
        cold["files_per_s_per_core"] = round(cold["parsed_files"] / cold["wall_s"] / jobs, 1)
        changed = change_one_percent(root)
        rerun = timed_run(inputs, work / "out", work / "home", engine, jobs)
        # put the repositories back as they were for the next engine: the changed commits are reverted
        for name in changed:
            _git(root / "repos" / name, "reset", "-q", "--hard", "HEAD~1")
        return {"engine": engine, "jobs": jobs, "repositories": sum(1 for _ in (root / "repos").iterdir()),
                "cold": cold, "rerun_1pct": rerun, "rerun_share_of_cold": round(rerun["wall_s"] / cold["wall_s"], 3),
                "models_dir": str(work / "out")}
    finally:
        shutil.rmtree(work / "home", ignore_errors=True)


def _model_files(out: Path) -> dict[str, bytes]:
    """Every model file of a landscape folder (run records, which hold times, aside)."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.suffix in (".json", ".sysml") and not p.name.endswith("run.json")
            and not p.name.startswith(".")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("root", type=Path)
    g.add_argument("--repos", type=int, default=20)
    r = sub.add_parser("run")
    r.add_argument("root", type=Path)
    r.add_argument("--engine", choices=("local", "dask"), default="local")
    r.add_argument("--jobs", type=int, default=2)
    a = sub.add_parser("all")
    a.add_argument("root", type=Path)
    a.add_argument("--repos", type=int, nargs="+", default=[100, 500])
    a.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.root, args.repos)
    elif args.command == "run":
        print(json.dumps(run_bench(args.root, args.engine, args.jobs), indent=2))
    else:
        results = []
        for n in args.repos:
            generate(args.root / str(n), n)
            outs = []
            for engine in ("local", "dask"):
                result = run_bench(args.root / str(n), engine, args.jobs)
                print(json.dumps(result), flush=True)
                results.append(result)
                outs.append(Path(result["models_dir"]))
            same = _model_files(outs[0]) == _model_files(outs[1])
            print(f"{n} repositories: local and dask models byte-identical: {same}", flush=True)
        print("| repositories | engine | cold wall | files/s/core | driver peak RSS | 1 % rerun | rerun / cold |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for res in results:
            c, rr = res["cold"], res["rerun_1pct"]
            print(f"| {res['repositories']} | {res['engine']} | {c['wall_s']} s | {c['files_per_s_per_core']} | "
                  f"{c['driver_peak_rss_mb']} MB | {rr['wall_s']} s | {res['rerun_share_of_cold']:.1%} |")


if __name__ == "__main__":
    main()
