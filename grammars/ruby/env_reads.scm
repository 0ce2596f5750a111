; Environment reads: ENV['NAME'], ENV.fetch('NAME'[, 'default']).

; ENV['NAME']
((element_reference object: (constant) @_env . (string (string_content) @name)) @fact
 (#eq? @_env "ENV")
 (#set! fact "env.read"))

; ENV.fetch('NAME') / ENV.fetch('NAME', 'default')
((call receiver: (constant) @_env method: (identifier) @_fn
       arguments: (argument_list . (string (string_content) @name) . (string (string_content) @default)?)) @fact
 (#eq? @_env "ENV") (#eq? @_fn "fetch")
 (#set! fact "env.read"))
