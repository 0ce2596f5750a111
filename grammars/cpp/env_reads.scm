; Environment variable reads: getenv("NAME"), std::getenv("NAME"), secure_getenv("NAME").
((call_expression function: (identifier) @_fn arguments: (argument_list . (string_literal (string_content) @name))) @fact
 (#any-of? @_fn "getenv" "secure_getenv")
 (#set! fact "env.read"))
((call_expression function: (qualified_identifier name: (identifier) @_fn)
                  arguments: (argument_list . (string_literal (string_content) @name))) @fact
 (#eq? @_fn "getenv")
 (#set! fact "env.read"))
