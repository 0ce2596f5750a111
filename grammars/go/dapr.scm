; Dapr service invocation: client.InvokeMethod(ctx, "order-processor", "orders", "get")
((call_expression
   function: (selector_expression field: (field_identifier) @_m)
   arguments: (argument_list . (_) . (interpreted_string_literal (interpreted_string_literal_content) @service))) @fact
 (#any-of? @_m "InvokeMethod" "InvokeMethodWithContent" "InvokeMethodWithCustomContent")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
