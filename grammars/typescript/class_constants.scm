; Class fields with a string value: static readonly BASE_URL = "http://orders:8080".
; (Overrides javascript/class_constants.scm: TypeScript's node is public_field_definition.)
((public_field_definition name: (property_identifier) @name value: (string (string_fragment) @value)) @fact
 (#set! fact "const.string"))
