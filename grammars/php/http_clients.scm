; Outgoing HTTP calls.  `url` is the URL argument: literal or expression text.

; Guzzle: $client->get($url) / $this->client->post('http://...') / $http->request('GET', $url)
((member_call_expression
   object: [(variable_name) (member_access_expression)] @_obj name: (name) @method
   arguments: (arguments . (argument (_) @url))) @fact
 (#match? @_obj "(?i)(client|http|guzzle)$")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "getAsync" "postAsync")
 (#set! fact "http.client"))
((member_call_expression
   object: [(variable_name) (member_access_expression)] @_obj name: (name) @_fn
   arguments: (arguments . (argument [(string (string_content) @method) (encapsed_string (string_content) @method)]) . (argument (_) @url))) @fact
 (#match? @_obj "(?i)(client|http|guzzle)$") (#any-of? @_fn "request" "requestAsync")
 (#set! fact "http.client"))

; new Client(['base_uri' => 'http://orders:8080'])
((object_creation_expression
   (name) @_cls
   (arguments (argument (array_creation_expression
     (array_element_initializer (string (string_content) @_k) (_) @url))))) @fact
 (#eq? @_cls "Client") (#eq? @_k "base_uri")
 (#set! fact "http.client"))

; Laravel Http facade: Http::get('http://...') / Http::post($url)
((scoped_call_expression scope: (name) @_http name: (name) @method arguments: (arguments . (argument (_) @url))) @fact
 (#eq? @_http "Http") (#any-of? @method "get" "post" "put" "patch" "delete" "head")
 (#set! fact "http.client"))

; file_get_contents('http://...') / curl_init('http://...')
((function_call_expression function: (name) @_fn arguments: (arguments . (argument (_) @url))) @fact
 (#any-of? @_fn "curl_init" "file_get_contents")
 (#match? @url "^['\"]https?://|^\\$")
 (#set! fact "http.client"))

; Saloon's connector: the base URL every request of the connector goes to
; (class MusicConnector extends Connector { public function resolveBaseUrl(): string { return 'https://...'; } })
((method_declaration
   name: (name) @_m
   body: (compound_statement (return_statement (_) @url))) @fact
 (#eq? @_m "resolveBaseUrl")
 (#set! fact "http.client"))

; Laravel's Http client with a base URL: Http::baseUrl('https://api.example.com')->get('/x')
((scoped_call_expression scope: (name) @_http name: (name) @_m arguments: (arguments . (argument (_) @url))) @fact
 (#eq? @_http "Http") (#eq? @_m "baseUrl")
 (#set! fact "http.client"))
