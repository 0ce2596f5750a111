"""Bounded resources on big inputs, in miniature (benchmarks/large_inputs.py measures the real sizes).

* diff reads and matches big models in near-linear time: a 20,000-part diff costs a small multiple
  of reading the file once (what ``check`` does with its target), and its table is the one rich
  would print;
"""

from __future__ import annotations

import io
import time

from rich.console import Console

from repomodeler.diff import render
from repomodeler.diff.core import diff_models
from repomodeler.diff.target import render_target
from repomodeler.sysml_reader import ArchModel, ModelComponent, ModelConnection, ModelEndpoint, ModelPort, read_sysml_text


def big_target(parts: int, variant: bool = False) -> str:
    """A target of `parts` parts, each service calling the next; the variant renames every 997th
    part (matched by normalised name), retypes every 499th connection and changes some languages."""
    model = ArchModel(name="big", origin="test")
    ids = []
    for i in range(parts):
        cid = f"svc_{i:06d}" if variant and i % 997 == 0 else f"svc-{i:06d}"
        kind = "database" if i % 10 == 9 else "service"
        lang = "rust" if variant and i % 301 == 0 else "go"
        comp = ModelComponent(id=cid, kind=kind, attributes={"language": lang} if kind == "service" else {})
        if kind == "service" and i % 5 == 0:
            comp.ports["http"] = ModelPort("http", "http", endpoints=[ModelEndpoint("GET", f"/api/{i}")])
        model.components[cid] = comp
        ids.append((cid, kind))
    for i, (cid, kind) in enumerate(ids):
        if kind == "service":
            tgt, tkind = ids[(i + 1) % parts]
            proto = "sql" if tkind == "database" else ("grpc" if variant and i % 499 == 0 else "http")
            model.connections.append(ModelConnection(cid, tgt, proto))
    return render_target(model, library=False)


def _table(diff, direct: bool, width: int = 120) -> str:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    saved = render.DIRECT_TABLE_ROWS
    render.DIRECT_TABLE_ROWS = 0 if direct else 10**9
    try:
        render.render_table(diff, Console(file=out, width=width, no_color=True))
    finally:
        render.DIRECT_TABLE_ROWS = saved
    return out.getvalue()


def test_diff_of_big_models_is_near_linear():
    a_text, b_text = big_target(20_000), big_target(20_000, variant=True)
    t = time.process_time()
    read_sysml_text(a_text, "a.sysml")  # what check does with its target
    read_once = time.process_time() - t

    t = time.process_time()
    a, b = read_sysml_text(a_text, "a.sysml"), read_sysml_text(b_text, "b.sysml")
    d = diff_models(a, b)
    table = _table(d, direct=True)
    diff_cost = time.process_time() - t
    # quadratic matching took minutes here; linear work is two reads plus a little
    assert diff_cost < 4 * read_once + 2, (diff_cost, read_once)
    counts = d.counts()
    n = 20_000
    retyped = sum(1 for i in range(n) if i % 499 == 0 and i % 10 != 9 and (i + 1) % 10 != 9)
    assert counts["component"] == {"added": 0, "removed": 0,
                                   "changed": sum(1 for i in range(n) if i % 301 == 0 and i % 10 != 9)}
    assert counts["connection"] == {"added": 0, "removed": 0, "changed": retyped}
    assert len(d.matches) == len(range(0, n, 997))  # renamed parts matched by normalised name
    assert f"connections +0 -0 ~{retyped}" in table


def test_direct_table_is_the_rich_table():
    small = read_sysml_text("package E { part system { part x : Service; } }", "e.sysml")
    a, b = read_sysml_text(big_target(600), "a.sysml"), read_sysml_text(big_target(600, variant=True), "b.sysml")
    for d in (diff_models(small, a), diff_models(a, small), diff_models(a, b)):
        assert _table(d, direct=True) == _table(d, direct=False)
    # columns that do not fit are left to rich's folding: the same text either way
    d = diff_models(small, a)
    assert _table(d, direct=True, width=30) == _table(d, direct=False, width=30)
