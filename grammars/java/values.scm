; Names bound to values, for value resolution (repomodeler/graph/constants.py): fields (class constants:
; static final String URL = BASE + "/x") and local variables (String url = host + ":8080") whose value is
; a string expression or another name.  `scope` is the enclosing method's lines; none for a field.
((variable_declarator name: (identifier) @name value: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration lambda_expression")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = base + "/x"
((assignment_expression left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration lambda_expression")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
