; Environment reads: System.get_env("NAME"[, "default"]), System.fetch_env!("NAME"), System.fetch_env("NAME").
((call target: (dot left: (alias) @_sys right: (identifier) @_fn)
       (arguments . (string . (quoted_content) @name .) . (string . (quoted_content) @default .)?)) @fact
 (#eq? @_sys "System") (#any-of? @_fn "get_env" "fetch_env!" "fetch_env")
 (#set! fact "env.read"))

; A helper named for the environment handed a variable's name (config/runtime.exs often wraps the
; reads: Util.fetch_env!("DATABASE_HOST", all: "localhost"), get_env("PORT")): the literal, spelled like
; an environment variable, is the variable read.
((call target: (dot left: (alias) @_mod right: (identifier) @_fn)
       (arguments . (string . (quoted_content) @name .))) @fact
 (#not-eq? @_mod "System") (#match? @_fn "(?i)env") (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
 (#set! fact "env.read"))
((call target: (identifier) @_fn (arguments . (string . (quoted_content) @name .))) @fact
 (#match? @_fn "(?i)env") (#match? @name "^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$")
 (#set! fact "env.read"))
