"""The sketch a gallery card draws its preview from (repomodeler/serve/preview.py), and that the
gallery page carries it for the live server and for the published site alike."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from repomodeler.serve.preview import PREVIEW_MAX, sketch
from repomodeler.serve.publish import publish_site


def _model(nodes: list[dict[str, Any]], edges: list[tuple[str, str, str]]) -> dict[str, Any]:
    return {"nodes": nodes, "edges": [{"id": f"{s}->{t}:{p}", "source": s, "target": t, "protocol": p} for s, t, p in edges]}


def test_sketch_is_the_top_level_by_index_without_names() -> None:
    model = _model(
        [{"id": "web", "kind": "service"}, {"id": "api", "kind": "gateway"}, {"id": "db", "kind": "database"},
         {"id": "api.handlers", "kind": "subsystem", "parent": "api"}],
        [("web", "api", "http"), ("web", "api", "http"), ("api", "db", "sql"), ("api.handlers", "db", "sql"),
         ("api", "api", "http"), ("web", "ghost", "http")])
    got = sketch(model)
    # sorted by id: api, db, web; the subsystem, its link, the self-loop and the dangling edge are left out
    assert got == {"kinds": ["gateway", "database", "service"], "edges": [[0, 1, "sql"], [2, 0, "http"]]}
    assert "web" not in json.dumps(got) and "api" not in json.dumps(got)
    model["nodes"].reverse()
    assert sketch(model) == got  # the same page for the same model


def test_sketch_left_out_when_empty_or_too_big() -> None:
    assert sketch({"nodes": [], "edges": []}) is None
    assert sketch({"nodes": "nonsense"}) is None
    many = [{"id": f"s{i}", "kind": "service"} for i in range(PREVIEW_MAX + 1)]
    assert sketch({"nodes": many, "edges": []}) is None
    assert sketch({"nodes": many[:PREVIEW_MAX], "edges": []}) is not None


def test_published_gallery_embeds_each_cards_sketch(tmp_path: Path) -> None:
    models = tmp_path / "models"
    for name, n in [("alpha", 3), ("beta", 2)]:
        (models / name).mkdir(parents=True)
        nodes = [{"id": f"{name}{i}", "name": f"{name}{i}", "kind": "service"} for i in range(n)]
        edges = [(f"{name}0", f"{name}{i}", "http") for i in range(1, n)]
        (models / name / "model.json").write_text(json.dumps({"name": name, "repositories": [], **_model(nodes, edges)}))
    publish_site(models, tmp_path / "site")
    page = (tmp_path / "site" / "index.html").read_text()
    found = {m.group(1): json.loads(html.unescape(m.group(2)))
             for m in re.finditer(r"data-name=\"([a-z]+)\".*?data-sketch='([^']*)'", page, re.S)}
    assert found == {"alpha": {"kinds": ["service"] * 3, "edges": [[0, 1, "http"], [0, 2, "http"]]},
                     "beta": {"kinds": ["service"] * 2, "edges": [[0, 1, "http"]]}}
