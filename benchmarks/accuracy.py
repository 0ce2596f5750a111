"""Measure how well `repomodeler analyze` recovers a system's *documented* architecture.

Why: unit tests prove that each construct we support is extracted; they cannot tell us which
constructs real multi-service systems use that we do not support.  This script compares the model
of a real checkout with the components and connections its authors document (hand-written in
benchmarks/expected/<app>.yml, each item citing where the docs say so) and prints precision,
recall, the missed items and the extra items with their first evidence, so a person can judge
whether an extra is an extractor error or something the docs leave out.

    python benchmarks/accuracy.py CHECKOUT EXPECTED.yml [--keep]
    python benchmarks/accuracy.py --all --checkouts DIR [--expected-dir benchmarks/expected]

Matching: a model node matches an expected component when its id or name equals the component's
name or one of its aliases, case-insensitively and with '-', '_' and spaces treated alike.
Connections match on (from, to) after that mapping (a node matching no component is shown as
[id] and matches nothing); protocol and kind are reported, not scored.
Items marked `optional: true` are real but outside the documented architecture: they count
neither as missed nor as extra.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

EXPECTED_DIR = Path(__file__).resolve().parent / "expected"


def norm(name: str) -> str:
    """Compare names the way people read them: 'Cart_Service' == 'cart-service' == 'cart service'."""
    return re.sub(r"[-_\s]+", "-", name.strip().lower())


@dataclass(frozen=True)
class ExpectedComponent:
    name: str
    kind: str | None
    aliases: tuple[str, ...]
    optional: bool


@dataclass(frozen=True)
class ExpectedConnection:
    source: str
    target: str
    protocol: str | None
    optional: bool


@dataclass
class Expected:
    name: str
    checkout: str
    components: list[ExpectedComponent]
    connections: list[ExpectedConnection]


@dataclass
class Score:
    """One application's result; `missed`/`extra` hold printable lines."""

    app: str
    comp_tp: int = 0
    comp_expected: int = 0
    comp_extra: list[str] = field(default_factory=list)
    comp_missed: list[str] = field(default_factory=list)
    conn_tp: int = 0
    conn_expected: int = 0
    conn_extra: list[str] = field(default_factory=list)
    conn_missed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @staticmethod
    def ratio(num: int, den: int) -> float:
        return num / den if den else 1.0

    def figures(self) -> dict[str, float]:
        return {
            "component_precision": self.ratio(self.comp_tp, self.comp_tp + len(self.comp_extra)),
            "component_recall": self.ratio(self.comp_tp, self.comp_expected),
            "connection_precision": self.ratio(self.conn_tp, self.conn_tp + len(self.conn_extra)),
            "connection_recall": self.ratio(self.conn_tp, self.conn_expected),
        }


def load_expected(path: Path) -> Expected:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    comps = [ExpectedComponent(c["name"], c.get("kind"), tuple(c.get("aliases") or ()), bool(c.get("optional")))
             for c in data.get("components") or []]
    conns = [ExpectedConnection(c["from"], c["to"], c.get("protocol"), bool(c.get("optional")))
             for c in data.get("connections") or []]
    return Expected(data.get("name", path.stem), data.get("checkout", data.get("name", path.stem)), comps, conns)


class AnalyzeFailed(Exception):
    """`repomodeler analyze` exited non-zero; the message holds the tail of its stderr."""


def run_analyze(checkout: Path, out: Path) -> dict:
    """Run the real CLI in a subprocess, as a user would, and load its model.json.

    The working directory is `out`'s parent so that `python -m` imports the installed repomodeler
    (or the one PYTHONPATH names), not whatever source tree the caller happens to stand in.
    """
    cmd = [sys.executable, "-m", "repomodeler", "analyze", str(checkout.resolve()), "--out", str(out),
           "--quiet", "--no-validate"]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=out.parent)
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-3:])
        raise AnalyzeFailed(f"analyze exited {proc.returncode} on {checkout}: {tail}")
    return json.loads((out / "model.json").read_text(encoding="utf-8"))


def first_evidence(item: dict) -> str:
    ev = item.get("evidence") or []
    return f"{ev[0]['path']}:{ev[0]['line']}" if ev else "(no evidence)"


