#!/usr/bin/env python3
"""Does a system's model depend on what its checkout folders are called?

    python benchmarks/folder_names.py --apps-file benchmarks/apps_new.json --apps a,b
    python benchmarks/folder_names.py                      # every system of apps_wide.json

One commit must give one model whatever the folder it is checked out in is called (a local path is only
what the user named it; only a clone by URL names it after the repository). For each system this
analyses its checkouts twice: under the names `git clone` gives them (as accuracy_wide.py does) and
copied under neutral names (`checkout-a`, `checkout-b`...), maps the neutral names back, and reports
every system whose components or connections differ. A component may be *named* after its folder; it
must not be merged, split or linked differently because of it.

Snapshots and scratch checkouts as in accuracy_wide.py (--mirror-root, --scratch). Exit status 1 when
any system differs.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import accuracy_wide as aw  # noqa: E402  (the same snapshots, exports and scratch folders)


def analyse(checkouts: list[Path], app: str, out: Path, timeout: int) -> dict | None:
    r = subprocess.run(["repomodeler", "analyze", *map(str, checkouts), "--name", app, "--out", str(out),
                        "--no-validate", "-q"], capture_output=True, text=True, timeout=timeout)
    if r.returncode:
        print(f"{app}: analyze exited {r.returncode}: {r.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return json.loads((out / "model.json").read_text(encoding="utf-8"))


def shape(model: dict, names: dict[str, str], labels: list[str]) -> tuple[set[str], set[str]]:
    """(components, connections) of a model as lower-case names, each neutral folder name read as the
    original (a component named after its folder is spelled as the folder is, `Yacht` or `yacht`, and is
    `<folder>-code` where another component has the folder's name: a name, not a structure)."""
    def back(text: str) -> str:
        for neutral, original in names.items():
            # (whole names only: `checkout-a` is not the start of a component called `checkout-api`)
            text = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(neutral)}(?![A-Za-z0-9_])", original, text)
        for label in labels:
            text = text.replace(f"{label}-code", label)
        return text.lower()
    by_id = {n["id"]: back(n["name"]) for n in model["nodes"]}
    comps = {f"{by_id[n['id']]} ({n.get('kind')})" + (f" in {by_id.get(n['parent'], '?')}" if n.get("parent") else "")
             for n in model["nodes"]}
    links = {f"{by_id.get(e['source'], back(e['source']))} -> {by_id.get(e['target'], back(e['target']))}"
             for e in model["edges"]}
    return comps, links


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", default="")
    ap.add_argument("--apps-file", type=Path, default=aw.APPS_FILE)
    ap.add_argument("--mirror-root", type=Path, default=None)
    ap.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()) / "accuracy-wide-scratch")
    ap.add_argument("--timeout", type=int, default=600)
    ns = ap.parse_args(argv)
    if not shutil.which("repomodeler"):
        ap.error("no `repomodeler` on PATH (activate the project's virtualenv)")
    mirror_root = ns.mirror_root or aw.find_mirror_root()
    want = {a for a in ns.apps.split(",") if a}
    apps = [a for a in json.loads(ns.apps_file.read_text()) if not want or a["app"] in want]
    work = Path(tempfile.mkdtemp(prefix="folder-names-"))
    differ: list[str] = []
    checked = 0
    for a in apps:
        originals: list[Path] = []
        for r in aw.repos_of(a):
            dest = ns.scratch / f"{r['repo'].replace('/', '+')}@{r['commit'][:12]}" / r["repo"].split("/")[-1]
            if not dest.is_dir():
                gd = aw.git_dir(mirror_root, r["repo"])
                if gd is None:
                    break
                aw.export(gd, r["commit"], dest)
            originals.append(dest)
        if len(originals) != len(aw.repos_of(a)):
            print(f"{a['app']}: no snapshot on this machine, skipped", file=sys.stderr)
            continue
        neutral: list[Path] = []
        names: dict[str, str] = {}
        for i, src in enumerate(originals):
            label = f"checkout-{chr(ord('a') + i)}"
            dest = work / a["app"] / label
            shutil.copytree(src, dest, symlinks=True)
            neutral.append(dest)
            names[label] = src.name
        first = analyse(originals, a["app"], work / a["app"] / "out-1", ns.timeout)
        second = analyse(neutral, a["app"], work / a["app"] / "out-2", ns.timeout)
        shutil.rmtree(work / a["app"], ignore_errors=True)
        if first is None or second is None:
            differ.append(a["app"])
            continue
        checked += 1
        labels = [src.name for src in originals]
        (c1, l1), (c2, l2) = shape(first, {}, labels), shape(second, names, labels)
        if (c1, l1) != (c2, l2):
            differ.append(a["app"])
            print(f"{a['app']}: the model depends on the folder names")
            for label, only in (("clone names only", (c1 - c2) | (l1 - l2)), ("neutral names only", (c2 - c1) | (l2 - l1))):
                for item in sorted(only):
                    print(f"    {label}: {item}")
    shutil.rmtree(work, ignore_errors=True)
    print(f"{checked} system(s) analysed under two folder names; {len(differ)} differ"
          + (f": {', '.join(differ)}" if differ else ""))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
