"""The read-only FastAPI application behind `repomodeler serve`.

It only reads MODELS_DIR (and, for snippets, the checkouts named in run.json); it never
clones, analyses or deletes. Every response carries a restrictive Content-Security-Policy so a
hostile string in a model cannot run script even if some template forgot to escape it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from repomodeler import __version__
from repomodeler.records import RepomodelerError
from repomodeler.resources import web_dir

from .compare import BadCandidate, candidates, overlay
from .render import SERVER_CSP, render_docs, render_explorer, render_gallery
from .source import BadRequest, snippet
from .store import ModelStore, NotFound

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


def create_app(models_dir: Path, runs: Any | None = None) -> FastAPI:
    """Build the app serving every model folder under `models_dir` (read at request time).

    `runs` is the run history to offer for comparisons (a RunStore); by default the one under
    $REPOMODELER_HOME, looked up per request so the server follows the environment it runs in.
    """
    store = ModelStore(Path(models_dir))

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
    app.mount("/static", StaticFiles(directory=str(web_dir() / "static")), name="static")

    def guarded(fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None

    # ---- HTML ----------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def gallery() -> HTMLResponse:
        summaries = [_safe_summary(store, n) for n in store.names()]
        html = render_gallery(
            [s for s in summaries if s], static="/static", model_href=lambda n: f"/models/{n}", mode="server"
        )
        return HTMLResponse(html)

    @app.get("/models/{name}", response_class=HTMLResponse, include_in_schema=False)
    def explorer(name: str) -> HTMLResponse:
        summary = guarded(store.summary, name)
        html = render_explorer(
            summary,
            static="/static",
            home_href="/",
            mode="server",
            api_base=f"/api/models/{name}",
            files_base=f"/api/models/{name}/files/",
        )
        return HTMLResponse(html)

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(render_docs(static="/static", openapi_url=app.openapi_url or "/openapi.json"))

    # ---- JSON API ------------------------------------------------------------------------
    @app.get("/api/models", summary="List models with their summaries")
    def list_models() -> list[dict[str, Any]]:
        return [s for s in (_safe_summary(store, n) for n in store.names()) if s]

    @app.get("/api/models/{name}", summary="The model.json of one model")
    def get_model(name: str) -> JSONResponse:
        return JSONResponse(guarded(store.model, name))

    @app.get("/api/models/{name}/summary", summary="Gallery summary of one model")
    def get_summary(name: str) -> dict[str, Any]:
        return guarded(store.summary, name)

    @app.get("/api/models/{name}/sysml", response_class=PlainTextResponse, summary="The model.sysml text")
    def get_sysml(name: str) -> PlainTextResponse:
        store_folder = guarded(store.folder, name)
        if not (store_folder / "model.sysml").is_file():
            raise HTTPException(status_code=404, detail="not found")
        return PlainTextResponse(store.sysml(name), media_type="text/plain; charset=utf-8")

    @app.get("/api/models/{name}/files/{filename}", summary="Download a file of the model folder")
    def get_file(name: str, filename: str) -> FileResponse:
        path = guarded(store.file, name, filename)
        media = "application/json" if path.suffix == ".json" else "text/plain; charset=utf-8"
        if path.suffix == ".kpar":
            media = "application/zip"
        return FileResponse(path, media_type=media, filename=path.name)

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
            return snippet(model, run, repository, path, line)
        except BadRequest as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        except NotFound:
            raise HTTPException(status_code=404, detail="not found") from None

    return app


def _safe_summary(store: ModelStore, name: str) -> dict[str, Any] | None:
    """A summary, or None when a folder vanished or broke between listing and reading."""
    try:
        return store.summary(name)
    except NotFound:
        return None


def run_server(models_dir: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve `models_dir` with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(Path(models_dir)), host=host, port=port, log_level="info")
