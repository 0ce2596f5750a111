; Paths a browser app's API client asks its own server for.  An app calls its server through a small
; wrapper whose base URL is the page's origin or a setting (`this.server`, `"/api"`), so the URL the
; wrapper finally fetches names no host; what shows the call is the path handed to a method named for
; an HTTP verb.  Read by graph/route_calls.py, which matches the path against the routes components serve.

; client.post("/documents.info", {...}) / this._get(`/api/repos/${id}`) / api.delete('/users/' + id)
((call_expression
   function: (member_expression property: (property_identifier) @method)
   arguments: (arguments . [(string) (template_string)] @path)) @fact
 (#match? @method "^[_$]?(get|post|put|patch|delete|del|head)(Json|JSON)?$")
 (#match? @path "^[\"'`]/[A-Za-z0-9_$]")
 (#set! fact "http.relative_call"))

; axios({ url: '/projects', method: 'get' }) / request({ url: `/users/${id}` }): a request described by an
; object whose `url` is a path (the client instance holds the base URL)
((call_expression
   arguments: (arguments . (object (pair key: (property_identifier) @_k value: [(string) (template_string)] @path)))) @fact
 (#eq? @_k "url")
 (#match? @path "^[\"'`]/[A-Za-z0-9_$]")
 (#set! fact "http.relative_call"))
