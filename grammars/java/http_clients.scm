; Outgoing HTTP calls.  `url` is the URL argument: a literal or the expression text.

; RestTemplate: restTemplate.getForObject(url, ...), postForEntity, exchange(url, ...)
((method_invocation name: (identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#match? @method "^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|exchange|patchForObject)$")
 (#set! fact "http.client"))

; RestTemplate put/delete: generic names, so only on receivers named like a RestTemplate.
((method_invocation object: (_) @_obj name: (identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#any-of? @method "put" "delete") (#match? @_obj "(?i)rest(template|client)?$")
 (#set! fact "http.client"))

; WebClient / RestClient / java.net.http: .uri("http://...") after .get()/.post() or a builder.
; URI.create(x) arguments are unwrapped by the next pattern.
((method_invocation name: (identifier) @_uri arguments: (argument_list . (_) @url)) @fact
 (#eq? @_uri "uri") (#not-match? @url "^URI\\.create\\(")
 (#set! fact "http.client"))

; HttpRequest.newBuilder().uri(URI.create(url)) / HttpRequest.newBuilder(URI.create(url))
((method_invocation name: (identifier) @_fn
   arguments: (argument_list . (method_invocation object: (identifier) @_u name: (identifier) @_c arguments: (argument_list . (_) @url)))) @fact
 (#any-of? @_fn "uri" "newBuilder") (#eq? @_u "URI") (#eq? @_c "create")
 (#set! fact "http.client"))

; Apache HttpClient: new HttpGet(url) / new HttpPost(url) ...
((object_creation_expression type: (type_identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#any-of? @method "HttpGet" "HttpPost" "HttpPut" "HttpDelete" "HttpPatch" "HttpHead")
 (#set! fact "http.client"))

; OkHttp: new Request.Builder().url(url) (any chain that starts with a Request.Builder)
((method_invocation object: (_) @_obj name: (identifier) @_fn arguments: (argument_list . (_) @url)) @fact
 (#eq? @_fn "url") (#match? @_obj "^new\\s+(okhttp3\\.)?Request\\.Builder\\(\\)")
 (#set! fact "http.client"))
