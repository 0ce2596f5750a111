; Names bound to values, for value resolution (repomodeler/graph/constants.py): a constant, a package
; variable or a local variable whose value is a string expression or another name.  `scope` is the
; enclosing function's lines (a local variable is read only there); none at package level.
; url := base + "/pull" / u := fmt.Sprintf("http://%s", host)
((short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; var url = base + "/pull" (package level or in a function); const registry = scheme + "://" + host
((var_spec name: (identifier) @name value: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
((const_spec name: (identifier) @name value: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = base + "/x" (a later assignment in the same function)
((assignment_statement left: (expression_list . (identifier) @name .) right: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
