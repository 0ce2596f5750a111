; Names bound to values, for value resolution (repomodeler/graph/constants.py): const val / val / var whose
; value is a string expression or another name ("$BASE/x", BASE + "/x").  `scope` is the enclosing
; function's lines; none at top level, in a class or a companion object.
((property_declaration (variable_declaration (identifier) @name) . (_) @expr .) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration lambda_literal anonymous_function")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
