; A literal host handed to a call that names a store or broker technology:
; connect_redis("redis"), get_mongo_client("mongo"). Links only when the literal names a component
; of that technology (graph/platform.py).
((call
   function: [(identifier) @call (attribute attribute: (identifier) @call)]
   arguments: (argument_list . (string (string_start) . (string_content) @service . (string_end)))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))

; A literal host under a key that says it is one, in a settings dict or a client's keyword arguments:
; DATABASES = {"default": {"HOST": "pgbouncer"}}, {"host": "redis", "port": 6379}, Redis(host="cache").
; Links only when the literal is a component's name (graph/platform.py).
((pair
   key: (string (string_content) @key)
   value: (string (string_start) . (string_content) @service . (string_end))) @fact
 (#match? @key "^([Hh]ost|HOST|[Hh]ostname|HOSTNAME)$")
 (#set! fact "service.lookup")
 (#set! host_key "true")
 (#set! via "literal host setting"))

((keyword_argument
   name: (identifier) @key
   value: (string (string_start) . (string_content) @service . (string_end))) @fact
 (#match? @key "^(host|hostname)$")
 (#set! fact "service.lookup")
 (#set! host_key "true")
 (#set! via "literal host setting"))

; A host built in code and handed to a call that names a store or broker technology, or under a
; client's `host` keyword: redis.Redis(host=REDIS_HOST), connect_rabbit(f"amqp://{host}"). The expression is
; evaluated through the names it uses (graph/expressions.py); links only to a component of that technology.
((call
   function: (_) @call
   arguments: (argument_list . [(identifier) (binary_operator) (conditional_expression) (attribute)] @expression)) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp|pika)")
 (#set! fact "store.client_call"))

((call
   function: (_) @call
   arguments: (argument_list (keyword_argument
     name: (identifier) @key
     value: [(identifier) (binary_operator) (conditional_expression) (attribute)] @expression))) @fact
 (#match? @key "^(host|hostname)$")
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp|pika|[Cc]onnection[Pp]arameters)")
 (#set! fact "store.client_call"))
