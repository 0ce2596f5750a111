; gRPC with Grpc.Tools generated code.  The resolver strips Base from `service`; `strip` removes Client.

; class CartService : Cart.CartServiceBase  (server)
((class_declaration (base_list (qualified_name name: (identifier) @service))) @fact
 (#match? @service "ServiceBase$|Base$")
 (#set! fact "grpc.server"))

; new CartService.CartServiceClient(channel)  (client)
((object_creation_expression type: (qualified_name name: (identifier) @service)) @fact
 (#match? @service "Client$")
 (#set! fact "grpc.client") (#set! strip "Client$"))
