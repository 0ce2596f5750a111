; Dapr service invocation: the app id of the service called through the Dapr sidecar.
; daprClient.InvokeMethodAsync<Order>(HttpMethod.Get, "order-processor", "orders/1")
((invocation_expression
   function: (member_access_expression name: [(identifier) @_m (generic_name (identifier) @_m)])
   arguments: (argument_list . (argument (member_access_expression)) . (argument (string_literal (string_literal_content) @service)))) @fact
 (#any-of? @_m "InvokeMethodAsync" "InvokeMethodWithResponseAsync" "CreateInvokeMethodRequest")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; daprClient.InvokeMethodAsync<Order>("order-processor", "orders"), DaprClient.CreateInvokeHttpClient(appId: "checkout")
((invocation_expression
   function: (member_access_expression name: [(identifier) @_m (generic_name (identifier) @_m)])
   arguments: (argument_list . (argument (string_literal (string_literal_content) @service)))) @fact
 (#any-of? @_m "InvokeMethodAsync" "InvokeMethodWithResponseAsync" "CreateInvokeMethodRequest" "CreateInvokeHttpClient"
               "InvokeMethodGrpcAsync")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
; Dapr pub/sub: [Topic("pubsub", "orders")] on a controller action subscribes; the first argument names
; the pub/sub component (often a constant), the second the topic.
((attribute name: (identifier) @_n (attribute_argument_list . (attribute_argument) @pubsub . (attribute_argument) @topic)) @fact
 (#eq? @_n "Topic")
 (#set! fact "dapr.pubsub") (#set! role "subscribe"))
; daprClient.PublishEventAsync("pubsub", "orders", order): publishes through the sidecar
((invocation_expression
   function: (member_access_expression name: [(identifier) @_m (generic_name (identifier) @_m)])
   arguments: (argument_list . (argument) @pubsub . (argument) @topic)) @fact
 (#eq? @_m "PublishEventAsync")
 (#set! fact "dapr.pubsub") (#set! role "publish"))
; Dapr state: daprClient.GetStateAsync<Cart>("statestore", key), SaveStateAsync, GetStateEntryAsync...:
; the first argument names the state store component
((invocation_expression
   function: (member_access_expression name: [(identifier) @_m (generic_name (identifier) @_m)])
   arguments: (argument_list . (argument) @store)) @fact
 (#any-of? @_m "GetStateAsync" "SaveStateAsync" "GetStateEntryAsync" "DeleteStateAsync" "GetBulkStateAsync"
               "TrySaveStateAsync" "TryDeleteStateAsync" "ExecuteStateTransactionAsync" "QueryStateAsync"
               "GetStateAndETagAsync" "SaveBulkStateAsync" "DeleteBulkStateAsync")
 (#set! fact "dapr.state"))
