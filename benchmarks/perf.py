"""Performance benchmark: how long `analyze` takes against the floor of parsing the same files.

    python benchmarks/perf.py [REPO] [--local] [--repeat N] [--json]

REPO is a git checkout (default: a generated monorepo).  Prints, both ways:

  * raw parse   - tree-sitter parsing alone of every analysable source file, one thread, in this
                  process (the floor; the minimum of --repeat runs);
  * in-process  - `analyze` called as a function: cold (empty cache, queries compiled afresh) with
                  and without the SysML check, a rerun with no change, a rerun after a one-file
                  change; ratios against raw parse (targets 1.5, 0.05, 0.10);
  * as users run it - each analysis a new `repomodeler` process (interpreter start, imports, git,
                  the SysML engine), cold with an empty cache, with and without the SysML check,
                  and no-change reruns (target < 0.3 s);
  * peak RSS of a cold run in a child process, and the machine's load average (`uptime`): the
    machine may be shared, so every cold figure is the minimum of --repeat runs, and CPU seconds
    (of all processes of a run, against the raw parse's) are given beside wall times: on a busy
    machine they still say how much work a run does, where wall times mostly say how busy it was.

The module's bytecode is compiled first and child processes may write it (as an installed package
has it), even when the environment sets PYTHONDONTWRITEBYTECODE.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repomodeler.acquire import acquire_one, parse_input  # noqa: E402
from repomodeler.inventory import BlobReader, build_inventory  # noqa: E402
from repomodeler.languages import load_language  # noqa: E402
from repomodeler.pipeline import AnalyzeOptions, analyze  # noqa: E402


def raw_parse_seconds(repo_path: Path, repeat: int = 3) -> tuple[float, int, int]:
    import tree_sitter

    repo = acquire_one(parse_input(str(repo_path)))
    inv = build_inventory(repo)
    files = [f for f in inv.files if f.role == "source" and f.language]
    contents = BlobReader(repo).read_many(files)
    parsers = {lang: tree_sitter.Parser(load_language(lang)) for lang in {f.language for f in files}}
    best = best_cpu = float("inf")
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        for f in files:
            parsers[f.language].parse(contents[f.path])
        best, best_cpu = min(best, time.perf_counter() - t), min(best_cpu, time.process_time() - c)
    RAW_CPU[0] = best_cpu
    return best, len(files), sum(len(c) for c in contents.values())


RAW_CPU = [0.0]  # CPU seconds of the fastest raw parse: the work ratio holds on a busy machine too


def timed_analyze(inputs: list[str], out: Path, cold: bool = False, **kw) -> float:
    if cold:  # a cold run also compiles the queries: forget what this process compiled before
        from repomodeler.extract import engine

        engine.compiled_queries.cache_clear()
        engine._parser.cache_clear()
    t = time.perf_counter()
    analyze(inputs, AnalyzeOptions(out=out, accept_drop=True, **kw))
    return time.perf_counter() - t


def peak_rss_mb(repo: str, home: Path) -> float:
    code = ("import sys; from pathlib import Path; sys.path.insert(0, %r); "
            "from repomodeler.pipeline import AnalyzeOptions, analyze; "
            "analyze([%r], AnalyzeOptions(out=Path(%r)))") % (
        str(Path(__file__).resolve().parent.parent), repo, str(home / "rss-out"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "REPOMODELER_HOME": str(home / "rss")})
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(before, after) / 1024


ROOT = Path(__file__).resolve().parent.parent


def child_env(home: Path) -> dict[str, str]:
    """A user's environment: bytecode cached like an installed package's, its own repomodeler home."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "REPOMODELER_HOME": str(home), "PYTHONPATH": str(ROOT)}


def compile_bytecode() -> None:
    """What `pip install` does: the package's modules compiled, so start-up measures imports, not compiling."""
    import compileall

    compileall.compile_dir(str(ROOT / "repomodeler"), quiet=1)


