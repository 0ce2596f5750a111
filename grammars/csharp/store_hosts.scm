; A literal host handed to a call that names a store or broker technology:
; OpenRedisConnection("redis"), ConnectToMongo("mongo"), CreateRabbitConnection("rabbitmq").
; Links only when the literal is the name of a component of that technology (graph/platform.py).
((invocation_expression
   function: [(identifier) @call (member_access_expression name: (identifier) @call)]
   arguments: (argument_list . (argument (string_literal) @service))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Nn]pgsql|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))
