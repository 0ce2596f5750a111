; http.Get(url), http.Post(url, ...), http.Head(url), http.PostForm(url, ...)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @method)
   arguments: (argument_list . (_) @url)) @fact
 (#eq? @_pkg "http")
 (#any-of? @method "Get" "Post" "Head" "PostForm")
 (#set! fact "http.client"))

; http.NewRequest("GET", url, body) / http.NewRequestWithContext(ctx, "GET", url, body)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (interpreted_string_literal) @method . (_) @url)) @fact
 (#eq? @_pkg "http") (#eq? @_fn "NewRequest")
 (#set! fact "http.client"))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (interpreted_string_literal) @method . (_) @url)) @fact
 (#eq? @_pkg "http") (#eq? @_fn "NewRequestWithContext")
 (#set! fact "http.client"))
