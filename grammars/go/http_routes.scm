; HTTP routes: net/http (incl. Go 1.22 "GET /x" patterns), gorilla/mux, Gin, Echo, chi, Fiber.
; `method` is the registering function (HandleFunc/GET/Get...); the resolver normalises it.
; `router` is the receiver (http, mux, r, api), joined by the resolver with `http.router` facts.
; The path literal must start with "/" (or "VERB /"), so cache.Get("key", &v) stays quiet.

; http.HandleFunc("/x", h), mux.Handle("/x", h), r.GET("/x", h), e.POST("/x", h), r.Get("/x", h)
((call_expression
   function: (selector_expression operand: (_) @router field: (field_identifier) @method)
   arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @path . (_))) @fact
 (#any-of? @method "HandleFunc" "Handle" "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS" "Any"
                   "Get" "Post" "Put" "Delete" "Patch" "Head" "Options" "All")
 (#match? @path "^[\"`]((GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS) )?/")
 (#set! fact "http.route") (#set! framework "go-http"))

; gorilla/mux behind a base path held in a variable: r.HandleFunc(baseUrl+"/cart", h).Methods(...)
; (the variable is a deployment setting, often empty: the route is the literal part)
((call_expression
   function: (selector_expression operand: (_) @router field: (field_identifier) @method)
   arguments: (argument_list . (binary_expression left: (identifier) right: (interpreted_string_literal) @path) . (_))) @fact
 (#any-of? @method "HandleFunc" "Handle")
 (#match? @path "^\"/")
 (#set! fact "http.route") (#set! framework "go-http"))

; Gin / Echo / Fiber groups: api := r.Group("/api") -> `http.router` (name api, parent r); the
; resolver prefixes routes whose `router` is api and chains parent groups.
([(short_var_declaration
    left: (expression_list . (identifier) @name)
    right: (expression_list
             . (call_expression
                 function: (selector_expression operand: (_) @parent field: (field_identifier) @_group)
                 arguments: (argument_list . (interpreted_string_literal) @prefix))))
  (assignment_statement
    left: (expression_list . (identifier) @name)
    right: (expression_list
             . (call_expression
                 function: (selector_expression operand: (_) @parent field: (field_identifier) @_group)
                 arguments: (argument_list . (interpreted_string_literal) @prefix))))] @fact
 (#eq? @_group "Group")
 (#set! fact "http.router"))

; chi sub-routers: r.Route("/v1", func(r chi.Router) { r.Get("/x", h) })
((call_expression
   function: (selector_expression field: (field_identifier) @_route)
   arguments: (argument_list
     . (interpreted_string_literal) @prefix
     . (func_literal
         body: (block (statement_list
           (expression_statement
             (call_expression
               function: (selector_expression operand: (_) @router field: (field_identifier) @method)
               arguments: (argument_list . [(interpreted_string_literal) (raw_string_literal)] @path . (_))) @fact))))))
 (#eq? @_route "Route")
 (#any-of? @method "Get" "Post" "Put" "Delete" "Patch" "Head" "Options" "HandleFunc" "Handle")
 (#match? @path "^[\"`]/")
 (#set! fact "http.route") (#set! framework "chi"))
