"""``frontend.bundled-apps``: a browser app nothing deploys apart is part of the server that ships it.

Why: ``frontend.webapps`` draws every front-end package as a browser app the user opens, calling the
server that hands out its build.  When that build lives inside the server (a Go package embedding
``dist/`` with ``//go:embed``, the server's image copying it in, the app's folder inside the server's
code, the server's build depending on the app's package), nobody deploys the app: there is one
program the user reaches, and the architecture its own documents draw has one box (Traggo's "one
binary serving the GraphQL API and the React UI", ZincSearch's UI built into its binary, pgAdmin's
React front end in its one gunicorn container).  Drawing a second box beside it put an element in
the model no deployment runs, and left the user reaching the app instead of the server.

So a browser app with no deployment of its own (no compose service, workload or image runs it, no
recipe builds it) is folded into the one server that ships its build: its links become the
server's (the user opens the server), its folder becomes the server's code, and the server records
the app's folder as the UI it serves.  An app a deployment runs (its own nginx container, a static
site) stays, and so does one whose server is only inferred from the routes it calls."""

from __future__ import annotations

from repomodeler.graph.base import ResolverBase
from repomodeler.graph.naming import is_under

# How `frontend.webapps` found the server that ships an app's build: each one a place in the server
# (its code, its image, its build) that holds the build.  (A server found only by the routes the app
# calls, or as the repository's one HTTP server, is a guess about where the app is hosted, not this.)
SHIPPED_BY_SERVER = frozenset({
    "the app's folder is part of the server's code",
    "its image ships the app (Dockerfile COPY)",
    "its code embeds the app's build",
    "its build depends on the app's package",
})


class BundledAppRules(ResolverBase):
    """Browser apps shipped inside a server's program or image: part of that server."""

    def bundled_apps(self) -> None:
        for cid in sorted(self.model.components):
            app = self.model.components.get(cid)
            if app is None or app.kind != "webapp" or self._deployed_apart(cid):
                continue
            server = self._shipping_server(cid)
            if server is None:
                continue
            folders = sorted(root or "." for repo, root in app.source_roots if repo == app.repository)
            app.attributes.pop("role", None)  # (the server is no browser app: the app's own attributes stay out)
            made_by = set(app.rules)
            self.fold_component(cid, server)
            kept = self.model.components[server]
            kept.rules.update(made_by)  # (the rules that found the app shaped the server it became part of)
            if folders:
                kept.attributes["serves_ui"] = ", ".join(sorted({*kept.attributes.get("serves_ui", "").split(", "),
                                                                 *folders} - {""}))

    def _deployed_apart(self, cid: str) -> bool:
        """Does a deployment run the app (a compose service, workload or image of its own, a recipe
        building it)?"""
        attrs = self.model.components[cid].attributes
        return bool(attrs.get("deployment") or attrs.get("image") or attrs.get("built_by"))

    def _shipping_server(self, cid: str) -> str | None:
        """The one service whose code, image or build holds the app's build (the same-origin link
        `frontend.webapps` drew, by what showed it); else, when the app has no server at all or links only by
        the calls it makes to the one it reaches, the one service of its repository whose code folder holds the
        app's folder (a Go server at the root with its front end's package.json beside go.mod)."""
        linked = sorted({k[1] for k, c in self.model.connections.items()
                         if k[0] == cid and c.attributes.get("same_origin") == "true"})
        shipped = sorted({k[1] for k, c in self.model.connections.items()
                          if k[0] == cid and c.attributes.get("same_origin") == "true"
                          and c.attributes.get("via") in SHIPPED_BY_SERVER
                          # (a server image running an nginx in front of its own code is taken for a gateway; one
                          # built on a gateway framework, Zuul's or Spring Cloud Gateway's, routes for a UI apart)
                          and (self.model.components[k[1]].kind == "service"
                               or (self.model.components[k[1]].kind == "gateway" and k[1] not in self.framework_gateways))})
        if linked and shipped:
            return shipped[0] if len(shipped) == 1 and linked == shipped else None
        app = self.model.components[cid]
        roots = [root for repo, root in app.source_roots if repo == app.repository]
        if len(roots) != 1:
            return None
        holders: list[tuple[int, str]] = []
        for other in sorted(self.model.components.values(), key=lambda c: c.id):
            if other.id == cid or other.kind != "service" or not self.has_code(other):
                continue
            held = [r for repo, r in other.source_roots if repo == app.repository and is_under(roots[0], r)]
            if held:
                holders.append((max(len(r) for r in held), other.id))
        if not holders:
            return None
        deepest = max(n for n, _c in holders)
        found = [c for n, c in holders if n == deepest]
        if len(found) != 1:
            return None
        # (an app linked to its server only by the calls it makes, a SignalR hub it reaches: the server whose code
        # folder holds the app's, src/Ombi/ClientApp of src/Ombi, when that is the server it calls)
        return found[0] if not linked or linked == found else None
