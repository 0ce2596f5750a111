"""Processes inside one component, on in-memory Go repositories: a binary whose subcommands start
different servers, several programs, roles of one server binary; and the links the code shows
between them (spawns, API paths, gRPC clients).  Negative cases keep single-process services whole."""

from __future__ import annotations

from rules_harness import edge_set, resolve_files, via

GO_MOD = "module github.com/acme/llm\n\ngo 1.22\n"
M = "github.com/acme/llm"


def llm_repo() -> dict[str, str]:
    """A CLI binary with `serve` (HTTP API) and `runner` (inference server) subcommands, a second
    main for the runner, a desktop app that starts the server, and a client package the CLI uses."""
    return {
        "go.mod": GO_MOD,
        "main.go": f'package main\n\nimport "{M}/cmd"\n\nfunc main() {{\n\tcmd.NewCLI().Execute()\n}}\n',
        "cmd/cmd.go": (f'package cmd\n\nimport (\n\t"github.com/spf13/cobra"\n\t"{M}/api"\n\t"{M}/server"\n\t"{M}/runner"\n)\n\n'
                       "func RunServer(cmd *cobra.Command, args []string) error {\n\treturn server.Serve(nil)\n}\n\n"
                       "func ListHandler(cmd *cobra.Command, args []string) error {\n\treturn api.List()\n}\n\n"
                       "func NewCLI() *cobra.Command {\n"
                       '\tserveCmd := &cobra.Command{Use: "serve", RunE: RunServer}\n'
                       '\tlistCmd := &cobra.Command{Use: "list", RunE: ListHandler}\n'
                       '\trunnerCmd := &cobra.Command{Use: "runner", RunE: func(cmd *cobra.Command, args []string) error {\n'
                       "\t\treturn runner.Execute(args)\n\t}}\n"
                       "\t_ = listCmd\n\t_ = runnerCmd\n\treturn serveCmd\n}\n"),
        "api/client.go": ('// Package api is the client of the HTTP API.\npackage api\n\nimport "net/http"\n\n'
                          "func List() error {\n\treturn do(http.MethodGet, \"/api/tags\")\n}\n\n"
                          "func Pull() error {\n\treturn do(http.MethodPost, \"/api/pull\")\n}\n\n"
                          "func do(method, path string) error { return nil }\n"),
        "server/routes.go": (f'package server\n\nimport (\n\t"net/http"\n\t"github.com/gin-gonic/gin"\n\t"{M}/api"\n\t"{M}/llm"\n)\n\n'
                             "func Serve(l any) error {\n\tr := gin.Default()\n"
                             '\tr.GET("/api/tags", nil)\n\tr.POST("/api/pull", nil)\n\t_ = api.List\n\t_ = llm.Start\n'
                             "\treturn http.ListenAndServe(\":11434\", r)\n}\n"),
        "llm/server.go": ('package llm\n\nimport (\n\t"os"\n\t"os/exec"\n)\n\n'
                          'func Start() error {\n\texe, _ := os.Executable()\n\treturn exec.Command(exe, "runner", "--port", "9").Start()\n}\n'
                          'func Health() string {\n\treturn "http://127.0.0.1:%d/health"\n}\n'),
        "runner/runner.go": ('package runner\n\nimport "net/http"\n\nfunc Execute(args []string) error {\n'
                             '\tmux := http.NewServeMux()\n\tmux.HandleFunc("/health", nil)\n\tmux.HandleFunc("/completion", nil)\n'
                             '\treturn http.ListenAndServe("127.0.0.1:0", mux)\n}\n'),
        "cmd/runner/main.go": f'package main\n\nimport "{M}/runner"\n\nfunc main() {{\n\trunner.Execute(nil)\n}}\n',
        "app/cmd/app/main.go": (f'package main\n\nimport "{M}/app/server"\n\nfunc main() {{\n\tserver.Start()\n}}\n'),
        "app/server/server.go": ('package server\n\nimport "os/exec"\n\nfunc Start() error {\n'
                                 '\treturn commandContext(nil, "ollama", "serve").Start()\n}\n\n'
                                 "func commandContext(ctx any, name string, args ...string) *exec.Cmd { return exec.Command(name, args...) }\n"),
        "tools/gen/main.go": "package main\n\nfunc main() {}\n",
        # a program showing the use of the project's Go SDK
        "sdks/go/watch-models/main.go": "package main\n\nfunc main() {}\n",
    }


