; How the programs of one repository start and reach each other: subcommands, process spawns,
; servers, generated gRPC client types and API paths handed to an HTTP helper.

; cobra: &cobra.Command{Use: "serve", RunE: RunServer}  (`name` is the first word of Use)
((composite_literal
   type: (qualified_type package: (package_identifier) @_pkg name: (type_identifier) @_type)
   body: (literal_value
           (keyed_element (literal_element (identifier) @_use) (literal_element (interpreted_string_literal) @name)))) @fact
 (#eq? @_pkg "cobra") (#eq? @_type "Command") (#eq? @_use "Use")
 (#set! fact "cli.command") (#set! framework "cobra"))
; ... with RunE/Run naming a function: RunE: RunServer / RunE: server.Run
((composite_literal
   type: (qualified_type package: (package_identifier) @_pkg name: (type_identifier) @_type)
   body: (literal_value
           (keyed_element (literal_element (identifier) @_use) (literal_element (interpreted_string_literal) @name))
           (keyed_element (literal_element (identifier) @_run) (literal_element [(identifier) (selector_expression)] @handler)))) @fact
 (#eq? @_pkg "cobra") (#eq? @_type "Command") (#eq? @_use "Use") (#any-of? @_run "RunE" "Run")
 (#set! fact "cli.command") (#set! framework "cobra"))
; ... with a function literal that returns or calls pkg.Fn(...): RunE: func(...) error { return runner.Execute(args) }
((composite_literal
   type: (qualified_type package: (package_identifier) @_pkg name: (type_identifier) @_type)
   body: (literal_value
           (keyed_element (literal_element (identifier) @_use) (literal_element (interpreted_string_literal) @name))
           (keyed_element (literal_element (identifier) @_run)
                          (literal_element (func_literal body: (block (statement_list
                            [(return_statement (expression_list (call_expression function: (selector_expression operand: (identifier) @handler_package field: (field_identifier) @handler_function))))
                             (expression_statement (call_expression function: (selector_expression operand: (identifier) @handler_package field: (field_identifier) @handler_function)))]))))))) @fact
 (#eq? @_pkg "cobra") (#eq? @_type "Command") (#eq? @_use "Use") (#any-of? @_run "RunE" "Run")
 (#set! fact "cli.command") (#set! framework "cobra"))

; kingpin / urfave-style subcommands registered in a function: cmd := app.Command(component.Sidecar.String(),
; "Sidecar for Prometheus server.") (`name_expr` is the name's expression; `function` the registering function).
; The help sentence (a capitalised string) tells it from exec.Command(bin, "-c").
((function_declaration name: (identifier) @function
   body: (block (statement_list
     (short_var_declaration right: (expression_list
       (call_expression
         function: (selector_expression operand: (_) @_recv field: (field_identifier) @_fn)
         arguments: (argument_list . (_) @name_expr . (interpreted_string_literal) @help)) @fact)))))
 (#eq? @_fn "Command") (#not-eq? @_recv "exec") (#match? @help "^\"[A-Z]")
 (#set! verbatim "name_expr") (#set! fact "cli.command") (#set! framework "kingpin"))
; func main() { ...; registerSidecar(app); ... }: the functions main hands its command-line app to
((function_declaration name: (identifier) @_main
   body: (block (statement_list
     (expression_statement (call_expression function: (identifier) @callee
                                            arguments: (argument_list (identifier))) @fact))))
 (#eq? @_main "main")
 (#set! fact "program.main_call"))

; exec.Command(exe, "runner", "--port", p) / exec.CommandContext(ctx, bin, "serve") / commandContext(ctx, bin, "serve"):
; every string argument of a call that starts a process (the resolver keeps the ones naming a subcommand)
((call_expression
   function: [(selector_expression field: (field_identifier) @_fn) (identifier) @_fn]
   arguments: (argument_list (interpreted_string_literal) @arg)) @fact
 (#match? @_fn "^(Command|CommandContext|commandContext|command|StartProcess|startProcess|spawn|Spawn)$")
 (#set! fact "process.spawn"))

; grpc.NewServer(opts...) / http.ListenAndServe(addr, h) / &http.Server{...}: this package runs a server
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @fact
 (#eq? @_pkg "grpc") (#eq? @_fn "NewServer")
 (#set! fact "server.start") (#set! technology "grpc"))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @fact
 (#eq? @_pkg "http") (#any-of? @_fn "ListenAndServe" "ListenAndServeTLS" "Serve")
 (#set! fact "server.start") (#set! technology "http"))
((composite_literal type: (qualified_type package: (package_identifier) @_pkg name: (type_identifier) @_type)) @fact
 (#eq? @_pkg "http") (#eq? @_type "Server")
 (#set! fact "server.start") (#set! technology "http"))
; The servers of Go microservice frameworks: go-zero's rest.MustNewServer(c.RestConf) / zrpc.MustNewServer(c.RpcServerConf, ...),
; Kratos' transport http.NewServer(opts...) / grpc.NewServer(opts...) (the latter is grpc's own spelling, above)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @fact
 (#eq? @_pkg "rest") (#any-of? @_fn "MustNewServer" "NewServer")
 (#set! fact "server.start") (#set! technology "http"))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @fact
 (#eq? @_pkg "zrpc") (#any-of? @_fn "MustNewServer" "NewServer")
 (#set! fact "server.start") (#set! technology "grpc"))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)) @fact
 (#eq? @_pkg "http") (#eq? @_fn "NewServer")
 (#set! fact "server.start") (#set! technology "http"))

; historyservice.HistoryServiceClient: a generated gRPC client type used here (a client of that service)
((qualified_type package: (package_identifier) name: (type_identifier) @service) @fact
 (#match? @service "^[A-Z][A-Za-z0-9_]*ServiceClient$")
 (#set! fact "grpc.client_ref"))

; c.do(ctx, http.MethodGet, "/api/tags", nil, &resp): an API path handed to an HTTP helper with its verb
((call_expression
   arguments: (argument_list
                (selector_expression operand: (identifier) @_http field: (field_identifier) @method) .
                (interpreted_string_literal) @path)) @fact
 (#eq? @_http "http") (#match? @method "^Method[A-Z]") (#match? @path "^\"/")
 (#set! fact "http.call_path"))

; api.ClientFromEnvironment() / store.NewClient(cfg) / pb.NewGreeterClient(conn): this file makes a client
; of another package; the calls that package's client makes are this program's calls
((call_expression
   function: (selector_expression operand: (identifier) @package field: (field_identifier) @function)) @fact
 (#match? @function "^(New[A-Za-z0-9]*Client|[A-Za-z0-9]*ClientFrom[A-Za-z0-9]*|NewClient[A-Za-z0-9]*)$")
 (#set! fact "code.client_new"))

; exe, err := FindLlamaServer() ... cmd = exec.Command(exe, params...): the process started is the program
; the finder function looks up (`finder`; see program.finder)
((block (statement_list
   (short_var_declaration
      left: (expression_list . (identifier) @_var)
      right: (expression_list (call_expression function: (identifier) @finder)))
   [(assignment_statement right: (expression_list (call_expression
        function: (selector_expression operand: (identifier) @_exec field: (field_identifier) @_fn)
        arguments: (argument_list . (identifier) @_arg))))
    (short_var_declaration right: (expression_list (call_expression
        function: (selector_expression operand: (identifier) @_exec field: (field_identifier) @_fn)
        arguments: (argument_list . (identifier) @_arg))))
    (expression_statement (call_expression
        function: (selector_expression operand: (identifier) @_exec field: (field_identifier) @_fn)
        arguments: (argument_list . (identifier) @_arg)))] @fact))
 (#eq? @_var @_arg) (#eq? @_exec "exec") (#eq? @_fn "Command")
 (#set! fact "process.spawn_via"))

; func FindLlamaServer() (string, error) { path, _, err := findBinary("llama-server", ...) ... }: a function
; that looks a program up by name
((function_declaration
   name: (identifier) @function
   body: (block (statement_list
     [(short_var_declaration right: (expression_list (call_expression arguments: (argument_list . (interpreted_string_literal) @program))))
      (return_statement (expression_list (call_expression arguments: (argument_list . (interpreted_string_literal) @program))))
      (assignment_statement right: (expression_list (call_expression arguments: (argument_list . (interpreted_string_literal) @program))))]))) @fact
 (#match? @function "(?i)(find|lookup|locate|resolve|binary|executable|exe)")
 (#match? @program "^\"[A-Za-z0-9][A-Za-z0-9_+-]*\"$")
 (#set! fact "program.finder"))

; Go plugins (plugin.Open): the symbol a host looks up in a plugin it opened, plug.Lookup("PluginEntry")
; (kept only in files importing "plugin"), and the exported package-level variables a plugin's main
; package declares for it, var PluginEntry impl.AE (graph/go_plugins.py)
((call_expression
   function: (selector_expression field: (field_identifier) @_fn)
   arguments: (argument_list . (interpreted_string_literal) @name .)) @fact
 (#eq? @_fn "Lookup")
 (#set! fact "plugin.lookup"))
((source_file (var_declaration (var_spec name: (identifier) @name)) @fact)
 (#match? @name "^[A-Z]")
 (#set! fact "code.exported_var"))

; signal.Notify(c, syscall.SIGTERM) / svc.Run(prg, syscall.SIGINT, syscall.SIGTERM): the program waits to be told
; to stop, so it runs until then (a daemon), whatever starts it
((selector_expression operand: (identifier) @_pkg field: (field_identifier) @_sig) @fact
 (#any-of? @_pkg "syscall" "unix") (#eq? @_sig "SIGTERM")
 (#set! fact "process.awaits_stop"))
