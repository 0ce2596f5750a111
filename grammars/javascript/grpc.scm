; gRPC with @grpc/grpc-js and proto-loader.  `service` is the proto service name as written.

; server.addService(proto.pkg.CartService.service, impl)
((call_expression
   function: (member_expression property: (property_identifier) @_fn)
   arguments: (arguments . (member_expression
                            object: [(member_expression property: (property_identifier) @service) (identifier) @service]
                            property: (property_identifier) @_svc))) @fact
 (#eq? @_fn "addService") (#eq? @_svc "service")
 (#set! fact "grpc.server"))

; new proto.CartService(address, grpc.credentials.createInsecure()) and generated
; new CartServiceClient(address, credentials.createSsl()): a constructor given channel credentials.
((new_expression
   constructor: [(member_expression property: (property_identifier) @service) (identifier) @service]
   arguments: (arguments (_) . (call_expression
                                function: (member_expression
                                            object: [(member_expression property: (property_identifier) @_cred) (identifier) @_cred])))) @fact
 (#eq? @_cred "credentials")
 (#set! fact "grpc.client") (#set! strip "Client$"))
