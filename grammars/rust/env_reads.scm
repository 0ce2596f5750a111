; Environment reads: std::env::var("NAME") with an optional literal default.

; env::var("NAME") / std::env::var("NAME") / env::var_os("NAME")
((call_expression
   function: (scoped_identifier name: (identifier) @_fn)
   arguments: (arguments . (string_literal) @name)) @fact
 (#any-of? @_fn "var" "var_os")
 (#match? @fact "^(std::)?env::var")
 (#set! fact "env.read"))

; env::var("NAME").unwrap_or("default".to_string()) / .unwrap_or_else(|_| "default".into())
((call_expression
   function: (field_expression
               value: (call_expression
                        function: (scoped_identifier name: (identifier) @_fn)
                        arguments: (arguments . (string_literal) @name))
               field: (field_identifier) @_or)
   arguments: (arguments . [(string_literal) @default
                            (call_expression function: (field_expression value: (string_literal) @default))
                            (closure_expression body: [(string_literal) @default (call_expression function: (field_expression value: (string_literal) @default))])])) @fact
 (#eq? @_fn "var") (#any-of? @_or "unwrap_or" "unwrap_or_else")
 (#set! fact "env.read"))

; env!("NAME") / option_env!("NAME"): compile-time environment
((macro_invocation macro: (identifier) @_m (token_tree . (string_literal) @name)) @fact
 (#any-of? @_m "env" "option_env")
 (#set! fact "env.read"))

; env::var(env::clickhouse::URL) / std::env::var(KEY): the variable's name is a constant's value
; (resolved against the repository's constants where settings are matched to the code reading them)
((call_expression
   function: (scoped_identifier name: (identifier) @_fn)
   arguments: (arguments . [(identifier) (scoped_identifier)] @expr)) @fact
 (#any-of? @_fn "var" "var_os")
 (#match? @fact "^(std::)?env::var")
 (#set! fact "env.read_ref"))
