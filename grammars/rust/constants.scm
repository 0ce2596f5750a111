; String constants for value resolution: const ORDERS_URL: &str = "http://orders:8080"; static X.
((const_item name: (identifier) @name value: (string_literal) @value) @fact (#set! fact "const.string"))
((static_item name: (identifier) @name value: (string_literal) @value) @fact (#set! fact "const.string"))
