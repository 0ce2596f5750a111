; Outgoing HTTP calls.  `url` is the URL argument: a literal or the expression text.

; http.Get(url), http.Post(url, ...), http.Head(url), http.PostForm(url, ...)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @method)
   arguments: (argument_list . (_) @url)) @fact
 (#eq? @_pkg "http")
 (#any-of? @method "Get" "Post" "Head" "PostForm")
 (#set! fact "http.client"))

; http.DefaultClient.Get(url) / client.Get(url) on an *http.Client named like one
((call_expression
   function: (selector_expression operand: [(identifier) (selector_expression)] @_obj field: (field_identifier) @method)
   arguments: (argument_list . (_) @url)) @fact
 (#match? @_obj "(?i)(^http\\.DefaultClient$|^(http|web)?client$|^c\\.client$|^s\\.client$|httpClient$)")
 (#any-of? @method "Get" "Post" "Head" "PostForm")
 (#set! fact "http.client"))

; http.NewRequest("GET", url, body) / http.NewRequestWithContext(ctx, "GET", url, body)
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (_) @method . (_) @url)) @fact
 (#eq? @_pkg "http") (#eq? @_fn "NewRequest")
 (#set! fact "http.client"))
((call_expression
   function: (selector_expression operand: (identifier) @_pkg field: (field_identifier) @_fn)
   arguments: (argument_list . (_) . (_) @method . (_) @url)) @fact
 (#eq? @_pkg "http") (#eq? @_fn "NewRequestWithContext")
 (#set! fact "http.client"))

; resty: client.R().Get(url)
((call_expression
   function: (selector_expression
               operand: (call_expression function: (selector_expression field: (field_identifier) @_r))
               field: (field_identifier) @method)
   arguments: (argument_list . (_) @url)) @fact
 (#eq? @_r "R") (#any-of? @method "Get" "Post" "Put" "Delete" "Patch" "Head")
 (#set! fact "http.client"))