def test_subcommands_that_start_servers_programs_and_the_cli_are_processes() -> None:
    model = resolve_files({"llm": llm_repo()})
    services = {c.id: c for c in model.components.values() if c.kind == "service"}
    assert set(services) == {"llm", "llm-serve", "llm-runner", "llm-app"}
    assert services["llm-serve"].attributes["command"] == "serve"
    assert services["llm-serve"].attributes["part_of"] == "llm"
    assert services["llm"].attributes["process"] == "llm"
    # the runner subcommand and cmd/runner are one process
    assert {e.path for e in services["llm-runner"].evidence} >= {"cmd/cmd.go", "cmd/runner/main.go"}
    # endpoints follow the code that declares them
    assert {ep.path for ep in services["llm-serve"].ports["http"].endpoints} == {"/api/tags", "/api/pull"}
    assert {ep.path for ep in services["llm-runner"].ports["http"].endpoints} == {"/health", "/completion"}
    assert "http" not in services["llm"].ports
    # tools, and the examples of the project's SDKs, are not processes
    assert not any("gen" in c or "watch" in c for c in services)


def test_links_between_processes_come_from_spawns_and_api_paths() -> None:
    model = resolve_files({"llm": llm_repo()})
    edges = edge_set(model)
    assert via(model, "llm-serve", "llm-runner") == {"starts the 'runner' subcommand", "http client (API path)"}
    spawn = model.connections[("llm-serve", "llm-runner", "process")]
    assert spawn.kind == "spawns" and {(e.path, e.line) for e in spawn.evidence} == {("llm/server.go", 10)}
    assert model.connections[("llm-app", "llm-serve", "process")].kind == "spawns"
    cli = model.connections[("llm", "llm-serve", "http")]
    assert cli.attributes["endpoints"] == "GET /api/tags, POST /api/pull"
    assert {(e.path, e.line) for e in cli.evidence} == {("api/client.go", 7), ("api/client.go", 11)}
    # the server's own code calls the runner's /health on a loopback URL
    health = model.connections[("llm-serve", "llm-runner", "http")]
    assert health.attributes["endpoints"] == "ANY /health"
    assert ("llm", "llm-runner") not in edges


def test_subsystems_belong_to_the_process_whose_code_they_are() -> None:
    model = resolve_files({"llm": llm_repo()})
    parent = {c.name: c.parent for c in model.parts.values()}
    assert parent["server"] == "llm-serve"
    assert parent["runner"] == "llm-runner"
    assert parent["app/server"] == "llm-app"
    assert parent["cmd"] == "llm"
    assert parent["api"] == "llm"  # the CLI and the server both link it: it stays with the component


def test_service_roles_of_one_binary_linked_by_generated_grpc_clients() -> None:
    mod = "github.com/acme/flow"
    files = {
        "go.mod": f"module {mod}\n",
        "cmd/server/main.go": f'package main\n\nimport "{mod}/temporal"\n\nfunc main() {{\n\ttemporal.Start()\n}}\n',
        "temporal/server.go": (f'package temporal\n\nimport (\n\t"{mod}/service/frontend"\n\t"{mod}/service/history"\n'
                               f'\t"{mod}/service/worker"\n)\n\nfunc Start() {{\n\tfrontend.New()\n\thistory.New()\n\tworker.New()\n}}\n'),
        "service/frontend/service.go": (f'package frontend\n\nimport (\n\t"google.golang.org/grpc"\n\t"{mod}/api/historyservice"\n'
                                        '\t"go.temporal.io/api/workflowservice/v1"\n)\n\n'
                                        "type handler struct {\n\thistory historyservice.HistoryServiceClient\n}\n\n"
                                        "func New() {\n\ts := grpc.NewServer()\n\tworkflowservice.RegisterWorkflowServiceServer(s, nil)\n}\n"),
        "service/history/service.go": (f'package history\n\nimport (\n\t"google.golang.org/grpc"\n\t"{mod}/api/historyservice"\n)\n\n'
                                       "func New() {\n\ts := grpc.NewServer()\n\thistoryservice.RegisterHistoryServiceServer(s, nil)\n}\n"),
        "service/worker/service.go": ('package worker\n\nimport (\n\t"google.golang.org/grpc"\n\t"go.temporal.io/api/workflowservice/v1"\n)\n\n'
                                      "var client workflowservice.WorkflowServiceClient\n\n"
                                      "func New() {\n\t_ = grpc.NewServer()\n}\n"),
        "api/historyservice/service.pb.go": "package historyservice\n\ntype HistoryServiceClient interface{}\n",
    }
    model = resolve_files({"flow": files})
    services = {c.id for c in model.components.values() if c.kind == "service"}
    assert services == {"flow", "frontend", "history", "worker"}
    assert model.components["history"].attributes["process"] == "flow server (history)"
    g = model.connections
    assert ("frontend", "history", "grpc") in g and ("worker", "frontend", "grpc") in g
    assert {(e.path, e.line) for e in g[("frontend", "history", "grpc")].evidence} == {("service/frontend/service.go", 10)}
    assert g[("worker", "frontend", "grpc")].attributes["via"] == "grpc stub workflowservice"


