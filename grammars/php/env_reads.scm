; Environment and configuration reads.

; getenv('NAME') / env('NAME'[, 'default']) (Laravel)
((function_call_expression function: (name) @_fn
   arguments: (arguments . (argument [(string (string_content) @name) (encapsed_string (string_content) @name)])
                         . (argument [(string (string_content) @default) (encapsed_string (string_content) @default)])?)) @fact
 (#any-of? @_fn "getenv" "env")
 (#set! fact "env.read"))

; $_ENV['NAME'] / $_SERVER['NAME']
((subscript_expression (variable_name (name) @_env) [(string (string_content) @name) (encapsed_string (string_content) @name)]) @fact
 (#any-of? @_env "_ENV" "_SERVER")
 (#set! fact "env.read"))

; config('services.orders.url') (Laravel configuration)
((function_call_expression function: (name) @_fn arguments: (arguments . (argument (string (string_content) @expr)))) @fact
 (#eq? @_fn "config")
 (#set! fact "config.read"))