def cli_run(args: list[str], home: Path) -> tuple[float, float]:
    """One `repomodeler` process as a user starts it: (wall seconds, CPU seconds of the process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "repomodeler", *args], check=True, stdout=subprocess.DEVNULL,
                   env=child_env(home))
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cli_figures(url: str, tmp: Path, raw: float, repeat: int, reruns: int = 5) -> dict[str, object]:
    """Cold analyses (minimum of `repeat`, each with an empty cache) and no-change reruns, each a new process."""
    figures: dict[str, object] = {}
    for label, extra in (("cli_cold", []), ("cli_cold_no_validate", ["--no-validate"])):
        runs = []
        for i in range(repeat):
            runs.append(cli_run(["analyze", url, "--out", str(tmp / f"{label}-{i}"), "-q", *extra], tmp / f"{label}-home-{i}"))
        wall, cpu = min(runs)
        figures.update({f"{label}_s": round(wall, 3), f"{label}_cpu_s": round(cpu, 3),
                        f"{label}_over_raw": round(wall / raw, 2),
                        f"{label}_cpu_over_raw_cpu": round(cpu / RAW_CPU[0], 2) if RAW_CPU[0] else None})
    out, home = tmp / "cli_cold-0", tmp / "cli_cold-home-0"
    runs = sorted(cli_run(["analyze", url, "--out", str(out)], home) for _ in range(reruns))
    timings = json.loads((out / "run.json").read_text(encoding="utf-8"))
    figures.update({"cli_nochange_s": round(runs[len(runs) // 2][0], 3), "cli_nochange_min_s": round(runs[0][0], 3),
                    "cli_nochange_cpu_s": round(sorted(c for _w, c in runs)[len(runs) // 2], 3),
                    "cli_nochange_unchanged": bool(timings.get("unchanged"))})
    return figures


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repo", nargs="?", type=Path)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--local", action="store_true",
                    help="analyse the checkout as a local path instead of cloning it by file:// URL "
                         "(for snapshots with missing objects, which git refuses to serve)")
    ap.add_argument("--repeat", type=int, default=3, help="cold runs per figure; the minimum is reported")
    ap.add_argument("--cli-only", action="store_true", help="only the figures of new processes (and raw parse)")
    ns = ap.parse_args()
    compile_bytecode()
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="rm-bench-") as tmp_s:
        tmp = Path(tmp_s)
        repo = ns.repo
        if repo is None:
            from gen_synthetic_repo import generate

            repo = tmp / "synthetic"
            generate(repo, services=40, files=25, body=60)
        work = tmp / "work"
        if subprocess.run(["git", "clone", "-q", str(repo), str(work)], stderr=subprocess.DEVNULL).returncode != 0:
            # A snapshot with missing blobs (large test data left out) cannot be checked out; its
            # commit can still be analysed from the objects it has, as a local path.
            shutil.rmtree(work, ignore_errors=True)
            subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(work)], check=True)
            ns.local = True
        os.environ["REPOMODELER_HOME"] = str(tmp / "home")
        raw, nfiles, nbytes = raw_parse_seconds(work, ns.repeat)
        url = str(work) if ns.local else f"file://{work}"
        figures: dict[str, object] = {"source_files": nfiles, "source_mb": round(nbytes / 1e6, 1),
                                      "raw_parse_s": round(raw, 3), "raw_parse_cpu_s": round(RAW_CPU[0], 3)}
        if not ns.cli_only:
            figures.update(in_process_figures(url, work, tmp, raw, ns.repeat))
        figures.update(cli_figures(url, tmp, raw, ns.repeat))
        figures["load_average"] = f"{load_before} -> {load_average()}"
    if ns.json:
        print(json.dumps(figures, indent=2))
        return
    f = figures
    print(f"repository: {ns.repo or 'synthetic'}  ({f['source_files']} source files, {f['source_mb']} MB); "
          f"load average {f['load_average']}; cold figures: minimum of {ns.repeat}")
    print(f"raw parse               {f['raw_parse_s']:8.3f}s  (one thread, this process; CPU {f['raw_parse_cpu_s']:.3f}s)")
    if "cold_s" in f:
        print("in this process (analyze as a function):")
        print(f"  cold                  {f['cold_s']:8.3f}s  cold/raw {f['cold_over_raw']:6.2f}  (target <= 1.5)")
        print(f"  cold, --no-validate   {f['cold_without_sysml_check_s']:8.3f}s  cold/raw {f['cold_without_check_over_raw']:6.2f}")
        print(f"  no-change rerun       {f['nochange_s']:8.3f}s  of cold  {f['nochange_over_cold']:6.3f}  (target <= 0.05)")
        if "onefile_s" in f:
            print(f"  one-file rerun        {f['onefile_s']:8.3f}s  of cold  {f['onefile_over_cold']:6.3f}  (target <= 0.10)")
        print(f"  peak RSS              {f['peak_rss_mb']:8.1f} MB (target <= 500)")
    print("as users run it (a new repomodeler process per run, start-up included):")
    print(f"  cold                  {f['cli_cold_s']:8.3f}s  cold/raw {f['cli_cold_over_raw']:6.2f}  "
          f"(target <= 1.5; CPU {f['cli_cold_cpu_s']:.2f}s over all processes = "
          f"{f['cli_cold_cpu_over_raw_cpu']}x the raw parse's)")
    print(f"  cold, --no-validate   {f['cli_cold_no_validate_s']:8.3f}s  cold/raw {f['cli_cold_no_validate_over_raw']:6.2f}  "
          f"(CPU {f['cli_cold_no_validate_cpu_s']:.2f}s = {f['cli_cold_no_validate_cpu_over_raw_cpu']}x)")
    print(f"  no-change rerun       {f['cli_nochange_s']:8.3f}s  median of 5, min {f['cli_nochange_min_s']:.3f}s, "
          f"CPU {f['cli_nochange_cpu_s']:.3f}s  (target < 0.3 s; model kept: {f['cli_nochange_unchanged']})")


def in_process_figures(url: str, work: Path, tmp: Path, raw: float, repeat: int) -> dict[str, object]:
    """Cold (with and without the SysML check), no-change and one-file reruns, `analyze` called in this process."""
    cold_nocheck = cold = float("inf")
    for i in range(repeat):
        os.environ["REPOMODELER_HOME"] = str(tmp / f"home-nocheck-{i}")
        cold_nocheck = min(cold_nocheck, timed_analyze([url], tmp / f"out-nocheck-{i}", cold=True, validate=False))
        os.environ["REPOMODELER_HOME"] = str(tmp / f"home-{i}")
        cold = min(cold, timed_analyze([url], tmp / f"out-{i}", cold=True))
    out = tmp / "out-0"
    os.environ["REPOMODELER_HOME"] = str(tmp / "home-0")
    nochange = min(timed_analyze([url], out) for _ in range(3))
    figures: dict[str, object] = {
        "cold_s": round(cold, 3), "cold_without_sysml_check_s": round(cold_nocheck, 3), "nochange_s": round(nochange, 3),
        "cold_over_raw": round(cold / raw, 2), "cold_without_check_over_raw": round(cold_nocheck / raw, 2),
        "nochange_over_cold": round(nochange / cold, 3)}
    changed = next((p for p in sorted(work.rglob("*")) if p.suffix in (".go", ".py", ".ts", ".java")
                    and ".git" not in p.parts), None)
    if changed is not None:  # a checkout without a working tree (--no-checkout) has nothing to edit
        changed.write_text(changed.read_text() + "\n// benchmark change\n" if changed.suffix != ".py"
                           else changed.read_text() + "\n# benchmark change\n")
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qam", "change"], cwd=work,
                       check=True)
        onefile = timed_analyze([url], out)
        figures.update(onefile_s=round(onefile, 3), onefile_over_cold=round(onefile / cold, 3))
    figures["peak_rss_mb"] = round(peak_rss_mb(url, tmp), 1)
    return figures


if __name__ == "__main__":
    main()
