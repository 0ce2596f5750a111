; A literal host handed to a call that names a store or broker technology:
; newRedisPool("redis"), ConnectMongo("mongo"). Links only when the literal names a component of
; that technology (graph/platform.py).
((call_expression
   function: [(identifier) @call (selector_expression field: (field_identifier) @call)]
   arguments: (argument_list . (interpreted_string_literal) @service)) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))

; A host built in code and handed to a call that names a store or broker technology:
; amqp.Dial(url), newRedisPool(addr). The expression is evaluated through the names it uses
; (graph/expressions.py); links only to a component of that technology.
((call_expression
   function: (_) @call
   arguments: (argument_list . [(identifier) (binary_expression) (call_expression) (selector_expression)] @expression)) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "store.client_call"))
