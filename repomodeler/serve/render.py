"""Jinja2 rendering shared by the live server and the static publisher.

Autoescape is forced on for every template: model content comes from arbitrary repositories
and must never become markup. Templates take a `static` prefix and link builders so the same
HTML works under `/` on the server and with relative links from `file://`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Callable

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from repomodeler.resources import web_dir

#: Policy for server responses: nothing inline, nothing remote.
SERVER_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)

#: Policy for the published site, delivered as <meta http-equiv>. `file:` pages have an opaque
#: origin, so 'self' alone would not match sibling files; allowing `file:` keeps it local-only.
STATIC_CSP = (
    "default-src 'self' file:; script-src 'self' file:; style-src 'self' file:; "
    "img-src 'self' file: data: blob:; connect-src 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'"
)


def format_when(value: Any) -> str:
    """'2026-11-30T05:00:00Z' -> 'analysed 2026-11-30 05:00 UTC'; anything else is shown as is."""
    if not value:
        return "analysis time unknown"
    try:
        stamp = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return str(value)
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(timezone.utc)
    return "analysed " + stamp.strftime("%Y-%m-%d %H:%M") + " UTC"


@lru_cache(maxsize=1)
def environment() -> Environment:
    """One shared environment; templates live in web/templates."""
    env = Environment(
        loader=FileSystemLoader(str(web_dir() / "templates")),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = format_when
    return env


def render_gallery(
    summaries: list[dict[str, Any]],
    *,
    static: str,
    model_href: Callable[[str], str],
    mode: str,
    csp_meta: str | None = None,
    previews: dict[str, Any] | None = None,
    analyze: dict[str, Any] | None = None,
    landscape_href: str | None = None,
) -> str:
    """The gallery page: one card per model, with client-side filtering; `previews` holds each
    card's diagram sketch (preview.sketch), embedded so the static site needs no fetch;
    `landscape_href` links the landscape page when the models folder holds one."""
    return environment().get_template("gallery.html").render(
        summaries=summaries,
        previews=previews or {},
        static=static,
        model_href=model_href,
        mode=mode,
        csp_meta=csp_meta,
        home_href="/" if mode == "server" else "index.html",
        analyze=analyze,
        landscape_href=landscape_href,
    )


def render_refused(message: str, *, static: str, analyze: dict[str, Any] | None) -> str:
    """The page a refused submission gets: the reason in one line, the form to try again."""
    return environment().get_template("analyze_refused.html").render(
        message=message, static=static, mode="server", csp_meta=None, home_href="/", analyze=analyze)


def render_analyze_job(job: dict[str, Any], *, static: str) -> str:
    """One run asked for from the browser: its inputs and its live progress (analyze.js)."""
    return environment().get_template("analyze_job.html").render(
        job=job, static=static, mode="server", csp_meta=None, home_href="/")


def render_explorer(
    summary: dict[str, Any],
    *,
    static: str,
    home_href: str,
    mode: str,
    api_base: str = "",
    data_script: str | None = None,
    files_base: str = "",
    csp_meta: str | None = None,
) -> str:
    """The explorer page shell; the data arrives via the JSON API or an embedded data script."""
    return environment().get_template("explorer.html").render(
        summary=summary,
        static=static,
        home_href=home_href,
        mode=mode,
        api_base=api_base,
        data_script=data_script,
        files_base=files_base,
        csp_meta=csp_meta,
    )


def render_landscape(*, static: str, home_href: str, mode: str, api: str = "", model_href: str,
                     model_suffix: str = "", data_script: str | None = None, csp_meta: str | None = None) -> str:
    """The landscape page shell (web/templates/landscape.html); the data comes from `api` (the
    server) or from `data_script` (a published site: a classic script, file:// refuses modules and fetch)."""
    return environment().get_template("landscape.html").render(
        static=static, home_href=home_href, mode=mode, api=api, model_href=model_href, model_suffix=model_suffix,
        data_script=data_script, csp_meta=csp_meta)


def render_docs(*, static: str, openapi_url: str) -> str:
    """Offline API docs page: vendored swagger-ui, initialised from a static script."""
    return environment().get_template("docs.html").render(static=static, openapi_url=openapi_url)
