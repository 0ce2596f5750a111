; Module directives: alias Shop.Orders / import Ecto.Query / use Phoenix.Router / require Logger.
; The module is the aliased name as written.
((call target: (identifier) @_kw (arguments . (alias) @module)) @fact
 (#any-of? @_kw "alias" "import" "use" "require")
 (#set! fact "import"))

; alias Shop.{Repo, Orders}: the shared prefix is the module (the braces are not joined to it).
((call target: (identifier) @_kw (arguments . (dot left: (alias) @module right: (tuple)))) @fact
 (#eq? @_kw "alias")
 (#set! fact "import"))
