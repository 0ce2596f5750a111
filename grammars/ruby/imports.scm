; require 'net/http' / require_relative 'lib/x' / gem 'redis' (Gemfile): the module is the name.
((call method: (identifier) @_req arguments: (argument_list . (string (string_content) @module))) @fact
 (#any-of? @_req "require" "require_relative")
 (#set! fact "import"))
((call method: (identifier) @_gem arguments: (argument_list . (string (string_content) @module))) @fact
 (#eq? @_gem "gem")
 (#set! fact "import") (#set! only_files "(^|/)Gemfile$"))
