; Module imports.  Each imported module is one fact; the resolver maps driver modules
; (psycopg2, pika, kafka ...) to technologies.

; import x / import x.y, z
((import_statement name: (dotted_name) @module) @fact (#set! fact "import"))

; import x as y
((import_statement name: (aliased_import name: (dotted_name) @module)) @fact (#set! fact "import"))

; from x.y import z
((import_from_statement module_name: (dotted_name) @module) @fact (#set! fact "import"))

; The local name an import binds: from .routers import orders / from app.api.orders import router
; (used to follow router mounts to the file that declares the routes).
((import_from_statement module_name: (_) @module name: (dotted_name) @name) @fact
 (#set! fact "module.var"))
