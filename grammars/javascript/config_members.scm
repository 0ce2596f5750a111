; Members of a settings object read where they are used (`SERVER_CONFIG.ORDERS_SERVICE.SERVER_ORIGIN`,
; `config.services.orders`): with env.read_member facts of the module filling the object, they tell which of the
; settings a shared configuration module reads each program that imports it takes.  Only objects named like
; settings (config, conf, cfg, settings) are kept.
((member_expression object: (identifier) @_root property: (property_identifier)) @expr
 (#match? @_root "([cC]onf|CONF|[cC]fg|CFG|[sS]ettings|SETTINGS)")
 (#set! verbatim "expr")
 (#set! fact "config.member_ref"))
((member_expression object: (member_expression object: (identifier) @_root property: (property_identifier))
                    property: (property_identifier)) @expr
 (#match? @_root "([cC]onf|CONF|[cC]fg|CFG|[sS]ettings|SETTINGS)")
 (#set! verbatim "expr")
 (#set! fact "config.member_ref"))
