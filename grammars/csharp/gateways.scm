; Reverse-proxy gateways registered in code: builder.Services.AddReverseProxy() (YARP),
; services.AddOcelot() (Ocelot): the component forwards requests to the services its routes name.
((invocation_expression
   function: (member_access_expression name: (identifier) @name)) @fact
 (#any-of? @name "AddReverseProxy" "AddOcelot" "UseOcelot" "MapReverseProxy")
 (#set! fact "gateway.code"))
