; Outgoing HTTP calls.  `url` is the URL argument: literal or expression text.

; HTTPoison.get(url) / Req.post(url, json: body) / Tesla.get(url) / HTTPotion.get(url)
((call target: (dot left: (alias) @_lib right: (identifier) @method) (arguments . (_) @url)) @fact
 (#any-of? @_lib "HTTPoison" "Req" "Tesla" "HTTPotion" "HTTPower")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "get!" "post!" "put!" "patch!" "delete!" "request")
 (#set! fact "http.client"))

; Finch.build(:get, url)
((call target: (dot left: (alias) @_lib right: (identifier) @_fn) (arguments . (atom) . (_) @url)) @fact
 (#eq? @_lib "Finch") (#eq? @_fn "build")
 (#set! fact "http.client"))

; Tesla's base URL middleware: {Tesla.Middleware.BaseUrl, "https://api.example.com"} in a client's
; middleware list, or `plug Tesla.Middleware.BaseUrl, "https://..."` in a Tesla module.
((tuple . (alias) @_mw . (_) @url .) @fact
 (#eq? @_mw "Tesla.Middleware.BaseUrl")
 (#set! fact "http.client"))
((call target: (identifier) @_plug (arguments . (alias) @_mw . (_) @url)) @fact
 (#eq? @_plug "plug") (#eq? @_mw "Tesla.Middleware.BaseUrl")
 (#set! fact "http.client"))

; A project's own HTTP client module (`defmodule EdgehogTeslaClient do use Tesla`, MyApp.HttpClient, MyApp.Http)
; called with a literal absolute URL: EdgehogTeslaClient.get("https://api.ipbase.com/v2/info", query: [...]).
((call target: (dot left: (alias) @_lib right: (identifier) @method)
       (arguments . (string . (quoted_content) @url .))) @fact
 (#match? @_lib "(Client|HTTP|Http)$")
 (#match? @url "^https?://")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "get!" "post!" "put!" "patch!" "delete!" "request")
 (#set! fact "http.client"))

; A URL piped into the client, through any encoding step: "https://api.magic.link/v1/...#{issuer}" |> URI.encode()
; |> HTTPoison.get!(headers), "#{@ttn_url}/access_code/#{code}" |> HTTPoison.get()
((binary_operator
   left: [(string) @url (binary_operator left: (string) @url)]
   operator: "|>"
   right: (call target: (dot left: (alias) @_lib right: (identifier) @method))) @fact
 (#any-of? @_lib "HTTPoison" "Req" "Tesla" "HTTPotion" "HTTPower")
 (#any-of? @method "get" "post" "put" "patch" "delete" "head" "get!" "post!" "put!" "patch!" "delete!" "request")
 (#set! fact "http.client"))
