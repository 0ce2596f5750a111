; How a JavaScript/TypeScript program starts and what it starts: servers and worker loops, and the
; processes it spawns (read by graph/processes.py with package.json's bin entries and scripts).

; app.listen(3000) / server.listen(port) / fastify.listen({port}) / httpServer.listen(...): a server starts here
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)) @fact
 (#match? @_obj "^(app|server|httpServer|httpsServer|fastify|api|application|srv|wss|io|instance)$")
 (#eq? @_fn "listen")
 (#set! fact "server.start") (#set! technology "http"))
; http.createServer(app).listen(port) / createServer(handler)
((call_expression
   function: [(member_expression object: (identifier) @_mod property: (property_identifier) @_fn) (identifier) @_fn]) @fact
 (#eq? @_fn "createServer")
 (#set! fact "server.start") (#set! technology "http"))
; NestFactory.create(AppModule) / NestFactory.createMicroservice(...)
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)) @fact
 (#eq? @_obj "NestFactory") (#match? @_fn "^create")
 (#set! fact "server.start"))
; new Worker("queue", processor) (BullMQ) / new WebSocketServer({port}) / new ApolloServer(...)
((new_expression constructor: (identifier) @_cls) @fact
 (#any-of? @_cls "Worker" "WebSocketServer" "ApolloServer")
 (#set! fact "server.start"))

; workQueue.process(5, async (job) => ...) (Bull) / queue.process(fn) / emailQueue.process("send", fn): a worker loop
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)
   arguments: (arguments [(arrow_function) (function_expression) (identifier)])) @fact
 (#match? @_obj "(?i)(queue|q)$") (#eq? @_fn "process")
 (#set! fact "server.start") (#set! technology "queue"))

; spawn("node", ["dist/worker.js"]) / fork("./worker.js") / child_process.fork(path.join(__dirname, "runner.js")) /
; execFile(process.execPath, [script, "serve"]) / exec("node worker.js"): every string of the command line
((call_expression
   function: [(identifier) @_fn (member_expression property: (property_identifier) @_fn)]
   arguments: (arguments (string (string_fragment) @arg))) @fact
 (#any-of? @_fn "spawn" "fork" "exec" "execFile" "spawnSync" "execSync" "execFileSync" "execa" "execaNode")
 (#set! fact "process.spawn"))
((call_expression
   function: [(identifier) @_fn (member_expression property: (property_identifier) @_fn)]
   arguments: (arguments (array (string (string_fragment) @arg)))) @fact
 (#any-of? @_fn "spawn" "fork" "exec" "execFile" "spawnSync" "execSync" "execFileSync" "execa" "execaNode")
 (#set! fact "process.spawn"))
((call_expression
   function: [(identifier) @_fn (member_expression property: (property_identifier) @_fn)]
   arguments: (arguments (call_expression arguments: (arguments (string (string_fragment) @arg))))) @fact
 (#any-of? @_fn "spawn" "fork" "execFile" "spawnSync" "execFileSync" "execaNode")
 (#set! fact "process.spawn"))
; const args = [path.resolve(__dirname, "../lib/cron/cron.js")]; ... spawn("node", args, {...}): the command line
; kept in a local variable of the same block first
((statement_block
   (lexical_declaration
     (variable_declarator name: (identifier) @_var
       value: (array [(string (string_fragment) @arg)
                      (call_expression arguments: (arguments (string (string_fragment) @arg)))])))
   [(lexical_declaration (variable_declarator value: (call_expression
       function: [(identifier) @_fn (member_expression property: (property_identifier) @_fn)]
       arguments: (arguments (identifier) @_use)) @fact))
    (expression_statement (call_expression
       function: [(identifier) @_fn (member_expression property: (property_identifier) @_fn)]
       arguments: (arguments (identifier) @_use)) @fact)])
 (#eq? @_var @_use)
 (#any-of? @_fn "spawn" "fork" "execFile" "spawnSync" "execFileSync" "execa" "execaNode")
 (#set! fact "process.spawn"))

; process.on("SIGTERM", shutdown): the program waits to be told to stop, so it runs until then
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)
   arguments: (arguments . (string (string_fragment) @_sig))) @fact
 (#eq? @_obj "process") (#any-of? @_fn "on" "once") (#eq? @_sig "SIGTERM")
 (#set! fact "process.awaits_stop"))
