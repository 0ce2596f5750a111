; String literals that are URLs or host:port addresses (connection targets).
((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9+.-]*://[^ ]")
 (#set! fact "string.url"))
((string_literal) @value @fact
 (#match? @value "^\"[a-zA-Z][a-zA-Z0-9.-]*:[0-9]{2,5}\"$")
 (#set! fact "string.hostport"))
