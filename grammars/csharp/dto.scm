; Request and response bodies of ASP.NET Core controller actions, and the members of the classes and
; records they name (issue #24: framework DTOs as item defs).  The graph joins an `http.body` to the
; `http.route` of the same [HttpX] attribute line and a body type to a `dto.class` of the repository.

; [HttpPost] public IActionResult Create([FromBody] OrderRequest request) / (OrderRequest request):
; a parameter's type (the graph keeps only those naming a class or record of the repository, which
; an [ApiController] binds from the body).
((method_declaration
   (attribute_list (attribute name: (identifier) @_m)) @fact
   parameters: (parameter_list (parameter type: (_) @request)))
 (#any-of? @_m "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch")
 (#set! fact "http.body") (#set! framework "aspnet"))

; public async Task<ActionResult<OrderResponse>> Get(..): the response body (Task<..>, ActionResult<..>
; unwrapped by the graph).
((method_declaration
   (attribute_list (attribute name: (identifier) @_m)) @fact
   returns: (_) @response)
 (#any-of? @_m "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch")
 (#set! fact "http.body") (#set! framework "aspnet"))

; class OrderResponse { .. } / record OrderRequest(..): a type that may be a body, at its name's line.
((class_declaration name: (identifier) @name @fact)
 (#set! fact "dto.class"))
((record_declaration name: (identifier) @name @fact)
 (#set! fact "dto.class"))

; public decimal Total { get; set; } (static members are not data)
((class_declaration
   name: (identifier) @class
   body: (declaration_list
     (property_declaration type: (_) @type name: (identifier) @name) @fact))
 (#not-match? @fact "\\bstatic\\b")
 (#set! fact "dto.field"))
; public bool Paid;  (public instance fields only: private ones back the properties)
((class_declaration
   name: (identifier) @class
   body: (declaration_list
     (field_declaration
       (modifier) @_pub
       (variable_declaration type: (_) @type (variable_declarator name: (identifier) @name))) @fact))
 (#eq? @_pub "public") (#not-match? @fact "\\bstatic\\b")
 (#set! fact "dto.field"))
; record OrderRequest(string Sku, int Quantity): each positional parameter is a property.
((record_declaration
   name: (identifier) @class
   (parameter_list (parameter type: (_) @type name: (identifier) @name) @fact))
 (#set! fact "dto.field"))
