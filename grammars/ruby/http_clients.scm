; Outgoing HTTP calls.  `url` is the URL argument: literal or expression text.

; Net::HTTP.get(URI("http://...")) / Net::HTTP.get_response(URI.parse(url))
((call receiver: (scope_resolution scope: (constant) @_net name: (constant) @_http)
       method: (identifier) @method
       arguments: (argument_list . (call arguments: (argument_list . (_) @url)))) @fact
 (#eq? @_net "Net") (#eq? @_http "HTTP") (#any-of? @method "get" "get_response" "post_form" "start")
 (#set! fact "http.client"))

; HTTParty.get(url) / RestClient.post(url) / Faraday.get(url) / HTTP.get(url)
((call receiver: (constant) @_lib method: (identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#any-of? @_lib "HTTParty" "RestClient" "Faraday" "HTTP" "Typhoeus" "Excon")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head")
 (#set! fact "http.client"))

; Faraday.new(url: "http://...") / Faraday.new("http://...")
((call receiver: (constant) @_lib method: (identifier) @_new
       arguments: (argument_list . [(pair key: (hash_key_symbol) @_k value: (_) @url) (string) @url])) @fact
 (#eq? @_lib "Faraday") (#eq? @_new "new") (#any-of? @_k "url")
 (#set! fact "http.client"))

; conn.get('/path') on a Faraday connection / http client named like one
((call receiver: [(identifier) (instance_variable)] @_obj method: (identifier) @method arguments: (argument_list . (_) @url)) @fact
 (#match? @_obj "(?i)(conn|connection|client|http)$")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head")
 (#set! fact "http.client"))
