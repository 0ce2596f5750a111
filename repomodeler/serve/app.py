"""The read-only FastAPI application behind `repomodeler serve`.

It only reads MODELS_DIR (and, for snippets, the checkouts named in run.json when they lie under
a source root: the clone cache or a folder passed with --source-root); it never clones, analyses
or deletes. MODELS_DIR is untrusted: a broken model is one broken gallery entry, never an error
for every model. Requests whose Host header is not this machine's loopback name (or the bound or
explicitly allowed host) get 400, so a web page using DNS rebinding cannot read the API. Every
response carries a restrictive Content-Security-Policy so a hostile string in a model cannot run
script even if some template forgot to escape it.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any, Iterable

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from repomodeler import __version__
from repomodeler.records import RepomodelerError
from repomodeler.resources import web_dir

from .compare import BadCandidate, candidates, overlay
from .render import SERVER_CSP, render_docs, render_explorer, render_gallery
from .source import BadRequest, snippet
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
               allowed_hosts: Iterable[str] = ()) -> FastAPI:
    """Build the app serving every model folder under `models_dir` (read at request time).

    `runs` is the run history to offer for comparisons (a RunStore); by default the one under
    $REPOMODELER_HOME, looked up per request so the server follows the environment it runs in.
    Snippets are read only from checkouts under $REPOMODELER_HOME/repos or `source_roots`.
    Requests are answered only for Host names in LOOPBACK_HOSTS or `allowed_hosts` (in-process
    tests pass "testserver", the name Starlette's TestClient sends).
    """
    store = ModelStore(Path(models_dir))
    extra_roots = tuple(source_roots)

    def run_store() -> Any:
        if runs is not None:
            return runs
        from repomodeler.store import RunStore

        return RunStore(read_only=True)
    app = FastAPI(
        title="repomodeler viewer",
        description="Read-only API over analysed architecture models.",
        version=__version__,
        docs_url=None,  # the default page loads swagger-ui from a CDN; ours is vendored
        redoc_url=None,
    )
    app.add_middleware(SecurityHeaders)
    app.add_middleware(TrustedHosts, allowed=LOOPBACK_HOSTS | set(allowed_hosts))
    app.mount("/static", StaticFiles(directory=str(web_dir() / "static")), name="static")

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
        page = render_gallery(cards, static="/static", model_href=lambda n: f"/models/{n}", mode="server", previews=previews)
        return HTMLResponse(page)

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
            return snippet(model, run, repository, path, line, roots=resolve_source_roots(extra_roots))
        except BadRequest as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None

    return app


def landscape_json(models_dir: Path) -> Response:
    """The landscape.json of `models_dir`, or NotFound.  Served as the file's bytes once they parse as a
    model document (JSON, an object with ``nodes`` and ``edges`` lists): the page sets every value as
    text, never as markup, and a 5,000-component landscape is 3 MB that a read-and-rewrite would take
    half a second to pass through."""
    from repomodeler.model import ModelFormatError, parse

    path = models_dir / "landscape.json"
    if not path.is_file() or path.is_symlink():
        raise NotFound(str(path))
    try:
        raw = path.read_bytes()
        data = parse(raw, "landscape.json")
    except OSError:
        raise NotFound(str(path)) from None
    except ModelFormatError as exc:
        raise BrokenModel("landscape", exc.reason) from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list) or not isinstance(data.get("edges"), list):
        raise BrokenModel("landscape", "has no 'nodes' and 'edges' lists")
    return Response(raw, media_type="application/json")


def run_server(models_dir: Path, host: str = "127.0.0.1", port: int = 8000, *,
               source_roots: Iterable[Path | str] = (), allowed_hosts: Iterable[str] = ()) -> None:
    """Serve `models_dir` with uvicorn until interrupted; the bound host is an allowed Host name."""
    import uvicorn

    hosts = {*allowed_hosts, *([host] if host not in ("0.0.0.0", "::", "") else [])}
    uvicorn.run(create_app(Path(models_dir), source_roots=source_roots, allowed_hosts=hosts),
                host=host, port=port, log_level="info")
