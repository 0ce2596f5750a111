; String constants and package variables for value resolution:
; const OrdersURL = "http://orders:8080", var base = "..." (also inside const ( ... ) blocks).
((const_spec name: (identifier) @name value: (expression_list . [(interpreted_string_literal) (raw_string_literal)] @value .)) @fact
 (#set! fact "const.string"))
((source_file (var_declaration (var_spec name: (identifier) @name value: (expression_list . [(interpreted_string_literal) (raw_string_literal)] @value .)) @fact))
 (#set! fact "const.string"))
