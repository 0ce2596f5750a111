"""Rules of the routes group: calls inside one system that name no host, tied to a component by the
routes it serves.  Each rule's fixture cases are in cases/<rule id>*.yml beside this file."""

from repomodeler.rules.core import Rule

_PROCESS_STATE = ("file_owner", "package_owner", "packages", "process_parent")

RULES = (
    Rule(
        id="routes.browser-calls",
        message=("A browser app calling relative paths (its API client's `/api/...`) or a realtime client "
                 "(socket.io, Hocuspocus, SignalR) calls the one component, or process, serving those routes "
                 "or running that server"),
        unit="browser_route_calls",
        reads=("http.relative_call", "http.client", "import", "module.var"),
        writes=("connections", "attributes"),
        after=("frontend.webapps", "api.endpoints", "process.links", "process.supervised"),
        state=_PROCESS_STATE,
    ),
    Rule(
        id="routes.client-packages",
        message=("A client package whose host is given at run time (a flag, a setting) calls the one component "
                 "serving the paths it builds (`fmt.Sprintf(\"%s/api/repos/%d\", addr, id)`); the programs that "
                 "make that client are the callers"),
        unit="client_package_calls",
        reads=("value.assign", "import", "module.var", "code.client_new"),
        writes=("connections", "attributes"),
        after=("code.client-calls", "api.endpoints", "process.links", "process.supervised"),
        state=_PROCESS_STATE,
    ),
)
