; String constants for value resolution: const NAME = "literal" / `literal` (no substitutions),
; at any level (module constants and function-local consts both name fixed values).
((variable_declarator name: (identifier) @name value: (string (string_fragment) @value)) @fact
 (#set! fact "const.string"))
((variable_declarator name: (identifier) @name value: (template_string . (string_fragment) @value .)) @fact
 (#set! fact "const.string"))
