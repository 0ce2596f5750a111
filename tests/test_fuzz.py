"""Bounded fuzzing (hypothesis): mutated fixture files and random bytes never make an extractor
raise, and every fact/warning it returns is well formed.  100 examples per language and 100 for
the descriptor readers, derandomized so CI is reproducible; fuzz/run_fuzz.py runs longer."""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT

sys.path.insert(0, str(ROOT))
from fuzz.corpus import (apply_ops, check_descriptor, check_source, descriptor_seeds,  # noqa: E402
                         language_seeds)
from repomodeler.languages import all_languages  # noqa: E402

FUZZ = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

OPS = st.lists(st.tuples(st.integers(0, 4), st.floats(0, 1, allow_nan=False),
                         st.binary(min_size=1, max_size=24) | st.sampled_from(
                             [b"{", b"(", b"[", b"\"", b"'", b"`", b"\xff\xfe", b"\xc3", b"\n", b"&a ", b"*a "])),
               min_size=1, max_size=6)


@pytest.mark.parametrize("language", sorted(all_languages()))
def test_mutated_sources_never_raise(language: str) -> None:
    seeds = language_seeds(language)

    @FUZZ
    @given(index=st.integers(0, len(seeds) - 1), ops=OPS, raw=st.booleans(), noise=st.binary(max_size=2048))
    def run(index: int, ops: list[tuple[int, float, bytes]], raw: bool, noise: bytes) -> None:
        name, data = seeds[index]
        check_source(language, name, noise if raw else apply_ops(data, ops))

    run()


def test_mutated_descriptors_never_raise() -> None:
    seeds = descriptor_seeds()
    assert {name for name, _ in seeds} >= {"docker-compose.yml", "package.json", "pom.xml", "Dockerfile"}

    @FUZZ
    @given(index=st.integers(0, len(seeds) - 1), ops=OPS)
    def run(index: int, ops: list[tuple[int, float, bytes]]) -> None:
        name, data = seeds[index]
        check_descriptor(name, apply_ops(data, ops))

    run()


def test_engine_accepts_invalid_utf8_directly() -> None:
    check_source("python", "a.py", b'import re\nre.match("\xff", x)\nurl = "http://h\xe9:1/"\n', raw_engine=True)
