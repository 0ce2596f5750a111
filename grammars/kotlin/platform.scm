; Platform roles declared by annotations and service-id lookups (Spring Cloud in Kotlin), as in
; grammars/java/platform.scm: the same fact kinds, so the same resolver rules apply.

; Class-level enabling annotations: @SpringBootApplication, @EnableEurekaServer, @EnableConfigServer ...
((class_declaration
   (modifiers [(annotation (user_type (identifier) @name)) (annotation (constructor_invocation (user_type (identifier) @name)))] @fact))
 (#match? @name "^(Enable[A-Z][A-Za-z]+|SpringBootApplication|EnableDiscoveryClient)$")
 (#set! fact "annotation"))

; Lookups by service id: loadBalancer.choose("orders"), discoveryClient.getInstances("orders")
((call_expression
   (navigation_expression (_) (identifier) @_m)
   (value_arguments . (value_argument (string_literal (string_content) @service)))) @fact
 (#any-of? @_m "choose" "getInstances" "getNextServerFromEureka" "getApplication" "getInstancesById")
 (#set! fact "service.lookup"))

; A host named by a literal when a URL is built: builder.host("payment"), uri.setHost("carts")
((call_expression
   (navigation_expression (_) (identifier) @_m)
   (value_arguments . (value_argument (string_literal (string_content) @service)) .)) @fact
 (#match? @_m "^((set|with)Host(name)?|host(name)?)$")
 (#set! fact "service.lookup"))
