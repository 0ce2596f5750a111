"""The browser app: a front-end package (Angular, React, Vue, Svelte...) built into files a browser
runs is a component of its own (kind ``webapp``), not folders of the server that hands those files out.

Why a rule of its own: before it, a single-page app and its server were one component, labelled by
whichever language had more files, and the app's folders became the server's subsystems.  The app
runs at the user and calls the server's API; the user opens it.  Which server that is comes from
what builds or ships the bundle, in this order of strength: a Dockerfile that copies the app's folder
(its image serves it), a package of the server's code that lives in the app's folder and embeds its
build (Go ``//go:embed dist``), a build manifest of the server depending on the app's package (a
Maven module depending on the ``*-ui`` artifact); failing those, the one HTTP server of the
repository.  Each link names the place that shows it.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from repomodeler.graph.base import ResolverBase, runtime_language, stages_reached
from repomodeler.graph.catalog import tech_for_image
from repomodeler.graph.naming import is_under, norm_path
from repomodeler.graph.packages import folder, go_import_folder, go_modules_of
from repomodeler.graph.processes import TOOL_DIRS
from repomodeler.records import Evidence, Fact

# Dependencies that make a package's code run in a browser (the framework that renders pages; `angular` is
# AngularJS 1.x).
UI_FRAMEWORKS = frozenset({"react-dom", "@angular/core", "angular", "vue", "svelte", "solid-js", "preact", "lit", "@lit/reactive-element"})
# ... and those that make it a server (server-side rendering or an API of its own): not a browser app.
SERVER_FRAMEWORKS = frozenset({"express", "fastify", "koa", "@nestjs/core", "@hapi/hapi", "hapi", "next", "nuxt",
                               "@remix-run/node", "@remix-run/serve", "@sveltejs/kit", "@sveltejs/adapter-node",
                               "hono", "restify", "@adonisjs/core", "socket.io", "@hocuspocus/server"})
# Tools that bundle a browser app (present in its dependencies or dev dependencies).
BUNDLERS = frozenset({"vite", "webpack", "@angular/cli", "@angular/build", "@angular-devkit/build-angular",
                      "react-scripts", "@vue/cli-service", "parcel", "rollup", "esbuild", "@rsbuild/core",
                      "@rspack/cli", "snowpack", "@sveltejs/vite-plugin-svelte", "@vitejs/plugin-react",
                      "@vitejs/plugin-vue"})
# Build plugins of a server framework: the bundle a module of the server makes with them is that module's pages'
# assets, written into the application's public folder and served with its views (Laravel's, Symfony's Encore,
# Rails' Vite Ruby), not an app of its own.
SERVER_ASSET_PLUGINS = frozenset({"laravel-vite-plugin", "laravel-mix", "@symfony/webpack-encore", "vite-plugin-ruby",
                                  "@rails/webpacker", "shakapacker",
                                  # React on Rails: components the Rails views render (on the server too), and the
                                  # Rails page helpers (unobtrusive JS, Turbo): the application's pages
                                  "react-on-rails", "@rails/ujs", "@hotwired/turbo-rails"})
# Folder names that say nothing of the app (its package name is used instead).  ``web``, ``ui``,
# ``frontend`` name a browser app well; a package name is often the whole project's (``woodpecker-ci``).
GENERIC = frozenset({"", ".", "src", "app", "www", "public"})
# Languages of servers whose routes, beside a front end's package at the application's root, say the server hands
# out the pages that package builds (a Laravel, Rails, Flask or Django application; an ASP.NET, Spring or Go server
# whose webpack build sits at the repository's root, as Prowlarr's): not a Node server, whose package it is.
SERVER_PAGE_LANGUAGES = frozenset({"php", "ruby", "python", "csharp", "java", "kotlin", "go", "rust", "elixir"})
# A package under a themes folder styles the pages of the application around it: no app of its own.
THEME_DIR = re.compile(r"(^|/)themes?/", re.I)


class WebAppRules(ResolverBase):
    """The browser apps of the system and the servers they call."""

    def webapps(self) -> None:
        deps: dict[tuple[str, str], set[str]] = {}
        for f in [*self.by_kind["manifest.dependency"], *self.by_kind["manifest.dev_dependency"]]:
            if f.get("ecosystem") == "npm":
                deps.setdefault((f.repository, folder(f.path)), set()).add((f.get("name") or "").lower())
        # npm packages a server package of the repository depends on (`"flowise-ui": "workspace:^"` in the
        # express server's package.json): it serves their build itself
        served = {(repo, name) for (repo, _d), names in deps.items() if names & SERVER_FRAMEWORKS for name in names}
        for m in self.by_kind["manifest"]:
            if m.get("ecosystem") != "npm":
                continue
            repo, d = m.repository, folder(m.path)
            names = deps.get((repo, d), set())
            if not names & UI_FRAMEWORKS or not names & BUNDLERS:
                continue
            if (repo, (m.get("name") or "").lower()) in served and not names & SERVER_FRAMEWORKS:
                continue  # the server ships this app's build (express.static of the package): the server is the UI
            server_dir = self._built_with_server(repo, d, deps) if d and not names & SERVER_FRAMEWORKS else None
            if server_dir is not None:
                # one image's recipe copies the app's package beside a server package's and runs the server (a Node
                # image exporting the app into the server's static folder): the server's UI, part of it
                app = next((c.id for c in self.model.components.values() if (repo, d) in c.source_roots
                            and c.kind in ("service", "library", "webapp")), None)
                server = next((c.id for c in self.model.components.values() if (repo, server_dir) in c.source_roots
                               and c.kind in ("service", "gateway")), None)
                if app is not None and server is not None and app != server:
                    self.fold_component(app, server)
                continue
            if m.get("library") and not self._deployed_folder(repo, d) and not self._built_into_image(repo, d):
                continue  # a component library or editor extension others import: no app anyone opens
            if d and names & SERVER_ASSET_PLUGINS and not self._deployed_folder(repo, d):
                # a module of the server building its pages' assets (packages/Acme/Admin with laravel-vite-plugin,
                # into the application's public/): its pages, not an app (the application's own front end at the
                # root, built the same way, is still drawn as the browser app its truths show)
                continue
            if THEME_DIR.search(d) and not self._deployed_folder(repo, d):
                continue  # a theme's assets (CTFd/themes/admin), built into the pages of the app holding it
            if names & SERVER_FRAMEWORKS or self._serves_itself(repo, d):
                # one package holding a server and its browser app: the app is the folder the bundler's
                # configuration builds (vite `input: "./app/index.tsx"`), when no server code lives there
                for sub, entry in self._bundled_folders(repo, d):
                    self._add_webapp(m, repo, sub, entry)
                continue
            self._add_webapp(m, repo, d)

    def _built_with_server(self, repo: str, d: str, deps: dict[tuple[str, str], set[str]]) -> str | None:
        """The package folder of a Node server (its dependencies name a server framework) that one Dockerfile
        copies into its build beside the package folder `d` (both by name, not the whole context), where that
        recipe starts no web server of its own (an nginx stage serving the app's build apart); else None."""
        recipes = {path: {c for c in copied if not any(ch in c for ch in "*?[")}
                   for path, copied in self.recipe_sources(repo).items() if copied is not None}
        for path, copied in sorted(recipes.items()):
            if d not in copied:
                continue
            if any((tech_for_image(f.get("image") or "") or ("", ""))[0] == "proxy"
                   for f in self.by_kind["docker.from"] if f.repository == repo and f.path == path):
                continue  # a web server's stage serves the app's build
            # (a package's files copied in, `COPY server/src ./src`, copy that package)
            held = {max((p for r, p in deps if r == repo and p and is_under(c, p)), key=len, default=c) for c in copied}
            servers = sorted(c for c in held if c != d and deps.get((repo, c), set()) & SERVER_FRAMEWORKS)
            if servers:
                return servers[0]
        return None

    def _deployed_folder(self, repo: str, d: str) -> bool:
        """Does a deployment (a component with a deployment or image) run the code of folder `d`?"""
        return any((repo, d) in c.source_roots and (c.attributes.get("deployment") or c.attributes.get("image"))
                   for c in self.model.components.values())

    def _built_into_image(self, repo: str, d: str) -> bool:
        """Does a Dockerfile build the package of folder `d` into an image (a stage working in it, or
        copying its build output: ``COPY --from=ui-builder /app/ui-next/dist``)?  A package that also
        publishes a library build is then an app an image serves."""
        if not d:
            return False
        return any(f.repository == repo and f.get("how") == "workdir"
                   and (f.get("target") or "").rstrip("/").endswith("/" + d)
                   for f in self.by_kind["docker.workspace_target"])

    def _bundled_folders(self, repo: str, d: str) -> list[tuple[str, Evidence]]:
        """Folders below package folder `d` whose file a bundler configuration of the package names as an
        entry, that hold no route or server start: (folder, the configuration line)."""
        out: dict[str, Evidence] = {}
        for f in sorted(self.by_kind["bundle.entry"], key=Fact.order):
            if f.repository != repo or folder(f.path) != d:
                continue
            entry = norm_path(str(PurePosixPath(d or ".").joinpath(f.get("entry") or "")))
            if not re.search(r"\.(tsx|ts|jsx|js|mjs|vue|svelte)$", entry):
                continue
            sub = folder(entry)
            if sub == d or not is_under(sub, d) or self._serves_itself(repo, sub):
                continue
            out.setdefault(sub, f.evidence)
        return sorted(out.items())

    def _serves_framework_pages(self, repo: str, d: str, cid: str) -> bool:
        """Does component `cid`'s code in folder `d` declare routes of a server-side web framework that builds its
        pages' scripts at the application's root (PHP's Laravel and Symfony, Ruby's Rails, Python's Flask and Django:
        Indico's Flask blueprints beside the package.json of its React widgets; ASP.NET controllers below a root
        webpack build)?"""
        return any(f.repository == repo and is_under(f.path, d) and f.language in SERVER_PAGE_LANGUAGES
                   and self.owner_of(repo, f.path) == cid for f in self.by_kind["http.route"])

    def _serves_itself(self, repo: str, d: str) -> bool:
        return any(f.repository == repo and is_under(f.path, d) and f.language in ("javascript", "typescript", "tsx")
                   for k in ("http.route", "server.start") for f in self.by_kind[k])

    def _add_webapp(self, manifest: Fact, repo: str, d: str, entry: Evidence | None = None) -> None:
        folder = PurePosixPath(d).name
        package = (manifest.get("name") or "").rsplit("/", 1)[-1]
        # its folder's name, else its package's, else the nearest folder above with a name of its own
        # (app/ui/app -> ui), else the repository's
        candidates = [folder, package, *(PurePosixPath(d).parent.parts[::-1]), repo]
        name = next((c for c in candidates if c and c.lower() not in GENERIC), repo)
        holder = self.owner_of(repo, f"{d}/package.json" if d else "package.json")
        comp = self.model.components.get(holder) if holder else None
        host: str | None = None
        if entry is not None:
            comp = None  # a folder of the server's package: never the server component itself
        sharing = [c.id for c in self.model.components.values()
                   if (repo, d) in c.source_roots and c.kind in ("service", "library", "gateway")]
        if len(sharing) > 1:
            # several deployments built from this folder (a server, its scheduler and workers from one
            # image): the browser app is none of them; which one hands it out is found below.  Unless one
            # alone is a stock JavaScript runtime (`node:23` mounting the project and running its dev
            # server beside the Python image built from it): that container runs the app's package.
            node = [cid for cid in sharing if "javascript" in runtime_language(
                self.model.components[cid].attributes.get("image") or "")]
            comp, holder = (self.model.components[node[0]], node[0]) if len(node) == 1 else (None, None)
        if comp is not None and comp.kind == "service" and (self.deploys_nothing or comp.attributes.get("deployment")
                                                            or repo in self.runs_on_machine) \
                and self._serves_framework_pages(repo, d, comp.id):
            # the folder holds a server of another language too (a Laravel or Rails application with its Vue
            # front end at the root) and no deployment runs it apart: the server, which its install guide runs,
            # stays, and hands out the app built beside it
            holder, comp = comp.id, None
        if comp is not None and (repo, d) in comp.source_roots and comp.kind in ("service", "library", "gateway"):
            comp.kind = "webapp"  # the package was a component already (its build, the web server around it): the app
        else:
            host = holder  # the app's folder lies inside that component's code: it serves the app
            taken = {a for a in (name, package, folder) if a and a.lower() in self.alias}
            if name in taken:  # `web` is the server's name already (a compose service): not this app's
                name = package if package and package not in taken else f"{name}-webapp"
            comp = self.add_component(name, "webapp", repo, entry or manifest.evidence,
                                      tuple(a for a in (package, folder) if a and a.lower() not in GENERIC
                                            and a not in taken))
            comp.source_roots.add((repo, d))
            comp.kind = "webapp"
        comp.language = comp.language or "typescript"
        comp.attributes.setdefault("role", "browser app")
        server, evidence, via = self._server_of(repo, d, comp.id, [package, folder], host, manifest.evidence)
        if server is not None:
            # The server hands out the app and answers its calls (same origin): the user opened that server.
            self.connect(comp.id, server, "http", [evidence], kind="calls", attributes={"via": via, "same_origin": "true"})

    def _server_of(self, repo: str, d: str, app: str, names: list[str], host: str | None,
                   manifest: Evidence) -> tuple[str | None, Evidence, str]:
        """The component serving the app's build, with the place that shows it and how."""
        # (the components holding code of the repository: a published image mounting a config file from it is not one)
        own = sorted(c.id for c in self.model.components.values() if c.id != app and c.kind in ("service", "gateway")
                     and any(r == repo for r, _root in c.source_roots) and self.has_code(c))
        # One binary or module running several programs (Go main packages, workloads of one image): which of
        # them serves the app is not known before the processes are told apart, so none is guessed.
        # (main packages, not files: main.go and main_next.go of one folder are one program)
        several = len({folder(f.path) for f in self.by_kind["program.main"] if f.repository == repo
                       and f.get("part") == "package" and not self._tooling_program(f)}) > 1 \
            or any(self._image_runs_several(self.model.components[c].attributes.get("image")) for c in own)

        def running(cid: str | None, exact: bool = False) -> str | None:
            comp = self.model.components.get(cid) if cid else None
            if comp is None or cid == app or comp.kind not in ("service", "gateway"):
                return None
            # a component holding the whole repository (root "") stands for one server only when it is the
            # repository's one service; in a monorepo of several programs it says nothing about which (unless
            # it is `exact`ly the deployment known to build the recipe in question)
            whole = any(r == repo and root in ("", ".") for r, root in comp.source_roots)
            return cid if exact or not whole or (own == [cid] and not several) else None

        if running(host):  # the app lives inside the server's code (an ASP.NET or Spring app's ClientApp/)
            return host, manifest, "the app's folder is part of the server's code"
        for f in self.by_kind["docker.copy"]:  # COPY ./src-ui /src/src-ui: that image ships the app
            if f.repository == repo and d and any(is_under(norm_path(s), d) for s in (f.get("sources") or "").split(",")):
                # (the recipe's component: the one holding it, else the one deployment its image runs as)
                server = running(self.owner_of(repo, f.path)) or running(self._built_by(repo, f.path)) or (
                    # (the deployment building that very recipe, when what the line copies reaches its final stage)
                    running(self._built_by(repo, f.path, compose=True), exact=True)
                    if self._reaches_final_stage(repo, f.path, f.line) else None)
                if server:
                    return server, f.evidence, "its image ships the app (Dockerfile COPY)"
        for f in self.by_kind["import"]:  # a package inside the app's folder embedding its build
            if self._imports_inside(repo, f, d):
                server = running(self.owner_of(repo, f.path))
                if server:
                    return server, f.evidence, "its code embeds the app's build"
        keys = {n.lower() for n in names if n}
        for f in self.by_kind["manifest.dependency"]:  # <artifactId>scheduler-ui</artifactId>
            if f.repository == repo and f.get("ecosystem") != "npm" and (f.get("name") or "").rsplit(":", 1)[-1].lower() in keys:
                server = running(self.owner_of(repo, f.path))
                if server:
                    return server, f.evidence, "its build depends on the app's package"
        servers = sorted({o for f in self.by_kind["http.route"] if f.repository == repo
                          for o in [running(self.owner_of(repo, f.path))] if o})
        if len(servers) == 1 and len(own) == 1:
            first = min(f.evidence for f in self.by_kind["http.route"]
                        if f.repository == repo and self.owner_of(repo, f.path) == servers[0])
            return servers[0], first, "the one HTTP server of the repository"
        return None, manifest, ""

    def _tooling_program(self, f: Fact) -> bool:
        """Is this main package a developer's or the build's tool (a code generator `//go:generate` runs, a
        program under dev/, gen/, tools/, hack/, scripts/, examples/) rather than a program the project ships?"""
        if any(r == f.repository and is_under(f.path, d) for r, d in self.generator_dirs):
            return True
        return any(part in TOOL_DIRS for part in f.path.lower().split("/")[:-1])

    def _reaches_final_stage(self, repo: str, dockerfile: str, line: int) -> bool:
        """Does what a recipe's line puts in its stage end up in the final image: the line is in the last stage, or
        in one the last stage copies from (``COPY --from=web /app/dist``), directly or through others?"""
        _signals, stages = self.recipe_stages(repo, dockerfile)
        if not stages:
            return True  # (one stage: the image)
        at = [st for st in stages if st.line <= line]
        if not at:
            return False
        needs = {st.get("stage") or "": set(filter(None, (st.get("needs") or "").split(","))) for st in stages}
        return (at[-1].get("stage") or "") in stages_reached(needs, stages[-1].get("stage") or "")

    def _built_by(self, repo: str, dockerfile: str, compose: bool = False) -> str | None:
        """The one component whose image the recipe builds (``built_by``; with `compose`, also a compose service's
        `build:` naming that recipe), or None."""
        built = {c.id for c in self.model.components.values()
                 if c.repository == repo and c.attributes.get("built_by") == dockerfile}
        if not built and compose:  # (asked only for the few COPY lines taking a browser app's folder)
            built = {cid for f in self.by_kind["compose.service"] if f.repository == repo
                     and (f.get("build_context") or f.get("dockerfile")) and self.build_root(f)[1] == dockerfile
                     for cid in [self.alias.get((f.get("name") or "").lower())] if cid}
        return next(iter(built)) if len(built) == 1 else None

    def _image_runs_several(self, image: str | None) -> bool:
        """Do several workloads run this image (one binary, several programs: which of them serves the app
        is not known yet)?"""
        if not image:
            return False
        base = image.split("@")[0].rsplit(":", 1)[0] if ":" in image.rsplit("/", 1)[-1] else image.split("@")[0]
        names = {f.get("name") for f in [*self.by_kind["compose.service"], *self.by_kind["k8s.workload"]]
                 if (f.get("image") or "").split("@")[0].startswith(base)}
        return len(names) >= 2

    def _imports_inside(self, repo: str, f: Fact, d: str) -> bool:
        """Does import `f` (Go) name a package inside folder `d` of its repository?"""
        if f.repository != repo or f.language != "go" or is_under(f.path, d):
            return False
        module = f.get("module") or ""
        if not d:
            return False
        modules = self._go_modules(repo)
        if modules:  # the module's own path to the folder (example.com/ci/web), not a deeper namesake (.../internal/web)
            target = go_import_folder(modules, module)
            return target is not None and is_under(target, d)
        return module.endswith("/" + d) or f"/{d}/" in module + "/"

    def _go_modules(self, repo: str) -> list[tuple[str, str]]:
        """(module path, folder) of each go.mod of the repository, longest path first (read once a run)."""
        memo = getattr(self, "_go_modules_memo", None)
        if memo is None:
            memo = self._go_modules_memo = go_modules_of(self.by_kind["manifest"])
        return memo.get(repo, [])
