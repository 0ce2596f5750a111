; String fields for value resolution: private static final String ORDERS_URL = "http://...".
((field_declaration declarator: (variable_declarator name: (identifier) @name value: (string_literal) @value)) @fact
 (#set! fact "const.string"))
; Interface constants: String BASE = "..." inside an interface body.
((constant_declaration declarator: (variable_declarator name: (identifier) @name value: (string_literal) @value)) @fact
 (#set! fact "const.string"))
