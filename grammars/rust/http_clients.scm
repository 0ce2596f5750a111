; Outgoing HTTP calls (reqwest, ureq, surf).  `url` is the URL argument: literal or expression.

; reqwest::get(url) / ureq::get(url) / surf::get(url)
((call_expression
   function: (scoped_identifier path: (identifier) @_crate name: (identifier) @method)
   arguments: (arguments . (_) @url)) @fact
 (#any-of? @_crate "reqwest" "ureq" "surf")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head")
 (#set! fact "http.client"))

; client.get(url) / self.client.post(&url) / http_client.request(Method::GET, url) on receivers
; named like a client, so map.get("k") stays quiet.
((call_expression
   function: (field_expression value: (_) @_obj field: (field_identifier) @method)
   arguments: (arguments . (_) @url)) @fact
 (#match? @_obj "(?i)client$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head")
 (#set! fact "http.client"))
