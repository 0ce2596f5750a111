; Micronaut declarative clients in Kotlin: @Client(id = "policy-service") interface names the service by
; its discovery id; @Client("http://...") / @Client("\${orders.url}") its address.  Read as
; `feign.client` (the resolver's path for declarative clients), as in grammars/java/micronaut.scm.

; @Client(id = "policy-service")
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_a)
         (value_arguments (value_argument (identifier) @_k . (string_literal) @name)))))
   "interface") @fact
 (#eq? @_a "Client") (#eq? @_k "id")
 (#set! fact "feign.client"))

; @Client("http://orders:8080") / @Client("pricing-service") (the first, unnamed argument)
((class_declaration
   (modifiers
     (annotation
       (constructor_invocation
         (user_type (identifier) @_a)
         (value_arguments . (value_argument . (string_literal) @name .)))))
   "interface") @fact
 (#eq? @_a "Client")
 (#set! fact "feign.client"))
