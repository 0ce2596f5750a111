"""Long fuzz run: `python fuzz/run_fuzz.py [COUNT] [--seed N] [--language L] [--save DIR]`.

Feeds COUNT mutated inputs per language (and COUNT to the descriptor readers) through the
extractors and reports every input that raised or took longer than --slow seconds.  Failing
inputs are written to --save (default $TMPDIR/repomodeler-fuzz-findings/) so they can be replayed with --replay FILE.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.corpus import check_descriptor, check_source, descriptor_seeds, language_seeds, mutate  # noqa: E402
from repomodeler.languages import all_languages  # noqa: E402


def run(count: int, seed: int, languages: list[str], save: Path, slow: float, raw_engine: bool = False) -> int:
    rng = random.Random(seed)
    findings = 0
    total = 0
    started = time.monotonic()
    targets: list[tuple[str, tuple[tuple[str, bytes], ...]]] = [(lang, language_seeds(lang)) for lang in languages]
    targets.append(("descriptors", descriptor_seeds()))
    for target, seeds in targets:
        t0 = time.monotonic()
        slowest = 0.0
        for i in range(count):
            name, data = rng.choice(seeds)
            other = rng.choice(seeds)[1]
            content = mutate(data, rng, other=other)
            t = time.monotonic()
            try:
                if target == "descriptors":
                    check_descriptor(name, content)
                else:
                    check_source(target, name, content, raw_engine=raw_engine)
                problem = None
            except BaseException as exc:  # noqa: BLE001 - a fuzzer reports everything
                if isinstance(exc, KeyboardInterrupt):
                    raise
                problem = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            took = time.monotonic() - t
            slowest = max(slowest, took)
            if problem is None and took > slow:
                problem = f"slow: {took:.1f}s"
            total += 1
            if problem:
                findings += 1
                save.mkdir(parents=True, exist_ok=True)
                out = save / f"{target}-{seed}-{i}-{name}"
                out.write_bytes(content)
                print(f"FINDING {target} #{i} ({name}, {len(content)} bytes): {problem.splitlines()[-1][:200]} -> {out}")
        print(f"{target:<12} {count} inputs in {time.monotonic() - t0:.1f}s (slowest {slowest:.2f}s)")
    print(f"fuzz: {total} inputs, {findings} findings, {time.monotonic() - started:.1f}s, seed {seed}")
    return 1 if findings else 0


def replay(path: Path) -> int:
    content = path.read_bytes()
    target, _, rest = path.name.partition("-")
    name = rest.split("-", 2)[-1]
    if target == "descriptors":
        check_descriptor(name, content)
    else:
        check_source(target, name, content)
    print(f"{path}: ok")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", nargs="?", type=int, default=1000, help="inputs per language (default 1000)")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--language", action="append", help="only these languages (repeatable)")
    parser.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "repomodeler-fuzz-findings")
    parser.add_argument("--slow", type=float, default=5.0, help="report inputs slower than this (seconds)")
    parser.add_argument("--replay", type=Path, help="run one saved input again")
    parser.add_argument("--raw-engine", action="store_true",
                        help="also feed invalid UTF-8 straight to engine.extract_source (known SystemError)")
    args = parser.parse_args()
    if args.replay:
        return replay(args.replay)
    languages = args.language or sorted(all_languages())
    unknown = [lang for lang in languages if lang not in all_languages()]
    if unknown:
        parser.error(f"unknown language(s): {', '.join(unknown)}; known: {', '.join(sorted(all_languages()))}")
    return run(args.count, args.seed, languages, args.save, args.slow, args.raw_engine)


if __name__ == "__main__":
    sys.exit(main())
