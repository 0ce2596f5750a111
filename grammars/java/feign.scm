; OpenFeign declarative clients: @FeignClient(name = "orders", url = "${orders.url}") on an
; interface gives the client (`name`, `url`); its @GetMapping("/x") methods are HTTP calls.

; @FeignClient(name = "orders", url = "...") / (value = "orders") / ("orders")
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         [(string_literal) @name (element_value_pair key: (identifier) @_nk value: (string_literal) @name)]))) @fact)
 (#eq? @_a "FeignClient") (#any-of? @_nk "name" "value")
 (#set! fact "feign.client"))
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         (element_value_pair key: (identifier) @_uk value: (string_literal) @url)))) @fact)
 (#eq? @_a "FeignClient") (#eq? @_uk "url")
 (#set! fact "feign.client"))
; @FeignClient(contextId = "remoteUserService", value = ServiceNameConstants.SYSTEM_SERVICE): the service
; id held by a constant (`name_ref`, resolved by the graph through the repository's constants)
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         (element_value_pair key: (identifier) @_nk value: [(field_access) (identifier)] @name_ref)))) @fact)
 (#eq? @_a "FeignClient") (#any-of? @_nk "name" "value")
 (#set! fact "feign.client"))

; Methods of a @FeignClient interface: @GetMapping("/orders/{id}") -> http.client (url = path,
; `feign` = the client name the resolver joins it with).
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         . [(string_literal) @feign (element_value_pair key: (identifier) @_nk value: (string_literal) @feign)])))
   body: (interface_body
     (method_declaration
       (modifiers
         (annotation name: (identifier) @method
           arguments: (annotation_argument_list
             . [(string_literal) @url (element_value_pair key: (identifier) @_k value: (string_literal) @url)])) @fact))))
 (#eq? @_a "FeignClient") (#any-of? @_nk "name" "value") (#any-of? @_k "value" "path")
 (#any-of? @method "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.client"))
