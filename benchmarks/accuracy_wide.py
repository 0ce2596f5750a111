#!/usr/bin/env python3
"""Score `repomodeler analyze` on the wide development set (benchmarks/apps_wide.json).

    python benchmarks/accuracy_wide.py                  # every system in apps_wide.json
    python benchmarks/accuracy_wide.py --apps a,b       # some of them
    python benchmarks/accuracy_wide.py --explain        # plus every matched, missed and extra element
    python benchmarks/accuracy_wide.py --out DIR        # keep the models (default: a temp folder)

The set widens the shared accuracy kit (../shared/accuracy: Java/Spring Cloud apps and Online
Boutique) with .NET (Aspire and compose), Go, Python, NestJS, Kubernetes-only, event-driven and
multi-repository systems. Ground truth is benchmarks/expected/<app>.json, in the shared scorer's
form (nodes with name/type/aliases, edges), every item citing the document or file that shows it.

Each repository of a system must be present as a git snapshot in <MIRROR_ROOT>/<owner>+<name>/repo
(MIRROR_ROOT: --mirror-root, else the environment variable, else the nearest `.mirror` folder above
the project). The pinned commit is exported into a plain checkout under --scratch (snapshots may
lack large blobs, so no `git checkout`), all checkouts of a system are analysed together with
`repomodeler analyze CHECKOUT... --name APP --out OUT/APP --no-validate -q` (the `repomodeler` on
PATH), and the shared scorer (--scorer, default ../shared/accuracy/score.py beside the project)
scores them. Only the standard library is needed.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
APPS_FILE = HERE / "apps_wide.json"
GT_DIR = HERE / "expected"


def find_mirror_root() -> Path:
    """$MIRROR_ROOT, else the nearest `.mirror` folder in or above the project's parent."""
    if os.environ.get("MIRROR_ROOT"):
        return Path(os.environ["MIRROR_ROOT"])
    d = ROOT
    while d.parent != d:
        d = d.parent
        if (d / ".mirror").is_dir():
            return d / ".mirror"
    return ROOT.parent / ".mirror"


def repos_of(app: dict) -> list[dict]:
    """[{'repo': 'owner/name', 'commit': sha[, 'path': folder]}, ...]: `repos` (a list) or a single
    `repo`/`commit`."""
    if "repos" in app:
        return list(app["repos"])
    return [{"repo": app["repo"], "commit": app["commit"]}]


def git_dir(mirror_root: Path, repo: str) -> Path | None:
    base = mirror_root / repo.replace("/", "+") / "repo"
    if (base / ".git").is_dir():
        return base / ".git"
    return base if base.is_dir() else None


