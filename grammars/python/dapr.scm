; Dapr service invocation: DaprClient().invoke_method("order-processor", "orders", ...)
((call
   function: (attribute attribute: (identifier) @_m)
   arguments: (argument_list . (string (string_content) @service))) @fact
 (#any-of? @_m "invoke_method" "invoke_method_async")
 (#set! fact "service.lookup") (#set! protocol "http") (#set! via "dapr service invocation"))
