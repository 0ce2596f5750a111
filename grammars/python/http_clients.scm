; requests / httpx / aiohttp session calls: requests.get(url), httpx.post(url), session.get(url).
((call function: (attribute object: (_) @_obj attribute: (identifier) @method)
       arguments: (argument_list . (_) @url)) @fact
 (#match? @_obj "^(requests|httpx|session|client|http_client|http|self\\.session|self\\.client|self\\.http)$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "options" "request" "stream")
 (#set! fact "http.client"))

; urllib.request.urlopen(url) / urlopen(url).
((call function: [(identifier) @_fn (attribute attribute: (identifier) @_fn)]
       arguments: (argument_list . (_) @url)) @fact
 (#eq? @_fn "urlopen")
 (#set! fact "http.client") (#set! method "GET"))
