; HTTP routes served by this code.  `method` is the decorator word (get/post/route/...), the
; resolver normalises it; `prefix` is a router/blueprint prefix to join in front of `path`.

; FastAPI / Flask 2 / Starlette / Quart decorators: @app.get("/x"), @router.post("/x"), @bp.route("/x").
; The path must start with "/" so decorators of unrelated objects (@cache.get("key")) stay quiet.
((decorator
   (call function: (attribute attribute: (identifier) @method)
         arguments: (argument_list . (string (string_content) @path)))) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "route" "api_route" "websocket")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "fastapi-flask"))

; Flask methods=["POST"] on @x.route("/x", methods=[...]) (first listed method).
((decorator
   (call function: (attribute attribute: (identifier) @_route)
         arguments: (argument_list . (string (string_content) @path)
                       (keyword_argument name: (identifier) @_kw value: (list . (string (string_content) @method)))))) @fact
 (#eq? @_route "route") (#eq? @_kw "methods")
 (#set! fact "http.route") (#set! framework "flask"))

; FastAPI APIRouter(prefix="/orders") / Flask Blueprint(..., url_prefix="/orders") assigned to a
; module variable, then @router.get("/{id}") on that same variable: the prefix is joined.
((module
   (expression_statement
     (assignment
       left: (identifier) @_var
       right: (call function: [(identifier) (attribute)] @_ctor
                    arguments: (argument_list
                      (keyword_argument name: (identifier) @_kw value: (string (string_content) @prefix))))))
   (decorated_definition
     (decorator
       (call function: (attribute object: (identifier) @_obj attribute: (identifier) @method)
             arguments: (argument_list . (string (string_content) @path)))) @fact))
 (#match? @_ctor "(APIRouter|Blueprint)$") (#any-of? @_kw "prefix" "url_prefix") (#eq? @_var @_obj)
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "route" "api_route" "websocket")
 (#set! fact "http.route") (#set! framework "fastapi-flask"))

; Django urls.py: path("orders/<int:id>/", view) and re_path(r"^orders/$", view).
((call function: (identifier) @_fn arguments: (argument_list . (string (string_content) @path))) @fact
 (#any-of? @_fn "path" "re_path")
 (#set! fact "http.route") (#set! framework "django") (#set! method "ANY") (#set! only_files "(^|/)urls\\.py$"))
