; gRPC with grpc-ruby generated code (Hipstershop::CartService::Service / ::Stub).

; class CartServer < Hipstershop::CartService::Service
((class superclass: (superclass (scope_resolution scope: [(scope_resolution name: (constant) @service) (constant) @service] name: (constant) @_svc))) @fact
 (#eq? @_svc "Service")
 (#set! fact "grpc.server"))

; Hipstershop::CartService::Stub.new(addr, :this_channel_is_insecure)
((call receiver: (scope_resolution scope: [(scope_resolution name: (constant) @service) (constant) @service] name: (constant) @_stub)
       method: (identifier) @_new) @fact
 (#eq? @_stub "Stub") (#eq? @_new "new")
 (#set! fact "grpc.client"))
