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

; envVariables.NAME / env.NAME: an object holding the environment (`const envVariables = process.env`, t3-env's
; validated `env`), read by an UPPER_SNAKE_CASE name
((member_expression object: (identifier) @_o property: (property_identifier) @name) @fact
 (#match? @_o "^([eE]nv|ENV|env_?[vV]ars|env_?[vV]ariables|ENV_VARS|processEnv)$")
 (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")
 (#set! fact "env.read"))
((binary_expression
   left: (member_expression object: (identifier) @_o property: (property_identifier) @name)
   right: (string (string_fragment) @default)) @fact
 (#match? @_o "^([eE]nv|ENV|env_?[vV]ars|env_?[vV]ariables|ENV_VARS|processEnv)$")
 (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")
 (#set! fact "env.read"))

; A setting read into a member of a configuration object (`const SERVER_CONFIG = { ORDERS_SERVICE: { SERVER_ORIGIN:
; process.env.ORDERS_ORIGIN || "http://localhost" } }`): `member` is the key it is kept under, `section` the key
; above, so that the code using the object (`SERVER_CONFIG.ORDERS_SERVICE.SERVER_ORIGIN`) is known to read it
((pair key: (_) @member
       value: [(member_expression object: (member_expression object: (identifier) @_p property: (property_identifier) @_e)
                                  property: (property_identifier) @name)
               (binary_expression left: (member_expression object: (member_expression object: (identifier) @_p
                                                                                     property: (property_identifier) @_e)
                                                            property: (property_identifier) @name))]) @fact
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read_member"))
((pair key: (_) @section
       value: (object (pair key: (_) @member
                            value: [(member_expression object: (member_expression object: (identifier) @_p
                                                                                  property: (property_identifier) @_e)
                                                       property: (property_identifier) @name)
                                    (binary_expression left: (member_expression
                                                               object: (member_expression object: (identifier) @_p
                                                                                          property: (property_identifier) @_e)
                                                               property: (property_identifier) @name))]) @fact))
 (#eq? @_p "process") (#eq? @_e "env")
 (#set! fact "env.read_member"))
((pair key: (_) @member
       value: [(member_expression object: (identifier) @_o property: (property_identifier) @name)
               (binary_expression left: (member_expression object: (identifier) @_o property: (property_identifier) @name))]) @fact
 (#match? @_o "^([eE]nv|ENV|env_?[vV]ars|env_?[vV]ariables|ENV_VARS|processEnv)$")
 (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")
 (#set! fact "env.read_member"))
((pair key: (_) @section
       value: (object (pair key: (_) @member
                            value: [(member_expression object: (identifier) @_o property: (property_identifier) @name)
                                    (binary_expression left: (member_expression object: (identifier) @_o
                                                                                property: (property_identifier) @name))]) @fact))
 (#match? @_o "^([eE]nv|ENV|env_?[vV]ars|env_?[vV]ariables|ENV_VARS|processEnv)$")
 (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$")
 (#set! fact "env.read_member"))
