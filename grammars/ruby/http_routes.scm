; HTTP routes: Rails config/routes.rb and Sinatra.  Receiver-less calls only, so client.get("/x")
; never counts; Rails verbs only in routes files, Sinatra verbs only with a do-block.

; Rails: get '/x', to: 'c#a' / post 'x' => 'c#a'  (path as first string or as a hash key)
((call method: (identifier) @method
       arguments: (argument_list . [(string (string_content) @path) (pair key: (string (string_content) @path))])) @fact
 (#any-of? @method "get" "post" "put" "patch" "delete" "match")
 (#set! fact "http.route") (#set! framework "rails") (#set! only_files "(^|/)routes\\.rb$|(^|/)config/routes/.*\\.rb$"))

; Rails: resources :orders / resource :profile: every method of /orders
((call method: (identifier) @_res arguments: (argument_list . (simple_symbol) @path)) @fact
 (#any-of? @_res "resources" "resource")
 (#set! fact "http.route") (#set! framework "rails") (#set! method "ANY")
 (#set! only_files "(^|/)routes\\.rb$|(^|/)config/routes/.*\\.rb$"))

; Rails: scope '/api' do get '/x' ... end: the scope path is the prefix
((call method: (identifier) @_scope
       arguments: (argument_list . (string (string_content) @prefix))
       block: (do_block (body_statement
         (call method: (identifier) @method
               arguments: (argument_list . [(string (string_content) @path) (pair key: (string (string_content) @path))])) @fact)))
 (#eq? @_scope "scope")
 (#any-of? @method "get" "post" "put" "patch" "delete" "match")
 (#set! fact "http.route") (#set! framework "rails") (#set! only_files "(^|/)routes\\.rb$|(^|/)config/routes/.*\\.rb$"))

; Sinatra / Roda-style: get '/x' do ... end
((call method: (identifier) @method
       arguments: (argument_list . (string (string_content) @path))
       block: [(do_block) (block)]) @fact
 (#any-of? @method "get" "post" "put" "patch" "delete" "options")
 (#match? @path "^/")
 (#set! fact "http.route") (#set! framework "sinatra"))

; Rails: namespace :api do get '/x' / resources :products end: the namespace is the prefix
((call method: (identifier) @_ns
       arguments: (argument_list . (simple_symbol) @prefix)
       block: (do_block (body_statement
         (call method: (identifier) @method
               arguments: (argument_list . [(string (string_content) @path) (pair key: (string (string_content) @path))])) @fact)))
 (#eq? @_ns "namespace")
 (#any-of? @method "get" "post" "put" "patch" "delete" "match")
 (#set! fact "http.route") (#set! framework "rails") (#set! only_files "(^|/)routes\\.rb$|(^|/)config/routes/.*\\.rb$"))
((call method: (identifier) @_ns
       arguments: (argument_list . (simple_symbol) @prefix)
       block: (do_block (body_statement
         (call method: (identifier) @_res arguments: (argument_list . (simple_symbol) @path)) @fact)))
 (#eq? @_ns "namespace")
 (#any-of? @_res "resources" "resource")
 (#set! fact "http.route") (#set! framework "rails") (#set! method "ANY")
 (#set! only_files "(^|/)routes\\.rb$|(^|/)config/routes/.*\\.rb$"))
