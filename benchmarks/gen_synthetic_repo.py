"""Generate a large synthetic multi-service monorepo for the performance benchmark.

Not a timed test: `benchmarks/perf.py` uses it when no real checkout is given.  The repository has
N services in four languages (Go, TypeScript, Python, Java), each with many ordinary source files
(functions, structs, loops) around a few architecture-relevant lines (routes, clients, env reads),
a compose file wiring them together, and is committed as a git repository.

    python benchmarks/gen_synthetic_repo.py /tmp/bigrepo --services 40 --files 25
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

LANGS = ("go", "ts", "py", "java")


def _go(svc: str, i: int, nxt: str, body: int) -> str:
    funcs = "\n".join(
        f"func helper{i}_{k}(xs []int) int {{\n\ttotal := 0\n\tfor _, x := range xs {{\n\t\tif x%{k + 2} == 0 {{\n"
        f"\t\t\ttotal += x * {k}\n\t\t}} else {{\n\t\t\ttotal -= x\n\t\t}}\n\t}}\n\treturn total\n}}\n"
        for k in range(body))
    head = f'package main\n\nimport (\n\t"net/http"\n\t"os"\n)\n\n'
    if i == 0:
        head += (f'func main() {{\n\thttp.HandleFunc("/{svc}/items", nil)\n'
                 f'\thttp.Get(os.Getenv("NEXT_URL") + "/items")\n\thttp.ListenAndServe(":8080", nil)\n}}\n\n')
    return head + funcs


def _ts(svc: str, i: int, nxt: str, body: int) -> str:
    funcs = "\n".join(
        f"export function helper{i}_{k}(xs: number[]): number {{\n  let total = 0;\n  for (const x of xs) {{\n"
        f"    if (x % {k + 2} === 0) {{ total += x * {k}; }} else {{ total -= x; }}\n  }}\n  return total;\n}}\n"
        for k in range(body))
    head = 'import express from "express";\n\n'
    if i == 0:
        head += (f'const app = express();\nconst NEXT = process.env.NEXT_URL;\n'
                 f'app.get("/{svc}/items", async (req, res) => res.json(await fetch(`${{NEXT}}/items`)));\n'
                 f'app.listen(8080);\n\n')
    return head + funcs


def _py(svc: str, i: int, nxt: str, body: int) -> str:
    funcs = "\n\n".join(
        f"def helper{i}_{k}(xs):\n    total = 0\n    for x in xs:\n        if x % {k + 2} == 0:\n"
        f"            total += x * {k}\n        else:\n            total -= x\n    return total\n"
        for k in range(body))
    head = "import os\n\nimport requests\nfrom flask import Flask\n\n"
    if i == 0:
        head += (f'app = Flask("{svc}")\n\n\n@app.route("/{svc}/items")\ndef items():\n'
                 f'    return requests.get(os.getenv("NEXT_URL") + "/items").text\n\n\n')
    return head + funcs


def _java(svc: str, i: int, nxt: str, body: int) -> str:
    methods = "\n".join(
        f"    public int helper{k}(int[] xs) {{\n        int total = 0;\n        for (int x : xs) {{\n"
        f"            if (x % {k + 2} == 0) {{ total += x * {k}; }} else {{ total -= x; }}\n        }}\n"
        f"        return total;\n    }}\n" for k in range(body))
    ann = (f'@RestController\n@RequestMapping("/{svc}")\n' if i == 0 else "")
    route = ('    @GetMapping("/items")\n    public String items() { return System.getenv("NEXT_URL"); }\n\n'
             if i == 0 else "")
    return (f"package com.acme.{svc.replace('-', '')};\n\nimport org.springframework.web.bind.annotation.*;\n\n"
            f"{ann}public class C{i} {{\n{route}{methods}}}\n")


GEN = {"go": (_go, "main{i}.go", "go.mod", "module example.com/{svc}\n\ngo 1.22\n"),
       "ts": (_ts, "src/mod{i}.ts", "package.json", '{{"name": "{svc}", "main": "src/mod0.ts"}}\n'),
       "py": (_py, "app{i}.py", "requirements.txt", "flask\nrequests\n"),
       "java": (_java, "src/main/java/C{i}.java", "pom.xml",
                "<project><artifactId>{svc}</artifactId></project>\n")}


def generate(root: Path, services: int, files: int, body: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    compose = ["services:"]
    for s in range(services):
        lang = LANGS[s % len(LANGS)]
        svc = f"svc-{lang}-{s}"
        nxt = f"svc-{LANGS[(s + 1) % len(LANGS)]}-{(s + 1) % services}"
        gen, pattern, manifest, manifest_text = GEN[lang]
        folder = root / svc
        for i in range(files):
            path = folder / pattern.format(i=i)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(gen(svc.replace("-", "_") if lang == "java" else svc, i, nxt, body))
        (folder / manifest).write_text(manifest_text.format(svc=svc))
        (folder / "Dockerfile").write_text("FROM scratch\nEXPOSE 8080\n")
        compose += [f"  {svc}:", f"    build: ./{svc}", "    environment:", f"      NEXT_URL: http://{nxt}:8080"]
    compose += ["  db:", "    image: postgres:16"]
    (root / "docker-compose.yml").write_text("\n".join(compose) + "\n")
    env = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "b@example.com", "PATH": "/usr/bin:/bin:/usr/local/bin"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "synthetic"], cwd=root, check=True, env=env)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--services", type=int, default=40)
    ap.add_argument("--files", type=int, default=25, help="source files per service")
    ap.add_argument("--body", type=int, default=60, help="helper functions per file (file size)")
    ns = ap.parse_args()
    generate(ns.out, ns.services, ns.files, ns.body)
    n = sum(1 for p in ns.out.rglob("*") if p.is_file() and ".git" not in p.parts)
    size = sum(p.stat().st_size for p in ns.out.rglob("*") if p.is_file() and ".git" not in p.parts)
    print(f"{ns.out}: {n} files, {size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
