"""The read-only FastAPI application behind `repomodeler serve`.

It only reads MODELS_DIR (and, for snippets, the checkouts named in run.json when they lie under
a source root: the clone cache or a folder passed with --source-root); it never deletes, and it
clones and analyses only when started with --allow-analyze (serve/analyze.py), then only
https:// repositories of the hosts named there, one run at a time by default. MODELS_DIR is untrusted: a broken model is one broken gallery entry, never an error
for every model. Requests whose Host header is not this machine's loopback name (or the bound or
explicitly allowed host) get 400, so a web page using DNS rebinding cannot read the API. Every
response carries a restrictive Content-Security-Policy so a hostile string in a model cannot run
script even if some template forgot to escape it.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Iterable

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from repomodeler import __version__
from repomodeler.records import RepomodelerError
from repomodeler.resources import web_dir

from .analyze import AnalyzePolicy, AnalyzeQueue, Refused
from .compare import BadCandidate, candidates, overlay
from .render import SERVER_CSP, render_analyze_job, render_docs, render_explorer, render_gallery, render_refused
from .source import BadRequest, SourceMissing, history_sources, snippet
from .source import source_roots as resolve_source_roots
from .store import BrokenModel, ModelStore, NotFound

#: Host names always accepted: this machine's loopback (a rebinding attacker's name is not one).
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", SERVER_CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Pure ASGI middleware (no buffering) adding the security headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in SECURITY_HEADERS}
                headers = [h for h in message.get("headers", []) if h[0].lower() not in names]
                message["headers"] = headers + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(header: str) -> str:
    """The host part of a Host header, lower-case, without port or IPv6 brackets."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    if value.count(":") == 1:
        value = value.split(":", 1)[0]
    return value.rstrip(".")


