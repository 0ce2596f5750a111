; Environment and configuration reads.

; System.getenv("NAME")
((call_expression
   (navigation_expression (identifier) @_sys (identifier) @_fn)
   (value_arguments . (value_argument . (string_literal) @name))) @fact
 (#eq? @_sys "System") (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; System.getenv("NAME") ?: "default"
((binary_expression
   left: (call_expression
           (navigation_expression (identifier) @_sys (identifier) @_fn)
           (value_arguments . (value_argument . (string_literal) @name)))
   right: (string_literal) @default) @fact
 (#eq? @_sys "System") (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; @Value("\${orders.url:http://x}") configuration reads
((annotation (constructor_invocation (user_type (identifier) @_v) (value_arguments . (value_argument . (string_literal) @expr)))) @fact
 (#eq? @_v "Value")
 (#set! fact "config.read"))
