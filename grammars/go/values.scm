; Names bound to values, for value resolution (repomodeler/graph/constants.py): a constant, a package
; variable or a local variable whose value is a string expression or another name.  `scope` is the
; enclosing function's lines (a local variable is read only there); none at package level.
; url := base + "/pull" / u := fmt.Sprintf("http://%s", host)
((short_var_declaration left: (expression_list . (identifier) @name .) right: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; var url = base + "/pull" (package level or in a function); const registry = scheme + "://" + host
((var_spec name: (identifier) @name value: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
((const_spec name: (identifier) @name value: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = base + "/x" (a later assignment in the same function)
((assignment_statement left: (expression_list . (identifier) @name .) right: (expression_list . (_) @expr .)) @fact
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration method_declaration func_literal")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; Value flow between functions (see repomodeler/graph/constants.py), limited to what names an address:
; a function's parameters when one is named like an address (its lines from `scope`) ...
((function_declaration name: (identifier) @function parameters: (parameter_list) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_declaration method_declaration")
 (#set! fact "value.params"))
((method_declaration name: (field_identifier) @function parameters: (parameter_list) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_declaration method_declaration")
 (#set! fact "value.params"))
; ... the calls handing such a value on: makeRequest(ctx, http.MethodGet, requestURL, nil) ...
((call_expression function: [(identifier) (selector_expression field: (field_identifier))] @callee
   arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
; ... what a function returns when it builds an address: return &url.URL{Scheme: n.Scheme, Host: n.Host} ...
((function_declaration name: (identifier) @function
   body: (block (statement_list (return_statement (expression_list . (_) @expr .)) @fact)))
 (#match? @expr "(?i:url|uri|host|scheme|endpoint|addr)|://")
 (#set! verbatim "expr")
 (#set! fact "value.return"))
((method_declaration name: (field_identifier) @function
   body: (block (statement_list (return_statement (expression_list . (_) @expr .)) @fact)))
 (#match? @expr "(?i:url|uri|host|scheme|endpoint|addr)|://")
 (#set! verbatim "expr")
 (#set! fact "value.return"))
; ... and the fields a struct literal sets (a config object's defaults): Name{Host: defaultHost}
((keyed_element key: (literal_element (identifier) @name) value: (literal_element (_) @expr)) @fact
 (#match? @name "(?i)(url|uri|host|scheme|endpoint|addr|address|server)")
 (#match? @expr "[\"`]|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.field"))
