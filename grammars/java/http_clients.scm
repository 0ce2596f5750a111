; RestTemplate: restTemplate.getForObject(url, ...), postForEntity, exchange(url, ...)
((method_invocation name: (identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#match? @method "^(getForObject|getForEntity|postForObject|postForEntity|postForLocation|exchange|patchForObject)$")
 (#set! fact "http.client"))
; WebClient: .uri("http://...") after .get()/.post()
((method_invocation name: (identifier) @_uri arguments: (argument_list . (_) @url)) @fact
 (#eq? @_uri "uri")
 (#set! fact "http.client"))