class TrustedHosts:
    """Pure ASGI middleware: 400 for a request whose Host header is not in `allowed` (DNS rebinding)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(host_name(h) for h in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            hosts = [v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"]
            if len(hosts) != 1 or host_name(hosts[0]) not in self.allowed:
                body = (b"invalid Host header; open the viewer as http://127.0.0.1:PORT/ "
                        b"or allow this name with 'repomodeler serve --allow-host NAME'")
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"content-length", str(len(body)).encode())] + SECURITY_HEADERS})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def create_app(models_dir: Path, runs: Any | None = None, *, source_roots: Iterable[Path | str] = (),
               allowed_hosts: Iterable[str] = (), analyze: AnalyzePolicy | None = None) -> FastAPI:
    """Build the app serving every model folder under `models_dir` (read at request time).

    `runs` is the run history to offer for comparisons (a RunStore); by default the one under
    $REPOMODELER_HOME, looked up per request so the server follows the environment it runs in.
    Snippets are read only from checkouts under $REPOMODELER_HOME/repos or `source_roots`.
    Requests are answered only for Host names in LOOPBACK_HOSTS or `allowed_hosts` (in-process
    tests pass "testserver", the name Starlette's TestClient sends).
    `analyze` turns on analysing from the browser (serve --allow-analyze; see serve/analyze.py).
    """
    store = ModelStore(Path(models_dir))
    queue = AnalyzeQueue(Path(models_dir), analyze) if analyze is not None and analyze.enabled else None
    extra_roots = tuple(source_roots)

    def run_store() -> Any:
        if runs is not None:
            return runs
        from repomodeler.store import RunStore

        return RunStore(read_only=True)
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> Any:
        yield
        if queue is not None:  # the server stops: so do the runs in progress
            queue.stop()

    app = FastAPI(
        lifespan=lifespan,
        title="repomodeler viewer",
        description="Read-only API over analysed architecture models.",
        version=__version__,
        docs_url=None,  # the default page loads swagger-ui from a CDN; ours is vendored
        redoc_url=None,
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(TrustedHosts, allowed=LOOPBACK_HOSTS | set(allowed_hosts))
    app.mount("/static", StaticFiles(directory=str(web_dir() / "static")), name="static")
    app.state.analyze_queue = queue

    def guarded(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except BrokenModel as exc:
            raise HTTPException(status_code=422, detail=f"model '{exc.name}' is broken: {exc.reason}") from None
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None

    def summaries() -> list[dict[str, Any]]:
        return [s for s in (store.safe_summary(n) for n in store.names()) if s]

    # ---- HTML ----------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def gallery() -> HTMLResponse:
        cards = summaries()
        previews = {s["name"]: store.preview(s["name"]) for s in cards if not s.get("broken")}
        from .landscape import has_landscape

        page = render_gallery(cards, static="/static", model_href=lambda n: f"/models/{n}", mode="server", previews=previews,
                              analyze=_analyze_view(queue),
                              landscape_href="/landscape" if has_landscape(Path(models_dir)) else None)
        return HTMLResponse(page)

    # ---- analysing from the browser (serve --allow-analyze) -------------------------------
    def refused(message: str, status: int) -> HTMLResponse:
        return HTMLResponse(render_refused(message, static="/static", analyze=_analyze_view(queue)), status_code=status)

    @app.post("/analyze", response_class=HTMLResponse, include_in_schema=False)
    async def analyze_form(request: Request) -> Response:
        if queue is None:
            return refused("analysing from the browser is off on this server; its operator can turn it on with "
                           "'repomodeler serve --allow-analyze HOST'", 404)
        if not _same_origin(request):
            return refused("the form was sent from another site; open the gallery and submit it from there", 403)
        from urllib.parse import parse_qs

        body = await request.body()
        if len(body) > 20_000:
            return refused("the form is too large", 413)
        try:
            fields = parse_qs(body.decode("utf-8"), max_num_fields=40)
        except (UnicodeDecodeError, ValueError):
            return refused("the form could not be read", 400)
        urls = [u for value in fields.get("url", []) for u in value.split()]
        try:
            job = queue.submit(urls, (fields.get("name") or [""])[0], request.client.host if request.client else "?")
        except Refused as exc:
            return refused(exc.message, exc.status)
        return RedirectResponse(f"/analyze/jobs/{job.id}", status_code=303)

    @app.get("/analyze/jobs/{job_id}", response_class=HTMLResponse, include_in_schema=False)
    def analyze_job_page(job_id: int) -> HTMLResponse:
        job = queue.get(job_id) if queue is not None else None
        if job is None:
            raise HTTPException(status_code=404, detail="not found")
        return HTMLResponse(render_analyze_job(job.to_json(), static="/static"))

    @app.get("/api/analyze/jobs", summary="Runs asked for from the browser (serve --allow-analyze)")
    def analyze_jobs() -> list[dict[str, Any]]:
        """Newest first: id, inputs, system name, state (queued, running, published, failed), message."""
        return [j.to_json() for j in queue.listing()] if queue is not None else []

    @app.get("/api/analyze/jobs/{job_id}", summary="One run asked for from the browser, with its events")
    def analyze_job(job_id: int) -> dict[str, Any]:
        job = queue.get(job_id) if queue is not None else None
        if job is None or queue is None:
            raise HTTPException(status_code=404, detail="not found")
        return job.to_json() | {"events": queue.events_since(job, 0)}

    @app.get("/api/analyze/jobs/{job_id}/events", summary="The run's progress as server-sent events")
    async def analyze_events(job_id: int) -> StreamingResponse:
        """One `data:` JSON line per event (queued, started, stage, progress, published or failed);
        the stream ends after the last."""
        import asyncio
        import json as _json

        job = queue.get(job_id) if queue is not None else None
        if job is None or queue is None:
            raise HTTPException(status_code=404, detail="not found")

        async def stream() -> Any:
            sent, idle = 0, 0.0
            while True:
                events = queue.events_since(job, sent)
                for event in events:
                    yield f"data: {_json.dumps(event, sort_keys=True)}\n\n"
                sent += len(events)
                if job.finished and not queue.events_since(job, sent):
                    return
                if not events:
                    idle += 0.2
                    if idle >= 15:
                        idle = 0.0
                        yield ": still running\n\n"
                await asyncio.sleep(0.2)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"cache-control": "no-store"})

    @app.get("/models/{name}", response_class=HTMLResponse, include_in_schema=False)
    def explorer(name: str) -> HTMLResponse:
        try:
            summary = store.summary(name)
        except BrokenModel as exc:
            return HTMLResponse(f"<!doctype html><title>broken model</title><p>The model "
                                f"<b>{html.escape(exc.name)}</b> cannot be shown: {html.escape(exc.reason)}.</p>"
                                '<p><a href="/">All models</a></p>', status_code=422)
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None
        page = render_explorer(
            summary,
            static="/static",
            home_href="/",
            mode="server",
            api_base=f"/api/models/{name}",
            files_base=f"/api/models/{name}/files/",
        )
        return HTMLResponse(page)

    @app.get("/landscape", response_class=HTMLResponse, include_in_schema=False)
    def landscape_page() -> HTMLResponse:
        from repomodeler.serve.render import render_landscape

        return HTMLResponse(render_landscape(static="/static", home_href="/", mode="server", api="/api/landscape",
                                             model_href="/models/"))

    @app.get("/api/landscape", summary="The landscape.json of the models folder (analyze --inputs/--discover)")
    def get_landscape() -> Response:
        """Systems (top-level nodes of kind `system`), their components (nodes with `parent`) and
        the connections between systems; 404 when the folder holds no landscape."""
        return guarded(landscape_json, Path(models_dir))

    @app.get("/api/landscape/nesting", summary="Each landscape node's system and depth (repomodeler.model.nesting)")
    def get_landscape_nesting() -> JSONResponse:
        return guarded(landscape_nesting, Path(models_dir))

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(render_docs(static="/static", openapi_url=app.openapi_url or "/openapi.json"))

    # ---- JSON API ------------------------------------------------------------------------
    @app.get("/api/models", summary="List models with their summaries")
    def list_models() -> list[dict[str, Any]]:
        """One summary per model folder; a folder whose model cannot be read is listed with
        `"broken": true` and an `error` line instead of its counts."""
        return summaries()

    @app.get("/api/models/{name}", summary="The model.json of one model")
    def get_model(name: str) -> JSONResponse:
        return JSONResponse(guarded(store.model, name))

    @app.get("/api/models/{name}/nesting", summary="Where each node sits: top-level component, depth, ancestors")
    def get_nesting(name: str) -> dict[str, dict[str, object]]:
        """Node id -> ``top``, ``depth`` and ``ancestors`` (outermost first), from
        repomodeler.model.nesting: what the explorer needs to draw parts inside components."""
        return guarded(store.nesting, name)

    @app.get("/api/models/{name}/summary", summary="Gallery summary of one model")
    def get_summary(name: str) -> dict[str, Any]:
        return guarded(store.summary, name)

    @app.get("/api/models/{name}/sysml", response_class=PlainTextResponse, summary="The model.sysml text")
    def get_sysml(name: str) -> PlainTextResponse:
        return PlainTextResponse(guarded(store.sysml_text, name), media_type="text/plain; charset=utf-8")

    @app.get("/api/models/{name}/files/{filename}", summary="Download a file of the model folder")
    def get_file(name: str, filename: str) -> Response:
        data = guarded(store.read_download, name, filename)
        suffix = Path(filename).suffix
        media = "application/json" if suffix == ".json" else "text/plain; charset=utf-8"
        if suffix == ".kpar":
            media = "application/zip"
        return Response(data, media_type=media, headers={"content-disposition": f'attachment; filename="{filename}"'})

    @app.get("/api/models/{name}/compare-candidates", summary="What this model can be compared with")
    def get_compare_candidates(name: str) -> list[dict[str, str]]:
        """Target .sysml files (model folder, its targets/, MODELS_DIR/targets/), stored runs of
        the same system (newest first) and the other model folders; ids go to /overlay."""
        return [c.to_json() for c in guarded(candidates, store, name, run_store())]

    @app.get("/api/models/{name}/overlay", summary="Diff overlay of this model against a listed candidate")
    def get_overlay(name: str, against: str = Query(..., max_length=300)) -> dict[str, Any]:
        """The repomodeler/overlay@1 JSON from this model (current) to `against`, which must be
        one of the ids listed by compare-candidates: anything else is refused."""
        try:
            return overlay(store, name, against, run_store())
        except BadCandidate:
            raise HTTPException(status_code=400, detail="unknown comparison id") from None
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None
        except RepomodelerError as exc:
            raise HTTPException(status_code=422, detail=str(exc)) from None

    known_cache: dict[tuple[Any, ...], dict[str, dict[str, Any]]] = {}

    def known_sources(name: str) -> dict[str, dict[str, Any]]:
        """The run history's checkouts for this model.json (hashed once per file identity)."""
        import os

        info = os.lstat(store.folder(name) / "model.json")
        key = (name, info.st_ino, info.st_size, info.st_mtime_ns)
        if key not in known_cache:
            if len(known_cache) > 256:
                known_cache.clear()
            known_cache[key] = history_sources(store.open_file(name, "model.json"))
        return known_cache[key]

    @app.get("/api/models/{name}/source", summary="Source snippet around an evidence location")
    def get_source(
        name: str,
        repository: str = Query(..., max_length=500),
        path: str = Query(..., max_length=4096),
        line: int = Query(..., ge=1, le=10_000_000),
    ) -> dict[str, Any]:
        model = guarded(store.model, name)
        run = store.run(name)
        try:
            known = known_sources(name)
            return snippet(model, run, repository, path, line, roots=resolve_source_roots(extra_roots), known=known)
        except BadRequest as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        except SourceMissing as exc:  # says how to make the sources available (--source-root)
            raise HTTPException(status_code=404, detail=exc.message) from None
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None

    return app


def _analyze_view(queue: AnalyzeQueue | None) -> dict[str, Any] | None:
    """What the gallery shows of analysing from the browser: the allowed hosts and the runs."""
    if queue is None:
        return None
    return {"hosts": sorted(queue.policy.hosts), "jobs": [j.to_json() for j in queue.listing()[:20]]}


def _same_origin(request: Request) -> bool:
    """Whether a form comes from this server's own pages: the Host check alone does not stop a form
    on another site aimed at 127.0.0.1. Browsers say where a request comes from in Sec-Fetch-Site
    (the pages' no-referrer policy turns their Origin into "null", so that is read only when the
    browser sends no Sec-Fetch-Site); a client that is no browser sends neither."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return True
    from urllib.parse import urlsplit

    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        return False
    return bool(netloc) and netloc == request.headers.get("host", "").lower()


def landscape_nesting(models_dir: Path) -> JSONResponse:
    """Where each node of the landscape sits: its system (``top``) and its depth, from
    :mod:`repomodeler.model.nesting`, so the page never works out nesting from ``parent`` itself."""
    from .landscape import landscape_document, placement

    _raw, data = landscape_document(models_dir)
    return JSONResponse({"placement": placement(data)})


def landscape_json(models_dir: Path) -> Response:
    """The landscape.json of `models_dir`, or NotFound.  Served as the file's bytes once they parse as a
    model document (JSON, an object with ``nodes`` and ``edges`` lists): the page sets every value as
    text, never as markup, and a 5,000-component landscape is 3 MB that a read-and-rewrite would take
    half a second to pass through."""
    from .landscape import landscape_document

    raw, _data = landscape_document(models_dir)
    return Response(raw, media_type="application/json")


def run_server(models_dir: Path, host: str = "127.0.0.1", port: int = 8000, *,
               source_roots: Iterable[Path | str] = (), allowed_hosts: Iterable[str] = (),
               analyze: AnalyzePolicy | None = None) -> None:
    """Serve `models_dir` with uvicorn until interrupted; the bound host is an allowed Host name."""
    import uvicorn

    hosts = {*allowed_hosts, *([host] if host not in ("0.0.0.0", "::", "") else [])}
    uvicorn.run(create_app(Path(models_dir), source_roots=source_roots, allowed_hosts=hosts, analyze=analyze),
                host=host, port=port, log_level="info")
