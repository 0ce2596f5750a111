; Test-only code inside production files: a module under #[cfg(test)] (or #[cfg(all(test, ...))]).
; The engine drops every other fact found inside its span (see repomodeler/extract/engine.py TEST_ONLY):
; a test's database URL or mock server is not the program's architecture.
((attribute_item (attribute (identifier) @_cfg arguments: (token_tree) @_args)) . (mod_item) @fact
 (#eq? @_cfg "cfg")
 (#match? @_args "^\\((all\\()?test\\b")
 (#set! fact "code.test_only"))
; ... with other attributes or comments between (#[cfg(test)] #[allow(clippy::...)] // why \n mod tests)
((attribute_item (attribute (identifier) @_cfg arguments: (token_tree) @_args))
 . [(attribute_item) (line_comment) (block_comment)] . (mod_item) @fact
 (#eq? @_cfg "cfg")
 (#match? @_args "^\\((all\\()?test\\b")
 (#set! fact "code.test_only"))
((attribute_item (attribute (identifier) @_cfg arguments: (token_tree) @_args))
 . [(attribute_item) (line_comment) (block_comment)] . [(attribute_item) (line_comment) (block_comment)] . (mod_item) @fact
 (#eq? @_cfg "cfg")
 (#match? @_args "^\\((all\\()?test\\b")
 (#set! fact "code.test_only"))
