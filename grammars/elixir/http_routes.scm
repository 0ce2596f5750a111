; Phoenix router: get "/orders", OrderController, :index / resources "/users", UserController /
; live "/dashboard", DashboardLive.  Receiver-less calls whose path starts with "/" and whose next
; argument is a module (the controller), so Req.get("/x") or cache get("/x") never count.

; get "/orders", OrderController, :index
((call target: (identifier) @method (arguments . (string . (quoted_content) @path .) . (alias))) @fact
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "options" "match" "forward")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix"))

; resources "/users", UserController: every method of /users
((call target: (identifier) @_res (arguments . (string . (quoted_content) @path .) . (alias))) @fact
 (#eq? @_res "resources") (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix") (#set! method "ANY"))

; live "/dashboard", DashboardLive: a LiveView page, served on GET
((call target: (identifier) @_live (arguments . (string . (quoted_content) @path .) . (alias))) @fact
 (#eq? @_live "live") (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix") (#set! method "GET"))

; scope "/api", ShopWeb do get "/orders", ... end: the scope path is the prefix
((call target: (identifier) @_scope (arguments . (string . (quoted_content) @prefix .))
       (do_block
         (call target: (identifier) @method (arguments . (string . (quoted_content) @path .) . (alias))) @fact))
 (#eq? @_scope "scope")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "options" "match" "forward")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix"))
((call target: (identifier) @_scope (arguments . (string . (quoted_content) @prefix .))
       (do_block
         (call target: (identifier) @_res (arguments . (string . (quoted_content) @path .) . (alias))) @fact))
 (#eq? @_scope "scope") (#eq? @_res "resources") (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix") (#set! method "ANY"))
((call target: (identifier) @_scope (arguments . (string . (quoted_content) @prefix .))
       (do_block
         (call target: (identifier) @_live (arguments . (string . (quoted_content) @path .) . (alias))) @fact))
 (#eq? @_scope "scope") (#eq? @_live "live") (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "phoenix") (#set! method "GET"))
