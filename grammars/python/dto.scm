; Request and response bodies of FastAPI handlers, and the fields of the pydantic models they name
; (issue #24: framework DTOs as item defs).  The graph joins an `http.body` to the `http.route` of the
; same decorator line and a body type to a `dto.class` of the same repository.

; @app.post("/orders") async def create(order: Order): a typed parameter (the graph keeps only those
; naming a pydantic model of the repository: FastAPI reads those from the body).
((decorated_definition
   (decorator
     (call function: (attribute attribute: (identifier) @_m)
           arguments: (argument_list . (string)))) @fact
   definition: (function_definition
     parameters: (parameters (typed_parameter type: (type) @request))))
 (#any-of? @_m "get" "post" "put" "delete" "patch" "api_route")
 (#set! fact "http.body") (#set! framework "fastapi"))
((decorated_definition
   (decorator
     (call function: (attribute attribute: (identifier) @_m)
           arguments: (argument_list . (string)))) @fact
   definition: (function_definition
     parameters: (parameters (typed_default_parameter type: (type) @request))))
 (#any-of? @_m "get" "post" "put" "delete" "patch" "api_route")
 (#set! fact "http.body") (#set! framework "fastapi"))

; @app.get("/orders/{id}", response_model=Order): the response body.
((decorator
   (call function: (attribute attribute: (identifier) @_m)
         arguments: (argument_list . (string)
                                   (keyword_argument name: (identifier) @_k value: (_) @response)))) @fact
 (#any-of? @_m "get" "post" "put" "delete" "patch" "api_route")
 (#eq? @_k "response_model")
 (#set! fact "http.body") (#set! framework "fastapi"))

; def get(id: str) -> Order: the return annotation is the response body too.
((decorated_definition
   (decorator
     (call function: (attribute attribute: (identifier) @_m)
           arguments: (argument_list . (string)))) @fact
   definition: (function_definition return_type: (type) @response))
 (#any-of? @_m "get" "post" "put" "delete" "patch" "api_route")
 (#set! fact "http.body") (#set! framework "fastapi"))

; class Order(BaseModel): a pydantic model, at its name's line, and its annotated fields.
((class_definition
   name: (identifier) @name @fact
   superclasses: (argument_list [(identifier) @_b (attribute attribute: (identifier) @_b)]))
 (#eq? @_b "BaseModel")
 (#set! fact "dto.class"))
((class_definition
   name: (identifier) @class
   superclasses: (argument_list [(identifier) @_b (attribute attribute: (identifier) @_b)])
   body: (block (expression_statement (assignment left: (identifier) @name type: (type) @type)) @fact))
 (#eq? @_b "BaseModel")
 (#set! fact "dto.field"))
