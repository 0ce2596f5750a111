; Module imports: `import x`, `import x as y`, `from x import y`.
((import_statement name: (dotted_name) @module) @fact (#set! fact "import"))
((import_statement name: (aliased_import name: (dotted_name) @module)) @fact (#set! fact "import"))
((import_from_statement module_name: (dotted_name) @module) @fact (#set! fact "import"))
