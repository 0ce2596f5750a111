; Code structure: a crate's or module's inner documentation (its purpose line in the model's subsystems).

; //! The storage engine.   at the top of lib.rs, main.rs or mod.rs
((source_file . (line_comment (inner_doc_comment_marker) (doc_comment) @doc) @fact)
 (#set! fact "package.doc") (#set! only_files "(^|/)(lib|main|mod)\\.rs$"))
