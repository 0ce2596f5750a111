((import_declaration (scoped_identifier) @module) @fact (#set! fact "import"))
