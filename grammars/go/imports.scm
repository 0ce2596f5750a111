; import "path" and import ( alias "path" ... ): the module is the import path.
((import_spec path: (_) @module) @fact (#set! fact "import"))
