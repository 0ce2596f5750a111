; gRPC with tonic generated code.  The resolver strips Server; `strip` removes Client.

; Server::builder().add_service(CartServiceServer::new(svc))
((call_expression function: (scoped_identifier path: (identifier) @service name: (identifier) @_new)) @fact
 (#match? @service "ServiceServer$") (#any-of? @_new "new" "with_interceptor" "from_arc")
 (#set! fact "grpc.server"))

; CartServiceClient::connect("http://cart:7070") / CartServiceClient::new(channel)
((call_expression function: (scoped_identifier path: (identifier) @service name: (identifier) @_new)) @fact
 (#match? @service "ServiceClient$") (#any-of? @_new "new" "connect" "with_interceptor")
 (#set! fact "grpc.client") (#set! strip "Client$"))
