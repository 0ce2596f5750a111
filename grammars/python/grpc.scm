; gRPC servers and clients (generated *_pb2_grpc code).  `service` is captured as written; the
; `strip` regular expression (see grammars/README.md) removes generated-code decoration.

; demo_pb2_grpc.add_CartServiceServicer_to_server(CartService(), server)
((call function: [(identifier) @service (attribute attribute: (identifier) @service)]) @fact
 (#match? @service "^add_[A-Za-z0-9_]+Servicer_to_server$")
 (#set! fact "grpc.server") (#set! strip "^add_|_to_server$"))

; class CartService(demo_pb2_grpc.CartServiceServicer):
((class_definition superclasses: (argument_list [(identifier) @service (attribute attribute: (identifier) @service)])) @fact
 (#match? @service "Servicer$")
 (#set! fact "grpc.server"))

; demo_pb2_grpc.CartServiceStub(channel)
((call function: [(identifier) @service (attribute attribute: (identifier) @service)]) @fact
 (#match? @service "^[A-Z][A-Za-z0-9_]*Stub$")
 (#set! fact "grpc.client") (#set! strip "Stub$"))