def test_one_program_with_two_servers_is_one_process() -> None:
    mod = "github.com/acme/orders"
    files = {
        "go.mod": f"module {mod}\n",
        "main.go": (f'package main\n\nimport (\n\t"{mod}/internal/grpcserver"\n\t"{mod}/internal/httpserver"\n)\n\n'
                    "func main() {\n\tgo grpcserver.Run()\n\thttpserver.Run()\n}\n"),
        "internal/grpcserver/server.go": 'package grpcserver\n\nimport "google.golang.org/grpc"\n\nfunc Run() { grpc.NewServer() }\n',
        "internal/httpserver/server.go": ('package httpserver\n\nimport "net/http"\n\nfunc Run() {\n'
                                          '\thttp.HandleFunc("/orders", nil)\n\thttp.ListenAndServe(":8080", nil)\n}\n'),
        "cmd/reindex/main.go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("reindexed")\n}\n',
    }
    model = resolve_files({"orders": files})
    # the two servers are the one program's; cmd/reindex, a program that talks to nothing of the system, is code
    # (process.idle-programs), not a second running component
    assert sorted(c.id for c in model.components.values() if c.kind == "service") == ["orders"]
    assert any(c.kind == "library" and c.id in ("orders-reindex", "reindex") for c in model.components.values())
    assert not any(c.attributes.get("command") for c in model.components.values())


def test_a_single_program_is_not_split() -> None:
    mod = "github.com/acme/cart"
    files = {
        "go.mod": f"module {mod}\n",
        "main.go": f'package main\n\nimport "{mod}/web"\n\nfunc main() {{\n\tweb.Serve()\n}}\n',
        "web/web.go": 'package web\n\nimport "net/http"\n\nfunc Serve() {\n\thttp.HandleFunc("/cart", nil)\n\thttp.ListenAndServe(":80", nil)\n}\n',
    }
    model = resolve_files({"cart": files})
    assert [c.id for c in model.components.values() if c.kind == "service"] == ["cart"]
    assert "processes" not in model.components["cart"].attributes


def test_a_program_importing_one_role_package_runs_that_role() -> None:
    """services/geo and services/search each start a server; cmd/geo and cmd/search build and run
    them (srv := &geo.Server{}; srv.Run()): each program is its role, not a second process."""
    mod = "github.com/acme/hotel"
    server = ('package {r}\n\nimport "google.golang.org/grpc"\n\ntype Server struct{{}}\n\n'
              'func (s *Server) Run() error {{\n\t_ = grpc.NewServer()\n\treturn nil\n}}\n')
    program = ('package main\n\nimport (\n\t"{mod}/registry"\n\t"{mod}/services/{r}"\n)\n\n'
               'func main() {{\n\tregistry.Init()\n\tsrv := &{r}.Server{{}}\n\tsrv.Run()\n}}\n')
    files = {"go.mod": f"module {mod}\n", "registry/registry.go": "package registry\n\nfunc Init() {}\n"}
    for r in ("geo", "search"):
        files[f"services/{r}/server.go"] = server.format(r=r)
        files[f"cmd/{r}/main.go"] = program.format(mod=mod, r=r)
    model = resolve_files({"hotel": files})
    services = {c.id for c in model.components.values() if c.kind == "service"}
    assert {"geo", "search"} <= services
    assert not any(s.startswith("hotel-") for s in services)  # no second process per program
    assert ("cmd/geo/main.go", 8) in {(e.path, e.line) for e in model.components["geo"].evidence}


