; Platform roles declared by annotations and service-id lookups (Spring Cloud and similar stacks).

; Class-level enabling annotations: @EnableEurekaServer, @EnableConfigServer, @EnableDiscoveryClient,
; @EnableZuulProxy, @EnableTurbine, @EnableHystrixDashboard, @EnableAdminServer, @EnableZipkinServer ...
((class_declaration
   (modifiers [(marker_annotation name: (identifier) @name) (annotation name: (identifier) @name)] @fact))
 (#match? @name "^(Enable[A-Z][A-Za-z]+|SpringBootApplication|EnableDiscoveryClient)$")
 (#set! fact "annotation"))

; Lookups by service id: loadBalancer.choose("orders"), discoveryClient.getInstances("orders"),
; eurekaClient.getNextServerFromEureka("orders", false), getApplication("ORDERS")
((method_invocation
   name: (identifier) @_m
   arguments: (argument_list . (string_literal (string_fragment) @service))) @fact
 (#any-of? @_m "choose" "getInstances" "getNextServerFromEureka" "getApplication" "getInstancesById")
 (#set! fact "service.lookup"))
