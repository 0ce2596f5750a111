; HTTP routes: Laravel Route facade, Slim / Lumen style apps and Symfony route attributes.

; Route::get('/x', ...) / Route::post(...) / Route::any(...)
((scoped_call_expression
   scope: (name) @_route name: (name) @method
   arguments: (arguments . (argument [(string (string_content) @path) (encapsed_string (string_content) @path)]))) @fact
 (#eq? @_route "Route")
 (#any-of? @method "get" "post" "put" "patch" "delete" "options" "any" "match")
 (#set! fact "http.route") (#set! framework "laravel"))

; Laravel serves routes/api.php under /api (RouteServiceProvider convention): same calls, prefix "api".
((scoped_call_expression
   scope: (name) @_route name: (name) @method
   arguments: (arguments . (argument [(string (string_content) @path) (encapsed_string (string_content) @path)]))) @fact
 (#eq? @_route "Route")
 (#any-of? @method "get" "post" "put" "patch" "delete" "options" "any" "match")
 (#set! fact "http.route") (#set! framework "laravel") (#set! prefix "api") (#set! only_files "(^|/)routes/api\\.php$"))

; Route::prefix('api')->group(function () { Route::get('/x', ...); }): the prefix is joined
((member_call_expression
   object: (scoped_call_expression scope: (name) @_r1 name: (name) @_prefix
             arguments: (arguments . (argument [(string (string_content) @prefix) (encapsed_string (string_content) @prefix)])))
   name: (name) @_group
   arguments: (arguments (argument [(anonymous_function body: (compound_statement (expression_statement
     (scoped_call_expression
       scope: (name) @_route name: (name) @method
       arguments: (arguments . (argument [(string (string_content) @path) (encapsed_string (string_content) @path)]))) @fact)))
     (arrow_function body: (scoped_call_expression
       scope: (name) @_route name: (name) @method
       arguments: (arguments . (argument [(string (string_content) @path) (encapsed_string (string_content) @path)]))) @fact)])))
 (#eq? @_r1 "Route") (#eq? @_prefix "prefix") (#eq? @_group "group") (#eq? @_route "Route")
 (#any-of? @method "get" "post" "put" "patch" "delete" "options" "any" "match")
 (#set! fact "http.route") (#set! framework "laravel"))

; Route::resource('orders', OrderController::class): every method of /orders
((scoped_call_expression
   scope: (name) @_route name: (name) @_res
   arguments: (arguments . (argument (string (string_content) @path)))) @fact
 (#eq? @_route "Route") (#any-of? @_res "resource" "apiResource")
 (#set! fact "http.route") (#set! framework "laravel") (#set! method "ANY"))

; Slim / Lumen: $app->get('/x', handler) / $router->post('/x', ...) (receivers named like an app)
((member_call_expression
   object: (variable_name (name) @_obj) name: (name) @method
   arguments: (arguments . (argument [(string (string_content) @path) (encapsed_string (string_content) @path)]) . (argument))) @fact
 (#match? @_obj "^(app|router|group|route|r)$")
 (#any-of? @method "get" "post" "put" "patch" "delete" "options" "any" "map")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "slim"))

; Symfony: #[Route('/blog/{slug}')] / #[Route(path: '/admin/activity')] on a controller class or action
((attribute (name) @_route (arguments . (argument . (string (string_content) @path)))) @fact
 (#eq? @_route "Route")
 (#set! fact "http.route") (#set! framework "symfony") (#set! method "ANY"))

((attribute (name) @_route (arguments (argument name: (name) @_key (string (string_content) @path)))) @fact
 (#eq? @_route "Route") (#eq? @_key "path")
 (#set! fact "http.route") (#set! framework "symfony") (#set! method "ANY"))
