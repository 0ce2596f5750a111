; Code structure: a package's docstring (its purpose line in the model's subsystems).

; """Orders API: routes and models."""  as the first statement of a package's __init__.py
((module . (expression_statement (string (string_content) @doc)) @fact)
 (#set! fact "package.doc") (#set! only_files "(^|/)__init__\\.py$"))
