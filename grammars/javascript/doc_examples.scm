; Example values written for documentation (an OpenAPI decorator's {example: 'https://...'}, a schema's
; examples: [...]): the address shapes they show are what a user might type, not what the program connects to.
; The engine drops every other fact inside the span (repomodeler/extract/engine.py TEST_ONLY).
((pair key: [(property_identifier) (string)] @_name value: (_) @fact)
 (#match? @_name "^[\"']?(examples?)[\"']?$")
 (#set! fact "code.test_only"))
