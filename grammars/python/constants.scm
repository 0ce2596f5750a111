; String constants used for value resolution: NAME = "literal" (no f-string interpolation) at module
; level or in a class body
; (ORDERS_URL = "http://orders:8080", class Settings: base = "...").

; module-level assignment
((module (expression_statement (assignment left: (identifier) @name right: (string (string_start) . (string_content) @value . (string_end))) @fact))
 (#set! fact "const.string"))

; NAME: str = "literal" is the same node with a type; covered above.  Class attributes:
((class_definition body: (block (expression_statement (assignment left: (identifier) @name right: (string (string_start) . (string_content) @value . (string_end))) @fact)))
 (#set! fact "const.string"))
