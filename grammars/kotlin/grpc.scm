; gRPC with grpc-java / grpc-kotlin generated code.  The resolver strips ImplBase/Grpc; `strip`
; removes grpc-kotlin's Coroutine decoration.

; class CartService : CartServiceGrpc.CartServiceImplBase() / CartServiceGrpcKt.CartServiceCoroutineImplBase()
((class_declaration
   (delegation_specifiers (delegation_specifier (constructor_invocation (user_type (identifier) @service .))))) @fact
 (#match? @service "ImplBase$")
 (#set! fact "grpc.server") (#set! strip "Coroutine(?=ImplBase$)"))

; CartServiceGrpc.newBlockingStub(channel) / newStub / newFutureStub
((call_expression (navigation_expression (identifier) @service (identifier) @_fn)) @fact
 (#match? @service "Grpc$") (#any-of? @_fn "newBlockingStub" "newStub" "newFutureStub")
 (#set! fact "grpc.client"))

; CartServiceGrpcKt.CartServiceCoroutineStub(channel)
((call_expression (navigation_expression (identifier) @_kt (identifier) @service)) @fact
 (#match? @_kt "GrpcKt$") (#match? @service "CoroutineStub$")
 (#set! fact "grpc.client") (#set! strip "CoroutineStub$"))
