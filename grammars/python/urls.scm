; String literals that are URLs or host:port addresses (connection targets).
((string (string_content) @value) @fact
 (#match? @value "^[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]")
 (#set! fact "string.url"))
((string (string_content) @value) @fact
 (#match? @value "^[a-zA-Z][a-zA-Z0-9.-]*(\\.(%[sv]|\\{[a-zA-Z0-9_]*\\})\\.svc(\\.cluster\\.local)?)?:[0-9]{2,5}$")
 (#set! fact "string.hostport"))

; key=value connection strings: "Server=db;Port=5432;..." (ADO.NET, libpq, JDBC-less drivers).
((string (string_content) @value) @fact
 (#match? @value "(^|;) *([Ss]erver|[Hh]ost|[Dd]ata [Ss]ource|HOST|SERVER) *= *[A-Za-z]")
 (#set! fact "string.dsn"))

; A WebRTC ICE server's URI (`stun:stun.l.google.com:19302`, `turn:relay.example.org:443?transport=tcp`): the
; STUN or TURN server the program (or the browser it configures) reaches, see repomodeler/graph/ice_servers.py
((string (string_content) @value) @fact
 (#match? @value "^(stuns?|turns?):[A-Za-z0-9][A-Za-z0-9-]*(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}(:[0-9]{2,5})?")
 (#set! fact "string.ice_server"))
