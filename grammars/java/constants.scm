; String fields for value resolution: private static final String ORDERS_URL = "http://...".
((field_declaration declarator: (variable_declarator name: (identifier) @name value: (string_literal) @value)) @fact
 (#set! fact "const.string"))
; Interface constants: String BASE = "..." inside an interface body.
((constant_declaration declarator: (variable_declarator name: (identifier) @name value: (string_literal) @value)) @fact
 (#set! fact "const.string"))
; Enum constants carrying a name: enum Service { PERSISTENCE("shop.persistence"), ... }
((enum_declaration
   name: (identifier) @enum
   body: (enum_body (enum_constant name: (identifier) @name arguments: (argument_list . (string_literal) @value) .) @fact))
 (#set! fact "const.enum"))
; ... and where code hands such a constant to a call: balancer.get(Service.PERSISTENCE, "products")
((method_invocation
   arguments: (argument_list (field_access object: (identifier) @enum field: (identifier) @name) @fact))
 (#match? @name "^[A-Z][A-Z0-9_]*$")
 (#set! fact "code.constant_arg"))
