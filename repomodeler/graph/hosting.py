"""Static hosting that forwards paths to backends: the web app it serves reaches those backends.

Why: a browser app deployed on Firebase Hosting calls ``/api/trainer`` on its own origin, and the
hosting's rewrites (``firebase.json``: ``"run": {"serviceId": "trainer-http"}``, ``"function":
"api"``) send the request to a Cloud Run service or a Cloud Function.  Hosting is the platform's,
not a running part of the system, so the link is drawn from the web app to the backend (as the
browser code would show it, had it named the host).  The web app is the component that owns the
folder Hosting publishes (``"public": "dist"`` beside the file), else the one owning the file,
else the repository's one browser app.
"""

from __future__ import annotations

import posixpath
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase
from repomodeler.records import Fact, Unresolved


class HostingRules(ResolverBase):
    """Web apps connected to the backends their hosting rewrites to."""

    def hosting_rewrites(self) -> None:
        for f in self.by_kind["hosting.rewrite"]:
            app = self._hosted_app(f)
            name = (f.get("service") or "").lower()
            target = self.alias.get(name)
            if app is None or target is None:
                self.model.unresolved.append(Unresolved(app or "(hosting)", f.get("service") or "", f.evidence))
                continue
            self.connect(app, target, "http", [f.evidence],
                         attributes={"via": f"hosting rewrite {f.get('source') or ''}".rstrip()})

    def _hosted_app(self, f: Fact) -> str | None:
        public = f.get("public") or ""
        served = posixpath.normpath(posixpath.join(str(PurePosixPath(f.path).parent), public, "index.html"))
        for path in ([served] if public and not served.startswith("..") else []) + [f.path]:
            owner = self.owner_of(f.repository, path)
            if owner is not None and self.model.components[owner].kind in ("webapp", "service", "gateway"):
                return owner
        apps = sorted(c.id for c in self.model.components.values() if c.kind == "webapp" and c.repository == f.repository)
        return apps[0] if len(apps) == 1 else None
