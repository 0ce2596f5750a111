; Environment variable reads: `name`, and `default` when a string literal default follows.

; process.env.NAME
((member_expression
   object: (member_expression object: (identifier) @_p property: (property_identifier) @_e)
   property: (property_identifier) @name) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read"))

; process.env.NAME || "default"  and  process.env.NAME ?? "default"
((binary_expression
   left: (member_expression
           object: (member_expression object: (identifier) @_p property: (property_identifier) @_e)
           property: (property_identifier) @name)
   right: (string (string_fragment) @default)) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read"))

; process.env["NAME"]
((subscript_expression
   object: (member_expression object: (identifier) @_p property: (property_identifier) @_e)
   index: (string (string_fragment) @name)) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read"))

; const { NAME, OTHER = "default" } = process.env
((variable_declarator
   name: (object_pattern (shorthand_property_identifier_pattern) @name)
   value: (member_expression object: (identifier) @_p property: (property_identifier) @_e)) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read"))
; const { NAME = '' } = process.env (an empty or computed default)
((variable_declarator
   name: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name
                                                    right: (_) @_d))
   value: (member_expression object: (identifier) @_p property: (property_identifier) @_e)) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#not-match? @_d "^[\"'][^\"']")
 (#set! fact "env.read"))
((variable_declarator
   name: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name
                                                    right: (string (string_fragment) @default)))
   value: (member_expression object: (identifier) @_p property: (property_identifier) @_e)) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read"))
