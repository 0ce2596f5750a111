; How a Python program starts and what it starts: the main guard, servers and worker loops, and
; the processes it spawns (read by graph/processes.py with the manifests' console scripts).

; if __name__ == "__main__":  this module is run as a program
((if_statement
   condition: (comparison_operator (identifier) @_name (string (string_content) @_main))) @fact
 (#eq? @_name "__name__") (#eq? @_main "__main__")
 (#set! fact "program.script_main"))

; uvicorn.run(app) / hypercorn / waitress.serve(app) / web.run_app(app) / server.serve_forever() /
; app.run(host=...) / asyncio.start_server(...) / websockets.serve(...) / make_server(...): a server starts here
((call function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)) @fact
 (#any-of? @_mod "uvicorn" "waitress" "hypercorn" "bjoern" "gevent" "eventlet" "tornado" "cherrypy")
 (#any-of? @_fn "run" "serve" "run_simple" "quickstart")
 (#set! fact "server.start") (#set! technology "http"))
((call function: (attribute attribute: (identifier) @_fn)) @fact
 (#any-of? @_fn "run_app" "serve_forever" "start_server" "make_server" "run_simple" "worker_main" "start_consuming")
 (#set! fact "server.start"))
((call function: (attribute object: (identifier) @_obj attribute: (identifier) @_fn)) @fact
 (#any-of? @_obj "app" "application" "api" "server" "socketio" "sio" "bot" "dp")
 (#any-of? @_fn "run" "run_polling" "start_polling" "run_forever")
 (#set! fact "server.start"))
; worker.work() / Worker([queue]).work(): an RQ worker loop
((call function: (attribute object: [(identifier) @_obj (call function: (identifier) @_obj)] attribute: (identifier) @_fn)) @fact
 (#match? @_obj "(?i)worker$") (#eq? @_fn "work")
 (#set! fact "server.start") (#set! technology "queue"))
((call function: (attribute object: (identifier) @_obj attribute: (identifier) @_fn)) @fact
 (#eq? @_obj "websockets") (#eq? @_fn "serve")
 (#set! fact "server.start") (#set! technology "websocket"))
((call function: (attribute object: (identifier) @_obj attribute: (identifier) @_fn)) @fact
 (#eq? @_obj "grpc") (#any-of? @_fn "server")
 (#set! fact "server.start") (#set! technology "grpc"))

; subprocess.Popen([sys.executable, "-m", "pkg.runner", "--port", p]) / subprocess.run(["myapp", "serve"]) /
; asyncio.create_subprocess_exec(sys.executable, "-m", "pkg.worker"): every string the command line holds
((call function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)
       arguments: (argument_list . (list (string (string_content) @arg)))) @fact
 (#any-of? @_mod "subprocess" "sp")
 (#any-of? @_fn "Popen" "run" "call" "check_call" "check_output")
 (#set! fact "process.spawn"))
; subprocess.Popen(["python", f"service/{service}/main.py"]): a program path built from a name, one of several
((call function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)
       arguments: (argument_list . (list (string (interpolation)) @template))) @fact
 (#any-of? @_mod "subprocess" "sp")
 (#any-of? @_fn "Popen" "run" "call" "check_call" "check_output")
 (#set! fact "process.spawn"))
((call function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)
       arguments: (argument_list (string (string_content) @arg))) @fact
 (#eq? @_mod "asyncio") (#any-of? @_fn "create_subprocess_exec")
 (#set! fact "process.spawn"))
; os.execv(sys.executable, [sys.executable, "-m", "pkg"]) / os.execlp("myapp", "myapp", "serve")
((call function: (attribute object: (identifier) @_mod attribute: (identifier) @_fn)
       arguments: (argument_list [(string (string_content) @arg) (list (string (string_content) @arg))])) @fact
 (#eq? @_mod "os") (#any-of? @_fn "execv" "execvp" "execl" "execlp" "spawnv" "spawnl")
 (#set! fact "process.spawn"))

; Subcommands of a click/typer CLI and where their handler goes: @cli.command("serve") / @app.command()
; def serve(): from shop.server import run (a lazy import) / server.run() / run_server()
((decorated_definition
   (decorator [(call function: (attribute attribute: (identifier) @_cmd) arguments: (argument_list . (string (string_content) @name)))
               (call function: (attribute attribute: (identifier) @_cmd) arguments: (argument_list . (keyword_argument name: (identifier) @_k value: (string (string_content) @name))))])
   definition: (function_definition name: (identifier) @handler)) @fact
 (#eq? @_cmd "command") (#eq? @_k "name")
 (#set! fact "cli.subcommand"))
((decorated_definition
   (decorator [(call function: (attribute attribute: (identifier) @_cmd)) (attribute attribute: (identifier) @_cmd)])
   definition: (function_definition name: (identifier) @handler)) @fact
 (#eq? @_cmd "command")
 (#set! fact "cli.subcommand"))
((decorated_definition
   (decorator [(call function: (attribute attribute: (identifier) @_cmd)) (attribute attribute: (identifier) @_cmd)])
   definition: (function_definition name: (identifier) @handler
                 body: (block (import_from_statement module_name: (dotted_name) @handler_module)))) @fact
 (#eq? @_cmd "command")
 (#set! fact "cli.subcommand"))
((decorated_definition
   (decorator [(call function: (attribute attribute: (identifier) @_cmd)) (attribute attribute: (identifier) @_cmd)])
   definition: (function_definition name: (identifier) @handler
                 body: (block (expression_statement [(call function: (identifier) @handler_function)
                                                     (call function: (attribute object: (identifier) @handler_package))])))) @fact
 (#eq? @_cmd "command")
 (#set! fact "cli.subcommand"))
((decorated_definition
   (decorator [(call function: (attribute attribute: (identifier) @_cmd)) (attribute attribute: (identifier) @_cmd)])
   definition: (function_definition name: (identifier) @handler
                 body: (block (return_statement [(call function: (identifier) @handler_function)
                                                 (call function: (attribute object: (identifier) @handler_package))])))) @fact
 (#eq? @_cmd "command")
 (#set! fact "cli.subcommand"))

; signal.signal(signal.SIGTERM, handler): the program waits to be told to stop, so it runs until then
((attribute object: (identifier) @_mod attribute: (identifier) @_sig) @fact
 (#eq? @_mod "signal") (#eq? @_sig "SIGTERM")
 (#set! fact "process.awaits_stop"))
