"""How long ``repomodeler push`` takes to turn a model folder's SysML text into API records and plan a commit.

Why: push reads the emitted text on every run (tree-sitter-sysml, then name resolution over the whole
model), so its cost grows with the model; this prints it for the models the push tests use (or any
model folder given), without a server: records built, elements, records longeron stores, the time to
read them, and the time to plan the first (everything) and a second (nothing) push.

    python benchmarks/push_records.py                      # tests/fixtures/push/*
    python benchmarks/push_records.py models/shop models/acme
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from repomodeler.commands.push import _is_relationship, for_longeron, plan_changes
from repomodeler.emit.sysml_records import records_from_model_dir

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "push"


def measure(model_dir: Path, repeat: int = 3) -> str:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        records = records_from_model_dir(model_dir)
        best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    change, state = plan_changes(records, None)
    again, _ = plan_changes(records, state)
    plan = time.perf_counter() - start
    stored, _ = for_longeron(records)
    elements = sum(1 for r in records.records if not _is_relationship(r))
    return (f"{model_dir.name:20} {len(records.records):6} records {elements:6} elements {len(stored):6} for longeron  "
            f"read {best * 1000:7.1f} ms  plan {plan * 1000:6.1f} ms  ({len(change)} then {len(again)} changes)")


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or sorted(p for p in FIXTURES.iterdir() if p.is_dir())
    for folder in folders:
        print(measure(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