def export(gitdir: Path, commit: str, dest: Path) -> int:
    """Write every blob of COMMIT that the snapshot has into DEST and commit it to a fresh repo.
    Returns the number of files the snapshot lacks (they are left out)."""
    entries = subprocess.run(["git", f"--git-dir={gitdir}", "ls-tree", "-r", "-z", commit],
                             capture_output=True, check=True).stdout.split(b"\0")
    tmp = dest.with_name(dest.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)  # renamed to DEST when complete, so an interrupted export is redone
    missing = 0
    wanted: list[tuple[bytes, bytes, str]] = []  # (mode, object, path)
    for entry in filter(None, entries):
        meta, _, raw = entry.partition(b"\t")
        mode, kind, obj = meta.split()
        if kind != b"blob":  # a submodule's pointer: no content in this repository
            missing += 1
            continue
        wanted.append((mode, obj, raw.decode("utf-8", "surrogateescape")))
    # one `git cat-file --batch` for every blob (a `git show` per file took minutes on large repositories)
    batch = subprocess.run(["git", f"--git-dir={gitdir}", "cat-file", "--batch"],
                           input=b"".join(obj + b"\n" for _, obj, _ in wanted), capture_output=True).stdout
    at = 0
    for mode, obj, name in wanted:
        end = batch.index(b"\n", at)
        header = batch[at:end].split()
        at = end + 1
        if len(header) < 3 or header[1] != b"blob":  # `<object> missing`: a large blob the snapshot lacks
            missing += 1
            continue
        size = int(header[2])
        content, at = batch[at:at + size], at + size + 1
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":  # a symlink stays one, as a clone has it (the tool decides what to follow)
            os.symlink(content.decode("utf-8", "surrogateescape"), path)
        else:
            path.write_bytes(content)
    # (`add -f`: a file the project commits although its .gitignore names it, `docker/.env` beside a
    # `.gitignore` listing `.env`, is in the commit and in every clone of it)
    for args in (["init", "-q"], ["add", "-A", "-f"],
                 ["-c", "user.email=bench@localhost", "-c", "user.name=bench", "commit", "-qm",
                  f"export of {commit}"]):
        subprocess.run(["git", *args], cwd=tmp, check=True, capture_output=True)
    tmp.rename(dest)
    return missing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--apps", default="", help="comma-separated subset of apps_wide.json")
    ap.add_argument("--out", default="", help="folder for OUT/<app>/model.json and scores.json (default: temp)")
    ap.add_argument("--explain", action="store_true", help="passed to the scorer: every match, FP and FN")
    ap.add_argument("--timeout", type=int, default=600, help="seconds allowed for one analyze")
    ap.add_argument("--scorer", type=Path, default=ROOT.parent / "shared" / "accuracy" / "score.py",
                    help="the shared scorer (default: %(default)s)")
    ap.add_argument("--mirror-root", type=Path, default=None,
                    help="folder of <owner>+<name>/repo snapshots (default: $MIRROR_ROOT or nearest .mirror)")
    ap.add_argument("--scratch", type=Path,
                    default=Path(os.environ.get("ACCURACY_SCRATCH") or Path(tempfile.gettempdir()) / "accuracy-wide-scratch"),
                    help="where exported checkouts are kept and reused (default: %(default)s)")
    ap.add_argument("--apps-file", type=Path, default=APPS_FILE)
    ap.add_argument("--gt-dir", type=Path, default=GT_DIR)
    ns = ap.parse_args(argv)

    scorer = ns.scorer.resolve()
    if not scorer.is_file():
        ap.error(f"no scorer at {scorer} (give --scorer PATH)")
    if not shutil.which("repomodeler"):
        ap.error("no `repomodeler` on PATH (activate the project's virtualenv)")
    mirror_root = ns.mirror_root or find_mirror_root()
    apps = json.loads(ns.apps_file.read_text())
    want = [a for a in ns.apps.split(",") if a]
    unknown = sorted(set(want) - {a["app"] for a in apps})
    if unknown:
        ap.error(f"unknown app(s): {', '.join(unknown)}")
    apps = [a for a in apps if not want or a["app"] in want]
    out = Path(ns.out) if ns.out else Path(tempfile.mkdtemp(prefix="accuracy-wide-"))
    out.mkdir(parents=True, exist_ok=True)

    times: dict[str, float] = {}
    missing: list[str] = []
    failed: list[str] = []
    for a in apps:
        checkouts = []
        for r in repos_of(a):
            gd = git_dir(mirror_root, r["repo"])
            # the folder is named like `git clone` names it: the tool may name components after it
            dest = ns.scratch / f"{r['repo'].replace('/', '+')}@{r['commit'][:12]}" / r["repo"].split("/")[-1]
            if not dest.is_dir():
                if gd is None:
                    missing.append(r["repo"])
                    continue
                lacking = export(gd, r["commit"], dest)
                if lacking:
                    print(f"{a['app']}: the snapshot of {r['repo']} lacks {lacking} file(s) (large blobs); "
                          "they are left out", file=sys.stderr)
            # `path`: the system is one folder of a repository holding several (a user analyses that folder)
            checkouts.append(str(dest / r["path"]) if r.get("path") else str(dest))
        if len(checkouts) != len(repos_of(a)):
            continue
        shutil.rmtree(out / a["app"], ignore_errors=True)
        t = time.time()
        try:
            r = subprocess.run(["repomodeler", "analyze", *checkouts, "--name", a["app"],
                                "--out", str(out / a["app"]), "--no-validate", "-q"],
                               capture_output=True, text=True, timeout=ns.timeout)
            if r.returncode:
                failed.append(a["app"])
                print(f"{a['app']}: analyze exited {r.returncode}: {r.stderr.strip()[-300:]}", file=sys.stderr)
        except subprocess.TimeoutExpired:
            failed.append(a["app"])
            print(f"{a['app']}: analyze timed out after {ns.timeout} s", file=sys.stderr)
        times[a["app"]] = time.time() - t
    if missing:
        print("no snapshot on this machine for: " + " ".join(sorted(set(missing))), file=sys.stderr)
    scored = [a["app"] for a in apps if a["app"] in times]
    if not scored:
        return 2
    cmd = [sys.executable, str(scorer), "--all", str(out), "--gt-dir", str(ns.gt_dir),
           "--apps", ",".join(scored), "--json", str(out / "scores.json")]
    rc = subprocess.run(cmd + (["--explain"] if ns.explain else [])).returncode
    print("seconds per app: " + " ".join(f"{a}={t:.1f}" for a, t in sorted(times.items())))
    print(f"models and scores.json: {out}")
    return rc or (1 if failed else 0)


if __name__ == "__main__":
    sys.exit(main())
