"""The same commits give the same model whatever the repositories and their checkout folders are
called, in whatever order they are given and their files and facts are read: the property the issue
"One model, named rules" asks for.  Names are mapped back before comparing (ids derived from a
repository's name follow the name; that is the only difference allowed)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repomodeler.graph.build import resolve_system
from repomodeler.graph.naming import slug
from repomodeler.rules.cases import extract_in_memory

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def read_dir(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*")) if p.is_file() and ".git" not in p.parts}


DOCKERFILE_ONLY = {"Dockerfile": 'FROM python:3.11\nCOPY app.py /app.py\nEXPOSE 8000\nCMD ["python", "/app.py"]\n',
                   "app.py": "print('hello')\n"}
SYSTEMS = {
    "shop+dockerfile": {"shop": read_dir(SAMPLES / "shop"), "a": DOCKERFILE_ONLY},
    "spring-cloud+node-python": {"spring-cloud": read_dir(SAMPLES / "spring-cloud"),
                                 "node-python": read_dir(SAMPLES / "node-python")},
    "polyglot-events": {"polyglot-events": read_dir(SAMPLES / "polyglot-events")},
}
EXTRACTED = {name: extract_in_memory(repos) for name, repos in SYSTEMS.items()}


def canonical(results, rename: dict[str, str], shuffle: random.Random | None = None) -> str:
    """The resolved model as sorted JSON, with renamed repositories mapped back to their first names."""
    renamed = []
    for r in results:
        new = rename.get(r.repository.name, r.repository.name)
        repo = replace(r.repository, name=new, spec=replace(r.repository.spec, name=new))
        facts = [replace(f, repository=new) for f in r.facts]
        if shuffle is not None:
            shuffle.shuffle(facts)
        renamed.append(replace(r, repository=repo, facts=facts))
    if shuffle is not None:
        shuffle.shuffle(renamed)
    model = resolve_system("s", renamed)
    comps = {cid: {"kind": c.kind, "name": c.name, "repository": c.repository, "parent": c.parent,
                   "evidence": sorted(map(str, c.evidence)), "attributes": c.attributes, "ports": sorted(c.ports),
                   "rules": sorted(c.rules)}
             for cid, c in {**model.components, **model.parts}.items()}
    links = [[c.source, c.target, c.protocol, c.kind, sorted(map(str, c.evidence)), sorted(c.attributes.items()),
              sorted(c.rules)] for c in [*model.connections.values(), *model.part_links.values()]]
    text = json.dumps({"components": comps, "connections": links, "unresolved": sorted(map(str, model.unresolved))},
                      sort_keys=True)
    for old, new in rename.items():
        text = text.replace(new, old).replace(slug(new), slug(old))
    data = json.loads(text)
    data["connections"] = sorted(data["connections"], key=json.dumps)
    return json.dumps(data, sort_keys=True)


BASELINE = {name: canonical(results, {}) for name, results in EXTRACTED.items()}
# Prefixes that move a repository first or last in every sort, and separators slug() treats alike.
NAMES = st.sampled_from(["aa", "zz", "m_", "x-", "0"])


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@settings(max_examples=6, deadline=None)
@given(prefixes=st.lists(NAMES, min_size=2, max_size=2), seed=st.integers(0, 10_000))
def test_model_is_the_same_whatever_names_and_order(system: str, prefixes: list[str], seed: int) -> None:
    repos = sorted(SYSTEMS[system])
    rename = {r: f"{prefixes[i % 2]}{r.replace('-', '_') if seed % 2 else r}q" for i, r in enumerate(repos)}
    assert canonical(EXTRACTED[system], rename, random.Random(seed)) == BASELINE[system]


def test_a_dockerfile_repository_named_a_or_z_gives_one_model() -> None:
    results = EXTRACTED["shop+dockerfile"]
    assert canonical(results, {"a": "z"}) == BASELINE["shop+dockerfile"]
    assert canonical(results, {"shop": "x_y", "a": "x-y"}) == BASELINE["shop+dockerfile"]