def score(expected: Expected, model: dict) -> Score:
    result = Score(expected.name)
    by_key = {}
    for comp in expected.components:
        for n in (comp.name, *comp.aliases):
            by_key.setdefault(norm(n), comp)
    # Map every model node to the expected component it stands for, or None.
    mapped: dict[str, ExpectedComponent | None] = {}
    hits: dict[str, list[dict]] = {}
    for node in model["nodes"]:
        keys = [norm(node["id"]), norm(node["name"]), *(norm(a) for a in node.get("aliases") or [])]
        comp = next((by_key[k] for k in keys if k in by_key), None)
        mapped[node["id"]] = comp
        if comp is None:
            result.comp_extra.append(f"{node['id']} [{node['kind']}] at {first_evidence(node)}")
            continue
        hits.setdefault(comp.name, []).append(node)
    for comp in expected.components:
        nodes = hits.get(comp.name, [])
        if comp.optional:
            continue
        result.comp_expected += 1
        if not nodes:
            result.comp_missed.append(f"{comp.name} [{comp.kind or '?'}]")
            continue
        result.comp_tp += 1
        for dup in nodes[1:]:
            result.comp_extra.append(f"{dup['id']} [{dup['kind']}] at {first_evidence(dup)} (duplicate of {comp.name})")
        if comp.kind and nodes[0]["kind"] != comp.kind:
            result.notes.append(f"kind: {comp.name} is '{nodes[0]['kind']}', documented as '{comp.kind}'")

    def name_of(node_id: str) -> str:
        """Expected name of a node; an unmatched node is bracketed so it can never match by accident."""
        comp = mapped.get(node_id)
        return comp.name if comp else f"[{node_id}]"

    found: dict[tuple[str, str], list[dict]] = {}
    for edge in model["edges"]:
        found.setdefault((name_of(edge["source"]), name_of(edge["target"])), []).append(edge)
    wanted = {(c.source, c.target): c for c in expected.connections}
    for conn in expected.connections:
        if conn.optional:
            continue
        result.conn_expected += 1
        edges = found.get((conn.source, conn.target))
        if not edges:
            result.conn_missed.append(f"{conn.source} -> {conn.target} ({conn.protocol or '?'})")
            continue
        result.conn_tp += 1
        protocols = sorted({e["protocol"] for e in edges})
        if conn.protocol and conn.protocol not in protocols:
            result.notes.append(f"protocol: {conn.source} -> {conn.target} is {'/'.join(protocols)}, documented as {conn.protocol}")
    for pair, edges in sorted(found.items()):
        if pair in wanted:
            continue
        edge = edges[0]
        hint = " (reverse of a documented connection)" if (pair[1], pair[0]) in wanted else ""
        via = edge.get("attributes", {}).get("via")
        how = ", ".join(filter(None, (edge["protocol"], edge["kind"], f"via {via}" if via else "")))
        result.conn_extra.append(f"{pair[0]} -> {pair[1]} ({how}) at {first_evidence(edge)}{hint}")
    return result


def report(result: Score) -> str:
    f = result.figures()
    lines = [f"== {result.app}",
             f"components  precision {f['component_precision']:.2f}  recall {f['component_recall']:.2f}"
             f"  ({result.comp_tp}/{result.comp_expected} found, {len(result.comp_extra)} extra)",
             f"connections precision {f['connection_precision']:.2f}  recall {f['connection_recall']:.2f}"
             f"  ({result.conn_tp}/{result.conn_expected} found, {len(result.conn_extra)} extra)"]
    for title, items in (("missed components", result.comp_missed), ("extra components", result.comp_extra),
                         ("missed connections", result.conn_missed), ("extra connections", result.conn_extra),
                         ("notes", result.notes)):
        if items:
            lines.append(f"  {title}:")
            lines.extend(f"    {item}" for item in items)
    return "\n".join(lines)


def evaluate(checkout: Path, expected_file: Path, keep: bool) -> Score:
    expected = load_expected(expected_file)
    out = Path(tempfile.mkdtemp(prefix=f"accuracy-{expected.name}-"))
    try:
        result = score(expected, run_analyze(checkout, out))
    finally:
        if keep:
            print(f"(model kept in {out})")
        else:
            shutil.rmtree(out, ignore_errors=True)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", nargs="?", type=Path, help="working copy of the application")
    parser.add_argument("expected", nargs="?", type=Path, help="benchmarks/expected/<app>.yml")
    parser.add_argument("--keep", action="store_true", help="keep the generated model and print where")
    parser.add_argument("--all", action="store_true", help="run every expected file whose checkout exists")
    parser.add_argument("--checkouts", type=Path, help="with --all: folder holding one checkout per app")
    parser.add_argument("--expected-dir", type=Path, default=EXPECTED_DIR)
    parser.add_argument("--json", type=Path, help="also write the figures of every app to this file")
    args = parser.parse_args(argv)
    runs: list[tuple[Path, Path]] = []
    if args.all:
        if not args.checkouts:
            parser.error("--all needs --checkouts DIR")
        for exp in sorted(args.expected_dir.glob("*.yml")):
            folder = args.checkouts / load_expected(exp).checkout
            if folder.is_dir():
                runs.append((folder, exp))
            else:
                print(f"(skipping {exp.name}: no checkout at {folder})")
    elif args.checkout and args.expected:
        runs.append((args.checkout, args.expected))
    else:
        parser.error("give CHECKOUT EXPECTED.yml, or --all --checkouts DIR")
    results: list[Score] = []
    failed = 0
    for checkout, exp in runs:
        try:
            results.append(evaluate(checkout, exp, args.keep))
        except AnalyzeFailed as exc:  # one broken app must not hide the others' figures
            failed += 1
            print(f"== {exp.stem}\n  FAILED: {exc}")
            continue
        print(report(results[-1]))
    if args.json:
        args.json.write_text(json.dumps({r.app: r.figures() for r in results}, indent=2, sort_keys=True) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
