; Outgoing HTTP calls.  `url` is the first argument: a literal or the expression text
; (template strings keep their ${VAR} parts for value resolution).

; fetch(url, ...)
((call_expression function: (identifier) @_fn arguments: (arguments . (_) @url)) @fact
 (#eq? @_fn "fetch")
 (#set! fact "http.client"))

; axios.get(url) / got.post(url) / superagent.get(url) / ky.get(url)
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @method)
   arguments: (arguments . (_) @url)) @fact
 (#match? @_obj "^(axios|got|superagent|[Hh]ttps?|needle|ky|request)$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head" "request")
 (#set! fact "http.client"))

; Angular HttpClient / Nest HttpService / axios instances on `this`: this.http.get(url)
((call_expression
   function: (member_expression
              object: (member_expression object: (this) property: (property_identifier) @_obj)
              property: (property_identifier) @method)
   arguments: (arguments . (_) @url)) @fact
 (#match? @_obj "^(http|httpService|httpClient|client|api|axios)$")
 (#any-of? @method "get" "post" "put" "delete" "patch" "head")
 (#set! fact "http.client"))

; axios(url) / got(url) / ky(url)
((call_expression function: (identifier) @_fn arguments: (arguments . (_) @url)) @fact
 (#any-of? @_fn "axios" "got" "ky")
 (#set! fact "http.client"))

; axios.create({ baseURL: "http://orders:8080" }) / got.extend({ prefixUrl: ... })
((call_expression
   function: (member_expression object: (identifier) @_obj property: (property_identifier) @_fn)
   arguments: (arguments (object (pair key: (property_identifier) @_k value: (_) @url)))) @fact
 (#any-of? @_obj "axios" "got" "ky") (#any-of? @_fn "create" "extend")
 (#any-of? @_k "baseURL" "prefixUrl")
 (#set! fact "http.client"))

; A fetch wrapper the application injects (a Nest FetchService adding timeouts and a proxy):
; this.fetchService.fetch(url) / this.httpFetcher.fetch(url); a cache's `this.cache.fetch(key)` is not one
((call_expression
   function: (member_expression
              object: (member_expression object: (this) property: (property_identifier) @_obj)
              property: (property_identifier) @_method)
   arguments: (arguments . (_) @url)) @fact
 (#match? @_obj "^([a-z]*[Ff]etch[A-Za-z]*|http[A-Za-z]*)$")
 (#eq? @_method "fetch")
 (#set! fact "http.client"))

; class TheMovieDb extends ExternalAPI { constructor() { super("https://api.themoviedb.org/3", ...) } }: an API
; client handing its base class the address of the API it calls
((call_expression function: (super) arguments: (arguments . (string) @url)) @fact
 (#match? @url "^.https?://")
 (#set! fact "http.client"))
