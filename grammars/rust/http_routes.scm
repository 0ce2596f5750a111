; HTTP routes: actix-web / Rocket attribute macros, actix resources and routes, Axum routers.

; #[get("/x")] / #[post("/x")] on a handler (actix-web, Rocket)
((attribute_item
   (attribute (identifier) @method arguments: (token_tree . (string_literal) @path))) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options")
 (#set! fact "http.route") (#set! framework "actix-rocket"))

; #[route("/x", method = "GET")] (actix-web)
((attribute_item
   (attribute (identifier) @_r arguments: (token_tree . (string_literal) @path))) @fact
 (#eq? @_r "route")
 (#set! fact "http.route") (#set! framework "actix") (#set! method "ANY"))

; web::resource("/x") (actix-web): every method of that resource
((call_expression
   function: (scoped_identifier path: (identifier) @_web name: (identifier) @_res)
   arguments: (arguments . (string_literal) @path)) @fact
 (#eq? @_web "web") (#eq? @_res "resource")
 (#set! fact "http.route") (#set! framework "actix") (#set! method "ANY"))

; Axum: Router::new().route("/x", get(handler)) / .route("/x", post(h).get(h2)) (first method).
; Chained .route() calls share one call expression, so the evidence line is the path literal's.
((call_expression
   function: (field_expression field: (field_identifier) @_route)
   arguments: (arguments . (string_literal) @path @fact
                         . [(call_expression function: (identifier) @method)
                            (call_expression function: (field_expression value: (call_expression function: (identifier) @method)))]))
 (#eq? @_route "route")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "any")
 (#set! fact "http.route") (#set! framework "axum"))

; actix App: .route("/x", web::get().to(handler))
((call_expression
   function: (field_expression field: (field_identifier) @_route)
   arguments: (arguments . (string_literal) @path @fact
                         . (call_expression function: (field_expression value: (call_expression function: (scoped_identifier path: (identifier) @_web name: (identifier) @method))))))
 (#eq? @_route "route") (#eq? @_web "web")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head")
 (#set! fact "http.route") (#set! framework "actix"))