def test_addresses_read_by_key_from_config_json_and_grpc_clients_of_registered_services() -> None:
    """Services of one binary repository read their store addresses from config.json by key
    (result["GeoMongoAddress"]) and call each other through generated clients named without
    "Service" (geo.NewGeoClient), which count because code here registers GeoServer."""
    mod = "github.com/acme/hotel"
    files = {
        "go.mod": f"module {mod}\n",
        "config.json": '{\n  "GeoPort": "8083",\n  "GeoMongoAddress": "mongodb-geo:27017",\n  "consulAddress": "consul:8500"\n}\n',
        "docker-compose.yml": ("services:\n  geo:\n    build: .\n    entrypoint: geo\n  search:\n    build: .\n"
                               "    entrypoint: search\n  mongodb-geo:\n    image: mongo:4\n  consul:\n    image: consul\n"),
        "services/geo/server.go": ('package geo\n\nimport (\n\t"google.golang.org/grpc"\n\tpb "x/geo/proto"\n)\n\n'
                                   'type Server struct{}\n\nfunc (s *Server) Run() error {\n\tsrv := grpc.NewServer()\n'
                                   '\tpb.RegisterGeoServer(srv, s)\n\treturn nil\n}\n'),
        "services/search/server.go": ('package search\n\nimport (\n\t"google.golang.org/grpc"\n\tgeo "x/geo/proto"\n)\n\n'
                                      'type Server struct{}\n\nfunc (s *Server) Run() error {\n\tsrv := grpc.NewServer()\n'
                                      '\tc := geo.NewGeoClient(nil)\n\t_ = c\n\t_ = srv\n\treturn nil\n}\n'),
        "cmd/geo/main.go": (f'package main\n\nimport "{mod}/services/geo"\n\nfunc main() {{\n\tvar result map[string]string\n'
                            '\tdb := dial(result["GeoMongoAddress"])\n\t_ = db\n\tsrv := &geo.Server{}\n\tsrv.Run()\n}\n'),
        "cmd/search/main.go": (f'package main\n\nimport "{mod}/services/search"\n\nfunc main() {{\n'
                               '\tsrv := &search.Server{}\n\tsrv.Run()\n}\n'),
    }
    model = resolve_files({"hotel": files})
    links = {(c.source, c.target): c for c in model.connections.values()}
    assert {(e.path, e.line) for e in links[("geo", "mongodb-geo")].evidence} == {
        ("cmd/geo/main.go", 7), ("config.json", 3)}
    assert links[("search", "geo")].protocol == "grpc"
    assert ("services/search/server.go", 12) in {(e.path, e.line) for e in links[("search", "geo")].evidence}


PULL_OPENAPI = """openapi: 3.1.0
info:
  title: llm
paths:
  /api/pull:
    post:
      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/PullRequest"
      responses:
        "200":
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Progress"
components:
  schemas:
    PullRequest:
      properties:
        model:
          type: string
    Progress:
      properties:
        completed:
          type: integer
"""


def test_an_api_description_follows_the_process_serving_its_operations() -> None:
    """Issue #24: docs/openapi.yaml describes the API `serve` provides; its operations' bodies stay on the
    endpoints when they move to that process, and the description leaves nothing on the root."""
    model = resolve_files({"llm": {**llm_repo(), "docs/openapi.yaml": PULL_OPENAPI}})
    serve = model.components["llm-serve"].ports["http"]
    pull = next(ep for ep in serve.endpoints if ep.path == "/api/pull")
    assert (pull.request, pull.response) == ("docs_openapi_yaml.PullRequest", "docs_openapi_yaml.Progress")
    assert {e.path for e in pull.evidence} == {"server/routes.go", "docs/openapi.yaml"}
    assert "docs/openapi.yaml" in {e.path for e in serve.evidence}
    assert "http" not in model.components["llm"].ports  # nothing left behind on the root component
    assert {m.name: m.kind for m in model.messages.values()} == {"docs_openapi_yaml.PullRequest": "schema",
                                                                  "docs_openapi_yaml.Progress": "schema"}
