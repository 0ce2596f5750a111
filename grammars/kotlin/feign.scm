; OpenFeign clients in Kotlin: @FeignClient(name = "orders", url = "\${orders.url}") interface.

; the client's name (name = / value = / positional)
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_a)
         (value_arguments (value_argument [(string_literal) @name ((identifier) @_nk . (string_literal) @name)])))))
   "interface") @fact
 (#eq? @_a "FeignClient") (#any-of? @_nk "name" "value")
 (#set! fact "feign.client"))

; the client's url
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_a)
         (value_arguments (value_argument (identifier) @_uk . (string_literal) @url)))))
   "interface") @fact
 (#eq? @_a "FeignClient") (#eq? @_uk "url")
 (#set! fact "feign.client"))

; @GetMapping("/x") methods of the interface: HTTP calls through the client `feign`
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_a)
         (value_arguments . (value_argument [(string_literal) @feign ((identifier) @_nk . (string_literal) @feign)])))))
   "interface"
   (class_body
     (function_declaration
       (modifiers
         (annotation
           (constructor_invocation
             (user_type (identifier) @method)
             (value_arguments . (value_argument . (string_literal) @url)))) @fact))))
 (#eq? @_a "FeignClient") (#any-of? @_nk "name" "value")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.client"))
