((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9+.:-]*://[^ ]")
 (#set! fact "string.url"))
((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9.-]*(\\.(%[sv]|\\{[a-zA-Z0-9_]*\\})\\.svc(\\.cluster\\.local)?)?:[0-9]{2,5}\"$")
 (#set! fact "string.hostport"))

; key=value connection strings: "Server=db;Port=5432;..." (ADO.NET, libpq, JDBC-less drivers).
((string_literal) @value @fact
 (#match? @value "^[\"`]([^\"`]*;)? *([Ss]erver|[Hh]ost|[Dd]ata [Ss]ource|HOST|SERVER) *= *[A-Za-z]")
 (#set! fact "string.dsn"))

; A URL handed to a redirect or callback setter (.redirectUri("https://..."), sendRedirect(...)) is where
; the user's browser is sent, not a call: the string.url of the same literal is left out (graph/connections.py).
((method_invocation name: (identifier) @_m arguments: (argument_list (string_literal) @value @fact))
 (#match? @_m "^(redirectUris?|postLogoutRedirectUris?|sendRedirect|setRedirectUris?|callbackUrl|setCallbackUrl|authorizationUri|logoutSuccessUrl)$")
 (#set! fact "string.browser_url"))

; A WebRTC ICE server's URI (`stun:stun.l.google.com:19302`, `turn:relay.example.org:443?transport=tcp`): the
; STUN or TURN server the program (or the browser it configures) reaches, see repomodeler/graph/ice_servers.py
((string_literal) @value @fact
 (#match? @value "^\"(stuns?|turns?):[A-Za-z0-9][A-Za-z0-9-]*(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(:[0-9]{2,5})?")
 (#set! fact "string.ice_server"))
