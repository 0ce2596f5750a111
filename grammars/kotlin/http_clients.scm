; Outgoing HTTP calls.  `url` is the URL argument: a literal or the expression text.

; RestTemplate: restTemplate.getForObject(url, ...), postForEntity, exchange(url, ...)
((call_expression
   (navigation_expression (_) (identifier) @method)
   (value_arguments . (value_argument . (_) @url))) @fact
 (#match? @method "^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|exchange|patchForObject)$")
 (#set! fact "http.client"))

; WebClient / RestClient: .uri("http://...")
((call_expression
   (navigation_expression (_) (identifier) @_uri)
   (value_arguments . (value_argument . (_) @url))) @fact
 (#eq? @_uri "uri")
 (#set! fact "http.client"))

; Ktor client: client.get("http://...") / httpClient.post(url) on receivers named like a client
((call_expression
   (navigation_expression (identifier) @_obj (identifier) @method)
   (value_arguments . (value_argument . (_) @url))) @fact
 (#match? @_obj "(?i)client$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "request")
 (#set! fact "http.client"))

; OkHttp: Request.Builder().url(url)
((call_expression
   (navigation_expression (_) @_obj (identifier) @_fn)
   (value_arguments . (value_argument . (_) @url))) @fact
 (#eq? @_fn "url") (#match? @_obj "^(okhttp3\\.)?Request\\.Builder\\(\\)")
 (#set! fact "http.client"))
