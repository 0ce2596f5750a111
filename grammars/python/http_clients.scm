; Outgoing HTTP calls.  `url` is the first argument: a literal, or the expression text
; (f-strings keep their {VAR} parts so the resolver can follow constants and env reads).

; requests / httpx / aiohttp session calls: requests.get(url), httpx.post(url), session.get(url),
; self.client.get(url).  Only receivers that are HTTP clients by name, so dict.get("k") stays quiet.
((call function: (attribute object: (_) @_obj attribute: (identifier) @method)
       arguments: (argument_list . (_) @url)) @fact
 (#match? @_obj "^(requests|httpx|session|client|http_client|http|async_client|http_session|self\\.session|self\\.client|self\\.http|self\\._session|self\\._client|self\\.http_client)$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "stream")
 (#set! fact "http.client"))

; requests.request("GET", url) / session.request("POST", url) / httpx.request(...)
((call function: (attribute object: (_) @_obj attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @method) . (_) @url)) @fact
 (#match? @_obj "^(requests|httpx|session|client|http_client|http|async_client|http_session|self\\.session|self\\.client|self\\.http)$")
 (#eq? @_fn "request")
 (#set! fact "http.client"))

; urllib.request.urlopen(url) / urlopen(url) / urllib.request.Request(url).
((call function: [(identifier) @_fn (attribute attribute: (identifier) @_fn)]
       arguments: (argument_list . (_) @url)) @fact
 (#any-of? @_fn "urlopen")
 (#set! fact "http.client") (#set! method "GET"))
((call function: (attribute object: (attribute attribute: (identifier) @_mod) attribute: (identifier) @_fn)
       arguments: (argument_list . (_) @url)) @fact
 (#eq? @_mod "request") (#eq? @_fn "Request")
 (#set! fact "http.client"))
