"""Seed corpus and mutations shared by the bounded hypothesis tests and the long fuzz run.

Seeds are the project's own fixture and sample files (per language, plus descriptors); mutations
are the cheap ones that find parser trouble: byte flips, truncation, insertion of random or
structural bytes, duplication of a slice (deeper nesting), and splicing two seeds.  `check_*`
run one input through the public entry points and raise AssertionError if anything escapes or a
result is malformed, so a failing input can be saved and replayed.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from repomodeler.extract import extract_file
from repomodeler.extract.descriptors import extract_descriptor, reader_for
from repomodeler.extract.engine import extract_source
from repomodeler.languages import all_languages, language_for_path
from repomodeler.records import Fact, SourceFile, Warning_

ROOT = Path(__file__).resolve().parent.parent
SEED_DIRS = (ROOT / "tests" / "fixtures" / "grammars", ROOT / "samples")
STRUCTURAL = [b"{", b"}", b"(", b")", b"[", b"]", b"\"", b"'", b"`", b"\n", b":", b"---\n", b"&a ", b"*a ", b"<<: ",
              b"<", b">", b"/*", b"*/", b"#", b"\\", b"\xff", b"\xc3", b"\x00", b"\t", b"${", b"@", b"=>", b"<?php"]
DESCRIPTOR_NAMES = ("docker-compose.yml", "deploy.yaml", "application.yml", "package.json", "pom.xml",
                    "pyproject.toml", "requirements.txt", "go.mod", "Dockerfile", ".env", "build.gradle",
                    "application.properties")


@lru_cache(maxsize=None)
def language_seeds(language: str) -> tuple[tuple[str, bytes], ...]:
    """(path, bytes) of every fixture/sample file of `language` (at least one, even if synthetic)."""
    seeds = []
    for base in SEED_DIRS:
        for p in sorted(base.rglob("*")):
            if p.is_file() and not p.is_symlink() and language_for_path(p.name) == language and p.stat().st_size < 200_000:
                seeds.append((p.name, p.read_bytes()))
    if not seeds:
        ext = all_languages()[language].extensions[0]
        seeds.append((f"seed{ext}", b"x = 1\n"))
    return tuple(seeds)


@lru_cache(maxsize=None)
def descriptor_seeds() -> tuple[tuple[str, bytes], ...]:
    """(name, bytes) of descriptor files in the samples, fixtures and a few written here."""
    seeds = []
    for base in SEED_DIRS:
        for p in sorted(base.rglob("*")):
            if p.is_file() and not p.is_symlink() and p.stat().st_size < 200_000:
                head = p.read_bytes()[:4096].decode("utf-8", "replace")
                if reader_for(p.name, head) is not None:
                    seeds.append((p.name, p.read_bytes()))
    seeds.append(("deploy.yaml", b"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\nspec:\n  template:\n"
                                 b"    spec:\n      containers:\n      - name: a\n        image: x\n        env:\n"
                                 b"        - name: URL\n          value: http://b:80\n"))
    seeds.append(("firebase.json", b'{"hosting": [{"public": "dist", "rewrites": [{"source": "/api/**", '
                                   b'"run": {"serviceId": "api"}}, {"source": "/f", "function": {"functionId": "f"}}]}]}'))
    seeds.append(("pom.xml", b"<project><artifactId>a</artifactId><dependencies><dependency><artifactId>b"
                             b"</artifactId></dependency></dependencies></project>"))
    return tuple(seeds)


def mutate(data: bytes, rng: random.Random, rounds: int | None = None, other: bytes | None = None) -> bytes:
    """Apply 1-4 random mutations to `data`."""
    out = bytearray(data)
    for _ in range(rounds or rng.randint(1, 4)):
        op = rng.randrange(6)
        pos = rng.randint(0, len(out))
        if op == 0 and out:  # flip bits of one byte
            i = rng.randrange(len(out))
            out[i] ^= 1 << rng.randrange(8)
        elif op == 1:  # truncate
            del out[pos:]
        elif op == 2:  # insert random bytes
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op == 3:  # insert a structural token (brackets, quotes, YAML anchors, bad UTF-8 ...)
            out[pos:pos] = rng.choice(STRUCTURAL) * rng.randint(1, 8)
        elif op == 4 and out:  # duplicate a slice (deeper nesting, repeated keys)
            a = rng.randrange(len(out))
            b = min(len(out), a + rng.randint(1, 200))
            out[pos:pos] = out[a:b] * rng.randint(1, 4)
        elif op == 5 and other:  # splice another seed in
            a = rng.randrange(len(other) + 1)
            out[pos:] = other[a:]
    return bytes(out[:300_000])


def apply_ops(data: bytes, ops: list[tuple[int, float, bytes]]) -> bytes:
    """Deterministic mutations for hypothesis (which shrinks `ops`): (kind, position 0..1, payload).

    kind 0 flips the byte at the position with payload[0], 1 truncates there, 2 inserts the
    payload, 3 inserts the payload repeated 64 times (deep nesting), 4 deletes len(payload) bytes.
    """
    out = bytearray(data)
    for kind, where, payload in ops:
        pos = int(where * len(out))
        if kind == 0 and out and payload:
            out[min(pos, len(out) - 1)] ^= payload[0] or 1
        elif kind == 1:
            del out[pos:]
        elif kind == 2:
            out[pos:pos] = payload
        elif kind == 3:
            out[pos:pos] = payload * 64
        elif kind == 4:
            del out[pos:pos + len(payload)]
    return bytes(out)


def sanitized(content: bytes) -> bytes:
    """Bytes as extract_file hands them to the engine (invalid UTF-8 replaced, lines kept)."""
    try:
        content.decode("utf-8")
        return content
    except UnicodeDecodeError:
        return content.decode("utf-8", "replace").encode("utf-8")


def _check_records(facts: list, warnings: list, path: str, content: bytes) -> None:
    lines = content.count(b"\n") + 1
    for f in facts:
        assert isinstance(f, Fact), f
        assert f.path == path and 0 <= f.line <= lines + 1, f
    for w in warnings:
        assert isinstance(w, Warning_), w
        assert w.path == path and "\n" not in w.message, w


def check_source(language: str, path: str, content: bytes, *, raw_engine: bool = False) -> None:
    """extract_file (the pipeline's entry) must return well-formed results for any bytes; so must
    the engine's extract_source, for valid UTF-8 (or any bytes with `raw_engine`, see the report
    on tree-sitter predicates and invalid UTF-8)."""
    facts, warnings = extract_source("fuzz", path, language, content if raw_engine else sanitized(content))
    _check_records(facts, warnings, path, content)
    f = SourceFile(path=path, blob="0" * 40, size=len(content), language=language, role="source")
    facts, warnings, _parsed = extract_file("fuzz", f, content)
    _check_records(facts, warnings, path, content)


def check_descriptor(name: str, content: bytes) -> None:
    facts, warnings = extract_descriptor("fuzz", name, content)
    _check_records(facts, warnings, name, content)
