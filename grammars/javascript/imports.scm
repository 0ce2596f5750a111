; ES module imports and CommonJS require().
((import_statement source: (string (string_fragment) @module)) @fact (#set! fact "import"))
((call_expression function: (identifier) @_req arguments: (arguments . (string (string_fragment) @module))) @fact
 (#eq? @_req "require")
 (#set! fact "import"))
