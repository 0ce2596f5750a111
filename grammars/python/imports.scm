; Module imports.  Each imported module is one fact; the resolver maps driver modules
; (psycopg2, pika, kafka ...) to technologies.

; import x / import x.y, z
((import_statement name: (dotted_name) @module) @fact (#set! fact "import"))

; import x as y
((import_statement name: (aliased_import name: (dotted_name) @module)) @fact (#set! fact "import"))

; from x.y import z
((import_from_statement module_name: (dotted_name) @module) @fact (#set! fact "import"))
