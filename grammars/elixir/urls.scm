; String literals that are URLs or host:port addresses ("http://#{host}" interpolations excluded).
((string . (quoted_content) @value .) @fact
 (#match? @value "^[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]")
 (#set! fact "string.url"))
((string . (quoted_content) @value .) @fact
 (#match? @value "^[a-zA-Z][a-zA-Z0-9.-]*:[0-9]{2,5}$")
 (#set! fact "string.hostport"))

; key=value connection strings: "host=orders-db port=5432" (libpq), "Server=db;Port=5432".
((string . (quoted_content) @value .) @fact
 (#match? @value "(^|;) *([Ss]erver|[Hh]ost|[Dd]ata [Ss]ource|HOST|SERVER) *= *[A-Za-z]")
 (#set! fact "string.dsn"))
