; Dapr service invocation: client.invoker.invoke("order-processor", "orders", HttpMethod.GET)
((call_expression
   function: (member_expression object: (member_expression property: (property_identifier) @_inv)
                                property: (property_identifier) @_m)
   arguments: (arguments . (string (string_fragment) @service))) @fact
 (#eq? @_inv "invoker") (#eq? @_m "invoke")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; ... or a plain HTTP call through the sidecar naming the app: headers: {"dapr-app-id": "order-processor"}
((pair key: (string (string_fragment) @_k) value: (string (string_fragment) @service)) @fact
 (#eq? @_k "dapr-app-id")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; Dapr pub/sub: client.pubsub.publish("pubsub", "orders", data) / server.pubsub.subscribe("pubsub", "orders", cb)
((call_expression
   function: (member_expression object: (member_expression property: (property_identifier) @_ps)
                                property: (property_identifier) @role)
   arguments: (arguments . (_) @pubsub . (_) @topic)) @fact
 (#eq? @_ps "pubsub") (#any-of? @role "publish" "subscribe")
 (#set! fact "dapr.pubsub"))
; Dapr state: client.state.save("statestore", [...]) / client.state.get("statestore", key)
((call_expression
   function: (member_expression object: (member_expression property: (property_identifier) @_st)
                                property: (property_identifier) @_m)
   arguments: (arguments . (_) @store)) @fact
 (#eq? @_st "state") (#any-of? @_m "save" "get" "delete" "getBulk" "transaction" "query")
 (#set! fact "dapr.state"))
