; Environment and configuration reads.

; Environment.GetEnvironmentVariable("NAME")
((invocation_expression
   function: (member_access_expression expression: (identifier) @_env name: (identifier) @_fn)
   arguments: (argument_list . (argument (string_literal) @name))) @fact
 (#eq? @_env "Environment") (#eq? @_fn "GetEnvironmentVariable")
 (#set! fact "env.read"))

; Environment.GetEnvironmentVariable("NAME") ?? "default"
((binary_expression
   left: (invocation_expression
           function: (member_access_expression expression: (identifier) @_env name: (identifier) @_fn)
           arguments: (argument_list . (argument (string_literal) @name)))
   right: (string_literal) @default) @fact
 (#eq? @_env "Environment") (#eq? @_fn "GetEnvironmentVariable")
 (#set! fact "env.read"))

; IConfiguration: Configuration["Orders:Url"] / config.GetValue<string>("Orders:Url") /
; GetConnectionString("orders")
((element_access_expression
   expression: [(identifier) (member_access_expression)] @_cfg
   subscript: (bracketed_argument_list . (argument (string_literal) @expr))) @fact
 (#match? @_cfg "(?i)config")
 (#set! fact "config.read"))
((invocation_expression
   function: (member_access_expression name: [(identifier) @_fn (generic_name (identifier) @_fn)])
   arguments: (argument_list . (argument (string_literal) @expr))) @fact
 (#any-of? @_fn "GetValue" "GetConnectionString" "GetSection")
 (#set! fact "config.read"))
