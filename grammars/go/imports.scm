((import_spec path: (_) @module) @fact (#set! fact "import"))
