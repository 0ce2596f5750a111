; Environment and configuration reads.

; System.getenv("NAME")
((method_invocation object: (identifier) @_sys name: (identifier) @_fn arguments: (argument_list . (string_literal) @name)) @fact
 (#eq? @_sys "System") (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; @Value("${some.key:default}") configuration reads (on fields, parameters, methods)
((annotation name: (identifier) @_v arguments: (annotation_argument_list . (string_literal) @expr)) @fact
 (#eq? @_v "Value")
 (#set! fact "config.read"))

; Spring Environment: env.getProperty("orders.url"[, "default"]) / environment.getRequiredProperty(...)
((method_invocation object: (identifier) @_env name: (identifier) @_fn arguments: (argument_list . (string_literal) @expr)) @fact
 (#match? @_env "(?i)^(env|environment)$") (#any-of? @_fn "getProperty" "getRequiredProperty")
 (#set! fact "config.read"))
