; FastAPI / Flask / Starlette style route decorators: @app.get("/x"), @router.post("/x"), @bp.route("/x").
((decorator
   (call function: (attribute attribute: (identifier) @method)
         arguments: (argument_list . (string (string_content) @path)))) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "route" "api_route" "websocket")
 (#set! fact "http.route") (#set! framework "fastapi-flask"))

; Flask methods=["POST"] on @x.route.
((decorator
   (call function: (attribute attribute: (identifier) @_route)
         arguments: (argument_list . (string (string_content) @path)
                       (keyword_argument name: (identifier) @_kw value: (list . (string (string_content) @method)))))) @fact
 (#eq? @_route "route") (#eq? @_kw "methods")
 (#set! fact "http.route") (#set! framework "flask"))

; Django urls.py: path("orders/<int:id>/", view) and re_path(...).
((call function: (identifier) @_fn arguments: (argument_list . (string (string_content) @path))) @fact
 (#any-of? @_fn "path" "re_path")
 (#set! fact "http.route") (#set! framework "django") (#set! method "ANY") (#set! only_files "(^|/)urls\\.py$"))
