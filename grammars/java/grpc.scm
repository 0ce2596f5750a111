; gRPC with grpc-java generated code.  The resolver strips ImplBase/Grpc from `service`.

; class CartServiceImpl extends CartServiceGrpc.CartServiceImplBase
((class_declaration superclass: (superclass [(scoped_type_identifier (type_identifier) @service .) (type_identifier) @service])) @fact
 (#match? @service "ImplBase$")
 (#set! fact "grpc.server"))

; CartServiceGrpc.newBlockingStub(channel) / newStub / newFutureStub
((method_invocation object: (identifier) @service name: (identifier) @_fn) @fact
 (#match? @service "Grpc$") (#any-of? @_fn "newBlockingStub" "newStub" "newFutureStub")
 (#set! fact "grpc.client"))
