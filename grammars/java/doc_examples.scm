; Example values written for documentation (@Schema(example = "https://..."), @ApiModelProperty(example = ...)):
; the address shapes they show are what a user might type, not what the program connects to.  The engine drops
; every other fact inside the span (repomodeler/extract/engine.py TEST_ONLY).
((element_value_pair key: (identifier) @_name value: (_) @fact)
 (#match? @_name "^(examples?)$")
 (#set! fact "code.test_only"))
