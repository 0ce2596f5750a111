; String constants for value resolution: const val ORDERS_URL = "http://orders:8080",
; val base = "..." at top level, in classes and companion objects.
((property_declaration (variable_declaration (identifier) @name) (string_literal) @value) @fact
 (#set! fact "const.string"))
