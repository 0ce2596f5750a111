; Example values written for documentation (pydantic's Field(examples=[...]), an OpenAPI schema's example=...):
; the address shapes they show (postgres://dbtable, s3://bucket/folder) are what a user might type, not what the
; program connects to.  The engine drops every other fact inside the span (repomodeler/extract/engine.py TEST_ONLY).
((keyword_argument name: (identifier) @_name value: (_) @fact)
 (#match? @_name "^(examples?|json_schema_extra)$")
 (#set! fact "code.test_only"))
