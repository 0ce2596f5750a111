; HTTP routes: Spring MVC / WebFlux and JAX-RS.  `method` is the annotation word
; (GetMapping, RequestMapping, GET...) or, for @RequestMapping(method = RequestMethod.POST), the verb;
; `prefix` is the class-level @RequestMapping / @Path.  Only methods of classes count: the same
; annotations on interface methods are Feign clients (see feign.scm).

; --- Spring --------------------------------------------------------------------------------------

; @GetMapping("/x") / @PostMapping(path = "/x") on a method, class without a prefix.
((class_declaration
   body: (class_body
     (method_declaration
       (modifiers
         (annotation
           name: (identifier) @method
           arguments: (annotation_argument_list
             [(string_literal) @path
                (element_value_pair key: (identifier) @_k value: [(string_literal) @path (element_value_array_initializer . (string_literal) @path)])])) @fact))))
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#any-of? @_k "value" "path")
 (#set! fact "http.route") (#set! framework "spring"))

; The same inside a class with @RequestMapping("/prefix") (or value=/path=): prefix joined.
((class_declaration
   (modifiers
     (annotation name: (identifier) @_cls
                 arguments: (annotation_argument_list
                   . [(string_literal) @prefix
                      (element_value_pair key: (identifier) @_ck value: (string_literal) @prefix)])))
   body: (class_body
     (method_declaration
       (modifiers
         (annotation
           name: (identifier) @method
           arguments: (annotation_argument_list
             [(string_literal) @path
                (element_value_pair key: (identifier) @_k value: [(string_literal) @path (element_value_array_initializer . (string_literal) @path)])])) @fact))))
 (#eq? @_cls "RequestMapping") (#any-of? @_ck "value" "path") (#any-of? @_k "value" "path")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.route") (#set! framework "spring"))

; @RequestMapping(value = "/x", method = RequestMethod.POST): the verb is the method.
((class_declaration
   body: (class_body
     (method_declaration
       (modifiers
         (annotation
           name: (identifier) @_rm
           arguments: (annotation_argument_list
             (element_value_pair key: (identifier) @_k value: (string_literal) @path)
             (element_value_pair key: (identifier) @_mk value: (field_access field: (identifier) @method)))) @fact))))
 (#eq? @_rm "RequestMapping") (#any-of? @_k "value" "path") (#eq? @_mk "method")
 (#set! fact "http.route") (#set! framework "spring"))
((class_declaration
   (modifiers
     (annotation name: (identifier) @_cls
                 arguments: (annotation_argument_list
                   . [(string_literal) @prefix
                      (element_value_pair key: (identifier) @_ck value: (string_literal) @prefix)])))
   body: (class_body
     (method_declaration
       (modifiers
         (annotation
           name: (identifier) @_rm
           arguments: (annotation_argument_list
             (element_value_pair key: (identifier) @_k value: (string_literal) @path)
             (element_value_pair key: (identifier) @_mk value: (field_access field: (identifier) @method)))) @fact))))
 (#eq? @_cls "RequestMapping") (#any-of? @_ck "value" "path")
 (#eq? @_rm "RequestMapping") (#any-of? @_k "value" "path") (#eq? @_mk "method")
 (#set! fact "http.route") (#set! framework "spring"))

; Bare @GetMapping (no path) on a method: the class prefix itself, or "/" without one.
((class_declaration
   body: (class_body
     (method_declaration
       (modifiers (marker_annotation name: (identifier) @method) @fact))))
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))
((class_declaration
   (modifiers
     (annotation name: (identifier) @_cls
                 arguments: (annotation_argument_list
                   . [(string_literal) @prefix
                      (element_value_pair key: (identifier) @_ck value: (string_literal) @prefix)])))
   body: (class_body
     (method_declaration
       (modifiers (marker_annotation name: (identifier) @method) @fact))))
 (#eq? @_cls "RequestMapping") (#any-of? @_ck "value" "path")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping")
 (#set! fact "http.route") (#set! framework "spring") (#set! path ""))

; --- JAX-RS (Jakarta REST, Quarkus, Dropwizard) -------------------------------------------------
; Every JAX-RS fact is anchored on the verb annotation, so a method read with and without its own
; @Path collapses to the reading with the path (the resolver keeps the most specific per line).

; @GET @Path("/x") (either order) in a class with @Path("/prefix")
((class_declaration
   (modifiers (annotation name: (identifier) @_cls arguments: (annotation_argument_list . (string_literal) @prefix)))
   body: (class_body
     (method_declaration
       (modifiers
         (marker_annotation name: (identifier) @method) @fact
         (annotation name: (identifier) @_p arguments: (annotation_argument_list . (string_literal) @path))))))
 (#eq? @_cls "Path") (#eq? @_p "Path")
 (#any-of? @method "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")
 (#set! fact "http.route") (#set! framework "jax-rs"))
((class_declaration
   (modifiers (annotation name: (identifier) @_cls arguments: (annotation_argument_list . (string_literal) @prefix)))
   body: (class_body
     (method_declaration
       (modifiers
         (annotation name: (identifier) @_p arguments: (annotation_argument_list . (string_literal) @path))
         (marker_annotation name: (identifier) @method) @fact))))
 (#eq? @_cls "Path") (#eq? @_p "Path")
 (#any-of? @method "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")
 (#set! fact "http.route") (#set! framework "jax-rs"))

; @GET without a method-level @Path in a class with @Path("/prefix"): the prefix itself.
((class_declaration
   (modifiers (annotation name: (identifier) @_cls arguments: (annotation_argument_list . (string_literal) @prefix)))
   body: (class_body
     (method_declaration
       (modifiers (marker_annotation name: (identifier) @method) @fact))))
 (#eq? @_cls "Path")
 (#any-of? @method "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")
 (#set! fact "http.route") (#set! framework "jax-rs"))

; @GET @Path("/x") (either order) in a class without @Path.
((method_declaration
   (modifiers
     (marker_annotation name: (identifier) @method) @fact
     (annotation name: (identifier) @_p arguments: (annotation_argument_list . (string_literal) @path))))
 (#eq? @_p "Path")
 (#any-of? @method "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")
 (#set! fact "http.route") (#set! framework "jax-rs"))
((method_declaration
   (modifiers
     (annotation name: (identifier) @_p arguments: (annotation_argument_list . (string_literal) @path))
     (marker_annotation name: (identifier) @method) @fact))
 (#eq? @_p "Path")
 (#any-of? @method "GET" "POST" "PUT" "DELETE" "PATCH" "HEAD" "OPTIONS")
 (#set! fact "http.route") (#set! framework "jax-rs"))
