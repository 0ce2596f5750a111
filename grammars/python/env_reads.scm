; os.getenv("NAME"[, "default"])
((call function: (attribute object: (identifier) @_os attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_os "os") (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; os.environ.get("NAME"[, "default"])
((call function: (attribute object: (attribute object: (identifier) @_os attribute: (identifier) @_env) attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_os "os") (#eq? @_env "environ") (#eq? @_fn "get")
 (#set! fact "env.read"))

; os.environ["NAME"]
((subscript value: (attribute object: (identifier) @_os attribute: (identifier) @_env)
            subscript: (string (string_content) @name)) @fact
 (#eq? @_os "os") (#eq? @_env "environ")
 (#set! fact "env.read"))
