; Names bound to values, for value resolution (repomodeler/graph/constants.py): NAME = expr with a string
; expression or another name (BASE + "/x", f"http://{HOST}:8080", "http://{}".format(h)).  `scope` is the
; enclosing function's lines; none at module level and in a class body.
((assignment left: (identifier) @name right: (_) @expr) @fact
 (#match? @expr "[\"']|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! scope_nodes "function_definition lambda")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; self.base_url = "http://orders:8080" in a method: the object's field, read in its other methods
((assignment left: (attribute object: (identifier) @_self attribute: (identifier) @name) right: (_) @expr) @fact
 (#eq? @_self "self")
 (#match? @expr "[\"']|^[A-Za-z_][A-Za-z0-9_.]*$|(?i:url|uri|host|endpoint|addr)")
 (#not-match? @expr "^(nil|true|false|null|None|True|False|undefined|iota)$")
 (#set! verbatim "expr")
 (#set! fact "value.assign"))
; Value flow between functions (see repomodeler/graph/constants.py), limited to what names an address:
; parameters named like one (def fetch(self, base_url="http://x")), a class's constructor called by the
; class's name (class Client: def __init__(self, base_url)), and the calls handing such values on.
((function_definition name: (identifier) @function parameters: (parameters) @params @fact)
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_definition")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((class_definition name: (identifier) @function
   body: (block (function_definition name: (identifier) @_init parameters: (parameters) @params @fact)))
 (#eq? @_init "__init__")
 (#match? @params "(?i)(url|uri|host|endpoint|addr)")
 (#set! scope_nodes "function_definition")
 (#set! verbatim "params")
 (#set! fact "value.params"))
((call function: [(identifier) (attribute attribute: (identifier))] @callee arguments: (argument_list) @args) @fact
 (#match? @args "(?i)(url|uri|host|endpoint|addr|://)")
 (#set! verbatim "args")
 (#set! fact "value.invoke"))
