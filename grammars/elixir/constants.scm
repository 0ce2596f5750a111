; Module attributes holding a string, for value resolution: @orders_url "http://orders:8080".
((unary_operator operator: "@" operand: (call target: (identifier) @name (arguments . (string . (quoted_content) @value .) .))) @fact
 (#set! fact "const.string"))
