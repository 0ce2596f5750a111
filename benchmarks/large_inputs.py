"""Bounded resources on hostile-sized inputs: time and peak memory of the whole process tree.

    python benchmarks/large_inputs.py                     # all cases, default sizes (several minutes)
    python benchmarks/large_inputs.py --only compose --services 2000
    python benchmarks/large_inputs.py --only js,diff --json

Cases (each run as `python -m repomodeler ...` in a child process with its own $REPOMODELER_HOME):

* ``compose``  - ``analyze --max-file-size 50000000`` of a git repository whose one
  docker-compose.yml (1.4 MB) declares N services (default 10,000), each calling the next over
  HTTP (an environment URL; ``--depends-on``: and listing it under depends_on); with the SysML
  check on (the default), so the engine's memory counts.
* ``js``       - ``analyze --max-file-size`` (raised above the file) of a repository holding one
  JavaScript file of one line (default 30 MB: a call, then a table of 15 million numbers) plus a
  small normal one.
* ``diff``     - ``check --target A.sysml`` of a small repository, where A is a target of N parts
  (default 100,000; 32 MB), then ``diff SMALL.sysml A.sysml`` (one big side, as check has) and
  ``diff A.sysml B.sysml`` (B renames a few parts and retypes a few connections), both printing
  the table; the note gives each diff's time as a multiple of check's.

Peak memory is the largest *sum* of the resident set sizes of the command and all of its
descendants (pool workers, the SysML engine, git), sampled from /proc every 20 ms; Linux only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = os.sysconf("SC_PAGE_SIZE")


# -- measuring ---------------------------------------------------------------------------------
def _tree_rss(root: int) -> int:
    """Bytes resident in `root` and all its descendants now."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
            with open(f"/proc/{pid}/statm", "rb") as fh:
                rss[pid] = int(fh.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            continue
        ppid = int(stat[stat.rindex(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(pid)
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, ()))
    return total


def measure(cmd: list[str], env: dict[str, str], cwd: Path | None = None, timeout: float = 1800) -> dict[str, object]:
    """Run `cmd`; return wall and CPU seconds (the CPU of the command and every descendant it
    waited for, e.g. the SysML engine), peak tree RSS (MB), exit code and the end of its output."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    peak = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            done.wait(0.02)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    seconds = time.perf_counter() - started
    done.set()
    poller.join()
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    text = out.decode("utf-8", "replace")
    exit_code: object = proc.returncode if seconds < timeout else f"timeout {timeout:.0f}s"
    return {"seconds": round(seconds, 2), "cpu": round(cpu, 2), "peak_mb": round(peak / 2**20), "exit": exit_code,
            "tail": text.strip().splitlines()[-40:]}


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "REPOMODELER_HOME": str(home), "PYTHONPATH": str(ROOT),
            "GIT_CONFIG_NOSYSTEM": "1"}


def _git_repo(path: Path, files: dict[str, bytes]) -> Path:
    path.mkdir(parents=True)
    for rel, data in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_bytes(data)
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "bench"]):
        subprocess.run(["git", "-C", str(path), *args], check=True, env=env)
    return path


# -- inputs ------------------------------------------------------------------------------------
def compose_text(services: int, depends_on: bool = False) -> str:
    """N services; each calls the next over HTTP (an environment URL), and with `depends_on` also
    lists it under depends_on."""
    lines = ["services:"]
    for i in range(services):
        nxt = (i + 1) % services
        lines += [f"  svc{i:05d}:", f"    image: example/svc{i:05d}:1.0", "    ports:", "      - \"8080\"",
                  "    environment:", f"      NEXT_URL: http://svc{nxt:05d}:8080/api"]
        if depends_on:
            lines += ["    depends_on:", f"      - svc{nxt:05d}"]
    return "\n".join(lines) + "\n"


def one_line_js(megabytes: int) -> bytes:
    """One line of ~`megabytes` MB: a call to a service, then a data table of one-digit numbers
    (a syntax node every two bytes, the densest tree JavaScript makes)."""
    head = b"fetch('http://orders:8080/orders');const table=["
    count = max(0, (megabytes * 1_000_000 - len(head) - 3) // 2)
    return head + b"1," * count + b"1];\n"


def target_sysml(parts: int, variant: int = 0) -> str:
    """A hand-written style target of `parts` parts and ~parts connections (variant 1 renames a few
    parts and retypes a few connections, so a diff has something to report)."""
    from repomodeler.diff.target import render_target
    from repomodeler.diff.view import ArchModel, ModelComponent, ModelConnection, ModelEndpoint, ModelPort

    model = ArchModel(name="big", origin="benchmark")
    ids = []
    for i in range(parts):
        cid = f"svc-{i:06d}" if not (variant and i % 997 == 0) else f"svc_{i:06d}"
        kind = "database" if i % 10 == 9 else "service"
        comp = ModelComponent(id=cid, kind=kind, attributes={"language": "go"} if kind == "service" else {})
        if kind == "service" and i % 5 == 0:
            comp.ports["http"] = ModelPort("http", "http", endpoints=[ModelEndpoint("GET", f"/api/{i}")])
        model.components[cid] = comp
        ids.append((cid, kind))
    for i, (cid, kind) in enumerate(ids):
        if kind != "service":
            continue
        tgt, tkind = ids[(i + 1) % parts]
        proto = "sql" if tkind == "database" else ("grpc" if variant and i % 499 == 0 else "http")
        model.connections.append(ModelConnection(cid, tgt, proto))
    return render_target(model)


# -- cases -------------------------------------------------------------------------------------
def case_compose(tmp: Path, services: int, extra: list[str], timeout: float,
                 depends_on: bool = False) -> list[dict[str, object]]:
    repo = _git_repo(tmp / "compose-repo", {"docker-compose.yml": compose_text(services, depends_on).encode()})
    cmd = [sys.executable, "-m", "repomodeler", "analyze", str(repo), "--out", str(tmp / "compose-out"),
           "--quiet", "--max-file-size", "50000000", *extra]
    r = measure(cmd, _env(tmp / "home-compose"), timeout=timeout)
    return [{"case": f"analyze compose, {services:,} services" + (" +depends_on" if depends_on else ""), **r}]


def case_js(tmp: Path, megabytes: int, timeout: float) -> list[dict[str, object]]:
    repo = _git_repo(tmp / "js-repo", {"lib/big.js": one_line_js(megabytes),
                                        "app.js": b"fetch('http://orders:8080/orders');\n"})
    cmd = [sys.executable, "-m", "repomodeler", "analyze", str(repo), "--out", str(tmp / "js-out"), "--quiet",
           "--max-file-size", str(megabytes * 1_000_000 + 10_000_000), "--no-validate"]
    r = measure(cmd, _env(tmp / "home-js"), timeout=timeout)
    return [{"case": f"analyze one-line JS, {megabytes} MB", **r}]


def case_diff(tmp: Path, parts: int, timeout: float) -> list[dict[str, object]]:
    sys.path.insert(0, str(ROOT))
    a, b, small = tmp / "a.sysml", tmp / "b.sysml", tmp / "small.sysml"
    a.write_text(target_sysml(parts), encoding="utf-8")
    b.write_text(target_sysml(parts, variant=1), encoding="utf-8")
    small.write_text(target_sysml(3), encoding="utf-8")
    repo = _git_repo(tmp / "small-repo", {"app.js": b"fetch('http://svc-000001:8080/api/1');\n"})
    env = _env(tmp / "home-diff")
    rm = [sys.executable, "-m", "repomodeler"]
    c = measure([*rm, "check", "--target", str(a), str(repo)], env, timeout=timeout)
    one = measure([*rm, "diff", str(small), str(a)], env, timeout=timeout)
    two = measure([*rm, "diff", str(a), str(b)], env, timeout=timeout)

    def ratio(r: dict[str, object]) -> str:
        return f"{r['seconds'] / c['seconds']:.2f}x check" if c["seconds"] else ""

    c["exit"] = f"{c['exit']} (violations)" if c["exit"] == 1 else c["exit"]
    return [{"case": f"check --target {parts:,}-part .sysml", **c},
            {"case": f"diff 3-part {parts:,}-part (table)", **one, "note": ratio(one)},
            {"case": f"diff {parts:,}-part variant (table)", **two, "note": ratio(two)}]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", default="compose,js,diff", help="comma-separated cases: compose, js, diff")
    ap.add_argument("--services", type=int, default=10_000)
    ap.add_argument("--depends-on", action="store_true",
                    help="compose services also list the next one under depends_on (slower: resolving them is "
                         "quadratic in graph/connections.py depends_connections)")
    ap.add_argument("--js-mb", type=int, default=30)
    ap.add_argument("--parts", type=int, default=100_000)
    ap.add_argument("--timeout", type=float, default=900, help="seconds before a command is killed (default 900)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    ap.add_argument("analyze_args", nargs="*", help="extra analyze options for the compose case (after --)")
    ns = ap.parse_args()
    wanted = {w.strip() for w in ns.only.split(",") if w.strip()}
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rm-large-") as tmp_s:
        tmp = ns.keep or Path(tmp_s)
        tmp.mkdir(parents=True, exist_ok=True)
        if "compose" in wanted:
            rows += case_compose(tmp, ns.services, ns.analyze_args, ns.timeout, ns.depends_on)
        if "js" in wanted:
            rows += case_js(tmp, ns.js_mb, ns.timeout)
        if "diff" in wanted:
            rows += case_diff(tmp, ns.parts, ns.timeout)
    if ns.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'case':40} {'wall s':>8} {'CPU s':>8} {'peak MB':>8} {'exit':>16}  note")
    for r in rows:
        print(f"{r['case']:40} {r['seconds']:>8} {r['cpu']:>8} {r['peak_mb']:>8} {str(r['exit']):>16}  {r.get('note', '')}")
    for r in rows:
        if r["exit"] not in (0, "1 (violations)"):
            print(f"\n{r['case']} exited {r['exit']}:\n  " + "\n  ".join(r["tail"]))


if __name__ == "__main__":
    main()
