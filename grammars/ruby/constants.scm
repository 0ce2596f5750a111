; String constants for value resolution: ORDERS_URL = "http://orders:8080" (also .freeze'd).
((assignment left: (constant) @name right: (string . (string_content) @value .)) @fact
 (#set! fact "const.string"))
((assignment left: (constant) @name right: (call receiver: (string . (string_content) @value .) method: (identifier) @_f)) @fact
 (#eq? @_f "freeze")
 (#set! fact "const.string"))
