; ES module imports, re-exports, dynamic import() and CommonJS require().

; import x from "module" / import "module"
((import_statement source: (string (string_fragment) @module)) @fact (#set! fact "import"))

; export { x } from "module"
((export_statement source: (string (string_fragment) @module)) @fact (#set! fact "import"))

; require("module") / import("module")
((call_expression function: [(identifier) (import)] @_req arguments: (arguments . (string (string_fragment) @module))) @fact
 (#any-of? @_req "require" "import")
 (#set! fact "import"))

; The local name a module is bound to: const ordersRouter = require("./routes/orders") /
; import ordersRouter from "./routes/orders" (used to follow router mounts across files).
((lexical_declaration
   (variable_declarator name: (identifier) @name
                        value: (call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @module))))) @fact
 (#eq? @_req "require")
 (#set! fact "module.var"))
((import_statement (import_clause (identifier) @name) source: (string (string_fragment) @module)) @fact
 (#set! fact "module.var"))
