"""Write the gallery and every explorer as a static site that works from `file://`.

Browsers refuse fetch() of local files, so each model's data (model.json, model.sysml and
pre-cut source snippets) is embedded in `data/<name>.js`, loaded with a plain <script> tag.
All links are relative, and a <meta> CSP keeps the same no-inline-script rule as the server.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any, Iterable

from repomodeler.records import RepomodelerError
from repomodeler.resources import web_dir

from .bundle import write_bundle
from .compare import candidates, current_model, overlay_between
from .render import STATIC_CSP, render_explorer, render_gallery
from .source import all_snippets, history_sources, source_roots as resolve_source_roots
from .store import ModelStore, NotFound

#: Vendored assets only the live server needs (the /docs page); not copied into a site.
_SERVER_ONLY = ("swagger-ui-dist-*", "axe-core-*")
#: Other models each published model is pre-compared with (N models cost N x this many diffs).
MAX_MODEL_OVERLAYS = 20


def precomputed_overlays(store: ModelStore, name: str) -> dict[str, Any]:
    """Overlays against the targets (and a few other models) present now, for the static site.

    A `file://` page cannot ask a server, so the "Compare with" choices are computed at publish
    time; stored runs are skipped (they belong to the machine, not to the published models).
    A candidate whose diff fails is left out rather than failing the whole site.
    """
    listed, overlays = [], {}
    try:
        current = current_model(store, name)
        found = candidates(store, name, with_runs=False)
    except (NotFound, RepomodelerError):
        return {"candidates": [], "overlays": {}}
    models_done = 0
    for cand in found:
        if cand.kind == "model":
            if models_done >= MAX_MODEL_OVERLAYS:
                continue
            models_done += 1
        try:
            overlays[cand.id] = overlay_between(current, cand)
        except (NotFound, RepomodelerError):
            continue
        listed.append(cand.to_json())
    return {"candidates": listed, "overlays": overlays}


def _data_script(payload: dict[str, Any], variable: str = "__MODEL__") -> str:
    """JavaScript that sets window.<variable>; ASCII-only JSON with `<` escaped, so the file
    stays valid whatever the model contains."""
    text = json.dumps(payload, ensure_ascii=True, separators=(",", ":"), sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f"window.{variable} = " + text + ";\n"


def publish_site(models_dir: Path, out_dir: Path, source_roots: Iterable[Path | str] = ()) -> int:
    """Publish every model under `models_dir` into `out_dir`; return how many were written.

    Snippets are cut only from checkouts under the clone cache or `source_roots` (as `serve`):
    a models folder's run.json must not be able to copy other files of this machine into a site.
    The site is written into a staging folder and swapped in like a model (repomodeler/publish.py:
    one writer at a time, old or new site complete after a kill at any step, the user's own files
    in `out_dir` kept), so a model removed from `models_dir` leaves the site.
    """
    from repomodeler import publish as _publish

    store = ModelStore(Path(models_dir))
    roots = resolve_source_roots(source_roots)
    out = _publish.resolve_out(Path(out_dir), "--out")
    with _publish.output_lock(out) as notes:
        for note in notes:
            print(f"note: {note}", file=sys.stderr)
        staging = _publish.stage_dir(out)
        try:
            count = _write_site(store, roots, staging)
            _publish.swap_into_place(staging, out)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return count


def _write_site(store: ModelStore, roots: Any, out: Path) -> int:
    from repomodeler.publish import crash_point, write_file

    static_out = out / "static"
    shutil.copytree(web_dir() / "static", static_out, ignore=shutil.ignore_patterns(*_SERVER_ONLY, "__pycache__"))
    crash_point("copy static")
    # file:// pages cannot load ES modules: the explorer's modules go in as one classic script
    write_bundle(web_dir() / "static", static_out)
    crash_point("write bundle")
    for sub in ("models", "data", "files"):
        (out / sub).mkdir(exist_ok=True)

    summaries, previews = [], {}
    for name in store.names():
        try:
            model, run, summary = store.model(name), store.run(name), store.summary(name)
        except NotFound:
            continue
        files_dir = out / "files" / name
        files_dir.mkdir(parents=True, exist_ok=True)
        for filename in summary["files"]:
            (files_dir / filename).write_bytes(store.read_download(name, filename))
        payload = {
            "model": model,
            "nesting": store.nesting(name),
            "sysml": store.sysml(name),
            "snippets": all_snippets(model, run, roots=roots, known=history_sources(store.open_file(name, "model.json"))),
            "run": {"analysed_at": run.get("analysed_at"), "version": run.get("version")},
            "compare": precomputed_overlays(store, name),
        }
        write_file(out / "data" / f"{name}.js", _data_script(payload))
        html = render_explorer(
            summary,
            static="../static",
            home_href="../index.html",
            mode="static",
            data_script=f"../data/{name}.js",
            files_base=f"../files/{name}/",
            csp_meta=STATIC_CSP,
        )
        write_file(out / "models" / f"{name}.html", html)
        summaries.append(summary)
        previews[name] = store.preview(name)

    landscape = _write_landscape(store.root, out)
    gallery = render_gallery(
        summaries, static="static", model_href=lambda n: f"models/{n}.html", mode="static", csp_meta=STATIC_CSP,
        previews=previews, landscape_href=landscape,
    )
    write_file(out / "index.html", gallery)
    return len(summaries)


LANDSCAPE_PAGE = "landscape.html"
LANDSCAPE_DATA = "landscape-data.js"  # beside the page, not in data/: a system may be named "landscape"


def _write_landscape(models_dir: Path, out: Path) -> str | None:
    """The landscape page and its data, when the models folder holds a landscape (analyze --inputs or
    --discover); its href from the gallery, else None.  A landscape.json that does not parse is
    noted and left out: the systems' own pages are published all the same."""
    from repomodeler.publish import write_file

    from .landscape import has_landscape, landscape_document, placement
    from .render import render_landscape
    from .store import BrokenModel

    if not has_landscape(models_dir):
        return None
    try:
        _raw, data = landscape_document(models_dir)
    except (NotFound, BrokenModel) as exc:
        print(f"note: the landscape was left out of the site ({getattr(exc, 'reason', 'it could not be read')})",
              file=sys.stderr)
        return None
    write_file(out / LANDSCAPE_DATA, _data_script({"model": data, "placement": placement(data)}, "__LANDSCAPE__"))
    write_file(out / LANDSCAPE_PAGE, render_landscape(
        static="static", home_href="index.html", mode="static", model_href="models/", model_suffix=".html",
        data_script=LANDSCAPE_DATA, csp_meta=STATIC_CSP))
    return LANDSCAPE_PAGE
