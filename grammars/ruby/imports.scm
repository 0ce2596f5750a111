; require 'net/http' / require_relative 'lib/x' / gem 'redis' (Gemfile): the module is the name.
((call method: (identifier) @_req arguments: (argument_list . (string (string_content) @module))) @fact
 (#any-of? @_req "require" "require_relative")
 (#set! fact "import"))
((call method: (identifier) @_gem arguments: (argument_list . (string (string_content) @module))) @fact
 (#eq? @_gem "gem")
 (#set! fact "import") (#set! only_files "(^|/)Gemfile$"))
; class Mailer < ActionMailer::Base: a Rails mailer, the framework's mail library (delivered by SMTP by default)
((class superclass: (superclass (scope_resolution) @module)) @fact
 (#eq? @module "ActionMailer::Base")
 (#set! fact "import"))
