; Dapr service invocation: DaprClient().invoke_method("order-processor", "orders", ...)
((call
   function: (attribute attribute: (identifier) @_m)
   arguments: (argument_list . (string (string_content) @service))) @fact
 (#any-of? @_m "invoke_method" "invoke_method_async")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; Dapr pub/sub: DaprClient().publish_event(pubsub_name="pubsub", topic_name="orders", data=...) publishes
((call
   function: (attribute attribute: (identifier) @_m)
   arguments: (argument_list) @pubsub) @fact
 (#any-of? @_m "publish_event" "publish_event_async")
 (#set! fact "dapr.pubsub") (#set! role "publish"))
; @app.subscribe(pubsub="pubsub", topic="orders") / @dapr_app.subscribe(...) subscribes
((decorator (call function: (attribute attribute: (identifier) @_m) arguments: (argument_list) @pubsub)) @fact
 (#eq? @_m "subscribe")
 (#match? @pubsub "(?:pubsub|topic)")
 (#set! fact "dapr.pubsub") (#set! role "subscribe"))
; Dapr state: DaprClient().save_state(store_name="statestore", key=..., value=...) / get_state(...)
((call
   function: (attribute attribute: (identifier) @_m)
   arguments: (argument_list) @store) @fact
 (#any-of? @_m "save_state" "get_state" "delete_state" "get_bulk_state" "save_bulk_state" "execute_state_transaction"
               "query_state")
 (#set! fact "dapr.state"))
