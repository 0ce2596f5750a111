; String literals that are URLs or host:port addresses (connection targets).
((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]")
 (#set! fact "string.url"))
((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9.-]*:[0-9]{2,5}\"$")
 (#set! fact "string.hostport"))

; A WebRTC ICE server's URI (`stun:stun.l.google.com:19302`, `turn:relay.example.org:443?transport=tcp`): the
; STUN or TURN server the program (or the browser it configures) reaches, see repomodeler/graph/ice_servers.py
((string_literal) @value @fact
 (#match? @value "^\"(stuns?|turns?):[A-Za-z0-9][A-Za-z0-9-]*(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(:[0-9]{2,5})?")
 (#set! fact "string.ice_server"))
