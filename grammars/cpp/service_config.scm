; A service's address read from a configuration document by the service's name:
; config_json["social-graph-service"]["addr"] (nlohmann::json, a shared service-config.json): the
; code reaches the component of that name (see graph/platform.py service_lookups).
((subscript_expression
   argument: (subscript_expression
     indices: (subscript_argument_list . (string_literal (string_content) @service) .))
   indices: (subscript_argument_list . (string_literal (string_content) @_key) .)) @fact
 (#match? @_key "^(addr|address|host|hostname|url|uri|endpoint)$")
 (#set! fact "service.lookup") (#set! protocol "tcp"))
