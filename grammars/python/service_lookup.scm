; Calls addressed by service name through a broker or registry (RPC over AMQP).

; nameko: orders_rpc = RpcProxy("orders")  -> the service that declares name = "orders"
((call
   function: [(identifier) @_f (attribute attribute: (identifier) @_f)]
   arguments: (argument_list . (string (string_content) @service))) @fact
 (#any-of? @_f "RpcProxy" "ServiceRpcProxy")
 (#set! protocol "amqp")
 (#set! fact "service.lookup"))
