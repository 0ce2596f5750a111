; use declarations: the module is the use path (std::env, actix_web, reqwest::Client).

; use a::b; / use a;
((use_declaration argument: [(scoped_identifier) (identifier)] @module) @fact (#set! fact "import"))
; use a::{b, c};
((use_declaration argument: (scoped_use_list path: (_) @module)) @fact (#set! fact "import"))
; use a::b as c;
((use_declaration argument: (use_as_clause path: (_) @module)) @fact (#set! fact "import"))
; use a::*;
((use_declaration argument: (use_wildcard (_) @module)) @fact (#set! fact "import"))
; extern crate a;
((extern_crate_declaration name: (identifier) @module) @fact (#set! fact "import"))
