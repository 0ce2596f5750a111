"""Read-only web viewer for analysed models: a FastAPI app, and a static-site publisher.

The server and the published site render the same templates and JavaScript, so what a person
sees from `repomodeler serve` and from a `file://` copy made by `repomodeler publish` agree.
Imports are lazy so that `import repomodeler.serve.store` does not pull in FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app", "run_server", "publish_site"]

if TYPE_CHECKING:  # pragma: no cover
    from .app import create_app, run_server
    from .publish import publish_site


def __getattr__(name: str) -> Any:
    if name in ("create_app", "run_server"):
        from . import app

        return getattr(app, name)
    if name == "publish_site":
        from .publish import publish_site

        return publish_site
    raise AttributeError(name)
