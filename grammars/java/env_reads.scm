; System.getenv("NAME")
((method_invocation object: (identifier) @_sys name: (identifier) @_fn arguments: (argument_list . (string_literal) @name)) @fact
 (#eq? @_sys "System") (#eq? @_fn "getenv")
 (#set! fact "env.read"))
; @Value("${some.key:default}") configuration reads
((annotation name: (identifier) @_v arguments: (annotation_argument_list . (string_literal) @expr)) @fact
 (#eq? @_v "Value")
 (#set! fact "config.read"))
