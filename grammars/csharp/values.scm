; Names bound to values, for value resolution (repomodeler/graph/constants.py): const / static readonly
; fields and local variables whose value is a string expression or another name (Base + "/x", $"http://{Host}").
; `scope` is the enclosing method's lines; none for a field.
((variable_declarator name: (identifier) @name (_) @expr .) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration local_function_statement lambda_expression accessor_declaration")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = baseUrl + "/x"
((assignment_expression left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration local_function_statement lambda_expression accessor_declaration")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
