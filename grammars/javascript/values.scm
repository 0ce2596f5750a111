; Names bound to values, for value resolution (repomodeler/graph/constants.py): const/let/var whose value is
; a string expression or another name (BASE + "/x", `${BASE}/x`).  `scope` is the enclosing function's
; lines; none at module level.
((variable_declarator name: (identifier) @name value: (_) @expr) @fact
 (#match? @expr "[\"'`]|^[A-Za-z_$][A-Za-z0-9_$.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration function_expression function arrow_function method_definition generator_function_declaration")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; url = base + "/x"
((assignment_expression left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "[\"'`]|^[A-Za-z_$][A-Za-z0-9_$.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_declaration function_expression function arrow_function method_definition generator_function_declaration")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; this.baseUrl = "http://orders:8080" in a constructor: the object's field, read in its other methods
((assignment_expression left: (member_expression object: (this) property: (property_identifier) @name) right: (_) @expr) @fact
 (#match? @expr "[\"'`]|^[A-Za-z_$][A-Za-z0-9_$.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; import { ORDERS_URL } from "./config" / import { BASE as ORDERS } from "./config": the name a module
; binds from another, so a constant resolves in the file that declares it
((import_statement (import_clause (named_imports (import_specifier name: (identifier) @name .))) source: (string (string_fragment) @module)) @fact
 (#set! fact "import.name"))
((import_statement (import_clause (named_imports (import_specifier name: (identifier) @imported alias: (identifier) @name))) source: (string (string_fragment) @module)) @fact
 (#set! fact "import.name"))
; Value flow between functions (see repomodeler/graph/constants.py), limited to what names an address:
; parameters named like one (a class's constructor is called by the class's name: new Client(url)) and
; the calls handing such values on.
((function_declaration name: (identifier) @function parameters: (formal_parameters) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_declaration method_definition")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((method_definition name: (property_identifier) @function parameters: (formal_parameters) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_declaration method_definition")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((class_declaration name: (_) @function
   body: (class_body (method_definition name: (property_identifier) @_c parameters: (formal_parameters) @params @fact)))
 (#eq? @_c "constructor")
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_declaration method_definition")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((call_expression function: [(identifier) (member_expression property: (property_identifier))] @callee arguments: (arguments) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
((new_expression constructor: [(identifier) (member_expression property: (property_identifier))] @callee arguments: (arguments) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
