"""Performance benchmark: ratios measured in one process, so a noisy machine still gives stable figures.

    python benchmarks/perf.py [REPO]        # REPO: a local git checkout; default: a generated one

Prints, for the repository:
  * raw parse  - tree-sitter parsing alone of every analysable source file, one thread (the floor);
  * cold       - a full `analyze` with an empty cache (clone, inventory, parse, resolve, emit, audit);
  * no-change  - the same analysis again (everything from the cache);
  * one-file   - after changing one source file and committing;
  * peak RSS   - of a cold run in a child process (main process and its pool workers);
and the ratios cold/raw, no-change/cold, one-file/cold against the targets 1.5, 0.05, 0.10.

    python benchmarks/perf.py REPO --cli [--local]

measures as users run it instead: each analysis a new `repomodeler` process (interpreter start,
imports, git, the SysML engine), cold with an empty cache and a no-change rerun (target < 0.3 s).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def raw_parse_seconds(repo_path: Path) -> tuple[float, int, int]:
    import tree_sitter

    repo = acquire_one(parse_input(str(repo_path)))
    inv = build_inventory(repo)
    files = [f for f in inv.files if f.role == "source" and f.language]
    contents = BlobReader(repo).read_many(files)
    parsers = {lang: tree_sitter.Parser(load_language(lang)) for lang in {f.language for f in files}}
    t = time.perf_counter()
    for f in files:
        parsers[f.language].parse(contents[f.path])
    return time.perf_counter() - t, len(files), sum(len(c) for c in contents.values())


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


def cli_run(args: list[str], home: Path) -> tuple[float, float]:
    """One `repomodeler` process as a user starts it: (wall seconds, CPU seconds of the process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "repomodeler", *args], check=True, stdout=subprocess.DEVNULL,
                   env={**os.environ, "REPOMODELER_HOME": str(home),
                        "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def cli_figures(url: str, tmp: Path, raw: float, reruns: int = 5) -> dict[str, float]:
    """Cold analysis and no-change reruns, each a new process (imports, git, the SysML engine and all)."""
    out, home = tmp / "cli-out", tmp / "cli-home"
    cold, cold_cpu = cli_run(["analyze", url, "--out", str(out), "-q"], home)
    runs = sorted(cli_run(["analyze", url, "--out", str(out)], home) for _ in range(reruns))
    timings = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return {"cli_cold_s": round(cold, 3), "cli_cold_cpu_s": round(cold_cpu, 3), "cli_cold_over_raw": round(cold / raw, 2),
            "cli_nochange_s": round(runs[len(runs) // 2][0], 3), "cli_nochange_min_s": round(runs[0][0], 3),
            "cli_nochange_cpu_s": round(sorted(c for _w, c in runs)[len(runs) // 2], 3),
            "cli_nochange_unchanged": bool(timings.get("unchanged"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repo", nargs="?", type=Path)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--local", action="store_true",
                    help="analyse the checkout as a local path instead of cloning it by file:// URL "
                         "(for snapshots with missing objects, which git refuses to serve)")
    ap.add_argument("--cli", action="store_true",
                    help="measure as users run it: a new `repomodeler` process per run (cold with an empty cache, "
                         "then no-change reruns printing the summary); raw parse in this process")
    ns = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="rm-bench-") as tmp_s:
        tmp = Path(tmp_s)
        repo = ns.repo
        if repo is None:
            from gen_synthetic_repo import generate

            repo = tmp / "synthetic"
            generate(repo, services=40, files=25, body=60)
        work = tmp / "work"
        subprocess.run(["git", "clone", "-q", str(repo), str(work)], check=True)
        os.environ["REPOMODELER_HOME"] = str(tmp / "home")
        raw, nfiles, nbytes = raw_parse_seconds(work)
        url = str(work) if ns.local else f"file://{work}"
        if ns.cli:
            figures = {"source_files": nfiles, "source_mb": round(nbytes / 1e6, 1), "raw_parse_s": round(raw, 3),
                       **cli_figures(url, tmp, raw)}
            print(json.dumps(figures, indent=2) if ns.json else "\n".join(
                [f"repository: {ns.repo or 'synthetic'}  ({nfiles} source files, {figures['source_mb']} MB)",
                 f"raw parse          {raw:8.3f}s  (one thread, this process)",
                 f"cold analyze       {figures['cli_cold_s']:8.3f}s  cold/raw {figures['cli_cold_over_raw']:.2f}  "
                 f"(CPU {figures['cli_cold_cpu_s']:.2f}s over all processes)",
                 f"no-change rerun    {figures['cli_nochange_s']:8.3f}s  median of 5, min {figures['cli_nochange_min_s']:.3f}s, "
                 f"CPU {figures['cli_nochange_cpu_s']:.3f}s  (target < 0.3 s; model kept: {figures['cli_nochange_unchanged']})"]))
            return
        os.environ["REPOMODELER_HOME"] = str(tmp / "home-nocheck")
        cold_nocheck = timed_analyze([url], tmp / "out-nocheck", cold=True, validate=False)
        os.environ["REPOMODELER_HOME"] = str(tmp / "home")
        cold = timed_analyze([url], tmp / "out", cold=True)
        nochange = timed_analyze([url], tmp / "out")
        changed = next(p for p in sorted(work.rglob("*")) if p.suffix in (".go", ".py", ".ts", ".java")
                       and ".git" not in p.parts)
        changed.write_text(changed.read_text() + "\n// benchmark change\n" if changed.suffix != ".py"
                           else changed.read_text() + "\n# benchmark change\n")
        subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@e", "commit", "-qam", "change"], cwd=work,
                       check=True)
        onefile = timed_analyze([url], tmp / "out")
        rss = peak_rss_mb(url, tmp)
        figures = {
            "source_files": nfiles, "source_mb": round(nbytes / 1e6, 1), "raw_parse_s": round(raw, 3),
            "cold_s": round(cold, 3), "cold_without_sysml_check_s": round(cold_nocheck, 3),
            "nochange_s": round(nochange, 3), "onefile_s": round(onefile, 3),
            "cold_over_raw": round(cold / raw, 2), "cold_without_check_over_raw": round(cold_nocheck / raw, 2), "nochange_over_cold": round(nochange / cold, 3),
            "onefile_over_cold": round(onefile / cold, 3), "peak_rss_mb": round(rss, 1),
        }
    if ns.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"repository: {ns.repo or 'synthetic'}  ({figures['source_files']} source files, {figures['source_mb']} MB)")
    print(f"raw parse      {figures['raw_parse_s']:8.3f}s")
    print(f"cold analyze   {figures['cold_s']:8.3f}s   cold/raw       {figures['cold_over_raw']:6.2f}  (target <= 1.5)")
    print(f"cold, no check {figures['cold_without_sysml_check_s']:8.3f}s   "
          f"cold/raw       {figures['cold_without_check_over_raw']:6.2f}  (--no-validate: without the SysML engine)")
    print(f"no-change      {figures['nochange_s']:8.3f}s   nochange/cold  {figures['nochange_over_cold']:6.3f}  (target <= 0.05)")
    print(f"one-file       {figures['onefile_s']:8.3f}s   onefile/cold   {figures['onefile_over_cold']:6.3f}  (target <= 0.10)")
    print(f"peak RSS       {figures['peak_rss_mb']:8.1f} MB (target <= 500)")


if __name__ == "__main__":
    main()
