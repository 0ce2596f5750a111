; A literal host handed to a call that names a store or broker technology:
; connect_redis("redis"), get_mongo_client("mongo"). Links only when the literal names a component
; of that technology (graph/platform.py).
((call
   function: [(identifier) @call (attribute attribute: (identifier) @call)]
   arguments: (argument_list . (string (string_start) . (string_content) @service . (string_end)))) @fact
 (#match? @call "([Rr]edis|[Mm]ongo|[Pp]ostgres|[Mm]y[Ss]ql|[Rr]abbit|[Kk]afka|[Nn]ats|[Ee]lastic|[Mm]emcache|[Cc]assandra|[Aa]mqp)")
 (#set! fact "service.lookup")
 (#set! store_call "true"))
