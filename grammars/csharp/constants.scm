; String fields and constants for value resolution: private const string OrdersUrl = "http://...".
((field_declaration (variable_declaration (variable_declarator name: (identifier) @name (string_literal) @value))) @fact
 (#set! fact "const.string"))
