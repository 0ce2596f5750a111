; HTTP routes served by this code.  `method` is the router method word (get/post/all...).

; Express / Koa-router / Fastify shorthand / Hono: app.get("/x", handler), router.post("/x", ...).
; Only receivers named like an app or router, and only with a handler argument after the path, so
; cache.get("x") and Express's app.get("env") stay quiet.
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @method)
   arguments: (arguments . (string (string_fragment) @path) . (_))) @fact
 (#match? @_obj "^(app|router|server|api|fastify|hono|[a-zA-Z]*[Rr]outer|routes?|[a-zA-Z]*App)$")
 (#any-of? @method "get" "post" "put" "delete" "del" "patch" "head" "options" "all")
 (#set! fact "http.route") (#set! framework "express"))

; Koa-router with a prefix: const router = new Router({ prefix: "/api" }) ... router.get("/x", h).
((program
   (lexical_declaration
     (variable_declarator
       name: (identifier) @_var
       value: (new_expression
                constructor: (identifier) @_ctor
                arguments: (arguments (object (pair key: (property_identifier) @_k value: (string (string_fragment) @prefix)))))))
   (expression_statement
     (call_expression
       function: (member_expression object: (identifier) @_obj property: (property_identifier) @method)
       arguments: (arguments . (string (string_fragment) @path) . (_))) @fact))
 (#match? @_ctor "Router$") (#eq? @_k "prefix") (#eq? @_var @_obj)
 (#any-of? @method "get" "post" "put" "delete" "del" "patch" "head" "options" "all")
 (#set! fact "http.route") (#set! framework "koa"))

; Fastify full declaration: fastify.route({ method: "GET", url: "/x", handler }).
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)
   arguments: (arguments
     (object
       (pair key: (property_identifier) @_mk value: (string (string_fragment) @method))
       (pair key: (property_identifier) @_uk value: (string (string_fragment) @path))))) @fact
 (#match? @_obj "^(app|server|fastify|[a-zA-Z]*[Rr]outer)$") (#eq? @_fn "route")
 (#eq? @_mk "method") (#eq? @_uk "url")
 (#set! fact "http.route") (#set! framework "fastify"))
