; Dapr service invocation: client.InvokeMethod(ctx, "order-processor", "orders", "get")
((call_expression
   function: (selector_expression field: (field_identifier) @_m)
   arguments: (argument_list . (_) . (interpreted_string_literal (interpreted_string_literal_content) @service))) @fact
 (#any-of? @_m "InvokeMethod" "InvokeMethodWithContent" "InvokeMethodWithCustomContent")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; Dapr pub/sub: client.PublishEvent(ctx, "pubsub", "orders", data) publishes through the sidecar
((call_expression
   function: (selector_expression field: (field_identifier) @_m)
   arguments: (argument_list . (_) . (_) @pubsub . (_) @topic)) @fact
 (#any-of? @_m "PublishEvent" "PublishEventfromCustomContent" "PublishEvents")
 (#set! fact "dapr.pubsub") (#set! role "publish"))
; s.AddTopicEventHandler(&common.Subscription{PubsubName: "pubsub", Topic: "orders"}, handler) subscribes
((call_expression
   function: (selector_expression field: (field_identifier) @_m)
   arguments: (argument_list . (_) @pubsub)) @fact
 (#eq? @_m "AddTopicEventHandler")
 (#set! fact "dapr.pubsub") (#set! role "subscribe"))
; Dapr state: client.GetState(ctx, "statestore", key, meta) / SaveState / DeleteState...: the second
; argument names the state store component
((call_expression
   function: (selector_expression field: (field_identifier) @_m)
   arguments: (argument_list . (_) . (_) @store)) @fact
 (#any-of? @_m "GetState" "SaveState" "DeleteState" "GetBulkState" "SaveBulkState" "DeleteBulkState"
               "ExecuteStateTransaction" "GetStateWithConsistency" "SaveStateWithETag" "QueryStateAlpha1")
 (#set! fact "dapr.state"))
