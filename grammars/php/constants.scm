; String constants for value resolution: const X = '...'; class constants; define('X', '...');
; string-valued properties.
((const_element (name) @name [(string (string_content) @value .) (encapsed_string (string_content) @value .)]) @fact
 (#set! fact "const.string"))
((function_call_expression function: (name) @_fn
   arguments: (arguments . (argument (string (string_content) @name)) . (argument [(string (string_content) @value .) (encapsed_string (string_content) @value .)]))) @fact
 (#eq? @_fn "define")
 (#set! fact "const.string"))
((property_element name: (variable_name (name) @name) default_value: [(string (string_content) @value .) (encapsed_string (string_content) @value .)]) @fact
 (#set! fact "const.string"))
