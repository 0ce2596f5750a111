; HTTP routes served by this code.  `method` is the decorator word (get/post/route/...), the
; resolver normalises it; `router` is the decorated object (app, router, bp) so the resolver can join
; the prefix of an `http.router` fact of the same file (APIRouter(prefix=...), Blueprint(url_prefix=...)).

; FastAPI / Flask 2 / Starlette / Quart decorators: @app.get("/x"), @router.post("/x"), @bp.route("/x").
; The path must start with "/" so decorators of unrelated objects (@cache.get("key")) stay quiet.
((decorator
   (call function: (attribute object: (_) @router attribute: (identifier) @method)
         arguments: (argument_list . (string (string_content) @path)))) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "route" "api_route" "websocket")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "fastapi-flask"))

; The root of a prefixed router: @router.post("") under APIRouter(prefix="/orders").
((decorator
   (call function: (attribute object: (identifier) @router attribute: (identifier) @method)
         arguments: (argument_list . (string (string_start) . (string_end))))) @fact
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "api_route")
 (#match? @router "(?i)(router|bp|blueprint|api)$")
 (#set! fact "http.route") (#set! framework "fastapi-flask") (#set! path ""))

; Flask methods=["POST"] on @x.route("/x", methods=[...]) (first listed method).
((decorator
   (call function: (attribute object: (_) @router attribute: (identifier) @_route)
         arguments: (argument_list . (string (string_content) @path)
                       (keyword_argument name: (identifier) @_kw value: (list . (string (string_content) @method)))))) @fact
 (#eq? @_route "route") (#eq? @_kw "methods")
 (#set! fact "http.route") (#set! framework "flask"))

; Router prefixes: router = APIRouter(prefix="/orders") / bp = Blueprint("x", __name__, url_prefix="/x").
; An `http.router` fact (name = the variable); the resolver joins it with routes whose `router` matches.
; (A single pattern joining the assignment with later decorators would be quadratic in module size.)
((assignment
   left: (identifier) @name
   right: (call function: [(identifier) (attribute)] @_ctor
                arguments: (argument_list
                  (keyword_argument name: (identifier) @_kw value: (string (string_content) @prefix))))) @fact
 (#match? @_ctor "(APIRouter|Blueprint)$") (#any-of? @_kw "prefix" "url_prefix")
 (#set! fact "http.router"))

; Django urls.py: path("orders/<int:id>/", view) and re_path(r"^orders/$", view).
((call function: (identifier) @_fn arguments: (argument_list . (string (string_content) @path) . [(identifier) (attribute)])) @fact
 (#any-of? @_fn "path" "re_path")
 (#set! fact "http.route") (#set! framework "django") (#set! method "ANY") (#set! only_files "(^|/)urls\\.py$"))
; path("x/", View.as_view()): a class-based view is a route too (but include(...) is a mount, below)
((call function: (identifier) @_fn
       arguments: (argument_list . (string (string_content) @path) . (call function: (attribute)))) @fact
 (#any-of? @_fn "path" "re_path")
 (#set! fact "http.route") (#set! framework "django") (#set! method "ANY") (#set! only_files "(^|/)urls\\.py$"))
; Django: path("api/", include("orders.urls")) mounts another urls module under a prefix.
((call function: (identifier) @_fn
       arguments: (argument_list . (string (string_content) @prefix)
                                 . (call function: (identifier) @_inc arguments: (argument_list . (string (string_content) @module))))) @fact
 (#any-of? @_fn "path" "re_path") (#eq? @_inc "include")
 (#set! fact "http.mount") (#set! only_files "(^|/)urls\\.py$"))

; Router mounts: app.include_router(orders.router, prefix="/orders") / app.register_blueprint(bp, url_prefix="/x").
((call function: (attribute attribute: (identifier) @_fn)
       arguments: (argument_list . (_) @router
                                 (keyword_argument name: (identifier) @_kw value: (string (string_content) @prefix)))) @fact
 (#any-of? @_fn "include_router" "register_blueprint") (#any-of? @_kw "prefix" "url_prefix")
 (#set! fact "http.mount"))
