; A setting read by its key from a decoded configuration document: result["ProfileMongoAddress"]
; (config.json unmarshalled into a map); resolved against the repository's config*.json documents.
((index_expression index: (interpreted_string_literal) @key) @fact
 (#match? @key "^\"[A-Za-z][A-Za-z0-9_.-]*(Addr|Address|Host|URL|Url|Uri|URI|Endpoint)\"$")
 (#set! fact "config.key"))
