; HTTP routes: Spring MVC / WebFlux annotations in Kotlin and the Ktor routing DSL.
; `method` is the annotation/DSL word (GetMapping, get ...); `prefix` is the class @RequestMapping
; or an enclosing Ktor route("/prefix") { }.

; --- Spring (only in classes; the same annotations on interfaces are Feign clients) -------------

; @GetMapping("/x") / @PostMapping(value = ["/x"]) / (path = "/x") on a function
((class_declaration "class"
   (class_body
     (function_declaration
       (modifiers
         (annotation
           (constructor_invocation
             (user_type (identifier) @method)
             (value_arguments
               (value_argument
                 [(string_literal) @path
                  ((identifier) @_k . [(string_literal) @path (collection_literal . (string_literal) @path)])])))) @fact))))
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#any-of? @_k "value" "path")
 (#set! fact "http.route") (#set! framework "spring"))

; The same inside a class with @RequestMapping("/prefix"): prefix joined.
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_cls)
         (value_arguments
           (value_argument [(string_literal) @prefix ((identifier) @_ck . [(string_literal) @prefix (collection_literal . (string_literal) @prefix)])])))))
   "class"
   (class_body
     (function_declaration
       (modifiers
         (annotation
           (constructor_invocation
             (user_type (identifier) @method)
             (value_arguments
               (value_argument
                 [(string_literal) @path
                  ((identifier) @_k . [(string_literal) @path (collection_literal . (string_literal) @path)])])))) @fact))))
 (#eq? @_cls "RequestMapping") (#any-of? @_ck "value" "path")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#any-of? @_k "value" "path")
 (#set! fact "http.route") (#set! framework "spring"))

; Bare @GetMapping on a function: the class prefix (or "/").
((class_declaration "class"
   (class_body
     (function_declaration (modifiers (annotation (user_type (identifier) @method)) @fact))))
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_cls)
         (value_arguments
           (value_argument [(string_literal) @prefix ((identifier) @_ck . [(string_literal) @prefix (collection_literal . (string_literal) @prefix)])])))))
   "class"
   (class_body
     (function_declaration (modifiers (annotation (user_type (identifier) @method)) @fact))))
 (#eq? @_cls "RequestMapping") (#any-of? @_ck "value" "path")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))

; --- Ktor ----------------------------------------------------------------------------------------

; get("/x") { ... } inside routing { }: a receiver-less call with a path literal and a lambda, so
; map.get("x") and a plain get("x") stay quiet.
((call_expression
   (call_expression (identifier) @method (value_arguments . (value_argument . (string_literal) @path)))
   (annotated_lambda)) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options")
 (#match? @path "^\"/")
 (#set! fact "http.route") (#set! framework "ktor"))

; route("/prefix") { get("/x") { } }: the enclosing route's path is the prefix.
((call_expression
   (call_expression (identifier) @_route (value_arguments . (value_argument . (string_literal) @prefix)))
   (annotated_lambda
     (lambda_literal
       (call_expression
         (call_expression (identifier) @method (value_arguments . (value_argument . (string_literal) @path)))
         (annotated_lambda)) @fact)))
 (#eq? @_route "route")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options")
 (#set! fact "http.route") (#set! framework "ktor"))

; Grammar quirk: after a package header, `@RequestMapping("/x")` directly above `class` parses as an
; annotated parenthesized expression followed by the class.  Read the prefix from there (the
; RequestMapping first, or after one other annotation such as @RestController).
((_
   [(annotated_expression
      (annotation (user_type (identifier) @_cls))
      (parenthesized_expression (string_literal) @prefix))
    (annotated_expression
      (annotation)
      (annotated_expression
        (annotation (user_type (identifier) @_cls))
        (parenthesized_expression (string_literal) @prefix)))]
   .
   (class_declaration
     (class_body
       (function_declaration
         (modifiers
           (annotation
             (constructor_invocation
               (user_type (identifier) @method)
               (value_arguments
                 (value_argument
                   [(string_literal) @path
                    ((identifier) @_k . [(string_literal) @path (collection_literal . (string_literal) @path)])])))) @fact)))))
 (#eq? @_cls "RequestMapping")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#any-of? @_k "value" "path")
 (#set! fact "http.route") (#set! framework "spring"))
((_
   [(annotated_expression
      (annotation (user_type (identifier) @_cls))
      (parenthesized_expression (string_literal) @prefix))
    (annotated_expression
      (annotation)
      (annotated_expression
        (annotation (user_type (identifier) @_cls))
        (parenthesized_expression (string_literal) @prefix)))]
   .
   (class_declaration
     (class_body
       (function_declaration (modifiers (annotation (user_type (identifier) @method)) @fact)))))
 (#eq? @_cls "RequestMapping")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))
