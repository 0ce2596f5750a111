; ES module imports, re-exports, dynamic import() and CommonJS require().

; import x from "module" / import "module"
((import_statement source: (string (string_fragment) @module)) @fact (#set! fact "import"))

; export { x } from "module"
((export_statement source: (string (string_fragment) @module)) @fact (#set! fact "import"))

; require("module") / import("module")
((call_expression function: [(identifier) (import)] @_req arguments: (arguments . (string (string_fragment) @module))) @fact
 (#any-of? @_req "require" "import")
 (#set! fact "import"))
