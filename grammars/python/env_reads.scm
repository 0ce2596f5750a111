; Environment variable reads: `name`, and `default` when the default is a string literal.

; os.getenv("NAME"[, "default"])
((call function: (attribute object: (identifier) @_os attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_os "os") (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; getenv("NAME"[, "default"]) after `from os import getenv`
((call function: (identifier) @_fn
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_fn "getenv")
 (#set! fact "env.read"))

; os.environ.get("NAME"[, "default"])
((call function: (attribute object: (attribute object: (identifier) @_os attribute: (identifier) @_env) attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_os "os") (#eq? @_env "environ") (#eq? @_fn "get")
 (#set! fact "env.read"))

; environ.get("NAME"[, "default"]) after `from os import environ`
((call function: (attribute object: (identifier) @_env attribute: (identifier) @_fn)
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_env "environ") (#eq? @_fn "get")
 (#set! fact "env.read"))

; os.environ["NAME"]
((subscript value: (attribute object: (identifier) @_os attribute: (identifier) @_env)
            subscript: (string (string_content) @name)) @fact
 (#eq? @_os "os") (#eq? @_env "environ")
 (#set! fact "env.read"))

; environ["NAME"]
((subscript value: (identifier) @_env subscript: (string (string_content) @name)) @fact
 (#eq? @_env "environ")
 (#set! fact "env.read"))

; os.getenv(SETTING_NAME) / os.environ.get(settings.NAME) / os.environ[NAME]: the variable's name is a
; constant's value (resolved against the repository's constants where settings are matched to readers)
((call function: (attribute object: (identifier) @_os attribute: (identifier) @_fn)
       arguments: (argument_list . [(identifier) (attribute)] @expr)) @fact
 (#eq? @_os "os") (#eq? @_fn "getenv")
 (#set! fact "env.read_ref"))
((call function: (attribute object: (attribute object: (identifier) @_os attribute: (identifier) @_env) attribute: (identifier) @_fn)
       arguments: (argument_list . [(identifier) (attribute)] @expr)) @fact
 (#eq? @_os "os") (#eq? @_env "environ") (#eq? @_fn "get")
 (#set! fact "env.read_ref"))
((subscript value: (attribute object: (identifier) @_os attribute: (identifier) @_env)
            subscript: [(identifier) (attribute)] @expr) @fact
 (#eq? @_os "os") (#eq? @_env "environ")
 (#set! fact "env.read_ref"))

; pydantic settings: class Settings(BaseSettings): database_url: str = ...  (read from DATABASE_URL)
((class_definition
   superclasses: (argument_list [(identifier) (attribute)] @_base)
   body: (block (expression_statement (assignment left: (identifier) @name type: (type))))) @fact
 (#match? @_base "(^|\\.)BaseSettings$")
 (#set! fact "config.field"))
