; Micronaut declarative clients: @Client(id = "policy-service") on an interface names the service by
; the id it registers under (micronaut.application.name) in the discovery registry, as Feign's
; @FeignClient(name = ...) does; @Client("http://...") / @Client("${orders.url}") give its address,
; and @Client("pricing-service") a service id.  Read as `feign.client` (the same resolver path).

; @Client(id = "policy-service", path = "/policies")
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         (element_value_pair key: (identifier) @_k value: (string_literal) @name)))) @fact)
 (#eq? @_a "Client") (#eq? @_k "id")
 (#set! fact "feign.client"))

; @Client("http://orders:8080") / @Client("${orders.url}") / @Client("pricing-service") / @Client(value = ...)
((interface_declaration
   (modifiers
     (annotation name: (identifier) @_a
       arguments: (annotation_argument_list
         [(string_literal) @name (element_value_pair key: (identifier) @_k value: (string_literal) @name)]))) @fact)
 (#eq? @_a "Client") (#any-of? @_k "value")
 (#set! fact "feign.client"))
