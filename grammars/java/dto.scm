; Request and response bodies of Spring handlers, and the fields of the classes they name (issue #24:
; framework DTOs as item defs).  The graph joins an `http.body` to the `http.route` of the same line
; (both land on the mapping annotation) and a body type to a `dto.class` of the same repository.

; @PostMapping ... create(@RequestBody OrderRequest request): the request body's type, as written.
((method_declaration
   (modifiers (_ name: (identifier) @_m) @fact)
   parameters: (formal_parameters
     (formal_parameter (modifiers (marker_annotation name: (identifier) @_rb)) type: (_) @request)))
 (#any-of? @_m "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#eq? @_rb "RequestBody")
 (#set! fact "http.body") (#set! framework "spring"))

; @GetMapping ... public ResponseEntity<OrderResponse> get(..): the response body's type, as written
; (ResponseEntity<..>, List<..>, Mono<..> are unwrapped by the graph; void is no body).
((method_declaration
   (modifiers (_ name: (identifier) @_m) @fact)
   type: [(type_identifier) (generic_type) (scoped_type_identifier) (array_type)] @response)
 (#any-of? @_m "GetMapping" "PostMapping" "PutMapping" "DeleteMapping" "PatchMapping" "RequestMapping")
 (#set! fact "http.body") (#set! framework "spring"))

; class OrderRequest { private String sku; ... }: a class that may be a body, at its name's line.
((class_declaration name: (identifier) @name @fact)
 (#set! fact "dto.class"))
((record_declaration name: (identifier) @name @fact)
 (#set! fact "dto.class"))

; private List<Line> lines;  (static fields are constants, not data)
((class_declaration
   name: (identifier) @class
   body: (class_body
     (field_declaration
       (modifiers) @_mods
       type: (_) @type
       declarator: (variable_declarator name: (identifier) @name)) @fact))
 (#not-match? @_mods "\\bstatic\\b")
 (#set! fact "dto.field"))
((class_declaration
   name: (identifier) @class
   body: (class_body
     (field_declaration
       . type: (_) @type
       declarator: (variable_declarator name: (identifier) @name)) @fact))
 (#set! fact "dto.field"))

; record OrderRequest(String sku, int quantity): each component is a field.
((record_declaration
   name: (identifier) @class
   parameters: (formal_parameters
     (formal_parameter type: (_) @type name: (identifier) @name) @fact))
 (#set! fact "dto.field"))
