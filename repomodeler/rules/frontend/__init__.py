"""Rules of the frontend group; each one's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

RULES = (
    Rule(
        id="frontend.webapps",
        message=("A front-end package (a UI framework and a bundler, no server of its own; not the root package of a "
                 "Rails, Laravel or Django server with routes that runs on the machine), or the folder a server package's "
                 "bundler builds, is a browser app the "
                 "user opens, calling the server that ships its build; an app package a server package of the repository depends on "
                 "(a workspace dependency it serves with express.static), or one an image's recipe copies into its build "
                 "beside a Node server's package and starts that server, is that server's own UI, no component of its own; "
                 "a Laravel or Rails application nothing deploys apart, with its front end's package at its root, "
                 "stays the server and hands out that app"),
        unit="webapps",
        reads=("manifest", "manifest.dependency", "manifest.dev_dependency", "http.route", "server.start",
               "docker.copy", "docker.from", "docker.workspace_target", "import", "compose.service", "k8s.workload", "program.main",
               "bundle.entry"),
        writes=("components", "kinds", "roots", "attributes", "connections"),
        after=("build.deployed-programs",),
    ),
    Rule(
        id="frontend.bundled-apps",
        message=("A browser app nothing deploys apart (no compose service, workload, image or recipe of its own) whose "
                 "build the server ships (a Go package embedding its dist/, the server's image copying it in, its folder "
                 "inside the server's code, the server's build depending on its package), or which sits in the folder of "
                 "its repository's one server when no server was found for it, is part of that server: one component "
                 "the user opens, serving the app's folder"),
        unit="bundled_apps",
        reads=(),
        writes=("components", "aliases", "roots", "connections", "attributes"),
        after=("frontend.webapps", "frontdoor.entry-points", "routes.browser-calls", "routes.client-packages"),
        state=("framework_gateways",),
    ),
)
