; Names bound to values, for value resolution (repomodeler/graph/constants.py): const / static / let whose
; value is a string expression or another name (format!("{}/x", BASE), concat!(...)).  `scope` is the
; enclosing function's lines; none for an item.
((const_item name: (identifier) @name value: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_:]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_item closure_expression")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
((let_declaration pattern: (identifier) @name value: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_:]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_item closure_expression")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
