; Names bound to values, for value resolution (repomodeler/graph/constants.py): const / static readonly
; fields and local variables whose value is a string expression or another name (Base + "/x", $"http://{Host}").
; `scope` is the enclosing method's lines; none for a field.
((variable_declarator name: (identifier) @name (_) @expr .) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "method_declaration constructor_declaration local_function_statement lambda_expression accessor_declaration")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; _baseUrl = baseUrl / url = baseUrl + "/x": a field or a variable set again (read from the file, as a field is)
((assignment_expression left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; Value flow between functions (see repomodeler/graph/constants.py), limited to what names an address:
; parameters named like one (constructors too: public OrdersClient(string baseUrl)) and the calls handing
; such values on (new OrdersClient("http://orders:8080"), client.Fetch(url)).
((method_declaration name: (identifier) @function parameters: (parameter_list) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((constructor_declaration name: (identifier) @function parameters: (parameter_list) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((invocation_expression function: [(identifier) (member_access_expression name: (identifier))] @callee arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
((object_creation_expression type: (identifier) @callee arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
