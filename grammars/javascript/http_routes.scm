; Express / Koa-router / Fastify style: app.get("/x", handler), router.post("/x", ...).
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @method)
   arguments: (arguments . (string (string_fragment) @path) . (_))) @fact
 (#match? @_obj "^(app|router|server|api|fastify|[a-zA-Z]*[Rr]outer|routes?)$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "all")
 (#set! fact "http.route") (#set! framework "express"))
