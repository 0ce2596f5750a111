#!/usr/bin/env python3
"""Compare the models of two output folders (as accuracy.py/accuracy_wide.py or analyze write them):
for every system folder in A with a model.json, the same folder in B must hold the same model.json
and model.sysml.  `--ignore KEY` drops a key wherever it occurs in model.json (repeatable), for a
change that adds a field on purpose (``--ignore rules`` for the rule ids).  Prints one line per system
and the differences; exits 1 when any differ.  Only the standard library is needed.

    python benchmarks/compare_models.py /tmp/before/wide /tmp/after/wide --ignore rules
"""
from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path


def _strip(value: object, ignore: set[str]) -> object:
    if isinstance(value, dict):
        return {k: _strip(v, ignore) for k, v in value.items() if k not in ignore}
    if isinstance(value, list):
        return [_strip(v, ignore) for v in value]
    return value


def _lines(path: Path, ignore: set[str]) -> list[str]:
    data = _strip(json.loads(path.read_text(encoding="utf-8")), ignore)
    if isinstance(data, dict) and isinstance(data.get("stats"), dict):
        data["stats"].pop("timings", None)
    return json.dumps(data, indent=1, sort_keys=True).splitlines()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--ignore", action="append", default=[], help="a model.json key to leave out (repeatable)")
    ns = ap.parse_args()
    ignore, differ = set(ns.ignore), 0
    for system in sorted(p for p in ns.a.iterdir() if (p / "model.json").is_file()):
        other = ns.b / system.name
        if not (other / "model.json").is_file():
            print(f"missing {other}")
            differ += 1
            continue
        diff = list(difflib.unified_diff(_lines(system / "model.json", ignore), _lines(other / "model.json", ignore),
                                         lineterm="", n=1))
        sysml_a, sysml_b = system / "model.sysml", other / "model.sysml"
        if sysml_a.is_file() and sysml_b.is_file():
            diff += list(difflib.unified_diff(sysml_a.read_text(encoding="utf-8").splitlines(),
                                              sysml_b.read_text(encoding="utf-8").splitlines(), lineterm="", n=0))
        print(f"{'same' if not diff else 'DIFF'} {system.name}")
        if diff:
            differ += 1
            print("\n".join(diff[:60]))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
