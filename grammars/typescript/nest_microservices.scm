; NestJS microservice handlers.

; @GrpcMethod("CartService", "GetCart") on a method: this code serves the gRPC service.
((decorator (call_expression function: (identifier) @_d arguments: (arguments . (string (string_fragment) @service)))) @fact
 (#eq? @_d "GrpcMethod")
 (#set! fact "grpc.server"))

; @EventPattern("orders.created") / @MessagePattern("orders.get"): a subscription whose transport
; (kafka, nats, rabbitmq, redis) is configured elsewhere, so no `technology` is set.
((decorator (call_expression function: (identifier) @_d arguments: (arguments . (string (string_fragment) @topic)))) @fact
 (#any-of? @_d "EventPattern" "MessagePattern")
 (#set! fact "messaging.subscribe"))
