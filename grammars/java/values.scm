; Names bound to values, for value resolution (repomodeler/graph/constants.py): fields (class constants:
; static final String URL = BASE + "/x") and local variables (String url = host + ":8080") whose value is
; a string expression or another name.  `scope` is the enclosing method's lines; none for a field.
((variable_declarator name: (identifier) @name value: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "method_declaration constructor_declaration lambda_expression")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = base + "/x" / _baseUrl = baseUrl: a field or a variable set again (read from the file, as a field is)
((assignment_expression left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; this.baseUrl = baseUrl in a constructor: the object's field, read in its other methods
((assignment_expression left: (field_access object: (this) field: (identifier) @name) right: (_) @expr) @fact
 (#match? @expr "\"|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; Value flow between functions (see repomodeler/graph/constants.py), limited to what names an address:
; parameters named like one (constructors too: OrdersClient(String baseUrl)) and the calls handing such
; values on (new OrdersClient("http://orders:8080"), client.fetch(url)).
((method_declaration name: (identifier) @function parameters: (formal_parameters) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((constructor_declaration name: (identifier) @function parameters: (formal_parameters) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "method_declaration constructor_declaration")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((method_invocation name: (identifier) @callee arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
((object_creation_expression type: (type_identifier) @callee arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
