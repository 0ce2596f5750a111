; A literal host handed to a call that names a store or broker technology:
; connectRedis("redis"), createMongoClient("mongo"). Links only when the literal names a component
; of that technology (graph/platform.py).
((call_expression
   function: [(identifier) @call (member_expression property: (property_identifier) @call)]
   arguments: (arguments . (string (string_fragment) @service))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))

; A literal host under a key that says it is one: new Redis({ host: 'redis', port: 6379 }),
; { connection: { host: 'cache' } }, Node's http.request({ host: `metadata`, path: `/videos` }) (a template literal
; with nothing substituted is a literal). Links only when the literal is a component's name (graph/platform.py).
((pair
   key: [(property_identifier) (string (string_fragment))] @key
   value: [(string (string_fragment) @service) (template_string . (string_fragment) @service .)]) @fact
 (#match? @key "^[\"']?(host|hostname)[\"']?$")
 (#set! fact "service.lookup")
 (#set! host_key "true")
 (#set! via "literal host setting"))

; A host built in code and handed to a call that names a store or broker technology:
; amqp.connect(`amqp://${host}`), createRedisClient(redisUrl). The expression is evaluated through the names it
; uses (graph/expressions.py); links only to a component of that technology.
((call_expression
   function: (_) @call
   arguments: (arguments . [(identifier) (template_string) (binary_expression) (ternary_expression) (member_expression)] @expression)) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "store.client_call"))
