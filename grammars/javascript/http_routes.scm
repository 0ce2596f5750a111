; HTTP routes served by this code.  `method` is the router method word (get/post/all...); `router`
; is the receiver (app, router) so the resolver can join the prefix of an `http.router` fact.

; Express / Koa-router / Fastify shorthand / Hono: app.get("/x", handler), router.post("/x", ...).
; Only receivers named like an app or router, and only with a handler argument after the path, so
; cache.get("x") and Express's app.get("env") stay quiet.
((call_expression
   function: (member_expression object: (identifier) @router property: (property_identifier) @method)
   arguments: (arguments . (string (string_fragment) @path) . (_))) @fact
 (#match? @router "^(app|router|server|api|fastify|hono|[a-zA-Z]*[Rr]outer|routes?|[a-zA-Z]*App)$")
 (#any-of? @method "get" "post" "put" "delete" "del" "patch" "head" "options" "all")
 (#set! fact "http.route") (#set! framework "express"))

; Router prefixes: const router = new Router({ prefix: "/api" }) (koa-router, @koa/router) gives an
; `http.router` fact named after the variable.
((variable_declarator
   name: (identifier) @name
   value: (new_expression
            constructor: (identifier) @_ctor
            arguments: (arguments (object (pair key: (property_identifier) @_k value: (string (string_fragment) @prefix)))))) @fact
 (#match? @_ctor "Router$") (#eq? @_k "prefix")
 (#set! fact "http.router"))

; Fastify full declaration: fastify.route({ method: "GET", url: "/x", handler }).
((call_expression
   function: (member_expression object: (identifier) @router property: (property_identifier) @_fn)
   arguments: (arguments
     (object
       (pair key: (property_identifier) @_mk value: (string (string_fragment) @method))
       (pair key: (property_identifier) @_uk value: (string (string_fragment) @path))))) @fact
 (#match? @router "^(app|server|fastify|[a-zA-Z]*[Rr]outer)$") (#eq? @_fn "route")
 (#eq? @_mk "method") (#eq? @_uk "url")
 (#set! fact "http.route") (#set! framework "fastify"))

; Router mounts in another file: app.use("/api/orders", ordersRouter) / app.use("/x", require("./routes/x")).
; `router` is the mounted identifier; the resolver follows it to the file whose routes it prefixes.
((call_expression
   function: (member_expression object: (identifier) @_app property: (property_identifier) @_use)
   arguments: (arguments . (string (string_fragment) @prefix) . (identifier) @router)) @fact
 (#eq? @_use "use")
 (#set! fact "http.mount"))
((call_expression
   function: (member_expression object: (identifier) @_app property: (property_identifier) @_use)
   arguments: (arguments . (string (string_fragment) @prefix)
                         . (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @module))))) @fact
 (#eq? @_use "use") (#eq? @_req "require")
 (#set! fact "http.mount"))
