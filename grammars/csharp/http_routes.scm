; ASP.NET Core routes.  Controllers: [Route("api/[controller]")] on the class is the `prefix`,
; [HttpGet("{id}")] on an action gives `method` and `path`; `controller` is the class name so the
; resolver can expand the [controller] token.  Minimal APIs: app.MapGet("/x", handler).

; [HttpGet("path")] / [HttpPost("path")] in a class with [Route("prefix")]
((class_declaration
   (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @prefix))))
   name: (identifier) @controller
   body: (declaration_list
     (method_declaration
       (attribute_list (attribute name: (identifier) @method (attribute_argument_list . (attribute_argument (string_literal) @path)))) @fact)))
 (#eq? @_route "Route")
 (#any-of? @method "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch" "HttpHead" "HttpOptions")
 (#set! fact "http.route") (#set! framework "aspnet"))

; [HttpGet] without a template in a class with [Route("prefix")]: the prefix itself
((class_declaration
   (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @prefix))))
   name: (identifier) @controller
   body: (declaration_list
     (method_declaration
       (attribute_list (attribute name: (identifier) @method .)) @fact)))
 (#eq? @_route "Route")
 (#any-of? @method "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch" "HttpHead" "HttpOptions")
 (#set! fact "http.route") (#set! framework "aspnet") (#set! path ""))

; [HttpGet("path")] / [Route("path")] on an action, without a class prefix
((method_declaration
   (attribute_list (attribute name: (identifier) @method (attribute_argument_list . (attribute_argument (string_literal) @path)))) @fact)
 (#any-of? @method "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch" "HttpHead" "HttpOptions" "Route")
 (#set! fact "http.route") (#set! framework "aspnet"))

; Minimal APIs: app.MapGet("/x", handler) / endpoints.MapPost(...) / MapMethods
; `router` is the receiver, joined by the resolver with an `http.router` fact (MapGroup below).
((invocation_expression
   function: (member_access_expression expression: (_) @router name: (identifier) @method)
   arguments: (argument_list . (argument (string_literal) @path) . (argument))) @fact
 (#any-of? @method "MapGet" "MapPost" "MapPut" "MapDelete" "MapPatch")
 (#set! fact "http.route") (#set! framework "aspnet-minimal"))

; Route groups: var api = app.MapGroup("/api") -> `http.router` (name api, parent app); the
; resolver prefixes routes whose `router` is api (and chains parents' prefixes).
((variable_declarator
   name: (identifier) @name
   (invocation_expression
     function: (member_access_expression expression: (_) @parent name: (identifier) @_grp)
     arguments: (argument_list . (argument (string_literal) @prefix)))) @fact
 (#eq? @_grp "MapGroup")
 (#set! fact "http.router"))
