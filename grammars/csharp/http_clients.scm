; Outgoing HTTP calls with HttpClient.  `url` is the URL argument: a literal or the expression.

; _httpClient.GetAsync(url) / client.PostAsJsonAsync(url, body) / http.GetFromJsonAsync<T>(url)
; Only receivers named like an HTTP client, so _cache.GetAsync("key") stays quiet.
((invocation_expression
   function: (member_access_expression expression: (_) @_obj name: [(identifier) @method (generic_name (identifier) @method)])
   arguments: (argument_list . (argument (_) @url .))) @fact
 (#match? @_obj "(?i)(http|client)")
 (#any-of? @method "GetAsync" "PostAsync" "PutAsync" "DeleteAsync" "PatchAsync" "GetStringAsync"
                   "GetByteArrayAsync" "GetStreamAsync" "GetFromJsonAsync" "PostAsJsonAsync" "PutAsJsonAsync"
                   "PatchAsJsonAsync" "DeleteFromJsonAsync")
 (#set! fact "http.client"))

; new HttpRequestMessage(HttpMethod.Post, url)
((object_creation_expression
   type: (identifier) @_t
   arguments: (argument_list . (argument (member_access_expression name: (identifier) @method)) . (argument (_) @url .))) @fact
 (#eq? @_t "HttpRequestMessage")
 (#set! fact "http.client"))

; client.BaseAddress = new Uri("http://orders:8080")
((assignment_expression
   left: (member_access_expression name: (identifier) @_ba)
   right: (object_creation_expression arguments: (argument_list . (argument (_) @url .)))) @fact
 (#eq? @_ba "BaseAddress")
 (#set! fact "http.client"))
