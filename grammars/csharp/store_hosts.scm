; A literal host handed to a call that names a store or broker technology:
; OpenRedisConnection("redis"), ConnectToMongo("mongo"), CreateRabbitConnection("rabbitmq").
; Links only when the literal is the name of a component of that technology (graph/platform.py).
((invocation_expression
   function: [(identifier) @call (member_access_expression name: (identifier) @call)]
   arguments: (argument_list . (argument (string_literal) @service))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Nn]pgsql|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))

; A host built in code and handed to a call that names a store or broker technology:
; RabbitHutch.CreateBus(connectionStr), ConnectionMultiplexer.Connect($"{host}:6379"). The expression is
; evaluated through the names it uses (graph/expressions.py); links only to a component of that technology.
((invocation_expression
   function: (_) @call
   arguments: (argument_list . (argument [(identifier) (interpolated_string_expression) (binary_expression)
                                          (conditional_expression) (member_access_expression)] @expression))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Nn]pgsql|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "store.client_call"))
