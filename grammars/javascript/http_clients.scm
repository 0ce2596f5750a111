; fetch(url, ...)
((call_expression function: (identifier) @_fn arguments: (arguments . (_) @url)) @fact
 (#eq? @_fn "fetch")
 (#set! fact "http.client"))

; axios.get(url) / got.post(url) / superagent.get(url)
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @method)
   arguments: (arguments . (_) @url)) @fact
 (#any-of? @_obj "axios" "got" "superagent" "http" "https" "needle" "ky")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "request")
 (#set! fact "http.client"))

; axios(url) / got(url)
((call_expression function: (identifier) @_fn arguments: (arguments . (_) @url)) @fact
 (#any-of? @_fn "axios" "got" "ky")
 (#set! fact "http.client"))
