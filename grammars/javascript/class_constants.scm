; Class fields with a string value: static BASE_URL = "http://orders:8080".
; (JavaScript's node is field_definition; typescript/class_constants.scm overrides this file.)
((field_definition property: (property_identifier) @name value: (string (string_fragment) @value)) @fact
 (#set! fact "const.string"))
