; gRPC with generated Go code.  `service` as written; `strip` removes generated decoration.

; pb.RegisterCartServiceServer(grpcServer, &server{})
((call_expression
   function: [(identifier) @service (selector_expression field: (field_identifier) @service)]) @fact
 (#match? @service "^Register[A-Za-z0-9_]+Server$")
 (#set! fact "grpc.server") (#set! strip "^Register"))

; pb.NewCartServiceClient(conn)
((call_expression
   function: [(identifier) @service (selector_expression field: (field_identifier) @service)]) @fact
 (#match? @service "^New[A-Za-z0-9_]+ServiceClient$")
 (#set! fact "grpc.client") (#set! strip "^New|Client$"))

; search.NewSearchClient(conn): a generated client whose service name does not end in "Service";
; as common a name as any constructor, so it counts only when code here registers that service.
((call_expression
   function: (selector_expression field: (field_identifier) @service)) @fact
 (#match? @service "^New[A-Z][A-Za-z0-9_]*Client$")
 (#not-match? @service "ServiceClient$")
 (#set! fact "grpc.client") (#set! strip "^New|Client$") (#set! needs_server "true"))
